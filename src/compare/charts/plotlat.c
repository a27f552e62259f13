/* kbench - compare --plot: the latency and time-series charts of load runs
 * (see plotlat.h)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The figures go inline as datablocks: $C<row>_<op>_<file> (the op's
 * index: names come from files) holds a CDF as
 * "ms fraction" lines (each non-empty bucket's upper end and the share of
 * ops at or below it), $S<row>_<file>_<run> a run's "t MB/sec" lines.
 */
#include "config.h"
#include "compare/charts/plotlat.h"
#include "compare/charts/plot.h"
#include "compare/charts/plotutil.h"
#include "stats/hist.h"
#include "stats/histjson.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define COLS 4

static const json_t *results_of(const json_t *run)
{
	const json_t *doc = json_object_get(run, "document");
	const char *kind = json_string_value(json_object_get(doc, "kind"));
	return kind && !strcmp(kind, "load") ? json_object_get(doc, "results") : NULL;
}

/* The first run of t with histograms: its results.histograms, or NULL. */
static const json_t *hists_of(const struct sf_test *t)
{
	const json_t *run;
	size_t j;
	json_array_foreach(json_object_get(t->row, "runs"), j, run) {
		const json_t *h = json_object_get(results_of(run), "histograms");
		if (json_is_object(h))
			return h;
	}
	return NULL;
}

static int has_series(const struct sf_test *t)
{
	const json_t *run;
	size_t j;
	json_array_foreach(json_object_get(t->row, "runs"), j, run)
		if (json_is_array(json_object_get(json_object_get(results_of(run), "series"),
						  "points")))
			return 1;
	return 0;
}

int plotlat_wanted(const struct cmp *c)
{
	for (size_t i = 0; i < c->nrows; i++)
		if (c->rows[i].t[0] && (hists_of(c->rows[i].t[0]) || has_series(c->rows[i].t[0])))
			return 1;
	return 0;
}

const char *plotlat_name(const char *file, char *buf, size_t n)
{
	const char *dot = strrchr(file, '.');
	size_t stem = dot ? (size_t)(dot - file) : strlen(file);
	snprintf(buf, n, "%.*s-latency%s", (int)stem, file, dot ? dot : "");
	return buf;
}

/* The ops of A's first run of r with histograms that some op ran. */
static size_t ops_of(const struct cmp_row *r, const char **ops, size_t max)
{
	const json_t *hs = r->t[0] ? hists_of(r->t[0]) : NULL, *o;
	const char *op;
	size_t n = 0;
	json_object_foreach((json_t *)hs, op, o)
		if (n < max && json_integer_value(json_object_get(o, "count")) > 0)
			ops[n++] = op;
	return n;
}

/* File k's runs of op merged into h (initialised).  Returns 0, or -1 when
 * no run has it readable. */
static int merged(const struct sf_test *t, const char *op, struct hist *h)
{
	const json_t *run;
	size_t j;
	int any = -1;
	json_array_foreach(json_object_get(t->row, "runs"), j, run) {
		const json_t *o = json_object_get(json_object_get(results_of(run), "histograms"), op);
		if (o && histjson_read(json_object_get(o, "buckets"), h) == 0)
			any = 0;
	}
	return h->count ? any : -1;
}

/* The CDF of h as "ms fraction" lines, from the first bucket's lower end. */
static void cdf_lines(FILE *f, const struct hist *h)
{
	uint64_t seen = 0, lo, hi;
	int first = 1;
	for (unsigned i = 0; i < HIST_BUCKETS; i++) {
		if (!h->bucket[i])
			continue;
		hist_bucket_range(i, &lo, &hi);
		if (first)
			fprintf(f, "%.9g 0\n", (double)(lo ? lo : 1) / 1e6);
		first = 0;
		seen += h->bucket[i];
		fprintf(f, "%.9g %.9g\n", (double)(hi + 1) / 1e6, (double)seen / (double)h->count);
	}
}

static void cdf_chart(FILE *f, const struct cmp *c, size_t i, size_t oi, const char *op,
		      struct hist *h)
{
	const struct cmp_row *r = &c->rows[i];
	char title[300];
	int lines = 0;
	for (size_t k = 0; k < c->nf; k++) {
		hist_init(h);
		if (!r->t[k] || merged(r->t[k], op, h) < 0)
			continue;
		fprintf(f, "$C%zu_%zu_%zu << EOD\n", i, oi, k);
		cdf_lines(f, h);
		fprintf(f, "EOD\n");
	}
	snprintf(title, sizeof(title), "%s: %s", r->name, op);
	fprintf(f, "set title ");
	plot_quoted(f, title);
	fprintf(f, " noenhanced\nset logscale x\nset xlabel 'latency (ms, log scale)'\n"
		   "set ylabel 'fraction of ops'\nset yrange [0:1]\nset xrange [*:*]\n"
		   "set key bottom right font ',8'\nplot ");
	for (size_t k = 0; k < c->nf; k++) {
		hist_init(h);
		if (!r->t[k] || merged(r->t[k], op, h) < 0)
			continue;
		fprintf(f, "%s$C%zu_%zu_%zu using 1:2 with steps lw 2 lc rgb '%s' title ",
			lines++ ? ", " : "", i, oi, k, plot_color(k));
		plot_quoted(f, plot_file_title(c, k, title, sizeof(title)));
		fprintf(f, " noenhanced");
	}
	fprintf(f, "%s\nunset logscale x\n", lines ? "" : "NaN notitle");
}

