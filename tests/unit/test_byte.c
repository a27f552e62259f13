/* kbench - unit tests of the BYTE family: Dhrystone, Whetstone, the harness, the tests
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Dhrystone's expected state is the one Dhrystone 2.1 specifies for the
 * end of a run.  Whetstone's expected module values were computed
 * separately from the published formulas (a short script in double
 * precision), not by calling the code under test.  The last test runs
 * every BYTE test in quick mode (3 samples of 0.2 s) and checks for a
 * positive finite figure; speed itself is judged by the bench/ scripts
 * (bench/timing-claims), never here: the harness is checked by the work it
 * counts, which no load on the machine changes.
 */
#include "config.h"
#include "micro/byte/byte.h"
#include "micro/byte/dhry.h"
#include "micro/byte/harness_fixed.h"
#include "micro/test.h"
#include "micro/byte/whet.h"

#include <dirent.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

static void assert_close(double got, double want, double eps)
{
	if (!(fabs(got - want) <= eps))
		fail_msg("got %.15g, want %.15g (+- %g)", got, want, eps);
}

static void dhrystone_state(void **state)
{
	(void)state;
	char err[160] = "";
	dhry_init();
	assert_int_equal(dhry_check(err, sizeof err), -1);      /* nothing run yet */
	assert_non_null(strstr(err, "Dhrystone check"));
	dhry_init();
	assert_int_equal(dhry_run(1000), 1000);
	if (dhry_check(err, sizeof err))
		fail_msg("%s", err);
	/* Arr_2_Glob[8][7] follows the run count: 1000 more gives 2000 + 10 */
	assert_int_equal(dhry_run(1000), 1000);
	if (dhry_check(err, sizeof err))
		fail_msg("%s", err);
	volatile sig_atomic_t stop = 1;
	assert_int_equal(dhry_run_until(&stop), 1);              /* at least one */
	if (dhry_check(err, sizeof err))
		fail_msg("%s", err);
}

static void whetstone_modules(void **state)
{
	(void)state;
	struct whet_state s;
	whet_init(&s);
	double c1 = whet_pass(&s);
	/* conditional jumps: 34500 rounds (even) bring j back to 1 */
	assert_int_equal(s.cj, 1);
	/* integer arithmetic keeps j, k, l = 1, 2, 3 and writes 6 to e1[0..1] */
	assert_int_equal(s.ij, 1);
	assert_int_equal(s.ik, 2);
	assert_int_equal(s.il, 3);
	assert_close(s.ia[0], 6, 0);
	assert_close(s.ia[1], 6, 0);
	/* array elements then array as parameter, from 1, -1, -1, -1 */
	assert_close(s.ia[2], -0.7310697534437446, 1e-12);
	assert_close(s.ia[3], -1.1302710247847498, 1e-12);
	/* trigonometric: x, y shrink by about 2t a round from 0.5 */
	assert_close(s.tx, 0.49902922130459393, 1e-12);
	assert_close(s.ty, 0.4990290697940638, 1e-12);
	/* procedure calls */
	assert_close(s.px, 0.9999995455747537, 1e-12);
	assert_close(s.py, 1.0000002122413025, 1e-12);
	assert_close(s.pz, 0.9999998789080281, 1e-12);
	/* array references: 61600 rounds (even) from 1, 2, 3 end at 3, 2, 3 */
	assert_close(s.ar[0], 3, 0);
	assert_close(s.ar[1], 2, 0);
	assert_close(s.ar[2], 3, 0);
	/* standard functions: x = 0.75^((1/1.0000005)^9300) */
	assert_close(s.sx, 0.7510016301845867, 1e-12);
	/* every pass does the same work: the same values */
	double c2 = whet_pass(&s);
	assert_true(c1 == c2);
	assert_true(isfinite(c1));
	volatile sig_atomic_t stop = 1;
	assert_int_equal(whet_run_until(&s, &stop), 1);
	assert_true(whet_sink == c1);
}

