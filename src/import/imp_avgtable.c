/* kbench - import: tables of means, one kernel and client count a row
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A study that ran dbench (or tbench) several times per kernel and count
 * and posted only each mean, beside a baseline and their ratio:
 *   Kernel          N       Average         Baseline        Ratio
 *   2.4.19          2       46.6689         46.6689         1.000
 *   2.5.34          2       28.675          46.6689         0.614
 * The header names the columns: "Kernel", the count ("N", "clients",
 * "procs"), "Average" (or "Mean"), then any of "Baseline" and "Ratio".
 * The Average is the figure: one run of test "dbench N" in the row's
 * kernel (the runs it is the mean of are not printed, so it is the one
 * figure kbench has).  Baseline (some kernel's Average at that count) and
 * Ratio (Average / Baseline) are worked from the Averages, not runs: they
 * are not kept, and --verbose names a Ratio that does not agree.  Which
 * tool printed the means is read from the nearest line above naming
 * dbench or tbench; with none the table is skipped.  Rows run to the first
 * line that is neither a row nor blank; a blank line may part the counts.
 */
#include "config.h"
#include "import/imp_readers.h"
#include "import/imp_util.h"
#include "import/impstore.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* The columns a header names, by position; -1 when absent. */
struct avg_cols {
	int kernel, count, average, baseline, ratio;
	size_t n;
};

/* Is l such a header?  Its columns into c. */
static bool header(const char *l, struct avg_cols *c)
{
	char copy[256], *w[8];
	if (strlen(l) >= sizeof(copy))
		return false;
	snprintf(copy, sizeof(copy), "%s", l);
	size_t n = imp_words(copy, w, 8);
	*c = (struct avg_cols){ -1, -1, -1, -1, -1, n };
	for (size_t i = 0; i < n; i++) {
		int *slot = NULL;
		if (!strcasecmp(w[i], "kernel"))
			slot = &c->kernel;
		else if (!strcmp(w[i], "N") || !strcasecmp(w[i], "clients") ||
			 !strcasecmp(w[i], "procs"))
			slot = &c->count;
		else if (!strcasecmp(w[i], "average") || !strcasecmp(w[i], "mean"))
			slot = &c->average;
		else if (!strcasecmp(w[i], "baseline"))
			slot = &c->baseline;
		else if (!strcasecmp(w[i], "ratio"))
			slot = &c->ratio;
		if (!slot || *slot >= 0)
			return false;  /* a word no such table has, or one twice */
		*slot = (int)i;
	}
	return c->kernel == 0 && c->count >= 0 && c->average >= 0;
}

/* The tool the nearest line above ln names ("./dbench $value"), or NULL. */
static const char *tool_above(const struct imp_file *f, size_t ln)
{
	for (size_t i = ln - 1; i >= 1; i--) {
		const char *l = f->line[i - 1];
		for (const char *p = l; (p = strcasestr(p, "bench")); p++) {
			if (p == l || (p[-1] != 'd' && p[-1] != 't') ||
			    (p - 1 > l && isalnum((unsigned char)p[-2])) || isalpha((unsigned char)p[5]))
				continue;
			return p[-1] == 'd' ? "dbench" : "tbench";
		}
	}
	return NULL;
}

/* One row: added figures (1), 0 when l is no row, -1 when memory runs out. */
static int row(struct imp *im, const struct imp_file *f, size_t ln, const struct avg_cols *c,
	       const char *tool)
{
	char copy[256], *w[8], k[160], name[64], run[300];
	double v[8];
	const char *l = f->line[ln - 1];
	if (strlen(l) >= sizeof(copy))
		return 0;
	snprintf(copy, sizeof(copy), "%s", l);
	size_t n = imp_words(copy, w, 8);
	if (n != c->n || !imp_kernel_word(w[0], k, sizeof(k)))
		return 0;
	for (size_t i = 1; i < n; i++)
		if (!imp_number(w[i], &v[i]))
			return 0;
	double count = v[c->count], avg = v[c->average];
	if (count < 1 || count > 1e6 || count != floor(count) || avg < 0)
		return 0;
	imp_used(im, ln);
	if (c->baseline > 0 && c->ratio > 0 && v[c->baseline] > 0) {
		double worked = avg / v[c->baseline], printed = v[c->ratio];
		if (fabs(worked - printed) > 0.0015 * fmax(1, fabs(printed)))
			imp_note(im, f, ln, "Ratio %s is not Average / Baseline (%.3f)",
				 w[c->ratio], worked);
	}
	struct imp_sys sys = { 0 };
	snprintf(sys.kernel, sizeof(sys.kernel), "%s", k);
	snprintf(name, sizeof(name), "%s %zu", tool, (size_t)count);
	snprintf(run, sizeof(run), "%s:%zu", f->path, ln);
	struct imp_fig fig = { name, name, "MB/s", true, tool, NULL, 0, avg, ln, run, NULL, NULL,
			       0, NULL };
	return imp_add(im, f, &sys, &fig) < 0 ? -1 : 1;
}

int imp_read_avgtable(struct imp *im, const struct imp_file *f)
{
	int added = 0;
	for (size_t ln = 1; ln <= f->nlines; ln++) {
		struct avg_cols c;
		if (!header(f->line[ln - 1], &c))
			continue;
		const char *tool = tool_above(f, ln);
		if (!tool) {
			imp_skip(im, f, ln, "a table of Averages, and no line above names dbench or "
				 "tbench: which printed them is not known");
			continue;
		}
		imp_used(im, ln);
		size_t r = ln + 1;
		for (; r <= f->nlines; r++) {
			const char *l = f->line[r - 1];
			if (!l[strspn(l, " \t")])
				continue;
			int rc = row(im, f, r, &c, tool);
			if (rc < 0)
				return -1;
			if (!rc)
				break;
			added += rc;
		}
		ln = r - 1;
	}
	return added;
}
