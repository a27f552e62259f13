/* kbench - compare --plot: the latency and time-series charts of load runs
 * (see plotlat.h)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The figures go inline as datablocks: $C<row>_<op>_<file> (the op's
 * index: names come from files) holds a CDF as
 * "ms fraction" lines (each non-empty bucket's upper end and the share of
 * ops at or below it), $S<row>_<file>_<run> a run's "t MB/sec" lines.
 *
 * Layout: the panels sit in cells of CELL_W x CELL_H pixels, COLS a row,
 * under the page's title and one key for the page (a file's colour is the
 * same in every panel), each panel's plot area set in screen pixels so
 * its title (at most two lines of TITLE_CHARS), tic labels and axis
 * labels have room of their own and no key lies over a curve.  Pages
 * share the rows evenly.
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
#define PAGE_W 1400
#define CELL_W (PAGE_W / COLS)
#define CELL_H 310
#define HEAD_PX 30 /* the page's title */
#define KEY_LINE_PX 16
/* a panel's room around its plot area, in pixels: tic labels and the
 * y label on the left, the title's two lines on top, tic labels and the
 * x label under it */
#define PAD_L 64
#define PAD_R 16
#define PAD_T 44
#define PAD_B 48
/* gnuplot's character cell at the 9-point font is 8 pixels wide: the
 * characters of a title line that fit in its cell when centred over the
 * plot area (which lies PAD_L - PAD_R pixels right of the cell's middle) */
#define CHAR_PX 8
#define TITLE_CHARS ((CELL_W - PAD_L + PAD_R) / CHAR_PX)

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

/* s cut to at most max bytes, and on a character's first byte, "..."
 * marking a cut, into buf (n bytes). */
static const char *cut(const char *s, size_t max, char *buf, size_t n)
{
	size_t len = strlen(s);
	if (len <= max) {
		snprintf(buf, n, "%s", s);
		return buf;
	}
	len = max > 3 ? max - 3 : 0;
	while (len && ((unsigned char)s[len] & 0xc0) == 0x80)
		len--;
	snprintf(buf, n, "%.*s...", (int)len, s);
	return buf;
}

/* A panel's title: "ROW: WHAT" on one line when it fits over the cell,
 * else ROW over WHAT, each line cut to fit. */
static void panel_title(FILE *f, const char *row, const char *what)
{
	char a[TITLE_CHARS + 8], b[TITLE_CHARS + 8];
	fprintf(f, "set title ");
	if (strlen(row) + 2 + strlen(what) <= TITLE_CHARS) {
		char one[2 * TITLE_CHARS + 8];
		snprintf(one, sizeof(one), "%s: %s", row, what);
		plot_quoted(f, one);
	} else {
		plot_quoted(f, cut(row, TITLE_CHARS, a, sizeof(a)));
		fprintf(f, ".\"\\n\".");
		plot_quoted(f, cut(what, TITLE_CHARS, b, sizeof(b)));
	}
	fprintf(f, " noenhanced\n");
}

static void cdf_chart(FILE *f, const struct cmp *c, size_t i, size_t oi, const char *op,
		      struct hist *h)
{
	const struct cmp_row *r = &c->rows[i];
	int lines = 0;
	for (size_t k = 0; k < c->nf; k++) {
		hist_init(h);
		if (!r->t[k] || merged(r->t[k], op, h) < 0)
			continue;
		fprintf(f, "$C%zu_%zu_%zu << EOD\n", i, oi, k);
		cdf_lines(f, h);
		fprintf(f, "EOD\n");
	}
	panel_title(f, r->name, op);
	fprintf(f, "set logscale x\nset xlabel 'latency (ms, log scale)'\n"
		   "set ylabel 'fraction of ops'\nset yrange [0:1]\nset xrange [*:*]\nplot ");
	for (size_t k = 0; k < c->nf; k++) {
		hist_init(h);
		if (!r->t[k] || merged(r->t[k], op, h) < 0)
			continue;
		fprintf(f, "%s$C%zu_%zu_%zu using 1:2 with steps lw 2 lc rgb '%s' ",
			lines++ ? ", " : "", i, oi, k, plot_color(k));
		fprintf(f, "notitle");
	}
	fprintf(f, "%s\nunset logscale x\n", lines ? "" : "NaN notitle");
}

/* MB/sec each second of every run of row i; the warm-up's seconds shaded */
static void series_chart(FILE *f, const struct cmp *c, size_t i)
{
	const struct cmp_row *r = &c->rows[i];
	double warm = 0;
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
	panel_title(f, r->name, "MB/sec each second");
	fprintf(f, "set xlabel 'seconds from the start (warm-up shaded)'\nset ylabel 'MB/sec "
		   "(10^6 bytes)'\nset yrange [0:*]\nset xrange [0:*]\n");
	if (warm > 0)
		fprintf(f, "set object 1 rect from 0, graph 0 to %.9g, graph 1 behind fc rgb "
			   "'#d8d8d8' fs solid 1.0 noborder\n", warm);
	fprintf(f, "plot ");
	int lines = 0;
	for (size_t k = 0; k < c->nf; k++) {
		size_t n = r->t[k] ? json_array_size(json_object_get(r->t[k]->row, "runs")) : 0;
		for (size_t j = 0; j < n; j++) {
			fprintf(f, "%s$S%zu_%zu_%zu using 1:2 with lines lw 1.5 lc rgb '%s' ",
				lines++ ? ", " : "", i, k, j, plot_color(k));
			fprintf(f, "notitle");
		}
	}
	fprintf(f, "%s\nunset object 1\n", lines ? "" : "NaN notitle");
}

/* The panels the page plotlat_script draws: lat_lo to lat_hi - 1. */
static size_t lat_lo, lat_hi = (size_t)-1;

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

