/* kbench - unit tests of the equivalence tests, the detectable change,
 * the Brown-Forsythe test and the planned runs
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The expected values come from scipy 1.10 (stats.t, stats.mannwhitneyu
 * with method="exact", stats.levene with center="median", stats.norm),
 * or by hand where the comment works them.
 */
#include "config.h"
#include "stats/equiv.h"
#include "stats/power.h"
#include "stats/spread.h"
#include "stats/summary.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

static const double a5[] = { 10.0, 10.4, 9.8, 10.1, 10.2 };
static const double b5[] = { 10.3, 10.6, 10.0, 10.5, 10.2 };

static void assert_near(double got, double want, double tol)
{
	if (!(fabs(got - want) <= tol))
		fail_msg("got %.15g, want %.15g", got, want);
}

/* Schuirmann's TOST at a margin of 0.5: diff 0.22, se 0.146287, Welch
 * df 7.9659; max(t.sf((0.22 + 0.5) / se), t.cdf((0.22 - 0.5) / se)) =
 * 0.0460566033664 (scipy). */
static void tost_welch(void **state)
{
	(void)state;
	struct summary a, b;
	double p;
	summary_of(a5, 5, &a);
	summary_of(b5, 5, &b);
	assert_int_equal(eq_tost_welch(&a, &b, 0.5, &p), 0);
	assert_near(p, 0.0460566033664, 1e-9);
	/* a margin of 0 can never be proven */
	assert_int_equal(eq_tost_welch(&a, &b, 0, &p), 0);
	assert_true(p > 0.5);
	assert_int_equal(eq_tost_welch(&a, &b, -1, &p), -1);
}

/* The U test's TOST at 0.45 (no figure of b equal to one of a -+ 0.45):
 * mannwhitneyu(b, a - 0.45, "greater") = 1/252 and mannwhitneyu(b, a +
 * 0.45, "less") = 28/252 (scipy, exact): the larger, 28/252.  At 0.55:
 * 1/252 and 7/252, so 7/252 = 0.0278.  At 0.5, b's 10.3, 10.5 and 10.6
 * tie with a + 0.5: kbench counts the exact distribution given the ties
 * (utest.h), 16/252, where scipy's "exact" ignores them (19/252). */
static void tost_u(void **state)
{
	(void)state;
	double p;
	assert_int_equal(eq_tost_u(a5, 5, b5, 5, 0.45, &p), 0);
	assert_near(p, 28.0 / 252, 1e-12);
	assert_int_equal(eq_tost_u(a5, 5, b5, 5, 0.55, &p), 0);
	assert_near(p, 7.0 / 252, 1e-12);
	assert_int_equal(eq_tost_u(a5, 5, b5, 5, 0.5, &p), 0);
	assert_near(p, 16.0 / 252, 1e-12);
	/* with a margin of 1 both sides are as far as 5 and 5 can go: 1/252 */
	assert_int_equal(eq_tost_u(a5, 5, b5, 5, 1.0, &p), 0);
	assert_near(p, 1.0 / 252, 1e-12);
	assert_int_equal(eq_tost_u(a5, 0, b5, 5, 1.0, &p), -1);
}

/* U's null distribution for 5 and 5 (252 arrangements): U = 0, 1, 2, 3
 * in 1, 1, 2, 3 of them; P(U <= 2) = 4/252 = 0.0159 <= 0.025, P(U <= 3)
 * = 7/252 = 0.0278 > 0.025: c = 3.  At 3 and 3, P(U <= 0) = 1/20 >
 * 0.025: none.  Normal approximation at 30 and 30 (mn 900, z 1.95996):
 * floor(450 - 1.95996 sqrt(900 61 / 12) + 0.5) = 317. */
static void u_rank(void **state)
{
	(void)state;
	assert_int_equal(eq_u_rank(5, 5, 0.05), 3);
	assert_int_equal(eq_u_rank(3, 3, 0.05), 0);
	assert_int_equal(eq_u_rank(3, 3, 0.10), 1);
	assert_int_equal(eq_u_rank(30, 30, 0.05), 317);
}

