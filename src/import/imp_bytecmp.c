/* kbench - import: BYTE runs compared line by line ("Test || A -> B +x%")
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The form testers posted two BYTE runs in (seed of kbench compare
 * --style lkml):
 *   From:
 *   * Linux pimpinel.fluido.org 1.3.11 #22 Tue Jul 18 22:26:10 MET DST 1995 i486
 *   * Wed Jul 19 09:50:58 MET DST 1995
 *   To:
 *   * Linux pimpinel.fluido.org 1.3.12 #23 Wed Jul 19 21:55:21 MET DST 1995 i486
 *   * Wed Jul 19 22:00:21 MET DST 1995
 *   Results
 *   Pipe-based Context Switching Test || 4804.9 -> 9969.6 +107.49%
 * Each line gives a figure of the From run (A) and of the To run (B); the
 * run is told by its uname line and date, so a To run shown against
 * several From runs is kept once.  The percentage is worked out again
 * from A and B and checked (--verbose names a difference).  The lines do
 * not give units: they are BYTE's (KBps for the File tests; lpm for Shell
 * scripts, C Compiler and Dc; lps for the rest), except Whetstone's,
 * which BYTE's versions print in KWIPS or MWIPS: such a line is skipped.
 */
#include "config.h"
#include "import/imp_readers.h"
#include "import/imp_util.h"
#include "import/impstore.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct side {
	struct imp_sys sys;
	char date[120];
	char run[440];
	bool known;
};

/* BYTE's unit of a test by its title; NULL when the title does not say. */
static const char *unit_of(const char *title)
{
	if (strstr(title, "Whetstone"))
		return NULL;
	if (!strncmp(title, "File ", 5))
		return "KBps";
	if (!strncasecmp(title, "Shell scripts", 13) || !strncmp(title, "C Compiler", 10) ||
	    !strncmp(title, "Dc:", 3))
		return "lpm";
	return "lps";
}

/* "* TEXT" at line ln: TEXT into dst; false when ln is not such a line. */
static bool star_line(const struct imp_file *f, size_t ln, char *dst, size_t n)
{
	if (ln > f->nlines)
		return false;
	const char *l = f->line[ln - 1];
	l += strspn(l, " \t");
	if (*l != '*' || l[1] != ' ')
		return false;
	imp_trim_copy(dst, n, l + 2, strlen(l + 2));
	return true;
}

/* A From: or To: block at line ln (the header's line): 0 read, -1 not. */
static int header(struct imp *im, const struct imp_file *f, size_t ln, struct side *s)
{
	char who[300];
	memset(s, 0, sizeof(*s));
	if (!star_line(f, ln + 1, who, sizeof(who)) || imp_uname(who, &s->sys) < 0) {
		imp_skip(im, f, ln, "not followed by a '* Linux HOST RELEASE #BUILD ...' line");
		return -1;
	}
	star_line(f, ln + 2, s->date, sizeof(s->date));
	snprintf(s->run, sizeof(s->run), "%s | %s", who, s->date);
	s->known = true;
	imp_used(im, ln);
	imp_used(im, ln + 1);
	if (s->date[0])
		imp_used(im, ln + 2);
	return 0;
}

/* One "TITLE || A -> B +x%" line. */
static int cmp_line(struct imp *im, const struct imp_file *f, size_t ln, const struct side *from,
		    const struct side *to)
{
	const char *l = f->line[ln - 1], *bars = strstr(l, "||");
	char title[200], copy[300], *w[8], pct[32];
	double a, b, p;
	imp_trim_copy(title, sizeof(title), l, (size_t)(bars - l));
	snprintf(copy, sizeof(copy), "%s", bars + 2);
	size_t n = imp_words(copy, w, 8);
	if (n < 3 || strcmp(w[1], "->") || !imp_number(w[0], &a) || !imp_number(w[2], &b)) {
		imp_skip(im, f, ln, "not 'TEST || A -> B': two figures and an arrow");
		return 0;
	}
	if (!from->known || !to->known) {
		imp_skip(im, f, ln, "no From: and To: block before it says whose figures these are");
		return 0;
	}
	const char *unit = unit_of(title);
	if (!unit) {
		imp_skip(im, f, ln, "%s: BYTE's versions print it in KWIPS or MWIPS, and the line "
			 "does not say which", title);
		return 0;
	}
	if (n >= 4) {
		size_t len = strlen(w[3]);
		snprintf(pct, sizeof(pct), "%+.2f%%", a != 0 ? 100 * (b - a) / a : 0);
		if (len && w[3][len - 1] == '%' && imp_number((w[3][len - 1] = '\0', w[3]), &p)) {
			w[3][len - 1] = '%';
			if (strcmp(pct, w[3]))
				imp_note(im, f, ln, "%s: printed %s, worked out %s", title, w[3], pct);
		}
	}
	char name[220];
	snprintf(name, sizeof(name), "byte: %s", title);
	const char *tool = "BYTE UNIX Benchmarks";
	struct imp_fig fa = { name, title, unit, true, tool, NULL, 0, a, ln, from->run,
			      from->date[0] ? from->date : NULL, NULL, 0, NULL };
	struct imp_fig fb = { name, title, unit, true, tool, NULL, 0, b, ln, to->run,
			      to->date[0] ? to->date : NULL, NULL, 0, NULL };
	if (imp_add(im, f, &from->sys, &fa) < 0 || imp_add(im, f, &to->sys, &fb) < 0)
		return -1;
	return 2;
}

int imp_read_bytecmp(struct imp *im, const struct imp_file *f)
{
	struct side from = { 0 }, to = { 0 };
	int added = 0;
	for (size_t ln = 1; ln <= f->nlines; ln++) {
		const char *l = f->line[ln - 1] + strspn(f->line[ln - 1], " \t");
		if (!strcmp(l, "From:")) {
			header(im, f, ln, &from);
			to.known = false;
		} else if (!strcmp(l, "To:")) {
			header(im, f, ln, &to);
		} else if (!strcmp(l, "Results") || strspn(l, "*") == strlen(l)) {
			if (from.known && *l)
				imp_used(im, ln);
		} else if (strstr(l, "||")) {
			int rc = cmp_line(im, f, ln, &from, &to);
			if (rc < 0)
				return -1;
			added += rc;
		}
	}
	return added;
}
