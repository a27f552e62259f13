/* kbench - unit tests of kbench suite's figures and the Go benchmark lines
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * jobs_record() reads a child's JSON document and files its figure(s)
 * under the right test; the documents here are written by hand in the
 * forms kbench load, kbench disk and kbench micro write (see their
 * report.c and micro.c), so the micro path is checked without a micro
 * command in this tree.  Then what keeps a results file honest: names
 * shown escaped (escape.h), one writer (lock.h), --resume's progress
 * check, figures no unit allows refused, a change against a mean of 0
 * printed "n/a", and the steal compare reads from each run's document.
 */
#include "config.h"
#include "compare/compare.h"
#include "resultsfile/escape.h"
#include "resultsfile/figures.h"
#include "suite/jobs.h"
#include "suite/lock.h"
#include "compare/charts/plot.h"
#include "suite/precheck.h"
#include "suite/progress.h"
#include "resultsfile/suitefile.h"
#include "suite/opts.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
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
	fx->s.cmd = "kbench suite";
	load_opts_init(&fx->s.load, "kbench suite");
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

/* a micro child that exited non-zero: the tests that gave no figure, by
 * name and reason; none for a load job or a document without errors */
static void micro_errors_named(void **state)
{
	struct fixture *fx = *state;
	struct job j = { .kind = JOB_MICRO, .name = "micro" };
	struct job l = { .kind = JOB_LOAD, .clients = 1, .name = "load 1" };
	char msg[200] = "untouched";
	child_writes(fx, "{\"kind\": \"micro\", \"results\": {\"tests\": ["
		     "{\"name\": \"lat_syscall\", \"unit\": \"us\", \"value\": 0.1},"
		     "{\"name\": \"lat_sig_hndl\", \"error\": \"no signal came\"},"
		     "{\"name\": \"lat_mem_l1\", \"error\": \"shorter than the clock\"}]}}");
	assert_int_equal(jobs_micro_errors(&fx->s, &l, msg, sizeof(msg)), -1);
	assert_string_equal(msg, "untouched");
	assert_int_equal(jobs_micro_errors(&fx->s, &j, msg, sizeof(msg)), 0);
	assert_string_equal(msg, "lat_sig_hndl: no signal came; lat_mem_l1: shorter than the clock");
	/* the figure the run did give is still recorded */
	assert_int_equal(jobs_record(&fx->s, &j, "x", 1, msg, sizeof(msg)), 0);
	assert_true(run_value(test_named(fx, "lat_syscall"), 0) == 0.1);
	/* the run says which of its job's runs it is (done: 0 so far, so 1):
	 * compare's lmbench rows put a figure in its own run's row */
	assert_int_equal(json_integer_value(json_object_get(json_array_get(json_object_get(
		test_named(fx, "lat_syscall"), "runs"), 0), "run_no")), 1);
	assert_int_equal(json_array_size(json_object_get(test_named(fx, "lat_sig_hndl"), "runs")), 0);
	child_writes(fx, "{\"kind\": \"micro\", \"results\": {\"tests\": ["
		     "{\"name\": \"lat_syscall\", \"unit\": \"us\", \"value\": 0.1}]}}");
	strcpy(msg, "untouched");
	assert_int_equal(jobs_micro_errors(&fx->s, &j, msg, sizeof(msg)), -1);
	child_writes(fx, "{\"kind\": \"mic");
	assert_int_equal(jobs_micro_errors(&fx->s, &j, msg, sizeof(msg)), -1);
	assert_string_equal(msg, "untouched");
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
	/* under a memory limit: its own row and Go name */
	struct job jm = { .kind = JOB_DISK_BUFFERED, .mem = "32M", .mem_bytes = 32 << 20,
			  .name = "disk -t mem=32M" };
	assert_int_equal(jobs_record(&fx->s, &jm, "x", 7, msg, sizeof(msg)), 0);
	json_t *tm = test_named(fx, "disk -t mem=32M");
	assert_non_null(tm);
	suitefile_go_name(tm, name, sizeof(name));
	assert_string_equal(name, "Disk/test=buffered/mem=32M");
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
	/* under a memory limit: rows of their own, named with it, and Go names */
	struct job jm = { .kind = JOB_MICRO, .mem = "64M", .mem_bytes = 64 << 20,
			  .name = "micro mem=64M" };
	child_writes(fx, doc);
	assert_int_equal(jobs_record(&fx->s, &jm, "x", 20, msg, sizeof(msg)), 0);
	json_t *latm = test_named(fx, "lat_syscall_null mem=64M");
	assert_non_null(latm);
	assert_int_equal(json_array_size(json_object_get(latm, "runs")), 1);
	assert_int_equal(json_array_size(json_object_get(lat, "runs")), 2);
	char name[128];
	suitefile_go_name(latm, name, sizeof(name));
	assert_string_equal(name, "Micro/test=lat_syscall_null/mem=64M");
	/* nothing reported at all is a failure */
	child_writes(fx, "{\"kind\": \"micro\", \"results\": {\"tests\": []}}");
	assert_int_equal(jobs_record(&fx->s, &j, "x", 1, msg, sizeof(msg)), -1);
}

