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

#include <stdbool.h>
#include <stdio.h>
#include "stats/utest.h"
#include "compare/judge/cmprow.h"

/* Check every histogram the latency rows of c (after cmp_build) would
 * read: each run's results.histograms.OP.buckets a histogram string
 * (histjson_read), its min_ms and max_ms numbers of 0 or more.  Returns
 * 0, or KB_EXIT_USAGE after one line on stderr naming the file, the test,
 * the run and the op (escaped). */
int cmplat_check(const struct cmp *c);

/* What the latency rows say of one file for one op. */
#define CMPLAT_NPCT 4             /* p50, p90, p99, p99.9 */
enum cmplat_verdict {
	CMPLAT_TOO_FEW,           /* a side without runs, or p_min above 1 - confidence */
	CMPLAT_SAME,              /* "~": p at or above 1 - confidence */
	CMPLAT_BETTER,            /* B's runs' p99s lower than A's */
	CMPLAT_WORSE,
};
struct cmplat_side {
	bool present;              /* the row's test is in this file */
	size_t runs;               /* its runs with the op's histogram (0: none) */
	double pct[CMPLAT_NPCT];   /* ms, of every run's histogram merged */
	double max;                /* ms, the largest latency of any run */
	/* k >= 1 and present: */
	double change[CMPLAT_NPCT + 1];  /* percent against A, p50 ... p99.9, max;
					  * NAN when A's figure is 0 or missing */
	enum cmplat_verdict v;     /* the U test on the runs' p99s, adjusted */
	struct u_result u;         /* valid unless v is CMPLAT_TOO_FEW */
	double q;                  /* u.p adjusted over the latency rows (cmpadj.h);
				    * NAN when not tested or not adjusted */
};
struct cmplat_row {
	const char *test;          /* the compared row's name (c->rows[i].name) */
	const char *op;            /* the op's name, as A's first run keeps it */
	struct cmplat_side s[CMP_MAX_FILES];
};
struct cmplat {
	struct cmplat_row *rows;   /* in c->rows' order, then A's ops' order */
	size_t n;
};

/* The percentiles' names in the order of pct[]: "p50" ... "p99.9". */
extern const char *const cmplat_pct_names[CMPLAT_NPCT];

/* The latency rows of c (after cmp_build, cmp_sort and cmplat_check) into
 * *out: for each row of c whose A runs are load runs with histograms, and
 * each op of A's first such run, every file's runs merged, the changes
 * and the verdicts.  No row has histograms: out->n is 0.  The strings
 * point into c.  Returns 0, or -1 when out of memory (said on stderr;
 * *out is then empty).  Free with cmplat_free. */
int cmplat_build(const struct cmp *c, struct cmplat *out);
void cmplat_free(struct cmplat *l);

/* The latency rows l of c to out, after a blank line: a block a row
 * "TEST, OP  p50 p90 p99 p99.9 max runs" with a line a file (ms) and, for
 * B, C, ..., a line of changes (percent against A) and the verdict
 * ("worse (p=0.008)", "better (p=...)", "~ (p=...)", "too few runs").
 * Nothing when l has no row. */
void cmplat_print(FILE *out, const struct cmp *c, const struct cmplat *l);

/* The verdict's key in JSON: "too_few_runs", "same", "better", "worse". */
const char *cmplat_verdict_key(enum cmplat_verdict v);

#endif