static void durations(void **state)
{
	(void)state;
	struct micro_opts o = { .duration_s = 10 };
	assert_close(fixed_sample_seconds(&o, FIXED_SHORT), 10, 0);
	assert_close(fixed_sample_seconds(&o, FIXED_SHORT3), 10, 0);
	assert_close(fixed_sample_seconds(&o, FIXED_HANOI), 20, 0);
	assert_close(fixed_sample_seconds(&o, FIXED_LONG), 30, 0);
	assert_close(fixed_sample_seconds(&o, FIXED_SHELL), 60, 0);
	assert_int_equal(fixed_sample_count(&o, FIXED_SHORT), 10);
	assert_int_equal(fixed_sample_count(&o, FIXED_LONG), 3);
	assert_int_equal(fixed_sample_count(&o, FIXED_SHELL), 3);
	o.duration_s = 2;
	assert_close(fixed_sample_seconds(&o, FIXED_LONG), 6, 0);
	assert_close(fixed_sample_seconds(&o, FIXED_SHELL), 12, 0);
	o.quick = true;
	assert_close(fixed_sample_seconds(&o, FIXED_SHELL), 0.2, 0);
	assert_int_equal(fixed_sample_count(&o, FIXED_SHORT), 3);
}

/* rates 10..100 (3 lowest dropped, geometric mean 66.9799...), times: the
 * kept samples' times are 4..10, mean 7 */
static void fill_result(void **state)
{
	(void)state;
	const double v[] = { 70, 10, 100, 40, 20, 90, 30, 60, 80, 50 };
	const double t[] = { 7, 1, 10, 4, 2, 9, 3, 6, 8, 5 };
	struct micro_result r;
	memset(&r, 0, sizeof r);
	assert_int_equal(fixed_fill_result(v, t, 10, &r), 0);
	assert_close(r.value, 66.97990702458466, 1e-9);
	assert_int_equal(r.samples, 7);
	assert_close(r.sample_s, 7, 1e-12);
	assert_close(r.min, 10, 0);
	assert_close(r.max, 100, 0);
	/* mean 55, squared deviations 8250, variance 916.67, sd 30.2765 */
	assert_close(r.cov_pct, 55.04818825631803, 1e-9);
	const double one[] = { 5 }, t1[] = { 0.2 };
	assert_int_equal(fixed_fill_result(one, t1, 1, &r), 0);
	assert_close(r.value, 5, 1e-12);
	assert_int_equal(r.samples, 1);
	assert_true(isnan(r.cov_pct));
	const double bad[] = { 5, 0 }, t2[] = { 1, 1 };
	assert_int_equal(fixed_fill_result(bad, t2, 2, &r), -1);
	assert_close(r.value, 5, 1e-12);      /* unchanged */
}

/* A sample's copies combined over their common window, from made-up
 * reports: a copy that starts late, or ends early, does not count as if
 * it had run alone. */
static void copies_window(void **state)
{
	(void)state;
	struct fixed_window w;
	double rate = 7, secs = 7;
	fixed_window_init(&w);
	assert_int_equal(fixed_window_rate(&w, 1, &rate, &secs), -1);
	assert_close(rate, 0, 0);
	assert_close(secs, 0, 0);
	/* 100 loops each in 2 s, the second copy 1 s late: 200 loops over
	 * 3 s, not the 100 a second their own rates would add up to */
	fixed_window_add(&w, 100, 10.0, 2.0);
	fixed_window_add(&w, 100, 11.0, 2.0);
	assert_int_equal(fixed_window_rate(&w, 1, &rate, &secs), 0);
	assert_close(secs, 3, 1e-12);
	assert_close(rate, 200.0 / 3, 1e-9);
	assert_int_equal(fixed_window_rate(&w, 60, &rate, &secs), 0);
	assert_close(rate, 4000, 1e-9);
	/* one that ends early: the window runs to the last end */
	fixed_window_init(&w);
	fixed_window_add(&w, 50, 5.0, 4.0);
	fixed_window_add(&w, 50, 5.0, 1.0);
	assert_int_equal(fixed_window_rate(&w, 1, &rate, &secs), 0);
	assert_close(w.work, 100, 0);
	assert_close(secs, 4, 0);
	assert_close(rate, 25, 1e-12);
	/* started together, run alike: the sum of their rates */
	fixed_window_init(&w);
	for (int i = 0; i < 4; i++)
		fixed_window_add(&w, 30, 2.0, 3.0);
	assert_int_equal(fixed_window_rate(&w, 1, &rate, &secs), 0);
	assert_close(rate, 40, 1e-12);
	/* no time: no rate */
	fixed_window_init(&w);
	fixed_window_add(&w, 10, 1.0, 0);
	assert_int_equal(fixed_window_rate(&w, 1, &rate, &secs), -1);
	assert_close(rate, 0, 0);
}

