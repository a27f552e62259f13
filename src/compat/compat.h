/* kbench - personalities: kbench started as dbench, tbench, tbench_srv or hdparm
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Harnesses (LKP, mmtests, the Phoronix Test Suite) run dbench, tbench and
 * hdparm by name and parse their output.  Installed as a link under one of
 * those names (make install puts the links in $(pkglibexecdir)/compat),
 * kbench reads that tool's command line, turns it into the options of its
 * own command (load, server, disk) and runs that command with an output
 * form that prints the tool's lines.  Nothing is measured twice: the
 * engines are kbench's; only the argv translation and the line forms live
 * here, one file per tool.
 */
#ifndef KBENCH_COMPAT_H
#define KBENCH_COMPAT_H


/* The personality named by argv[0]'s last path component (dbench, tbench,
 * tbench_srv, hdparm), or NULL when kbench runs under any other name. */
typedef int (*compat_fn)(int argc, char **argv);
compat_fn compat_find(const char *argv0);

/* The personalities: each reads the tool's command line (argv[0] its
 * name), runs kbench's command and returns its exit status (bad input:
 * one line on stderr, 2). */
int compat_dbench(int argc, char **argv);
int compat_tbench(int argc, char **argv);
int compat_tbench_srv(int argc, char **argv);
int compat_hdparm(int argc, char **argv);

/* A growing argument vector for the translated command line.  Each
 * string is a copy; av_free frees them.  av_push* return 0 or -1 when out
 * of memory (the vector stays valid; av_ok then says 0). */
struct argvec {
	char **v;                 /* NULL-terminated once anything was pushed */
	int n, cap;
	int failed;               /* a push ran out of memory */
};
int av_push(struct argvec *a, const char *s);
int av_pushf(struct argvec *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void av_free(struct argvec *a);

/* Run kbench COMMAND (load, server, disk) with the translated a->v (a->v[0]
 * the command's name for messages).  Returns its exit status, 1 when the
 * vector could not be built (out of memory, said on stderr). */
int compat_run(const char *tool, int (*cmd)(int, const char **), struct argvec *a);

#endif
