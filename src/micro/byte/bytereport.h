/* kbench - micro: BYTE UNIX Benchmarks 4.1's report form (--baseline byte4)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The report BYTE 4.1's Run script wrote and testers posted: a header
 * (System -- uname -a; Start Benchmark Run: the date; the interactive
 * users; uptime's line with the load average; what /bin/sh is; the df
 * line of the test directory), one line per test
 * "NAME VALUE UNIT (T secs, N samples)" with BYTE 4.1's test names
 * ("Arithmetic Test (type = short)", "Recursion Test--Tower of
 * Hanoi", ...), then "INDEX VALUES", "TEST BASELINE RESULT INDEX", the
 * indexed rows, "=========" and "FINAL SCORE".  kbench adds, as lines of
 * the header, how Dhrystone and Whetstone were built and the placement
 * of the tests between processes, and after each test line the spread
 * of its samples, which BYTE did not show.  UnixBench 5's form
 * (--baseline unixbench5) is byteindex.h's byte_report_text().
 */
#ifndef KBENCH_MICRO_BYTEREPORT_H
#define KBENCH_MICRO_BYTEREPORT_H

#include "micro/test.h"

#include <limits.h>
#include <stddef.h>
#include <stdio.h>

/* What the header says, taken when the run starts. */
struct byte_header {
	char uname[400];        /* "SYSNAME NODENAME RELEASE VERSION MACHINE" (uname -a) */
	char start[64];         /* the date: "Tue Dec  1 11:42:00 UTC 2026" */
	int users;              /* interactive users (USER_PROCESS entries of utmp) */
	char uptime[160];       /* as uptime(1): " 11:42:00 up 2 days,  2:56,  1 user,
				 * load average: 0.10, 0.20, 0.30" */
	char sh[PATH_MAX + 32]; /* "/bin/sh -> dash", or why not a link */
	char df[4200];          /* df -k's line of the test directory: source,
				 * 1K-blocks, used, available, use%, mount point */
	long cpus;              /* CPUs online */
};

/* Fill h, now, for a run whose files go in dir.  Facts that cannot be
 * read are said so in their field ("(unknown)"); never fails. */
void byte_header_collect(struct byte_header *h, const char *dir);

/* The uptime(1) line for a clock time (hh, mm, ss), up seconds of uptime,
 * users and the three load averages into buf (len bytes): " 11:42:00 up
 * 2 days,  2:56,  1 user,  load average: 0.10, 0.20, 0.30" ("up 5 min,"
 * under an hour).  Pure, for the unit tests. */
void byte_uptime_line(char *buf, size_t len, int hh, int mm, int ss, double up, int users,
		      const double load[3]);

/* BYTE 4.1's name of a test (by its micro_test name), or its title when
 * 4.1 called it the same. */
const char *byte4_name(const struct micro_test *t);

/* The whole BYTE 4.1 report of the byte-family tests among tests[0..n-1]
 * (res[i] their results; a skipped or failed test prints its reason in
 * place of the figure) to out, indexed against the byte4 baseline.
 * copies is --copies. */
void byte4_report_text(FILE *out, const struct byte_header *h, unsigned copies,
		       const struct micro_test *const *tests, const struct micro_result *res,
		       size_t n);

#endif
