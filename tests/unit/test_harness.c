/* kbench - unit tests of the micro harness's arithmetic and lmbench helpers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The expected figures were worked out by hand from the definitions in
 * harness.h and lmbench.h, not by calling the code under test.
 */
#include "config.h"
#include "micro/harness.h"
#include "micro/lmbench/lmbench.h"
#include "micro/place.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>

static void assert_close(double got, double want, double eps)
{
	if (!(fabs(got - want) <= eps))
		fail_msg("got %.12g, want %.12g (+- %g)", got, want, eps);
}

/* 1,000,000 ns for 1000 repetitions, a clock read of 30 ns, 1.5 ns of
 * empty loop per repetition: 1e6 - 30 - 1500 = 998470 ns. */
static void net_subtracts_clock_and_loop(void **state)
{
	(void)state;
	assert_close(harness_net_ns(1e6, 1000, 30, 1.5), 998470, 0);
	assert_close(harness_net_ns(5000, 0, 20, 3), 4980, 0);
	/* overhead as large as the interval: nothing left */
	assert_close(harness_net_ns(100, 10, 50, 5), 0, 0);
	assert_close(harness_net_ns(100, 10, 60, 5), 0, 0);
}

static void next_iters_grows(void **state)
{
	(void)state;
	const double enough = 5e6;
	/* below 1% of enough (49,999 ns), or no time at all: x10 */
	assert_int_equal(harness_next_iters(7, 49999, enough, 1u << 30), 70);
	assert_int_equal(harness_next_iters(7, 0, enough, 1u << 30), 70);
	/* 100 took 1 ms: 100 x 1.25 x 5 = 625 */
	assert_int_equal(harness_next_iters(100, 1e6, enough, 1u << 30), 625);
	/* 1000 took 4.99 ms: 1000 x 1.25 x 5/4.99 = 1252.5 -> 1252 */
	assert_int_equal(harness_next_iters(1000, 4.99e6, enough, 1u << 30), 1252);
	/* 3 took 0.06 ms (1.2%): 3 x 1.25 x 83.33 = 312.5 -> capped at x10 = 30 */
	assert_int_equal(harness_next_iters(3, 6e4, enough, 1u << 30), 30);
	/* at least one more: 1 took 4.9 ms -> 1.2755 -> 2 */
	assert_int_equal(harness_next_iters(1, 4.9e6, enough, 1u << 30), 2);
	/* the cap */
	assert_int_equal(harness_next_iters(500, 1e3, enough, 2000), 2000);
}

static void scale_units(void **state)
{
	(void)state;
	/* 2,000,000 ns for 1000 repetitions of 2 operations: 1000 ns = 1 us each */
	assert_close(harness_scale(HARNESS_US, 2e6, 1000, 2, 0), 1.0, 1e-12);
	/* 1600 ns for 10 repetitions of 16 loads: 10 ns a load */
	assert_close(harness_scale(HARNESS_NS, 1600, 10, 16, 0), 10.0, 1e-12);
	/* 8,000,000 bytes x 5 in 20 ms: 40e6 B / 0.02 s = 2e9 B/s = 2000 MB/s */
	assert_close(harness_scale(HARNESS_MBPS, 2e7, 5, 0, 8e6), 2000.0, 1e-9);
	/* 65536 bytes in 1 us: 65536 MB/s (10^6 bytes) */
	assert_close(harness_scale(HARNESS_MBPS, 1000, 1, 0, 65536), 65536.0, 1e-9);
	/* no figure from nothing */
	assert_true(isnan(harness_scale(HARNESS_US, 0, 10, 1, 0)));
	assert_true(isnan(harness_scale(HARNESS_US, 100, 0, 1, 0)));
	assert_true(isnan(harness_scale(HARNESS_US, 100, 10, 0, 0)));
	assert_true(isnan(harness_scale(HARNESS_MBPS, 100, 10, 1, 0)));
}

/* 2 4 4 4 5 5 7 9 (shuffled): median 4.5, min 2, max 9, mean 5, sample
 * stddev sqrt(32/7) = 2.138089935299395, CoV 42.76179870598791 %. */
