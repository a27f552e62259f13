/* kbench - unit tests of Student's t, confidence intervals and Welch's test
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Where the expected figures come from (none from the code under test):
 *   - t quantiles: a published two-sided t table (three decimals);
 *   - summaries and Student's pooled-variance difference: Debian's
 *     ministat 14.0 run on the samples below, e.g.
 *       ministat -A -c 95 a.txt b.txt
 *     ministat takes its critical values from a three-decimal t table, so
 *     its intervals are compared to 5e-4 relative;
 *   - Welch's degrees of freedom, critical values and intervals, and the
 *     mean intervals: the formulas evaluated in Python with the t density
 *     integrated by Simpson's rule (200000 panels) and the quantile found by
 *     bisection on that integral, an independent route to the same numbers.
 */
#include "config.h"
#include "stats/summary.h"
#include "stats/ttest.h"
#include "stats/utest.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

static void assert_close(double got, double want, double eps)
{
	if (!(fabs(got - want) <= eps))
		fail_msg("got %.12g, want %.12g (+- %g)", got, want, eps);
}

static void assert_rel(double got, double want, double rel)
{
	if (!(fabs(got - want) <= rel * fabs(want)))
		fail_msg("got %.12g, want %.12g (+- %g relative)", got, want, rel);
}

/* the samples given to ministat (one figure a line) */
static const double A[] = { 98.2, 101.5, 99.7, 103.1, 100.4 };
static const double B[] = { 104.9, 102.2, 106.8, 103.5, 105.1 };
static const double C[] = { 99.1, 101.8, 100.9, 98.4, 100.6 };
static const double D[] = { 102.0, 104.3, 101.6, 103.9, 102.7, 101.2 };
static const double E[] = { 10, 12, 11 };
static const double F[] = { 30, 35, 28, 33 };

#define SUM(v, s) assert_int_equal(summary_of(v, sizeof(v) / sizeof(v[0]), s), 0)

static void quantiles_from_table(void **state)
{
	(void)state;
	assert_close(t_quantile(0.975, 4), 2.776, 5e-4);
	assert_close(t_quantile(0.975, 10), 2.228, 5e-4);
	assert_close(t_quantile(0.995, 3), 5.841, 5e-4);
	assert_close(t_quantile(0.95, 1), 6.314, 5e-4);
	assert_close(t_quantile(0.975, 1), 12.706, 5e-4);
	assert_close(t_quantile(0.95, 8), 1.860, 5e-4);
	assert_close(t_quantile(0.995, 30), 2.750, 5e-4);
	assert_close(t_quantile(0.9, 20), 1.325, 5e-4);
	assert_close(t_quantile(0.975, 120), 1.980, 5e-4);
	/* symmetry, the middle, and the two-sided form */
	assert_close(t_quantile(0.025, 4), -2.776, 5e-4);
	assert_close(t_quantile(0.5, 7), 0, 0);
	assert_close(t_critical(99, 3), 5.841, 5e-4);
	assert_close(t_critical(90, 1), 6.314, 5e-4);
	/* the CDF is the inverse: Cauchy (df 1) in closed form, 1/2 + atan(t)/pi */
	assert_close(t_cdf(1, 1), 0.75, 1e-10);
	assert_close(t_cdf(-3, 1), 0.5 + atan(-3) / M_PI, 1e-10);
	/* df 2 in closed form: 1/2 + t / (2 sqrt(2 + t^2)) */
	assert_close(t_cdf(1.5, 2), 0.5 + 1.5 / (2 * sqrt(2 + 2.25)), 1e-10);
	assert_close(t_incbeta(0.3, 1, 1), 0.3, 1e-12);  /* uniform */
}

static void bad_arguments(void **state)
{
	(void)state;
	assert_true(isnan(t_quantile(0, 4)));
	assert_true(isnan(t_quantile(1, 4)));
	assert_true(isnan(t_quantile(0.9, 0)));
	assert_true(isnan(t_cdf(1, -1)));
	assert_true(isnan(t_critical(100, 4)));
	assert_true(isnan(t_incbeta(1.5, 1, 1)));
	struct summary one = { .n = 1, .mean = 3, .stddev = NAN };
	struct summary a;
	struct t_diff d;
	SUM(A, &a);
	assert_int_equal(t_welch(&one, &a, 95, &d), -1);
	assert_int_equal(t_welch(&a, &a, 100, &d), -1);
	assert_true(isnan(t_mean_ci(&one, 95)));
}

