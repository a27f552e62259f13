/* kbench - compare --plot: the charts of every test but load (see plotbar.h)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The rows run top to bottom (a reversed y axis: row 0 at the top); a
 * row's band of 0.8 is split into a slot per file, A's first.  A family
 * (byte, lmbench, disk, ...) starts with a heading row "[family]" when
 * the chart holds more than one.  Nothing is dropped or clipped: the x
 * range holds every bar and interval and every run within twice the
 * bars' span; a run beyond that is a triangle at the edge with its figure.
 */
#include "config.h"
#include "compare/charts/plotbar.h"
#include "compare/charts/plotutil.h"
#include "compare/judge/cmpcav.h"
#include "compare/judge/cmpsettings.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#define ROW_PX(nf) (10 + 8 * (int)(nf))   /* one test's band, in pixels */
/* a disk test's band: each file's figure is written beside its bar, and
 * the 8-point labels (13 pixels a line in gnuplot's measure) of the files
 * one under the other are 0.8 of a band apart in all */
#define DISK_ROW_PX(nf) (10 + 13 * (int)(nf))

static bool welch(const struct cmp *c)
{
	return c->method == CMP_WELCH;
}

/* Is row r in the change chart: not load, and A has runs? */
static bool in_change(const struct cmp_row *r)
{
	return !plot_is_load(r) && r->t[0]->n;
}

static bool in_disk(const struct cmp_row *r)
{
	return plot_is_disk(r) && r->t[0]->n;
}

/* A change as drawn: right is better, so a lower-is-better test's turns. */
static double turned(const struct cmp_row *r, double pct)
{
	return r->higher_is_better ? pct : -pct;
}

/* The rows that pass keep, ordered by family (in the order the families
 * first appear, each family's rows in c's order), into ord (room for
 * c->nrows) and each one's y position into pos; the heading of each
 * family into head (its row index) when there is more than one family.
 * Returns the number of y positions used (rows and headings). */
static size_t layout(const struct cmp *c, bool (*keep)(const struct cmp_row *), size_t *ord,
		     double *pos, size_t *nord, size_t *head, size_t *nhead)
{
	size_t n = 0, nf = 0, y = 0;
	const char *fams[64];
	for (size_t i = 0; i < c->nrows; i++) {
		if (!keep(&c->rows[i]))
			continue;
		const char *fam = plot_family(&c->rows[i]);
		size_t j = 0;
		while (j < nf && strcmp(fams[j], fam))
			j++;
		if (j == nf && nf < 64)
			fams[nf++] = fam;
	}
	*nhead = 0;
	for (size_t j = 0; j < nf; j++) {
		if (nf > 1) {
			head[(*nhead)++] = y;
			y++;
		}
		for (size_t i = 0; i < c->nrows; i++) {
			const struct cmp_row *r = &c->rows[i];
			if (!keep(r))
				continue;
			const char *fam = plot_family(r);
			size_t g = 0;
			while (g < nf && strcmp(fams[g], fam))
				g++;
			if (g == j || (g == nf && j == nf - 1)) {
				ord[n] = i;
				pos[n++] = (double)y++;
			}
		}
	}
	*nord = n;
	return y;
}

/* The y of file k's slot in the row at pos. */
static double slot(const struct cmp *c, double pos, size_t k)
{
	double w = 0.8 / (double)c->nf;
	return pos - 0.4 + w * ((double)k + 0.5);
}

/* What a bar of file k on r shows: 1 a change beyond the noise (better,
 * worse), 2 no verdict for a caveat (not comparable), 0 neither (~, too
 * few runs). */
static int bar_class(const struct cmp_row *r, size_t k)
{
	return r->v[k] == T_REFUSED ? 2 : r->v[k] == T_BETTER || r->v[k] == T_WORSE ? 1 : 0;
}

