/* kbench - has the spread of repeated figures changed?  (Brown-Forsythe)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A kernel can leave a test's median where it was and still make its runs
 * wilder (a lock that is sometimes contended, a second mode): latency
 * regressions often show there first.  The Brown-Forsythe test (M. B.
 * Brown and A. B. Forsythe, "Robust tests for the equality of variances",
 * JASA 69, 1974; Levene's test with the median) compares the absolute
 * deviations of each set's figures from its own median: with two sets,
 * the one-way ANOVA of those deviations, F = t^2 of the pooled t-test, on
 * 1 and N - 2 degrees of freedom.  It keeps its level on skewed and
 * heavy-tailed figures, where the F test of variances does not.  The F
 * distribution is GSL's.
 */
#ifndef KBENCH_SPREAD_H
#define KBENCH_SPREAD_H

#include <stddef.h>

struct spread_test {
	double f;          /* the statistic, on 1 and na + nb - 2 degrees of freedom */
	double p;          /* P(F' >= f) under "the same spread" */
	double mad_a;      /* mean absolute deviation from the median: a's, b's, */
	double mad_b;      /* in the figures' unit */
};

/* The Brown-Forsythe test of b[0..nb-1] against a[0..na-1] (finite
 * figures, not changed).  Both deviations' sets constant: p 0 when their
 * means differ, else 1.  Returns 0 with out filled, -1 when a set has
 * fewer than 2 figures or memory runs out. */
int spread_bf(const double *a, size_t na, const double *b, size_t nb, struct spread_test *out);

#endif