/* ---- escape.h: what a terminal would act on is shown escaped ---- */
static void escapes(void **state)
{
	(void)state;
	char buf[64];
	/* C0, DEL, C1 (U+009B, CSI), a byte that is not UTF-8, a cut sequence */
	assert_string_equal(esc_str(buf, sizeof(buf), "a\x1b[2Jb\x7f\n\t"),
			    "a\\x1b[2Jb\\x7f\\x0a\\x09");
	assert_string_equal(esc_str(buf, sizeof(buf), "c\xc2\x9b" "31m\xc2\x80"),
			    "c\\u009b31m\\u0080");
	assert_string_equal(esc_str(buf, sizeof(buf), "\xff\xfe x \xe2\x82"), "\\xff\\xfe x \\xe2\\x82");
	/* overlong, surrogate, beyond U+10FFFF: not UTF-8 */
	assert_string_equal(esc_str(buf, sizeof(buf), "\xc0\xaf\xed\xa0\x80\xf4\x90\x80\x80"),
			    "\\xc0\\xaf\\xed\\xa0\\x80\\xf4\\x90\\x80\\x80");
	/* kept: printable ASCII with its backslashes, valid UTF-8 (U+00A0 on) */
	assert_string_equal(esc_str(buf, sizeof(buf), "\\clients\\x \xc2\xa0\xc3\xa9\xe2\x82\xac"
				    "\xf0\x9f\x98\x80"), "\\clients\\x \xc2\xa0\xc3\xa9\xe2\x82\xac"
			    "\xf0\x9f\x98\x80");
	assert_int_equal(esc_len("a\x1b\xc2\x9b\xc3\xa9"), 1 + 4 + 6 + 2);
	assert_int_equal(esc_len(NULL), 0);
	/* cut short: whole escapes and characters only, then "..." */
	assert_string_equal(esc_str(buf, 11, "abc\x1b[2J"), "abc\\x1b[2J");
	assert_string_equal(esc_str(buf, 10, "abc\x1b[2J"), "abc...");
	assert_string_equal(esc_str(buf, 12, "abc\x1b[2Jxyz"), "abc\\x1b[...");
	assert_string_equal(esc_str(buf, 8, "ab\xc3\xa9\xc3\xa9\xc3\xa9"), "ab\xc3\xa9...");
	assert_string_equal(esc_str(buf, 3, "\x1b\x1b"), "");
	assert_string_equal(esc_str(buf, 12, "\x1b\x1b"), "\\x1b\\x1b");
	/* padded to a width by what is shown, not by the bytes given */
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);
	assert_non_null(f);
	assert_int_equal(esc_put(f, "\x1b", 6), 4);
	fputc('|', f);
	assert_int_equal(esc_put(f, "long name", 3), 9);
	fclose(f);
	assert_string_equal(out, "\\x1b  |long name");
	free(out);
}

/* ---- lock.h: one writer per results file ---- */
static void results_locked(void **state)
{
	struct fixture *fx = *state;
	char path[128], lpath[140], why[600], want[200];
	struct results_lock a, b;
	snprintf(path, sizeof(path), "%s/r.json", fx->dir);
	snprintf(lpath, sizeof(lpath), "%s.lock", path);
	assert_int_equal(results_lock(path, &a, why, sizeof(why)), 0);
	assert_true(a.fd >= 0);
	FILE *f = fopen(lpath, "r");
	long pid = 0;
	assert_non_null(f);
	assert_int_equal(fscanf(f, "%ld", &pid), 1);
	fclose(f);
	assert_int_equal(pid, (long)getpid());
	/* a second open file (as a second process has) is refused, naming us */
	assert_int_equal(results_lock(path, &b, why, sizeof(why)), -1);
	assert_int_equal(b.fd, -1);
	snprintf(want, sizeof(want), "kbench suite (PID %ld) is writing it (lock %s)",
		 (long)getpid(), lpath);
	assert_string_equal(why, want);
	/* the lock file survives the results file being renamed over */
	f = fopen(path, "w");
	assert_non_null(f);
	fclose(f);
	char tmp[140];
	snprintf(tmp, sizeof(tmp), "%s/r.json.new", fx->dir);
	f = fopen(tmp, "w");
	assert_non_null(f);
	fclose(f);
	assert_int_equal(rename(tmp, path), 0);
	assert_int_equal(results_lock(path, &b, why, sizeof(why)), -1);
	results_unlock(&a);
	assert_int_equal(a.fd, -1);
	assert_int_equal(access(lpath, F_OK), -1);
	results_unlock(&a);    /* twice: nothing */
	/* a lock file whose holder is gone (killed: the kernel let go) */
	f = fopen(lpath, "w");
	assert_non_null(f);
	fprintf(f, "999999999\n");
	fclose(f);
	assert_int_equal(results_lock(path, &b, why, sizeof(why)), 0);
	results_unlock(&b);
	assert_int_equal(access(lpath, F_OK), -1);
	/* a file of that name that is not a lock, or not a file, is kept */
	f = fopen(lpath, "w");
	assert_non_null(f);
	fprintf(f, "notes\n");
	fclose(f);
	assert_int_equal(results_lock(path, &b, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "is not a kbench lock file"));
	assert_int_equal(unlink(lpath), 0);
	assert_int_equal(mkdir(lpath, 0700), 0);
	assert_int_equal(results_lock(path, &b, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "is not a regular file"));
	assert_int_equal(rmdir(lpath), 0);
	assert_int_equal(symlink("r.json", lpath), 0);
	assert_int_equal(results_lock(path, &b, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "it is a symbolic link"));
	assert_int_equal(unlink(lpath), 0);
	unlink(path);
}

/* ---- progress_check: --resume trusts done only when it adds up ---- */
static void add_test(json_t *doc, const char *name, const char *command, size_t runs)
{
	json_t *r = json_array();
	for (size_t i = 0; i < runs; i++)
		json_array_append_new(r, json_pack("{s:f}", "value", 1.0));
	json_array_append_new(json_object_get(doc, "tests"),
			      json_pack("{s:s, s:{s:s}, s:s, s:b, s:o}", "name", name, "params",
					"command", command, "unit", "MB/s", "higher_is_better", 1,
					"runs", r));
}