/* 1..5 against 1..5: the 25 differences sorted, c = 3 picks the 3rd
 * (-3) and the 23rd (3): half-width 3.  With 3 and 3 at 95% the U test
 * can prove nothing: NAN. */
static void detect_u(void **state)
{
	(void)state;
	const double x[] = { 1, 2, 3, 4, 5 };
	assert_near(eq_detect_u(x, 5, x, 5, 0.05), 3, 1e-12);
	assert_true(isnan(eq_detect_u(x, 3, x, 3, 0.05)));
	/* a stricter threshold can only widen it: c = 1 at 0.008 (2/252 = 0.0079) */
	assert_near(eq_detect_u(x, 5, x, 5, 0.008), 4, 1e-12);
}

/* t.isf(0.025, 7.9659) * 0.146287 = 0.33759079391 (scipy). */
static void detect_welch(void **state)
{
	(void)state;
	struct summary a, b;
	summary_of(a5, 5, &a);
	summary_of(b5, 5, &b);
	assert_near(eq_detect_welch(&a, &b, 0.05), 0.33759079391, 1e-8);
	assert_true(isnan(eq_detect_welch(&a, &b, 0)));
}

/* stats.levene(a5, [1, 5, 2, 8, 3.5], center="median") = F 6.11560693642,
 * p 0.0385313021490 (scipy). */
static void brown_forsythe(void **state)
{
	(void)state;
	const double w[] = { 1, 5, 2, 8, 3.5 };
	struct spread_test t;
	assert_int_equal(spread_bf(a5, 5, w, 5, &t), 0);
	assert_near(t.f, 6.11560693642, 1e-9);
	assert_near(t.p, 0.0385313021490, 1e-10);
	/* a5's median 10.1, |deviations| 0.1 0.3 0.3 0 0.1, their mean 0.16 */
	assert_near(t.mad_a, 0.16, 1e-12);
	/* the same figures: F 0, p 1 */
	assert_int_equal(spread_bf(a5, 5, a5, 5, &t), 0);
	assert_near(t.p, 1, 1e-12);
	assert_int_equal(spread_bf(a5, 1, w, 5, &t), -1);
}

/* 2 (z.975 + z.8)^2 3^2 / 5^2 = 5.6512 (scipy's norm): 6 runs for the
 * t-test; / 0.955 = 5.9175: 6 for the U test too (its floor at 0.05 is 4,
 * 2/70).  At 0.05/68 (one change among 68 tests, Benjamini-Hochberg) a
 * 2% CoV and 5% change: 5.9607, but the floor 2/C(14,7) = 0.00058 puts
 * it at 7 (6 a side: 2/924 = 0.0022 is not below 0.000735). */
static void planned_runs(void **state)
{
	(void)state;
	assert_int_equal(power_u_floor_runs(0.05), 4);
	assert_int_equal(power_u_floor_runs(0.05 / 68), 7);
	assert_int_equal(power_u_floor_runs(0.01), 5);
	assert_int_equal(power_runs(3, 5, 0.05, 0.8, false), 6);
	assert_int_equal(power_runs(3, 5, 0.05, 0.8, true), 6);
	assert_int_equal(power_runs(2, 5, 0.05 / 68, 0.8, true), 7);
	/* 10% CoV for 5%: 2 (z(1 - 0.05/136) + z(0.8))^2 100 / 25 / 0.955 = 149.02 */
	assert_int_equal(power_runs(10, 5, 0.05 / 68, 0.8, true), 150);
	assert_int_equal(power_runs(3, 0, 0.05, 0.8, true), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(tost_welch),
		cmocka_unit_test(tost_u),
		cmocka_unit_test(u_rank),
		cmocka_unit_test(detect_u),
		cmocka_unit_test(detect_welch),
		cmocka_unit_test(brown_forsythe),
		cmocka_unit_test(planned_runs),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
