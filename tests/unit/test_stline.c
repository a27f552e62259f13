/* kbench - unit tests: the strace line parser of kbench record (stline.c):
 * a call with its pid, time, arguments and result (a count, an fd's path,
 * an errno); strace's other forms ([pid N], unfinished and resumed
 * halves joined again, exits, signals); arguments split only at the
 * commas between them (not inside quotes, braces or an fd's path);
 * quoted strings and -yy paths decoded; lines strace does not print
 * refused with a reason
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "record/stline.h"

static void parse_ok(char *line, struct st_line *l)
{
	const char *why = NULL;
	assert_int_equal(st_parse(line, l, &why), 0);
}

static void test_call(void **state)
{
	(void)state;
	struct st_line l;
	char line[] = "19021 1796663646.749381 openat(AT_FDCWD</tmp/st>, \"a\", O_RDONLY) = 3</tmp/st/a>";
	parse_ok(line, &l);
	assert_int_equal(l.kind, ST_CALL);
	assert_int_equal(l.pid, 19021);
	assert_true(l.t > 1796663646.749380 && l.t < 1796663646.749382);
	assert_string_equal(l.name, "openat");
	assert_int_equal(l.nargs, 3);
	assert_string_equal(l.arg[0], "AT_FDCWD</tmp/st>");
	assert_string_equal(l.arg[1], "\"a\"");
	assert_string_equal(l.arg[2], "O_RDONLY");
	assert_true(l.has_ret);
	assert_int_equal(l.ret, 3);
	assert_string_equal(l.ret_path, "/tmp/st/a");
	assert_null(l.err);
}

static void test_errno_and_struct(void **state)
{
	(void)state;
	struct st_line l;
	char line[] = "7 1.000001 newfstatat(3</d/a, b>, \"x,y\", {st_mode=S_IFREG|0644, st_size=3, ...}, 0)"
		      " = -1 ENOENT (No such file or directory)";
	parse_ok(line, &l);
	assert_int_equal(l.nargs, 4);
	assert_string_equal(l.arg[0], "3</d/a, b>");
	assert_string_equal(l.arg[1], "\"x,y\"");
	assert_string_equal(l.arg[2], "{st_mode=S_IFREG|0644, st_size=3, ...}");
	assert_string_equal(l.arg[3], "0");
	assert_int_equal(l.ret, -1);
	assert_string_equal(l.err, "ENOENT");
}

static void test_forms(void **state)
{
	(void)state;
	struct st_line l;
	char a[] = "[pid  42] 5.500000 close(3) = 0";
	parse_ok(a, &l);
	assert_int_equal(l.pid, 42);
	assert_string_equal(l.name, "close");
	char b[] = "5.500000 exit_group(0) = ?";  /* no pid: strace without -f */
	parse_ok(b, &l);
	assert_int_equal(l.pid, 0);
	assert_false(l.has_ret);
	char c[] = "9 5.5 +++ exited with 0 +++";
	parse_ok(c, &l);
	assert_int_equal(l.kind, ST_EXIT);
	char d[] = "9 5.5 --- SIGCHLD {si_signo=SIGCHLD, si_pid=3} ---";
	parse_ok(d, &l);
	assert_int_equal(l.kind, ST_SIGNAL);
	char e[] = "9 5.5 mmap(NULL, 8192, PROT_READ, MAP_PRIVATE, 3</a>, 0) = 0x7f6033682000";
	parse_ok(e, &l);
	assert_int_equal(l.nargs, 6);
	assert_int_equal(l.ret, 0x7f6033682000ll);
}

static void test_unfinished_joined(void **state)
{
	(void)state;
	struct st_line l, w;
	char a[] = "100 2.000000 read(3</f>,  <unfinished ...>";
	parse_ok(a, &l);
	assert_int_equal(l.kind, ST_UNFINISHED);
	assert_string_equal(l.name, "read");
	char start[64];
	strcpy(start, l.rest);
	char b[] = "100 2.500000 <... read resumed>\"\"..., 4096) = 17";
	parse_ok(b, &l);
	assert_int_equal(l.kind, ST_RESUMED);
	assert_string_equal(l.name, "read");
	char joined[256];
	assert_int_equal(st_join(joined, sizeof(joined), 100, 2.0, "read", start, l.rest), 0);
	parse_ok(joined, &w);
	assert_int_equal(w.kind, ST_CALL);
	assert_int_equal(w.nargs, 3);
	assert_string_equal(w.arg[0], "3</f>");
	assert_int_equal(w.ret, 17);
	assert_true(w.t > 1.9999 && w.t < 2.0001);  /* the start's time */
	char small[8];
	assert_int_equal(st_join(small, sizeof(small), 100, 2.0, "read", start, l.rest), -1);
}

static void test_refused(void **state)
{
	(void)state;
	struct st_line l;
	const char *why = NULL;
	char a[] = "19021 openat(AT_FDCWD, \"a\", O_RDONLY) = 3";  /* no -ttt */
	assert_int_equal(st_parse(a, &l, &why), -1);
	assert_non_null(why);
	char b[] = "12:00:01 openat(AT_FDCWD, \"a\", O_RDONLY) = 3";  /* -t, not -ttt */
	assert_int_equal(st_parse(b, &l, &why), -1);
	char c[] = "hello world";
	assert_int_equal(st_parse(c, &l, &why), -1);
	char d[] = "5 1.5 read(3, \"abc, 3) = 3";  /* a quote never closed */
	assert_int_equal(st_parse(d, &l, &why), -1);
	char e[] = "5 1.5 read(3, \"\", 3)";  /* no result */
	assert_int_equal(st_parse(e, &l, &why), -1);
}

static void test_strings_and_fds(void **state)
{
	(void)state;
	char out[64];
	int fd;
	assert_int_equal(st_string("\"a\\\"b\\n\\303\\251\\x41\"", out, sizeof(out)), 0);
	assert_string_equal(out, "a\"b\n\303\251A");
	assert_int_equal(st_string("\"abc\"...", out, sizeof(out)), 0);
	assert_string_equal(out, "abc");
	assert_int_equal(st_string("NULL", out, sizeof(out)), -1);
	assert_int_equal(st_string("\"abc\"x", out, sizeof(out)), -1);
	assert_int_equal(st_string("\"abcdefgh\"", out, 4), -1);  /* does not fit */
	assert_int_equal(st_fd("3</tmp/st/a\\76b,c d>", &fd, out, sizeof(out)), 0);
	assert_int_equal(fd, 3);
	assert_string_equal(out, "/tmp/st/a>b,c d");
	assert_int_equal(st_fd("AT_FDCWD</w>", &fd, out, sizeof(out)), 0);
	assert_int_equal(fd, -100);
	assert_string_equal(out, "/w");
	assert_int_equal(st_fd("5", &fd, out, sizeof(out)), 0);
	assert_int_equal(fd, 5);
	assert_string_equal(out, "");
	assert_int_equal(st_fd("5<pipe:[123]>", &fd, out, sizeof(out)), 0);
	assert_string_equal(out, "pipe:[123]");
	assert_int_equal(st_fd("NULL", &fd, out, sizeof(out)), -1);
	assert_int_equal(st_fd("-1", &fd, out, sizeof(out)), -1);
	assert_int_equal(st_fd("2000000</a>", &fd, out, sizeof(out)), -1);  /* above ST_FD_MAX */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_call),
		cmocka_unit_test(test_errno_and_struct),
		cmocka_unit_test(test_forms),
		cmocka_unit_test(test_unfinished_joined),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_strings_and_fds),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