/* How many of the page key's entries go on a line: an entry is its
 * title, the line's sample and the gap, taken as 10 characters (more
 * than gnuplot takes, so its key never needs more lines than counted). */
static size_t key_per_line(const struct cmp *c)
{
	char t[300];
	size_t widest = 1;
	for (size_t k = 0; k < c->nf; k++) {
		size_t n = strlen(plot_file_title(c, k, t, sizeof(t)));
		widest = n > widest ? n : widest;
	}
	size_t per = (PAGE_W - 40) / ((widest + 10) * CHAR_PX);
	return per ? per : 1;
}

/* The page key's height in pixels. */
static int key_px(const struct cmp *c)
{
	size_t per = key_per_line(c);
	return (int)((c->nf + per - 1) / per) * KEY_LINE_PX + 8;
}

/* Panel q of a page h pixels tall whose cells start top pixels down: its
 * cell and, inside it, its plot area. */
static void panel_cell(FILE *f, size_t q, int top, int h)
{
	int x = (int)(q % COLS) * CELL_W, y = top + (int)(q / COLS) * CELL_H;
	fprintf(f, "set origin %.6f,%.6f\nset size %.6f,%.6f\n", (double)x / PAGE_W,
		1 - (double)(y + CELL_H) / h, (double)CELL_W / PAGE_W, (double)CELL_H / h);
	fprintf(f, "set lmargin at screen %.6f\nset rmargin at screen %.6f\n"
		   "set tmargin at screen %.6f\nset bmargin at screen %.6f\n",
		(double)(x + PAD_L) / PAGE_W, (double)(x + CELL_W - PAD_R) / PAGE_W,
		1 - (double)(y + PAD_T) / h, 1 - (double)(y + CELL_H - PAD_B) / h);
}

/* The key of every panel of the page, once, in its band under the page's
 * title: a line of each file's colour and its title. */
static void page_key(FILE *f, const struct cmp *c, int h)
{
	char t[300];
	double top = 1 - (double)HEAD_PX / h, bottom = 1 - (double)(HEAD_PX + key_px(c)) / h;
	fprintf(f, "set origin 0,%.6f\nset size 1,%.6f\n", bottom, top - bottom);
	fprintf(f, "set lmargin at screen 0.01\nset rmargin at screen 0.99\n"
		   "set tmargin at screen %.6f\nset bmargin at screen %.6f\n", top, bottom);
	fprintf(f, "unset title\nunset border\nunset tics\nunset grid\nunset xlabel\n"
		   "unset ylabel\nunset logscale x\nset xrange [0:1]\nset yrange [0:1]\n"
		   "set key inside center center horizontal maxcols %zu\nplot ", key_per_line(c));
	for (size_t k = 0; k < c->nf; k++) {
		fprintf(f, "%sNaN with lines lw 2 lc rgb '%s' title ", k ? ", " : "", plot_color(k));
		plot_quoted(f, plot_file_title(c, k, t, sizeof(t)));
		fprintf(f, " noenhanced");
	}
	fprintf(f, "%s\n", c->nf ? "" : "NaN notitle");
}

void plotlat_script(FILE *f, const struct cmp *c, const char *file)
{
	const char *ops[64];
	size_t all = panels_of(c), lo = lat_lo < all ? lat_lo : all, hi = lat_hi < all ? lat_hi : all;
	size_t at = 0, rows = hi > lo ? (hi - lo + COLS - 1) / COLS : 1;
	int top = HEAD_PX + key_px(c), h = top + (int)rows * CELL_H + 8;
	plot_open(f, file, PAGE_W, h, 9);
	fprintf(f, "set grid\nunset key\nset multiplot title "
		   "'kbench compare: each op''s latency distribution (every run merged) and "
		   "MB/sec each second of every run");
	if (lo > 0 || hi < all)
		fprintf(f, " (charts %zu to %zu of %zu)", lo + 1, hi, all);
	fprintf(f, "'\n");
	struct hist *hg = malloc(sizeof(*hg));
	for (size_t i = 0; hg && i < c->nrows; i++) {
		size_t n = ops_of(&c->rows[i], ops, 64);
		for (size_t o = 0; o < n; o++, at++)
			if (at >= lo && at < hi) {
				panel_cell(f, at - lo, top, h);
				cdf_chart(f, c, i, o, ops[o], hg);
			}
		if (c->rows[i].t[0] && has_series(c->rows[i].t[0])) {
			if (at >= lo && at < hi) {
				panel_cell(f, at - lo, top, h);
				series_chart(f, c, i);
			}
			at++;
		}
	}
	free(hg);
	page_key(f, c, h);
	fprintf(f, "unset multiplot\n");
}

int plotlat_write(const struct cmp *c, const char *file)
{
	if (!plotlat_wanted(c))
		return 0;
	char name[4200], page[4300];
	size_t all = panels_of(c), rows = (all + COLS - 1) / COLS;
	/* as many rows as a page of PLOT_PAGE_PX holds under its title and key */
	int room = PLOT_PAGE_PX - HEAD_PX - key_px(c) - 8;
	size_t max = room >= CELL_H ? (size_t)(room / CELL_H) : 1;
	size_t pages = rows > max ? (rows + max - 1) / max : 1;
	int rc = 0;
	plotlat_name(file, name, sizeof(name));
	/* the pages share the rows evenly: no last page of a row or two */
	for (size_t p = 0; !rc && p < pages; p++) {
		lat_lo = p * rows / pages * COLS;
		lat_hi = (p + 1) * rows / pages * COLS;
		rc = plot_run(c, p ? plot_page_name(name, p + 1, page, sizeof(page)) : name,
			      plotlat_script);
	}
	lat_lo = 0;
	lat_hi = (size_t)-1;
	return rc;
}
