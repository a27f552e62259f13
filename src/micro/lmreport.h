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
	int mhz;            /* /proc/cpuinfo "cpu MHz", else cpufreq's maximum, else
			     * measured (mhz_measured set); 0 when unknown */
	int mhz_measured;
};

/* Fill h from uname, /proc/cpuinfo and sysfs, or by timing a chain of
 * dependent adds (one per cycle assumed; about 30 ms); never fails. */
void lm_host_collect(struct lm_host *h);

/* The tables and the per-test lines for the lmbench tests among
 * tests[0..n-1] (others ignored).  failed[i] non-zero: test i failed
 * (res[i].skipped says why; no figure).  A table none of whose tests
 * gave a figure is left out.  Nothing is printed when no lmbench test is
 * among them. */
void lm_report_text(FILE *out, const struct lm_host *h, const struct micro_opts *o,
		    const struct micro_test *const *tests, const struct micro_result *res,
		    const int *failed, size_t n);

#endif
