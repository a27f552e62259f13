/* kbench - micro: BYTE's processor tests (Dhrystone, Whetstone, arithmetic,
 * Tower of Hanoi)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The tests that touch no kernel object: each loop is pure computation,
 * and each test checks its result so that a compiler that folded or
 * dropped the work is caught instead of reported as fast.
 *
 * Dhrystone 2 using register variables (byte_dhry2, lps): Dhrystone 2.1
 *   loops, kbench's own code from Weicker's description (dhry.h); the
 *   final state Dhrystone specifies is checked after every sample.
 * Double-Precision Whetstone (byte_whet, MWIPS): the Curnow & Wichmann
 *   modules with their weights in double precision, 10^7 Whetstone
 *   instructions per pass (whet.h); the module results are checked.
 * Arithmetic Test (short|int|long|float|double), Arithoh (byte_arith_*,
 *   byte_arithoh; lps): BYTE arith.c: one loop sums i*i/(i*i-1) for i = 2
 *   to 101 in the type; arithoh is the same loop without the arithmetic
 *   (its overhead).  A start value read from a volatile and the result fed
 *   to a volatile sink keep the compiler from folding the loop.
 * Recursion Test -- Tower of Hanoi (byte_hanoi, lps): one loop moves 10
 *   disks recursively (BYTE hanoi.c); the counts on the pegs are checked.
 */
#include "config.h"
#include "micro/byte/byte_tests.h"
#include "micro/byte/dhry.h"
#include "micro/byte/whet.h"

#include <signal.h>
#include <stdio.h>

/* ---- Dhrystone ---- */

static int dhry_setup(const void *arg, const struct micro_opts *o, void **state, char *err,
		      size_t errlen)
{
	(void)arg, (void)o, (void)state, (void)err, (void)errlen;
	dhry_init();
	return 0;
}

static int dhry_body(void *state, const void *arg, volatile sig_atomic_t *stop, double *amount,
		     char *err, size_t errlen)
{
	(void)state, (void)arg;
	*amount = (double)dhry_run_until(stop);
	return dhry_check(err, errlen);
}

const struct fixed_ops byte_dhry_ops = { dhry_setup, dhry_body, NULL };

/* ---- Whetstone ---- */

static int whet_body(void *state, const void *arg, volatile sig_atomic_t *stop, double *amount,
		     char *err, size_t errlen)
{
	(void)state, (void)arg;
	struct whet_state s;
	whet_init(&s);
	unsigned long n = whet_run_until(&s, stop);
	if (s.cj != 1 || s.ij != 1 || s.ik != 2 || s.il != 3 || s.ar[0] != 3.0 ||
	    s.ar[1] != 2.0 || s.ar[2] != 3.0)
		return ERR("Whetstone check: module results are wrong");
	*amount = (double)n * WHET_MWI_PER_PASS;
	return 0;
}

const struct fixed_ops byte_whet_ops = { NULL, whet_body, NULL };

/* ---- Arithmetic ---- */

static volatile int arith_seed;       /* always 0; the compiler cannot know */
static volatile double arith_sink;

#define ARITH_FN(name, T) \
	__attribute__((noinline)) static double name(int start) \
	{ \
		T x = 0, y = 0, z = 0; \
		for (int i = 2 + start; i <= 101 + start; i++) { \
			x = (T)i; \
			y = (T)(x * x); \
			z = (T)(z + y / (y - 1)); \
		} \
		return (double)x + (double)y + (double)z; \
	}
ARITH_FN(arith_short, short)
ARITH_FN(arith_int, int)
ARITH_FN(arith_long, long)
ARITH_FN(arith_float, float)
ARITH_FN(arith_double, double)

__attribute__((noinline)) static double arith_oh(int start)
{
	int x = 0;
	for (int i = 2 + start; i <= 101 + start; i++) {
		x = i;
		__asm__ volatile("" : : "r"(x));     /* keep the empty loop */
	}
	return x;
}

static double (*const arith_fns[])(int) = {
	arith_oh, arith_short, arith_int, arith_long, arith_float, arith_double,
};

/* the sum each function returns for start 0 */
static double arith_expect(int type)
{
	if (type == 0)
		return 101;
	double z = 0;
	for (int i = 2; i <= 101; i++) {
		double y = (double)i * i;
		switch (type) {
		case 1: case 2: case 3: z += (double)((long)y / ((long)y - 1)); break;
		case 4: z = (double)(float)(z + (float)y / ((float)y - 1)); break;
		default: z += y / (y - 1); break;
		}
	}
	return 101.0 + 101.0 * 101.0 + z;
}

static int arith_body(void *state, const void *arg, volatile sig_atomic_t *stop, double *amount,
		      char *err, size_t errlen)
{
	(void)state;
	const struct byte_arg *a = arg;
	double (*fn)(int) = arith_fns[a->p1];
	unsigned long n = 0;
	double last = 0;
	do {
		last = fn(arith_seed);
		arith_sink = last;
		n++;
	} while (!*stop);
	double want = arith_expect((int)a->p1);
	if (a->p1 == 4 ? (last - want > 1e-3 || want - last > 1e-3) : last != want)
		return ERR("arithmetic check: got %.6f, expected %.6f", last, want);
	*amount = (double)n;
	return 0;
}

const struct fixed_ops byte_arith_ops = { NULL, arith_body, NULL };

/* ---- Recursion (Tower of Hanoi) ---- */

#define HANOI_DISKS 10
static int hanoi_peg[4];

__attribute__((noinline)) static void hanoi_move(int n, int from, int to)
{
	if (n == 1) {
		hanoi_peg[from]--;
		hanoi_peg[to]++;
		return;
	}
	int other = 6 - from - to;
	hanoi_move(n - 1, from, other);
	hanoi_move(1, from, to);
	hanoi_move(n - 1, other, to);
}

static int hanoi_body(void *state, const void *arg, volatile sig_atomic_t *stop, double *amount,
		      char *err, size_t errlen)
{
	(void)state, (void)arg;
	unsigned long n = 0;
	hanoi_peg[1] = HANOI_DISKS;
	hanoi_peg[2] = hanoi_peg[3] = 0;
	do {
		int from = (n & 1) ? 3 : 1, to = 4 - from;
		hanoi_move(HANOI_DISKS, from, to);
		if (hanoi_peg[to] != HANOI_DISKS || hanoi_peg[from] != 0 || hanoi_peg[2] != 0)
			return ERR("Tower of Hanoi check: disks lost");
		n++;
	} while (!*stop);
	*amount = (double)n;
	return 0;
}

const struct fixed_ops byte_hanoi_ops = { NULL, hanoi_body, NULL };
