/* kbench - the compare command: what changed between results files, and is it real
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * usage: kbench compare [--confidence 90|95|99] [--sort change|name]
 *                       [--style table|lkml] [--plot FILE.svg|FILE.png]
 *                       A.json B.json [C.json ...]
 *        kbench compare --export FILE.json
 *
 * A is the baseline.  For every test of A that another file has too (same
 * name, same unit): each file's N, median, mean and the interval of the
 * mean (Student's t at the chosen confidence); for B, C, ... the change of
 * the mean against A in percent and Welch's verdict: the difference with
 * its interval when the interval leaves out zero (better or worse, by the
 * test's direction), "~" when no difference is proven, "too few runs"
 * with fewer than 3 figures on a side.  Tests not matched are listed
 * apart.  --export prints one file in the Go benchmark format.
 *
 * Invariants: every file is read and checked before anything is printed;
 * a bad one gives one line naming it and status 2.
 */
#include "config.h"
#include "commands.h"
#include "cli.h"
#include "suite/compare.h"
#include "suite/cmpmicro.h"
#include "suite/escape.h"
#include "suite/plot.h"

#include <errno.h>
#include <math.h>
#include <popt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const struct sf_test *find_test_exact(const struct suitefile *f, const char *name,
					     const char *unit)
{
	for (size_t i = 0; i < f->nt; i++)
		if (!strcmp(f->t[i].name, name) && !strcmp(f->t[i].unit, unit))
			return &f->t[i];
	return NULL;
}

/* The length of a test's name without its memory-limit dimension
 * (" mem=32M", added by kbench suite --mem-limit). */
static size_t base_len(const char *name)
{
	const char *m = strstr(name, " mem=");
	return m ? (size_t)(m - name) : strlen(name);
}

/* How many tests of f have the base name of name (see base_len) and unit;
 * the last one in *last. */
static size_t count_base(const struct suitefile *f, const char *name, const char *unit,
			 const struct sf_test **last)
{
	size_t n = 0, len = base_len(name);
	for (size_t i = 0; i < f->nt; i++)
		if (base_len(f->t[i].name) == len && !strncmp(f->t[i].name, name, len) &&
		    !strcmp(f->t[i].unit, unit)) {
			n++;
			*last = &f->t[i];
		}
	return n;
}

/* compare.h: the same name and unit, or the one test differing only in
 * the memory limit */
const struct sf_test *cmp_find_test(const struct suitefile *f, const struct suitefile *from,
				    const char *name, const char *unit)
{
	const struct sf_test *t = find_test_exact(f, name, unit), *own = NULL;
	if (t)
		return t;
	if (count_base(f, name, unit, &t) == 1 && count_base(from, name, unit, &own) == 1 &&
	    !find_test_exact(from, t->name, unit))
		return t;
	return NULL;
}

static void fill_row(const struct cmp *c, struct cmp_row *r)
{
	const struct sf_test *a = r->t[0];
	for (size_t k = 0; k < c->nf; k++) {
		r->ci[k] = NAN;
		r->change[k] = NAN;
		r->v[k] = T_TOO_FEW;
		if (!r->t[k] || !r->t[k]->summarised)
			continue;
		r->s[k] = r->t[k]->sum;
		r->ci[k] = t_mean_ci(&r->s[k], c->conf);
		if (k == 0 || !a->n)
			continue;
		if (r->s[0].mean != 0)
			r->change[k] = 100 * (r->s[k].mean - r->s[0].mean) / fabs(r->s[0].mean);
		r->v[k] = t_verdict_of(&r->s[0], &r->s[k], c->conf, r->higher_is_better, &r->d[k]);
	}
}

int cmp_build(struct cmp *c)
{
	const struct suitefile *a = &c->f[0];
	c->rows = calloc(a->nt + 1, sizeof(*c->rows));
	if (!c->rows)
		return -1;
	for (size_t i = 0; i < a->nt; i++) {
		struct cmp_row *r = &c->rows[c->nrows];
		size_t found = 0;
		memset(r, 0, sizeof(*r));
		r->name = a->t[i].name;
		r->unit = a->t[i].unit;
		r->higher_is_better = a->t[i].higher_is_better;
		r->t[0] = &a->t[i];
		for (size_t k = 1; k < c->nf; k++) {
			r->t[k] = cmp_find_test(&c->f[k], a, r->name, r->unit);
			found += r->t[k] != NULL;
		}
		if (!found)
			continue;
		fill_row(c, r);
		c->nrows++;
	}
	return 0;
}