/* The family headings' names, by the first row after each. */
static void put_ytics(FILE *f, const struct cmp *c, const size_t *ord, const double *pos,
		      size_t n, const size_t *head, size_t nhead, bool change)
{
	fprintf(f, "set ytics scale 0 font ',9' noenhanced (");
	for (size_t h = 0; h < nhead; h++) {
		size_t i = 0;
		while (i < n && pos[i] < (double)head[h])
			i++;
		fprintf(f, "%s\"[", h ? ", " : "");
		plot_datum(f, i < n ? plot_family(&c->rows[ord[i]]) : "");
		fprintf(f, "]\" %zu", head[h]);
	}
	for (size_t i = 0; i < n; i++) {
		const struct cmp_row *r = &c->rows[ord[i]];
		fprintf(f, "%s\"", i || nhead ? ", " : "");
		plot_datum(f, r->name);
		fputs(" (", f);
		plot_datum(f, r->unit);
		if (change) {
			fprintf(f, "%s", r->higher_is_better ? "" : ", lower is better");
			for (size_t k = 1; k < c->nf; k++)
				if (r->t[k] && r->t[k]->n && !isfinite(r->change[k]))
					fprintf(f, "; %c: n/a", (int)('A' + k));
				else if (r->t[k] && bar_class(r, k) == 2)
					fprintf(f, "; %c: not comparable", (int)('A' + k));
				else if (r->t[k] && cmp_settings_in(r->cav[k]))
					fprintf(f, "; %c: kernel or settings", (int)('A' + k));
		}
		fprintf(f, ")\" %.10g", pos[i]);
	}
	fprintf(f, ")\n");
}

/* Run j of file k on r in percent of A's centre, turned (NAN when A's
 * centre is 0). */
static double run_pct(const struct cmp *c, const struct cmp_row *r, size_t k, size_t j)
{
	double x0 = cmp_center(c, r, 0);
	return x0 != 0 ? turned(r, 100 * (r->t[k]->v[j] - x0) / fabs(x0)) : NAN;
}

/* The bar of file k on r (turned), its interval's half-width into *h;
 * NAN when it has none. */
static double bar_of(const struct cmp *c, const struct cmp_row *r, size_t k, double *h)
{
	bool iv = welch(c) && r->test_v[k] != T_TOO_FEW && isfinite(r->d[k].pct);
	*h = iv && isfinite(r->d[k].pct_half) ? r->d[k].pct_half : 0;
	if (!r->t[k] || !isfinite(r->change[k]))
		return NAN;
	return turned(r, iv ? r->d[k].pct : r->change[k]);
}

/* The x range of the change chart (see the file's opening). */
static void change_range(const struct cmp *c, double *xlo, double *xhi)
{
	double lo = 0, hi = 0, h;
	for (size_t i = 0; i < c->nrows; i++)
		for (size_t k = 1; in_change(&c->rows[i]) && k < c->nf; k++) {
			double x = bar_of(c, &c->rows[i], k, &h);
			if (isfinite(x)) {
				lo = fmin(lo, x - h);
				hi = fmax(hi, x + h);
			}
		}
	double span = fmax(hi - lo, 1), plo = lo, phi = hi;
	for (size_t i = 0; i < c->nrows; i++) {
		const struct cmp_row *r = &c->rows[i];
		for (size_t k = 0; in_change(r) && k < c->nf; k++)
			for (size_t j = 0; r->t[k] && j < r->t[k]->n; j++) {
				double x = run_pct(c, r, k, j);
				if (isfinite(x) && x >= lo - 2 * span && x <= hi + 2 * span) {
					plo = fmin(plo, x);
					phi = fmax(phi, x);
				}
			}
	}
	double pad = 0.08 * fmax(phi - plo, 1);
	*xlo = plo - pad;
	*xhi = phi + pad;
}

size_t plotbar_change_rows(const struct cmp *c)
{
	size_t *ord = malloc((c->nrows + 1) * sizeof(*ord)), head[64], n, nh;
	double *pos = malloc((c->nrows + 1) * sizeof(*pos));
	size_t ys = ord && pos ? layout(c, in_change, ord, pos, &n, head, &nh) : 0;
	free(ord);
	free(pos);
	return ys;
}

/* The change chart's height beside its rows: the titles, the scale and
 * the key above, whose long entries stand one a line (a file each, the
 * three fills, and a line for the marks): 16 pixels a line. */
