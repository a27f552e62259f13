/* kbench - compare --plot: the figures drawn by gnuplot
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * kbench writes a gnuplot script with the figures inline (datablocks) into
 * a temporary file and runs gnuplot on it; nothing else is written but
 * the picture.  Up to three charts, one above the other, each that has data:
 *   - kbench load: the median MB/s (10^6 bytes; the mean with --test
 *     welch, with the interval of the mean as error bars) against the
 *     client count, one line per results file (and memory limit), and
 *     every run as a point beside it;
 *   - kbench disk: each file's median (mean) MiB/s of every disk test,
 *     a bar a file (plotbar.h);
 *   - every test but load: the change against A in percent as horizontal
 *     bars, a row a test, grouped by family, right always better
 *     (plotbar.h); the picture grows with the count of tests.
 * Each file has one colour in every chart (plot_color, plotutil.h); the
 * load chart's memory limits differ in their dashes.
 * Nothing is dropped or clipped: a failed run (the file's failures naming
 * the test) is a cross at 0; the ranges hold every figure.  The keys sit
 * outside the charts and the titles have two lines of room.
 * Every string from a results file is escaped (escape.h) before it is
 * quoted for gnuplot, so the picture shows what the terminal would.
 */
#include "config.h"
#include "sys/child.h"
#include "compare/judge/cmpcav.h"
#include "resultsfile/escape.h"
#include "compare/charts/plot.h"
#include "compare/charts/plotbar.h"
#include "compare/charts/plotutil.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int plot_available(void)
{
	const char *path = getenv("PATH");
	char dir[PATH_MAX + 16];
	if (!path || !*path)
		path = "/usr/local/bin:/usr/bin:/bin";
	while (*path) {
		size_t len = strcspn(path, ":");
		snprintf(dir, sizeof(dir), "%.*s/gnuplot", (int)(len ? len : 1), len ? path : ".");
		if (access(dir, X_OK) == 0)
			return 1;
		path += len + (path[len] == ':');
	}
	return 0;
}

int plot_missing(const char *cmd)
{
	if (plot_available())
		return 0;
	fprintf(stderr, "%s: --plot: gnuplot is not installed; install it (Debian: apt-get "
		"install gnuplot-nox) or leave out --plot\n", cmd);
	return 1;
}

/* The memory limit of r's load test in A, "" for none. */
static const char *mem_of(const struct cmp_row *r)
{
	const char *m = json_string_value(json_object_get(r->t[0]->params, "mem_limit"));
	return m ? m : "";
}

/* The memory limit of file k's test on r, "" for none. */
static const char *mem_in(const struct cmp_row *r, size_t k)
{
	const char *m = r->t[k] ? json_string_value(json_object_get(r->t[k]->params,
								   "mem_limit")) : NULL;
	return m ? m : "";
}

/* The distinct memory limits of the load rows ("" for none); returns how many. */
static size_t mem_groups(const struct cmp *c, const char **mems, size_t max)
{
	size_t n = 0;
	for (size_t i = 0; i < c->nrows; i++) {
		const struct cmp_row *r = &c->rows[i];
		if (!plot_is_load(r))
			continue;
		const char *m = mem_of(r);
		size_t j = 0;
		while (j < n && strcmp(mems[j], m))
			j++;
		if (j == n && n < max)
			mems[n++] = m;
	}
	return n;
}

static bool welch(const struct cmp *c)
{
	return c->method == CMP_WELCH;
}

static long clients_of(const struct cmp_row *r)
{
	return (long)json_integer_value(json_object_get(r->t[0]->params, "clients"));
}

/* x of file k's points at client count x: spread a little apart so the
 * files' runs do not hide each other (by a factor on a log scale) */
static double jitter(const struct cmp *c, double x, size_t k, bool logx, double span)
{
	double off = (double)k - (double)(c->nf - 1) / 2;
	return logx ? x * pow(2, 0.05 * off) : x + 0.012 * span * off;
}

/* The load chart's data, inline: for each file k and memory limit m,
 * $Lk_m (a client count's centre and interval) and $Pk_m (every run with
 * its caveats, cmp_cav_run's 0, 1, 2, and a failed run at 0).  Returns
 * how many failed runs there are; *ncav: how many runs carry a caveat. */
