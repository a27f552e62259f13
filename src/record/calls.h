/* kbench - kbench record: from a traced call to loadfile lines
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * rec_call() takes one whole call (an st_line of kind ST_CALL, joined if
 * strace printed it in two halves) of process p and writes the loadfile
 * lines it means to r->body, or counts it as left out or followed.
 * calls.c holds the calls on descriptors, paths.c those on names, and
 * lines.c what both use (it includes neither); this header is what they
 * share.
 */
#ifndef KBENCH_RECORD_CALLS_H
#define KBENCH_RECORD_CALLS_H

#include "record/lines.h"

/* One whole call of process p. */
void rec_call(struct rec *r, struct proc *p, const struct st_line *l);
/* Process p ended (or its table is gone): its descriptors are closed. */
void rec_exit(struct rec *r, struct proc *p, double t);

#endif
