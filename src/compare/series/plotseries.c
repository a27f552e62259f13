/* kbench - compare --series --plot: each stepping test against kernel, by gnuplot
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * One chart a test, readable at a glance: the runs as points over the
 * kernels in series order, a flat line at each segment's median, a dashed
 * vertical line where a step is, labelled with its change and q.  The
 * figures go inline in the script (data blocks), every string from a
 * results file escaped and quoted (plotutil.h).
 */
#include "config.h"
#include "compare/series/plotseries.h"
#include "compare/charts/plot.h"
#include "compare/charts/plotutil.h"
#include "sys/child.h"
#include "resultsfile/escape.h"
#include "resultsfile/figures.h"

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The picture's width for nk kernels, in pixels. */
static int width_of(size_t nk)
{
	return nk * 40 + 200 < 900 ? 900 : (int)(nk * 40 + 200);
}

static void header(FILE *f, const char *file, size_t nk)
{
	plot_open(f, file, width_of(nk), 600, 10);
	/* the key above the plot, clear of the steps' labels at its top */
	fprintf(f, "set grid ytics\nset key outside top center horizontal\n"
		"set xtics rotate by -45\nset bmargin 8\n");
}

/* The lines the step labels of t go on, from the top (0), into line[]:
 * a label goes on the first line where it starts after the end of the
 * last label there.  Widths are gnuplot's character cell of the picture's
 * font (at most 9 pixels: 10 points in a PNG, 11 in an SVG) and a plot
 * of the picture's width less 100 pixels of margins: a little narrower
 * than gnuplot's, so a label is never thought shorter than it is. */
#define STEP_LINES 8
static void step_lines(const struct ser_test *t, size_t nk, const char (*text)[48],
		       size_t *line)
{
	double px_per_kernel = (width_of(nk) - 100) / (double)nk, end[STEP_LINES];
	for (size_t l = 0; l < STEP_LINES; l++)
		end[l] = -1e300;
	for (size_t i = 0; i < t->nsteps; i++) {
		double x = ((double)t->steps[i].from + (double)t->steps[i].to) / 2 + 0.5;
		double x0 = x * px_per_kernel + 0.5 * 9, x1 = x0 + 9.0 * (double)strlen(text[i]);
		size_t l = 0;
		while (l + 1 < STEP_LINES && end[l] + 9 > x0)
			l++;
		line[i] = l;
		end[l] = x1;
	}
}

