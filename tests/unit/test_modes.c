/* kbench - unit tests of the two-cluster rule (the bimodal caveat)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Figures chosen so the rule's outcome and centres follow by hand.
 */
#include "config.h"
#include "stats/modes.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

/* bw_tcp's two states: 1000/1010/990 and 4400/4390; the widest gap is
 * 1010 -> 4390 (3380), each side's range 20 and 10. */
static void two_states(void **state)
{
	(void)state;
	const double v[] = { 4400, 1000, 1010, 4390, 990 };
	struct modes m;
	assert_int_equal(modes_bimodal(v, 5, &m), 1);
	assert_int_equal(m.low_n, 3);
	assert_int_equal(m.high_n, 2);
	assert_true(m.low_center == 1000 && m.high_center == 4395 && m.gap == 3380);
	assert_true(v[0] == 4400);                      /* input not sorted in place */
}

static void one_state(void **state)
{
	(void)state;
	const double even[] = { 100, 101, 102, 103, 104, 105 };
	const double wide[] = { 100, 110, 120, 150, 160, 170 };  /* gap 30, range 20 */
	const double tight[] = { 100.0, 100.1, 103.0, 103.1 };   /* gap 2.9 < 5% */
	const double one_off[] = { 100, 101, 102, 500 };         /* a side of one */
	struct modes m;
	assert_int_equal(modes_bimodal(even, 6, &m), 0);
	assert_int_equal(modes_bimodal(wide, 6, &m), 0);
	assert_int_equal(modes_bimodal(tight, 4, &m), 0);
	assert_int_equal(modes_bimodal(one_off, 4, &m), 0);
	assert_int_equal(modes_bimodal(even, 3, &m), 0);        /* too few */
	const double same[] = { 7, 7, 7, 7 };
	assert_int_equal(modes_bimodal(same, 4, &m), 0);
	const double bad[] = { 1, 2, NAN, 4 };
	assert_int_equal(modes_bimodal(bad, 4, &m), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(two_states),
		cmocka_unit_test(one_state),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
