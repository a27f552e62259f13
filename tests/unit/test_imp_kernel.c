/* kbench - unit tests: what proves a kernel to kbench import (a version
 * another program owns, kernel lines, prose, "NAME: average" headings,
 * quote marks)
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "import/imp_kernel.h"
#include "import/imp_util.h"

/* Is the version in line l another program's? */
static int owned(const char *l)
{
	char copy[256], *w[32], k[160];
	snprintf(copy, sizeof(copy), "%s", l);
	size_t n = imp_words(copy, w, 32);
	for (size_t i = 0; i < n; i++)
		if (imp_kernel_word(w[i], k, sizeof(k)))
			return imp_version_owned(w, i);
	return -1;  /* no version at all */
}

static void test_owned(void **state)
{
	(void)state;
	assert_int_equal(owned("every run below is on reiserfs 3.6.25, one disk"), 1);
	assert_int_equal(owned("built with gcc 2.95.3 and nothing else"), 1);
	assert_int_equal(owned("kernel 2.4.20"), 0);
	assert_int_equal(owned("Linux 2.4.20"), 0);
	assert_int_equal(owned("same machine with 2.4.19-pre4-ac4"), 0);
	assert_int_equal(owned("> I compiled 2.4.2, with:"), 0);   /* a participle */
	assert_int_equal(owned("the merged tree is what 2.4.19-pre8-aa2 became"), 0);
	assert_int_equal(owned("Alan's 2.4.19-ac1"), 0);          /* a possessive */
	assert_int_equal(owned("1) 2.5.8"), 0);                    /* a list marker */
	assert_int_equal(owned("results, 2.4.19 first"), 0);       /* a clause ends */
	assert_int_equal(owned("2.4.19 alone"), 0);
	assert_int_equal(owned("I rebuilt 2.5.2-pre3 with mrproper"), 0);  /* a tree's suffix */
	assert_int_equal(owned("I rebuilt 2.5.2 with mrproper"), 1);       /* no telling */
}

static void test_kernel_line(void **state)
{
	struct imp_sys s;
	(void)state;
	assert_false(imp_kernel_line("All runs on reiserfs 3.6.25, same disk, 256MB.", &s));
	assert_true(imp_kernel_line("All runs on 2.4.19 with reiserfs 3.6.25.", &s));
	assert_string_equal(s.kernel, "2.4.19");
	assert_true(imp_kernel_line("the unmodified 6.6.47 kernel scored:", &s));
	assert_string_equal(s.kernel, "6.6.47");
	/* client counts after a tool's name are no figures; other numbers are */
	assert_true(imp_kernel_line("2.5.1 finishes dbench 32, 128 on this machine.  :)", &s));
	assert_string_equal(s.kernel, "2.5.1");
	assert_false(imp_kernel_line("2.5.1 finishes in 32 seconds on this machine", &s));
	/* "rebuilt 2.5.2-pre3 ... for 2.5.1": two kernels, no kernel line */
	assert_false(imp_kernel_line("I rebuilt 2.5.2-pre3 using the config that worked for 2.5.1", &s));
}

static void test_prose(void **state)
{
	(void)state;
	assert_true(imp_prose_line("and this is the same box once the patch went in:"));
	assert_true(imp_prose_line("now no WARNINGS are triggered and hdparm -t /dev/sda produces:"));
	assert_false(imp_prose_line("dbench 16  11.72s user 122.21s system 422% cpu 31.733 total"));
	assert_false(imp_prose_line("MemTotal:      1029776 kB"));
	assert_false(imp_prose_line("        total:    used:    free:  shared: buffers:  cached:"));
	assert_false(imp_prose_line("Average: 112.28750"));
	assert_false(imp_prose_line("[root@zefir root]# /root/db2.sh 2 16"));
}

static void test_summary_heading(void **state)
{
	char h[160];
	(void)state;
	assert_true(imp_summary_heading("rmap13c: average 10.61 MB/sec", h, sizeof(h)));
	assert_string_equal(h, "rmap13c");
	assert_true(imp_summary_heading("2.4.19-pre8: avg 9.00", h, sizeof(h)));
	assert_string_equal(h, "2.4.19-pre8");
	assert_false(imp_summary_heading("Average: 112.28750", h, sizeof(h)));  /* no name */
	assert_false(imp_summary_heading("rmap13c: average 10.61 ms of latency", h, sizeof(h)));
	assert_false(imp_summary_heading("16 clients: average 10.61 MB/sec", h, sizeof(h)));
}

static void test_quote_marks(void **state)
{
	(void)state;
	assert_int_equal(imp_quote_len(": Throughput 8.1 MB/sec"), 2);
	assert_int_equal(imp_quote_len("~ > Throughput 7.7 MB/sec"), 4);
	assert_int_equal(imp_quote_len("| Timing buffered disk reads"), 2);
	assert_int_equal(imp_quote_len(":-) Throughput 9.1 MB/sec"), 0);
	assert_int_equal(imp_quote_len("::"), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_owned),
		cmocka_unit_test(test_kernel_line),
		cmocka_unit_test(test_prose),
		cmocka_unit_test(test_summary_heading),
		cmocka_unit_test(test_quote_marks),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
