/* kbench - import: the closest form to a file of which nothing was read
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * "no figure found" alone leaves a tester guessing whether the report is
 * of a tool kbench import does not read or of a form it nearly reads.
 * Each test below looks for the start of a known form (a banner, a
 * title, a result line's first words) and says what the rest lacked;
 * the first line that starts one is named.  Lines a reader skipped were
 * named already, with their reasons.
 */
#include "config.h"
#include "import/imp_closest.h"
#include "import/imp_lmbench.h"
#include "import/imp_util.h"

#include <stdio.h>
#include <string.h>

/* A result line's first words with what it lacked. */
static bool result_near(const char *l, size_t ln, char *out, size_t n)
{
	const char *t;
	if ((t = strstr(l, "Timing ")) && strstr(t, "reads") && !strchr(t, '=')) {
		snprintf(out, n, "line %zu: an hdparm Timing line without its '= X MB/sec'", ln);
		return true;
	}
	if ((t = strstr(l, "Throughput")) && !strstr(t, "MB/sec") &&
	    (strstr(t, "MB/s") || strstr(t, "KB/s") || strstr(t, "Mbit"))) {
		snprintf(out, n, "line %zu: a Throughput line in another unit than dbench's "
			 "and tbench's 'MB/sec'", ln);
		return true;
	}
	if (strstr(l, "BYTE UNIX Benchmarks") || strstr(l, "BYTE Unix Benchmarks")) {
		snprintf(out, n, "line %zu: a BYTE banner with no result line under it "
			 "('TITLE FIGURE UNIT (T secs, N samples)')", ln);
		return true;
	}
	return false;
}

bool imp_closest_form(const struct imp_file *f, char *out, size_t n)
{
	if (imp_lmbench_near(f, out, n))
		return true;
	for (size_t ln = 1; ln <= f->nlines; ln++)
		if (result_near(f->line[ln - 1], ln, out, n))
			return true;
	return false;
}
