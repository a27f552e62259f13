/* kbench - unit tests of the BYTE index: index, geometric mean, samples, report
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Expected figures were worked out by hand or with a calculator from the
 * published formulas (index = result / baseline x 10; final score = the
 * geometric mean of the indexes; UnixBench 5 drops the worst third of the
 * samples and takes the geometric mean of the rest), not by calling the
 * code under test.
 */
#include "config.h"
#include "micro/byte/byteindex.h"
#include "micro/byte/bytereport.h"
#include "micro/test.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

static void assert_close(double got, double want, double eps)
{
	if (!(fabs(got - want) <= eps))
		fail_msg("got %.12g, want %.12g (+- %g)", got, want, eps);
}

static void assert_fmt1(double v, const char *want)
{
	char buf[64];
	snprintf(buf, sizeof buf, "%.1f", v);
	assert_string_equal(buf, want);
}

/* 1170683.8 lps against 116700: 100.3157 -> "100.3"; 3594.2 MWIPS against
 * 55.0: 653.4909 -> "653.5"; 245334.2 lps against 12440: 197.2140. */
static void index_of_one(void **state)
{
	(void)state;
	assert_close(byte_index(1170683.8, 116700), 100.3156640959726, 1e-9);
	assert_fmt1(byte_index(1170683.8, 116700), "100.3");
	assert_fmt1(byte_index(3594.2, 55.0), "653.5");
	assert_fmt1(byte_index(245334.2, 12440), "197.2");
	assert_close(byte_index(116700, 116700), 10.0, 0);
	assert_true(isnan(byte_index(1, 0)));
	assert_true(isnan(byte_index(-1, 10)));
	assert_true(isnan(byte_index(NAN, 10)));
}

/* {2, 8}: sqrt(16) = 4; {1, 3, 9}: cbrt(27) = 3; {10, 1000}: 100 */
static void geometric_mean(void **state)
{
	(void)state;
	const double a[] = { 2, 8 }, b[] = { 1, 3, 9 }, c[] = { 10, 1000 }, d[] = { 5 };
	assert_close(byte_geomean(a, 2), 4, 1e-12);
	assert_close(byte_geomean(b, 3), 3, 1e-12);
	assert_close(byte_geomean(c, 2), 100, 1e-10);
	assert_close(byte_geomean(d, 1), 5, 1e-12);
	const double bad[] = { 1, 0 }, neg[] = { 1, -2 };
	assert_true(isnan(byte_geomean(a, 0)));
	assert_true(isnan(byte_geomean(bad, 2)));
	assert_true(isnan(byte_geomean(neg, 2)));
}

/* 10 samples: the 3 lowest go; (40*50*60*70*80*90*100)^(1/7) = 66.9799...
 * 3 samples: the lowest goes: sqrt(4*16) = 8.  2 samples: none dropped. */
static void combine_samples(void **state)
{
	(void)state;
	const double ten[] = { 70, 10, 100, 40, 20, 90, 30, 60, 80, 50 };
	unsigned kept = 0;
	assert_close(byte_combine_samples(ten, 10, &kept), 66.97990702458466, 1e-9);
	assert_int_equal(kept, 7);
	assert_close(ten[0], 70, 0);          /* input unchanged */
	const double three[] = { 16, 1, 4 };
	assert_close(byte_combine_samples(three, 3, &kept), 8, 1e-12);
	assert_int_equal(kept, 2);
	const double two[] = { 2, 8 };
	assert_close(byte_combine_samples(two, 2, &kept), 4, 1e-12);
	assert_int_equal(kept, 2);
	const double one[] = { 7 };
	assert_close(byte_combine_samples(one, 1, NULL), 7, 1e-12);
	const double bad[] = { 7, NAN, 3 };
	assert_true(isnan(byte_combine_samples(bad, 3, NULL)));
	assert_true(isnan(byte_combine_samples(one, 0, NULL)));
}

