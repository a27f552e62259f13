/* kbench - kbench record: from a traced call to loadfile lines
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * rec_call() takes one whole call (an st_line of kind ST_CALL, joined if
 * strace printed it in two halves) of process p and writes the loadfile
 * lines it means to r->body, or counts it as left out or followed.
 * calls.c holds the calls on descriptors, paths.c those on names; this
 * header is what they share.
 */
#ifndef KBENCH_RECORD_CALLS_H
#define KBENCH_RECORD_CALLS_H

#include "record/stline.h"
#include "record/trace.h"

#define REC_PATH 4096

/* One whole call of process p. */
void rec_call(struct rec *r, struct proc *p, const struct st_line *l);
/* Process p ended (or its table is gone): its descriptors are closed. */
void rec_exit(struct rec *r, struct proc *p, double t);

/* shared by calls.c and paths.c */
void rec_emit(struct rec *r, double t, enum rec_op op, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* The absolute path of (dirfd argument, path argument) of p, normalized
 * into out.  Returns 0, or -1 when the path argument is not a string. */
int rec_resolve(struct rec *r, struct proc *p, const char *dirarg, const char *patharg,
		char *out);
/* The NT status a loadfile line of a call that failed with err expects. */
const char *rec_status(const char *err);
/* Calls on names: 1 when name is one of them (and handled), else 0. */
int rec_path_call(struct rec *r, struct proc *p, const struct st_line *l);
/* The ofd of an fd argument of p: from p's table, or, for a descriptor
 * the program had before the trace began, made from -yy's path (an
 * NTCreateX is written for it when it is under DIR).  NULL when the
 * argument is no descriptor. */
struct ofd *rec_fd(struct rec *r, struct proc *p, const char *arg, double t);
/* Is this -yy path a file (starts with '/')? */
static inline int rec_is_file(const char *path)
{
	return path[0] == '/';
}

#endif
