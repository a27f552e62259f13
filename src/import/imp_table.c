/* kbench - import: tables of runs ("hdparm -T 37.43 37.43 ...", "dbench 5 7.97 ...")
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The form of a study that ran each test several times on several
 * kernels and machines and posted the figures in rows:
 *   ======================================================================
 *   133 MHz Pentium, DMA, 32M
 *   2.2.16-22:
 *   hdparm -T 37.10 37.76 37.98 37.54 37.32
 *   dbench 5 3.99638 4.59673 4.08813 3.90389 4.30821
 * A line after a rule of '=' names the machine; when its last
 * comma-separated part is a memory size ("32M", "mem=128M") that is the
 * memory the runs had (the tests get " mem=32M").  A line ending in ':'
 * that starts with a digit names the kernel.  A row is "hdparm -T",
 * "hdparm -t", "dbench N" or "tbench N" and then one figure per run; the
 * k-th figure of each row of a kernel is its run k.  Units: hdparm's MB
 * is 2^20 bytes (MiB/s), dbench's and tbench's 10^6 (MB/s).
 */
#include "config.h"
#include "import/imp_readers.h"
#include "import/imp_util.h"
#include "import/impstore.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct table_ctx {
	char section[200];     /* the machine line as printed */
	struct imp_sys sys;
	char mem[32];
	char mem_text[40];     /* as printed: "32M", "mem=128M" */
	bool have_kernel;
};

/* The machine line: desc and memory size. */
static void section_line(struct table_ctx *c, const char *l)
{
	memset(c, 0, sizeof(*c));
	imp_trim_copy(c->section, sizeof(c->section), l, strlen(l));
	const char *comma = strrchr(c->section, ',');
	const char *last = comma ? comma + 1 : c->section;
	last += strspn(last, " ");
	snprintf(c->mem_text, sizeof(c->mem_text), "%s", last);
	if (!strncmp(last, "mem=", 4))
		last += 4;
	size_t d = strspn(last, "0123456789");
	if (comma && d && last[d] && strchr("KMG", last[d]) && !last[d + 1]) {
		snprintf(c->mem, sizeof(c->mem), "%s", last);
		imp_trim_copy(c->sys.desc, sizeof(c->sys.desc), c->section,
			      (size_t)(comma - c->section));
	} else {
		snprintf(c->sys.desc, sizeof(c->sys.desc), "%.159s", c->section);
	}
}

static bool is_rule(const char *l)
{
	return strlen(l) >= 10 && strspn(l, "=") == strlen(l);
}

/* What a row is: its name, unit and tool, from its first words; false
 * when it is not a row. */
static bool row_kind(char **w, size_t n, const char **unit, const char **tool)
{
	double v, clients;
	if (n < 3 || !imp_number(w[2], &v))
		return false;
	if (!strcmp(w[0], "hdparm") && (!strcmp(w[1], "-T") || !strcmp(w[1], "-t"))) {
		*unit = "MiB/s";
		*tool = "hdparm";
		return true;
	}
	if ((!strcmp(w[0], "dbench") || !strcmp(w[0], "tbench")) &&
	    imp_number(w[1], &clients) && clients >= 1 && clients == (size_t)clients) {
		*unit = "MB/s";
		*tool = w[0];
		return true;
	}
	return false;
}

/* A row, every figure of it however long: 1 read, 0 not a row, -1 out
 * of memory. */
static int row(struct imp *im, const struct imp_file *f, size_t ln, struct table_ctx *c)
{
	char **w, name[64], run[400];
	size_t n;
	const char *unit, *tool;
	double v;
	void *block = imp_all_words(f->line[ln - 1], &w, &n);
	int rc = 0;
	if (!block)
		return -1;
	if (!row_kind(w, n, &unit, &tool))
		goto done;
	snprintf(name, sizeof(name), "%s %s", w[0], w[1]);
	if (!c->have_kernel) {
		imp_skip(im, f, ln, "%s: no kernel line ('2.2.18:') above it", name);
		goto done;
	}
	for (size_t i = 2; i < n; i++)
		if (!imp_number(w[i], &v)) {
			imp_skip(im, f, ln, "%s: '%s' is not a figure", name, w[i]);
			goto done;
		}
	for (size_t i = 2; i < n && rc >= 0; i++) {
		imp_number(w[i], &v);
		snprintf(run, sizeof(run), "%s | %s | run %zu", c->section, c->sys.kernel, i - 1);
		struct imp_fig fig = { name, name, unit, true, tool, c->mem[0] ? c->mem : NULL, 0,
				       v, ln, run, NULL, c->mem[0] ? c->mem_text : NULL, 0,
				       NULL };
		rc = imp_add(im, f, &c->sys, &fig) < 0 ? -1 : 1;
	}
done:
	free(block);
	return rc;
}

int imp_read_table(struct imp *im, const struct imp_file *f)
{
	struct table_ctx c;
	int added = 0;
	bool after_rule = false;
	memset(&c, 0, sizeof(c));
	for (size_t ln = 1; ln <= f->nlines; ln++) {
		const char *l = f->line[ln - 1] + strspn(f->line[ln - 1], " \t");
		size_t len = strlen(l);
		if (is_rule(l)) {
			after_rule = true;
			continue;
		}
		if (after_rule && len) {
			after_rule = false;
			if (isdigit((unsigned char)l[0]) || strchr(l, ',')) {
				section_line(&c, l);
				imp_used(im, ln);
				continue;
			}
		}
		if (c.section[0] && len > 1 && l[len - 1] == ':' && isdigit((unsigned char)l[0])) {
			imp_trim_copy(c.sys.kernel, sizeof(c.sys.kernel), l, len - 1);
			c.have_kernel = true;
			imp_used(im, ln);
			continue;
		}
		int rc = row(im, f, ln, &c);
		if (rc < 0)
			return -1;
		added += rc;
	}
	return added;
}