static int change_overhead(const struct cmp *c)
{
	return 150 + 16 * ((int)c->nf + 4);
}

int plotbar_change_height(const struct cmp *c, size_t rows)
{
	return rows ? change_overhead(c) + (int)rows * ROW_PX(c->nf) : 0;
}

size_t plotbar_rows_in(const struct cmp *c, int px)
{
	int n = (px - change_overhead(c)) / ROW_PX(c->nf);
	return n > 0 ? (size_t)n : 0;
}

/* Keep the rows and headings at y positions lo to hi - 1, moved up by lo. */
static void window(size_t *ord, double *pos, size_t *n, size_t *head, size_t *nh, size_t lo,
		   size_t hi)
{
	size_t m = 0;
	for (size_t i = 0; i < *n; i++)
		if (pos[i] >= (double)lo && pos[i] < (double)hi) {
			ord[m] = ord[i];
			pos[m++] = pos[i] - (double)lo;
		}
	*n = m;
	m = 0;
	for (size_t h = 0; h < *nh; h++)
		if (head[h] >= lo && head[h] < hi)
			head[m++] = head[h] - lo;
	*nh = m;
}

int plotbar_disk_height(const struct cmp *c)
{
	size_t n = 0;
	for (size_t i = 0; i < c->nrows; i++)
		n += in_disk(&c->rows[i]);
	/* the rows and the family's heading; the key above: 60 */
	return n ? 190 + (int)(n + 1) * DISK_ROW_PX(c->nf) : 0;
}

/* The longest y label, in characters, for the left margin. */
static int margin_of(const struct cmp *c, bool (*keep)(const struct cmp_row *))
{
	size_t m = 10;
	for (size_t i = 0; i < c->nrows; i++)
		if (keep(&c->rows[i])) {
			size_t len = strlen(c->rows[i].name) + strlen(c->rows[i].unit) + 8 +
				     8 * (c->nf - 1);
			m = len > m ? len : m;
		}
	/* at most 48 characters of 1200 pixels: the plot keeps two thirds */
	return m > 48 ? 48 : (int)m;
}

/* The datablocks of the change chart: $B<k> bars (xmid y xlo xhi ylo yhi
 * x err class, bar_class), $Q<k> runs (x y label flag caveat: flag 0 in
 * range, 1 / -1 off the right / left edge, 2 failed; caveat cmp_cav_run's
 * 0, 1, 2). */
static void change_data(FILE *f, const struct cmp *c, const size_t *ord, const double *pos,
			size_t n, double xlo, double xhi, size_t *nfail, size_t *noff)
{
	double hw = 0.4 * 0.8 / (double)c->nf;
	for (size_t k = 0; k < c->nf; k++) {
		fprintf(f, "$B%zu << EOD\n", k);
		for (size_t i = 0; i < n && k; i++) {
			const struct cmp_row *r = &c->rows[ord[i]];
			double h, x = bar_of(c, r, k, &h), y = slot(c, pos[i], k);
			if (isfinite(x))
				fprintf(f, "%.10g %.10g %.10g %.10g %.10g %.10g %.10g %.10g %d\n", x / 2,
					y, fmin(0, x), fmax(0, x), y - hw, y + hw, x, h, bar_class(r, k));
		}
		fprintf(f, "EOD\n$Q%zu << EOD\n", k);
		for (size_t i = 0; i < n; i++) {
			const struct cmp_row *r = &c->rows[ord[i]];
			double y = slot(c, pos[i], k);
			for (size_t j = 0; r->t[k] && j < r->t[k]->n; j++) {
				double x = run_pct(c, r, k, j);
				if (!isfinite(x))
					continue;
				int cav = cmp_cav_run(r->cav[k], j + 1);
				if (x < xlo || x > xhi) {
					fprintf(f, "%.10g %.10g \"%+.0f%%\" %d %d\n", x < xlo ? xlo : xhi, y,
						x, x < xlo ? -1 : 1, cav);
					++*noff;
				} else {
					fprintf(f, "%.10g %.10g \"\" 0 %d\n", x, y, cav);
				}
			}
			for (size_t j = plot_failed_runs(c, k, r->t[k]); j > 0; j--, ++*nfail)
				fprintf(f, "%.10g %.10g \"failed\" 2 0\n", xlo, y);
		}
		fprintf(f, "EOD\n");
	}
}

