/* kbench - unit tests of the change points of a series (stats/changepoint.h)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every expected value is worked by hand in the comment above its test.
 */
#include "config.h"
#include "stats/changepoint.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

static void assert_near(double got, double want, double tol)
{
	if (!(fabs(got - want) <= tol))
		fail_msg("got %.15g, want %.15g", got, want);
}

/* Kernels 0 and 1 run 10..13, kernels 2 and 3 run 20..23: the only
 * candidate splits at 2, and its U test sets 8 runs all below 8 others,
 * the exact p 2 / C(16, 8) = 2 / 12870.  Each half holds two kernels of
 * the same runs: every split there gives U = n1 n2 / 2, no candidate. */
static void one_step(void **state)
{
	(void)state;
	const double lo[] = { 10, 11, 12, 13 }, hi[] = { 20, 21, 22, 23 };
	struct cp_runs k[] = { { lo, 4 }, { lo, 4 }, { hi, 4 }, { hi, 4 } };
	struct cp_cand c[3];
	size_t n = 9;
	assert_int_equal(cp_positions(k, 4), 3);
	assert_int_equal(cp_binseg(k, 4, 0.05, c, &n), 0);
	assert_int_equal(n, 1);
	assert_int_equal(c[0].at, 2);
	assert_int_equal(c[0].from, 1);
	assert_int_equal(c[0].parent, -1);
	assert_near(c[0].p, 2.0 / 12870, 1e-12);
	assert_near(c[0].p_min, 2.0 / 12870, 1e-12);
}

/* Runs all the same: no split has a variance, no candidate. */
static void flat(void **state)
{
	(void)state;
	const double v[] = { 5, 5, 5 };
	struct cp_runs k[] = { { v, 3 }, { v, 3 }, { v, 3 } };
	struct cp_cand c[2];
	size_t n = 9;
	assert_int_equal(cp_binseg(k, 3, 0.05, c, &n), 0);
	assert_int_equal(n, 0);
}

/* A kernel with no runs (kept out) in the middle: the split lands on the
 * next kernel with runs, and "from" names the one before the gap; the
 * positions count only kernels with runs (3 of 4: 2). */
static void kept_out_gap(void **state)
{
	(void)state;
	const double a[] = { 1, 2, 3, 4, 5 }, b[] = { 11, 12, 13, 14, 15 };
	struct cp_runs k[] = { { a, 5 }, { a, 5 }, { NULL, 0 }, { b, 5 } };
	struct cp_cand c[3];
	size_t n = 9;
	assert_int_equal(cp_positions(k, 4), 2);
	assert_int_equal(cp_binseg(k, 4, 0.05, c, &n), 0);
	assert_int_equal(n, 1);
	assert_int_equal(c[0].at, 3);
	assert_int_equal(c[0].from, 1);
}

/* Two steps, 0 | 10 | 0 over 3 x 2 kernels of 6 runs (no ties across
 * levels): binary segmentation finds one, then the other inside a half,
 * that one's parent the first. */
static void two_steps(void **state)
{
	(void)state;
	const double l[] = { 1, 2, 3, 4, 5, 6 }, h[] = { 21, 22, 23, 24, 25, 26 };
	struct cp_runs k[] = { { l, 6 }, { l, 6 }, { h, 6 }, { h, 6 }, { l, 6 }, { l, 6 } };
	struct cp_cand c[5];
	size_t n = 9;
	assert_int_equal(cp_binseg(k, 6, 0.05, c, &n), 0);
	assert_int_equal(n, 2);
	size_t a = c[0].at, b = c[1].at;
	assert_true((a == 2 && b == 4) || (a == 4 && b == 2));
	assert_int_equal(c[1].parent, 0);
}

/* cp_best over a part of the series: kernels 1..4 of 1 | 1 | (none) | 9 | 9
 * split at 3 (the first with runs right of the change), from 1 (the
 * last with runs left of it, across the kept-out 2); a part of one
 * kernel has no split. */
static void best_part(void **state)
{
	(void)state;
	const double lo[] = { 1, 2, 3 }, hi[] = { 9, 10, 11 };
	struct cp_runs k[] = { { hi, 3 }, { lo, 3 }, { NULL, 0 }, { hi, 3 }, { hi, 3 } };
	size_t at = 0, from = 0;
	assert_int_equal(cp_best(k, 1, 5, &at, &from), 1);
	assert_int_equal(at, 3);
	assert_int_equal(from, 1);
	assert_int_equal(cp_best(k, 3, 4, &at, &from), 0);
}

/* cp_accept: a child passes only with its parent.  q = .01 .2 .01, the
 * third a child of the second: only the first is kept. */
static void accept_parent(void **state)
{
	(void)state;
	struct cp_cand c[3] = { { .parent = -1, .q = 0.01 }, { .parent = -1, .q = 0.2 },
				{ .parent = 1, .q = 0.01 } };
	cp_accept(c, 3, 0.05);
	assert_true(c[0].accepted);
	assert_false(c[1].accepted);
	assert_false(c[2].accepted);
}

/* 3 runs against 3: medians 2 and 12, change 100 (12 - 2) / 2 = 500%;
 * no interval: u_shift_ci has no c at these sizes, and the normal one's
 * c = floor(4.5 - 1.96 sqrt(9 x 7 / 12)) = floor(0.009) = 0. */
static void size_small(void **state)
{
	(void)state;
	const double a[] = { 1, 2, 3 }, b[] = { 11, 12, 13 };
	struct cp_runs k[] = { { a, 3 }, { b, 3 } };
	struct cp_size s;
	assert_int_equal(cp_size_of(k, 0, 1, 2, 95, &s), 0);
	assert_near(s.left, 2, 0);
	assert_near(s.right, 12, 0);
	assert_near(s.change_pct, 500, 1e-12);
	assert_true(isnan(s.lo_pct) && isnan(s.hi_pct));
}

/* 25 runs 0..24 against 100..124 (over U_EXACT_MAX: the normal interval).
 * mn = 625, c = floor(312.5 - 1.959964 sqrt(625 x 51 / 12)) = floor(211.49)
 * = 211.  The differences 100 + j - i take 76 + m with count m + 1 up to
 * 100: 210 of them lie at or below 95, so the 211th is 96 and, by
 * symmetry, the 415th 104.  Left median 12: 800% to 866.67%, change
 * 100 (112 - 12) / 12 = 833.33%. */
static void size_normal(void **state)
{
	(void)state;
	double a[25], b[25];
	for (int i = 0; i < 25; i++) {
		a[i] = i;
		b[i] = 100 + i;
	}
	struct cp_runs k[] = { { a, 25 }, { b, 25 } };
	struct cp_size s;
	assert_int_equal(cp_size_of(k, 0, 1, 2, 95, &s), 0);
	assert_int_equal(s.nl, 25);
	assert_int_equal(s.nr, 25);
	assert_near(s.change_pct, 100.0 * 100 / 12, 1e-9);
	assert_near(s.lo_pct, 100.0 * 96 / 12, 1e-9);
	assert_near(s.hi_pct, 100.0 * 104 / 12, 1e-9);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(one_step),
		cmocka_unit_test(flat),
		cmocka_unit_test(kept_out_gap),
		cmocka_unit_test(two_steps),
		cmocka_unit_test(best_part),
		cmocka_unit_test(accept_parent),
		cmocka_unit_test(size_small),
		cmocka_unit_test(size_normal),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