/* ministat -A a.txt b.txt: N 5, median 100.4, avg 100.58, stddev
 * 1.8485129 (x) and 104.9, 104.5, 1.7392527 (+). */
static void summaries_as_ministat(void **state)
{
	(void)state;
	struct summary a, b, d;
	SUM(A, &a);
	SUM(B, &b);
	SUM(D, &d);
	assert_close(a.mean, 100.58, 1e-9);
	assert_close(a.median, 100.4, 1e-9);
	assert_close(a.stddev, 1.8485129, 5e-8);
	assert_close(b.mean, 104.5, 1e-9);
	assert_close(b.median, 104.9, 1e-9);
	assert_close(b.stddev, 1.7392527, 5e-8);
	assert_close(d.mean, 102.61667, 5e-6);
	/* ministat prints 102.7 for D: with an even count it takes the upper
	 * of the two middle figures; kbench takes their mean (102.0 + 102.7) / 2 */
	assert_close(d.median, 102.35, 1e-9);
	assert_close(d.stddev, 1.2576433, 5e-8);
}

/* the mean of A: t(n-1) * stddev / sqrt(5) */
static void mean_interval(void **state)
{
	(void)state;
	struct summary a;
	SUM(A, &a);
	assert_close(t_mean_ci(&a, 90), 1.7623553303, 1e-7);
	assert_close(t_mean_ci(&a, 95), 2.2952319378, 1e-7);
	assert_close(t_mean_ci(&a, 99), 3.8061136428, 1e-7);
}

/* ministat -c 90|95|99 a.txt b.txt:
 *   Difference at 90.0% confidence  3.92 +/- 2.11124  3.8974% +/- 2.09907%
 *   Difference at 95.0% confidence  3.92 +/- 2.61749  3.8974% +/- 2.60239%
 *   Difference at 99.0% confidence  3.92 +/- 3.80818  3.8974% +/- 3.78622%
 *   (Student's t, pooled s = 1.79471) */
static void pooled_as_ministat(void **state)
{
	(void)state;
	struct summary a, b;
	struct t_diff d;
	SUM(A, &a);
	SUM(B, &b);
	const double conf[] = { 90, 95, 99 };
	const double half[] = { 2.11124, 2.61749, 3.80818 };
	const double pct_half[] = { 2.09907, 2.60239, 3.78622 };
	for (int i = 0; i < 3; i++) {
		assert_int_equal(t_pooled(&a, &b, conf[i], &d), 0);
		assert_close(d.diff, 3.92, 1e-9);
		assert_close(d.df, 8, 0);
		assert_close(d.se, 1.79471 * sqrt(2.0 / 5), 5e-6);
		assert_rel(d.half, half[i], 5e-4);
		assert_close(d.pct, 3.8974, 5e-5);
		assert_rel(d.pct_half, pct_half[i], 5e-4);
		assert_true(d.proven);
	}
}

/* ministat -c 90|95|99 a.txt d.txt (5 and 6 figures):
 *   Difference at 90.0% confidence  2.03667 +/- 1.71856  2.02492% +/- 1.70865%
 *   No difference proven at 95.0% confidence
 *   No difference proven at 99.0% confidence
 * ministat -c 90|95|99 a.txt c.txt: no difference proven at any.
 * ministat -c 90|95|99 e.txt f.txt: 20.5 +/- 3.83203, 4.88941, 7.66787;
 *   186.364% +/- 34.8367%, 44.4492%, 69.7079%. */
