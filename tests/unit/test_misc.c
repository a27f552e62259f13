/* kbench - unit tests: option parsing (a repeated string option frees the
 * value it replaces; the load values suite shares; what --mpi's ranks
 * compare), the stop signals,
 * throughput arithmetic, confinement
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <malloc.h>
#include <math.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "cli.h"
#include "sys/fsutil.h"
#include "load/rules.h"
#include "load/options/options.h"
#include "load/run/run.h"
#include "result/result.h"

static void test_durations(void **state)
{
	(void)state;
	double d;
	assert_int_equal(cli_parse_duration("90", &d), 0);
	assert_true(d == 90);
	assert_int_equal(cli_parse_duration("1.5m", &d), 0);
	assert_true(d == 90);
	assert_int_equal(cli_parse_duration("2h", &d), 0);
	assert_true(d == 7200);
	assert_int_equal(cli_parse_duration("250ms", &d), 0);
	assert_true(fabs(d - 0.25) < 1e-12);
	assert_int_equal(cli_parse_duration("0", &d), 0);
	assert_true(d == 0);
	assert_int_equal(cli_parse_duration("-1", &d), -1);
	assert_int_equal(cli_parse_duration("", &d), -1);
	assert_int_equal(cli_parse_duration("ten", &d), -1);
	assert_int_equal(cli_parse_duration("5x", &d), -1);
	assert_int_equal(cli_parse_duration("nan", &d), -1);
	assert_int_equal(cli_parse_duration("inf", &d), -1);
	assert_int_equal(cli_parse_duration("1e300", &d), -1);
	/* strtod would read these: hex, a leading space, a sign */
	assert_int_equal(cli_parse_duration("0x1", &d), -1);
	assert_int_equal(cli_parse_duration("0X10s", &d), -1);
	assert_int_equal(cli_parse_duration(" 1", &d), -1);
	assert_int_equal(cli_parse_duration("+1", &d), -1);
	assert_int_equal(cli_parse_duration("infinity", &d), -1);
	assert_int_equal(cli_parse_duration(".5", &d), 0);
	assert_true(d == 0.5);
	assert_int_equal(cli_parse_duration("1e-3", &d), 0);
	assert_true(d == 1e-3);
}

/* --smb-user's password is overwritten in argv, both spellings, and
 * nothing else is: not other options, not what follows "--" */
static void test_hide_password(void **state)
{
	(void)state;
	char a0[] = "kbench", a1[] = "--smb-user", a2[] = "dom/bob%s3cr%t", a3[] = "-c",
	     a4[] = "x%y", a5[] = "--smb-user=al%pw", a6[] = "--smb-user", a7[] = "nopct",
	     a8[] = "--", a9[] = "--smb-user=z%keep";
	const char *argv[] = { a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, NULL };
	cli_hide_password(10, argv, "--smb-user");
	assert_string_equal(argv[2], "dom/bob%XXXXXX");
	assert_string_equal(argv[4], "x%y");
	assert_string_equal(argv[5], "--smb-user=al%XX");
	assert_string_equal(argv[7], "nopct");
	assert_string_equal(argv[9], "--smb-user=z%keep");
	/* a value at the very end, with nothing after '%' */
	char b1[] = "--smb-user", b2[] = "u%";
	const char *argv2[] = { a0, b1, b2, NULL };
	cli_hide_password(3, argv2, "--smb-user");
	assert_string_equal(argv2[2], "u%");
}

static void test_sizes_and_counts(void **state)
{
	(void)state;
	uint64_t v;
	assert_int_equal(cli_parse_size("4096", &v), 0);
	assert_int_equal(v, 4096);
	assert_int_equal(cli_parse_size("32M", &v), 0);
	assert_int_equal(v, 32u << 20);
	assert_int_equal(cli_parse_size("2GiB", &v), 0);
	assert_int_equal(v, UINT64_C(2) << 30);
	assert_int_equal(cli_parse_size("1k", &v), 0);
	assert_int_equal(v, 1024);
	assert_int_equal(cli_parse_size("9000000T", &v), -1);
	assert_int_equal(cli_parse_size("-1", &v), -1);
	assert_int_equal(cli_parse_size("12Q", &v), -1);
	assert_int_equal(cli_parse_uint("4", 1, 10, &v), 0);
	assert_int_equal(v, 4);
	assert_int_equal(cli_parse_uint("0", 1, 10, &v), -1);
	assert_int_equal(cli_parse_uint("11", 1, 10, &v), -1);
	assert_int_equal(cli_parse_uint("4x", 1, 10, &v), -1);
	assert_int_equal(cli_parse_uint("-4", 1, 10, &v), -1);
	assert_int_equal(cli_parse_uint("99999999999999999999999", 1, UINT64_MAX, &v), -1);
}

