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

#include <stdint.h>
#include <stdio.h>
#include <jansson.h>

/* kbench load --output-form: whose lines the run prints. */
enum load_form {
	LOAD_FORM_KBENCH = 0,     /* kbench's own progress line and table */
	LOAD_FORM_DBENCH,         /* dbench 4's lines (the dbench and tbench personalities) */
	LOAD_FORM_DBENCH_MACHINE, /* mmtests' dbench --machine-readable records */
};

/* kbench load --output-form's word ("kbench", "dbench", "dbench-machine")
 * into *form.  Returns 0, or -1 for an unknown word. */
int compat_load_form_parse(const char *word, enum load_form *form);

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

/* --- dbench's output forms (dbench_out.c), used by kbench load --- */

/* The line a second, in form (dbench: "%4d  %8d  %7.2f MB/sec  execute
 * %3d sec  latency %.3f ms", or "warmup", or "%4d  cleanup %3d sec";
 * dbench-machine: "@W@", "@R@", "@C@" records with the same fields).
 * phase: 0 warm-up, 1 measured, 2 after the end.  clients: clients
 * running; lines: ops completed per client; mbps: MB/sec (10^6 bytes)
 * since warm-up ended (in warm-up: since the start); sec: whole seconds
 * since the phase's start; lat_ms the largest latency in the second. */
void compat_dbench_progress(FILE *f, enum load_form form, int phase, unsigned clients,
			    uint64_t lines, double mbps, uint64_t sec, double lat_ms);

/* The line a client prints at the end of each pass (mmtests'
 * --show-execute-time: "%4d completed in %u ms at time %u ms"; the
 * dbench-machine form: "@E@id@ms"), written with one write(2) to fd so
 * that lines of concurrent clients never mix.  pass_ns: the pass's
 * duration; at_ns: the time since the clients started. */
void compat_dbench_pass_line(int fd, enum load_form form, unsigned client, uint64_t pass_ns,
			     uint64_t at_ns);

/* The opening lines under a dbench form ("Running for T seconds with load
 * 'FILE' and minimum warmup W secs"). */
void compat_dbench_banner(FILE *f, double timelimit_s, double warmup_s, const char *loadfile);

/* The end of a run under a dbench form: dbench 4's table (Operation,
 * Count, AvgLat, MaxLat in ms) and, only for a run that completed
 * without an error, its last line "Throughput X MB/sec  N clients  N procs
 * max_latency=Y ms"; a run cut short or with errors says why on a line a
 * harness takes for no figure. */
struct run_config;
struct run_result;
struct load_params;
void compat_dbench_report(FILE *f, const struct run_config *cfg, const struct load_params *lp,
			  const struct run_result *res);

/* How kbench measured what the dbench form prints: a JSON object for the
 * document's "output_form" (NULL when out of memory). */
json_t *compat_dbench_json(enum load_form form);

/* --- hdparm's forms (hdparm.c), used by kbench disk --- */

/* kbench disk --output-form's word ("kbench", "hdparm"): 0 kbench, 1
 * hdparm, -1 unknown. */
int compat_disk_form_parse(const char *word);

/* hdparm's -t line with --offset: " Timing buffered disk reads (offset N
 * GB):  X MB in  S seconds = R MB/sec" (O_DIRECT with direct); offset in
 * bytes (whole GiB under the personality), MB = 2^20 bytes. */
void compat_hdparm_offset_line(FILE *f, int direct, uint64_t offset, uint64_t bytes,
			       double seconds);

#endif