static void summarize_fills_result(void **state)
{
	(void)state;
	const double v[] = { 9, 4, 2, 5, 4, 7, 4, 5 };
	struct micro_result r;
	memset(&r, 0, sizeof(r));
	assert_int_equal(harness_summarize(v, 8, &r), 0);
	assert_close(r.value, 4.5, 0);
	assert_close(r.min, 2, 0);
	assert_close(r.max, 9, 0);
	assert_close(r.cov_pct, 42.76179870598791, 1e-8);
	assert_int_equal(r.samples, 8);
	assert_close(r.sample_s, 0, 0);
	/* one sample: no CoV */
	assert_int_equal(harness_summarize(v, 1, &r), 0);
	assert_close(r.value, 9, 0);
	assert_true(isnan(r.cov_pct));
	const double bad[] = { 1, NAN };
	assert_int_equal(harness_summarize(bad, 2, &r), -1);
	assert_int_equal(harness_summarize(v, 0, &r), -1);
}

static void sum_words_exact(void **state)
{
	(void)state;
	uint64_t w[24];
	for (int i = 0; i < 24; i++)
		w[i] = (uint64_t)i + 1;           /* 1..24: 300 */
	assert_int_equal(lm_sum_words(w, sizeof(w)), 300);
	assert_int_equal(lm_sum_words(w, 64), 36);   /* 1..8 */
}

/* lat_mem_rd's chain: 4 elements of 128 bytes, each pointing one stride
 * back, the first to the last; the start is the last. */
static void chain_points_back(void **state)
{
	(void)state;
	char *buf = calloc(1, 512);
	assert_non_null(buf);
	void **start = lm_make_chain(buf, 512, 128);
	assert_ptr_equal(start, buf + 384);
	assert_ptr_equal(*(void **)(buf + 384), buf + 256);
	assert_ptr_equal(*(void **)(buf + 256), buf + 128);
	assert_ptr_equal(*(void **)(buf + 128), buf);
	assert_ptr_equal(*(void **)buf, buf + 384);
	free(buf);
}

/* the random order: one cycle through every element, each once, and not
 * lmbench's stride order; the same seed lays the same chain */
static void random_chain_one_cycle(void **state)
{
	(void)state;
	const size_t n = 1000, stride = 128;
	char *buf = calloc(n, stride), *again = calloc(n, stride);
	unsigned char *seen = calloc(n, 1);
	assert_non_null(buf);
	assert_non_null(again);
	assert_non_null(seen);
	void **start = lm_make_random_chain(buf, n * stride, stride, 42);
	assert_non_null(start);
	void **p = start;
	size_t neighbours = 0;
	for (size_t i = 0; i < n; i++) {
		size_t at = (size_t)((char *)p - buf);
		assert_int_equal(at % stride, 0);
		assert_true(at / stride < n);
		assert_int_equal(seen[at / stride], 0);
		seen[at / stride] = 1;
		void **next = *p;
		if ((char *)next - (char *)p == (ptrdiff_t)stride ||
		    (char *)p - (char *)next == (ptrdiff_t)stride)
			neighbours++;
		p = next;
	}
	assert_ptr_equal(p, start);           /* back after n hops: one cycle */
	assert_true(neighbours < n / 10);     /* a shuffle, not a stride */
	void **s2 = lm_make_random_chain(again, n * stride, stride, 42);
	assert_int_equal((char *)s2 - again, (char *)start - buf);
	for (size_t i = 0; i < n; i++)
		assert_int_equal((char *)*(void **)(again + i * stride) - again,
				 (char *)*(void **)(buf + i * stride) - buf);
	/* one element: it points to itself */
	void **one = lm_make_random_chain(buf, stride, stride, 7);
	assert_ptr_equal(one, buf);
	assert_ptr_equal(*one, buf);
	free(buf);
	free(again);
	free(seen);
}

/* A curve 1.5 ns up to 32 KiB, 5 ns to 256 KiB, 15 ns to 2 MiB, 80 ns
 * beyond: boundaries at 32 KiB, 256 KiB and 2 MiB.  A lone spike is not
 * a level. */