static void progress_checked(void **state)
{
	struct fixture *fx = *state;
	struct suite *s = &fx->s;
	char why[300];
	const char *names[] = { "load 1", "load 2", "micro" };
	const enum job_kind kinds[] = { JOB_LOAD, JOB_LOAD, JOB_MICRO };
	for (size_t i = 0; i < 3; i++) {
		s->jobs[i].kind = kinds[i];
		snprintf(s->jobs[i].name, sizeof(s->jobs[i].name), "%s", names[i]);
	}
	s->njobs = 3;
	s->runs = 3;
	json_t *done = json_object_get(s->doc, "done");
	add_test(s->doc, "load 1", "load", 3);
	add_test(s->doc, "load 2", "load", 1);
	add_test(s->doc, "lat_x", "micro", 2);
	json_array_append_new(json_object_get(s->doc, "failures"),
			      json_pack("{s:s, s:i}", "test", "load 2", "run", 2));
	json_object_set_new(done, "load 1", json_integer(3));
	json_object_set_new(done, "load 2", json_integer(2));
	json_object_set_new(done, "micro", json_integer(2));
	assert_int_equal(progress_check(s, why, sizeof(why)), 0);
	/* done says 1 of 3 runs made: a resume would make 2 more */
	json_object_set_new(done, "load 1", json_integer(1));
	assert_int_equal(progress_check(s, why, sizeof(why)), -1);
	assert_string_equal(why, "test 'load 1': done counts 1 run, but it holds 3 runs and "
			    "0 failures");
	/* more than --runs */
	json_object_set_new(done, "load 1", json_integer(4));
	assert_int_equal(progress_check(s, why, sizeof(why)), -1);
	assert_string_equal(why, "test 'load 1': done counts 4 runs, more than its --runs 3");
	json_object_set_new(done, "load 1", json_integer(3));
	/* a micro test with more runs than micro ran */
	json_object_set_new(done, "micro", json_integer(1));
	assert_int_equal(progress_check(s, why, sizeof(why)), -1);
	assert_string_equal(why, "test 'lat_x': done counts 1 micro run, but it holds 2 runs");
	json_object_set_new(done, "micro", json_integer(3));
	assert_int_equal(progress_check(s, why, sizeof(why)), 0);
	/* a count that is not one */
	json_object_set_new(done, "load 2", json_string("2"));
	assert_int_equal(progress_check(s, why, sizeof(why)), -1);
	assert_string_equal(why, "test 'load 2': done is not a whole number of runs");
	json_object_set_new(done, "load 2", json_integer(2));
	/* what no job of the command line makes, its name escaped */
	json_object_set_new(done, "disk \x1b[2J", json_integer(1));
	assert_int_equal(progress_check(s, why, sizeof(why)), -1);
	assert_string_equal(why, "done counts runs of 'disk \\x1b[2J', which is not a test of "
			    "its command line");
	json_object_del(done, "disk \x1b[2J");
	add_test(s->doc, "load 7", "load", 0);
	assert_int_equal(progress_check(s, why, sizeof(why)), -1);
	assert_string_equal(why, "test 'load 7' is not a test of its command line");
}

/* ---- suitefile_read: impossible figures are refused, naming the test ---- */
static int read_text(const char *text, char *err, size_t errlen, struct suitefile *sf)
{
	FILE *in = fmemopen((void *)text, strlen(text), "r");
	FILE *errs = fmemopen(err, errlen, "w");
	assert_non_null(in);
	assert_non_null(errs);
	int rc = suitefile_read("kbench compare", "x.json", in, errs, true, sf);
	fclose(in);
	fclose(errs);
	return rc;
}

static void impossible_figures(void **state)
{
	(void)state;
	struct suitefile sf;
	char err[300];
	const char *head = "{\"kbench_version\": \"0.1.0\", \"kind\": \"suite\", \"schema\": 1, "
			   "\"tests\": [{\"name\": ";
	char text[600];
	snprintf(text, sizeof(text), "%s\"load 1\", \"unit\": \"MB/s\", \"higher_is_better\": "
		 "true, \"runs\": [{\"value\": 1}, {\"value\": -2.5}]}]}", head);
	memset(err, 0, sizeof(err));
	assert_int_equal(read_text(text, err, sizeof(err), &sf), 2);
	assert_string_equal(err, "kbench compare: x.json: test 'load 1': run 2 is -2.5 MB/s, and "
			    "a figure in MB/s cannot be negative\n");
	assert_null(sf.doc);
	snprintf(text, sizeof(text), "%s\"lat\\u001b[2J\", \"unit\": \"us\", "
		 "\"higher_is_better\": false, \"runs\": [{\"value\": -1}]}]}", head);
	memset(err, 0, sizeof(err));
	assert_int_equal(read_text(text, err, sizeof(err), &sf), 2);
	assert_string_equal(err, "kbench compare: x.json: test 'lat\\x1b[2J': run 1 is -1 us, and "
			    "a figure in us cannot be negative\n");
	/* a unit that may be negative */
	snprintf(text, sizeof(text), "%s\"score\", \"unit\": \"points\", \"higher_is_better\": "
		 "true, \"runs\": [{\"value\": -1}]}]}", head);
	assert_int_equal(read_text(text, err, sizeof(err), &sf), 0);
	assert_int_equal(sf.nruns, 1);
	assert_true(sf.t[0].v[0] == -1);
	suitefile_free(&sf);
	assert_true(suitefile_unit_nonnegative("MB/s"));
	assert_true(suitefile_unit_nonnegative("MiB/s"));
	assert_true(suitefile_unit_nonnegative("ns/op"));
	assert_true(suitefile_unit_nonnegative("KBps"));
	assert_true(suitefile_unit_nonnegative("lpm"));
	assert_true(suitefile_unit_nonnegative("s"));
	assert_true(suitefile_unit_nonnegative("ops/s"));
	assert_false(suitefile_unit_nonnegative("points"));
	assert_false(suitefile_unit_nonnegative("%"));
	assert_false(suitefile_unit_nonnegative(""));
}

/* ---- compare: a change against a mean of 0 is n/a, everywhere ---- */
static void change_against_zero(void **state)
{
	(void)state;
	struct suitefile f[2];
	char err[300];
	const char *docs[2] = {
		"{\"kbench_version\": \"0.1.0\", \"kind\": \"suite\", \"schema\": 1, \"tests\": "
		"[{\"name\": \"lat_z\", \"unit\": \"us\", \"higher_is_better\": false, \"runs\": "
		"[{\"value\": 0}, {\"value\": 0}, {\"value\": 0}]}, {\"name\": \"lat_y\", \"unit\": "
		"\"us\", \"higher_is_better\": false, \"runs\": [{\"value\": 1}, {\"value\": 2}]}]}",
		"{\"kbench_version\": \"0.1.0\", \"kind\": \"suite\", \"schema\": 1, \"tests\": "
		"[{\"name\": \"lat_z\", \"unit\": \"us\", \"higher_is_better\": false, \"runs\": "
		"[{\"value\": 5}, {\"value\": 5.1}, {\"value\": 4.9}]}, {\"name\": \"lat_y\", "
		"\"unit\": \"us\", \"higher_is_better\": false, \"runs\": [{\"value\": 2}, "
		"{\"value\": 3}]}]}" };
	for (size_t k = 0; k < 2; k++)
		assert_int_equal(read_text(docs[k], err, sizeof(err), &f[k]), 0);
	struct cmp c = { .cmd = "kbench compare", .f = f, .nf = 2, .conf = 95,
			 .method = CMP_WELCH };
	assert_int_equal(cmp_build(&c), 0);
	assert_int_equal(c.nrows, 2);
	assert_true(isnan(c.rows[0].change[1]));
	assert_int_equal(c.rows[0].v[1], T_WORSE);
	char *out = NULL;
	size_t len = 0;
	FILE *o = open_memstream(&out, &len);
	assert_non_null(o);
	cmp_print_lkml(o, &c);
	cmp_print_table(o, &c);
	plot_script(o, &c, "p.svg");
	fclose(o);
	assert_non_null(strstr(out, "lat_z (us, lower is better) || 0 -> 5.00 n/a worse\n"));
	assert_non_null(strstr(out, "     n/a  worse: +5.00 +- "));
	assert_non_null(strstr(out, " (n/a, p=0.00"));
	assert_non_null(strstr(out, "\"lat_z (us, lower is better; B: n/a)\" 0"));
	assert_null(strstr(out, "nan%"));
	assert_null(strstr(out, "inf"));
	char buf[16];
	fig_change(buf, sizeof(buf), 2.025);
	assert_string_equal(buf, "+2.02%");
	fig_change(buf, sizeof(buf), INFINITY);
	assert_string_equal(buf, "n/a");
	free(out);
	cmp_caveats_free(&c);
	free(c.rows);
	suitefile_free(&f[0]);
	suitefile_free(&f[1]);
}

