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
 * Each line is one run.
 */
#include "config.h"
#include "import/import.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Does l name tool as a word ("dbench", "./dbench", "dbench:")? */
static bool names_word(const char *l, const char *tool)
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

/* The tool of a Throughput line at ln: the nearest line above naming
 * dbench or tbench; its version when that line is a banner. */
static const char *which_tool(const struct imp_file *f, size_t ln, char *ver, size_t n)
{
	for (size_t i = ln - 1; i >= 1; i--) {
		const char *l = f->line[i - 1];
		bool d = names_word(l, "dbench"), t = names_word(l, "tbench");
		if (d == t)
			continue;
		const char *v = strcasestr(l, "version ");
		ver[0] = '\0';
		if (v)
			snprintf(ver, n, " %.*s", (int)strcspn(v + 8, " \t,"), v + 8);
		return d ? "dbench" : "tbench";
	}
	return NULL;
}

static int throughput(struct imp *im, const struct imp_file *f, size_t ln)
{
	char copy[512], *w[40], ver[40], name[64], tool[80], run[300];
	snprintf(copy, sizeof(copy), "%s", f->line[ln - 1]);
	size_t n = imp_words(copy, w, 40), procs = 0;
	double v, p;
	if (n < 3 || strcmp(w[2], "MB/sec") || !imp_number(w[1], &v)) {
		imp_skip(im, f, ln, "a Throughput line without 'N MB/sec'");
		return 0;
	}
	for (size_t i = 3; i < n; i++)
		if (!strcmp(w[i], "procs") && imp_number(w[i - 1], &p) && p >= 1 && p == (size_t)p)
			procs = (size_t)p;
	if (!procs) {
		imp_skip(im, f, ln, "no 'N procs': the number of clients is not given");
		return 0;
	}
	const char *t = which_tool(f, ln, ver, sizeof(ver));
	if (!t) {
		imp_skip(im, f, ln, "no line above names dbench or tbench: which printed it is "
			 "not known");
		return 0;
	}
	snprintf(name, sizeof(name), "%s %zu", t, procs);
	snprintf(tool, sizeof(tool), "%s%s", t, ver);
	snprintf(run, sizeof(run), "%s:%zu", f->path, ln);
	struct imp_sys sys = { 0 };
	struct imp_fig fig = { name, name, "MB/s", true, tool, NULL, 0, v, ln, run, NULL, NULL,
			       0, NULL };
	return imp_add(im, f, &sys, &fig) < 0 ? -1 : 1;
}

static int timing(struct imp *im, const struct imp_file *f, size_t ln)
{
	const char *l = f->line[ln - 1], *what = strstr(l, "Timing ") + 7;
	const char *eq = strrchr(l, '=');
	char phrase[100], copy[200], *w[8], run[300];
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
	snprintf(copy, sizeof(copy), "%s", eq + 1);
	size_t n = imp_words(copy, w, 8);
	if (n < 2 || !imp_number(w[0], &v) ||
	    (strcmp(w[1], "MB/sec") && strcmp(w[1], "kB/sec") && strcmp(w[1], "KB/sec"))) {
		imp_skip(im, f, ln, "%s: not '= X MB/sec' or '= X kB/sec'", name);
		return 0;
	}
	if (w[1][0] != 'M')
		v /= 1024;
	snprintf(run, sizeof(run), "%s:%zu", f->path, ln);
	struct imp_sys sys = { 0 };
	struct imp_fig fig = { name, name, "MiB/s", true, "hdparm", NULL, 0, v, ln, run, NULL,
			       NULL, 0, NULL };
	return imp_add(im, f, &sys, &fig) < 0 ? -1 : 1;
}

int imp_read_tput(struct imp *im, const struct imp_file *f)
{
	int added = 0;
	for (size_t ln = 1; ln <= f->nlines; ln++) {
		const char *l = f->line[ln - 1] + strspn(f->line[ln - 1], " \t");
		int rc = 0;
		if (!strncmp(l, "Throughput ", 11))
			rc = throughput(im, f, ln);
		else if (!strncmp(l, "Timing ", 7) && strchr(l, ':'))
			rc = timing(im, f, ln);
		if (rc < 0)
			return -1;
		added += rc;
	}
	return added;
}
