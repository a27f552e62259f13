/* kbench - dbench 4's output forms for kbench load (dbench_form.c)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * kbench load --output-form dbench / dbench-machine prints dbench's lines
 * instead of its own: the dbench and tbench personalities (src/compat/)
 * ask for them, and harnesses (LKP, mmtests, the Phoronix Test Suite) read
 * them by field position.  The forms belong to the load command; the
 * personalities only choose them.
 */
#ifndef KBENCH_LOAD_DBFORM_H
#define KBENCH_LOAD_DBFORM_H

#include <stdint.h>
#include <stdio.h>
#include <jansson.h>

/* kbench load --output-form: whose lines the run prints. */
enum load_form {
	LOAD_FORM_KBENCH = 0,     /* kbench's own progress line and table */
	LOAD_FORM_DBENCH,         /* dbench 4's lines (the dbench and tbench personalities) */
	LOAD_FORM_DBENCH_MACHINE, /* mmtests' dbench --machine-readable records */
	LOAD_FORM_DBENCH_MMTESTS, /* mmtests' dbench's lines: its table's long op names */
};

/* kbench load --output-form's word ("kbench", "dbench", "dbench-machine",
 * "dbench-mmtests") into *form.  Returns 0, or -1 for an unknown word. */
int load_form_parse(const char *word, enum load_form *form);

/* The line a second, in form (dbench: "%4d  %8d  %7.2f MB/sec  execute
 * %3d sec  latency %.3f ms", or "warmup", or "%4d  cleanup %3d sec";
 * dbench-machine: "@W@", "@R@", "@C@" records with the same fields).
 * phase: 0 warm-up, 1 measured, 2 after the end.  clients: clients
 * running; lines: ops completed per client; mbps: MB/sec (10^6 bytes)
 * since warm-up ended (in warm-up: since the start); sec: whole seconds
 * since the phase's start; lat_ms the largest latency in the second. */
void dbform_progress(FILE *f, enum load_form form, int phase, unsigned clients,
			    uint64_t lines, double mbps, uint64_t sec, double lat_ms);

/* The line a client prints at the end of each pass (mmtests'
 * --show-execute-time: "%4d completed in %u ms at time %u ms"; the
 * dbench-machine form: "@E@id@ms"), written with one write(2) to fd so
 * that lines of concurrent clients never mix.  pass_ns: the pass's
 * duration; at_ns: the time since the clients started. */
void dbform_pass_line(int fd, enum load_form form, unsigned client, uint64_t pass_ns,
			     uint64_t at_ns);

/* The opening lines under a dbench form ("Running for T seconds with load
 * 'FILE' and minimum warmup W secs"). */
void dbform_banner(FILE *f, double timelimit_s, double warmup_s, const char *loadfile);

/* The end of a run under a dbench form, only for a run that completed
 * without an error: dbench 4's table (Operation, Count, AvgLat, MaxLat in
 * ms; under dbench-mmtests and dbench-machine the op names and widths of
 * mmtests' dbench, such as QUERY_PATH_INFORMATION where dbench 4.00 says
 * Qpathinfo) and its last line "Throughput X MB/sec  N clients  N procs
 * max_latency=Y ms".  A run cut short or with errors prints neither
 * table nor per-client lines, as dbench, which stops at the first
 * failure or signal, prints none: only a line saying why, which no
 * harness takes for a figure or a table row. */
struct run_config;
struct run_result;
struct load_params;
void dbform_report(FILE *f, const struct run_config *cfg, const struct load_params *lp,
			  const struct run_result *res);

/* The tail of dbench's Throughput line after its figure, written once for
 * every form that prints one (dbench's, kbench's text report, and the
 * line of a failed run that takes its shape): the sync notes, then
 * "  N clients  N procs  max_latency=Y ms" and a newline (N clients: the
 * whole job's under --mpi; Y in ms, from res->max_latency_ns). */
void dbform_line_tail(FILE *f, const struct run_config *cfg, const struct run_result *res);

/* How kbench measured what the dbench form prints: a JSON object for the
 * document's "output_form" (NULL when out of memory). */
json_t *dbform_json(enum load_form form);

#endif
