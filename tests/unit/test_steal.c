/* kbench - unit tests of the steal-time reader (sys/steal.h), other
 * processes' CPU time (sys/cpubusy.h) and the busy caveat's one rule for
 * load, micro and disk documents (result/caveat.c)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The samples are shaped like /proc/stat of Linux 6.x: a "cpu" line of
 * every CPU, "cpuN" lines (CPU 2 offline in the second sample), then the
 * other counters.
 */
#include "config.h"
#include "result/caveat.h"
#include "sys/cpubusy.h"
#include "sys/steal.h"

#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

static const char stat_a[] =
	"cpu  1861167 12101 2260093 1748767 133713 0 117907 28216 0 0\n"
	"cpu0 910265 5941 1083701 971401 51340 0 42651 13174 0 0\n"
	"cpu1 950902 6160 1176392 777365 82373 0 75256 15042 0 0\n"
	"intr 123 4 5\n"
	"ctxt 9876\n"
	"cpufreq 1 2 3\n";

/* 5 s later: cpu0 lost 175 ticks, cpu1 177 */
static const char stat_b[] =
	"cpu  1861169 12101 2260478 1749014 133713 0 117907 28568 0 0\n"
	"cpu0 910266 5941 1083896 971529 51340 0 42651 13349 0 0\n"
	"cpu1 950903 6160 1176581 777485 82373 0 75256 15219 0 0\n"
	"intr 124 4 5\n";

static void parses_per_cpu(void **state)
{
	(void)state;
	struct steal_snap s = { 0 };
	assert_int_equal(steal_parse(&s, stat_a, strlen(stat_a)), 0);
	assert_int_equal(s.ok, 1);
	assert_int_equal(s.ncpu, 2);
	assert_int_equal(s.total, 28216);
	assert_int_equal(s.cpu[0], 13174);
	assert_int_equal(s.cpu[1], 15042);
	steal_free(&s);
	assert_int_equal(s.ok, 0);
	assert_null(s.cpu);
}

static void shares(void **state)
{
	(void)state;
	struct steal_snap a = { 0 }, b = { 0 };
	assert_int_equal(steal_parse(&a, stat_a, strlen(stat_a)), 0);
	assert_int_equal(steal_parse(&b, stat_b, strlen(stat_b)), 0);
	int which = 7;
	/* every CPU: cpu1's 177 ticks of 100 Hz in 5 s is 35.4% */
	assert_float_equal(steal_max_pct(&a, &b, NULL, 0, 5.0, 100, &which), 35.4, 1e-9);
	assert_int_equal(which, 1);
	int c0 = 0;
	assert_float_equal(steal_max_pct(&a, &b, &c0, 1, 5.0, 100, &which), 35.0, 1e-9);
	assert_int_equal(which, 0);
	/* backwards (the readings swapped): not a measurement, not 0 */
	assert_true(isnan(steal_max_pct(&b, &a, NULL, 0, 5.0, 100, &which)));
	assert_int_equal(which, -1);
	assert_true(isnan(steal_max_pct(&b, &a, &c0, 1, 5.0, 100, NULL)));
	/* a CPU neither lists, a bad wall time or tick rate: no figure */
	int c5 = 5, cneg = -1;
	assert_true(isnan(steal_max_pct(&a, &b, &c5, 1, 5.0, 100, &which)));
	assert_int_equal(which, -1);
	assert_true(isnan(steal_max_pct(&a, &b, &cneg, 1, 5.0, 100, NULL)));
	assert_true(isnan(steal_max_pct(&a, &b, NULL, 0, 0.0, 100, NULL)));
	assert_true(isnan(steal_max_pct(&a, &b, NULL, 0, NAN, 100, NULL)));
	assert_true(isnan(steal_max_pct(&a, &b, NULL, 0, 5.0, 0, NULL)));
	struct steal_snap none = { 0 };
	assert_true(isnan(steal_max_pct(&none, &b, NULL, 0, 5.0, 100, NULL)));
	steal_free(&a);
	steal_free(&b);
}

/* A share is of the wall time: never above 100%.  Within one tick of it
 * it is the cut to ticks (100); beyond, the counter did not measure the
 * window (it jumped, or holds steal from before the first reading). */