static void levels_from_curve(void **state)
{
	(void)state;
	const size_t K = 1024;
	size_t sz[12];
	const double lat[12] = { 1.5, 1.5, 5, 5.1, 5, 15, 15.2, 15, 80, 81, 80, 80 };
	const size_t at[12] = { 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384, 32768 };
	for (int i = 0; i < 12; i++)
		sz[i] = at[i] * K;
	size_t out[3];
	assert_int_equal(lm_levels_from_curve(sz, lat, 12, out, 3), 3);
	assert_int_equal(out[0], 32 * K);
	assert_int_equal(out[1], 256 * K);
	assert_int_equal(out[2], 2048 * K);
	const double spike[5] = { 2, 2, 9, 2, 2 };
	assert_int_equal(lm_levels_from_curve(sz, spike, 5, out, 3), 0);
	/* max limits the count */
	assert_int_equal(lm_levels_from_curve(sz, lat, 12, out, 1), 1);
}

/* A run() that fails, an after() that then fails too (as removing files
 * that were never made does): after() still runs, the reason reported is
 * run()'s. */
struct failing {
	int afters;
	int run_ok;
};

static int failing_run(void *ctx, uint64_t iters, char *why)
{
	(void)iters;
	if (((struct failing *)ctx)->run_ok)
		return 0;
	snprintf(why, 160, "run: no space");
	return -1;
}

static int failing_after(void *ctx, uint64_t iters, char *why)
{
	(void)iters;
	((struct failing *)ctx)->afters++;
	snprintf(why, 160, "after: nothing to remove");
	return -1;
}

static void run_failure_reason_kept(void **state)
{
	(void)state;
	struct failing f = { 0, 0 };
	struct micro_opts o = { .enough_s = 0.001, .intervals = 3 };
	struct harness_bench b = { .run = failing_run, .after = failing_after, .ctx = &f,
				   .unit = HARNESS_US, .ops_per_iter = 1 };
	struct micro_result r;
	memset(&r, 0, sizeof(r));
	assert_int_equal(harness_run(&o, &b, &r), -1);
	assert_string_equal(r.skipped, "run: no space");
	assert_int_equal(f.afters, 1);
	/* run() fine, after() failing: after()'s reason */
	f.run_ok = 1;
	f.afters = 0;
	memset(&r, 0, sizeof(r));
	assert_int_equal(harness_run(&o, &b, &r), -1);
	assert_string_equal(r.skipped, "after: nothing to remove");
	assert_int_equal(f.afters, 1);
}

/* A placed row's intervals are HARNESS_PLACED_ENOUGH (20) times --enough,
 * at most the longer of 100 ms and --enough */
static void enough_of_placed_rows(void **state)
{
	(void)state;
	struct micro_opts o = { .enough_s = 0.002 };
	assert_close(harness_enough_ns(&o), 2e6, 0);
	o.place_ncpu = 1;
	assert_close(harness_enough_ns(&o), 4e7, 0);
	o.place_ncpu = 2;
	assert_close(harness_enough_ns(&o), 4e7, 0);
	o.enough_s = 0;                       /* the default, 5 ms */
	assert_close(harness_enough_ns(&o), 1e8, 0);
	o.place_ncpu = 0;
	assert_close(harness_enough_ns(&o), 5e6, 0);
	o.place_ncpu = 2;
	o.enough_s = 0.05;                    /* 20 x 50 ms is capped at 100 ms */
	assert_close(harness_enough_ns(&o), 1e8, 0);
	o.enough_s = 2;                       /* --enough 2 s stays 2 s */
	assert_close(harness_enough_ns(&o), 2e9, 0);
	assert_close(harness_placed_enough_s(0.001), 0.02, 1e-12);
	assert_close(harness_placed_enough_s(0.2), 0.2, 0);
}

/* Counting repetitions: a run() that does a fixed amount of work per
 * repetition (a spin of 20 us on the clock), so the count the harness
 * settles on says how long its intervals were: at least 1 ms / 20 us =
 * 50 repetitions unplaced, at least 20 ms / 20 us = 1000 placed. */