/* the --mem-limit values and the default warm-up of load/rules.h, which kbench
 * load and kbench suite both apply */
static void test_load_shared_values(void **state)
{
	(void)state;
	uint64_t v = 1;
	assert_int_equal(load_mem_limit_parse("none", &v), 0);
	assert_int_equal(v, 0);
	assert_int_equal(load_mem_limit_parse("64M", &v), 0);
	assert_int_equal(v, 64u << 20);
	assert_int_equal(load_mem_limit_parse("4096", &v), 0);
	assert_int_equal(v, 4096);
	assert_int_equal(load_mem_limit_parse("0", &v), LOAD_MEM_LIMIT_ZERO);
	assert_int_equal(load_mem_limit_parse("0k", &v), LOAD_MEM_LIMIT_ZERO);
	assert_int_equal(load_mem_limit_parse("abc", &v), LOAD_MEM_LIMIT_BAD);
	assert_int_equal(load_mem_limit_parse("None", &v), LOAD_MEM_LIMIT_BAD);
	assert_int_equal(load_mem_limit_parse("", &v), LOAD_MEM_LIMIT_BAD);
	assert_int_equal(load_mem_limit_parse("-1M", &v), LOAD_MEM_LIMIT_BAD);
	assert_true(load_default_warmup_s(600) == 120);
	assert_true(load_default_warmup_s(60) == 12);
	assert_true(load_default_warmup_s(1) == 0.2);
	assert_true(load_default_warmup_s(0) == 0);
}

/* --mpi: the measure text of one rank's command line (argv, NULL-ended) */
static char *measure_of(const char **argv)
{
	struct load_opts o;
	poptContext ctx;
	int argc = 0;
	while (argv[argc])
		argc++;
	load_opts_init(&o, "kbench load");
	assert_int_equal(load_opts_parse(&o, argc, argv, &ctx), 0);
	assert_int_equal(load_opts_check(&o, ctx), 0);
	char *text = load_opts_measure(&o);
	assert_non_null(text);
	load_opts_free(&o);
	poptFreeContext(ctx);
	return text;
}

static char shown_a[128], shown_b[128];

/* load_opts_differ of two ranks' command lines: a's against rank 0's b */
static int differ_of(const char **a, const char **b)
{
	char *ta = measure_of(a), *tb = measure_of(b);
	shown_a[0] = shown_b[0] = '\0';
	int rc = load_opts_differ(ta, tb, shown_a, shown_b, sizeof(shown_a));
	free(ta);
	free(tb);
	return rc;
}

#define ARGV(...) ((const char *[]){ "load", "--mpi", __VA_ARGS__, NULL })