static size_t load_data(FILE *f, const struct cmp *c, const char **mems, size_t nmems,
			bool logx, double span, size_t *ncav)
{
	size_t nfail = 0;
	*ncav = 0;
	for (size_t k = 0; k < c->nf; k++)
		for (size_t m = 0; m < nmems; m++) {
			fprintf(f, "$L%zu_%zu << EOD\n", k, m);
			/* by client count, whatever the rows' order: the line goes left
			 * to right (a table sorted by change would zig-zag it) */
			for (long last = -1, next;; last = next) {
				next = -1;
				for (size_t i = 0; i < c->nrows; i++) {
					const struct cmp_row *r = &c->rows[i];
					if (plot_is_load(r) && r->t[k] && r->t[k]->n &&
					    !strcmp(mem_of(r), mems[m]) && clients_of(r) > last &&
					    (next < 0 || clients_of(r) < next))
						next = clients_of(r);
				}
				if (next < 0)
					break;
				for (size_t i = 0; i < c->nrows; i++) {
					const struct cmp_row *r = &c->rows[i];
					if (plot_is_load(r) && r->t[k] && r->t[k]->n &&
					    !strcmp(mem_of(r), mems[m]) && clients_of(r) == next)
						fprintf(f, "%ld %.10g %.10g\n", next, cmp_center(c, r, k),
							welch(c) && isfinite(r->ci[k]) ? r->ci[k] : 0.0);
				}
			}
			fprintf(f, "EOD\n$P%zu_%zu << EOD\n", k, m);
			for (size_t i = 0; i < c->nrows; i++) {
				const struct cmp_row *r = &c->rows[i];
				if (!plot_is_load(r) || !r->t[k] || strcmp(mem_of(r), mems[m]))
					continue;
				for (size_t j = 0; j < r->t[k]->n; j++) {
					int cav = cmp_cav_run(r->cav[k], j + 1);
					*ncav += cav > 0;
					fprintf(f, "%.10g %.10g run %d\n", jitter(c, (double)clients_of(r),
						k, logx, span), r->t[k]->v[j], cav);
				}
				for (size_t j = plot_failed_runs(c, k, r->t[k]); j > 0; j--, nfail++)
					fprintf(f, "%.10g 0 failed 0\n", jitter(c, (double)clients_of(r), k,
						logx, span));
			}
			fprintf(f, "EOD\n");
		}
	return nfail;
}

/* The load chart: MB/s against the client count, a line a file and
 * memory limit. */
static void load_chart(FILE *f, const struct cmp *c, const char **mems, size_t nmems)
{
	char title[300];
	long lo = 0, hi = 0;
	double ymax = 0;
	bool first = true;
	for (size_t i = 0; i < c->nrows; i++) {
		const struct cmp_row *r = &c->rows[i];
		if (!plot_is_load(r))
			continue;
		long n = clients_of(r);
		lo = first || n < lo ? n : lo;
		hi = first || n > hi ? n : hi;
		first = false;
		for (size_t k = 0; k < c->nf; k++) {
			if (!r->t[k])
				continue;
			for (size_t j = 0; j < r->t[k]->n; j++)
				ymax = fmax(ymax, r->t[k]->v[j]);
			if (r->t[k]->n && isfinite(r->ci[k]) && welch(c))
				ymax = fmax(ymax, r->s[k].mean + r->ci[k]);
		}
	}
	bool logx = lo > 0 && hi >= 8 * lo;
	double span = (double)(hi - lo) + 1;
	fprintf(f, "set title \"kbench load: %s MB/s against clients (MB = 10^6 bytes)\\n"
		   "points: every run; crosses at 0: failed runs%s\" noenhanced\n",
		welch(c) ? "mean" : "median",
		welch(c) ? "; bars: the interval of the mean" : "");
	if (welch(c))
		fprintf(f, "set title \"kbench load: mean MB/s against clients (MB = 10^6 bytes)\\n"
			   "points: every run; crosses at 0: failed runs; bars: %g%% interval of the "
			   "mean\" noenhanced\n", c->conf);
	fprintf(f, "set xlabel 'clients'\nset ylabel 'MB/s'\nset key outside top center horizontal box Left reverse maxcols 3\n"
		   "set grid\nunset offsets\nset yrange [0:%.10g]\n", ymax > 0 ? ymax * 1.08 : 1);
	if (logx)
		fprintf(f, "set logscale x 2\nset xrange [%.10g:%.10g]\n", lo / 1.3, hi * 1.3);
	else
		fprintf(f, "unset logscale x\nset xrange [%.10g:%.10g]\n", lo - 0.08 * span,
			hi + 0.08 * span);
	fprintf(f, "set xtics (");
	first = true;
	for (size_t i = 0; i < c->nrows; i++)
		if (plot_is_load(&c->rows[i])) {
			fprintf(f, "%s%ld", first ? "" : ", ", clients_of(&c->rows[i]));
			first = false;
		}
	fprintf(f, ")\n");
	size_t ncav, nfail = load_data(f, c, mems, nmems, logx, span, &ncav);
	fprintf(f, "plot ");
	for (size_t k = 0; k < c->nf; k++)
		for (size_t m = 0; m < nmems; m++) {
			const char *color = plot_color(k);   /* the file's; dashes: the limit */
			/* the limit of this file's tests on these rows (A's may differ:
			 * "load 4" against "load 4 mem=48M") */
			const char *mk = "";
			for (size_t i = 0; i < c->nrows && !*mk; i++)
				if (plot_is_load(&c->rows[i]) && !strcmp(mem_of(&c->rows[i]), mems[m]))
					mk = mem_in(&c->rows[i], k);
			plot_file_title(c, k, title, sizeof(title) - 40);
			if (*mk && !strstr(title, " mem="))
				snprintf(title + strlen(title), 40, " mem=%s", mk);
			fprintf(f, "%s$L%zu_%zu using 1:2%s with %s lw 2 pt %d dt %zu lc rgb '%s' title ",
				k || m ? ", \\\n     " : "", k, m, welch(c) ? ":3" : "",
				welch(c) ? "yerrorlines" : "linespoints", m ? 5 : 7, m % 5 + 1, color);
			plot_quoted(f, title);
			/* each run in its limit's shape (the line's, open: circle,
			 * square, ...); a caveat a ring around it, the shape kept */
			fprintf(f, " noenhanced, \\\n     $P%zu_%zu using 1:(strcol(3) eq 'run' ? $2 : NaN) with points "
				   "pt %d ps 0.9 lc rgb '%s' notitle", k, m, m ? 4 : 6, color);
			if (ncav)
				fprintf(f, ", \\\n     $P%zu_%zu using 1:(strcol(3) eq 'run' && $4 > 0 ? "
					   "$2 : NaN) with points pt 12 ps 2 lc rgb '%s' notitle", k, m,
					color);
		}
	/* the failed runs, each file's in its colour; one key entry */
	for (size_t k = 0; nfail && k < c->nf; k++)
		for (size_t m = 0; m < nmems; m++)
			fprintf(f, ", \\\n     $P%zu_%zu using 1:(strcol(3) eq 'failed' ? 0 : NaN) with "
				   "points pt 2 ps 2 lw 3 lc rgb '%s' notitle", k, m, plot_color(k));
	if (nfail)
		fprintf(f, ", \\\n     NaN with points pt 2 ps 2 lw 3 lc black title 'failed run "
			   "(no figure)'");
	if (ncav)
		fprintf(f, ", \\\n     NaN with points pt 12 ps 2 lc black title 'diamond ring: a "
			   "run with a caveat'");
	fprintf(f, "\n");
}