/* harness behaviour with made-up bodies */

/* The loops count_body ran, in every copy and sample: a page shared with
 * the forked copies, so the work they report can be checked to the loop
 * however many the machine's load let them run. */
static unsigned long *loops_run;

static int count_body(void *st, const void *arg, volatile sig_atomic_t *stop, double *amount,
		      char *err, size_t errlen)
{
	(void)st, (void)arg, (void)err, (void)errlen;
	unsigned long n = 0;
	do {
		usleep(1000);
		n++;
	} while (!*stop);
	__atomic_add_fetch(loops_run, n, __ATOMIC_SEQ_CST);
	*amount = (double)n;
	return 0;
}

/* A fixed amount of work per sample, whatever the machine's load: 100
 * loops, then idle until the stop.  N copies must count N x 100. */
static int fixed_work_body(void *st, const void *arg, volatile sig_atomic_t *stop,
			   double *amount, char *err, size_t errlen)
{
	(void)st, (void)arg, (void)err, (void)errlen;
	while (!*stop)
		usleep(1000);
	*amount = 100;
	return 0;
}

static int fail_body(void *st, const void *arg, volatile sig_atomic_t *stop, double *amount,
		     char *err, size_t errlen)
{
	(void)st, (void)arg, (void)stop;
	*amount = 1;
	snprintf(err, errlen, "made-up failure");
	return -1;
}

static int skip_setup(const void *arg, const struct micro_opts *o, void **st, char *err,
		      size_t errlen)
{
	(void)arg, (void)o, (void)st;
	snprintf(err, errlen, "not here");
	return 1;
}

static int crash_body(void *st, const void *arg, volatile sig_atomic_t *stop, double *amount,
		      char *err, size_t errlen)
{
	(void)st, (void)arg, (void)stop, (void)amount, (void)err, (void)errlen;
	_exit(3);
}

