/* kbench - suite and compare: figures as text, and the table of a series
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The table reads every test through suitefile_test, the reader compare
 * and --export use, so all three see the same figures of a document.
 */
#include "config.h"
#include "stats/summary.h"
#include "resultsfile/escape.h"
#include "resultsfile/figures.h"
#include "resultsfile/rowcav.h"
#include "resultsfile/suitefile.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void fig_plain(char *buf, size_t n, double v, int sig)
{
	int dec = 0;
	if (!isfinite(v)) {
		snprintf(buf, n, "-");
		return;
	}
	if (v != 0)
		dec = sig - 1 - (int)floor(log10(fabs(v)));
	dec = dec < 0 ? 0 : dec > 17 ? 17 : dec;
	snprintf(buf, n, "%.*f", dec, v);
	if (dec && strchr(buf, '.')) {      /* %g's trailing zeros dropped */
		char *e = buf + strlen(buf) - 1;
		while (*e == '0')
			*e-- = 0;
		if (*e == '.')
			*e = 0;
	}
}

void fig_fixed(char *buf, size_t n, double v, bool small)
{
	if (small)
		fig_plain(buf, n, v, 4);
	else
		snprintf(buf, n, "%.2f", v);
}

void fig_text(char *buf, size_t n, double v)
{
	if (!isfinite(v))
		snprintf(buf, n, "-");
	else if (fabs(v) >= 1e9)
		snprintf(buf, n, "%.0f", v);
	else if (fabs(v) >= 100)
		snprintf(buf, n, "%.1f", v);
	else
		fig_fixed(buf, n, v, fabs(v) < 1);
}

void fig_change(char *buf, size_t n, double pct)
{
	if (isfinite(pct))
		snprintf(buf, n, "%+.2f%%", pct);
	else
		snprintf(buf, n, "n/a");
}

void fig_duration(char *buf, size_t n, double s)
{
	long v = lround(s);
	if (v >= 3600)
		snprintf(buf, n, "%ldh%02ldm", v / 3600, v / 60 % 60);
	else if (v >= 60)
		snprintf(buf, n, "%ldm%02lds", v / 60, v % 60);
	else
		snprintf(buf, n, "%lds", v);
}

/* the most run columns: suite's --runs bound (series.h); a file that
 * numbers a run beyond it has its runs in file order */
#define TABLE_MAX_RUNS 1000

/* a figure in a 10-wide column of the table */
static void cell(FILE *f, double v, bool small)
{
	char buf[64];
	fig_fixed(buf, sizeof(buf), v, small);
	fprintf(f, " %10s", buf);
}

static void put_header(FILE *f, size_t namew, size_t maxruns)
{
	fprintf(f, "\n%-*s", (int)namew, "test");
	for (size_t r = 0; r < maxruns; r++) {
		char h[32];
		snprintf(h, sizeof(h), "run%zu", r + 1);
		fprintf(f, " %10s", h);
	}
	fprintf(f, " %10s %10s %10s %10s %7s  %s\n", "min", "median", "mean", "max", "CoV%", "unit");
}

/* The column of t's run j: its run number less one (rowcav_run_no). */
static size_t column_of(const struct sf_test *t, size_t j)
{
	return rowcav_run_no(json_array_get(json_object_get(t->row, "runs"), j), j) - 1;
}

/* One test's row: its runs, each in the column of its number (a run that
 * failed is a "-", never the next run's figure), up to maxruns columns,
 * the summary, the unit and, when its micro test was skipped, why. */
static void put_row(FILE *f, const struct sf_test *t, const char *skipped, size_t namew,
		    size_t maxruns)
{
	bool small = t->n > 0;
	size_t col = 0;
	esc_put(f, t->name, namew);
	for (size_t j = 0; j < t->n; j++)
		small = small && fabs(t->v[j]) < 1;
	for (size_t j = 0; j < t->n; j++) {
		size_t at = column_of(t, j);
		if (at < col || at >= maxruns)
			at = col;   /* out of order or too far: in file order */
		for (; col < at; col++)
			fprintf(f, " %10s", "-");
		cell(f, t->v[j], small);
		col++;
	}
	for (size_t k = col; k < maxruns; k++)
		fprintf(f, " %10s", "-");
	if (t->summarised) {
		cell(f, t->sum.min, small);
		cell(f, t->sum.median, small);
		cell(f, t->sum.mean, small);
		cell(f, t->sum.max, small);
		if (isfinite(t->sum.cov_pct))
			fprintf(f, " %7.2f", t->sum.cov_pct);
		else
			fprintf(f, " %7s", "-");
	} else {
		fprintf(f, " %10s %10s %10s %10s %7s", "-", "-", "-", "-", "-");
	}
	fputs("  ", f);
	esc_put(f, t->unit, 0);
	if (skipped) {
		fputs("  skipped: ", f);
		esc_put(f, skipped, 0);
	}
	fputc('\n', f);
}

static void put_failures(FILE *f, const json_t *doc)
{
	const json_t *fails = json_object_get(doc, "failures");
	size_t i;
	json_t *t;
	if (json_array_size(fails))
		fprintf(f, "\n%zu run(s) failed:\n", json_array_size(fails));
	json_array_foreach(fails, i, t) {
		fputs("  ", f);
		esc_put(f, json_string_value(json_object_get(t, "test")), 0);
		fprintf(f, " run %lld: exit status %lld: ",
			(long long)json_integer_value(json_object_get(t, "run")),
			(long long)json_integer_value(json_object_get(t, "exit_status")));
		esc_put(f, json_string_value(json_object_get(t, "message")), 0);
		fputc('\n', f);
	}
}

void fig_table(FILE *f, const json_t *doc, const char *path)
{
	const json_t *tests = json_object_get(doc, "tests");
	size_t nt = json_array_size(tests), maxruns = 0, namew = 4;
	struct sf_test *t = calloc(nt + 1, sizeof(*t));
	char why[200];
	if (!t)
		nt = 0;
	for (size_t i = 0; i < nt; i++) {
		suitefile_test(json_array_get(tests, i), &t[i], why, sizeof(why));
		size_t w = esc_len(t[i].name);
		maxruns = t[i].n > maxruns ? t[i].n : maxruns;
		/* the columns are run numbers: room for the highest */
		for (size_t j = 0; j < t[i].n; j++)
			if (column_of(&t[i], j) < TABLE_MAX_RUNS && column_of(&t[i], j) >= maxruns)
				maxruns = column_of(&t[i], j) + 1;
		namew = w > namew ? w : namew;
	}
	put_header(f, namew, maxruns);
	for (size_t i = 0; i < nt; i++)
		put_row(f, &t[i], json_string_value(json_object_get(json_array_get(tests, i),
								      "skipped")), namew, maxruns);
	put_failures(f, doc);
	rowcav_print_table_notes(f, doc, &(struct rowcav_opts){ FIG_CAVEAT_CONF,
								sysconf(_SC_CLK_TCK) });
	fprintf(f, "\n" FIG_UNITS_NOTE "; CoV = stddev / mean\nresults: ");
	esc_put(f, path, 0);
	fputc('\n', f);
	for (size_t i = 0; i < nt; i++)
		free(t[i].v);
	free(t);
}
