/* kbench - compare: the matched tests of several results files
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * kbench compare reads results files A, B, C, ... (kbench suite's), matches
 * their tests by name and unit, and for each test and file computes the
 * summary, the interval of the mean and, for B, C, ..., the change against
 * A with a verdict: by default the change of the median and the
 * Mann-Whitney U test on the runs (stats/utest.h), or with --test welch
 * the change of the mean and Welch's t-test (stats/ttest.h).  The table, the lkml lines
 * (cmpprint.c) and the plot (plot.h) are all printed from struct cmp.
 */
#ifndef KBENCH_COMPARE_H
#define KBENCH_COMPARE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "stats/summary.h"
#include "stats/ttest.h"
#include "stats/utest.h"
#include "suite/suitefile.h"

#include <jansson.h>

#define CMP_MAX_FILES 26          /* named A to Z */

/* The verdict's method (--test). */
enum cmp_method {
	CMP_UTEST,        /* medians, Mann-Whitney U (the default) */
	CMP_WELCH,        /* means, Welch's t-test */
};

struct cmp_row {
	const char *name;
	const char *unit;
	bool higher_is_better;
	const struct sf_test *t[CMP_MAX_FILES];   /* NULL: not in that file */
	struct summary s[CMP_MAX_FILES];          /* valid when t[k] && t[k]->n */
	double ci[CMP_MAX_FILES];                 /* half-width of the mean's interval; NAN if n < 2 */
	enum t_verdict v[CMP_MAX_FILES];          /* k >= 1: against A */
	struct t_diff d[CMP_MAX_FILES];           /* Welch: k >= 1, when v[k] is not T_TOO_FEW */
	struct u_result u[CMP_MAX_FILES];         /* U test: k >= 1, when both sides have runs */
	double change[CMP_MAX_FILES];             /* k >= 1: 100 (x_k - x_A) / |x_A|, x the median
						   * (U test) or the mean (Welch); NAN if a side
						   * has no runs or x_A is 0 (n/a) */
	json_t *cav[CMP_MAX_FILES];               /* the caveats of t[k]'s runs (rowcav_row),
						   * owned; NULL: not in that file */
	const char *refused[CMP_MAX_FILES];       /* k >= 1, v[k] == T_REFUSED: the unsound
						   * caveat's key (in cav[refused_in[k]]) */
	size_t refused_in[CMP_MAX_FILES];         /* 0 (A's runs) or k */
	enum t_verdict test_v[CMP_MAX_FILES];     /* k >= 1: the test's verdict before a
						   * refusal (d[k] is valid unless T_TOO_FEW) */
};

/* The run of one file the hypervisor took most from, among those whose
 * steal surely reached 1% (steal_notable, sys/steal.h). */
struct cmp_steal {
	bool notable;                /* false: no run's steal surely reached 1%, or
				      * none is recorded (disk, older kbench, null) */
	double pct;                  /* the largest share of one CPU's time taken, percent */
	double wall_s;               /* the seconds it is a share of: load's measured_s,
				      * a micro test's run_s */
	size_t run;                  /* that run, from 1, of test: */
	const char *test;            /* its test's name, as compare shows it */
};

struct cmplat;

struct cmp {
	const char *cmd;
	struct suitefile *f;
	size_t nf;
	double conf;                 /* percent: 90, 95, 99 */
	enum cmp_method method;      /* --test */
	long ticks_per_s;            /* USER_HZ for steal_notable (0: no steal is noted) */
	struct cmp_row *rows;        /* tests of A found in at least one other file */
	size_t nrows;
	struct cmp_steal steal[CMP_MAX_FILES];   /* each file's, filled by cmp_build */
	const struct cmplat *lat;    /* --latency: the latency rows (cmplat.h), else NULL */
};

/* The steal of file f's runs, into out: the run with the largest share
 * of one CPU's time the hypervisor took (percent) among the runs where
 * steal_notable(pct, wall_s, ticks_per_s) holds, ticks_per_s being
 * USER_HZ.  A run's steal is what suitefile_run_steal (suitefile.h)
 * reads from its document: a load document's results.steal_pct over
 * results.measured_s; a micro document's results.tests entry of the
 * test (the row's name, or it less " mem=LIMIT" of its
 * params.mem_limit) with its steal_pct over its run_s.  A document
 * without them (disk, an older kbench), or with null, gives none (one
 * recording what no measurement gives was refused by suitefile_read).
 * out->notable is false when no run qualifies. */
void cmp_steal_of(const struct suitefile *f, long ticks_per_s, struct cmp_steal *out);

/* The test of f matching test `name` (unit `unit`) of file from: the same
 * name and unit, " mem=none" counting as no memory limit ("load 5" is
 * "load 5 mem=none"); failing that, the one test of f whose name differs
 * only in the memory limit, when each file has just one such test (a run
 * with --mem-limit against one without: "load 4" and "load 4 mem=48M").
 * NULL when none matches. */
/* Are test names a and b the same test: equal, or but for a trailing
 * " mem=none" (no limit)? */
bool cmp_same_name(const char *a, const char *b);

const struct sf_test *cmp_find_test(const struct suitefile *f, const struct suitefile *from,
				    const char *name, const char *unit);

/* Fill c->rows (nrows) from c->f[0..nf-1] (nf >= 1) at c->conf: every
 * test of A found in another file, with each file's summary, interval,
 * and for B, C, ... the change and the verdict; and c->steal[k] of every
 * file (cmp_steal_of at c->ticks_per_s).  Returns 0, or -1 when out of
 * memory.  The caller frees c->rows. */
