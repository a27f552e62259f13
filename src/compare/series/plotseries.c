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

static void header(FILE *f, const char *file, size_t nk)
{
	int w = nk * 40 + 200 < 900 ? 900 : (int)(nk * 40 + 200);
	plot_open(f, file, w, 600, 10);
	fprintf(f, "set grid ytics\nset key top left\n"
		"set xtics rotate by -45\nset bmargin 8\n");
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
	for (size_t i = 0; i < t->nsteps; i++) {
		const struct ser_step *st = &t->steps[i];
		double x = ((double)st->from + (double)st->to) / 2;
		fig_change(ch, sizeof(ch), st->size.change_pct);
		fprintf(f, "set arrow from %g, graph 0 to %g, graph 1 nohead dt 2 lw 2 lc rgb '%s'\n",
			x, x, st->worse ? "#c00000" : "#008000");
		fprintf(f, "set label '%s q=%.2g' at %g, graph 0.95 offset 0.5,0 tc rgb '%s'\n", ch,
			t->cand[st->cand].q, x, st->worse ? "#c00000" : "#008000");
	}
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