static int spin_run(void *ctx, uint64_t iters, char *why)
{
	(void)why;
	for (uint64_t i = 0; i < iters; i++) {
		struct timespec a, b;
		clock_gettime(CLOCK_MONOTONIC, &a);
		do
			clock_gettime(CLOCK_MONOTONIC, &b);
		while ((b.tv_sec - a.tv_sec) * 1000000000L + (b.tv_nsec - a.tv_nsec) < 20000);
	}
	++*(unsigned *)ctx;
	return 0;
}

static void placed_intervals_longer(void **state)
{
	(void)state;
	unsigned runs = 0;
	struct micro_opts o = { .enough_s = 0.001, .intervals = 3 };
	struct harness_bench b = { .run = spin_run, .ctx = &runs, .unit = HARNESS_US,
				   .ops_per_iter = 1 };
	static struct harness_samples s;
	char why[160];
	/* the count grows until an interval lasts --enough (1 ms: about 50
	 * spins of 20 us), and to 20 times that placed (about 1000).  A
	 * preemption during the growth can stop it early, so each count
	 * gets up to 5 tries on a busy machine */
	int ok = 0;
	for (int k = 0; k < 5 && !ok; k++) {
		assert_int_equal(harness_measure(&o, &b, &s, why), 0);
		assert_int_equal(s.n, 3);
		assert_true(s.iters < 1000);  /* a spin is at least 20 us */
		ok = s.iters >= 50;
	}
	assert_true(ok);
	o.place_ncpu = 2;
	ok = 0;
	for (int k = 0; k < 5 && !ok; k++) {
		assert_int_equal(harness_measure(&o, &b, &s, why), 0);
		assert_int_equal(s.n, 3);
		ok = s.iters >= 1000;
	}
	assert_true(ok);
	/* each sample is one repetition's time: at least the spin */
	for (unsigned i = 0; i < s.n; i++)
		assert_true(s.v[i] >= 20);
}

/* CPU lists as the kernel writes them, in the order given */
static void place_lists(void **state)
{
	(void)state;
	int c[8];
	assert_int_equal(place_parse_list("0", c, 8), 1);
	assert_int_equal(c[0], 0);
	assert_int_equal(place_parse_list("3,1-2,7", c, 8), 4);
	assert_int_equal(c[0], 3);
	assert_int_equal(c[1], 1);
	assert_int_equal(c[2], 2);
	assert_int_equal(c[3], 7);
	assert_int_equal(place_parse_list("", c, 8), -1);
	assert_int_equal(place_parse_list("1-", c, 8), -1);
	assert_int_equal(place_parse_list("2-1", c, 8), -1);
	assert_int_equal(place_parse_list("0,0", c, 8), -1);
	assert_int_equal(place_parse_list("0-2,1", c, 8), -1);
	assert_int_equal(place_parse_list("0,", c, 8), -1);
	assert_int_equal(place_parse_list("a", c, 8), -1);
	assert_int_equal(place_parse_list("1024", c, 8), -1);
	assert_int_equal(place_parse_list("0-8", c, 8), -1);   /* more than max */
}

/* The CPUs a test's steal is read over: its placement's, or when it is
 * not placed every CPU of kbench's mask, which it runs on (--cpus only
 * says where placements are chosen from) */
static void place_steal_set(void **state)
{
	(void)state;
	cpu_set_t mask;
	CPU_ZERO(&mask);
	CPU_SET(1, &mask);
	CPU_SET(5, &mask);
	CPU_SET(1023, &mask);
	int c[CPU_SETSIZE], placed[2] = { 5, 1 };
	assert_int_equal(place_steal_cpus(0, placed, &mask, c, CPU_SETSIZE), 3);
	assert_int_equal(c[0], 1);
	assert_int_equal(c[1], 5);
	assert_int_equal(c[2], 1023);
	assert_int_equal(place_steal_cpus(0, placed, &mask, c, 2), 2);
	assert_int_equal(place_steal_cpus(2, placed, &mask, c, CPU_SETSIZE), 2);
	assert_int_equal(c[0], 5);
	assert_int_equal(c[1], 1);
	assert_int_equal(place_steal_cpus(1, placed, &mask, c, CPU_SETSIZE), 1);
	assert_int_equal(c[0], 5);
}

