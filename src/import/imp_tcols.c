/* kbench - import: dbench rows of columns and Throughput lines behind a label
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Two forms of imp_tput.c's reader where the line itself says whose run
 * it is: "dbench 16:   99.9868 MB/sec   179.243 MB/sec 16 procs" under a
 * line naming the columns ("before after"), one run a column, and
 * "2.4.18-pre3   Throughput 12.0448 MB/sec 64 procs" (a kernel), "Before:
 * Throughput ..." (a heading) or "dbench 16: Throughput ..." (the tool and
 * its count) before a Throughput line.
 */
#include "config.h"
#include "import/imp_util.h"
#include "import/impstore.h"
#include "import/imp_tcols.h"
#include "import/imp_tline.h"

#include <stdio.h>
#include <string.h>

/* The column names over a row of columns: the nearest line above ln
 * that is neither blank nor a row (at most two such up) whose words, k of them, hold no digit
 * ("before after"); into cols (k x 64 bytes).  false when none. */
static bool column_names(const struct imp_file *f, size_t ln, size_t k, char cols[][64])
{
	for (size_t i = ln - 1, seen = 0; i >= 1 && seen < 2; i--) {
		char copy[256], *w[8];
		if (!f->line[i - 1][strspn(f->line[i - 1], " \t")] || strstr(f->line[i - 1], "MB/sec"))
			continue;  /* blank, or a row above: the header is over them all */
		seen++;
		snprintf(copy, sizeof(copy), "%s", f->line[i - 1]);
		size_t n = imp_words(copy, w, 8);
		bool digits = false;
		for (size_t j = 0; j < n; j++)
			digits |= strpbrk(w[j], "0123456789") != NULL;
		if (n != k || digits)
			continue;
		for (size_t j = 0; j < k; j++)
			snprintf(cols[j], 64, "%s", w[j]);
		return true;
	}
	return false;
}

/* "dbench 16:   99.9868 MB/sec   179.243 MB/sec 16 procs" under a line
 * naming its columns ("before after"): one run a column, each column a
 * system of its own, the count from the row.  0 when l is not that form. */
int tput_columns_row(struct imp *im, const struct imp_file *f, size_t ln, const char *l,
		       const struct tput_ctx *c)
{
	char copy[512], *w[24], cols[4][64], name[64], tool[80], run[300];
	double v, clients;
	snprintf(copy, sizeof(copy), "%s", l);
	size_t n = imp_words(copy, w, 24), k = 0;
	size_t wl = n ? strlen(w[1 < n ? 1 : 0]) : 0;
	if (n < 6 || (strcmp(w[0], "dbench") && strcmp(w[0], "tbench")) || !wl ||
	    w[1][wl - 1] != ':')
		return 0;
	w[1][wl - 1] = '\0';
	if (!imp_number(w[1], &clients) || clients < 1 || clients != (size_t)clients)
		return 0;
	while (2 + 2 * k + 1 < n && k < 4 && imp_number(w[2 + 2 * k], &v) &&
	       !strcmp(w[3 + 2 * k], "MB/sec"))
		k++;
	if (k < 2)
		return 0;
	if (!column_names(f, ln, k, cols)) {
		imp_skip(im, f, ln, "%zu figures a row and no line above naming the columns: "
			 "whose run each is, is not known", k);
		return 0;
	}
	snprintf(name, sizeof(name), "%s %zu", w[0], (size_t)clients);
	snprintf(tool, sizeof(tool), "%s%s", w[0], c->ver);
	for (size_t j = 0; j < k; j++) {
		struct imp_sys sys = tput_sys_of(f, ln, tput_ctx_sys(c, f, ln));
		char d[sizeof(sys.desc)];
		snprintf(d, sizeof(d), "%s", sys.desc);
		snprintf(sys.desc, sizeof(sys.desc), "%.80s%s%.60s", d, d[0] ? ", " : "", cols[j]);
		imp_number(w[2 + 2 * j], &v);
		snprintf(run, sizeof(run), "%s:%zu:%zu", f->path, ln, j + 1);
		struct imp_fig fig = { name, name, "MB/s", true, tool, NULL, 0, v, ln, run, NULL,
				       NULL, 0, NULL };
		if (imp_add(im, f, &sys, &fig) < 0)
			return -1;
	}
	return (int)k;
}

/* A Throughput line behind a label that says whose run it is: a kernel
 * ("2.4.18-pre3   Throughput 12.0448 MB/sec 64 procs", a table of
 * kernels one a row) or a heading ("Before: Throughput ...", "After:
 * Throughput ..."), or what printed it ("dbench 16: Throughput ..."):
 * *done, and the run added in that system; else not *done. */
int tput_labelled(struct imp *im, const struct imp_file *f, size_t ln, const char *l,
		    const struct tput_ctx *c, bool *done)
{
	const char *t = strstr(l, "Throughput ");
	char prefix[160], k[160];
	*done = false;
	if (!t || t == l || !strchr(" \t", t[-1]) || (size_t)(t - l) >= sizeof(prefix))
		return 0;
	imp_trim_copy(prefix, sizeof(prefix), l, (size_t)(t - l));
	struct tput_ctx row = *c;
	size_t pl = strlen(prefix), count;
	const char *tool = !strncmp(prefix, "dbench ", 7) ? "dbench" :
			   !strncmp(prefix, "tbench ", 7) ? "tbench" : NULL;
	if (tool && pl && prefix[pl - 1] == ':' &&
	    (prefix[pl - 1] = '\0', count = tput_count_after(prefix, tool)) != 0) {
		/* "dbench 16: Throughput ...": the tool and its count say
		 * what printed the run, the system is the lines' above */
		if (strcmp(row.tool ? row.tool : "", tool))
			row.ver[0] = '\0';
		row.tool = tool;
		row.clients = count;
	} else if (!strpbrk(prefix, " \t") && imp_kernel_word(prefix, k, sizeof(k))) {
		memset(&row.sys, 0, sizeof(row.sys));
		snprintf(row.sys.kernel, sizeof(row.sys.kernel), "%s", k);
		row.qsys = row.sys;
	} else if (prefix[0] && prefix[strlen(prefix) - 1] == ':' &&
		   imp_heading_line(prefix, k, sizeof(k))) {
		row.sys = row.qsys = *tput_ctx_sys(c, f, ln);
		snprintf(row.sys.desc, sizeof(row.sys.desc), "%s", k);
		row.qsys = row.sys;
	} else {
		return 0;
	}
	*done = true;
	return tput_throughput(im, f, ln, t, &row);
}

