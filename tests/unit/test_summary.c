/* kbench - unit tests of the summaries of repeated measurements
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The expected figures were worked out by hand (sum, squared deviations,
 * square root), not by calling the code under test.
 */
#include "config.h"
#include "stats/summary.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#define EPS 1e-9

static void assert_close(double got, double want, double eps)
{
	if (!(fabs(got - want) <= eps))
		fail_msg("got %.12g, want %.12g (+- %g)", got, want, eps);
}

/* 2 4 4 4 5 5 7 9: sum 40, mean 5; squared deviations 9+1+1+1+0+0+4+16 =
 * 32; sample variance 32/7 = 4.571428...; stddev 2.138089935...;
 * CoV 2.138089935/5 = 42.76179871 %; median (4+5)/2 = 4.5. */
static void even_count(void **state)
{
	(void)state;
	const double v[] = { 9, 4, 2, 5, 4, 7, 4, 5 };
	struct summary s;
	assert_int_equal(summary_of(v, 8, &s), 0);
	assert_int_equal(s.n, 8);
	assert_close(s.min, 2, 0);
	assert_close(s.max, 9, 0);
	assert_close(s.mean, 5, EPS);
	assert_close(s.median, 4.5, 0);
	assert_close(s.stddev, 2.138089935299395, EPS);
	assert_close(s.cov_pct, 42.76179870598791, 1e-8);
}

/* 30 10 20: median 20, mean 20, deviations 10 -10 0 -> 200/2 = 100,
 * stddev 10, CoV 50 %. */
static void odd_count(void **state)
{
	(void)state;
	const double v[] = { 30, 10, 20 };
	struct summary s;
	assert_int_equal(summary_of(v, 3, &s), 0);
	assert_close(s.median, 20, 0);
	assert_close(s.mean, 20, EPS);
	assert_close(s.stddev, 10, EPS);
	assert_close(s.cov_pct, 50, EPS);
	assert_close(s.min, 10, 0);
	assert_close(s.max, 30, 0);
}

/* Five MB/sec figures as kbench disk --runs 5 prints them.  Sorted:
 * 198.50 205.00 205.98 210.00 212.40 -> median 205.98.  Sum 1031.88, mean
 * 206.376; deviations -0.396 3.624 -7.876 -1.376 6.024, squares 0.156816
 * 13.133376 62.031376 1.893376 36.288576, sum 113.50352, /4 = 28.37588,
 * stddev 5.3269015, CoV 5.3269015/206.376 = 2.5811633 %. */
static void mb_per_s_runs(void **state)
{
	(void)state;
	const double v[] = { 205.98, 210.00, 198.50, 205.00, 212.40 };
	struct summary s;
	assert_int_equal(summary_of(v, 5, &s), 0);
	assert_close(s.min, 198.50, 0);
	assert_close(s.max, 212.40, 0);
	assert_close(s.median, 205.98, 0);
	assert_close(s.mean, 206.376, 1e-9);
	assert_close(s.stddev, 5.3269015, 1e-7);
	assert_close(s.cov_pct, 2.5811633, 1e-7);
}

/* One value: everything is that value; no spread can be estimated. */
static void single_value(void **state)
{
	(void)state;
	const double v[] = { 7.5 };
	struct summary s;
	assert_int_equal(summary_of(v, 1, &s), 0);
	assert_close(s.min, 7.5, 0);
	assert_close(s.max, 7.5, 0);
	assert_close(s.median, 7.5, 0);
	assert_close(s.mean, 7.5, 0);
	assert_true(isnan(s.stddev));
	assert_true(isnan(s.cov_pct));
	assert_true(isnan(summary_stddev(v, 1)));
}

/* 1 3: median 2; deviations -1 1 -> 2/1, stddev sqrt(2) = 1.414213562,
 * CoV 70.71067812 %. */
static void two_values(void **state)
{
	(void)state;
	const double v[] = { 3, 1 };
	assert_close(summary_median(v, 2), 2, 0);
	assert_close(summary_stddev(v, 2), 1.4142135623730951, EPS);
	struct summary s;
	assert_int_equal(summary_of(v, 2, &s), 0);
	assert_close(s.cov_pct, 70.71067811865476, 1e-8);
}

/* 1e9+1, 1e9+2, 1e9+3: mean 1e9+2, squared deviations 1 0 1 -> 2/2 = 1:
 * stddev exactly 1.  A one-pass sum of squares would lose this. */
static void large_values_small_spread(void **state)
{
	(void)state;
	const double v[] = { 1e9 + 1, 1e9 + 2, 1e9 + 3 };
	assert_close(summary_mean(v, 3), 1e9 + 2, 0);
	assert_close(summary_stddev(v, 3), 1, 1e-12);
}

/* -1 1: mean 0, so no CoV; stddev sqrt(2). */
static void zero_mean(void **state)
{
	(void)state;
	const double v[] = { -1, 1 };
	struct summary s;
	assert_int_equal(summary_of(v, 2, &s), 0);
	assert_close(s.mean, 0, 0);
	assert_close(s.stddev, 1.4142135623730951, EPS);
	assert_true(isnan(s.cov_pct));
}

static void empty_and_bad_input(void **state)
{
	(void)state;
	struct summary s;
	const double v[] = { 1, NAN, 3 };
	const double w[] = { 1, INFINITY };
	assert_int_equal(summary_of(v, 0, &s), -1);
	assert_true(isnan(summary_mean(v, 0)));
	assert_true(isnan(summary_median(v, 0)));
	assert_true(isnan(summary_stddev(v, 0)));
	assert_int_equal(summary_of(v, 3, &s), -1);
	assert_int_equal(summary_of(w, 2, &s), -1);
}

/* The median sorts a copy: the caller's order stays. */
static void input_unchanged(void **state)
{
	(void)state;
	double v[] = { 5, 1, 4, 2, 3 };
	assert_close(summary_median(v, 5), 3, 0);
	struct summary s;
	assert_int_equal(summary_of(v, 5, &s), 0);
	assert_close(v[0], 5, 0);
	assert_close(v[1], 1, 0);
	assert_close(v[2], 4, 0);
	assert_close(v[3], 2, 0);
	assert_close(v[4], 3, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(even_count),
		cmocka_unit_test(odd_count),
		cmocka_unit_test(mb_per_s_runs),
		cmocka_unit_test(single_value),
		cmocka_unit_test(two_values),
		cmocka_unit_test(large_values_small_spread),
		cmocka_unit_test(zero_mean),
		cmocka_unit_test(empty_and_bad_input),
		cmocka_unit_test(input_unchanged),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