/* The key's entries for what the bars' fills and the runs' marks mean. */
static void change_key(FILE *f, size_t nfail, size_t noff, size_t ncav)
{
	fprintf(f, ", \\\n     NaN with boxes fs solid 0.55 lc rgb '#555555' title 'filled: a change "
		   "beyond the noise', \\\n     NaN with lines lw 1.5 lc rgb '#9a9a9a' title "
		   "'grey line: no proven change (within the noise, or too few runs)', \\\n     NaN with boxes fs pattern "
		   "4 lc rgb '#888888' title 'grey, hatched: not comparable (a caveat)'");
	if (ncav)
		fprintf(f, ", \\\n     NaN with points pt 12 ps 2 lc black title 'diamond ring: a "
			   "run with a caveat'");
	if (nfail)
		fprintf(f, ", \\\n     NaN with points pt 2 ps 1.5 lw 2 lc black title 'failed run "
			   "(no figure)'");
	if (noff)
		fprintf(f, ", \\\n     NaN with points pt 9 ps 1.3 lc black title 'run off the scale'");
}

static void change_plot(FILE *f, const struct cmp *c, size_t nfail, size_t noff, size_t ncav)
{
	char title[300];
	fprintf(f, "plot ");
	for (size_t k = 0; k < c->nf; k++) {
		const char *color = plot_color(k);
		plot_file_title(c, k, title, sizeof(title) - 40);
		fprintf(f, "%s", k ? ", \\\n     " : "");
		if (k) {
			fprintf(f, "$B%zu using ($9 == 1 ? $1 : NaN):2:3:4:5:6 with boxxyerror fs solid "
				   "0.55 border lc rgb '%s' lc rgb '%s' title ", k, color, color);
			plot_quoted(f, title);
			/* no proven change: a thin grey line to the change, no bar:
			 * what stands out is what was proven */
			fprintf(f, " noenhanced, \\\n     $B%zu using ($9 == 0 ? $1 : NaN):2:3:4 "
				   "with xerrorbars pt -1 lw 1 lc rgb '#9a9a9a' notitle, \\\n     $B%zu "
				   "using ($9 == 2 ? $1 : NaN):2:3:4:5:6 with boxxyerror fs pattern 4 lc "
				   "rgb '#888888' notitle, \\\n     ", k, k);
			if (welch(c))
				fprintf(f, "$B%zu using 7:2:8 with xerrorbars pt -1 lw 2 lc black "
					   "notitle, \\\n     ", k);
		} else {
			strcat(title, " (the baseline): its runs");
		}
		fprintf(f, "$Q%zu using ($4 == 0 ? $1 : NaN):2 with points pt 6 ps 0.8 lc rgb '%s' ",
			k, color);
		if (k) {
			fprintf(f, "notitle");
		} else {
			fprintf(f, "title ");
			plot_quoted(f, title);
			fprintf(f, " noenhanced");
		}
		if (ncav)
			fprintf(f, ", \\\n     $Q%zu using ($4 == 0 && $5 > 0 ? $1 : NaN):2 with points "
				   "pt 12 ps 2 lc rgb '%s' notitle", k, color);
		if (noff)
			fprintf(f, ", \\\n     $Q%zu using ($4 == 1 || $4 == -1 ? $1 : NaN):2 with "
				   "points pt 9 ps 1.3 lc rgb '%s' notitle, \\\n     $Q%zu using ($4 == 1 "
				   "|| $4 == -1 ? $1 : NaN):2:3 with labels offset 0,0.7 font ',8' notitle",
				k, color, k);
		if (nfail)
			fprintf(f, ", \\\n     $Q%zu using ($4 == 2 ? $1 : NaN):2 with points pt 2 ps 1.5 "
				   "lw 2 lc rgb '%s' notitle", k, color);
	}
	change_key(f, nfail, noff, ncav);
	fprintf(f, "\n");
}

