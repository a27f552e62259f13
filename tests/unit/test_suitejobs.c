/* kbench - unit tests of kbench suite's figures and the Go benchmark lines
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * jobs_record() reads a child's JSON document and files its figure(s)
 * under the right test; the documents here are written by hand in the
 * forms kbench load, kbench disk and kbench micro write (see their
 * report.c and micro.c), so the micro path is checked without a micro
 * command in this tree.
 */
#include "config.h"
#include "suite/jobs.h"
#include "suite/suitefile.h"

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

struct fixture {
	struct suite s;
	char dir[64];
};

static int setup(void **state)
{
	struct fixture *fx = calloc(1, sizeof(*fx));
	if (!fx)
		return -1;
	snprintf(fx->dir, sizeof(fx->dir), "/tmp/kbench-unit-suite.XXXXXX");
	if (!mkdtemp(fx->dir))
		return -1;
	snprintf(fx->s.child_json, sizeof(fx->s.child_json), "%s/run.json", fx->dir);
	fx->s.doc = json_pack("{s:s, s:s, s:i, s:{}, s:[], s:[]}", "kbench_version", "0.1.0",
			      "kind", "suite", "schema", 1, "done", "failures", "tests");
	fx->s.disk = "/dev/sdz";
	*state = fx;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *fx = *state;
	unlink(fx->s.child_json);
	rmdir(fx->dir);
	json_decref(fx->s.doc);
	free(fx);
	return 0;
}