static void baselines(void **state)
{
	(void)state;
	assert_int_equal(byte_baseline_valid("byte4"), 0);
	assert_int_equal(byte_baseline_valid("unixbench5"), 0);
	assert_int_equal(byte_baseline_valid("unixbench"), -1);
	assert_int_equal(byte_baseline_valid(NULL), -1);
	assert_close(byte_baseline_value("byte4", "byte_dhry2"), 116700, 0);
	assert_close(byte_baseline_value("byte4", "byte_whet"), 55.0, 0);
	assert_close(byte_baseline_value("byte4", "byte_execl"), 43.0, 0);
	assert_close(byte_baseline_value("byte4", "byte_fcopy_1024"), 3960, 0);
	assert_close(byte_baseline_value("byte4", "byte_fcopy_256"), 1655, 0);
	assert_close(byte_baseline_value("byte4", "byte_fcopy_4096"), 5800, 0);
	assert_close(byte_baseline_value("byte4", "byte_pipe_1cpu"), 12440, 0);
	assert_close(byte_baseline_value("byte4", "byte_context_1cpu"), 4000, 0);
	assert_close(byte_baseline_value("byte4", "byte_spawn"), 126, 0);
	assert_close(byte_baseline_value("byte4", "byte_shell8"), 6.0, 0);
	assert_close(byte_baseline_value("byte4", "byte_syscall"), 15000, 0);
	assert_true(isnan(byte_baseline_value("byte4", "byte_shell1")));
	assert_close(byte_baseline_value("unixbench5", "byte_shell1"), 42.4, 0);
	assert_close(byte_baseline_value("unixbench5", "byte_shell8"), 6.0, 0);
	assert_true(isnan(byte_baseline_value("unixbench5", "byte_shell16")));
	assert_true(isnan(byte_baseline_value("unixbench5", "byte_hanoi")));
	assert_true(isnan(byte_baseline_value("nope", "byte_dhry2")));
}

/* a small set of tests and results to report */
static const struct micro_test t_dhry = { "byte_dhry2", "Dhrystone 2 using register variables",
					  MICRO_BYTE, "lps", true, "", "", NULL, NULL, MICRO_PLACE_NONE };
static const struct micro_test t_pipe = { "byte_pipe_1cpu", "Pipe Throughput", MICRO_BYTE,
					  "lps", true, "", "", NULL, NULL, MICRO_PLACE_ONE };
static const struct micro_test t_hanoi = { "byte_hanoi", "Recursion Test -- Tower of Hanoi",
					   MICRO_BYTE, "lps", true, "", "", NULL, NULL, MICRO_PLACE_NONE };
static const struct micro_test t_shell1 = { "byte_shell1", "Shell Scripts (1 concurrent)",
					    MICRO_BYTE, "lpm", true, "", "", NULL, NULL, MICRO_PLACE_NONE };
static const struct micro_test t_lm = { "byte_pipe_1cpu", "lmbench row named like a byte test",
					MICRO_LMBENCH, "us", false, "", "", NULL, NULL, MICRO_PLACE_NONE };

static struct micro_result res(double v, double lo, double hi, double cov, unsigned n, double s)
{
	struct micro_result r;
	memset(&r, 0, sizeof r);
	r.value = v;
	r.min = lo;
	r.max = hi;
	r.cov_pct = cov;
	r.samples = n;
	r.sample_s = s;
	return r;
}

static char *report(const struct micro_test *const *t, const struct micro_result *r, size_t n,
		    const char *baseline)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	assert_non_null(f);
	byte_report_text(f, t, r, n, baseline);
	fclose(f);
	return buf;
}

/* dhry 1170683.8 (index 100.3157), pipe 245334.2 (197.2140): score
 * sqrt(100.3157 * 197.2140) = 140.653... ; hanoi has no baseline */