/* what two ranks must share, compared as kbench reads it */
static void test_mpi_measure(void **state)
{
	(void)state;
	char dir[] = "/tmp/kbench-test-measure.XXXXXX", x[64], y[64], z[64], gone[64];
	assert_non_null(mkdtemp(dir));
	snprintf(x, sizeof(x), "%s/x.txt", dir);
	snprintf(y, sizeof(y), "%s/y.txt", dir);
	snprintf(z, sizeof(z), "%s/z.txt", dir);
	snprintf(gone, sizeof(gone), "%s/gone.txt", dir);
	const char *line = "NTCreateX \"\\a\" 0x1 0x0 1 NT_STATUS_OK\n";
	FILE *f;
	assert_non_null(f = fopen(x, "w"));
	fputs(line, f);
	fclose(f);
	assert_non_null(f = fopen(y, "w"));
	fputs(line, f);
	fclose(f);
	assert_non_null(f = fopen(z, "w"));
	fputs(line, f);
	fputs(line, f);
	fclose(f);

	/* numbers as read; what only shows or keeps results is not compared */
	assert_int_equal(differ_of(ARGV("-t", "60", "-R", "1", "1"),
				   ARGV("-t", "1m", "-R", "1.0", "-q", "--json", "r.json", "1")), 0);
	assert_int_equal(differ_of(ARGV("-t", "4", "1"), ARGV("-t", "1", "1")), 1);
	assert_string_equal(shown_a, "-t 4");
	assert_string_equal(shown_b, "-t 1");
	assert_int_equal(differ_of(ARGV("-t", "1", "2"), ARGV("-t", "1", "1")), 1);
	assert_string_equal(shown_a, "NCLIENTS 2");
	assert_string_equal(shown_b, "NCLIENTS 1");
	assert_int_equal(differ_of(ARGV("--clients-total", "4"), ARGV("4")), 1);
	assert_string_equal(shown_a, "--clients-total 4");
	assert_string_equal(shown_b, "NCLIENTS 4");
	assert_int_equal(differ_of(ARGV("-s", "1"), ARGV("1")), 1);
	assert_string_equal(shown_a, "-s");
	assert_string_equal(shown_b, "no -s");
	assert_int_equal(differ_of(ARGV("--warmup", "0", "1"), ARGV("1")), 1);
	assert_string_equal(shown_a, "--warmup 0");
	assert_string_equal(shown_b, "--warmup 120");
	assert_int_equal(differ_of(ARGV("-B", "sockio", "--server", "h:2", "1"),
				   ARGV("-B", "sockio", "--server", "h:1", "1")), 1);
	assert_string_equal(shown_a, "--server h:2");
	/* a name's blanks and control characters stay apart */
	assert_int_equal(differ_of(ARGV("-D", "a\tb", "1"), ARGV("-D", "a b", "1")), 1);
	assert_string_equal(shown_a, "-D a\\x09b");
	assert_string_equal(shown_b, "-D a b");

	/* the loadfile: the same bytes under another name agree, other bytes
	 * do not; a rank that cannot read its file compares the name */
	assert_int_equal(differ_of(ARGV("-c", x, "1"), ARGV("-c", y, "1")), 0);
	assert_int_equal(differ_of(ARGV("-c", z, "1"), ARGV("-c", x, "1")), 1);
	assert_non_null(strstr(shown_a, "bytes)"));
	assert_int_equal(strncmp(shown_a, "-c ", 3), 0);
	assert_int_equal(differ_of(ARGV("-c", gone, "1"), ARGV("-c", gone, "1")), 0);
	assert_int_equal(differ_of(ARGV("-c", gone, "1"), ARGV("-c", x, "1")), 1);
	assert_int_equal(strncmp(shown_a, "-c ", 3), 0);
	assert_null(strstr(shown_a, "crc32"));
	unlink(x);
	unlink(y);
	unlink(z);
	assert_int_equal(rmdir(dir), 0);
}

/* a size that must carry its unit: a bare number is told apart (-2) */
static void test_sizes_with_unit(void **state)
{
	(void)state;
	uint64_t v = 7;
	assert_int_equal(cli_parse_size_unit("1", &v), -2);
	assert_int_equal(cli_parse_size_unit("0", &v), -2);
	assert_int_equal(cli_parse_size_unit("4096", &v), -2);
	assert_int_equal(v, 7);                        /* untouched */
	assert_int_equal(cli_parse_size_unit("1G", &v), 0);
	assert_int_equal(v, UINT64_C(1) << 30);
	assert_int_equal(cli_parse_size_unit("4096B", &v), 0);
	assert_int_equal(v, 4096);
	assert_int_equal(cli_parse_size_unit("0B", &v), 0);
	assert_int_equal(v, 0);
	assert_int_equal(cli_parse_size_unit("512MiB", &v), 0);
	assert_int_equal(v, UINT64_C(512) << 20);
	assert_int_equal(cli_parse_size_unit("4kB", &v), 0);
	assert_int_equal(v, 4096);
	assert_int_equal(cli_parse_size_unit("B", &v), -1);
	assert_int_equal(cli_parse_size_unit("", &v), -1);
	assert_int_equal(cli_parse_size_unit("-1", &v), -1);
	assert_int_equal(cli_parse_size_unit("12X", &v), -1);
	assert_int_equal(cli_parse_size_unit("1.5G", &v), -1);
	assert_int_equal(cli_parse_size_unit("4096b", &v), -1);
	assert_int_equal(cli_parse_size_unit("99999999999999999999", &v), -1);
	assert_int_equal(cli_parse_size_unit("99999999999999999999B", &v), -1);
	assert_int_equal(cli_parse_size_unit("9223372036854775808B", &v), -1);
	assert_int_equal(cli_parse_size_unit("9223372036854775807B", &v), 0);
	assert_int_equal(v, UINT64_C(9223372036854775807));
	/* cli_parse_size itself still takes bare bytes */
	assert_int_equal(cli_parse_size("4096", &v), 0);
	assert_int_equal(v, 4096);
}