static void child_writes(struct fixture *fx, const char *text)
{
	FILE *f = fopen(fx->s.child_json, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static json_t *test_named(struct fixture *fx, const char *name)
{
	size_t i;
	json_t *t;
	json_array_foreach(json_object_get(fx->s.doc, "tests"), i, t)
		if (!strcmp(json_string_value(json_object_get(t, "name")), name))
			return t;
	return NULL;
}

static double run_value(json_t *t, size_t i)
{
	return json_number_value(json_object_get(json_array_get(json_object_get(t, "runs"), i),
						 "value"));
}

static void load_figure(void **state)
{
	struct fixture *fx = *state;
	struct job j = { .kind = JOB_LOAD, .clients = 5, .name = "load 5" };
	char msg[200];
	child_writes(fx, "{\"kind\": \"load\", \"results\": {\"throughput_MBps\": 123.25, "
		     "\"errors\": 0}}");
	assert_int_equal(jobs_record(&fx->s, &j, "2026-01-01T00:00:00Z", 3.5, msg, sizeof(msg)), 0);
	assert_string_equal(msg, "123.25 MB/s (MB = 10^6 bytes)");
	json_t *t = test_named(fx, "load 5");
	assert_non_null(t);
	assert_string_equal(json_string_value(json_object_get(t, "unit")), "MB/s");
	assert_true(json_is_true(json_object_get(t, "higher_is_better")));
	assert_true(run_value(t, 0) == 123.25);
	json_t *run = json_array_get(json_object_get(t, "runs"), 0);
	assert_true(json_number_value(json_object_get(run, "seconds")) == 3.5);
	assert_string_equal(json_string_value(json_object_get(json_object_get(run, "document"),
							      "kind")), "load");
	/* no figure: nothing recorded */
	child_writes(fx, "{\"kind\": \"load\", \"results\": {\"throughput_MBps\": null}}");
	assert_int_equal(jobs_record(&fx->s, &j, "x", 1, msg, sizeof(msg)), -1);
	assert_string_equal(msg, "its document has no throughput figure");
	child_writes(fx, "{\"kind\": \"load\", \"res");
	assert_int_equal(jobs_record(&fx->s, &j, "x", 1, msg, sizeof(msg)), -1);
	assert_int_equal(json_array_size(json_object_get(t, "runs")), 1);
	/* a memory limit gives a test of its own */
	struct job m = { .kind = JOB_LOAD, .clients = 5, .mem = "32M", .name = "load 5 mem=32M" };
	child_writes(fx, "{\"kind\": \"load\", \"results\": {\"throughput_MBps\": 50}}");
	assert_int_equal(jobs_record(&fx->s, &m, "x", 1, msg, sizeof(msg)), 0);
	t = test_named(fx, "load 5 mem=32M");
	assert_non_null(t);
	assert_string_equal(json_string_value(json_object_get(json_object_get(t, "params"),
							      "mem_limit")), "32M");
	char name[128];
	suitefile_go_name(t, name, sizeof(name));
	assert_string_equal(name, "Load/clients=5/mem=32M");
}

static void disk_figure(void **state)
{
	struct fixture *fx = *state;
	struct job j = { .kind = JOB_DISK_BUFFERED, .name = "disk -t" };
	char msg[200];
	child_writes(fx, "{\"kind\": \"disk\", \"results\": [{\"device\": \"/dev/sdz\", "
		     "\"buffered\": {\"runs\": [{\"MB\": 1800, \"MB_per_s\": 600.5}]}}]}");
	assert_int_equal(jobs_record(&fx->s, &j, "x", 7, msg, sizeof(msg)), 0);
	assert_string_equal(msg, "600.50 MiB/s (MiB = 2^20 bytes)");
	json_t *t = test_named(fx, "disk -t");
	assert_string_equal(json_string_value(json_object_get(t, "unit")), "MiB/s");
	assert_true(run_value(t, 0) == 600.5);
	char name[128];
	suitefile_go_name(t, name, sizeof(name));
	assert_string_equal(name, "Disk/test=buffered");
	/* a -T document does not give a -t figure */
	child_writes(fx, "{\"kind\": \"disk\", \"results\": [{\"cached\": {\"runs\": "
		     "[{\"MB_per_s\": 9000}]}}]}");
	assert_int_equal(jobs_record(&fx->s, &j, "x", 7, msg, sizeof(msg)), -1);
}

/* kbench micro's document: every test its own row, in its own unit; a
 * skipped test gets a row that says why and no figure */
static void micro_figures(void **state)
{
	struct fixture *fx = *state;
	struct job j = { .kind = JOB_MICRO, .name = "micro" };
	char msg[200];
	const char *doc =
		"{\"kind\": \"micro\", \"results\": {\"tests\": ["
		"{\"name\": \"lat_syscall_null\", \"family\": \"lmbench\", \"title\": \"null call\","
		" \"unit\": \"us\", \"value\": 0.125, \"higher_is_better\": false, \"min\": 0.12,"
		" \"max\": 0.13, \"cov_pct\": 2.5, \"samples\": 11},"
		"{\"name\": \"byte_pipe\", \"family\": \"byte\", \"title\": \"Pipe Throughput\","
		" \"unit\": \"lps\", \"value\": 1500000, \"higher_is_better\": true, \"min\": 1,"
		" \"max\": 2, \"cov_pct\": null, \"samples\": 1},"
		"{\"name\": \"lat_tcp\", \"skipped\": \"no loopback interface\"}]}}";
	child_writes(fx, doc);
	assert_int_equal(jobs_record(&fx->s, &j, "x", 20, msg, sizeof(msg)), 0);
	assert_string_equal(msg, "2 micro figures, 1 skipped");
	child_writes(fx, doc);
	assert_int_equal(jobs_record(&fx->s, &j, "x", 20, msg, sizeof(msg)), 0);
	json_t *lat = test_named(fx, "lat_syscall_null"), *pipe = test_named(fx, "byte_pipe");
	json_t *tcp = test_named(fx, "lat_tcp");
	assert_non_null(lat);
	assert_non_null(pipe);
	assert_non_null(tcp);
	assert_string_equal(json_string_value(json_object_get(lat, "unit")), "us");
	assert_false(json_is_true(json_object_get(lat, "higher_is_better")));
	assert_string_equal(json_string_value(json_object_get(pipe, "unit")), "lps");
	assert_true(json_is_true(json_object_get(pipe, "higher_is_better")));
	assert_int_equal(json_array_size(json_object_get(lat, "runs")), 2);
	assert_true(run_value(lat, 1) == 0.125);
	assert_true(run_value(pipe, 0) == 1500000);
	assert_int_equal(json_array_size(json_object_get(tcp, "runs")), 0);
	assert_string_equal(json_string_value(json_object_get(tcp, "skipped")),
			    "no loopback interface");
	/* the Go benchmark lines: a time unit per op, the direction per unit */
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	assert_non_null(f);
	suitefile_benchstat(f, fx->s.doc);
	fclose(f);
	assert_non_null(strstr(buf, "goos: linux\n"));
	assert_non_null(strstr(buf, "Unit us/op better=lower\n"));
	assert_non_null(strstr(buf, "Unit lps better=higher\n"));
	assert_non_null(strstr(buf, "\nBenchmarkMicro/test=lat_syscall_null 1 0.125 us/op\n"
				    "BenchmarkMicro/test=lat_syscall_null 1 0.125 us/op\n"));
	assert_non_null(strstr(buf, "\nBenchmarkMicro/test=byte_pipe 1 1500000 lps\n"));
	assert_null(strstr(buf, "lat_tcp"));
	free(buf);
	/* nothing reported at all is a failure */
	child_writes(fx, "{\"kind\": \"micro\", \"results\": {\"tests\": []}}");
	assert_int_equal(jobs_record(&fx->s, &j, "x", 1, msg, sizeof(msg)), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(load_figure, setup, teardown),
		cmocka_unit_test_setup_teardown(disk_figure, setup, teardown),
		cmocka_unit_test_setup_teardown(micro_figures, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