static void never_above_all(void **state)
{
	(void)state;
	static const char t1[] = "cpu  0 0 0 0 0 0 0 30\ncpu0 0 0 0 0 0 0 0 10\n"
				 "cpu1 0 0 0 0 0 0 0 20\n";
	static const char t2[] = "cpu  0 0 0 0 0 0 0 90\ncpu0 0 0 0 0 0 0 0 12\n"
				 "cpu1 0 0 0 0 0 0 0 22\n";
	static const char t3[] = "cpu  0 0 0 0 0 0 0 90\ncpu0 0 0 0 0 0 0 0 11\n"
				 "cpu1 0 0 0 0 0 0 0 18446744073709551\n";
	struct steal_snap a = { 0 }, b = { 0 }, c = { 0 };
	assert_int_equal(steal_parse(&a, t1, sizeof(t1) - 1), 0);
	assert_int_equal(steal_parse(&b, t2, sizeof(t2) - 1), 0);
	assert_int_equal(steal_parse(&c, t3, sizeof(t3) - 1), 0);
	int which, c0 = 0, c1 = 1;
	/* 2 ticks in 15 ms: 133% read, one tick (66.7%) of it the cut: 100 */
	assert_float_equal(steal_max_pct(&a, &b, NULL, 0, 0.015, 100, &which), 100.0, 0);
	assert_int_equal(which, 0);
	assert_float_equal(steal_max_pct(&a, &b, &c1, 1, 0.015, 100, NULL), 100.0, 0);
	/* 2 ticks in 10 ms: the most 10 ms and a tick hold */
	assert_float_equal(steal_max_pct(&a, &b, NULL, 0, 0.01, 100, NULL), 100.0, 0);
	/* 2 ticks in 9 ms is more than they hold: no figure */
	assert_true(isnan(steal_max_pct(&a, &b, &c0, 1, 0.009, 100, &which)));
	assert_int_equal(which, -1);
	/* cpu1 jumped by 1.8e16 ticks in 1 s: no figure for it, nor for the
	 * largest share of every CPU; cpu0 alone still has its 1% */
	assert_true(isnan(steal_max_pct(&a, &c, &c1, 1, 1.0, 100, NULL)));
	assert_true(isnan(steal_max_pct(&a, &c, NULL, 0, 1.0, 100, NULL)));
	assert_float_equal(steal_max_pct(&a, &c, &c0, 1, 1.0, 100, NULL), 1.0, 1e-9);
	assert_true(isnan(steal_max_pct(&a, &b, NULL, 0, INFINITY, 100, NULL)));
	steal_free(&a);
	steal_free(&b);
	steal_free(&c);
}

static void offline_cpu(void **state)
{
	(void)state;
	static const char t1[] = "cpu  0 0 0 0 0 0 0 30\ncpu0 0 0 0 0 0 0 0 10\n"
				 "cpu3 0 0 0 0 0 0 0 20\n";
	static const char t2[] = "cpu  0 0 0 0 0 0 0 90\ncpu0 0 0 0 0 0 0 0 40\n"
				 "cpu3 0 0 0 0 0 0 0 50\n";
	struct steal_snap a = { 0 }, b = { 0 };
	assert_int_equal(steal_parse(&a, t1, sizeof(t1) - 1), 0);
	assert_int_equal(steal_parse(&b, t2, sizeof(t2) - 1), 0);
	assert_int_equal(a.ncpu, 4);
	assert_true(a.cpu[1] == UINT64_MAX && a.cpu[2] == UINT64_MAX);
	int which;
	/* every CPU both list: 0 and 3, 30 ticks each in 1 s */
	assert_float_equal(steal_max_pct(&a, &b, NULL, 0, 1.0, 100, &which), 30.0, 1e-9);
	assert_int_equal(which, 0);
	int c2 = 2;
	assert_true(isnan(steal_max_pct(&a, &b, &c2, 1, 1.0, 100, NULL)));
	steal_free(&a);
	steal_free(&b);
}

static void refuses(void **state)
{
	(void)state;
	static const char *bad[] = {
		"cpu0 1 2 3 4 5 6 7 8\n",                /* no "cpu" line */
		"cpu  1 2 3 4 5 6 7\n",                  /* 7 numbers: no steal */
		"cpu  1 2 3 4 5 6 7 x\n",
		"cpu  1 2 3 4 5 6 7 99999999999999999999\n",
		"cpu  1 2 3 4 5 6 7 8\ncpu1 1 2 3\n",
		"cpu  1 2 3 4 5 6 7 8\ncpu9999999 1 2 3 4 5 6 7 8\n",
		"",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct steal_snap s = { 0 };
		errno = 0;
		assert_int_equal(steal_parse(&s, bad[i], strlen(bad[i])), -1);
		assert_int_equal(errno, EPROTO);
		assert_int_equal(s.ok, 0);
		assert_null(s.cpu);
	}
	/* the last line without its newline still counts */
	struct steal_snap s = { 0 };
	assert_int_equal(steal_parse(&s, "cpu  1 2 3 4 5 6 7 8", 20), 0);
	assert_int_equal(s.total, 8);
	steal_free(&s);
}