/* two packages of two cores of two threads: CPUs 0-7 numbered as Linux
 * often does (threads of a core far apart) */
static void place_pairs(void **state)
{
	(void)state;
	static struct place_set s;
	static const int pkg[8] = { 0, 0, 1, 1, 0, 0, 1, 1 }, core[8] = { 0, 1, 0, 1, 0, 1, 0, 1 };
	char why[160];
	int cpu[2];
	memset(&s, 0, sizeof(s));
	for (int i = 0; i < 8; i++)
		s.c[s.n++] = (struct place_cpu){ i, pkg[i], core[i] };
	assert_int_equal(place_choose(&s, MICRO_PLACE_ONE, cpu, why, sizeof(why)), 1);
	assert_int_equal(cpu[0], 0);
	assert_int_equal(place_choose(&s, MICRO_PLACE_SMT, cpu, why, sizeof(why)), 1);
	assert_int_equal(cpu[0], 0);
	assert_int_equal(cpu[1], 4);
	assert_int_equal(place_choose(&s, MICRO_PLACE_CORES, cpu, why, sizeof(why)), 1);
	assert_int_equal(cpu[0], 0);
	assert_int_equal(cpu[1], 1);
	/* CPUs 0 and 2 only: two packages, no siblings */
	s.n = 2;
	s.c[1] = (struct place_cpu){ 2, 1, 0 };
	assert_int_equal(place_choose(&s, MICRO_PLACE_CORES, cpu, why, sizeof(why)), 1);
	assert_int_equal(cpu[1], 2);
	assert_int_equal(place_choose(&s, MICRO_PLACE_SMT, cpu, why, sizeof(why)), 0);
	assert_string_equal(why, "no two of CPUs 0,2 are SMT siblings of one core");
	/* the two threads of one core: no two cores */
	s.c[1] = (struct place_cpu){ 4, 0, 0 };
	assert_int_equal(place_choose(&s, MICRO_PLACE_CORES, cpu, why, sizeof(why)), 0);
	assert_string_equal(why, "CPUs 0,4 are all on one core");
	/* unknown topology: every CPU its own core */
	s.c[0] = (struct place_cpu){ 5, -1, -1 };
	s.c[1] = (struct place_cpu){ 6, -1, -1 };
	assert_int_equal(place_choose(&s, MICRO_PLACE_SMT, cpu, why, sizeof(why)), 0);
	assert_int_equal(place_choose(&s, MICRO_PLACE_CORES, cpu, why, sizeof(why)), 1);
	assert_int_equal(cpu[0], 5);
	assert_int_equal(cpu[1], 6);
	/* one CPU */
	s.n = 1;
	assert_int_equal(place_choose(&s, MICRO_PLACE_CORES, cpu, why, sizeof(why)), 0);
	assert_string_equal(why, "two cores needs two CPUs; only CPU 5 is usable");
	assert_int_equal(place_choose(&s, MICRO_PLACE_ONE, cpu, why, sizeof(why)), 1);
	assert_int_equal(cpu[0], 5);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(place_lists),
		cmocka_unit_test(place_steal_set),
		cmocka_unit_test(random_chain_one_cycle),
		cmocka_unit_test(place_pairs),
		cmocka_unit_test(net_subtracts_clock_and_loop),
		cmocka_unit_test(next_iters_grows),
		cmocka_unit_test(scale_units),
		cmocka_unit_test(summarize_fills_result),
		cmocka_unit_test(sum_words_exact),
		cmocka_unit_test(chain_points_back),
		cmocka_unit_test(levels_from_curve),
		cmocka_unit_test(run_failure_reason_kept),
		cmocka_unit_test(enough_of_placed_rows),
		cmocka_unit_test(placed_intervals_longer),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