/* --resume of a series with micro under two memory limits: a micro row
 * counts against the micro job of its own limit. */
static void progress_micro_by_limit(void **state)
{
	struct fixture *fx = *state;
	struct suite *s = &fx->s;
	char why[300];
	s->disk = NULL;
	s->micro = 1;
	s->mems[0] = "none";
	s->mems[1] = "64M";
	s->mem_bytes[1] = 64 << 20;
	s->nmems = 2;
	s->runs = 3;
	jobs_build(s);
	assert_int_equal(s->njobs, 2);
	assert_string_equal(s->jobs[1].name, "micro mem=64M");
	json_t *done = json_object_get(s->doc, "done");
	add_test(s->doc, "lat_x mem=64M", "micro", 1);
	json_object_set_new(json_object_get(json_array_get(json_object_get(s->doc, "tests"), 0),
					    "params"), "mem_limit", json_string("64M"));
	json_object_set_new(done, "micro mem=none", json_integer(0));
	json_object_set_new(done, "micro mem=64M", json_integer(1));
	assert_int_equal(progress_check(s, why, sizeof(why)), 0);
	json_object_set_new(done, "micro mem=64M", json_integer(0));
	assert_int_equal(progress_check(s, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "test 'lat_x mem=64M': done counts 0 micro runs"));
}

/* Every row of load's through table (and of the tables it includes), so
 * that a row added to it is tested here with no change. */
static size_t through_rows(const struct poptOption *rows, const struct poptOption **out,
			   size_t n, size_t max)
{
	for (const struct poptOption *r = rows; r->longName || r->shortName || r->arg; r++) {
		if ((r->argInfo & POPT_ARG_MASK) == POPT_ARG_INCLUDE_TABLE)
			n = through_rows(r->arg, out, n, max);
		else if (n < max)
			out[n++] = r;
	}
	return n;
}

/* Set load's string option --name (its row in o's through table, or a
 * backend's table it includes) to value, as popt would. */
static void set_load_opt(struct load_opts *o, const char *name, const char *value)
{
	const struct poptOption *rows[64];
	size_t n = through_rows(o->through, rows, 0, 64);
	for (size_t i = 0; i < n; i++)
		if (!strcmp(rows[i]->longName, name)) {
			*(const char **)rows[i]->arg = value;
			return;
		}
	fail_msg("load has no --%s", name);
}

/* One load job's command line as "a|b|c". */
static void joined(const struct suite *s, const struct job *j, char *line, size_t len)
{
	struct job_args a;
	jobs_args(s, j, &a);
	line[0] = '\0';
	for (size_t i = 0; a.argv[i]; i++)
		snprintf(line + strlen(line), len - strlen(line), "%s%s", i ? "|" : "", a.argv[i]);
}

/* The load child's command line carries every option passed through, as
 * given; --server alone means -B sockio; disk and micro get theirs. */
static void child_command_lines(void **state)
{
	struct fixture *fx = *state;
	struct suite *s = &fx->s;
	struct job_args a;
	s->timelimit = "3";
	s->load.per_proc_arg = "4";
	s->load.target_rate_arg = "2.5";
	s->load.latency_from = "due";
	s->load.sync_open = s->load.fsync_write = 1;
	set_load_opt(&s->load, "server", "10.0.0.1:7003");
	set_load_opt(&s->load, "tcp-options", "TCP_NODELAY SO_SNDBUF=65536");
	s->clients[0] = 8;
	s->nclients = 1;
	s->mems[0] = "64M";
	s->mem_bytes[0] = 64 << 20;
	s->nmems = 1;
	s->micro = 1;
	s->micro_quick = 1;
	s->copies_arg = "2";
	jobs_build(s);
	assert_int_equal(s->njobs, 4);
	assert_string_equal(s->jobs[0].name, "disk -T mem=64M");
	assert_string_equal(s->jobs[2].name, "load 8 mem=64M");
	assert_string_equal(s->jobs[3].name, "micro mem=64M");
	char line[8192];
	joined(s, &s->jobs[2], line, sizeof(line));
	char want[8192];
	snprintf(want, sizeof(want), "load|-q|-t|3|--mem-limit|64M|--clients-per-process|4|"
		 "--sync|--fsync|--target-rate|2.5|--latency-from|due|--backend|sockio|"
		 "--server|10.0.0.1:7003|--tcp-options|TCP_NODELAY SO_SNDBUF=65536|"
		 "--json|%s|8", s->child_json);
	assert_string_equal(line, want);
	/* -B as given, and the nfs and smb options */
	set_load_opt(&s->load, "server", NULL);
	s->load.backend_name = "smb";
	set_load_opt(&s->load, "smb-share", "//srv/share");
	set_load_opt(&s->load, "smb-user", "DOM/u%pw");
	joined(s, &s->jobs[2], line, sizeof(line));
	assert_non_null(strstr(line, "|--backend|smb|--tcp-options|TCP_NODELAY SO_SNDBUF=65536|"
			       "--smb-share|//srv/share|--smb-user|DOM/u%pw|"));
	s->load.backend_name = NULL;
	set_load_opt(&s->load, "smb-share", NULL);
	set_load_opt(&s->load, "smb-user", NULL);
	set_load_opt(&s->load, "tcp-options", NULL);
	/* disk: no memory option (the suite's cgroup holds it); micro: its own */
	jobs_args(s, &s->jobs[0], &a);
	assert_string_equal(a.argv[0], "disk");
	assert_string_equal(a.argv[1], "-T");
	for (size_t i = 0; a.argv[i]; i++)
		assert_null(strstr(a.argv[i], "mem"));
	jobs_args(s, &s->jobs[3], &a);
	assert_string_equal(a.argv[0], "micro");
	assert_string_equal(a.argv[1], "--quick");
	assert_string_equal(a.argv[2], "--copies");
	assert_string_equal(a.argv[3], "2");
}

