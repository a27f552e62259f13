/* kbench - import: dbench and tbench "Throughput" lines, hdparm "Timing" lines
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * dbench and tbench end a run with one line, in every version:
 *   Throughput 590.123 MB/sec  10 clients  10 procs  max_latency=12.345 ms   (4.x)
 *   Throughput 7.97753 MB/sec (NB=9.97191 MB/sec  79.7753 MBit/sec)  5 procs (1.x, 2.x)
 * The figure is MB/s (10^6 bytes), the test "dbench N" or "tbench N" for N
 * procs.  Which of the two printed it is read from the nearest line above
 * naming one ("dbench version 4.00", "./dbench 5", "tbench 5 localhost");
 * with none the line is skipped.
 * hdparm times reads in one line each:
 *   Timing cached reads:   18876 MB in  1.99 seconds = 9485.66 MB/sec
 *   Timing buffer-cache reads:   128 MB in  3.42 seconds = 37.43 MB/sec   (older)
 *   Timing buffered disk reads:  64 MB in 10.53 seconds =  6.08 MB/sec
 *   Timing O_DIRECT cached reads: ..., Timing O_DIRECT disk reads: ...
 * hdparm's MB is 2^20 bytes (its kB 2^10): the figure is kept in MiB/s,
 * the test "hdparm -T", "hdparm -t", "hdparm --direct -T" or "... -t".
 * Each line is one run.  A device hdparm names ("/dev/sda:" on its own
 * line above, or before "Timing" on the same line) is part of the test,
 * "hdparm -t /dev/sda": two disks are never one test's runs.  A result
 * no line above gave a kernel takes the one a script's trace prints
 * right under it ("+ uname -r", then the release).
 * The lines above say whose runs follow (kernel lines, headings, captions,
 * numbered items), but only as far as imp_tblock.c finds them to head
 * the runs: a block after prose or at another quote level is never
 * pooled with the one above on a kernel no line proves.  Rows of columns
 * and labelled lines are imp_tcols.c's.
 */