/* Has the change of file k on row r no percentage (A's centre is 0)? */
static int is_na(const struct cmp_row *r, size_t k)
{
	return r->t[0]->n && r->t[k] && r->t[k]->n && !isfinite(r->change[k]);
}

/* One chart of h pixels below the top pixels already drawn, of total. */
static void cell(FILE *f, int top, int h, int total)
{
	fprintf(f, "set origin 0,%.6f\nset size 1,%.6f\n", (double)(total - top - h) / total,
		(double)h / total);
}

/* The page plot_script draws: 0 the first (load, disk, and the change
 * rows that fit), else the change chart's rows page_lo to page_hi - 1. */
static size_t page_no, page_lo, page_hi;

/* The change rows the first page holds under its load and disk charts. */
static size_t first_rows(const struct cmp *c, int hload, int hdisk)
{
	size_t all = plotbar_change_rows(c), fit = plotbar_rows_in(c, PLOT_PAGE_PX - hload - hdisk);
	/* a first page with room for less than a few rows leaves them all to the
	 * next; one that would leave a few rows alone on a page of their own
	 * grows to hold them (up to a quarter taller) */
	if (all <= fit || (fit >= 8 && all - fit <= fit / 4))
		return all;
	return fit >= 8 ? fit : 0;
}

void plot_script(FILE *f, const struct cmp *c, const char *file)
{
	const char *mems[16];
	size_t nmems = page_no ? 0 : mem_groups(c, mems, 16);
	int hload = nmems ? 460 : 0, hdisk = page_no ? 0 : plotbar_disk_height(c);
	size_t lo = page_no ? page_lo : 0, hi = page_no ? page_hi : first_rows(c, hload, hdisk);
	int hchange = plotbar_change_height(c, hi > lo ? hi - lo : 0);
	int charts = (hload > 0) + (hdisk > 0) + (hchange > 0);
	int h = charts ? hload + hdisk + hchange : 560;
	plot_open(f, file, 1200, h, 10);
	/* room for the two-line titles; each chart's key goes under it, so the
	 * plot area keeps the width the key took beside it */
	fprintf(f, "set lmargin 10\nset rmargin 6\nset tmargin\nset bmargin\n");
	if (charts)
		fprintf(f, "set multiplot\n");
	if (hload) {
		cell(f, 0, hload, h);
		load_chart(f, c, mems, nmems);
	}
	if (hdisk) {
		cell(f, hload, hdisk, h);
		plotbar_disk(f, c);
	}
	if (hchange) {
		cell(f, hload + hdisk, hchange, h);
		plotbar_change(f, c, lo, hi);
	}
	if (charts)
		fprintf(f, "unset multiplot\n");
	int na = 0;
	for (size_t i = 0; i < c->nrows; i++)
		for (size_t k = 1; k < c->nf; k++)
			na |= is_na(&c->rows[i], k);
	if (!charts)
		fprintf(f, "set title 'no figures to draw%s'\nunset xtics\nunset ytics\n"
			   "set xrange [0:1]\nset yrange [0:1]\nplot NaN notitle\n",
			na ? " (a change against a mean of 0 is n/a)" : "");
}

