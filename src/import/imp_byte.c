/* kbench - import: BYTE UNIX Benchmarks 3.x and 4.x reports
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The report BYTE's Run script writes (and testers posted):
 *   BYTE UNIX Benchmarks (Version 4.1.0)
 *   System -- Linux saturn 2.4.0-test6 #30 SMP Wed Aug 2 ... 2000 i686 unknown
 *   Start Benchmark Run: Thu Aug 3 11:46:17 BST 2000
 *   Dhrystone 2 using register variables 1170683.8 lps (10.0 secs, 10 samples)
 *   ...
 *   INDEX VALUES
 *   TEST BASELINE RESULT INDEX
 *   Dhrystone 2 using register variables 116700.0 1170683.8 100.3
 *   =========
 *   FINAL SCORE 136.5
 * A result line is the test's title, the figure, its unit (lps, lpm,
 * KBps, MWIPS, KWIPS; glued to the figure too, "1170683.8lps") and
 * optionally "(T secs, N samples)", glued to the unit too ("lps(10.0",
 * the rest wrapped to the next line).  An index line gives the test's
 * baseline; one whose title lost a letter in the mail is matched to the
 * one result line whose figure its RESULT column is.  The score the
 * report prints is the score: "FINAL SCORE" (BYTE 4, the geometric mean
 * of result / baseline x 10) as the test "byte: FINAL SCORE", BYTE 3's
 * "AVERAGE" (the mean of its INDEX column) as "byte: AVERAGE", unit
 * "index".  kbench works each out again from the lines it read; where
 * that differs by more than the rounding, the printed figure is kept
 * and carries the caveat printed_differs (imp_caveat).  No score is
 * made up for a report that prints none.  A mailer that wrapped the
 * score's line leaves "FINAL SCORE" alone with the figure alone on the
 * next line; that is the same score, as an index line's INDEX alone on
 * the next line is its index.  A short line set between rules
 * just above the banner ("kernel 2.5.51 with mm2 patch") heads the
 * report: it is kept as the system's description, so that two reports
 * of one uname release under two headings stay two systems.
 */
#include "config.h"
#include "import/imp_readers.h"
#include "import/imp_util.h"
#include "import/impstore.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_RESULTS 80

struct byte_res {
	char title[200];
	char unit[8];
	double value, baseline, index;  /* index: as printed, or 0 */
	size_t line;
};

struct byte_report {
	struct imp_sys sys;
	char tool[80];
	char run[64];
	char date[120];
	struct byte_res r[MAX_RESULTS];
	size_t n;
	bool in_index;
	size_t start;
};

/* Words w[from..to-1] joined by one blank into dst (n bytes). */
static void join(char *dst, size_t n, char **w, size_t from, size_t to)
{
	dst[0] = '\0';
	for (size_t i = from; i < to; i++)
		snprintf(dst + strlen(dst), n - strlen(dst), "%s%s", i > from ? " " : "", w[i]);
}

static struct byte_res *find_res(struct byte_report *b, const char *title)
{
	for (size_t i = 0; i < b->n; i++)
		if (!strcmp(b->r[i].title, title))
			return &b->r[i];
	return NULL;
}

/* A word that is a figure with BYTE's unit glued to it ("1170683.8lps"):
 * split in place into the figure (w) and the unit (returned), or NULL. */
static const char *glued_unit(char *w)
{
	static const char *const units[] = { "lps", "lpm", "KBps", "MWIPS", "KWIPS" };
	size_t n = strlen(w);
	double v;
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		size_t u = strlen(units[i]);
		if (n > u && !strcmp(w + n - u, units[i])) {
			char save = w[n - u];
			w[n - u] = '\0';
			if (imp_number(w, &v))
				return units[i];
			w[n - u] = save;
		}
	}
	return NULL;
}