static double sort_key(const struct cmp_row *r)
{
	/* by the change of B, worst first: a regression is negative */
	double ch = r->change[1];
	if (isnan(ch))
		return INFINITY;
	return r->higher_is_better ? ch : -ch;
}

static int by_change(const void *x, const void *y)
{
	double a = sort_key(x), b = sort_key(y);
	return (a > b) - (a < b);
}

static int by_name(const void *x, const void *y)
{
	const struct cmp_row *a = x, *b = y;
	int c = strverscmp(a->name, b->name);
	return c ? c : strcmp(a->unit, b->unit);
}

void cmp_sort(struct cmp *c, enum cmp_order order)
{
	if (order == CMP_BY_CHANGE)
		qsort(c->rows, c->nrows, sizeof(*c->rows), by_change);
	else if (order == CMP_BY_NAME)
		qsort(c->rows, c->nrows, sizeof(*c->rows), by_name);
}

/* compare's options as given (popt's strings, owned) and as they are used */
struct cmp_opts {
	char *conf_arg, *sort_arg, *style_arg, *plot;
	int do_export;
	int lkml;                 /* --style lkml */
	enum cmp_order sort;
	const char **paths;       /* the results files (popt's) */
	size_t n;
};

/* Parse the options into o, leaving popt's context in *ctx (free it).
 * Returns 0 or an exit status after one line. */
static int parse_options(struct cmp_opts *o, const char *cmd, int argc, const char **argv,
			 poptContext *ctx)
{
	struct poptOption options[] = {
		{ "confidence", 0, POPT_ARG_STRING, &o->conf_arg, 0,
		  "confidence of the intervals and verdicts, percent: 90, 95 (default) or 99", "PCT" },
		{ "sort", 0, POPT_ARG_STRING, &o->sort_arg, 0,
		  "order of the tests: change (B against A, worst first) or name (default: A's "
		  "order; lkml: change)", "KEY" },
		{ "style", 0, POPT_ARG_STRING, &o->style_arg, 0,
		  "table (default) or lkml: 'test || A -> B +x%' lines", "STYLE" },
		{ "plot", 0, POPT_ARG_STRING, &o->plot, 0,
		  "also draw the figures into FILE.svg or FILE.png (needs gnuplot)", "FILE" },
		{ "export", 0, POPT_ARG_NONE, &o->do_export, 0,
		  "print one results file in the Go benchmark format (benchstat reads it)", NULL },
		POPT_AUTOHELP
		POPT_TABLEEND
	};
	*ctx = poptGetContext(cmd, argc, argv, options, 0);
	poptSetOtherOptionHelp(*ctx, "[OPTIONS] A.json B.json [C.json ...]");
	int status = cli_popt_done(*ctx, cmd, cli_popt_next(*ctx, options));
	if (status)
		return status;
	o->paths = poptGetArgs(*ctx);
	while (o->paths && o->paths[o->n])
		o->n++;
	return 0;
}