/* Each option of load's through table, given to suite by its long name,
 * is taken by suite's parser (which declares none of them) and reaches the
 * load child's command line and the record in the results file.  Run
 * with the rows of this kbench's load: a new one is covered by itself. */
static void load_options_pass_through(void **state)
{
	struct fixture *fx = *state;
	struct load_opts probe;
	const struct poptOption *rows[64];
	load_opts_init(&probe, "kbench load");
	size_t n = through_rows(probe.through, rows, 0, 64);
	assert_true(n >= 14);   /* -s -S -F -x -R -B ... when this test was written */
	for (size_t i = 0; i < n; i++) {
		const struct poptOption *r = rows[i];
		unsigned type = r->argInfo & POPT_ARG_MASK;
		char name[64], value[64], json[64];
		assert_non_null(r->longName);
		assert_true(type == POPT_ARG_STRING || type == POPT_ARG_NONE);
		snprintf(name, sizeof(name), "--%s", r->longName);
		snprintf(value, sizeof(value), "v-%s", r->longName);
		const char *argv[] = { "kbench suite", name, type == POPT_ARG_STRING ? value : NULL,
				       NULL };
		struct suite *s = &fx->s;
		json_t *doc = s->doc;
		memset(s, 0, sizeof(*s));
		s->cmd = "kbench suite";
		s->doc = doc;
		snprintf(s->child_json, sizeof(s->child_json), "%s/run.json", fx->dir);
		poptContext ctx;
		assert_int_equal(opts_parse(s, type == POPT_ARG_STRING ? 3 : 2, argv, &ctx), 0);
		s->clients[0] = 1;
		s->nclients = 1;
		jobs_build(s);
		char line[8192], want[200];
		joined(s, &s->jobs[0], line, sizeof(line));
		snprintf(want, sizeof(want), "|%s%s%s|", name, type == POPT_ARG_STRING ? "|" : "",
			 type == POPT_ARG_STRING ? value : "");
		assert_non_null(strstr(line, want));
		/* the results file's record: KEY (KEY_given for a secret) */
		json_t *params = jobs_params_json(s);
		assert_non_null(params);
		snprintf(json, sizeof(json), "%s", r->longName);
		for (char *c = json; *c; c++)
			*c = *c == '-' ? '_' : *c;
		json_t *v = json_object_get(params, json);
		if (!v) {
			strcat(json, "_given");
			v = json_object_get(params, json);
			assert_true(json_is_true(v));
		} else if (type == POPT_ARG_NONE) {
			assert_true(json_is_true(v));
		} else if (strcmp(json, "backend") && strcmp(json, "clients_per_process")) {
			assert_string_equal(json_string_value(v), value);
		}
		json_decref(params);
		opts_free(s);
		poptFreeContext(ctx);
	}
	load_opts_free(&probe);
}

/* A port on 127.0.0.1 that was free a moment ago (now closed). */
static int listener(int *port)
{
	struct sockaddr_in sa = { .sin_family = AF_INET };
	socklen_t l = sizeof(sa);
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	assert_true(fd >= 0);
	assert_int_equal(bind(fd, (struct sockaddr *)&sa, sizeof(sa)), 0);
	assert_int_equal(listen(fd, 4), 0);
	assert_int_equal(getsockname(fd, (struct sockaddr *)&sa, &l), 0);
	*port = ntohs(sa.sin_port);
	return fd;
}

/* load_args_check of "load -B BACKEND OPT VALUE 1": its status, and the
 * server it names in info. */
static int server_of(const char *backend, const char *opt, const char *value,
		     struct load_child_info *info)
{
	const char *argv[] = { "load", "-B", backend, opt, value, "1", NULL };
	return load_args_check("kbench suite", argv, info);
}

/* A network job's server is named by its backend (load_args_check) and
 * reached before the first run: one that listens passes, a closed port
 * refuses the series (status 2). */
static void network_server_checked(void **state)
{
	struct fixture *fx = *state;
	struct suite *s = &fx->s;
	struct load_child_info info;
	char srv[64];
	s->disk = NULL;
	assert_int_equal(server_of("sockio", "--server", "example.org", &info), 0);
	assert_string_equal(info.host, "example.org");
	assert_string_equal(info.port, "7003");
	assert_int_equal(server_of("sockio", "--server", "[::1]:9", &info), 0);
	assert_string_equal(info.host, "::1");
	assert_string_equal(info.port, "9");
	assert_int_equal(server_of("sockio", "--server", "::1", &info), 0);
	assert_string_equal(info.host, "::1");
	assert_string_equal(info.port, "7003");
	assert_int_equal(server_of("sockio", "--server", "host:70000", &info), 2);
	assert_int_equal(server_of("sockio", "--server", ":7003", &info), 2);
	if (!backend_find("nfs")->missing) {
		assert_int_equal(server_of("nfs", "--nfs", "nfs://filer:2050/export?version=3",
					   &info), 0);
		assert_string_equal(info.host, "filer");
		assert_string_equal(info.port, "2050");
		assert_int_equal(server_of("nfs", "--nfs", "nfs://filer/export", &info), 0);
		assert_string_equal(info.port, "2049");
		assert_int_equal(server_of("nfs", "--nfs", "nfs://filer/export?version=3&"
					   "nfsport=20490&mountport=20491", &info), 0);
		assert_string_equal(info.host, "filer");
		assert_string_equal(info.port, "20490");
		assert_int_equal(server_of("nfs", "--nfs", "nfs://filer/export?nfsport=x1", &info),
				 2);
	}
	if (!backend_find("smb")->missing) {
		assert_int_equal(server_of("smb", "--smb-share", "//nas/share", &info), 0);
		assert_string_equal(info.host, "nas");
		assert_string_equal(info.port, "445");
	}
	assert_int_equal(server_of("fileio", "-t", "1", &info), 0);
	assert_string_equal(info.host, "");

	int p, fd = listener(&p);
	snprintf(srv, sizeof(srv), "127.0.0.1:%d", p);
	set_load_opt(&s->load, "server", srv);
	s->clients[0] = 1;
	s->nclients = 1;
	jobs_build(s);
	assert_int_equal(precheck_jobs(s), 0);
	close(fd);
	/* the same port, closed: refused before anything runs */
	assert_int_equal(precheck_jobs(s), 2);
	set_load_opt(&s->load, "server", NULL);
}