static void pooled_verdicts_as_ministat(void **state)
{
	(void)state;
	struct summary a, c, d, e, f;
	struct t_diff r;
	SUM(A, &a);
	SUM(C, &c);
	SUM(D, &d);
	SUM(E, &e);
	SUM(F, &f);
	assert_int_equal(t_pooled(&a, &d, 90, &r), 0);
	assert_true(r.proven);
	assert_close(r.diff, 2.03667, 5e-6);
	assert_rel(r.half, 1.71856, 5e-4);
	assert_rel(r.pct, 2.02492, 5e-6);
	assert_rel(r.pct_half, 1.70865, 5e-4);
	assert_int_equal(t_pooled(&a, &d, 95, &r), 0);
	assert_false(r.proven);
	assert_int_equal(t_pooled(&a, &d, 99, &r), 0);
	assert_false(r.proven);
	const double conf[] = { 90, 95, 99 };
	const double half[] = { 3.83203, 4.88941, 7.66787 };
	const double pct_half[] = { 34.8367, 44.4492, 69.7079 };
	for (int i = 0; i < 3; i++) {
		assert_int_equal(t_pooled(&a, &c, conf[i], &r), 0);
		assert_false(r.proven);
		assert_int_equal(t_pooled(&e, &f, conf[i], &r), 0);
		assert_true(r.proven);
		assert_close(r.diff, 20.5, 1e-9);
		assert_rel(r.half, half[i], 5e-4);
		assert_rel(r.pct, 186.364, 5e-6);
		assert_rel(r.pct_half, pct_half[i], 5e-4);
	}
}

/* Welch on A and D: qa = 1.8485129^2/5, qd = 1.2576433^2/6,
 * se = 0.97314495894, df = 6.86400022037, t = 2.09287079788;
 * half at 90/95/99%: 1.84921039157, 2.31039708342, 3.42861443898.
 * On E and F: se 1.65831239518, df 3.77687861272; halves 3.59613644143,
 * 4.71349302940, 7.95197653342. */
static void welch(void **state)
{
	(void)state;
	struct summary a, d, e, f;
	struct t_diff r;
	SUM(A, &a);
	SUM(D, &d);
	SUM(E, &e);
	SUM(F, &f);
	const double conf[] = { 90, 95, 99 };
	const double ad_half[] = { 1.84921039157, 2.31039708342, 3.42861443898 };
	const bool ad_proven[] = { true, false, false };
	const double ef_half[] = { 3.59613644143, 4.71349302940, 7.95197653342 };
	for (int i = 0; i < 3; i++) {
		assert_int_equal(t_welch(&a, &d, conf[i], &r), 0);
		assert_close(r.se, 0.97314495894, 1e-9);
		assert_close(r.df, 6.86400022037, 1e-8);
		assert_close(r.t, 2.09287079788, 1e-8);
		assert_close(r.half, ad_half[i], 1e-6);
		assert_int_equal(r.proven, ad_proven[i]);
		assert_int_equal(t_welch(&e, &f, conf[i], &r), 0);
		assert_close(r.se, 1.65831239518, 1e-9);
		assert_close(r.df, 3.77687861272, 1e-8);
		assert_close(r.half, ef_half[i], 1e-6);
		assert_true(r.proven);
	}
	/* the p-value sits between the levels where the verdict turns */
	assert_int_equal(t_welch(&a, &d, 95, &r), 0);
	assert_true(r.p > 0.05 && r.p < 0.10);
	/* no spread at all: proven exactly when the means differ */
	const double s1[] = { 5, 5, 5 }, s2[] = { 6, 6, 6 };
	struct summary x, y;
	SUM(s1, &x);
	SUM(s2, &y);
	assert_int_equal(t_welch(&x, &y, 99, &r), 0);
	assert_true(r.proven);
	assert_int_equal(t_welch(&x, &x, 99, &r), 0);
	assert_false(r.proven);
	/* A and D times 1e150: qa^2 overflows a double, yet df, t and p are
	 * those of A and D and the interval scales with the figures */
	double big_a[5], big_d[6];
	for (int i = 0; i < 5; i++)
		big_a[i] = A[i] * 1e150;
	for (int i = 0; i < 6; i++)
		big_d[i] = D[i] * 1e150;
	SUM(big_a, &x);
	SUM(big_d, &y);
	assert_int_equal(t_welch(&x, &y, 95, &r), 0);
	assert_close(r.df, 6.86400022037, 1e-8);
	assert_close(r.t, 2.09287079788, 1e-8);
	assert_close(r.half / 1e150, 2.31039708342, 1e-6);
	assert_true(r.p > 0.05 && r.p < 0.10);
}