static void takes_a_file(void **state)
{
	(void)state;
	char path[] = "/tmp/kbench-steal-XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	/* bigger than the first read buffer: the reader must grow it */
	size_t len = 0;
	char *big = malloc(200000);
	assert_non_null(big);
	len += (size_t)sprintf(big, "cpu  1 2 3 4 5 6 7 8 9 10\n");
	for (int c = 0; c < 2000; c++)
		len += (size_t)sprintf(big + len, "cpu%d 1 2 3 4 5 6 7 %d 0 0\n", c, c * 3);
	assert_int_equal(write(fd, big, len), (ssize_t)len);
	close(fd);
	struct steal_snap s = { 0 };
	assert_int_equal(steal_take(&s, path), 0);
	assert_int_equal(s.ncpu, 2000);
	assert_int_equal(s.cpu[1999], 5997);
	assert_int_equal(s.total, 8);
	unlink(path);
	errno = 0;
	assert_int_equal(steal_take(&s, path), -1);
	assert_int_equal(errno, ENOENT);
	assert_int_equal(s.ok, 0);
	free(big);
	/* this machine's own file reads */
	if (access("/proc/stat", R_OK) == 0) {
		assert_int_equal(steal_take(&s, NULL), 0);
		assert_true(s.ncpu >= 1);
		steal_free(&s);
	}
}

static void notable(void **state)
{
	(void)state;
	/* 2 ticks of 100 Hz in 1 s: 2%, at least 1% */
	assert_int_equal(steal_notable(2.0, 1.0, 100), 1);
	/* 1 tick in 1 s may be a cut reading: not surely 1% */
	assert_int_equal(steal_notable(1.0, 1.0, 100), 0);
	/* 1 tick in 0.1 s reads 10%, but may be nothing */
	assert_int_equal(steal_notable(10.0, 0.1, 100), 0);
	assert_int_equal(steal_notable(20.0, 0.1, 100), 1);
	assert_int_equal(steal_notable(NAN, 1.0, 100), 0);
	assert_int_equal(steal_notable(50.0, 0.0, 100), 0);
	assert_int_equal(steal_notable(50.0, 1.0, 0), 0);
}

/* Other processes' CPU time: busy = user + nice + system + irq + softirq
 * of the "cpu" line (100 + 5 + 50 + 3 + 2 = 160); a process's own is
 * utime + stime + cutime + cstime (fields 14 to 17: 7 + 3 + 20 + 10 = 40),
 * read after the last ')' so a name holding ") " cannot shift them. */
static void cpubusy(void **state)
{
	(void)state;
	const char stat[] = "cpu  100 5 50 1000 40 3 2 7 0 0\ncpu0 50 2 25 500 20 1 1 3 0 0\n";
	uint64_t busy = 0, own = 0;
	assert_int_equal(cpubusy_parse_stat(stat, sizeof(stat) - 1, &busy), 0);
	assert_int_equal(busy, 160);
	errno = 0;
	assert_int_equal(cpubusy_parse_stat("cpu0 1 2 3\n", 11, &busy), -1);
	assert_int_equal(errno, EPROTO);
	const char pid[] = "42 (a) b) R 1 42 42 0 -1 4194304 10 0 0 0 7 3 20 10 20 0 1 0 5";
	assert_int_equal(cpubusy_parse_pid(pid, &own), 0);
	assert_int_equal(own, 40);
	assert_int_equal(cpubusy_parse_pid("42 (a) R 1", &own), -1);
	/* 2 s at 100 ticks a second: 300 busy ticks, 100 of them the run's:
	 * others took 200 ticks, one CPU's whole time */
	struct cpubusy_snap a = { 1, 1000, 500 }, b = { 1, 1300, 600 };
	assert_true(fabs(cpubusy_other_pct(&a, &b, 2.0, 100) - 100) < 1e-9);
	/* the run's own sampled above the machine's: none, not negative */
	struct cpubusy_snap c = { 1, 1300, 900 };
	assert_true(cpubusy_other_pct(&a, &c, 2.0, 100) == 0);
	struct cpubusy_snap bad = { 0, 0, 0 };
	assert_true(isnan(cpubusy_other_pct(&a, &bad, 2.0, 100)));
	assert_true(isnan(cpubusy_other_pct(&a, &b, 0, 100)));
	/* the rule: 25% once 4 ticks' share is off (4 ticks of 2 s at 100/s
	 * is 2%): 27% is busy, 26.9% is not; NAN never */
	assert_int_equal(cpubusy_notable(27.0, 2.0, 100), 1);
	assert_int_equal(cpubusy_notable(26.9, 2.0, 100), 0);
	assert_int_equal(cpubusy_notable(NAN, 2.0, 100), 0);
}