/* --by mem: one file split into one per value, in mem_limits' order, the
 * names without the dimension. */
static void split_by_mem(void **state)
{
	(void)state;
	char err[300];
	struct suitefile f, parts[CMP_MAX_FILES];
	size_t n, left;
	const char *doc = "{\"kbench_version\": \"0.1.0\", \"kind\": \"suite\", \"schema\": 1, "
		"\"params\": {\"mem_limits\": [\"none\", \"32M\"]}, \"tests\": ["
		"{\"name\": \"load 5 mem=32M\", \"unit\": \"MB/s\", \"higher_is_better\": true, "
		"\"runs\": [{\"value\": 1}, {\"value\": 2}]}, "
		"{\"name\": \"load 5 mem=none\", \"unit\": \"MB/s\", \"higher_is_better\": true, "
		"\"runs\": [{\"value\": 3}]}, "
		"{\"name\": \"lat_x\", \"unit\": \"us\", \"higher_is_better\": false, "
		"\"runs\": [{\"value\": 3}]}]}";
	assert_int_equal(read_text(doc, err, sizeof(err), &f), 0);
	assert_int_equal(cmp_split_by(&f, "mem", parts, CMP_MAX_FILES, &n, &left), 0);
	assert_int_equal(n, 2);
	assert_int_equal(left, 1);
	assert_int_equal(parts[0].nt, 1);
	assert_string_equal(parts[0].t[0].name, "load 5");
	assert_int_equal(parts[0].t[0].n, 1);
	assert_true(parts[0].t[0].v[0] == 3);
	assert_string_equal(parts[1].t[0].name, "load 5");
	assert_int_equal(parts[1].t[0].n, 2);
	assert_non_null(strstr(parts[1].path, " mem=32M"));
	for (size_t k = 0; k < n; k++)
		suitefile_free(&parts[k]);
	suitefile_free(&f);
}

/* The chart: every run a point, a failed run a mark, and a y range that
 * holds every bar and interval (Welch), so none is clipped. */
static void plot_points(void **state)
{
	(void)state;
	char err[300];
	struct suitefile f[2];
	const char *docs[2] = {
		"{\"kbench_version\": \"0.1.0\", \"kind\": \"suite\", \"schema\": 1, \"tests\": "
		"[{\"name\": \"lat_y\", \"unit\": \"us\", \"higher_is_better\": false, \"runs\": "
		"[{\"value\": 10}, {\"value\": 11}, {\"value\": 12}]}, "
		"{\"name\": \"load 2\", \"params\": {\"command\": \"load\", \"clients\": 2}, "
		"\"unit\": \"MB/s\", \"higher_is_better\": true, \"runs\": [{\"value\": 50}, "
		"{\"value\": 52}, {\"value\": 54}]}]}",
		"{\"kbench_version\": \"0.1.0\", \"kind\": \"suite\", \"schema\": 1, "
		"\"failures\": [{\"test\": \"lat_y\", \"run\": 4}, {\"test\": \"load 2\", "
		"\"run\": 3}], \"tests\": "
		"[{\"name\": \"lat_y\", \"unit\": \"us\", \"higher_is_better\": false, \"runs\": "
		"[{\"value\": 13}, {\"value\": 15}, {\"value\": 20}]}, "
		"{\"name\": \"load 2\", \"params\": {\"command\": \"load\", \"clients\": 2}, "
		"\"unit\": \"MB/s\", \"higher_is_better\": true, \"runs\": [{\"value\": 60}, "
		"{\"value\": 61}]}]}" };
	for (size_t k = 0; k < 2; k++)
		assert_int_equal(read_text(docs[k], err, sizeof(err), &f[k]), 0);
	struct cmp c = { .cmd = "kbench compare", .f = f, .nf = 2, .conf = 95,
			 .method = CMP_WELCH };
	assert_int_equal(cmp_build(&c), 0);
	char *out = NULL;
	size_t len = 0;
	FILE *o = open_memstream(&out, &len);
	assert_non_null(o);
	plot_script(o, &c, "p.svg");
	fclose(o);
	/* lat_y of B: its three runs in percent of A's mean (11), turned
	 * (a latency that grew is drawn to the left, worse), at B's slot of
	 * the first row (0.2), and its failure; the last column 1 marks a run
	 * with a caveat (none here) */
	assert_non_null(strstr(out, "\n-18.18181818 0.2 \"\" 0 0\n"));
	assert_non_null(strstr(out, "\n-36.36363636 0.2 \"\" 0 0\n"));
	assert_non_null(strstr(out, "\n-81.81818182 0.2 \"\" 0 0\n"));
	assert_non_null(strstr(out, " 0.2 \"failed\" 2 0\n"));
	/* its bar: from the turned change to 0 (x mid, y, x from, x to) */
	char bar[120];
	snprintf(bar, sizeof(bar), "\n%.10g 0.2 %.10g 0 ", -c.rows[0].d[1].pct / 2,
		 -c.rows[0].d[1].pct);
	assert_non_null(strstr(out, bar));
	/* load 2: every run, and the failed one at 0 */
	assert_non_null(strstr(out, " 61 run 0\n"));
	assert_non_null(strstr(out, " 0 failed 0\n"));
	assert_non_null(strstr(out, "title 'failed run (no figure)'"));
	/* the x range of the change chart holds the bar and its interval,
	 * turned, and the runs */
	const struct cmp_row *r = &c.rows[0];
	double lo, hi;
	assert_true(r->d[1].pct > 0);
	const char *xr = strstr(strstr(out, "change of the mean"), "set xrange [");
	assert_non_null(xr);
	assert_int_equal(sscanf(xr, "set xrange [%lf:%lf]", &lo, &hi), 2);
	assert_true(lo <= -r->d[1].pct - r->d[1].pct_half);
	assert_true(hi >= -r->d[1].pct + r->d[1].pct_half);
	assert_true(lo <= -81.8);
	/* one colour a file: A's and B's in both charts */
	assert_non_null(strstr(strstr(out, "$L0_0 using"), "lc rgb '#0072b2'"));
	assert_non_null(strstr(strstr(out, "$L1_0 using"), "lc rgb '#d55e00'"));
	assert_non_null(strstr(strstr(out, "$B1 using"), "lc rgb '#d55e00'"));
	free(out);
	cmp_caveats_free(&c);
	free(c.rows);
	suitefile_free(&f[0]);
	suitefile_free(&f[1]);
}

