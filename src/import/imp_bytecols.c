/* kbench - import: BYTE results re-tabulated as one column per kernel
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A reply that sets two (or more) BYTE runs side by side:
 *                                           2.4.19           2.5.33
 *   Dhrystone 2 using register variables    1501168.4 lps    1488265.3 lps
 *   >Pipe Throughput Test                    476268.6 lps     434561.9 lps
 *                         INDEX VALUES           2.4.19     2.5
 *    Arithmetic Test (type = double)              82.8       82.0
 *         AVERAGE                                 82.2       67.3
 * The header is a line of kernel versions alone (imp_kernel_word), one a
 * column; each row under it is a title and then, per column, a figure
 * and its BYTE unit (a '>' that flags a row is a quote mark to
 * import.c, already gone).  Column k of each row is a run of kernel k.
 * Under "INDEX VALUES" the index lines give no baseline and are not
 * kept; "AVERAGE" (BYTE 3) or "FINAL SCORE" (BYTE 4) with one figure a
 * column is each kernel's printed score, as imp_byte.c keeps it.
 */
#include "config.h"
#include "import/import.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_COLS 8

struct cols {
	struct imp_sys sys[MAX_COLS];
	size_t n;              /* columns; 0: no header seen */
	size_t header;         /* its line */
	bool index;            /* under INDEX VALUES */
};

static bool byte_unit(const char *w)
{
	return !strcmp(w, "lps") || !strcmp(w, "lpm") || !strcmp(w, "KBps") ||
	       !strcmp(w, "MWIPS") || !strcmp(w, "KWIPS");
}

/* A header: every word a kernel version, at least two. */
static bool header(struct cols *c, char **w, size_t n, size_t ln)
{
	char k[160];
	if (n < 2 || n > MAX_COLS)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!imp_kernel_word(w[i], k, sizeof(k)))
			return false;
	memset(c, 0, sizeof(*c));
	for (size_t i = 0; i < n; i++)
		imp_kernel_word(w[i], c->sys[i].kernel, sizeof(c->sys[i].kernel));
	c->n = n;
	c->header = ln;
	return true;
}

/* One figure of column k. */
static int add(struct imp *im, const struct imp_file *f, const struct cols *c, size_t k,
	       const char *title, const char *unit, double v, size_t ln)
{
	char name[220], run[300];
	snprintf(name, sizeof(name), "byte: %s", title);
	snprintf(run, sizeof(run), "%s:%zu:column %zu", f->path, c->header, k + 1);
	struct imp_fig fig = { name, title, unit, true, "BYTE UNIX Benchmarks (columns)", NULL,
			       0, v, ln, run, NULL, NULL, 0, NULL };
	return imp_add(im, f, &c->sys[k], &fig) < 0 ? -1 : 1;
}

/* A row "TITLE FIG UNIT FIG UNIT ..." (or a score row under the index):
 * the figures added, 0 when l is not one, -1 out of memory. */
static int row(struct imp *im, const struct imp_file *f, const struct cols *c, char **w,
	       size_t n, size_t ln)
{
	char title[200] = "";
	double v;
	bool score = c->index && n >= c->n + 1;
	size_t per = score ? 1 : 2, first = n >= c->n * per ? n - c->n * per : 0;
	if (!first || n < c->n * per + 1)
		return 0;
	for (size_t k = 0; k < c->n; k++) {
		if (!imp_number(w[first + k * per], &v))
			return 0;
		if (!score && !byte_unit(w[first + k * per + 1]))
			return 0;
	}
	for (size_t i = 0; i < first; i++)
		snprintf(title + strlen(title), sizeof(title) - strlen(title), "%s%s",
			 i ? " " : "", w[i]);
	if (score && strcmp(title, "AVERAGE") && strcmp(title, "FINAL SCORE")) {
		imp_used(im, ln);  /* an index line: no baseline, not kept */
		return 0;
	}
	int added = 0;
	for (size_t k = 0; k < c->n; k++) {
		imp_number(w[first + k * per], &v);
		if (add(im, f, c, k, title, score ? "index" : w[first + k * per + 1], v, ln) < 0)
			return -1;
		added++;
	}
	return added;
}

int imp_read_bytecols(struct imp *im, const struct imp_file *f)
{
	struct cols c = { .n = 0 };
	int added = 0;
	for (size_t ln = 1; ln <= f->nlines; ln++) {
		char **w;
		size_t n;
		void *block = imp_all_words(f->line[ln - 1], &w, &n);
		if (!block)
			return -1;
		int rc = 0;
		if (header(&c, w, n, ln)) {
			imp_used(im, ln);
		} else if (c.n && n >= 2 && !strcmp(w[0], "INDEX") && !strcmp(w[1], "VALUES")) {
			c.index = true;
			imp_used(im, ln);
		} else if (c.n) {
			rc = row(im, f, &c, w, n, ln);
		}
		free(block);
		if (rc < 0)
			return -1;
		added += rc;
	}
	return added;
}
