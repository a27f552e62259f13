/* kbench - one line of an `strace -f -ttt -yy` log, taken apart
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * strace prints each system call as `PID SECONDS.USEC name(args) = ret`
 * (with -o; `[pid PID] ...` on its standard error), a call another thread
 * interrupted as `name(args <unfinished ...>` and, later,
 * `<... name resumed>rest) = ret`, and a process's end as `+++ exited
 * with N +++`.  st_parse() cuts one line into its parts in place, with
 * no allocation; st_join() puts an unfinished call and its resumption
 * back together.  The arguments are split at the commas between them
 * (not those inside quotes, brackets or an fd's `<path>`), and a quoted
 * string or an fd's path is decoded with st_string()/st_fd().
 */
#ifndef KBENCH_RECORD_STLINE_H
#define KBENCH_RECORD_STLINE_H

#include <stddef.h>
#include <stdint.h>

#define ST_MAX_ARGS 8
/* the largest descriptor number taken (Linux's default nr_open, 2^20) */
#define ST_FD_MAX (1 << 20)

enum st_kind {
	ST_CALL,        /* a whole call with its result */
	ST_UNFINISHED,  /* `name(args <unfinished ...>`: its start only */
	ST_RESUMED,     /* `<... name resumed>rest`: its end only */
	ST_EXIT,        /* `+++ exited with N +++` or `+++ killed by SIG +++` */
	ST_SIGNAL,      /* `--- SIGxxx {...} ---`: a signal delivered */
};

struct st_line {
	enum st_kind kind;
	long pid;           /* 0 when the line has no pid (strace without -f) */
	double t;           /* seconds since the epoch (-ttt) */
	char *name;         /* the system call's name (ST_CALL, _UNFINISHED, _RESUMED) */
	char *rest;         /* ST_UNFINISHED: the text after "name(";
			     * ST_RESUMED: the text after "resumed>" */
	int nargs;          /* ST_CALL: arguments found (at most ST_MAX_ARGS) */
	char *arg[ST_MAX_ARGS];
	int has_ret;        /* ST_CALL: "= N" was given (not "= ?") */
	long long ret;      /* the value returned (a pointer in hexadecimal too) */
	char *ret_path;     /* "= 3</path>": the path, still escaped; or NULL */
	char *err;          /* "= -1 ENOENT (...)": "ENOENT"; or NULL */
};

/* Take apart one line (no newline; it is modified in place and the
 * fields point into it).  Returns 0, or -1 when the line is not one
 * strace -f -ttt prints, with *why set to a short reason. */
int st_parse(char *line, struct st_line *l, const char **why);

/* The whole call of an unfinished start (the text after "name(") and its
 * resumption (after "resumed>"), written to out (outsz bytes) as a line
 * st_parse() reads: "PID T name(START REST".  Returns 0, or -1 when it
 * does not fit. */
int st_join(char *out, size_t outsz, long pid, double t, const char *name,
	    const char *start, const char *rest);

/* Decode a quoted argument ("a\"b\n\x41\101", maybe followed by "...")
 * into out (outsz bytes, NUL-terminated).  Returns 0, or -1 when arg is
 * not a quoted string, has a bad escape or does not fit. */
int st_string(const char *arg, char *out, size_t outsz);

/* An fd argument as -yy prints it: "3</path>", "AT_FDCWD</path>" or a
 * bare "3", "AT_FDCWD".  Sets *fd (AT_FDCWD: -100) and decodes the path
 * into out (empty when none is printed; a socket's "socket:[N]" and the
 * like are kept as they are).  Returns 0, or -1 when arg is no fd (or
 * one above ST_FD_MAX). */
int st_fd(const char *arg, int *fd, char *out, size_t outsz);

#endif
