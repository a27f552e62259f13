/* kbench - compare --latency: the latency rows of load runs
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * For each compared load test and each op, every file's runs' histograms
 * (a load document's results.histograms, stats/histjson.h) merged into
 * one: its p50, p90, p99, p99.9 and max, the change of each against A,
 * and a verdict over the runs: the Mann-Whitney U test (stats/utest.h)
 * on the runs' own p99s.  A run is the unit of repetition, so each run
 * gives one p99; the ops of one run are not independent draws (they
 * share the machine's state, its caches and queues), so testing the
 * pooled ops would claim far more certainty than the runs hold.  The U
 * test needs no normality, which percentiles do not have, and is the one
 * compare uses for its other rows.
 */
#ifndef KBENCH_CMPLAT_H
#define KBENCH_CMPLAT_H

#include <stdio.h>
#include "suite/compare.h"

/* Check every histogram the latency rows of c (after cmp_build) would
 * read: each run's results.histograms.OP.buckets a histogram string
 * (histjson_read), its min_ms and max_ms numbers of 0 or more.  Returns
 * 0, or KB_EXIT_USAGE after one line on stderr naming the file, the test,
 * the run and the op (escaped). */
int cmplat_check(const struct cmp *c);

/* The latency rows of c to out, after a blank line: for each row of c
 * whose A runs are load runs with histograms, and each op of A's first
 * such run, a block "TEST, OP  p50 p90 p99 p99.9 max runs" with a line a
 * file (ms) and, for B, C, ..., a line of changes (percent against A)
 * and the verdict ("worse (p=0.008)", "better (p=...)", "~ (p=...)",
 * "too few runs").  Nothing when no row has histograms.  Returns 0, or
 * -1 when out of memory (said). */
int cmplat_print(FILE *out, const struct cmp *c);

#endif
