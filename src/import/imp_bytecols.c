/* kbench - import: BYTE results re-tabulated by kernel: columns, [linux-X] tags
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
 *
 * And a comparison that tags each line with its kernel:
 *   Execl Throughput[linux-2.5.68]                    1493.0 lps
 *   Execl Throughput[linux-2.5.67]                    1308.8 lps
 * Each line is a run of its kernel.  A report of that kernel read in the
 * same input (imp_byte.c, before this reader) is its system; a line
 * that restates a figure of it is that figure, not a second run.
 */
#include "config.h"
#include "import/imp_readers.h"
#include "import/impstore.h"
#include "import/imp_util.h"

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
		if (!score && !imp_byte_unit(w[first + k * per + 1]))
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

/* The system a [linux-X] line of kernel k belongs to: the one group of
 * that kernel already read, else a system of the kernel alone. */
static struct imp_sys tag_sys(const struct imp *im, const char *k)
{
	struct imp_sys s = { 0 };
	size_t found = 0;
	for (size_t i = 0; i < im->ngroups; i++)
		if (!strcmp(im->groups[i].sys.kernel, k) && found++ == 0)
			s = im->groups[i].sys;
	if (found != 1) {
		memset(&s, 0, sizeof(s));
		snprintf(s.kernel, sizeof(s.kernel), "%s", k);
	}
	return s;
}

/* Has system s a run of test name whose figure is v? */
static bool restated(const struct imp *im, const struct imp_sys *s, const char *name, double v)
{
	for (size_t i = 0; i < im->ngroups; i++) {
		const struct imp_group *g = &im->groups[i];
		if (strcmp(g->sys.kernel, s->kernel) || strcmp(g->sys.host, s->host) ||
		    strcmp(g->sys.build, s->build) || strcmp(g->sys.desc, s->desc))
			continue;
		for (size_t j = 0; j < g->ntests; j++)
			for (size_t r = 0; !strcmp(g->tests[j].name, name) && r < g->tests[j].nruns; r++)
				if (g->tests[j].runs[r].value == v)
					return true;
	}
	return false;
}

/* "TITLE[linux-X]  FIGURE UNIT": 1 added, 0 not that form (or a figure
 * restated), -1 out of memory. */
static int tag_line(struct imp *im, const struct imp_file *f, size_t ln)
{
	const char *l = f->line[ln - 1], *tag = strstr(l, "[linux-");
	char title[200], k[160], rest[200], *w[4], name[220], run[300];
	double v;
	if (!tag || tag == l)
		return 0;
	const char *close = strchr(tag, ']');
	if (!close || (size_t)(close - tag - 7) >= sizeof(k))
		return 0;
	snprintf(k, sizeof(k), "%.*s", (int)(close - tag - 7), tag + 7);
	snprintf(rest, sizeof(rest), "%s", close + 1);
	if (imp_words(rest, w, 4) != 2 || !imp_number(w[0], &v) || !imp_byte_unit(w[1]))
		return 0;
	imp_trim_copy(title, sizeof(title), l, (size_t)(tag - l));
	snprintf(name, sizeof(name), "byte: %s", title);
	struct imp_sys s = tag_sys(im, k);
	imp_used(im, ln);
	if (restated(im, &s, name, v)) {
		imp_note(im, f, ln, "%s of %s restates a figure read already", title, k);
		return 0;
	}
	snprintf(run, sizeof(run), "%s:%zu", f->path, ln);
	struct imp_fig fig = { name, title, w[1], true, "BYTE UNIX Benchmarks ([linux-X] lines)",
			       NULL, 0, v, ln, run, NULL, NULL, 0, NULL };
	return imp_add(im, f, &s, &fig) < 0 ? -1 : 1;
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
		int tag = tag_line(im, f, ln);
		if (tag) {
			rc = tag;
		} else if (header(&c, w, n, ln)) {
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