/* A result line: 1 read, 0 not one, -1 one that cannot be read. */
static int result_line(struct imp *im, const struct imp_file *f, struct byte_report *b,
		       size_t ln)
{
	char copy[1024], *w[64];
	snprintf(copy, sizeof(copy), "%s", f->line[ln - 1]);
	size_t n = imp_words(copy, w, 64);
	double v;
	for (size_t u = 1; u < n; u++) {
		const char *unit = w[u];
		size_t fig = u - 1, title_end = u - 1;
		char *paren = strchr(w[u], '(');
		bool bracket = false;  /* "lps(10.0": the unit, its bracket glued on */
		if (paren && paren > w[u]) {
			*paren = '\0';
			bracket = imp_byte_unit(w[u]);
			if (!bracket)
				*paren = '(';
		}
		if (!imp_byte_unit(w[u]) && (unit = glued_unit(w[u])) != NULL) {
			fig = u;
			title_end = u;
		} else if (!imp_byte_unit(w[u]) || u < 2) {
			continue;
		}
		if (!bracket && u + 1 < n && w[u + 1][0] != '(')
			continue;
		if (!title_end || !imp_number(w[fig], &v)) {
			imp_skip(im, f, ln, "no number before the unit %s", unit);
			return -1;
		}
		if (b->n == MAX_RESULTS) {
			imp_skip(im, f, ln, "more than %d results in one report", MAX_RESULTS);
			return -1;
		}
		struct byte_res *r = &b->r[b->n];
		join(r->title, sizeof(r->title), w, 0, title_end);
		if (find_res(b, r->title)) {
			imp_skip(im, f, ln, "%s a second time in one report", r->title);
			return -1;
		}
		snprintf(r->unit, sizeof(r->unit), "%s", unit);
		r->value = v;
		r->baseline = 0;
		r->index = 0;
		r->line = ln;
		b->n++;
		imp_used(im, ln);
		return 1;
	}
	return 0;
}

/* The one result without a baseline yet whose figure is res, or NULL:
 * the result an index line names with a title the mail mangled. */
static struct byte_res *find_by_value(struct byte_report *b, double res)
{
	struct byte_res *found = NULL;
	for (size_t i = 0; i < b->n; i++)
		if (!b->r[i].baseline && b->r[i].value == res) {
			if (found)
				return NULL;
			found = &b->r[i];
		}
	return found;
}

/* The figure alone on line ln, or false. */
static bool lone_number(const struct imp_file *f, size_t ln, double *v)
{
	char copy[200], *w[2];
	if (ln > f->nlines || strlen(f->line[ln - 1]) >= sizeof(copy))
		return false;
	snprintf(copy, sizeof(copy), "%s", f->line[ln - 1]);
	return imp_words(copy, w, 2) == 1 && imp_number(w[0], v);
}

/* An index line "TITLE BASELINE RESULT INDEX": the baseline, checked.
 * A mailer that wrapped it left INDEX alone on the next line: *wrapped
 * is then set, that line being read too. */
static void index_line(struct imp *im, const struct imp_file *f, struct byte_report *b, size_t ln,
		       bool *wrapped)
{
	char copy[1024], *w[64], title[200];
	snprintf(copy, sizeof(copy), "%s", f->line[ln - 1]);
	size_t n = imp_words(copy, w, 64), cols = 3;
	double base, res, idx;
	*wrapped = false;
	if (n >= 3 && !imp_number(w[n - 3], &base) && imp_number(w[n - 2], &base) &&
	    imp_number(w[n - 1], &res) && lone_number(f, ln + 1, &idx)) {
		*wrapped = true;
		cols = 2;
	} else if (n < 4 || !imp_number(w[n - 3], &base) || !imp_number(w[n - 2], &res) ||
		   !imp_number(w[n - 1], &idx)) {
		return;
	}
	join(title, sizeof(title), w, 0, n - cols);
	struct byte_res *r = find_res(b, title);
	if (!r && (r = find_by_value(b, res)) != NULL)
		imp_note(im, f, ln, "index of '%s' read as %s's (line %zu): the same result, %g",
			 title, r->title, r->line, res);
	if (!r) {
		imp_skip(im, f, ln, "index of %s, a test the report gives no result for", title);
		return;
	}
	if (res != r->value) {
		imp_skip(im, f, ln, "%s: the index line's result %g is not the report's %g (line "
			 "%zu)", title, res, r->value, r->line);
		return;
	}
	if (!(base > 0)) {
		imp_skip(im, f, ln, "%s: a baseline of %g", title, base);
		return;
	}
	imp_used(im, ln);
	if (*wrapped)
		imp_used(im, ln + 1);
	r->baseline = base;
	r->index = idx;
	/* BYTE 3's index is result / baseline, BYTE 4's ten times that */
	bool byte3 = strstr(b->tool, "Benchmarks 3.") != NULL;
	double again = res / base * (byte3 ? 1 : 10);
	if (fabs(again - idx) > 0.05 + 1e-9)
		imp_note(im, f, ln, "%s: the printed index %.1f is not %.1f (result / baseline%s)",
			 title, idx, again, byte3 ? "" : " x 10");
}