/* ---- compare: the steal of each file's runs (sys/steal.h's rule) ---- */
static void steal_of_runs(void **state)
{
	(void)state;
	char err[300];
	struct suitefile f[2];
	/* load 1: 1.5% of 2 s is surely 1% (a tick is 0.5% of it), 1.49%
	 * not; lat_x mem=32M: its document's lat_x lost 3% of 1 s (lat_y's 50%
	 * is another test's); a disk document's key is not read */
	const char *docs[2] = {
		"{\"kbench_version\": \"0.1.0\", \"kind\": \"suite\", \"schema\": 1, \"tests\": "
		"[{\"name\": \"load 1\", \"unit\": \"MB/s\", \"higher_is_better\": true, \"runs\": "
		"[{\"value\": 1, \"document\": {\"kind\": \"load\", \"results\": {\"steal_pct\": "
		"1.49, \"measured_s\": 2}}}, {\"value\": 2, \"document\": {\"kind\": \"load\", "
		"\"results\": {\"steal_pct\": 1.5, \"measured_s\": 2}}}]}, "
		"{\"name\": \"disk -T\", \"unit\": \"MiB/s\", \"higher_is_better\": true, \"runs\": "
		"[{\"value\": 1, \"document\": {\"kind\": \"disk\", \"results\": {\"steal_pct\": "
		"90, \"measured_s\": 60}}}]}]}",
		"{\"kbench_version\": \"0.1.0\", \"kind\": \"suite\", \"schema\": 1, \"tests\": "
		"[{\"name\": \"load 1\", \"unit\": \"MB/s\", \"higher_is_better\": true, \"runs\": "
		"[{\"value\": 1, \"document\": {\"kind\": \"load\", \"results\": {\"steal_pct\": "
		"1.5, \"measured_s\": 2}}}]}, {\"name\": \"lat_x mem=32M\", \"params\": "
		"{\"command\": \"micro\", \"mem_limit\": \"32M\"}, \"unit\": \"us\", "
		"\"higher_is_better\": false, \"runs\": [{\"value\": 1, \"document\": "
		"{\"kind\": \"micro\", \"results\": {\"tests\": [{\"name\": \"lat_y\", "
		"\"steal_pct\": 50, \"run_s\": 1}, {\"name\": \"lat_x\", \"steal_pct\": 0, "
		"\"run_s\": 1}]}}}, {\"value\": 2, \"document\": {\"kind\": \"micro\", \"results\": "
		"{\"tests\": [{\"name\": \"lat_y\", \"steal_pct\": 50, \"run_s\": 1}, "
		"{\"name\": \"lat_x\", \"steal_pct\": 3, \"run_s\": 1}]}}}]}]}" };
	for (size_t k = 0; k < 2; k++)
		assert_int_equal(read_text(docs[k], err, sizeof(err), &f[k]), 0);
	struct cmp_steal st;
	cmp_steal_of(&f[0], 100, &st);
	assert_true(st.notable);
	assert_true(st.pct == 1.5 && st.wall_s == 2);
	assert_int_equal(st.run, 2);
	assert_string_equal(st.test, "load 1");
	cmp_steal_of(&f[0], 0, &st);
	assert_false(st.notable);
	cmp_steal_of(&f[1], 100, &st);
	assert_true(st.notable && st.pct == 3 && st.wall_s == 1);
	assert_int_equal(st.run, 2);
	assert_string_equal(st.test, "lat_x mem=32M");
	struct cmp c = { .cmd = "kbench compare", .f = f, .nf = 2, .conf = 95,
			 .ticks_per_s = 100 };
	assert_int_equal(cmp_build(&c), 0);
	char *out = NULL;
	size_t len = 0;
	FILE *o = open_memstream(&out, &len);
	assert_non_null(o);
	cmp_print_steal(o, &c);
	fclose(o);
	assert_string_equal(out, "\nsteal: x.json: the hypervisor took up to 1.5% of a CPU's time "
			    "in run 2 of load 1 (steal in /proc/stat): its figures are not a quiet "
			    "machine's\nsteal: x.json: the hypervisor took up to 3.0% of a CPU's time "
			    "in run 2 of lat_x mem=32M (steal in /proc/stat): its figures are not a "
			    "quiet machine's\n");
	free(out);
	cmp_caveats_free(&c);
	free(c.rows);
	suitefile_free(&f[0]);
	suitefile_free(&f[1]);
}

/* What a run's document records of its steal: a figure, none, or a
 * refusal of what no measurement gives */