static void report_text(void **state)
{
	(void)state;
	const struct micro_test *t[] = { &t_dhry, &t_pipe, &t_hanoi, &t_lm, &t_shell1 };
	struct micro_result r[5];
	r[0] = res(1170683.8, 1000000.0, 1200000.0, 3.25, 7, 10.0);
	r[1] = res(245334.2, 240000.0, 250000.0, 1.0, 7, 10.0);
	r[2] = res(5000.5, 4900.0, 5100.0, 2.0, 2, 20.0);
	r[3] = res(1.5, 1, 2, 0, 11, 0);
	r[4] = res(0, 0, 0, 0, 0, 0);
	snprintf(r[4].skipped, sizeof r[4].skipped, "no /bin/sh");
	char *out = report(t, r, 5, "byte4");
	assert_non_null(strstr(out,
		"Dhrystone 2 using register variables        1170683.8 lps   (10.0 s, 7 samples)"
		"  [min 1000000.0, max 1200000.0 lps, CoV 3.2%]\n"));
	assert_non_null(strstr(out,
		"Pipe Throughput                              245334.2 lps   (10.0 s, 7 samples)"));
	assert_non_null(strstr(out,
		"Recursion Test -- Tower of Hanoi               5000.5 lps   (20.0 s, 2 samples)"));
	assert_null(strstr(out, "lmbench row"));
	assert_non_null(strstr(out, "(lps: loops per second, lpm: loops per minute; "));
	assert_non_null(strstr(out, "Shell Scripts (1 concurrent)"));
	assert_non_null(strstr(out, "no /bin/sh"));
	/* byte4 indexes 11 tests, 2 ran: a partial index */
	assert_non_null(strstr(out,
		"System Benchmarks Partial Index              BASELINE       RESULT    INDEX\n"
		"Dhrystone 2 using register variables         116700.0    1170683.8    100.3\n"
		"Pipe Throughput                               12440.0     245334.2    197.2\n"
		"                                                                   ========\n"
		"System Benchmarks Index Score (Partial Only)                          140.7\n"));
	/* a test without a baseline (Hanoi) has its result line, not an index row */
	assert_non_null(strstr(out, "Recursion Test -- Tower of Hanoi"));
	const char *table = strstr(out, "System Benchmarks Partial Index");
	assert_non_null(table);
	assert_null(strstr(table, "Recursion"));
	free(out);

	/* no byte test: nothing at all; unknown baseline: no table */
	const struct micro_test *only_lm[] = { &t_lm };
	out = report(only_lm, &r[3], 1, "byte4");
	assert_string_equal(out, "");
	free(out);
	out = report(t, r, 5, "nope");
	assert_null(strstr(out, "Index"));
	free(out);
}

/* every test byte4 indexes at exactly 10x the baseline: the full table,
 * index 100.0 each, score 100.0 */
static void report_full(void **state)
{
	(void)state;
	static const char *const names[] = {
		"byte_dhry2", "byte_whet", "byte_execl", "byte_fcopy_1024", "byte_fcopy_256",
		"byte_fcopy_4096", "byte_pipe_1cpu", "byte_context_1cpu", "byte_spawn", "byte_shell8",
		"byte_syscall",
	};
	struct micro_test tt[11];
	const struct micro_test *t[11];
	struct micro_result r[11];
	for (int i = 0; i < 11; i++) {
		tt[i] = t_pipe;
		tt[i].name = names[i];
		tt[i].title = names[i];
		tt[i].unit = strncmp(names[i], "byte_fcopy", 10) ? "lps" : "KBps";
		t[i] = &tt[i];
		double v = 10 * byte_baseline_value("byte4", names[i]);
		r[i] = res(v, v, v, NAN, 2, 30.0);
	}
	char *out = report(t, r, 11, "byte4");
	assert_non_null(strstr(out, "System Benchmarks Index Values               BASELINE"));
	assert_non_null(strstr(out, "byte_shell8                                       6.0         60.0    100.0\n"));
	assert_non_null(strstr(out, "System Benchmarks Index Score                                         100.0\n"));
	assert_null(strstr(out, "Partial"));
	assert_non_null(strstr(out, "[min 60.0, max 60.0 lps]"));
	assert_non_null(strstr(out, "KBps: KB (1024 bytes) per second"));
	free(out);

	json_t *j = byte_index_json(t, r, 11, "byte4");
	assert_non_null(j);
	assert_string_equal(json_string_value(json_object_get(j, "baseline")), "byte4");
	assert_close(json_real_value(json_object_get(j, "final_score")), 100.0, 1e-9);
	assert_true(json_is_false(json_object_get(j, "partial")));
	json_t *tests = json_object_get(j, "tests");
	assert_int_equal(json_array_size(tests), 11);
	json_t *first = json_array_get(tests, 0);
	assert_string_equal(json_string_value(json_object_get(first, "name")), "byte_dhry2");
	assert_close(json_real_value(json_object_get(first, "baseline_value")), 116700, 0);
	assert_close(json_real_value(json_object_get(first, "value")), 1167000, 0);
	assert_close(json_real_value(json_object_get(first, "index")), 100, 1e-9);
	json_decref(j);

	/* unixbench5 also wants Shell Scripts (1 concurrent): partial */
	j = byte_index_json(t, r, 11, "unixbench5");
	assert_non_null(j);
	assert_true(json_is_true(json_object_get(j, "partial")));
	json_decref(j);
}