/* The busy caveats caveat_derive finds in the JSON text doc (100 ticks a
 * second), as "KEY|TEXT|EVIDENCE" lines, evidence keys sorted. */
static char *busy_of(const char *doc)
{
	json_t *d = json_loads(doc, 0, NULL);
	assert_non_null(d);
	json_t *list = caveat_derive(d, 100, CAVEAT_CONF);
	assert_non_null(list);
	char *out = calloc(1, 4096);
	assert_non_null(out);
	size_t i;
	json_t *c;
	json_array_foreach(list, i, c) {
		char *ev = json_dumps(json_object_get(c, "evidence"), JSON_SORT_KEYS | JSON_COMPACT);
		size_t n = strlen(out);
		snprintf(out + n, 4096 - n, "%s|%s|%s\n", json_string_value(json_object_get(c, "key")),
			 json_string_value(json_object_get(c, "text")), ev);
		free(ev);
	}
	json_decref(list);
	json_decref(d);
	return out;
}

/* One rule, every kind: 27% of a CPU over 2 s is busy, 26.9% is not (the
 * 4 ticks' slack of cpubusy_notable); a disk run names its device, test
 * and run; a window of 5 ms never is, whatever the share. */
static void busy_rule(void **state)
{
	(void)state;
	char *s = busy_of("{\"kind\": \"disk\", \"params\": {\"direct\": false}, \"results\": "
			  "[{\"device\": \"/dev/x\", \"cached\": {\"runs\": [{\"other_cpu_pct\": 26.9, "
			  "\"window_s\": 2.0}, {\"other_cpu_pct\": 27.0, \"window_s\": 2.0}]}, "
			  "\"buffered\": {\"runs\": [{\"other_cpu_pct\": 190.0, \"window_s\": 0.005, "
			  "\"cache_flushed\": true, \"first_hole_byte\": null}]}}]}");
	assert_string_equal(s, "busy|/dev/x: -T run 2: other processes took 27% of a CPU's time "
			    "over 2.0 s (/proc/stat less the run's own)|{\"device\":\"/dev/x\","
			    "\"other_cpu_pct\":27.0,\"run\":2,\"seconds\":2.0,\"test\":\"cached\"}\n");
	free(s);
	s = busy_of("{\"kind\": \"disk\", \"results\": [{\"device\": \"/dev/x\", \"buffered\": "
		    "{\"runs\": [{\"other_cpu_pct\": 190.0, \"window_s\": 0.005}, "
		    "{\"other_cpu_pct\": null, \"window_s\": 3.0}]}}]}");
	assert_string_equal(s, "");
	free(s);
	s = busy_of("{\"kind\": \"load\", \"results\": {\"other_cpu_pct\": 27.0, \"measured_s\": 2.0}}");
	assert_string_equal(s, "busy|other processes took 27% of a CPU's time over 2.0 s (/proc/stat "
			    "less the run's own)|{\"other_cpu_pct\":27.0,\"seconds\":2.0}\n");
	free(s);
	s = busy_of("{\"kind\": \"micro\", \"results\": {\"tests\": [{\"name\": \"a\", "
		    "\"other_cpu_pct\": 26.9, \"run_s\": 2.0}, {\"name\": \"b\", \"other_cpu_pct\": "
		    "27.0, \"run_s\": 2.0}]}}");
	assert_string_equal(s, "busy|b: other processes took 27% of a CPU's time over 2.0 s "
			    "(/proc/stat less the run's own)|{\"other_cpu_pct\":27.0,\"seconds\":2.0,"
			    "\"test\":\"b\"}\n");
	free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(parses_per_cpu),
		cmocka_unit_test(shares),
		cmocka_unit_test(never_above_all),
		cmocka_unit_test(offline_cpu),
		cmocka_unit_test(refuses),
		cmocka_unit_test(takes_a_file),
		cmocka_unit_test(notable),
		cmocka_unit_test(cpubusy),
		cmocka_unit_test(busy_rule),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
