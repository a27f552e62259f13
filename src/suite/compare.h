/* kbench - compare: the matched tests of several results files
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * kbench compare reads results files A, B, C, ... (kbench suite's), matches
 * their tests by name and unit, and for each test and file computes the
 * summary, the interval of the mean and, for B, C, ..., the change against
 * A with Welch's verdict (stats/ttest.h).  The table, the lkml lines
 * (cmpprint.c) and the plot (plot.h) are all printed from struct cmp.
 */
#ifndef KBENCH_COMPARE_H
#define KBENCH_COMPARE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "stats/summary.h"
#include "stats/ttest.h"
#include "suite/suitefile.h"

#define CMP_MAX_FILES 26          /* named A to Z */

struct cmp_row {
	const char *name;
	const char *unit;
	bool higher_is_better;
	const struct sf_test *t[CMP_MAX_FILES];   /* NULL: not in that file */
	struct summary s[CMP_MAX_FILES];          /* valid when t[k] && t[k]->n */
	double ci[CMP_MAX_FILES];                 /* half-width of the mean's interval; NAN if n < 2 */
	enum t_verdict v[CMP_MAX_FILES];          /* k >= 1: against A */
	struct t_diff d[CMP_MAX_FILES];           /* k >= 1, when v[k] is not T_TOO_FEW */
	double change[CMP_MAX_FILES];             /* k >= 1: 100 (mean_k - mean_A) / |mean_A|; NAN if
						   * a side has no runs or mean_A is 0 (n/a) */
};

struct cmp {
	const char *cmd;
	struct suitefile *f;
	size_t nf;
	double conf;                 /* percent: 90, 95, 99 */
	struct cmp_row *rows;        /* tests of A found in at least one other file */
	size_t nrows;
};

/* The test of f matching test `name` (unit `unit`) of file from: the same
 * name and unit; failing that, the one test of f whose name differs only
 * in the memory limit, when each file has just one such test (a run with
 * --mem-limit against one without: "load 4" and "load 4 mem=48M").
 * NULL when none matches. */
const struct sf_test *cmp_find_test(const struct suitefile *f, const struct suitefile *from,
				    const char *name, const char *unit);

/* Fill c->rows (nrows) from c->f[0..nf-1] (nf >= 1) at c->conf: every
 * test of A found in another file, with each file's summary, interval,
 * and for B, C, ... the change and the verdict.  Returns 0, or -1 when out
 * of memory.  The caller frees c->rows. */
int cmp_build(struct cmp *c);

enum cmp_order {
	CMP_BY_FILE,      /* A's order */
	CMP_BY_CHANGE,    /* by B's change against A, worst first; n/a last */
	CMP_BY_NAME,      /* by name (version order), then unit */
};
void cmp_sort(struct cmp *c, enum cmp_order order);

/* The table (files, notes, every row and file, the tests not compared)
 * and the lkml lines ("test (unit) || A -> B +x%"), printed to out. */
void cmp_print_table(FILE *out, const struct cmp *c);
void cmp_print_lkml(FILE *out, const struct cmp *c);

#endif
