/* kbench - compare: the comparison's data, and what reads it
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * struct cmp holds what kbench compare works out from its results files:
 * a row per matched test with each file's summary, interval, change
 * against A, verdict and caveats, and each file's steal.  compare.c fills
 * it (cmp_build, compare.h); the printers (cmpprint.h, cmpjson.h,
 * cmpforms.h, cmplat.h, plot.h, plotlat.h) only read it, with the few
 * readers here.  This header includes nothing of compare above it, so no
 * printer depends on the command.
 */
#ifndef KBENCH_CMPROW_H
#define KBENCH_CMPROW_H

#include <stdbool.h>
#include <stddef.h>

#include "stats/adjust.h"
#include "stats/summary.h"
#include "stats/ttest.h"
#include "stats/utest.h"
#include "resultsfile/suitefile.h"

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
	double q[CMP_MAX_FILES];                  /* k >= 1: the p adjusted over the study
						   * (cmpadj.h); NAN when the row was not tested */
	bool adj_floor[CMP_MAX_FILES];            /* k >= 1: no verdict (T_TOO_FEW) because
						   * under the adjustment even the smallest p
						   * of these run counts could not pass */
	double q_floor[CMP_MAX_FILES];            /* with adj_floor: the adjusted p that
						   * smallest p would get */
	size_t need[CMP_MAX_FILES];               /* k >= 1, T_TOO_FEW: runs a side the
						   * adjusted test needs (0: not worked out) */
	/* "same" or "not proven", and what the runs could see (cmpsame.h) */
	bool same[CMP_MAX_FILES];                 /* k >= 1, v[k] T_SAME: proven within
						   * +-same_pct[k] (adjusted over the study) */
	double same_pct[CMP_MAX_FILES];           /* the margin, percent of A's center */
	double p_same[CMP_MAX_FILES];             /* the two one-sided tests' p; NAN: untested */
	double q_same[CMP_MAX_FILES];             /* that p adjusted over the study; NAN */
	double detect[CMP_MAX_FILES];             /* percent of A's center: the smallest change
						   * these runs could prove at alpha_row[k];
						   * NAN: none (too few runs) or a proven change */
	double alpha_row[CMP_MAX_FILES];          /* the study's threshold for one more change */
	struct cmp_spread {
		bool tested;                      /* both sides had 3 runs or more */
		double cov_a, cov;                /* A's and this file's CoV, percent */
		double p, q;                      /* Brown-Forsythe's p, adjusted */
		bool changed;                     /* q below 1 - conf */
		int modes_a, modes;               /* 1: two clusters (modes.h), else 0 */
	} sp[CMP_MAX_FILES];
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
	const struct suitefile *control;   /* --control: A run again after the others, or NULL */
	enum p_adjust adjust;        /* --adjust: over every tested row and file */
	size_t ntested;              /* the p-values adjusted together (cmp_adjust) */
	double same_within;          /* --same-within, percent; 0: each kind's default */
	size_t nsame;                /* the equivalence tests adjusted together (cmp_same) */
	size_t nspread;              /* the spread tests adjusted together */
};

/* Are test names a and b the same test: equal, or but for a trailing
 * " mem=none" (no limit)? */
bool cmp_same_name(const char *a, const char *b);

/* The test of f matching test `name` (unit `unit`) of file from: the same
 * name and unit, " mem=none" counting as no memory limit ("load 5" is
 * "load 5 mem=none"); failing that, the one test of f whose name differs
 * only in the memory limit, when each file has just one such test (a run
 * with --mem-limit against one without: "load 4" and "load 4 mem=48M");
 * failing that, the one test of f of that name in another unit, when from
 * has just one of that name too (a row that cannot be compared, named so:
 * cmpparams.h's cmp_test_caveats).  NULL when none matches. */
const struct sf_test *cmp_find_test(const struct suitefile *f, const struct suitefile *from,
				    const char *name, const char *unit);


/* The value of row r in file k the change and the lkml lines use: the
 * median (U test) or the mean (Welch). */
double cmp_center(const struct cmp *c, const struct cmp_row *r, size_t k);

/* Is test t of file k compared (found in A, or for A in another file)?
 * When it is not, *where is set to the index of another non-A file that
 * holds it (or k itself when none does). */
bool cmp_matched(const struct cmp *c, size_t k, const struct sf_test *t, size_t *where);

/* The machine of file f: its system.description (an imported report's
 * machine line), else its host name; "" when neither is recorded. */
const char *cmp_machine(const struct suitefile *f);

/* The label of file k of f[0..nf-1] where the seeds' forms put the
 * kernel's name (lkml's From:/To:, the runs' block heads, lmbench's OS
 * column), or NULL when the kernel says it all: the label is shown when it
 * does not contain the file's kernel release (letters and digits alone
 * compared, as kbench import's names keep them) and no other file has it (a
 * tester's own name for the build, kbench suite --label), or when another
 * file of the same machine and kernel has a different label (builds the
 * release cannot tell apart).  The string is the document's (not escaped). */
const char *cmp_file_label(const struct suitefile *f, size_t nf, size_t k);

/* The verdict's method as --test names it: "utest" or "welch". */
const char *cmp_method_name(enum cmp_method m);

#endif