/* kbench's own working of the report's score from the index lines read
 * (BYTE 4: the geometric mean of result / baseline x 10; BYTE 3's
 * AVERAGE: the mean of the printed indexes); NAN when none was read. */
static double worked_score(const struct byte_report *b, bool average, size_t *nidx)
{
	double sum = 0;
	*nidx = 0;
	for (size_t i = 0; i < b->n; i++) {
		const struct byte_res *r = &b->r[i];
		if (!(r->baseline > 0) || !(r->value > 0))
			continue;
		sum += average ? r->index : log(r->value / r->baseline * 10);
		(*nidx)++;
	}
	if (!*nidx)
		return NAN;
	return average ? sum / (double)*nidx : exp(sum / (double)*nidx);
}

/* The report's figures to im: each result, and the score it printed
 * (title "FINAL SCORE" or "AVERAGE" at score_line; 0: none printed). */
static int flush(struct imp *im, const struct imp_file *f, struct byte_report *b,
		 const char *title, double printed, size_t score_line)
{
	for (size_t i = 0; i < b->n; i++) {
		struct byte_res *r = &b->r[i];
		char name[220];
		snprintf(name, sizeof(name), "byte: %s", r->title);
		struct imp_fig fig = { name, r->title, r->unit, true, b->tool, NULL, r->baseline,
				       r->value, r->line, b->run, b->date[0] ? b->date : NULL,
				       NULL, 0, NULL };
		if (imp_add(im, f, &b->sys, &fig) < 0)
			return -1;
	}
	if (score_line) {
		char name[40];
		size_t nidx;
		bool average = !strcmp(title, "AVERAGE");
		double again = worked_score(b, average, &nidx);
		snprintf(name, sizeof(name), "byte: %s", title);
		struct imp_fig fig = { name, title, "index", true, b->tool, NULL, 0, printed,
				       score_line, b->run, b->date[0] ? b->date : NULL, NULL, 0,
				       NULL };
		if (imp_add(im, f, &b->sys, &fig) < 0)
			return -1;
		if (!(fabs(again - printed) <= 0.05 + 1e-9)) {
			imp_note(im, f, score_line, "%s printed %.1f, worked out %.1f from %zu "
				 "indexes: the printed one is kept", title, printed, again, nidx);
			if (imp_caveat(im, "printed_differs", printed, again, "%s printed %.1f; "
				       "worked out from the %zu index lines read: %.1f", title,
				       printed, nidx, again) < 0)
				return -1;
		}
	}
	b->n = 0;
	return 0;
}

/* "FINAL SCORE X" (BYTE 4) or "AVERAGE X" (BYTE 3): the title and the
 * figure as printed; false when l is neither.  next is the line after
 * l, or NULL: "FINAL SCORE" alone with the figure alone on the next
 * line (a wrapping mailer's) sets *wrapped. */
static bool score_line(const char *l, const char *next, const char **title, double *v,
		       bool *wrapped)
{
	char copy[200], *w[4];
	snprintf(copy, sizeof(copy), "%s", l);
	size_t n = imp_words(copy, w, 4);
	*wrapped = false;
	if (n == 3 && !strcmp(w[0], "FINAL") && !strcmp(w[1], "SCORE") && imp_number(w[2], v)) {
		*title = "FINAL SCORE";
		return true;
	}
	if (n == 2 && !strcmp(w[0], "FINAL") && !strcmp(w[1], "SCORE") && next) {
		char copy2[200], *w2[2];
		snprintf(copy2, sizeof(copy2), "%s", next);
		if (imp_words(copy2, w2, 2) == 1 && imp_number(w2[0], v)) {
			*title = "FINAL SCORE";
			*wrapped = true;
			return true;
		}
	}
	if (n == 2 && !strcmp(w[0], "AVERAGE") && imp_number(w[1], v)) {
		*title = "AVERAGE";
		return true;
	}
	return false;
}

/* Is l a rule of dashes, underscores or equals signs (mail's "----")? */
static bool rule_line(const char *l)
{
	l += strspn(l, " \t");
	size_t n = strspn(l, "-_=");
	return n >= 2 && !l[n + strspn(l + n, " \t")];
}

/* The heading of the report whose banner is at line ln: the one short
 * line (at most 8 words) that the rules and blank lines just above the
 * banner set apart, with a rule above it too; into out, or false. */