/* --plot FILE: a name gnuplot can take for a picture. */
static int check_plot_name(const char *cmd, const char *plot)
{
	const char *dot = strrchr(plot, '.');
	if (!dot || (strcmp(dot, ".svg") && strcmp(dot, ".png")))
		return cli_usage_error(cmd, "--plot %s: the name must end in .svg or .png", plot);
	for (const char *p = plot; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			return cli_usage_error(cmd, "--plot: the name holds a control character; "
					       "gnuplot cannot take it");
	return 0;
}

/* The values of the options (the confidence into c->conf) and the count
 * of files.  Returns 0 or KB_EXIT_USAGE after one line. */
static int check_options(struct cmp_opts *o, struct cmp *c)
{
	const char *cmd = c->cmd;
	if (o->conf_arg) {
		if (!strcmp(o->conf_arg, "90") || !strcmp(o->conf_arg, "95") ||
		    !strcmp(o->conf_arg, "99"))
			c->conf = atof(o->conf_arg);
		else
			return cli_usage_error(cmd, "--confidence %s: give 90, 95 or 99", o->conf_arg);
	}
	if (o->style_arg && !strcmp(o->style_arg, "lkml")) {
		o->lkml = 1;
		o->sort = CMP_BY_CHANGE;
	} else if (o->style_arg && strcmp(o->style_arg, "table")) {
		return cli_usage_error(cmd, "--style %s: give table or lkml", o->style_arg);
	}
	if (o->sort_arg && !strcmp(o->sort_arg, "change"))
		o->sort = CMP_BY_CHANGE;
	else if (o->sort_arg && !strcmp(o->sort_arg, "name"))
		o->sort = CMP_BY_NAME;
	else if (o->sort_arg)
		return cli_usage_error(cmd, "--sort %s: give change or name", o->sort_arg);
	if (o->plot && check_plot_name(cmd, o->plot))
		return KB_EXIT_USAGE;
	if (o->do_export && o->n != 1)
		return cli_usage_error(cmd, "--export takes one results file");
	if (!o->do_export && o->n < 2)
		return cli_usage_error(cmd, "give at least two results files (A.json B.json)");
	if (o->n > CMP_MAX_FILES)
		return cli_usage_error(cmd, "at most %d results files", CMP_MAX_FILES);
	return 0;
}

/* Read and check every file into c->f (c->nf of them), refusing the same
 * file twice.  Returns 0 or KB_EXIT_USAGE after one line naming it. */
static int load_files(struct cmp *c, const struct cmp_opts *o)
{
	struct stat st[CMP_MAX_FILES];
	for (size_t k = 0; k < o->n; k++) {
		int status = suitefile_load(c->cmd, o->paths[k], true, &c->f[k]);
		if (status)
			return status;
		c->nf++;
		char shown[2][300];
		esc_str(shown[0], sizeof(shown[0]), o->paths[k]);
		if (stat(o->paths[k], &st[k]) < 0) {
			fprintf(stderr, "%s: %s: %s\n", c->cmd, shown[0], strerror(errno));
			return KB_EXIT_USAGE;
		}
		for (size_t j = 0; j < k; j++)
			if (st[j].st_dev == st[k].st_dev && st[j].st_ino == st[k].st_ino) {
				fprintf(stderr, "%s: %s: the same file as %s; compare different runs\n",
					c->cmd, shown[0], esc_str(shown[1], sizeof(shown[1]),
								  o->paths[j]));
				return KB_EXIT_USAGE;
			}
	}
	return 0;
}

/* The files read: the Go benchmark lines of one (--export), or the
 * comparison as a table or lkml lines, and the plot.  Returns the exit
 * status (1 when gnuplot is missing or fails, or memory runs out). */
static int report(struct cmp *c, const struct cmp_opts *o)
{
	if (o->do_export) {
		suitefile_benchstat(stdout, c->f[0].doc);
		return 0;
	}
	if (o->plot && !plot_available()) {
		fprintf(stderr, "%s: --plot: gnuplot is not installed; install it (Debian: apt-get "
			"install gnuplot-nox) or leave out --plot\n", c->cmd);
		return KB_EXIT_FAIL;
	}
	if (cmp_build(c) < 0) {
		fprintf(stderr, "%s: out of memory\n", c->cmd);
		return KB_EXIT_FAIL;
	}
	cmp_sort(c, o->sort);
	if (o->lkml)
		cmp_print_lkml(stdout, c);
	else
		cmp_print_table(stdout, c);
	cmpmicro_lmbench(stdout, c->f, c->nf);     /* lmbench's tables of micro runs */
	fflush(stdout);
	return o->plot ? plot_write(c, o->plot) : 0;
}

int cmd_compare(int argc, const char **argv)
{
	struct cmp_opts o = { .sort = CMP_BY_FILE };
	struct suitefile files[CMP_MAX_FILES];
	struct cmp c = { .cmd = argv[0], .f = files, .nf = 0, .conf = 95 };
	poptContext ctx = NULL;

	int status = parse_options(&o, c.cmd, argc, argv, &ctx);
	if (!status)
		status = check_options(&o, &c);
	if (!status)
		status = load_files(&c, &o);
	if (!status)
		status = report(&c, &o);
	for (size_t k = 0; k < c.nf; k++)
		suitefile_free(&files[k]);
	free(c.rows);
	free(o.conf_arg);
	free(o.sort_arg);
	free(o.style_arg);
	free(o.plot);
	if (ctx)
		poptFreeContext(ctx);
	return status;
}
