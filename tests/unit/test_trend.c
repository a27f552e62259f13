/* kbench - unit tests of the trend test (the unsteady caveat)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The expected figures were worked out by hand: for y = 10 12 11 13 14
 * at x = 0..4, mean x 2, mean y 12, Sxx 10, Sxy 9, slope 0.9; residuals
 * -0.2 0.9 -1 0.1 0.2, SSE 1.9, se sqrt(1.9 / 3 / 10) = 0.2516611,
 * t 3.5762374; with 3 degrees of freedom Student's CDF is 1/2 + (theta +
 * sin theta cos theta) / pi, theta = atan(t / sqrt 3), so the two-sided
 * p is 0.0373861: below 0.05, above 0.01.
 */
#include "config.h"
#include "stats/trend.h"

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

static void hand_worked(void **state)
{
	(void)state;
	const double y[] = { 10, 12, 11, 13, 14 };
	struct trend tr;
	assert_int_equal(trend_test(y, 5, 95, &tr), 0);
	assert_int_equal(tr.n, 5);
	assert_close(tr.mean, 12, 1e-12);
	assert_close(tr.slope, 0.9, 1e-12);
	assert_close(tr.slope_pct, 7.5, 1e-9);
	assert_close(tr.change_pct, 30, 1e-9);
	assert_close(tr.t, 3.5762373641, 1e-8);
	assert_close(tr.p, 0.0373860735, 1e-6);
	assert_true(tr.trending);                       /* p < 0.05 */
	assert_int_equal(trend_test(y, 5, 99, &tr), 0);
	assert_false(tr.trending);                      /* p > 0.01 */
}

static void flat_and_exact(void **state)
{
	(void)state;
	const double flat[] = { 5, 5, 5, 5, 5, 5 };
	const double line[] = { 1, 2, 3, 4, 5 };
	const double falling[] = { 50, 40, 30, 20, 10 };
	struct trend tr;
	assert_int_equal(trend_test(flat, 6, 95, &tr), 0);
	assert_close(tr.slope, 0, 0);
	assert_close(tr.p, 1, 0);
	assert_false(tr.trending);
	assert_int_equal(trend_test(line, 5, 99, &tr), 0);
	assert_true(isinf(tr.t) && tr.t > 0);
	assert_close(tr.p, 0, 0);
	assert_true(tr.trending);
	assert_int_equal(trend_test(falling, 5, 95, &tr), 0);
	assert_close(tr.slope, -10, 1e-12);
	assert_close(tr.change_pct, -400.0 * 10 / 30, 1e-9);
	assert_true(tr.trending);
}

/* A slope however sure that moves the throughput by less than 5% across
 * the window is not a trend: 1000..1004 is 0.4%. */
static void too_small_to_matter(void **state)
{
	(void)state;
	const double y[] = { 1000, 1001, 1002, 1003, 1004 };
	struct trend tr;
	assert_int_equal(trend_test(y, 5, 95, &tr), 0);
	assert_close(tr.p, 0, 0);
	assert_close(tr.change_pct, 100.0 * 4 / 1002, 1e-9);
	assert_false(tr.trending);
}

static void refused(void **state)
{
	(void)state;
	const double y[] = { 1, 2, 3, 4, 5 }, bad[] = { 1, 2, NAN, 4, 5 };
	const double neg[] = { -1, -2, -3, -4, -5 };
	struct trend tr = { .n = 77 };
	assert_int_equal(trend_test(y, 4, 95, &tr), -1);         /* too few */
	assert_int_equal(trend_test(bad, 5, 95, &tr), -1);
	assert_int_equal(trend_test(neg, 5, 95, &tr), -1);
	assert_int_equal(trend_test(y, 5, 0, &tr), -1);
	assert_int_equal(trend_test(y, 5, 100, &tr), -1);
	assert_int_equal(tr.n, 77);                               /* untouched */
}

/* results.series: the warm-up's seconds left out, bytes over interval_s. */
static void from_series(void **state)
{
	(void)state;
	json_error_t e;
	json_t *s = json_loads("{\"interval_s\": 2, \"points\": ["
		"{\"t\": 2, \"warmup\": true, \"bytes\": 900000, \"ops\": 1},"
		"{\"t\": 4, \"warmup\": true, \"bytes\": 5, \"ops\": 1},"
		"{\"t\": 6, \"bytes\": 20, \"ops\": 1},"
		"{\"t\": 8, \"warmup\": false, \"bytes\": 24, \"ops\": 1},"
		"{\"t\": 10, \"bytes\": 22, \"ops\": 1},"
		"{\"t\": 12, \"bytes\": 26, \"ops\": 1},"
		"{\"t\": 14, \"bytes\": 28, \"ops\": 1}]}", 0, &e);
	struct trend tr;
	assert_non_null(s);
	assert_int_equal(trend_of_series(s, 95, &tr), 1);
	assert_int_equal(tr.n, 5);
	assert_close(tr.slope, 0.9, 1e-12);
	assert_close(tr.p, 0.0373860735, 1e-6);
	assert_true(tr.trending);
	json_t *ev = trend_evidence(&tr);
	assert_close(json_real_value(json_object_get(ev, "slope_Bps_per_s")), 0.9, 1e-12);
	assert_int_equal(json_integer_value(json_object_get(ev, "points")), 5);
	json_decref(ev);
	json_decref(s);
	/* absent or too short: no test; malformed: -1 */
	assert_int_equal(trend_of_series(NULL, 95, &tr), 0);
	s = json_loads("{\"interval_s\": 1, \"points\": [{\"bytes\": 1}, {\"bytes\": 2}]}", 0, &e);
	assert_int_equal(trend_of_series(s, 95, &tr), 0);
	json_decref(s);
	s = json_loads("{\"interval_s\": 1, \"points\": [{\"bytes\": \"x\"}]}", 0, &e);
	assert_int_equal(trend_of_series(s, 95, &tr), -1);
	json_decref(s);
	s = json_loads("{\"interval_s\": 0, \"points\": []}", 0, &e);
	assert_int_equal(trend_of_series(s, 95, &tr), -1);
	json_decref(s);
	s = json_loads("{\"points\": 3}", 0, &e);
	assert_int_equal(trend_of_series(s, 95, &tr), -1);
	json_decref(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(hand_worked),
		cmocka_unit_test(flat_and_exact),
		cmocka_unit_test(too_small_to_matter),
		cmocka_unit_test(refused),
		cmocka_unit_test(from_series),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