static bool heading_above(const struct imp_file *f, size_t ln, char *out, size_t n)
{
	size_t k = ln - 1, at = 0;
	bool ruled = false;
	while (k >= 1 && ln - k <= 8) {
		const char *l = f->line[k - 1];
		bool blank = !l[strspn(l, " \t")];
		if (!blank && !rule_line(l)) {
			at = k;
			break;
		}
		ruled = ruled || !blank;
		k--;
	}
	if (!at || !ruled)
		return false;  /* nothing apart, or no rule between it and the banner */
	for (k = at - 1; k >= 1 && at - k <= 3; k--) {
		const char *l = f->line[k - 1];
		if (rule_line(l)) {
			char copy[200], *w[10];
			const char *h = f->line[at - 1];
			h += strspn(h, " \t");
			if (strlen(h) >= sizeof(copy) || strlen(h) >= n)
				return false;
			snprintf(copy, sizeof(copy), "%s", h);
			if (imp_words(copy, w, 10) > 8)
				return false;
			imp_trim_copy(out, n, h, strlen(h));
			return true;
		}
		if (l[strspn(l, " \t")])
			return false;
	}
	return false;
}

int imp_read_byte(struct imp *im, const struct imp_file *f)
{
	char heading[160] = "";
	struct byte_report *b = calloc(1, sizeof(*b));
	bool open = false;
	int added = 0;
	if (!b)
		return -1;
	for (size_t ln = 1; ln <= f->nlines; ln++) {
		const char *l = f->line[ln - 1];
		const char *ver = strstr(l, "BYTE UNIX Benchmarks (Version ");
		const char *title;
		double score;
		bool wrapped;
		if (ver) {
			if (open && b->n && flush(im, f, b, "", 0, 0) < 0)
				goto oom;
			memset(b, 0, sizeof(*b));
			open = true;
			b->start = ln;
			if (!heading_above(f, ln, heading, sizeof(heading)))
				heading[0] = '\0';
			ver += strlen("BYTE UNIX Benchmarks (Version ");
			snprintf(b->tool, sizeof(b->tool), "BYTE UNIX Benchmarks %.*s",
				 (int)strcspn(ver, ")"), ver);
			snprintf(b->run, sizeof(b->run), "%s:%zu", f->path, ln);
			imp_used(im, ln);
			continue;
		}
		if (!open)
			continue;
		const char *sys = strstr(l, "System -- ");
		if (sys && !b->n) {
			if (imp_uname(sys + strlen("System -- "), &b->sys) < 0) {
				imp_skip(im, f, ln, "not uname -a's form: the kernel is unknown");
			} else {
				imp_used(im, ln);
				snprintf(b->sys.desc, sizeof(b->sys.desc), "%s", heading);
			}
		} else if (!strncmp(l + strspn(l, " \t"), "Start Benchmark Run: ", 21)) {
			l += strspn(l, " \t");
			imp_trim_copy(b->date, sizeof(b->date), l + 21, strlen(l + 21));
			imp_used(im, ln);
		} else if (strstr(l, "INDEX VALUES")) {
			b->in_index = true;
			imp_used(im, ln);
		} else if (score_line(l, ln < f->nlines ? f->line[ln] : NULL, &title, &score,
				      &wrapped)) {
			imp_used(im, ln);
			if (wrapped)
				imp_used(im, ++ln);
			int n0 = (int)b->n;
			if (flush(im, f, b, title, score, ln) < 0)
				goto oom;
			added += n0;
			open = false;
		} else if (b->in_index && !strncmp(l + strspn(l, " \t"), "SUM of ", 7)) {
			imp_used(im, ln);  /* BYTE 3's sum of its indexes: the AVERAGE says it */
		} else if (b->in_index) {
			index_line(im, f, b, ln, &wrapped);
			ln += wrapped;
		} else if (strstr(l, "no measured results")) {
			char title[200];
			imp_trim_copy(title, sizeof(title), l,
				      (size_t)(strstr(l, "no measured results") - l));
			imp_skip(im, f, ln, "%s: the report has no figure for it", title);
		} else if (result_line(im, f, b, ln) < 0) {
			continue;
		}
	}
	if (open && b->n) {
		added += (int)b->n;
		if (flush(im, f, b, "", 0, 0) < 0)
			goto oom;
	}
	free(b);
	return added;
oom:
	free(b);
	return -1;
}
