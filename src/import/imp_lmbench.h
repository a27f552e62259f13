/* kbench - import: what the LMbench reader (imp_lmbench.c) tells the
 * rest beside its imp_read_lmbench (imp_readers.h)
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#ifndef KBENCH_IMP_LMBENCH_H
#define KBENCH_IMP_LMBENCH_H

#include "import/imptypes.h"

#include <stdbool.h>
#include <stddef.h>

/* For a file of which nothing was read: the first line of f that begins
 * an LMbench summary table this reader knows but is not that table whole,
 * as one phrase into out (n bytes), as imp_closest_form (imp_closest.h)
 * says it.  false when no line comes near one. */
bool imp_lmbench_near(const struct imp_file *f, char *out, size_t n);

#endif