static void test_throughput(void **state)
{
	(void)state;
	/* 1e9 bytes in 2 s = 500 MB/s (MB = 10^6 bytes) */
	assert_true(fabs(run_throughput_mbps(1000000000ull, 5000000000ull, 7000000000ull) - 500.0) < 1e-9);
	/* 1.472 GB read + 1.016 GB written in 10 s: 248.8 MB/s */
	assert_true(fabs(run_throughput_mbps(2488000000ull, 0, 10000000000ull) - 248.8) < 1e-9);
	/* an empty window gives no figure at all */
	assert_true(isnan(run_throughput_mbps(123, 10, 10)));
	assert_true(isnan(run_throughput_mbps(123, 10, 5)));
	assert_true(run_throughput_mbps(0, 0, 1000000000ull) == 0.0);
}

static char tmpl[64];

static void test_confinement(void **state)
{
	(void)state;
	strcpy(tmpl, "/tmp/kbench-unit.XXXXXX");
	assert_non_null(mkdtemp(tmpl));
	int root = open(tmpl, O_RDONLY | O_DIRECTORY);
	assert_true(root >= 0);
	assert_int_equal(mkdirat(root, "inner", 0777), 0);
	int inner = openat(root, "inner", O_RDONLY | O_DIRECTORY);
	/* a link pointing out of the directory is never followed */
	assert_int_equal(symlinkat("/etc", inner, "out"), 0);
	assert_int_equal(symlinkat("/etc/passwd", inner, "pw"), 0);
	errno = 0;
	assert_true(fs_open_beneath(inner, "pw", O_RDONLY, 0) < 0);
	assert_true(fs_open_beneath(inner, "out/passwd", O_RDONLY, 0) < 0);
	/* ".." out of the base: refused where openat2 exists (Linux 5.6+) */
	int up = fs_open_beneath(inner, "../inner", O_RDONLY | O_DIRECTORY, 0);
	if (up >= 0) {
		close(up);
		fail_msg("'..' escaped the base directory (kernel without openat2?)");
	}
	/* removing a tree removes the links, not their targets */
	int fd = openat(inner, "file", O_CREAT | O_WRONLY, 0600);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(mkdirat(inner, "sub", 0777), 0);
	assert_int_equal(symlinkat("/etc", inner, "sub/etclink"), 0);
	assert_int_equal(fs_remove_tree(root, "inner", 1, NULL), 0);
	struct stat st;
	assert_int_equal(stat("/etc/passwd", &st), 0);
	assert_int_equal(fstatat(root, "inner", &st, 0), 0);  /* keep_top */
	assert_int_equal(fstatat(root, "inner/file", &st, 0), -1);
	assert_int_equal(fs_remove_tree(root, "inner", 0, NULL), 0);
	assert_int_equal(fstatat(root, "inner", &st, 0), -1);
	assert_int_equal(fs_remove_tree(root, "missing", 0, NULL), 0);
	close(inner);
	close(root);
	assert_int_equal(rmdir(tmpl), 0);
}

static void test_parent_dir(void **state)
{
	(void)state;
	char out[16];
	result_parent_dir("run.json", out, sizeof(out));
	assert_string_equal(out, ".");
	result_parent_dir("/run.json", out, sizeof(out));
	assert_string_equal(out, "/");
	result_parent_dir("/tmp/x/run.json", out, sizeof(out));
	assert_string_equal(out, "/tmp/x");
	result_parent_dir("a/b", out, sizeof(out));
	assert_string_equal(out, "a");
	result_parent_dir("dir/", out, sizeof(out));
	assert_string_equal(out, "dir");
	assert_int_equal(result_parent_dir("x/y", out, sizeof(out)), 0);
	char small[4];
	assert_int_equal(result_parent_dir("abcdef/x", small, sizeof(small)), -1);
	assert_int_equal(result_parent_dir("abcd", small, sizeof(small)), -1);
	assert_int_equal(result_parent_dir("ab/", small, sizeof(small)), 0);
	assert_string_equal(small, "ab");
}