int cmp_build(struct cmp *c);

enum cmp_order {
	CMP_BY_FILE,      /* A's order */
	CMP_BY_CHANGE,    /* by B's change against A, worst first; n/a last */
	CMP_BY_NAME,      /* by name (version order), then unit */
};
void cmp_sort(struct cmp *c, enum cmp_order order);

/* The value of row r in file k the change and the lkml lines use: the
 * median (U test) or the mean (Welch). */
double cmp_center(const struct cmp *c, const struct cmp_row *r, size_t k);

/* The split of one file by a dimension of its test names (--by mem):
 * out[0..*nout-1] become one file per value of " mem=VALUE" (in the order
 * of the file's params.mem_limits, else of first appearance), each holding
 * that value's tests under their names without the dimension, and path
 * "PATH mem=VALUE"; tests without the dimension are left out (their
 * count in *left).  Returns 0; -2 when the file has fewer than two values
 * (nothing to compare: *nout says how many, and nothing was made); -1
 * when memory runs out (out[0..*nout-1] were made).  Free each
 * out[0..*nout-1] with suitefile_free after 0 or -1. */
int cmp_split_by(const struct suitefile *f, const char *dim, struct suitefile *out,
		 size_t max, size_t *nout, size_t *left);

/* The table (files, notes, every row and file, the tests not compared:
 * "only in B", or "in B, not in A (the baseline)"), the lkml form (its
 * blocks per pair: cmpforms.h), and the comparison as one JSON document
 * (kbench-compare(1), JSON OUTPUT), printed to out. */
void cmp_print_table(FILE *out, const struct cmp *c);
void cmp_print_lkml(FILE *out, const struct cmp *c);   /* cmpforms.h */
void cmp_print_json(FILE *out, const struct cmp *c);

/* After the table or the lkml lines: one line for each file whose
 * c->steal[k] is notable, "steal: PATH: the hypervisor took up to 35.4%
 * of a CPU's time in run 3 of TEST (steal in /proc/stat): its figures are
 * not a quiet machine's" (PATH and TEST escaped), after a blank line;
 * nothing when no file has one. */
void cmp_print_steal(FILE *out, const struct cmp *c);

/* Is test t of file k compared (found in A, or for A in another file)?
 * When it is not, *where is set to the index of another non-A file that
 * holds it (or k itself when none does). */
bool cmp_matched(const struct cmp *c, size_t k, const struct sf_test *t, size_t *where);

/* ---- caveats (cmpcav.c) ---- */

#define CMP_EXIT_NOT_COMPARABLE 3   /* a row's verdict was refused for a caveat */

/* The caveats of row r's files (r->cav[k], rowcav_row at c->conf and
 * c->ticks_per_s), and for k >= 1 with a verdict (not T_TOO_FEW) the
 * refusal: when A's runs or file k's carry an unsound caveat (result/
 * caveat.h: cache_timed, flush_failed, sparse_file, errors, interrupted,
 * mixed_kernels, mixed_hosts), v[k] becomes T_REFUSED with that key.
 * The summaries, changes and p values stay.  Called by cmp_build. */
void cmp_caveats_fill(const struct cmp *c, struct cmp_row *r);

/* Free what cmp_caveats_fill made for every row of c (c->rows stays). */
void cmp_caveats_free(struct cmp *c);

/* Does any row of c have a T_REFUSED verdict? */
bool cmp_any_refused(const struct cmp *c);

/* "not comparable: KEY (A's runs 1, 3)" for row r, file k (T_REFUSED). */
void cmp_refused_text(const struct cmp_row *r, size_t k, char *buf, size_t n);

/* "  [caveats: key*, key]" after a table cell (* unsound; bimodal with
 * both centres: "bimodal 1000 (3 runs) and 4395 (2 runs)"); nothing when
 * file k's runs of r carry none. */
void cmp_put_caveats(FILE *out, const struct cmp_row *r, size_t k);

/* ---- how many runs (cmpruns.c) ---- */

/* For a "~" verdict (T_SAME) of row r, file k >= 1: the smallest change
 * these runs could have shown at c->conf, in percent of A's mean: the
 * half-width of the interval of the difference of the means (Welch's
 * t, stats/ttest.h), which falls as runs are added at the same spread.
 * NAN for other verdicts or when it cannot be computed. */
double cmp_detectable_pct(const struct cmp *c, const struct cmp_row *r, size_t k);

/* For "too few runs" (T_TOO_FEW, both files with runs): the runs a side
 * the test needs (the U test: u_runs_needed at c->conf; Welch:
 * T_MIN_RUNS); 0 otherwise. */
size_t cmp_runs_needed(const struct cmp *c, const struct cmp_row *r, size_t k);

/* After the table, for every such row and file, one line: "runs: TEST
 * B: ~: the smallest change these 5 and 5 runs could show at 95% is
 * +-2.31% of A's mean (...)" or "runs: TEST B: too few runs: the U test
 * needs 4 runs a side at 95% (A has 3, B 3)"; a blank line first;
 * nothing when there is none. */
void cmp_print_runs_needed(FILE *out, const struct cmp *c);

/* The method's name and the verdict of row r, file k, as text (buf, n
 * bytes): "better (p=0.008)", "~ (p=0.31)", Welch's "better: +2.04 +-
 * 1.85 (+2.02% +- 1.84%, p=0.071)", "too few runs ...". */
const char *cmp_method_name(enum cmp_method m);
void cmp_verdict_text(const struct cmp *c, const struct cmp_row *r, size_t k, char *buf,
		      size_t n);

#endif
