/* kbench - compare: the matched tests of several results files
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * kbench compare reads results files A, B, C, ... (kbench suite's), matches
 * their tests by name and unit, and for each test and file computes the
 * summary, the interval of the mean and, for B, C, ..., the change against
 * A with Welch's verdict (stats/ttest.h).  The table, the lkml lines and
 * the plot are all printed from struct cmp.
 */
#ifndef KBENCH_COMPARE_H
#define KBENCH_COMPARE_H

#include <stdbool.h>
#include <stddef.h>

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
	double change[CMP_MAX_FILES];             /* k >= 1: 100 (mean_k - mean_A) / mean_A; NAN if none */
};

struct cmp {
	const char *cmd;
	struct suitefile *f;
	size_t nf;
	double conf;                 /* percent: 90, 95, 99 */
	struct cmp_row *rows;        /* tests of A found in at least one other file */
	size_t nrows;
};

/* Does `gnuplot` exist in PATH?  1 yes, 0 no. */
int plot_available(void);

/* Draw c into file (.svg or .png) with gnuplot: MB/s against client count
 * for the load tests (one line per file, error bars: the interval of the
 * mean), and the change against A in percent of every other test (error
 * bars: the interval of the difference).  Returns 0, or 1 after one line
 * on stderr when gnuplot fails. */
int plot_write(const struct cmp *c, const char *file);

#endif