void plotbar_change(FILE *f, const struct cmp *c, size_t lo, size_t hi)
{
	size_t *ord = malloc((c->nrows + 1) * sizeof(*ord)), head[64], n = 0, nh = 0;
	double *pos = malloc((c->nrows + 1) * sizeof(*pos)), xlo, xhi;
	size_t all = ord && pos ? layout(c, in_change, ord, pos, &n, head, &nh) : 0;
	char part[80] = "";
	hi = hi < all ? hi : all;
	if (lo || hi < all)
		snprintf(part, sizeof(part), " (rows %zu to %zu of %zu)", lo + 1, hi, all);
	window(ord, pos, &n, head, &nh, lo, hi);
	size_t ys = hi > lo ? hi - lo : 0;
	change_range(c, &xlo, &xhi);
	fprintf(f, "set title \"change of the %s against A, percent of A's %s; right is better "
		   "(a lower-is-better test's change is turned)\\npoints: every run (A's at the "
		   "top of each test)%s%s\" noenhanced\n", welch(c) ? "mean" : "median",
		welch(c) ? "mean" : "median",
		welch(c) ? "; black bars: the interval of the difference (Welch)" : "", part);
	fprintf(f, "set xlabel \"<- worse          change against A, %%          better ->\"\n"
		   "set ylabel ''\nset key outside top center horizontal box Left reverse maxcols 2\nunset grid\n"
		   "set grid x\nunset offsets\nunset logscale x\nset xtics auto font ''\n"
		   "set xrange [%.10g:%.10g]\nset yrange [%.10g:-0.6]\nset lmargin %d\n"
		   "unset xzeroaxis\nset yzeroaxis lt -1 lw 1.5\n", xlo, xhi, (double)ys - 0.4,
		margin_of(c, in_change));
	if (ys > 20)  /* a tall chart: the scale on top too */
		fprintf(f, "set link x2\nset x2tics\n");
	put_ytics(f, c, ord, pos, n, head, nh, true);
	size_t nfail = 0, noff = 0, ncav = 0;
	change_data(f, c, ord, pos, n, xlo, xhi, &nfail, &noff);
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < c->nf; k++)
			for (size_t j = 0; c->rows[ord[i]].t[k] && j < c->rows[ord[i]].t[k]->n; j++)
				ncav += cmp_cav_run(c->rows[ord[i]].cav[k], j + 1) > 0;
	change_plot(f, c, nfail, noff, ncav);
	fprintf(f, "unset yzeroaxis\nset ytics auto\nunset x2tics\nunset link x2\n");
	free(ord);
	free(pos);
}