static void harness(void **state)
{
	(void)state;
	struct micro_opts o = { .duration_s = 10, .quick = true, .copies = 1 };
	struct micro_result r;
	/* Only what no load can change is checked: amounts of work, and
	 * bounds that the sleeps and the alarm guarantee.  How fast the
	 * machine is shows in no assertion (bench/timing-claims). */
	loops_run = mmap(NULL, sizeof(*loops_run), PROT_READ | PROT_WRITE,
			 MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	assert_true(loops_run != MAP_FAILED);
	const struct fixed_ops counting = { NULL, count_body, NULL };
	assert_int_equal(fixed_run(&counting, NULL, &o, FIXED_SHORT, 1, &r), 0);
	assert_string_equal(r.skipped, "");
	/* the work counted is exactly the loops the copy ran, at least the
	 * loop each of the 3 samples finishes after its alarm */
	assert_true(*loops_run >= 3);
	assert_close(r.work, (double)*loops_run, 0);
	/* each loop sleeps 1 ms or more: at most 1000 a second */
	assert_true(r.value > 0 && r.value <= 1000);
	assert_int_equal(r.samples, 2);
	assert_true(r.sample_s >= 0.2);        /* an alarm never rings early */
	/* two copies: every loop of both, each counted once */
	*loops_run = 0;
	o.copies = 2;
	assert_int_equal(fixed_run(&counting, NULL, &o, FIXED_SHORT, 1, &r), 0);
	assert_true(*loops_run >= 2 * 3);
	assert_close(r.work, (double)*loops_run, 0);
	o.copies = 1;
	/* a fixed amount per copy and sample: the work counted is exactly
	 * 3 samples x copies x 100, and the window is at least the 0.2 s
	 * sample, so the rate per minute is at most the work over 0.2 s */
	const struct fixed_ops fixed_work = { NULL, fixed_work_body, NULL };
	assert_int_equal(fixed_run(&fixed_work, NULL, &o, FIXED_SHORT, 60, &r), 0);
	assert_close(r.work, 3 * 100, 0);
	assert_true(r.value > 0 && r.value <= 100 * 60 / 0.2);
	o.copies = 2;
	assert_int_equal(fixed_run(&fixed_work, NULL, &o, FIXED_SHORT, 60, &r), 0);
	assert_close(r.work, 3 * 2 * 100, 0);
	assert_true(r.value > 0 && r.value <= 2 * 100 * 60 / 0.2);
	o.copies = 5;
	assert_int_equal(fixed_run(&fixed_work, NULL, &o, FIXED_SHORT, 60, &r), 0);
	assert_close(r.work, 3 * 5 * 100, 0);
	o.copies = 1;

	const struct fixed_ops failing = { NULL, fail_body, NULL };
	assert_int_equal(fixed_run(&failing, NULL, &o, FIXED_SHORT, 1, &r), -1);
	assert_string_equal(r.skipped, "made-up failure");
	assert_true(isnan(r.value));

	const struct fixed_ops skipping = { skip_setup, count_body, NULL };
	*loops_run = 0;
	assert_int_equal(fixed_run(&skipping, NULL, &o, FIXED_SHORT, 1, &r), 0);
	assert_string_equal(r.skipped, "not here");
	assert_true(isnan(r.value));
	assert_int_equal(*loops_run, 0);       /* a skipped test runs nothing */
	assert_close(r.work, 0, 0);

	const struct fixed_ops crashing = { NULL, crash_body, NULL };
	assert_int_equal(fixed_run(&crashing, NULL, &o, FIXED_SHORT, 1, &r), -1);
	assert_string_equal(r.skipped, "a copy ended without a report");
	assert_true(isnan(r.value));
	munmap(loops_run, sizeof(*loops_run));
	loops_run = NULL;
}

static int dir_entries(const char *path)
{
	DIR *d = opendir(path);
	assert_non_null(d);
	int n = 0;
	struct dirent *de;
	while ((de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
			n++;
	closedir(d);
	return n;
}

/* every BYTE test in quick mode: a positive finite figure, nothing left
 * in the temporary directory */
static void every_test_quick(void **state)
{
	(void)state;
	char tmp[] = "/tmp/kbench-byte-XXXXXX";
	assert_non_null(mkdtemp(tmp));
	/* the execl helper of this build (the test program is not kbench) */
	byte_set_execl_program(KBENCH_BUILDDIR "/src/kbench-execl");
	struct micro_opts o = { .duration_s = 10, .quick = true, .copies = 1, .tmpdir = tmp };
	int n = 0;
	for (const struct micro_test *t = micro_byte_tests; t->name; t++, n++) {
		struct micro_result r;
		memset(&r, 0, sizeof r);
		assert_int_equal(t->family, MICRO_BYTE);
		assert_true(strncmp(t->name, "byte_", 5) == 0);
		int rc = t->run(t, &o, &r);
		/* BYTE 4.1's tools may be missing here: then only that reason */
		if (rc == 0 && (!strcmp(t->name, "byte_cc") || !strcmp(t->name, "byte_dc")) &&
		    (!strcmp(r.skipped, "no cc in PATH") || !strcmp(r.skipped, "no dc in PATH"))) {
			printf("# %-40s skipped: %s\n", t->title, r.skipped);
			continue;
		}
		if (rc != 0 || r.skipped[0])
			fail_msg("%s: rc %d: %s", t->name, rc, r.skipped);
		if (!(isfinite(r.value) && r.value > 0))
			fail_msg("%s: figure %g", t->name, r.value);
		assert_int_equal(r.samples, 2);
		assert_true(r.min <= r.value && r.value <= r.max);
		assert_true(r.sample_s >= 0.19);
		printf("# %-40s %14.1f %s\n", t->title, r.value, t->unit);
		assert_int_equal(dir_entries(tmp), 0);
	}
	assert_int_equal(n, 32);
	assert_int_equal(rmdir(tmp), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(dhrystone_state),
		cmocka_unit_test(whetstone_modules),
		cmocka_unit_test(durations),
		cmocka_unit_test(fill_result),
		cmocka_unit_test(copies_window),
		cmocka_unit_test(harness),
		cmocka_unit_test(every_test_quick),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
