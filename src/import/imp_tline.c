/* kbench - import: one dbench or tbench "Throughput" line read
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The figure of one Throughput line (see imp_tput.c for the forms), its
 * client count (the line's "N procs", else the count above it, never a
 * number that cannot be one) and its system (a label after "N procs", the
 * lines above, a quoted line's apart, a kernel a trace prints right under
 * it).  The floor under the line walker (imp_tput.c) and the rows of
 * columns and labelled lines (imp_tcols.c): it asks nothing of either.
 */
#include "config.h"
#include "import/imp_tline.h"
#include "import/imp_tblock.h"
#include "import/imp_util.h"
#include "import/impstore.h"
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Does l name tool as a word ("dbench", "./dbench", "dbench:")? */
bool tput_names_word(const char *l, const char *tool)
{
	size_t n = strlen(tool);
	for (const char *p = strcasestr(l, tool); p; p = strcasestr(p + 1, tool)) {
		bool before = p == l || !isalnum((unsigned char)p[-1]);
		bool after = !isalnum((unsigned char)p[n]);
		if (before && after)
			return true;
	}
	return false;
}

/* The system the lines above line ln name for it: the quoted lines' for
 * a quoted line, the poster's own for the others. */
const struct imp_sys *tput_ctx_sys(const struct tput_ctx *c, const struct imp_file *f,
				     size_t ln)
{
	return (f->flag[ln - 1] & IMP_LINE_QUOTED) ? &c->qsys : &c->sys;
}

/* Can v be a count of clients: a whole number from 1 to a million (the
 * bound the counts above a figure keep too)? */
static bool is_count(double v)
{
	return v >= 1 && v <= 1e6 && v == (size_t)v;
}

/* The number after the word tool in l ("./dbench 16", "time dbench 40"),
 * or 0. */
size_t tput_count_after(const char *l, const char *tool)
{
	char copy[256], *w[16];
	double v;
	snprintf(copy, sizeof(copy), "%s", l);
	size_t n = imp_words(copy, w, 16);
	for (size_t i = 0; i + 1 < n; i++) {
		const char *b = strrchr(w[i], '/') ? strrchr(w[i], '/') + 1 : w[i];
		size_t len = strlen(w[i + 1]);
		while (len && strchr("),:;'`", w[i + 1][len - 1]))  /* "(./dbench 32)" */
			w[i + 1][--len] = '\0';
		if (!strcmp(b, tool) && imp_number(w[i + 1], &v) && is_count(v))
			return (size_t)v;
	}
	return 0;
}

/* The system of a figure on line ln: the one the lines above named, and
 * "quoted" when the line is behind a mail quote prefix: a quoted figure
 * is another post's, never pooled with the poster's own. */
struct imp_sys tput_sys_of(const struct imp_file *f, size_t ln, const struct imp_sys *sys)
{
	struct imp_sys s = *sys;
	if (f->flag[ln - 1] & IMP_LINE_QUOTED) {
		char d[sizeof(s.desc)];
		snprintf(d, sizeof(d), "%s", s.desc);
		snprintf(s.desc, sizeof(s.desc), "quoted%s%.150s", d[0] ? ", " : "", d);
	}
	return s;
}

/* The label after "N procs" on a Throughput line ("16 procs  2.4.10-ac",
 * "8 procs  -- with patch", "16 procs    ext3 (patched but disabled)")
 * names the line's system: a kernel alone is its kernel, other words its
 * heading under the kernel above.  dbench 4's "max_latency=..." is no
 * label.  w: the n words after "procs"; sys is changed in place. */
static void label_sys(char **w, size_t n, struct imp_sys *sys)
{
	char label[160] = "", k[160];
	for (size_t i = 0; i < n; i++)
		snprintf(label + strlen(label), sizeof(label) - strlen(label), "%s%s", i ? " " : "",
			 w[i]);
	const char *l = label + strspn(label, "-:,;= \t");
	double v;
	if (!*l || !strncmp(l, "max_latency", 11) ||
	    (!isalpha((unsigned char)*l) && !isdigit((unsigned char)*l)) ||
	    imp_number(w[0] + strspn(w[0], "-:,;="), &v))
		return;  /* no words, dbench 4's latency, or a figure: no label */
	if (!strchr(l, ' ') && imp_kernel_word(l, k, sizeof(k))) {
		memset(sys, 0, sizeof(*sys));
		snprintf(sys->kernel, sizeof(sys->kernel), "%s", k);
	} else {
		snprintf(sys->desc, sizeof(sys->desc), "%s", l);
	}
}

/* A script's trace printed right under a result, with no blank line
 * between ("+ uname -r" and the release on the next line), names the
 * kernel of that result when the lines above named none: into k (n
 * bytes), or false. */