/* MB/sec each second of every run of row i; the warm-up's seconds shaded */
static void series_chart(FILE *f, const struct cmp *c, size_t i)
{
	const struct cmp_row *r = &c->rows[i];
	double warm = 0;
	char title[300];
	for (size_t k = 0; k < c->nf; k++) {
		const json_t *run, *p;
		size_t j, q;
		json_array_foreach(r->t[k] ? json_object_get(r->t[k]->row, "runs") : NULL, j, run) {
			fprintf(f, "$S%zu_%zu_%zu << EOD\n", i, k, j);
			json_array_foreach(json_object_get(json_object_get(results_of(run), "series"),
							   "points"), q, p) {
				double t = json_number_value(json_object_get(p, "t"));
				const json_t *b = json_object_get(p, "bytes");
				if (json_is_true(json_object_get(p, "warmup")) && t > warm)
					warm = t;
				if (json_is_integer(b))
					fprintf(f, "%.9g %.9g\n", t, (double)json_integer_value(b) / 1e6);
				else
					fprintf(f, "%.9g NaN\n", t);
			}
			fprintf(f, "EOD\n");
		}
	}
	snprintf(title, sizeof(title), "%s: MB/sec each second, every run (warm-up shaded)",
		 r->name);
	fprintf(f, "set title ");
	plot_quoted(f, title);
	fprintf(f, " noenhanced\nset xlabel 'seconds from the start'\nset ylabel 'MB/sec "
		   "(10^6 bytes)'\nset yrange [0:*]\nset xrange [0:*]\n");
	if (warm > 0)
		fprintf(f, "set object 1 rect from 0, graph 0 to %.9g, graph 1 behind fc rgb "
			   "'#d8d8d8' fs solid 1.0 noborder\n", warm);
	/* the key under the chart: the MB/sec lines fill the top right */
	fprintf(f, "set key outside bottom center horizontal font ',8'\nplot ");
	int lines = 0;
	for (size_t k = 0; k < c->nf; k++) {
		size_t n = r->t[k] ? json_array_size(json_object_get(r->t[k]->row, "runs")) : 0;
		for (size_t j = 0; j < n; j++) {
			fprintf(f, "%s$S%zu_%zu_%zu using 1:2 with lines lw 1.5 lc rgb '%s' ",
				lines++ ? ", " : "", i, k, j, plot_color(k));
			if (j) {
				fprintf(f, "notitle");
				continue;
			}
			fprintf(f, "title ");
			plot_quoted(f, plot_file_title(c, k, title, sizeof(title)));
			fprintf(f, " noenhanced");
		}
	}
	fprintf(f, "%s\nunset object 1\n", lines ? "" : "NaN notitle");
}

/* The panels plotlat_script draws: from lat_first, at most LAT_PAGE of
 * them (a page at most PLOT_PAGE_PX tall: 6 rows of 300 pixels). */
#define LAT_PAGE (6 * COLS)
static size_t lat_first;

/* How many panels c's latency picture has: a chart per op and one of
 * the seconds, for every load row. */
static size_t panels_of(const struct cmp *c)
{
	const char *ops[64];
	size_t panels = 0;
	for (size_t i = 0; i < c->nrows; i++)
		panels += ops_of(&c->rows[i], ops, 64) + (c->rows[i].t[0] && has_series(c->rows[i].t[0]));
	return panels;
}

void plotlat_script(FILE *f, const struct cmp *c, const char *file)
{
	const char *ops[64];
	size_t all = panels_of(c), panels = all > lat_first ? all - lat_first : 0, at = 0;
	panels = panels < LAT_PAGE ? panels : LAT_PAGE;
	size_t rows = panels ? (panels + COLS - 1) / COLS : 1;
	plot_open(f, file, 1400, (int)(rows * 300 + 60), 9);
	fprintf(f, "set grid\nset multiplot layout %zu,%d title "
		   "'kbench compare: each op''s latency distribution (every run merged) and "
		   "MB/sec each second of every run", rows, COLS);
	if (all > LAT_PAGE)
		fprintf(f, " (charts %zu to %zu of %zu)", lat_first + 1, lat_first + panels, all);
	fprintf(f, "'\n");
	struct hist *h = malloc(sizeof(*h));
	for (size_t i = 0; h && i < c->nrows; i++) {
		size_t n = ops_of(&c->rows[i], ops, 64);
		for (size_t o = 0; o < n; o++, at++)
			if (at >= lat_first && at < lat_first + panels)
				cdf_chart(f, c, i, o, ops[o], h);
		if (c->rows[i].t[0] && has_series(c->rows[i].t[0])) {
			if (at >= lat_first && at < lat_first + panels)
				series_chart(f, c, i);
			at++;
		}
	}
	free(h);
	fprintf(f, "unset multiplot\n");
}

int plotlat_write(const struct cmp *c, const char *file)
{
	if (!plotlat_wanted(c))
		return 0;
	char name[4200], page[4300];
	size_t all = panels_of(c);
	plotlat_name(file, name, sizeof(name));
	lat_first = 0;
	int rc = plot_run(c, name, plotlat_script);
	for (size_t p = 2; !rc && (p - 1) * LAT_PAGE < all; p++) {
		lat_first = (p - 1) * LAT_PAGE;
		rc = plot_run(c, plot_page_name(name, p, page, sizeof(page)), plotlat_script);
	}
	lat_first = 0;
	return rc;
}