static void run_steal_read(void **state)
{
	(void)state;
	json_error_t jerr;
	json_t *row = json_loads("{\"name\": \"lat_x mem=32M\", \"params\": {\"mem_limit\": "
				 "\"32M\"}}", 0, &jerr);
	json_t *plain = json_loads("{\"name\": \"lat_x\"}", 0, &jerr);
	assert_non_null(row);
	assert_non_null(plain);
	static const struct {
		const char *doc;
		int rc;
		double pct, wall_s;
	} cases[] = {
		{ "{\"kind\": \"load\", \"results\": {\"steal_pct\": 12.5, \"measured_s\": 60}}", 1,
		  12.5, 60 },
		{ "{\"kind\": \"load\", \"results\": {\"steal_pct\": 100, \"measured_s\": 0}}", 1,
		  100, 0 },
		{ "{\"kind\": \"load\", \"results\": {\"steal_pct\": null, \"measured_s\": 60}}", 0, 0, 0 },
		{ "{\"kind\": \"load\", \"results\": {\"steal_pct\": 5}}", 0, 0, 0 },
		{ "{\"kind\": \"load\", \"results\": {\"steal_pct\": 5, \"measured_s\": null}}", 0, 0, 0 },
		{ "{\"kind\": \"load\", \"results\": 7}", 0, 0, 0 },
		{ "{\"kind\": \"disk\", \"results\": {\"steal_pct\": \"x\", \"measured_s\": 1}}", 0, 0, 0 },
		{ "{\"kind\": \"load\", \"results\": {\"steal_pct\": \"5\", \"measured_s\": 60}}", -1, 0, 0 },
		{ "{\"kind\": \"load\", \"results\": {\"steal_pct\": -1e-9, \"measured_s\": 60}}", -1, 0, 0 },
		{ "{\"kind\": \"load\", \"results\": {\"steal_pct\": 100.5, \"measured_s\": 60}}", -1, 0, 0 },
		{ "{\"kind\": \"load\", \"results\": {\"steal_pct\": 5, \"measured_s\": -2}}", -1, 0, 0 },
		{ "{\"kind\": \"load\", \"results\": {\"steal_pct\": 5, \"measured_s\": \"1\"}}", -1, 0, 0 },
		/* micro: the row's test, by its name less " mem=32M" */
		{ "{\"kind\": \"micro\", \"results\": {\"tests\": [{\"name\": \"lat_y\", "
		  "\"steal_pct\": 150, \"run_s\": 1}, {\"name\": \"lat_x\", \"steal_pct\": 3, "
		  "\"run_s\": 2}]}}", 1, 3, 2 },
		{ "{\"kind\": \"micro\", \"results\": {\"tests\": [{\"name\": \"lat_y\", "
		  "\"steal_pct\": 3, \"run_s\": 1}]}}", 0, 0, 0 },
		{ "{\"kind\": \"micro\", \"results\": {\"tests\": [{\"name\": \"lat_x\", "
		  "\"steal_pct\": 300, \"run_s\": 1}]}}", -1, 0, 0 },
		{ "{\"kind\": \"micro\", \"results\": {\"tests\": [{\"name\": \"lat_x\", "
		  "\"steal_pct\": 3, \"run_s\": {}}]}}", -1, 0, 0 },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		json_t *doc = json_loads(cases[i].doc, 0, &jerr);
		assert_non_null(doc);
		double pct = -7, wall_s = -7;
		char why[200] = "";
		int rc = suitefile_run_steal(doc, row, &pct, &wall_s, why, sizeof(why));
		if (rc != cases[i].rc)
			fail_msg("case %zu: %d, not %d (%s)", i, rc, cases[i].rc, why);
		if (rc == 1)
			assert_true(pct == cases[i].pct && wall_s == cases[i].wall_s);
		else
			assert_true(pct == -7 && wall_s == -7);
		assert_true((rc < 0) == (why[0] != 0));
		json_decref(doc);
	}
	/* a row without the limit is the document's test of its own name */
	json_t *doc = json_loads("{\"kind\": \"micro\", \"results\": {\"tests\": [{\"name\": "
				 "\"lat_x\", \"steal_pct\": 4, \"run_s\": 1}]}}", 0, &jerr);
	double pct, wall_s;
	assert_int_equal(suitefile_run_steal(doc, plain, &pct, &wall_s, NULL, 0), 1);
	assert_true(pct == 4);
	assert_int_equal(suitefile_run_steal(NULL, plain, &pct, &wall_s, NULL, 0), 0);
	json_decref(doc);
	json_decref(row);
	json_decref(plain);
}

/* After run 1 of a job failed, run 2's figure is run 2's: in the table's
 * run2 column (run1 a "-"), and the caveats name run 2 and 3, never 1 */
static void table_by_run_number(void **state)
{
	(void)state;
	json_error_t err;
	json_t *doc = json_loads("{\"tests\": [{\"name\": \"load 1\", \"params\": {}, "
		"\"unit\": \"MB/s\", \"higher_is_better\": true, \"runs\": ["
		"{\"value\": 5.5, \"run_no\": 2, \"document\": {\"kind\": \"load\", \"system\": {\"kernel\": \"a\"}, "
		"\"results\": {\"errors\": 3}}},"
		"{\"value\": 6.5, \"run_no\": 3, \"document\": {\"system\": {\"kernel\": \"b\"}}}]}],"
		"\"failures\": [{\"test\": \"load 1\", \"run\": 1, \"exit_status\": 1, "
		"\"message\": \"killed\"}]}", 0, &err);
	assert_non_null(doc);
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);
	assert_non_null(f);
	fig_table(f, doc, "r.json");
	fclose(f);
	assert_non_null(strstr(out, "test         run1       run2       run3 "));
	assert_non_null(strstr(out, "load 1          -       5.50       6.50 "));
	assert_non_null(strstr(out, "load 1 run 1: exit status 1: killed"));
	assert_non_null(strstr(out, "errors* (run 2)"));
	assert_null(strstr(out, "(run 1)"));
	assert_non_null(strstr(out, "and b from run 3"));
	free(out);
	json_decref(doc);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(load_figure, setup, teardown),
		cmocka_unit_test_setup_teardown(disk_figure, setup, teardown),
		cmocka_unit_test_setup_teardown(micro_figures, setup, teardown),
		cmocka_unit_test_setup_teardown(micro_errors_named, setup, teardown),
		cmocka_unit_test(escapes),
		cmocka_unit_test_setup_teardown(results_locked, setup, teardown),
		cmocka_unit_test_setup_teardown(progress_checked, setup, teardown),
		cmocka_unit_test(impossible_figures),
		cmocka_unit_test(change_against_zero),
		cmocka_unit_test_setup_teardown(child_command_lines, setup, teardown),
		cmocka_unit_test_setup_teardown(network_server_checked, setup, teardown),
		cmocka_unit_test_setup_teardown(load_options_pass_through, setup, teardown),
		cmocka_unit_test(split_by_mem),
		cmocka_unit_test_setup_teardown(progress_micro_by_limit, setup, teardown),
		cmocka_unit_test(plot_points),
		cmocka_unit_test(steal_of_runs),
		cmocka_unit_test(run_steal_read),
		cmocka_unit_test(table_by_run_number),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