static void test_deep_tree_removal(void **state)
{
	(void)state;
	/* 3000 levels: deeper than PATH_MAX allows by name, with only 32 fds */
	char dir[64] = "/dev/shm/kbench-deep.XXXXXX";  /* tmpfs: quick */
	if (!mkdtemp(dir)) {
		strcpy(dir, "/tmp/kbench-deep.XXXXXX");
		assert_non_null(mkdtemp(dir));
	}
	int root = open(dir, O_RDONLY | O_DIRECTORY);
	int cur = dup(root);
	for (int i = 0; i < 3000; i++) {
		assert_int_equal(mkdirat(cur, "d", 0777), 0);
		int fd = openat(cur, "d", O_RDONLY | O_DIRECTORY);
		assert_true(fd >= 0);
		if (i % 100 == 0) {
			int f = openat(fd, "file", O_CREAT | O_WRONLY, 0600);
			assert_true(f >= 0);
			close(f);
		}
		close(cur);
		cur = fd;
	}
	close(cur);
	struct rlimit old, low = { 32, 32 };
	getrlimit(RLIMIT_NOFILE, &old);
	low.rlim_max = old.rlim_max;
	setrlimit(RLIMIT_NOFILE, &low);
	int e = fs_remove_tree(root, "d", 0, NULL);
	setrlimit(RLIMIT_NOFILE, &old);
	assert_int_equal(e, 0);
	struct stat st;
	assert_int_equal(fstatat(root, "d", &st, 0), -1);
	close(root);
	assert_int_equal(rmdir(dir), 0);
}

/* Bytes the heap holds for the program: glibc's arenas and mmapped chunks. */
static size_t heap_in_use(void)
{
	struct mallinfo2 m = mallinfo2();
	return m.uordblks + m.hblkhd;
}

static void test_popt_repeated_string(void **state)
{
	(void)state;
	const size_t big = 1u << 20;
	char *a = malloc(big + 1), *b = malloc(big + 1);
	assert_non_null(a);
	assert_non_null(b);
	memset(a, 'a', big);
	memset(b, 'b', big);
	a[big] = b[big] = '\0';
	char *name = NULL;
	int flag = 0;
	struct poptOption options[] = {
		{ "name", 'n', POPT_ARG_STRING, &name, 0, "a string", "S" },
		{ "flag", 0, POPT_ARG_NONE, &flag, 0, "a flag", NULL },
		{ "other", 0, POPT_ARG_STRING, NULL, 'o', "handled by the caller", "S" },
		POPT_TABLEEND
	};
	const char *argv[] = { "test", "-n", a, "--flag", "--name", b, "--other", "x", NULL };

	size_t before = heap_in_use();
	poptContext ctx = poptGetContext("test", 8, argv, options, 0);
	/* the personalities' parse: the caller's own comes back */
	assert_int_equal(cli_popt_next_last(ctx, options), 'o');
	char *other = poptGetOptArg(ctx);
	assert_string_equal(other, "x");
	free(other);
	assert_int_equal(cli_popt_next_last(ctx, options), -1);
	assert_true(name && name[0] == 'b' && strlen(name) == big);  /* the last counts */
	assert_int_equal(flag, 1);
	free(name);
	poptFreeContext(ctx);
	/* popt's copy of the first value (1 MiB) was freed when the second
	 * replaced it: nothing of it is still held */
	assert_true(heap_in_use() < before + big / 2);
	free(a);
	free(b);
}

/* kbench's own commands: a value given twice is an error, and the table
 * parsed again (an included table is static) starts with nothing given */
