/* kbench - import: for a file of which nothing was read, the form kbench
 * import knows that it comes closest to, and what differed (imp_closest.c)
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#ifndef KBENCH_IMP_CLOSEST_H
#define KBENCH_IMP_CLOSEST_H

#include "import/imptypes.h"

#include <stdbool.h>
#include <stddef.h>

/* The first line of f that begins a form kbench import reads but is not
 * that form whole, as one phrase into out (n bytes): "line 12: an LMbench
 * table heading without the column rule LMbench 2.0 prints (a line of dash
 * groups, one a column)".  false when no line comes near any form. */
bool imp_closest_form(const struct imp_file *f, char *out, size_t n);

#endif