#include "config.h"
#include "import/imp_readers.h"
#include "import/imp_util.h"
#include "import/impstore.h"
#include "import/imp_tblock.h"
#include "import/imp_tcols.h"
#include "import/imp_tline.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Is line ln (text l) the caption of the block of runs right under it:
 * after a blank line (or the first), before a Throughput or Timing line,
 * of at most 10 words starting with a letter, naming no tool ("With
 * atomic counters, 32 clients, 3 runs")? */
static bool caption(const struct imp_file *f, size_t ln, const char *l)
{
	char copy[200], *w[12];
	if (ln >= f->nlines || (ln > 1 && f->line[ln - 2][strspn(f->line[ln - 2], " \t")]) ||
	    !isalpha((unsigned char)l[0]) || strlen(l) >= sizeof(copy))
		return false;
	const char *next = f->line[ln] + strspn(f->line[ln], " \t");
	if (strncmp(next, "Throughput ", 11) && strncmp(next, "Timing ", 7))
		return false;
	if (tput_names_word(l, "dbench") || tput_names_word(l, "tbench") || tput_names_word(l, "hdparm") ||
	    !strncmp(l, "Throughput ", 11) || !strncmp(l, "Timing ", 7))
		return false;
	snprintf(copy, sizeof(copy), "%s", l);
	return imp_words(copy, w, 12) <= 10;
}

static size_t device_of(const char *l, char *dev, size_t n);

/* Does line ln (l) head the runs right under it as an item of a numbered
 * list ("2) 2.4 w/apm", "3. with the patch"): a number and ')' or '.',
 * then at most 6 words, and the next line a Throughput or Timing line
 * (after hdparm's "/dev/X:")?  Its words after the number into out. */
static bool numbered(const struct imp_file *f, size_t ln, const char *l, char *out, size_t n)
{
	char copy[200], *w[8], dev[64];
	size_t digits = strspn(l, "0123456789");
	if (ln >= f->nlines || !digits || digits > 3 || (l[digits] != ')' && l[digits] != '.') ||
	    !strchr(" \t", l[digits + 1]) || strlen(l) >= sizeof(copy))
		return false;
	const char *next = f->line[ln] + strspn(f->line[ln], " \t");
	size_t dl = device_of(next, dev, sizeof(dev));
	next += dl + strspn(next + dl, " \t");
	if (strncmp(next, "Throughput ", 11) && strncmp(next, "Timing ", 7))
		return false;
	if (tput_names_word(l, "dbench") || tput_names_word(l, "tbench") || tput_names_word(l, "hdparm"))
		return false;  /* "1. ./dbench 16" is a command, not a system */
	snprintf(copy, sizeof(copy), "%s", l + digits + 1);
	size_t nw = imp_words(copy, w, 8);
	if (!nw || nw > 6)
		return false;
	imp_trim_copy(out, n, l + digits + 1, strlen(l + digits + 1));
	return true;
}

/* Is l a rule of at least three dashes or equals signs alone? */
static bool underline(const char *l)
{
	l += strspn(l, " \t");
	size_t n = strspn(l, "-=");
	return n >= 3 && !l[n + strspn(l + n, " \t")];
}

/* A heading's system, to: a heading after prose is under no kernel line
 * of the report's several, and a heading under none of them says so. */
static void unproven(const struct tput_ctx *c, bool q, struct imp_sys *to, const char *heading)
{
	if (c->blk[q].stale && c->kern->n[q] >= 2)
		memset(to, 0, sizeof(*to));
	snprintf(to->desc, sizeof(to->desc), "%.130s%s", heading,
		 !to->kernel[0] && c->kern->n[q] >= 2 ? " (kernel not proven)" : "");
}

/* Read what line ln (l) says of the runs below it; true when it is a
 * kernel line or a heading (tput_block_noted). */
static bool note_line(struct imp *im, const struct imp_file *f, size_t ln, struct tput_ctx *c,
		      const char *l)
{
	bool d = tput_names_word(l, "dbench"), t = tput_names_word(l, "tbench");
	size_t started;
	if (d != t) {
		const char *v = strcasestr(l, "version ");
		c->tool = d ? "dbench" : "tbench";
		c->ver[0] = '\0';
		if (v)
			snprintf(c->ver, sizeof(c->ver), " %.*s", (int)strcspn(v + 8, " \t,"),
				 v + 8);
		size_t n = tput_count_after(l, c->tool);
		if (n)
			c->clients = n;
	}
	/* sscanf counts "%zu" alone: "37.580u 115.730s ..." (time's line) is
	 * no "37 clients started"; %n proves the words after it matched */
	int end = 0;
	if (sscanf(l, "%zu clients started%n", &started, &end) == 1 && end > 0 && started >= 1)
		c->clients = started;
	char heading[160], k[160];
	struct imp_sys *to = (struct imp_sys *)tput_ctx_sys(c, f, ln);
	bool q = f->flag[ln - 1] & IMP_LINE_QUOTED;
	if (imp_kernel_line(l, to)) {
		/* "2.4.18-pre6 + lowlat" underlined by a rule heads its block:
		 * its words tell it from "2.4.18-pre6 (no lowlat)"; so do the
		 * words of two lines naming one kernel ("modified 6.6.47 kernel:") */
		if (ln < f->nlines && underline(f->line[ln]) && !to->desc[0] && !to->build[0])
			imp_trim_copy(to->desc, sizeof(to->desc), l, strlen(l));
		else if (!to->build[0] && strncmp(l, "Subject:", 8) &&
			 imp_kernel_worded(c->kern, to->kernel))
			imp_trim_copy(to->desc, sizeof(to->desc), l,
				      strlen(l) - (l[strlen(l) - 1] == ':'));
		if (!strncmp(l, "Subject:", 8))  /* the thread's: the quotes' too */
			c->sys = c->qsys = *to;
	} else if (imp_summary_heading(l, heading, sizeof(heading)) &&
		   !strchr(heading, ' ') && imp_kernel_word(heading, k, sizeof(k))) {
		/* "2.4.19-rc1: average 12.3 MB/sec" over that kernel's runs */
		memset(to, 0, sizeof(*to));
		snprintf(to->kernel, sizeof(to->kernel), "%s", k);
	} else if (imp_heading_line(l, heading, sizeof(heading)) ||
		   imp_summary_heading(l, heading, sizeof(heading))) {
		/* "Before:" and "After:" over the same tests are two systems */
		unproven(c, q, to, heading);
	} else if (numbered(f, ln, l, heading, sizeof(heading))) {
		/* an item of a list of systems: nothing of the one above is its */
		memset(to, 0, sizeof(*to));
		snprintf(to->desc, sizeof(to->desc), "%s", heading);
	} else if (caption(f, ln, l)) {
		imp_trim_copy(heading, sizeof(heading), l, strlen(l));
		unproven(c, q, to, heading);
	} else if (imp_kernels_named(l, heading, sizeof(heading)) >= 2 &&
		   strncmp(l, "Subject:", 8)) {
		/* "first lines for 2.4.7-ac3, then 2.4.7-ac9": the runs below are
		 * of several kernels, and which is whose is not printed */
		memset(to, 0, sizeof(*to));
		snprintf(to->desc, sizeof(to->desc), "runs of %.100s (split not proven)",
			 heading);
		c->split_said = false;
		memset(c->runs, 0, sizeof(*c->runs));
		for (char *k = heading, *e; *k && c->runs->nkernels < 4; k = e + (*e ? 2 : 0)) {
			e = k + strcspn(k, ",");
			snprintf(c->runs->kernel[c->runs->nkernels++], sizeof(c->runs->kernel[0]),
				 "%.*s", (int)(e - k), k);
		}
		imp_used(im, ln);
		tput_block_noted(c, f, ln);
		c->split = ln;
		return true;
	} else {
		return false;
	}
	c->split = 0;
	imp_used(im, ln);
	if (strncmp(l, "Subject:", 8))
		tput_block_noted(c, f, ln);
	return true;
}

/* "/dev/X:" at the start of l (hdparm's heading of a device): its name
 * into dev and the length up to the colon, or 0. */
static size_t device_of(const char *l, char *dev, size_t n)
{
	size_t len = strcspn(l, ": \t");
	if (strncmp(l, "/dev/", 5) || len <= 5 || l[len] != ':' || len >= n)
		return 0;
	snprintf(dev, n, "%.*s", (int)len, l);
	return len + 1;
}

static int timing(struct imp *im, const struct imp_file *f, size_t ln, const char *dev,
		  const struct imp_sys *sys)
{
	const char *l = f->line[ln - 1], *what = strstr(l, "Timing ") + 7;
	const char *eq = strrchr(l, '=');
	char phrase[100], copy[200], *w[8], run[300], test[128];
	const char *name = NULL;
	double v;
	imp_trim_copy(phrase, sizeof(phrase), what, strcspn(what, ":"));
	if (!strcmp(phrase, "cached reads") || !strcmp(phrase, "buffer-cache reads"))
		name = "hdparm -T";
	else if (!strcmp(phrase, "buffered disk reads"))
		name = "hdparm -t";
	else if (!strcmp(phrase, "O_DIRECT cached reads"))
		name = "hdparm --direct -T";
	else if (!strcmp(phrase, "O_DIRECT disk reads"))
		name = "hdparm --direct -t";
	if (!name) {
		imp_skip(im, f, ln, "'Timing %s': not a timing hdparm prints", phrase);
		return 0;
	}
	if (!eq) {
		imp_skip(im, f, ln, "%s: no '= X MB/sec'", name);
		return 0;
	}
	/* quoted-printable mail wrote '=' as "=3D" ("seconds =3D148.84 MB/sec") */
	snprintf(copy, sizeof(copy), "%s", eq + 1 + (eq[1] == '3' && eq[2] == 'D' ? 2 : 0));
	size_t n = imp_words(copy, w, 8);
	char next[64], *nw[2];
	if (n == 1 && ln < f->nlines) {  /* "=185.51 " and "MB/sec" wrapped to the next line */
		snprintf(next, sizeof(next), "%s", f->line[ln]);
		if (imp_words(next, nw, 2) == 1 && (!strcmp(nw[0], "MB/sec") || !strcmp(nw[0], "kB/sec"))) {
			w[1] = nw[0];
			n = 2;
			imp_used(im, ln + 1);
		}
	}
	if (n < 2 || !imp_number(w[0], &v) ||
	    (strcmp(w[1], "MB/sec") && strcmp(w[1], "kB/sec") && strcmp(w[1], "KB/sec"))) {
		imp_skip(im, f, ln, "%s: not '= X MB/sec' or '= X kB/sec'", name);
		return 0;
	}
	if (w[1][0] != 'M')
		v /= 1024;
	/* two devices are two tests, never one pooled */
	snprintf(test, sizeof(test), "%s%s%s", name, dev[0] ? " " : "", dev);
	snprintf(run, sizeof(run), "%s:%zu", f->path, ln);
	struct imp_fig fig = { test, test, "MiB/s", true, "hdparm", NULL, 0, v, ln, run, NULL,
			       NULL, 0, NULL };
	struct imp_sys s = tput_sys_of(f, ln, sys);
	return imp_add(im, f, &s, &fig) < 0 ? -1 : 1;
}

int imp_read_tput(struct imp *im, const struct imp_file *f)
{
	struct split_runs runs;
	struct imp_kernels kern;
	struct tput_ctx c = { .runs = &runs, .kern = &kern };
	int added = 0;
	imp_kernels_scan(f, &kern);
	tput_kernel_heads(f, &kern);
	for (size_t ln = 1; ln <= f->nlines; ln++) {
		const char *l = f->line[ln - 1] + strspn(f->line[ln - 1], " \t");
		char dev[64];
		size_t dl = device_of(l, dev, sizeof(dev));
		int rc = 0;
		if (dl) {  /* "/dev/sda:" alone, or before its Timing line */
			snprintf(c.dev, sizeof(c.dev), "%s", dev);
			l += dl + strspn(l + dl, " \t");
		}
		l += strspn(l, ".+*");  /* dbench 1.x's progress marks end on its line */
		l += strspn(l, " \t");
		bool done = false;
		if (tput_is_run(l))
			tput_block_begin(im, f, ln, &c);
		rc = tput_labelled(im, f, ln, l, &c, &done);
		if (done)
			;  /* read as its label's run */
		else if (!strncmp(l, "Throughput ", 11))
			rc = tput_throughput(im, f, ln, l, &c);
		else if (!strncmp(l, "Timing ", 7) && strchr(l, ':'))
			rc = timing(im, f, ln, c.dev, tput_ctx_sys(&c, f, ln));
		else if (!(rc = tput_columns_row(im, f, ln, l, &c)) && !note_line(im, f, ln, &c, l))
			tput_block_prose(im, f, ln, &c);
		if (rc > 0)
			tput_say_split(im, f, &c);
		if (rc < 0)
			return -1;
		added += rc;
	}
	return added;
}