static void verdicts(void **state)
{
	(void)state;
	struct summary a, c, d, e;
	struct t_diff r;
	SUM(A, &a);
	SUM(C, &c);
	SUM(D, &d);
	SUM(E, &e);
	/* D above A at 90%: better when higher is better, worse otherwise */
	assert_int_equal(t_verdict_of(&a, &d, 90, true, &r), T_BETTER);
	assert_true(r.diff > 0);
	assert_int_equal(t_verdict_of(&a, &d, 90, false, NULL), T_WORSE);
	assert_int_equal(t_verdict_of(&d, &a, 90, true, NULL), T_WORSE);
	assert_int_equal(t_verdict_of(&d, &a, 90, false, NULL), T_BETTER);
	assert_int_equal(t_verdict_of(&a, &d, 95, true, NULL), T_SAME);
	assert_int_equal(t_verdict_of(&a, &c, 90, true, NULL), T_SAME);
	assert_int_equal(t_verdict_of(&a, &a, 90, true, NULL), T_SAME);
	/* fewer than three figures on a side: no verdict */
	struct summary two;
	SUM(((const double[]){ 1, 2 }), &two);
	assert_int_equal(t_verdict_of(&two, &a, 95, true, NULL), T_TOO_FEW);
	assert_int_equal(t_verdict_of(&a, &two, 95, true, NULL), T_TOO_FEW);
	assert_int_equal(t_verdict_of(&e, &a, 95, true, NULL), T_BETTER);  /* 3 is enough */
	assert_string_equal(t_verdict_word(T_SAME), "~");
	assert_string_equal(t_verdict_word(T_TOO_FEW), "too few runs");
}

/* The Mann-Whitney U test against figures scipy 1.10's mannwhitneyu(b, a)
 * gives (method "exact" without ties) and the exact distribution counted
 * by hand, with ties too. */
static void mann_whitney(void **state)
{
	(void)state;
	struct u_result r;
	/* every b above every a: U = 25, p = 2 / C(10, 5) = 2/252 */
	double a[] = { 1, 2, 3, 4, 5 }, b[] = { 6, 7, 8, 9, 10 };
	assert_int_equal(u_test(a, 5, b, 5, &r), 0);
	assert_true(r.exact && r.b_larger);
	assert_true(r.u == 25);
	assert_true(fabs(r.p - 2.0 / 252) < 1e-12);
	assert_true(fabs(r.p_min - 2.0 / 252) < 1e-12);
	/* the other way round: U = 0, the same p, b smaller */
	assert_int_equal(u_test(b, 5, a, 5, &r), 0);
	assert_true(r.u == 0 && !r.b_larger && fabs(r.p - 2.0 / 252) < 1e-12);
	/* interleaved, 6 against 7: U = 27, scipy p = 0.4452214452214452 */
	double c[] = { 1, 3, 5, 7, 9, 11 }, d[] = { 2, 4, 6, 8, 10, 12, 14 };
	assert_int_equal(u_test(c, 6, d, 7, &r), 0);
	assert_true(r.exact && r.u == 27);
	assert_true(fabs(r.p - 0.4452214452214452) < 1e-12);
	/* ties at 5 a side: exact too (the normal approximation, scipy's
	 * "asymptotic", gave 0.0119); every b below every a is one of the
	 * C(10, 5) choices whatever the tie among a's: p = 2/252 */
	double e[] = { 4.2, 3.9, 10.3, 14.3, 14.3 }, f[] = { 2.1, 2.3, 2.0, 2.2, 2.4 };
	assert_int_equal(u_test(e, 5, f, 5, &r), 0);
	assert_true(r.exact && r.u == 0);
	assert_true(fabs(r.p - 2.0 / 252) < 1e-12);
	/* three a side: the smallest p is 0.1, reached when they are apart */
	double g[] = { 58.2, 1.95, 1.87 }, h[] = { 1.80, 1.82, 1.79 };
	assert_int_equal(u_test(g, 3, h, 3, &r), 0);
	assert_true(fabs(r.p - 0.1) < 1e-12 && fabs(r.p_min - 0.1) < 1e-12);
	/* all the same: no difference */
	double k[] = { 5, 5, 5 };
	assert_int_equal(u_test(k, 3, k, 3, &r), 0);
	assert_true(r.p == 1 && r.u == 4.5);
	assert_int_equal(u_test(k, 0, k, 3, &r), -1);
	/* the exact distribution sums to one: p of U at its mean is 1 */
	double m[] = { 1, 4, 5, 8 }, n[] = { 2, 3, 6, 7 };
	assert_int_equal(u_test(m, 4, n, 4, &r), 0);
	assert_true(r.u == 8 && r.p == 1);
}