void plotseries_script(FILE *f, const struct series *s, const struct ser_test *t,
		       const char *file)
{
	char ch[32];
	header(f, file, s->nk);
	fprintf(f, "set title ");
	plot_quoted(f, t->name);
	fprintf(f, " . ' (' . ");
	plot_quoted(f, t->unit);
	fprintf(f, " . ', %s)'\n", t->nsteps ? (t->higher_is_better ? "higher is better" :
					     "lower is better") : "no step");
	fprintf(f, "set xrange [-0.5:%zu.5]\nset xtics (", s->nk - 1);
	for (size_t k = 0; k < s->nk; k++) {
		fprintf(f, "%s", k ? ", " : "");
		plot_quoted(f, s->k[k].label);
		fprintf(f, " %zu", k);
	}
	fprintf(f, ")\n$runs << EOD\n");
	for (size_t k = 0; k < s->nk; k++)
		for (size_t j = 0; t->t[k] && !t->kept_out[k] && s->k[k].control_of < 0 &&
		     j < t->t[k]->n; j++)
			fprintf(f, "%zu %.17g\n", k, t->t[k]->v[j]);
	fprintf(f, "EOD\n$out << EOD\n");
	for (size_t k = 0; k < s->nk; k++)
		for (size_t j = 0; t->t[k] && (t->kept_out[k] || s->k[k].control_of >= 0) &&
		     j < t->t[k]->n; j++)
			fprintf(f, "%zu %.17g\n", k, t->t[k]->v[j]);
	fprintf(f, "EOD\n$seg << EOD\n");
	for (size_t i = 0; t->nsteps && i <= t->nsteps; i++) {
		size_t lo = i ? t->steps[i - 1].to : 0, hi = i < t->nsteps ? t->steps[i].to : s->nk;
		double med = i < t->nsteps ? t->steps[i].size.left : t->steps[i - 1].size.right;
		fprintf(f, "%g %.17g\n%g %.17g\n\n", (double)lo - 0.4, med, (double)hi - 0.6, med);
	}
	fprintf(f, "EOD\n");
	char (*text)[48] = calloc(t->nsteps + 1, sizeof(*text));
	size_t *line = calloc(t->nsteps + 1, sizeof(*line));
	if (text && line) {
		for (size_t i = 0; i < t->nsteps; i++) {
			fig_change(ch, sizeof(ch), t->steps[i].size.change_pct);
			snprintf(text[i], sizeof(text[i]), "%s q=%.2g", ch,
				 t->cand[t->steps[i].cand].q);
		}
		step_lines(t, s->nk, (const char (*)[48])text, line);
		/* room above the runs for the label lines: their band is b of
		 * the plot's height; an offset of f of the data's range leaves
		 * f / (1 + f) of it free */
		size_t used = 0;
		for (size_t i = 0; i < t->nsteps; i++)
			used = line[i] + 1 > used ? line[i] + 1 : used;
		double b = 0.045 * (double)used + 0.04;
		if (used)
			fprintf(f, "set offsets 0, 0, graph %.3f, 0\n", b / (1 - b));
	}
	for (size_t i = 0; text && line && i < t->nsteps; i++) {
		const struct ser_step *st = &t->steps[i];
		double x = ((double)st->from + (double)st->to) / 2;
		fprintf(f, "set arrow from %g, graph 0 to %g, graph 1 nohead dt 2 lw 2 lc rgb '%s'\n",
			x, x, st->worse ? "#c00000" : "#008000");
		/* a line of the 10-point font is about 0.04 of the plot's height */
		fprintf(f, "set label '%s' at %g, graph %.3f offset 0.5,0 tc rgb '%s'\n", text[i],
			x, 0.95 - 0.045 * (double)line[i], st->worse ? "#c00000" : "#008000");
	}
	free(text);
	free(line);
	fprintf(f, "plot $runs using 1:2 with points pt 7 ps 0.6 lc rgb '#3060a0' title 'runs'");
	fprintf(f, ", $out using 1:2 with points pt 6 ps 0.8 lc rgb '#808080' "
		"title 'kept out, control'");
	if (t->nsteps)
		fprintf(f, ", $seg using 1:2 with lines lw 2 lc rgb '#000000' "
			"title 'segment median'");
	fprintf(f, "\n");
}

/* draw()'s series and test, as plot_gnuplot's context */
struct ser_chart {
	const struct series *s;
	const struct ser_test *t;
};

static void chart_script(FILE *f, const void *ctx, const char *file)
{
	const struct ser_chart *x = ctx;
	plotseries_script(f, x->s, x->t, file);
}

/* Write the chart of t into file with gnuplot.  Returns 0 or 1. */
static int draw(const struct series *s, const struct ser_test *t, const char *file)
{
	struct ser_chart x = { s, t };
	return plot_gnuplot(s->cmd, file, chart_script, &x);
}

int plotseries_write(const struct series *s, const char *file)
{
	size_t page = 1;
	int rc = 0;
	for (size_t i = 0; !rc && i < s->nt; i++) {
		if (!s->t[i].nsteps)
			continue;
		char name[PATH_MAX + 32];
		rc = draw(s, &s->t[i], page == 1 ? file :
			  plot_page_name(file, page, name, sizeof(name)));
		page++;
	}
	if (page == 1 && s->nt)
		rc = draw(s, &s->t[0], file);
	return rc;
}
