/* kbench - micro: the lmbench family's text report
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * lmbench 2's summary tables ("Processor, Processes - times in
 * microseconds - smaller is better" and the five others) with the Host,
 * OS and Mhz columns, filled from the tests that ran, then one line per
 * lmbench test with the spread lmbench does not show: median, unit, min,
 * max, CoV %, or why it was skipped or failed.
 */
#ifndef KBENCH_MICRO_LMREPORT_H
#define KBENCH_MICRO_LMREPORT_H

#include "micro/test.h"

#include <stdio.h>

/* The machine as the tables name it. */
struct lm_host {
	char host[65];      /* uname nodename */
	char os[140];       /* "Linux <release>" */
	char descr[96];     /* "Basic system parameters"' Description: "x86_64-linux-gnu" */
	int mhz;            /* /proc/cpuinfo "cpu MHz", else cpufreq's maximum, else
			     * measured (mhz_measured set); 0 when unknown */
	int mhz_measured;
};

/* Fill h from uname, /proc/cpuinfo and sysfs, or by timing a chain of
 * dependent adds (one per cycle assumed; about 30 ms); never fails. */
void lm_host_collect(struct lm_host *h);

/* One run as lmbench's tables show it: a row (per placement, in the
 * tables of tests between processes) of each table. */
struct lm_source {
	const char *host, *os, *descr;   /* descr may be NULL */
	int mhz, mhz_measured;           /* 0: unknown ("-"); measured: marked "*" */
	/* The figure of the test named name ("lat_pipe_1cpu", "lat_syscall_null",
	 * an older run's "lat_pipe"): 1 with *v, -1 when it was skipped or
	 * failed (shown "-"), 0 when it was not run (left blank). */
	int (*figure)(const void *ctx, const char *name, double *v);
	/* The CPUs test name ran on (cpu[0], cpu[1]): how many (0, 1, 2);
	 * NULL when not known (no note under the tables then). */
	int (*cpus)(const void *ctx, const char *name, int cpu[2]);
	const void *ctx;
};

/* lmbench 2's banner ("L M B E N C H  2 . 0   S U M M A R Y") and its
 * "Basic system parameters" table (Host, OS, Description, Mhz), one row
 * per source. */
void lm_banner(FILE *out, const struct lm_source *src, size_t nsrc);

/* lmbench 2's summary tables for the sources src[0..nsrc-1] (at most 64
 * rows a table): a row per source, and in the context switching and
 * local communication tables a row per placement the source has figures
 * for, a Place column saying which (1cpu, 2smt, 2core; blank for a run
 * from before placements).  A table none of whose tests gave a figure is
 * left out.  With one source whose cpus() is known, the CPUs of each
 * placement are said under the table. */
void lm_tables(FILE *out, const struct lm_source *src, size_t nsrc);

/* The banner, the tables and the per-test lines for the lmbench tests among
 * tests[0..n-1] (others ignored).  failed[i] non-zero: test i failed
 * (res[i].skipped says why; no figure).  A table none of whose tests
 * gave a figure is left out.  Nothing is printed when no lmbench test is
 * among them. */
void lm_report_text(FILE *out, const struct lm_host *h, const struct micro_opts *o,
		    const struct micro_test *const *tests, const struct micro_result *res,
		    const int *failed, size_t n);

#endif