static bool uname_below(const struct imp_file *f, size_t ln, char *k, size_t n)
{
	unsigned q = f->flag[ln - 1] & IMP_LINE_QUOTED;
	for (size_t i = ln + 1; i < f->nlines && i <= ln + 6; i++) {
		const char *l = f->line[i - 1];
		size_t len = strlen(l);
		if (!l[strspn(l, " \t")] || (f->flag[i - 1] & IMP_LINE_QUOTED) != q)
			return false;
		while (len && isspace((unsigned char)l[len - 1]))
			len--;
		if (len < 8 || strncmp(l + len - 8, "uname -r", 8) ||
		    (len > 8 && !strchr(" \t$#+>", l[len - 9])))
			continue;
		struct imp_sys u = { 0 };
		if ((f->flag[i] & IMP_LINE_QUOTED) != q || !imp_kernel_line(f->line[i], &u) ||
		    strlen(u.kernel) >= n)
			return false;
		snprintf(k, n, "%s", u.kernel);
		return true;
	}
	return false;
}

/* Skip line ln, whose "WORD procs" (or clients) can be no count. */
static void no_count(struct imp *im, const struct imp_file *f, size_t ln, const char *word,
		     const char *what)
{
	imp_skip(im, f, ln, "'%s %s' is no count of clients (a whole number from 1 to 1000000)",
		 word, what);
}

int tput_throughput(struct imp *im, const struct imp_file *f, size_t ln, const char *l,
		      const struct tput_ctx *c)
{
	char **w, name[64], tool[80], run[300];
	size_t n, procs = 0;
	void *block = imp_all_words(l, &w, &n);
	int rc = 0;
	double v, p;
	if (!block)
		return -1;
	if (n < 3 || strcmp(w[2], "MB/sec") || !imp_number(w[1], &v)) {
		imp_skip(im, f, ln, "a Throughput line without 'N MB/sec'");
		goto done;
	}
	size_t at = 0;  /* the word after "N procs" */
	for (size_t i = 3; i < n; i++) {
		bool counted = !strcmp(w[i], "procs") || !strcmp(w[i], "clients");
		const char *d = w[i - 1] + strspn(w[i - 1], "+-.");
		bool numeric = d - w[i - 1] <= 2 && isdigit((unsigned char)*d);
		if (!counted || (!imp_number(w[i - 1], &p) && !numeric))
			continue;
		/* "0 procs", "-3", "1.5", "0x10", 20 digits: no run has that
		 * many clients, and no count above may stand in for the line's */
		if (!imp_number(w[i - 1], &p) || !is_count(p)) {
			no_count(im, f, ln, w[i - 1], w[i]);
			goto done;
		}
		if (!strcmp(w[i], "procs")) {
			procs = (size_t)p;
			at = i + 1;
		}
	}
	/* a mailer that wrapped the line before its last word left "procs"
	 * alone on the next line ("... MBit/sec)  16" / "procs") */
	if (!procs && n > 3 && imp_number(w[n - 1], &p) &&
	    ln < f->nlines && (f->flag[ln] & IMP_LINE_QUOTED) == (f->flag[ln - 1] & IMP_LINE_QUOTED)) {
		const char *next = f->line[ln] + strspn(f->line[ln], " \t");
		size_t len = strlen(next);
		while (len && isspace((unsigned char)next[len - 1]))
			len--;
		if (len == 5 && !strncmp(next, "procs", 5)) {
			if (!is_count(p)) {
				no_count(im, f, ln, w[n - 1], "procs");
				goto done;
			}
			procs = (size_t)p;
			imp_used(im, ln + 1);
		}
	}
	/* zsh's time prints the command after the run, on the next line
	 * ("./dbench 16  12.11s user 16.29s system 181% cpu 15.646 total"):
	 * that run's own count, before any line above */
	if (!procs && c->tool && ln < f->nlines &&
	    (f->flag[ln] & IMP_LINE_QUOTED) == (f->flag[ln - 1] & IMP_LINE_QUOTED) &&
	    strstr(f->line[ln], "user") && tput_names_word(f->line[ln], c->tool))
		procs = tput_count_after(f->line[ln], c->tool);
	if (!procs)
		procs = c->clients;
	if (!procs) {
		imp_skip(im, f, ln, "no 'N procs', and no 'dbench N' or 'N clients started' "
			 "above: the number of clients is not given");
		goto done;
	}
	if (!c->tool) {
		imp_skip(im, f, ln, "no line above names dbench or tbench: which printed it is "
			 "not known");
		goto done;
	}
	snprintf(name, sizeof(name), "%s %zu", c->tool, procs);
	snprintf(tool, sizeof(tool), "%s%s", c->tool, c->ver);
	snprintf(run, sizeof(run), "%s:%zu", f->path, ln);
	struct imp_fig fig = { name, name, "MB/s", true, tool, NULL, 0, v, ln, run, NULL, NULL,
			       0, NULL };
	struct imp_sys own = *tput_ctx_sys(c, f, ln);
	if (!tput_rows_sys(im, f, ln, c, name, &own))
		goto done;
	if (at && at < n)
		label_sys(w + at, n - at, &own);
	struct imp_sys sys = tput_sys_of(f, ln, &own);
	if (!sys.kernel[0] && !c->split)
		uname_below(f, ln, sys.kernel, sizeof(sys.kernel));
	rc = imp_add(im, f, &sys, &fig) < 0 ? -1 : 1;
done:
	free(block);
	return rc;
}