void plotbar_disk(FILE *f, const struct cmp *c)
{
	size_t *ord = malloc((c->nrows + 1) * sizeof(*ord)), head[64], n = 0, nh = 0;
	double *pos = malloc((c->nrows + 1) * sizeof(*pos)), xmax = 0;
	char title[300];
	size_t ys = ord && pos ? layout(c, in_disk, ord, pos, &n, head, &nh) : 0;
	const char *unit = n ? c->rows[ord[0]].unit : "MiB/s";
	double xmin = INFINITY;
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < c->nf; k++)
			for (size_t j = 0; c->rows[ord[i]].t[k] && j < c->rows[ord[i]].t[k]->n; j++) {
				double v = c->rows[ord[i]].t[k]->v[j];
				xmax = fmax(xmax, v);
				xmin = v > 0 ? fmin(xmin, v) : xmin;
			}
	/* -T (memory, ~10^4 MiB/s) beside -t (the disk, ~10^2): a log axis,
	 * so each has its own decade and neither is a sliver */
	bool logx = isfinite(xmin) && xmax >= 10 * xmin;
	double x0 = logx ? pow(10, floor(log10(xmin / 1.5))) : 0;
	fprintf(f, "set title \"kbench disk: each file's %s in the test's unit, right is better%s"
		   "\\npoints: every run; crosses: failed runs; diamond rings: runs with a caveat%s\" "
		   "noenhanced\n", welch(c) ? "mean" : "median",
		logx ? " (log scale: the tests differ tenfold)" : "",
		logx ? "; on a log scale no bar: a block marks each file's figure" : "");
	char xlabel[200];
	snprintf(xlabel, sizeof(xlabel), "%.150s%s", unit, logx ? " (log scale)" : "");
	fprintf(f, "set xlabel ");
	plot_quoted(f, xlabel);
	fprintf(f, " noenhanced\nset ylabel ''\nset key outside top center horizontal box Left "
		   "reverse maxcols 2\nunset grid\nset grid x\nunset offsets\n%s\nset xtics auto "
		   "font ''\nset xrange [%.10g:%.10g]\nset yrange [%.10g:-0.6]\nset lmargin %d\n",
		logx ? "set logscale x 10" : "unset logscale x", x0,
		xmax > 0 ? (logx ? xmax * 4 : xmax * 1.18) : 1, (double)ys - 0.4,
		margin_of(c, in_disk));
	put_ytics(f, c, ord, pos, n, head, nh, false);
	double hw = 0.4 * 0.8 / (double)c->nf;
	size_t nfail = 0;
	for (size_t k = 0; k < c->nf; k++) {
		fprintf(f, "$D%zu << EOD\n", k);
		for (size_t i = 0; i < n; i++) {
			const struct cmp_row *r = &c->rows[ord[i]];
			double y = slot(c, pos[i], k), x = r->t[k] && r->t[k]->n ?
				   cmp_center(c, r, k) : NAN, end = x;
			for (size_t j = 0; r->t[k] && j < r->t[k]->n; j++)
				end = fmax(end, r->t[k]->v[j]);
			/* its figure after the bar and the runs; on a log axis a bar's
			 * length from the axis's start means nothing: a block at the
			 * figure instead */
			if (isfinite(x) && logx)
				fprintf(f, "%.10g %.10g %.10g %.10g %.10g %.10g \"%.2f\" %.10g\n",
					x, y, x / 1.04, x * 1.04, y - hw, y + hw, x, end);
			else if (isfinite(x))
				fprintf(f, "%.10g %.10g %.10g %.10g %.10g %.10g \"%.2f\" %.10g\n",
					(x0 + x) / 2, y, x0, x, y - hw, y + hw, x, end);
		}
		fprintf(f, "EOD\n$R%zu << EOD\n", k);
		for (size_t i = 0; i < n; i++) {
			const struct cmp_row *r = &c->rows[ord[i]];
			double y = slot(c, pos[i], k);
			for (size_t j = 0; r->t[k] && j < r->t[k]->n; j++)
				fprintf(f, "%.10g %.10g 0 %d\n", r->t[k]->v[j], y,
					cmp_cav_run(r->cav[k], j + 1));
			for (size_t j = plot_failed_runs(c, k, r->t[k]); j > 0; j--, nfail++)
				fprintf(f, "%.10g %.10g 2 0\n", logx ? x0 : 0, y);
		}
		fprintf(f, "EOD\n");
	}
	fprintf(f, "plot ");
	for (size_t k = 0; k < c->nf; k++) {
		const char *color = plot_color(k);
		fprintf(f, "%s$D%zu using 1:2:3:4:5:6 with boxxyerror fs solid 0.55 border lc rgb '%s' "
			   "lc rgb '%s' title ", k ? ", \\\n     " : "", k, color, color);
		plot_quoted(f, plot_file_title(c, k, title, sizeof(title)));
		fprintf(f, " noenhanced, \\\n     $D%zu using 8:2:7 with labels left offset 1.8,0 "
			   "font ',8' notitle, \\\n     $R%zu using ($3 == 0 ? $1 : NaN):2 with points "
			   "pt 6 ps 0.8 lc black notitle, \\\n     $R%zu using ($3 == 0 && $4 > 0 ? $1 : "
			   "NaN):2 with points pt 12 ps 2 lc black notitle", k, k, k);
		if (nfail)
			fprintf(f, ", \\\n     $R%zu using ($3 == 2 ? $1 : NaN):2 with points pt 2 ps 1.5 "
				   "lw 2 lc rgb '%s' notitle", k, color);
	}
	fprintf(f, "\n");
	free(ord);
	free(pos);
}
