/* kbench - unit tests of the adjusted p-values and of the exact U test with ties
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every expected value is worked by hand in the comment above its test
 * (Benjamini-Hochberg: min over j >= i of m p(j) / j; Holm: max over
 * j <= i of (m - j + 1) p(j), both capped at 1).
 */
#include "config.h"
#include "stats/adjust.h"
#include "stats/utest.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

static void assert_near(double got, double want)
{
	if (fabs(got - want) > 1e-12)
		fail_msg("got %.15g, want %.15g", got, want);
}

/* p = .01 .04 .03 .005, sorted .005 .01 .03 .04: m p(j) / j = .02 .02
 * .04 .04, the running minimum from the top the same; back in the
 * caller's order: .02 .04 .04 .02. */
static void bh_hand(void **state)
{
	(void)state;
	const double p[] = { 0.01, 0.04, 0.03, 0.005 };
	double q[4];
	assert_int_equal(p_adjust(p, 4, P_ADJ_BH, q), 0);
	assert_near(q[0], 0.02);
	assert_near(q[1], 0.04);
	assert_near(q[2], 0.04);
	assert_near(q[3], 0.02);
}

/* The same p: (m - j + 1) p(j) = .02 .03 .06 .04, the running maximum
 * .02 .03 .06 .06; in order .03 .06 .06 .02. */
static void holm_hand(void **state)
{
	(void)state;
	const double p[] = { 0.01, 0.04, 0.03, 0.005 };
	double q[4];
	assert_int_equal(p_adjust(p, 4, P_ADJ_HOLM, q), 0);
	assert_near(q[0], 0.03);
	assert_near(q[1], 0.06);
	assert_near(q[2], 0.06);
	assert_near(q[3], 0.02);
}

/* BH where a later p pulls an earlier one down: p = .001 .012 .013 .5,
 * m p(j) / j = .004 .024 .01733 .5: the running minimum gives .004
 * .01733 .01733 .5 (the second takes the third's value). */
static void bh_step_up(void **state)
{
	(void)state;
	const double p[] = { 0.5, 0.013, 0.012, 0.001 };
	double q[4];
	assert_int_equal(p_adjust(p, 4, P_ADJ_BH, q), 0);
	assert_near(q[0], 0.5);
	assert_near(q[1], 4 * 0.013 / 3);
	assert_near(q[2], 4 * 0.013 / 3);
	assert_near(q[3], 0.004);
}

/* Ties: three p of .02.  BH: 3 p / j = .06 .03 .02, the minimum from the
 * top .02 for all; Holm: .06 .04 .02, the maximum from below .06 for all.
 * Equal p, equal adjusted values, whatever order they were sorted in. */
static void ties(void **state)
{
	(void)state;
	const double p[] = { 0.02, 0.02, 0.02 };
	double q[3];
	assert_int_equal(p_adjust(p, 3, P_ADJ_BH, q), 0);
	for (int i = 0; i < 3; i++)
		assert_near(q[i], 0.02);
	assert_int_equal(p_adjust(p, 3, P_ADJ_HOLM, q), 0);
	for (int i = 0; i < 3; i++)
		assert_near(q[i], 0.06);
}

/* m = 1: the p itself under every method; m = 0 touches nothing. */
static void one_test(void **state)
{
	(void)state;
	const double p[] = { 0.3 };
	double q[1] = { -1 };
	for (int h = P_ADJ_BH; h <= P_ADJ_NONE; h++) {
		assert_int_equal(p_adjust(p, 1, (enum p_adjust)h, q), 0);
		assert_near(q[0], 0.3);
	}
	q[0] = -1;
	assert_int_equal(p_adjust(p, 0, P_ADJ_BH, q), 0);
	assert_near(q[0], -1);
}

/* Capped at 1: p = .9 .8.  BH: 2 (.8) / 1 = 1.6, 2 (.9) / 2 = .9: both
 * .9.  Holm: 2 (.8) = 1.6, capped 1; then .9 below the running 1: both 1.
 * The adjustment may write over its input (q == p). */
