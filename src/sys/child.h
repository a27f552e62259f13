/* kbench - running kbench itself as a child for one measured run
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * kbench suite measures by executing kbench (load, disk, micro) once per
 * run, so every run starts from a fresh process (no memory or cache state
 * carried over from the previous one) and is exactly what a tester would
 * get from the same command by hand.
 */
#ifndef KBENCH_CHILD_H
#define KBENCH_CHILD_H

#include <signal.h>
#include <stddef.h>

struct child_result {
	int status;            /* exit status; 128 + signal if killed by one; 127 if
				* it could not be executed */
	double seconds;        /* wall-clock time it ran, seconds */
	char last_line[256];   /* last non-blank line of its output ("" if none) */
};

/* The path of the running kbench binary: /proc/self/exe; without /proc,
 * the argv[0] main() was given (glibc's program_invocation_name), else
 * "kbench" (looked up in PATH by child_run).  Never NULL. */
const char *child_self(void);

/* Run exe (a path; without '/', looked up in PATH) with arguments args
 * (args[0] is the first argument after the program, e.g. "load"; the list
 * ends with NULL), standard input from /dev/null, standard output to the
 * file out and standard error to the file err (each created or truncated;
 * they may be the same file).  Waits for it; when *stop becomes non-zero
 * meanwhile (a signal handler sets it) the child gets SIGTERM, and SIGKILL
 * if still there 15 s later; if the caller dies first (even by SIGKILL)
 * the kernel sends the child SIGTERM (PR_SET_PDEATHSIG).  r->last_line is
 * the last line of err, or of
 * out when err has none.  Returns 0 with r filled, or -1 if no process
 * could be started (errno set). */
int child_run(const char *exe, const char *const *args, const char *out, const char *err,
	      volatile sig_atomic_t *stop, struct child_result *r);

/* child_run with the child in the memory cgroup cg (joined right after
 * the fork, before the exec; NULL: where the caller is).  A child that
 * cannot join exits 127.  The same returns. */
struct memcg;
int child_run_in(const char *exe, const char *const *args, const char *out, const char *err,
		 const struct memcg *cg, volatile sig_atomic_t *stop, struct child_result *r);

#endif