const char *plot_page_name(const char *file, size_t page, char *buf, size_t n)
{
	const char *dot = strrchr(file, '.');
	size_t stem = dot ? (size_t)(dot - file) : strlen(file);
	snprintf(buf, n, "%.*s-%zu%s", (int)stem, file, page, dot ? dot : "");
	return buf;
}

int plot_write(const struct cmp *c, const char *file)
{
	const char *mems[16];
	int hload = mem_groups(c, mems, 16) ? 460 : 0;
	size_t all = plotbar_change_rows(c), lo = first_rows(c, hload, plotbar_disk_height(c));
	size_t per = plotbar_rows_in(c, PLOT_PAGE_PX);
	/* the pages after the first share their rows evenly: no last page of
	 * one row */
	if (per && lo < all) {
		size_t pages = (all - lo + per - 1) / per;
		per = (all - lo + pages - 1) / pages;
	}
	page_no = 0;
	int rc = plot_run(c, file, plot_script);
	for (size_t page = 2; !rc && lo < all && per; page++) {
		char name[PATH_MAX + 32];
		page_no = page - 1;
		page_lo = lo;
		page_hi = lo + per < all ? lo + per : all;
		rc = plot_run(c, plot_page_name(file, page, name, sizeof(name)), plot_script);
		lo = page_hi;
	}
	page_no = 0;
	return rc;
}

int plot_gnuplot(const char *cmd, const char *file,
		 void (*script_of)(FILE *, const void *, const char *), const void *ctx)
{
	char script[] = "/tmp/kbench-plot.XXXXXX", log[] = "/tmp/kbench-plot-log.XXXXXX";
	char shown[300], why[300];
	int fd = mkstemp(script), lfd = mkstemp(log);
	esc_str(shown, sizeof(shown), file);
	if (fd < 0 || lfd < 0) {
		fprintf(stderr, "%s: --plot: cannot make a temporary file: %s\n", cmd,
			strerror(errno));
		if (fd >= 0)
			close(fd), unlink(script);
		if (lfd >= 0)
			close(lfd), unlink(log);
		return 1;
	}
	close(lfd);
	FILE *f = fdopen(fd, "w");
	if (!f) {
		close(fd);
		unlink(script);
		unlink(log);
		return 1;
	}
	script_of(f, ctx, file);
	int werr = ferror(f);
	werr |= fclose(f) != 0;
	struct child_result r;
	volatile sig_atomic_t never = 0;
	const char *args[] = { script, NULL };
	int rc = 0;
	if (werr || child_run("gnuplot", args, log, log, &never, &r) < 0 || r.status != 0) {
		fprintf(stderr, "%s: --plot %s: gnuplot failed: %s\n", cmd, shown,
			werr ? "cannot write its script" : esc_str(why, sizeof(why), r.last_line));
		rc = 1;
	} else {
		/* every page named: a chart of many pages is more than one file */
		fprintf(stderr, "%s: wrote %s\n", cmd, shown);
	}
	unlink(script);
	unlink(log);
	return rc;
}

/* plot_run's script writer and its chart, as plot_gnuplot's context */
struct cmp_script {
	void (*script_of)(FILE *, const struct cmp *, const char *);
	const struct cmp *c;
};

static void cmp_script(FILE *f, const void *ctx, const char *file)
{
	const struct cmp_script *x = ctx;
	x->script_of(f, x->c, file);
}

int plot_run(const struct cmp *c, const char *file,
	     void (*script_of)(FILE *, const struct cmp *, const char *))
{
	struct cmp_script x = { script_of, c };
	return plot_gnuplot(c->cmd, file, cmp_script, &x);
}