static void capped_in_place(void **state)
{
	(void)state;
	double p[] = { 0.9, 0.8 };
	assert_int_equal(p_adjust(p, 2, P_ADJ_BH, p), 0);
	assert_near(p[0], 0.9);
	assert_near(p[1], 0.9);
	double h[] = { 0.9, 0.8 };
	assert_int_equal(p_adjust(h, 2, P_ADJ_HOLM, h), 0);
	assert_near(h[0], 1);
	assert_near(h[1], 1);
}

/* The U test's floor across a study: 80 rows of 6 runs a side at p =
 * 2 / C(12, 6) = 2/924.  Holm's first step needs 80 p < .05: nothing
 * passes; BH over 80 rows all at the floor keeps each at 2/924. */
static void floor_of_a_study(void **state)
{
	(void)state;
	double p[80], q[80];
	for (int i = 0; i < 80; i++)
		p[i] = 2.0 / 924;
	assert_int_equal(p_adjust(p, 80, P_ADJ_HOLM, q), 0);
	assert_near(q[0], 80 * 2.0 / 924);
	assert_true(q[0] > 0.05);
	assert_int_equal(p_adjust(p, 80, P_ADJ_BH, q), 0);
	assert_near(q[79], 2.0 / 924);
}

static void names(void **state)
{
	(void)state;
	enum p_adjust h;
	assert_int_equal(p_adjust_parse("holm", &h), 0);
	assert_int_equal(h, P_ADJ_HOLM);
	assert_int_equal(p_adjust_parse("bh", &h), 0);
	assert_int_equal(h, P_ADJ_BH);
	assert_int_equal(p_adjust_parse("none", &h), 0);
	assert_int_equal(h, P_ADJ_NONE);
	assert_int_equal(p_adjust_parse("bonferroni", &h), -1);
	assert_string_equal(p_adjust_name(P_ADJ_HOLM), "holm");
}

/* 10 10 10 20 against 20 30 30 30: U = 3.5 + 12 = 15.5 of 16.  Of the
 * C(8, 4) = 70 choices of b's four among the pooled runs, only {20, 30,
 * 30, 30} (with either 20: 2 choices) reaches 15.5: p = 2 (2/70) = 4/70. */
static void u_exact_with_ties(void **state)
{
	(void)state;
	const double a[] = { 10, 10, 10, 20 }, b[] = { 20, 30, 30, 30 };
	struct u_result r;
	assert_int_equal(u_test(a, 4, b, 4, &r), 0);
	assert_true(r.exact);
	assert_near(r.u, 15.5);
	assert_near(r.p, 4.0 / 70);
	assert_true(r.b_larger);
	/* all runs equal: every choice gives the same U, p = 1 */
	const double c[] = { 5, 5, 5 };
	assert_int_equal(u_test(c, 3, c, 3, &r), 0);
	assert_near(r.p, 1);
	/* 1 2 2 against 2 3 3: U = 0.5 + 0.5 + 1 ... b's 2 ties two a's (1),
	 * beats one (1): 2; each 3 beats all three: 6; U = 8 of 9.  The
	 * doubled midranks are 2, 6, 6, 6, 11, 11; b's sum is 28, reached by
	 * {2, 3, 3} with any of the three 2s (3 choices of 20), so P(U >= 8)
	 * = 3/20 and p = 0.3. */
	const double d[] = { 1, 2, 2 }, e[] = { 2, 3, 3 };
	assert_int_equal(u_test(d, 3, e, 3, &r), 0);
	assert_near(r.u, 8);
	assert_near(r.p, 0.3);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(bh_hand),
		cmocka_unit_test(holm_hand),
		cmocka_unit_test(bh_step_up),
		cmocka_unit_test(ties),
		cmocka_unit_test(one_test),
		cmocka_unit_test(capped_in_place),
		cmocka_unit_test(floor_of_a_study),
		cmocka_unit_test(names),
		cmocka_unit_test(u_exact_with_ties),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
