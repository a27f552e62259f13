/* kbench - unit tests of kbench suite --until-stable's stopping rule
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Figure vectors whose median intervals follow by hand: at 95% the
 * interval is [min, max] for 6 to 8 runs and [x(2), x(n-1)] for 9 and 10
 * (P(B <= 1) for B binomial(n, 1/2) is 7/64, 8/128, 9/256 above 0.025,
 * 10/512 and 11/1024 below it).
 */
#include "config.h"
#include "stats/stable.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

/* 6 runs within 1%: [99.6, 100.5] around a median of 100.1, a half-width
 * of 0.45 = 0.4496%; the 6 planned runs are all it gets. */
static void steady_stops_at_planned(void **state)
{
	(void)state;
	const double v[] = { 100, 100.4, 99.8, 100.2, 99.6, 100.5, 100, 100, 100, 100 };
	double half;
	bool hit = true;
	assert_int_equal(stable_half_pct(v, 6, STABLE_CONF, &half), 0);
	assert_true(fabs(half - 100 * 0.45 / 100.1) < 1e-9);
	assert_int_equal(stable_runs(v, 10, 6, 1.0, 10, &hit), 6);
	assert_false(hit);
	/* asked for 0.1%: 0.3% at 9 and 10 runs ([99.8, 100.4]), so run 10 is the last */
	assert_int_equal(stable_runs(v, 10, 6, 0.1, 10, &hit), 10);
	assert_true(hit);
}

/* Spread over 60..200: 63.6% at 6 runs, 40.9% at 9 ([80, 170] around
 * 110); 5% is never reached, so it runs to --max-runs 10. */
static void noisy_goes_to_max(void **state)
{
	(void)state;
	const double v[] = { 100, 150, 80, 200, 60, 120, 90, 170, 110, 140 };
	double half;
	bool hit = false;
	assert_int_equal(stable_runs(v, 10, 6, 5.0, 10, &hit), 10);
	assert_true(hit);
	assert_int_equal(stable_half_pct(v, 9, STABLE_CONF, &half), 0);
	assert_true(fabs(half - 100 * 45.0 / 110) < 1e-9);
	/* a huge PCT stops it at the planned runs */
	assert_int_equal(stable_runs(v, 10, 6, 1000.0, 10, &hit), 6);
	assert_false(hit);
}

/* One wild run keeps [min, max] wide up to 8 runs; at 9 the interval is
 * [x(2), x(8)] = [99, 102] around 100: 1.5%, within 2%. */
static void stops_in_between(void **state)
{
	(void)state;
	const double v[] = { 100, 130, 101, 99, 100, 102, 100, 101, 99, 100, 100, 100 };
	bool hit = true;
	assert_int_equal(stable_runs(v, 12, 6, 2.0, 12, &hit), 9);
	assert_false(hit);
	/* with 3 planned runs the rule still waits for the interval (6 runs) */
	assert_int_equal(stable_runs(v, 12, 3, 2.0, 12, &hit), 9);
	assert_int_equal(stable_runs(v, 12, 3, 20.0, 12, &hit), 6);
	/* --max-runs 8 comes first */
	assert_int_equal(stable_runs(v, 12, 6, 2.0, 8, &hit), 8);
	assert_true(hit);
}

static void more_and_limits(void **state)
{
	(void)state;
	const double v[] = { 100, 100, 100, 100, 100, 100 };
	double half = -1;
	assert_int_equal(stable_min_runs(95), 6);
	assert_int_equal(stable_min_runs(90), 5);
	assert_int_equal(stable_min_runs(99), 8);
	assert_int_equal(stable_min_runs(100), 0);
	/* planned runs come first, whatever the figures */
	assert_true(stable_more(v, 6, 5, 6, 50, 20));
	assert_false(stable_more(v, 6, 6, 6, 50, 20));
	/* failed attempts: 3 figures from 6 attempts have no interval yet */
	assert_true(stable_more(v, 3, 6, 6, 50, 20));
	assert_false(stable_more(v, 3, 20, 6, 50, 20));
	/* too few figures, a figure not finite */
	assert_int_equal(stable_half_pct(v, 5, STABLE_CONF, &half), -1);
	const double bad[] = { 1, 2, NAN, 4, 5, 6 };
	assert_int_equal(stable_half_pct(bad, 6, STABLE_CONF, &half), -1);
	assert_true(half == -1);
	/* a median of 0: one point is 0%, else no share of 0 */
	const double zeros[] = { 0, 0, 0, 0, 0, 0 }, around[] = { -1, 0, 0, 0, 0, 1 };
	assert_int_equal(stable_half_pct(zeros, 6, STABLE_CONF, &half), 0);
	assert_true(half == 0);
	assert_int_equal(stable_half_pct(around, 6, STABLE_CONF, &half), 0);
	assert_true(isinf(half));
	/* a vector shorter than --max-runs, planned above it */
	assert_int_equal(stable_runs(v, 6, 6, 1, 7, NULL), 0);
	assert_int_equal(stable_runs(v, 6, 7, 1, 6, NULL), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(steady_stops_at_planned),
		cmocka_unit_test(noisy_goes_to_max),
		cmocka_unit_test(stops_in_between),
		cmocka_unit_test(more_and_limits),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