static void json_none(void **state)
{
	(void)state;
	const struct micro_test *t[] = { &t_hanoi, &t_dhry };
	struct micro_result r[2];
	r[0] = res(5000, 5000, 5000, NAN, 2, 20);
	r[1] = res(0, 0, 0, NAN, 0, 0);
	snprintf(r[1].skipped, sizeof r[1].skipped, "skipped");
	assert_null(byte_index_json(t, r, 2, "unixbench5"));     /* no indexed test ran */
	r[1] = res(116700, 116700, 116700, NAN, 2, 10);
	assert_null(byte_index_json(t, r, 2, "nope"));
	json_t *j = byte_index_json(t, r, 2, "unixbench5");
	assert_non_null(j);
	assert_close(json_real_value(json_object_get(j, "final_score")), 10.0, 1e-12);
	assert_int_equal(json_array_size(json_object_get(j, "tests")), 1);
	json_decref(j);
}

/* uptime(1)'s line, worked out by hand */
static void uptime_line(void **state)
{
	(void)state;
	char buf[160];
	const double load[3] = { 0.1, 2.25, 13.5 };
	byte_uptime_line(buf, sizeof buf, 9, 5, 3, 2 * 86400 + 2 * 3600 + 56 * 60 + 59, 1, load);
	assert_string_equal(buf, " 09:05:03 up 2 days,  2:56,  1 user,  load average: 0.10, 2.25, 13.50");
	byte_uptime_line(buf, sizeof buf, 23, 0, 0, 5 * 60 + 30, 0, load);
	assert_string_equal(buf, " 23:00:00 up 5 min,  0 users,  load average: 0.10, 2.25, 13.50");
	byte_uptime_line(buf, sizeof buf, 0, 0, 0, 86400 + 60, 3, load);
	assert_string_equal(buf, " 00:00:00 up 1 day, 1 min,  3 users,  load average: 0.10, 2.25, 13.50");
}

/* BYTE 4.1's names where they differ from the titles */
static void byte4_names(void **state)
{
	(void)state;
	static const struct micro_test ar = { "byte_arith_short", "Arithmetic Test (short)",
					      MICRO_BYTE, "lps", true, "", "", NULL, NULL,
					      MICRO_PLACE_NONE };
	static const struct micro_test hn = { "byte_hanoi", "Recursion Test -- Tower of Hanoi",
					      MICRO_BYTE, "lps", true, "", "", NULL, NULL,
					      MICRO_PLACE_NONE };
	assert_string_equal(byte4_name(&ar), "Arithmetic Test (type = short)");
	assert_string_equal(byte4_name(&hn), "Recursion Test--Tower of Hanoi");
	assert_string_equal(byte4_name(&t_dhry), "Dhrystone 2 using register variables");
	assert_int_equal(byte_baseline_count("byte4"), 11);
	assert_int_equal(byte_baseline_count("unixbench5"), 12);
	assert_int_equal(byte_baseline_count("nope"), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(uptime_line),
		cmocka_unit_test(byte4_names),
		cmocka_unit_test(index_of_one),
		cmocka_unit_test(geometric_mean),
		cmocka_unit_test(combine_samples),
		cmocka_unit_test(baselines),
		cmocka_unit_test(report_text),
		cmocka_unit_test(report_full),
		cmocka_unit_test(json_none),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
