/* kbench - the Mann-Whitney U test: do two sets of runs differ in place?
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Welch's test (ttest.h) compares means, and a mean follows one wild run:
 * three lat_pipe runs of 58.2, 1.95 and 1.87 us have a mean of 20.7.  The
 * Mann-Whitney U test (H. B. Mann and D. R. Whitney, "On a test of whether
 * one of two random variables is stochastically larger than the other",
 * Ann. Math. Statist. 18, 1947; F. Wilcoxon 1945) uses only the order of
 * the runs, so one outlier moves it by one rank; kbench compare pairs it
 * with the change of the median, as benchstat does.
 *
 *   U = the pairs (a_i, b_j) with b_j > a_i, plus half the pairs with
 *       b_j = a_i; under "no difference" its mean is na nb / 2.
 *   Two-sided p-value:
 *   - exact when both sets have at most U_EXACT_MAX runs: P(U' <= U) and
 *     P(U' >= U) from the null distribution of U', p = min(1, 2 min).
 *     Without ties it is counted by the recursion
 *     c(m, n, u) = c(m-1, n, u-n) + c(m, n-1, u) over the arrangements
 *     of m a's and n b's (Mann and Whitney 1947, eq. 2); with ties, over
 *     the C(N, nb) equally likely choices of b's runs among the pooled
 *     ones, each value keeping its midrank (the permutation distribution
 *     given the ties: 10 10 10 20 against 20 30 30 30 gives 4/70 = 0.057,
 *     not the normal approximation's 0.032);
 *   - otherwise the normal approximation with the tie correction of the
 *     variance, var = na nb / 12 ((N+1) - sum(t^3 - t) / (N (N-1))), N =
 *     na + nb, t the size of each group of equal values, and a
 *     continuity correction of 1/2: z = (|U - na nb/2| - 1/2) / sqrt(var),
 *     p = erfc(z / sqrt 2).  (scipy.stats.mannwhitneyu with
 *     method="exact" or "asymptotic", use_continuity=True, gives the
 *     same; tests/cli/suite-compare.sh checks it.)
 *   The smallest p-value any two sets of these sizes can give is
 *   2 / C(N, na) (ties can only raise it): with 3 runs a side it is 0.1, so the test cannot prove a
 *   difference at 95% and says so instead of "~".
 */
#ifndef KBENCH_UTEST_H
#define KBENCH_UTEST_H

#include <stdbool.h>
#include <stddef.h>

/* most runs a side for the exact distribution (its count takes about
 * m n (m n + 1) steps); scipy's method="auto" switches to the normal
 * approximation already above 8 */
#define U_EXACT_MAX 20

struct u_result {
	double u;         /* U of b against a (see above); 0 .. na nb */
	double p;         /* two-sided p-value */
	bool exact;       /* p from the exact distribution (small sets, ties or not) */
	double p_min;     /* the smallest two-sided p these sizes can give: 2 / C(N, na) */
	bool b_larger;    /* U > na nb / 2: b's runs tend to be the larger */
};

/* The fewest runs a side (the same count on both) with which the U test
 * can decide at conf_pct (0 < conf_pct < 100): the smallest n whose
 * smallest p, 2 / C(2n, n), is below 1 - conf_pct / 100 (4 at 90% and
 * 95%: 2/70 = 0.0286; 5 at 99%: 2/252 = 0.0079).  Returns 0 for a
 * conf_pct out of range. */
size_t u_runs_needed(double conf_pct);

/* The U test of b[0..nb-1] against a[0..na-1] (figures in any one unit,
 * finite).  Returns 0 with out filled, or -1 when a set is empty or
 * memory runs out. */
int u_test(const double *a, size_t na, const double *b, size_t nb, struct u_result *out);

/* The Hodges-Lehmann estimate of the shift of b against a, the median of
 * the n_a n_b differences b_j - a_i, into *shift, and its confidence
 * interval from the exact distribution of U (Hodges and Lehmann 1963;
 * Bauer 1972): the sorted differences ranked c and n_a n_b + 1 - c, with c
 * the largest whole number for which P(U <= c-1) <= (1 - conf_pct/100) /
 * 2.  Needs runs without ties and at most U_EXACT_MAX a side.  Returns 0
 * with *shift, *lo, *hi in the unit of the figures; -1 (nothing set) when
 * there are ties, too many runs, or memory runs out; -1 with only *shift
 * set when the sizes are too small for any c (3 and 3 at 95%). */
int u_shift_ci(const double *a, size_t na, const double *b, size_t nb, double conf_pct,
	       double *shift, double *lo, double *hi);

/* A distribution-free confidence interval of the median of v[0..n-1]
 * (finite figures): the order statistics [x_(k), x_(n+1-k)] with k the
 * largest whole number for which P(B <= k-1) <= (1 - conf_pct/100) / 2,
 * B binomial(n, 1/2) (W. J. Conover, Practical Nonparametric Statistics,
 * 3rd ed. 1999, section 3.2), so the interval covers the median with at
 * least the confidence asked.  Returns 0 with *lo, *hi in the unit of the
 * figures; -1 when n is too small for any k (5 runs at 95%, 4 at 90%) or
 * memory runs out. */
int u_median_ci(const double *v, size_t n, double conf_pct, double *lo, double *hi);

#endif
