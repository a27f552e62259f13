/* kbench - import: what proves a kernel (imp_kernel.c): a version that
 * is another program's, the kernels a report names, the lines that head
 * a block of runs
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Runs are one system only when one kernel line (or the report's single
 * kernel) heads them all.  These helpers say what the readers need to
 * keep to that: whether a version in prose is a kernel at all, how many
 * kernels a report names, whether two different lines name one kernel
 * (their words then tell two systems apart), and which lines are prose.
 */
#ifndef KBENCH_IMP_KERNEL_H
#define KBENCH_IMP_KERNEL_H

#include "import/imptypes.h"
#include "import/imp_version.h"

#include <stdbool.h>
#include <stddef.h>

/* The kernels one report names, found once before a reader walks it. */
#define IMP_KLINES 48
struct imp_kernels {
	size_t n[2];           /* distinct kernel versions named on the poster's
				* own lines [0] and on quoted lines [1] (the
				* Subject line and a version another program
				* owns not counted) */
	char first[2][160];    /* the first of them, or "" */
	size_t nlines;         /* kernel lines heading runs (imp_kernels_heads) */
	struct {
		char kernel[160];
		char words[160];   /* the line's words, without a closing ':' */
	} line[IMP_KLINES];
};

/* Count the kernels every line of f names into k (all of k set). */
void imp_kernels_scan(const struct imp_file *f, struct imp_kernels *k);

/* Keep l, a line right above a block of runs, when it is a kernel line
 * (imp_kernel_line; not uname's, which its build tells apart). */
void imp_kernels_heads(struct imp_kernels *k, const char *l);

/* Do two kernel lines of the report that say different words name
 * kernel?  (Then each line's words are its system's heading: "unmodified
 * 6.6.47 kernel:" and "modified 6.6.47 kernel:" are two systems.) */
bool imp_kernel_worded(const struct imp_kernels *k, const char *kernel);

/* Is l a line of prose (the poster's words between blocks of runs): at
 * least three words of letters alone (a closing mark of punctuation
 * allowed), and none of them a tool's name (a command or a time line is
 * no prose)?  A line of "key: value" pairs (/proc/meminfo) is not. */
bool imp_prose_line(const char *l);

/* "NAME: average 12.3 MB/sec" (also "avg", "mean", "median"), a line
 * summing up the runs under it: NAME, its heading, into out (n bytes). */
bool imp_summary_heading(const char *l, char *out, size_t n);

#endif
