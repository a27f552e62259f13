/* kbench - kbench record: the calls on names (paths.c)
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#ifndef KBENCH_RECORD_PATHS_H
#define KBENCH_RECORD_PATHS_H

#include "record/lines.h"

/* Calls on names: 1 when name is one of them (and handled), else 0. */
int rec_path_call(struct rec *r, struct proc *p, const struct st_line *l);

#endif
