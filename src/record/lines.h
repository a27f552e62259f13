/* kbench - kbench record: what the calls on descriptors and on names share (lines.c)
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#ifndef KBENCH_RECORD_LINES_H
#define KBENCH_RECORD_LINES_H

#include "record/stline.h"
#include "record/trace.h"

#define REC_PATH 4096
#define LINK_KIND "calls on links and nodes the program made (no operation makes one)"

#define LINK_KIND "calls on links and nodes the program made (no operation makes one)"
void rec_emit(struct rec *r, double t, enum rec_op op, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* The absolute path of (dirfd argument, path argument) of p, normalized
 * into out.  Returns 0, or -1 when the path argument is not a string. */
int rec_resolve(struct rec *r, struct proc *p, const char *dirarg, const char *patharg,
		char *out);
/* The NT status a loadfile line of a call that failed with err expects. */
const char *rec_status(const char *err);
/* The ofd of an fd argument of p: from p's table, or, for a descriptor
 * the program had before the trace began, made from -yy's path (an
 * NTCreateX is written for it when it is under DIR).  NULL when the
 * argument is no descriptor. */
struct ofd *rec_fd(struct rec *r, struct proc *p, const char *arg, double t);
/* A call on path that no line can say: counted by its kind (a link the
 * program made, a file outside DIR, a pipe or socket). */
void rec_outside(struct rec *r, const char *path);
/* A new open file of path (owned by the caller's descriptor table). */
struct ofd *rec_ofd_new(const char *path);
/* The last descriptor of o went (at time t): its Close, if it has a
 * handle, and o freed.  o may be NULL. */
void rec_ofd_gone(struct rec *r, struct ofd *o, double t);
/* An NTCreateX of o (under DIR) with disposition disp, at time t, which
 * gives o a new handle. */
void rec_open_line(struct rec *r, struct ofd *o, double t, int disp);
/* Is this -yy path a file (starts with '/')? */
static inline int rec_is_file(const char *path)
{
	return path[0] == '/';
}

#endif