/* The median's interval by order statistics: P(B <= 0) for 6 runs is
 * 1/64 <= 0.025, so [x(1), x(6)]; for 10 runs P(B <= 1) = 11/1024 and
 * P(B <= 2) = 56/1024 > 0.025, so [x(2), x(9)]; 5 runs at 95% (1/32 >
 * 0.025) have none, at 90% (1/32 <= 0.05) [x(1), x(5)]. */
static void median_interval(void **state)
{
	(void)state;
	double lo, hi;
	double six[] = { 6, 1, 5, 2, 4, 3 };
	assert_int_equal(u_median_ci(six, 6, 95, &lo, &hi), 0);
	assert_true(lo == 1 && hi == 6);
	double ten[] = { 10, 9, 8, 7, 6, 5, 4, 3, 2, 1 };
	assert_int_equal(u_median_ci(ten, 10, 95, &lo, &hi), 0);
	assert_true(lo == 2 && hi == 9);
	assert_int_equal(u_median_ci(ten, 10, 99, &lo, &hi), 0);
	assert_true(lo == 1 && hi == 10);   /* P(B <= 1) = 0.0107 > 0.005 */
	double five[] = { 1, 2, 3, 4, 5 };
	assert_int_equal(u_median_ci(five, 5, 95, &lo, &hi), -1);
	assert_int_equal(u_median_ci(five, 5, 90, &lo, &hi), 0);
	assert_true(lo == 1 && hi == 5);
	assert_int_equal(u_median_ci(five, 1, 90, &lo, &hi), -1);
}

/* The Hodges-Lehmann shift and its interval, against the null
 * distribution counted by enumerating every placement of the ranks (in
 * Python, for these figures) and R's qwilcox(0.025, 5, 5) = 3: the
 * differences ranked 3 and 23 of 25. */
static void shift_interval(void **state)
{
	(void)state;
	double sh, lo, hi;
	double a[] = { 1.87, 1.90, 1.92, 1.95, 1.89 }, b[] = { 2.08, 2.09, 2.10, 2.11, 58.2 };
	assert_int_equal(u_shift_ci(a, 5, b, 5, 95, &sh, &lo, &hi), 0);
	assert_true(fabs(sh - 0.20) < 1e-9);
	assert_true(fabs(lo - 0.15) < 1e-9);
	assert_true(fabs(hi - 56.30) < 1e-9);
	/* 5 against 6: ranked 4 and 27 of 30 */
	double c[] = { 98.2, 101.5, 99.7, 103.1, 100.4 };
	double d[] = { 102.0, 104.3, 101.6, 103.9, 102.7, 101.2 };
	assert_int_equal(u_shift_ci(c, 5, d, 6, 95, &sh, &lo, &hi), 0);
	assert_true(fabs(sh - 2.10) < 1e-9);
	assert_true(fabs(lo + 0.40) < 1e-9);
	assert_true(fabs(hi - 4.50) < 1e-9);
	/* 3 a side: none at 95% (2/20 > 0.05), the extremes at 90% */
	double e[] = { 1, 2, 3 }, f[] = { 4, 5, 6 };
	assert_int_equal(u_shift_ci(e, 3, f, 3, 95, &sh, &lo, &hi), -1);
	assert_true(sh == 3);
	assert_int_equal(u_shift_ci(e, 3, f, 3, 90, &sh, &lo, &hi), 0);
	assert_true(lo == 1 && hi == 5);
	/* ties: no exact distribution, no interval */
	double g[] = { 1, 1, 2 };
	assert_int_equal(u_shift_ci(g, 3, f, 3, 90, &sh, &lo, &hi), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(quantiles_from_table),
		cmocka_unit_test(bad_arguments),
		cmocka_unit_test(summaries_as_ministat),
		cmocka_unit_test(mean_interval),
		cmocka_unit_test(pooled_as_ministat),
		cmocka_unit_test(pooled_verdicts_as_ministat),
		cmocka_unit_test(welch),
		cmocka_unit_test(verdicts),
		cmocka_unit_test(mann_whitney),
		cmocka_unit_test(median_interval),
		cmocka_unit_test(shift_interval),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