static void test_popt_repeated_refused(void **state)
{
	(void)state;
	char *name = NULL;
	struct poptOption options[] = {
		{ "name", 'n', POPT_ARG_STRING, &name, 0, "a string", "S" },
		{ "other", 0, POPT_ARG_STRING, NULL, 'o', "handled by the caller", "S" },
		POPT_TABLEEND
	};
	const char *twice[] = { "test", "-n", "a", "--other", "x", "--name", "b", NULL };
	poptContext ctx = poptGetContext("test", 7, twice, options, 0);
	assert_int_equal(cli_popt_next(ctx, options), 'o');
	free(poptGetOptArg(ctx));
	int rc = cli_popt_next(ctx, options);
	assert_true(rc < -1);
	FILE *saved = stderr;
	char text[200] = "";
	stderr = fmemopen(text, sizeof(text) - 1, "w");
	assert_non_null(stderr);
	assert_int_equal(cli_popt_done(ctx, "kbench test", rc), KB_EXIT_USAGE);
	fclose(stderr);
	stderr = saved;
	assert_string_equal(text, "kbench test: -n/--name given twice: it takes one value; give "
			    "it once (see 'kbench test --help')\n");
	poptFreeContext(ctx);
	free(name);
	name = NULL;
	const char *once[] = { "test", "--name", "c", NULL };
	ctx = poptGetContext("test", 3, once, options, 0);
	assert_int_equal(cli_popt_next(ctx, options), -1);
	assert_string_equal(name, "c");
	poptFreeContext(ctx);
	free(name);
}

static volatile sig_atomic_t caught;

static void note_signal(int sig)
{
	caught = sig;
}

typedef void (*handler_fn)(int);

static handler_fn handler_of(int sig)
{
	struct sigaction sa;
	sigaction(sig, NULL, &sa);
	return sa.sa_handler;
}

/* In a child (the first call of cli_catch_stop_signals there), with SIGHUP
 * and SIGINT ignored or not at the start (a shell without job control
 * ignores SIGINT in its background commands): exit status 0 if the policy
 * held, an ignored one staying ignored, SIGINT as any other. */
static int stop_signals_child(int ignored)
{
	signal(SIGHUP, ignored ? SIG_IGN : SIG_DFL);
	signal(SIGINT, ignored ? SIG_IGN : SIG_DFL);
	cli_catch_stop_signals(note_signal);
	if (handler_of(SIGINT) != (ignored ? SIG_IGN : note_signal) ||
	    handler_of(SIGTERM) != note_signal)
		return 1;
	raise(SIGHUP);   /* ignored, or caught: kbench never dies of it here */
	if (caught != (ignored ? 0 : SIGHUP))
		return 2;
	caught = 0;
	raise(SIGINT);
	if (caught != (ignored ? 0 : SIGINT))
		return 6;
	caught = 0;
	raise(SIGTERM);
	if (caught != SIGTERM)
		return 3;
	cli_default_stop_signals();
	if (handler_of(SIGINT) != (ignored ? SIG_IGN : SIG_DFL) || handler_of(SIGTERM) != SIG_DFL)
		return 4;
	if (handler_of(SIGHUP) != (ignored ? SIG_IGN : SIG_DFL))
		return 5;
	if (cli_is_stop_signal(SIGQUIT) || handler_of(SIGQUIT) == note_signal)
		return 7;   /* SIGQUIT keeps its core dump */
	return 0;
}

static void test_stop_signals(void **state)
{
	(void)state;
	for (int ignored = 0; ignored < 2; ignored++) {
		pid_t pid = fork();
		assert_true(pid >= 0);
		if (pid == 0)
			_exit(stop_signals_child(ignored));
		int st;
		assert_int_equal(waitpid(pid, &st, 0), pid);
		assert_true(WIFEXITED(st));
		assert_int_equal(WEXITSTATUS(st), 0);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_durations),
		cmocka_unit_test(test_hide_password),
		cmocka_unit_test(test_sizes_and_counts),
		cmocka_unit_test(test_sizes_with_unit),
		cmocka_unit_test(test_load_shared_values),
		cmocka_unit_test(test_mpi_measure),
		cmocka_unit_test(test_throughput),
		cmocka_unit_test(test_confinement),
		cmocka_unit_test(test_deep_tree_removal),
		cmocka_unit_test(test_parent_dir),
		cmocka_unit_test(test_popt_repeated_string),
		cmocka_unit_test(test_popt_repeated_refused),
		cmocka_unit_test(test_stop_signals),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
