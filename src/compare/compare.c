/* kbench - the compare command: what changed between results files, and is it real
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * usage: kbench compare [--confidence 90|95|99] [--sort change|name]
 *                       [--test utest|welch] [--adjust bh|holm|none]
 *                       [--control A2.json] [--same-within PCT]
 *                       [--fail-on worse|change|not-same [--min-change PCT]]
 *                       [--style table|lkml|runs] [--json]
 *                       [--plot FILE.svg|FILE.png] [--base FILE|LABEL] A.json B.json [C.json ...]
 *        kbench compare --series [OPTIONS] FILE FILE FILE...   (compare/cmpseries.h)
 *        kbench compare --by mem [OPTIONS] FILE.json
 *        kbench compare --export [go|lkp|mmtests] FILE.json
 *
 * A is the baseline.  For every test of A that another file has too (same
 * name, same unit; " mem=none" is no limit): each file's N, median, mean
 * and the interval of the mean (Student's t at the chosen confidence); for
 * B, C, ... the change against A in percent and a verdict.  By default
 * (--test utest) the change is the median's and the verdict the
 * Mann-Whitney U test's on the runs: better or worse (by the test's
 * direction) when p is below 1 - confidence, "~" when not, "too few runs"
 * when these run counts cannot reach the confidence.  --test welch: the
 * change of the mean and Welch's verdict (the difference with its
 * interval; "too few runs" with fewer than 3 figures on a side).  The
 * p-values of every row and file are adjusted together (--adjust,
 * cmpadj.h: Benjamini-Hochberg by default) before any verdict is given.
 * A row with no proven change is "same" when two one-sided tests prove
 * it within +-PCT (--same-within), else "not proven", and every such row
 * says the smallest change its runs could have proven (cmpsame.h).
 * --fail-on turns the verdicts into exit status 4 (cmpgate.h).  Tests
 * not matched are listed apart; no test in common is exit status 1.
 * --by mem splits one file into one per memory limit, compared as files.
 * --export prints one file in the Go benchmark format, or with lkp or
 * mmtests in the forms those harnesses keep (compare/forms/cmpexport.h).
 *
 * Invariants: every file is read and checked before anything is printed;
 * a bad one gives one line naming it and status 2.
 */
#include "config.h"
#include "commands.h"
#include "cli.h"
#include "compare/compare.h"
#include "compare/forms/cmpexport.h"
#include "compare/forms/cmpmicro.h"
#include "compare/forms/cmpforms.h"
#include "compare/judge/cmpadj.h"
#include "compare/judge/cmpdrift.h"
#include "compare/judge/cmpgate.h"
#include "compare/judge/cmpbase.h"
#include "compare/series/cmpseries.h"
#include "resultsfile/escape.h"
#include "compare/charts/plot.h"
#include "compare/judge/cmplat.h"
#include "compare/charts/plotlat.h"
#include "compare/judge/cmpsame.h"
#include "sys/steal.h"

#include <errno.h>
#include <math.h>
#include <popt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The U test's verdict on file k of r against A: no verdict when these
 * sizes cannot reach the confidence (p_min above 1 - conf). */
static enum t_verdict u_verdict(const struct cmp *c, struct cmp_row *r, size_t k)
{
	const struct sf_test *a = r->t[0], *b = r->t[k];
	double alpha = 1 - c->conf / 100;
	if (u_test(a->v, a->n, b->v, b->n, &r->u[k]) < 0 || r->u[k].p_min > alpha)
		return T_TOO_FEW;
	if (!(r->u[k].p < alpha))
		return T_SAME;
	return r->u[k].b_larger == r->higher_is_better ? T_BETTER : T_WORSE;
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
		if (k == 0 || !a->n || !a->summarised)
			continue;
		double x0 = cmp_center(c, r, 0);
		if (x0 != 0)
			r->change[k] = 100 * (cmp_center(c, r, k) - x0) / fabs(x0);
		if (c->method == CMP_UTEST)
			r->v[k] = u_verdict(c, r, k);
		else
			r->v[k] = t_verdict_of(&r->s[0], &r->s[k], c->conf, r->higher_is_better,
					       &r->d[k]);
	}
}

/* ---- steal: what the hypervisor took from the runs (sys/steal.h) ---- */

void cmp_steal_of(const struct suitefile *f, long ticks_per_s, struct cmp_steal *out)
{
	memset(out, 0, sizeof(*out));
	for (size_t i = 0; i < f->nt; i++) {
		const struct sf_test *t = &f->t[i];
		size_t j;
		const json_t *r;
		json_array_foreach(json_object_get(t->row, "runs"), j, r) {
			double pct, wall_s;
			if (suitefile_run_steal(json_object_get(r, "document"), t->row, &pct,
						&wall_s, NULL, 0) < 1 ||
			    !steal_notable(pct, wall_s, ticks_per_s) || (out->notable && pct <= out->pct))
				continue;
			*out = (struct cmp_steal){ true, pct, wall_s, j + 1, t->name };
		}
	}
}

int cmp_build(struct cmp *c)
{
	const struct suitefile *a = &c->f[0];
	for (size_t k = 0; k < c->nf; k++)
		cmp_steal_of(&c->f[k], c->ticks_per_s, &c->steal[k]);
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
		cmp_caveats_fill(c, r);
		c->nrows++;
	}
	if (cmp_adjust(c) < 0)
		return -1;
	int rc = cmp_drift_check(c);
	return rc < 0 ? rc : cmp_same(c) < 0 ? -1 : rc;
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
	char *conf_arg, *sort_arg, *style_arg, *plot, *test_arg, *by;
	char *adjust_arg, *fail_arg, *min_arg, *control, *same_arg;
	char *base;               /* --base: the file made A (cmpbase.h) */
	enum cmp_fail_on fail_on; /* --fail-on */
	double min_change;        /* --min-change, percent */
	int do_export, json;
	int latency;              /* --latency: the latency rows (cmplat.h) */
	enum export_format export_fmt;  /* --export's word (go when none) */
	int lkml;                 /* --style lkml */
	int runs;                 /* --style runs */
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
		  "table (default); lkml: From/To blocks and 'test || A -> B +x%' lines per pair; "
		  "runs: every run, a row per kernel and test, a block per machine and memory "
		  "limit", "STYLE" },
		{ "plot", 0, POPT_ARG_STRING, &o->plot, 0,
		  "also draw the figures into FILE.svg or FILE.png (needs gnuplot)", "FILE" },
		{ "test", 0, POPT_ARG_STRING, &o->test_arg, 0,
		  "the verdict: utest (medians, Mann-Whitney U; default) or welch (means, "
		  "Welch's t-test)", "TEST" },
		{ "by", 0, POPT_ARG_STRING, &o->by, 0,
		  "compare one file within itself: each test at every value of DIM against the "
		  "first (mem: --mem-limit's values)", "DIM" },
		{ "adjust", 0, POPT_ARG_STRING, &o->adjust_arg, 0,
		  "adjust the p-values over every tested row and file: bh (Benjamini-Hochberg, "
		  "default), holm, or none (each row on its own)", "HOW" },
		{ "control", 0, POPT_ARG_STRING, &o->control, 0,
		  "the baseline run again after the others: a row where it differs from A "
		  "gets no verdict but the caveat drift", "FILE" },
		{ "fail-on", 0, POPT_ARG_STRING, &o->fail_arg, 0,
		  "exit with status 4 when a row's adjusted verdict is worse (worse) or better or "
		  "worse (change)", "WHAT" },
		{ "same-within", 0, POPT_ARG_STRING, &o->same_arg, 0,
		  "\"same\" when the change is proven within +-PCT percent (default: 10 for "
		  "micro latencies, 5 for the rest)", "PCT" },
		{ "min-change", 0, POPT_ARG_STRING, &o->min_arg, 0,
		  "with --fail-on: a proven change smaller than PCT percent does not fail", "PCT" },
		{ "json", 0, POPT_ARG_NONE, &o->json, 0,
		  "print the comparison as JSON (rows, changes, intervals, verdicts)", NULL },
		{ "base", 0, POPT_ARG_STRING, &o->base, 0,
		  "set every file against this one (a path given, or a label or kernel release) "
		  "instead of the first", "FILE|LABEL" },
		{ "series", 0, POPT_ARG_NONE, NULL, 0,
		  "the files are one series of kernels: where each test stepped (see kbench "
		  "compare --series --help)", NULL },
		{ "latency", 0, POPT_ARG_NONE, &o->latency, 0,
		  "also the latency rows of load runs: each op's merged p50, p90, p99, p99.9, "
		  "max, their change and a verdict (U test on the runs' p99s)", NULL },
		{ "export", 0, POPT_ARG_NONE, &o->do_export, 0,
		  "print one results file in the Go benchmark format (benchstat reads it); "
		  "--export lkp or mmtests: LKP's flat stats, mmtests' rows", NULL },
		POPT_AUTOHELP
		POPT_TABLEEND
	};
	*ctx = poptGetContext(cmd, argc, argv, options, 0);
	poptSetOtherOptionHelp(*ctx, "[OPTIONS] A.json B.json [C.json ...]    or    --by mem FILE.json");
	int status = cli_popt_done(*ctx, cmd, cli_popt_next(*ctx, options));
	if (status)
		return status;
	o->paths = poptGetArgs(*ctx);
	while (o->paths && o->paths[o->n])
		o->n++;
	int fmt;
	if (o->do_export && o->n == 2 && (fmt = cmp_export_format(o->paths[0])) >= 0) {
		/* --export lkp FILE: the word, then the file */
		o->export_fmt = (enum export_format)fmt;
		o->paths++;
		o->n--;
	}
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
	} else if (o->style_arg && !strcmp(o->style_arg, "runs")) {
		o->runs = 1;
	} else if (o->style_arg && strcmp(o->style_arg, "table")) {
		return cli_usage_error(cmd, "--style %s: give table, lkml or runs", o->style_arg);
	}
	if (o->sort_arg && !strcmp(o->sort_arg, "change"))
		o->sort = CMP_BY_CHANGE;
	else if (o->sort_arg && !strcmp(o->sort_arg, "name"))
		o->sort = CMP_BY_NAME;
	else if (o->sort_arg)
		return cli_usage_error(cmd, "--sort %s: give change or name", o->sort_arg);
	if (o->plot && check_plot_name(cmd, o->plot))
		return KB_EXIT_USAGE;
	if (o->test_arg && !strcmp(o->test_arg, "welch"))
		c->method = CMP_WELCH;
	else if (o->test_arg && strcmp(o->test_arg, "utest"))
		return cli_usage_error(cmd, "--test %s: give utest or welch", o->test_arg);
	if (o->adjust_arg && p_adjust_parse(o->adjust_arg, &c->adjust) < 0)
		return cli_usage_error(cmd, "--adjust %s: give bh, holm or none", o->adjust_arg);
	if (o->fail_arg && cmp_fail_on_parse(o->fail_arg, &o->fail_on) < 0)
		return cli_usage_error(cmd, "--fail-on %s: give worse, change or not-same",
				       o->fail_arg);
	if (o->min_arg && !o->fail_arg)
		return cli_usage_error(cmd, "--min-change sets --fail-on's threshold: give "
				       "--fail-on too");
	char *end;
	if (o->min_arg && (!(o->min_change = strtod(o->min_arg, &end), end != o->min_arg && !*end) ||
			   !(o->min_change >= 0 && o->min_change < 1e6)))
		return cli_usage_error(cmd, "--min-change %s: give a percentage from 0", o->min_arg);
	if (o->same_arg && (!(c->same_within = strtod(o->same_arg, &end), end != o->same_arg &&
						      !*end) || !(c->same_within > 0 &&
								  c->same_within < 1000)))
		return cli_usage_error(cmd, "--same-within %s: give a percentage above 0 (e.g. 5)",
				       o->same_arg);
	if (o->control && (o->do_export || o->by))
		return cli_usage_error(cmd, "--control is A run again: leave out %s",
				       o->by ? "--by" : "--export");
	if (o->fail_arg && (o->do_export || o->runs))
		return cli_usage_error(cmd, "--fail-on judges the verdicts: leave out %s",
				       o->runs ? "--style runs" : "--export");
	if (o->by && strcmp(o->by, "mem"))
		return cli_usage_error(cmd, "--by %s: give mem (the only dimension in test names)",
				       o->by);
	if (o->json && (o->lkml || o->runs || o->plot || o->do_export))
		return cli_usage_error(cmd, "--json prints the comparison alone: leave out %s",
				       o->lkml ? "--style lkml" : o->runs ? "--style runs" :
				       o->plot ? "--plot" : "--export");
	if (o->latency && o->do_export)
		return cli_usage_error(cmd, "--latency adds rows to the table, the lkml lines "
				       "or the JSON: leave out --export");
	if (o->do_export && o->n != 1)
		return cli_usage_error(cmd, "--export takes one results file");
	if (o->by && o->n != 1)
		return cli_usage_error(cmd, "--by %s compares one results file within itself: "
				       "give one", o->by);
	if (!o->do_export && !o->by && o->n < 2)
		return cli_usage_error(cmd, "give at least two results files (A.json B.json)");
	if (o->n > CMP_MAX_FILES)
		return cli_usage_error(cmd, "at most %d results files", CMP_MAX_FILES);
	return 0;
}

/* Read and check every file into c->f (c->nf of them), refusing the same
 * file twice, and a --control that is one of them (A itself could never
 * show a drift).  Returns 0 or KB_EXIT_USAGE after one line naming it. */
static int load_files(struct cmp *c, const struct cmp_opts *o)
{
	struct stat st[CMP_MAX_FILES + 1];
	for (size_t k = 0; k <= o->n; k++) {
		const char *path = k < o->n ? o->paths[k] : o->control;
		if (!path)
			break;
		if (k < o->n) {
			int status = suitefile_load(c->cmd, path, true, &c->f[k]);
			if (status)
				return status;
			c->nf++;
		}
		char shown[2][300];
		esc_str(shown[0], sizeof(shown[0]), path);
		if (stat(path, &st[k]) < 0) {
			fprintf(stderr, "%s: %s%s: %s\n", c->cmd, k == o->n ? "--control " : "",
				shown[0], strerror(errno));
			return KB_EXIT_USAGE;
		}
		for (size_t j = 0; j < k; j++)
			if (st[j].st_dev == st[k].st_dev && st[j].st_ino == st[k].st_ino) {
				fprintf(stderr, "%s: %s%s: the same file as %s; %s\n", c->cmd,
					k == o->n ? "--control " : "", shown[0],
					esc_str(shown[1], sizeof(shown[1]), o->paths[j]),
					k == o->n ? "the control is A run again, a series of its own" :
					"compare different runs");
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
	if (o->do_export && o->export_fmt != EXPORT_GO) {
		if (cmp_export(stdout, &c->f[0], o->export_fmt) < 0) {
			char shown[300];
			fprintf(stderr, "%s: %s holds no load run: nothing in LKP's form\n", c->cmd,
				esc_str(shown, sizeof(shown), c->f[0].path));
			return KB_EXIT_FAIL;
		}
		return 0;
	}
	if (o->do_export) {
		suitefile_benchstat(stdout, c->f[0].doc);
		return 0;
	}
	if (o->plot && plot_missing(c->cmd))
		return KB_EXIT_FAIL;
	if (cmp_build(c) < 0) {
		fprintf(stderr, "%s: out of memory\n", c->cmd);
		return KB_EXIT_FAIL;
	}
	if (o->runs) {
		/* every run as recorded: no matching needed */
		cmp_print_runs(stdout, c);
		cmp_print_steal(stdout, c);
		fflush(stdout);
		return o->plot ? plot_write(c, o->plot) : 0;
	}
	if (!c->nrows) {
		/* what each file holds, and why there is no comparison or chart */
		if (o->json) {
			cmp_print_json(stdout, c);
		} else {
			cmp_print_table(stdout, c);
			/* BYTE's index sets tools side by side though no row matches */
			size_t scored = cmp_print_byte_index(stdout, c);
			cmpmicro_lmbench(stdout, c->f, c->nf);
			cmp_print_steal(stdout, c);
			if (scored >= 2 && o->plot) {
				/* the index is the comparison, and it has no chart */
				fflush(stdout);
				fprintf(stderr, "%s: --plot %s: no chart written: no test is in two "
					"files (BYTE's index above sets the files side by side)\n",
					c->cmd, o->plot);
				return KB_EXIT_FAIL;
			}
			if (scored >= 2)
				return 0;
		}
		fflush(stdout);
		cmp_print_no_match(stderr, c);
		return KB_EXIT_FAIL;
	}
	cmp_sort(c, o->sort);
	int status = o->latency ? cmplat_check(c) : 0;
	if (status)
		return status;
	struct cmplat lat = { NULL, 0 };
	if (o->latency) {
		if (cmplat_build(c, &lat) < 0)
			return KB_EXIT_FAIL;
		if (cmp_adjust_latency(c, &lat) < 0) {
			fprintf(stderr, "%s: out of memory\n", c->cmd);
			cmplat_free(&lat);
			return KB_EXIT_FAIL;
		}
		c->lat = &lat;
	}
	if (o->json)
		cmp_print_json(stdout, c);
	else if (o->lkml)
		cmp_print_lkml(stdout, c);
	else
		cmp_print_table(stdout, c);
	if (!o->json && !o->lkml)
		cmp_print_byte_index(stdout, c);
	if (o->latency && !o->json)
		cmplat_print(stdout, c, &lat);
	c->lat = NULL;
	cmplat_free(&lat);
	if (!o->json) {
		cmpmicro_lmbench(stdout, c->f, c->nf);     /* lmbench's tables of micro runs */
		cmp_print_steal(stdout, c);
	}
	fflush(stdout);
	int rc = o->plot ? plot_write(c, o->plot) : 0;
	if (!rc && o->plot)
		rc = plotlat_write(c, o->plot);
	int gate = cmp_gate(stderr, c, o->fail_on, o->min_change);
	return rc ? rc : gate;
}

/* --by DIM: the one file read into whole, split into c->f.  Returns 0 or
 * an exit status after one line. */
static int split_file(struct cmp *c, const struct cmp_opts *o, struct suitefile *whole)
{
	size_t left;
	char shown[300];
	*whole = c->f[0];
	memset(&c->f[0], 0, sizeof(c->f[0]));
	c->nf = 0;
	size_t n = 0;
	int rc = cmp_split_by(whole, o->by, c->f, CMP_MAX_FILES, &n, &left);
	if (rc == 0) {
		c->nf = n;
		return 0;
	}
	if (rc == -1) {
		for (size_t k = 0; k < n; k++)
			suitefile_free(&c->f[k]);
		fprintf(stderr, "%s: out of memory\n", c->cmd);
		return KB_EXIT_FAIL;
	}
	esc_str(shown, sizeof(shown), whole->path);
	fprintf(stderr, "%s: --by %s: %s holds %zu value%s of %s (its tests' names have no "
		"\" %s=\" or one value): nothing to compare\n", c->cmd, o->by, shown, n,
		n == 1 ? "" : "s", o->by, o->by);
	return KB_EXIT_FAIL;
}

int cmd_compare(int argc, const char **argv)
{
	struct cmp_opts o = { .sort = CMP_BY_FILE };
	struct suitefile files[CMP_MAX_FILES];
	struct suitefile whole, control;
	/* the ticks of a document's steal are taken to be the reading
	 * machine's USER_HZ (sysconf(_SC_CLK_TCK): 100 on Linux, on every
	 * architecture); the documents do not record the writer's */
	struct cmp c = { .cmd = argv[0], .f = files, .nf = 0, .conf = 95, .method = CMP_UTEST,
			 .ticks_per_s = sysconf(_SC_CLK_TCK) };
	poptContext ctx = NULL;

	if (cmp_series_asked(argc, argv))
		return cmp_series_main(argc, argv);
	memset(&whole, 0, sizeof(whole));
	memset(&control, 0, sizeof(control));
	/* --export=WORD is --export WORD */
	const char **av = malloc(((size_t)argc + 2) * sizeof(*av));
	int ac = 0, status = av ? 0 : KB_EXIT_FAIL;
	if (!av)
		fprintf(stderr, "%s: out of memory\n", c.cmd);
	for (int i = 0; av && i < argc; i++) {
		if (!strncmp(argv[i], "--export=", 9)) {
			int fmt = cmp_export_format(argv[i] + 9);
			if (fmt < 0 && !status)
				status = cli_usage_error(c.cmd, "--export %s: give go, lkp or mmtests",
							 argv[i] + 9);
			o.export_fmt = fmt < 0 ? EXPORT_GO : (enum export_format)fmt;
			av[ac++] = "--export";
		} else {
			av[ac++] = argv[i];
		}
	}
	if (av)
		av[ac] = NULL;
	if (!status)
		status = parse_options(&o, c.cmd, ac, av, &ctx);
	if (!status)
		status = check_options(&o, &c);
	if (!status)
		status = load_files(&c, &o);
	if (!status && o.base && cmp_rebase(c.f, c.nf, o.base) < 0)
		status = cli_usage_error(c.cmd, "--base %s: no file given has that path, label or "
					 "kernel", o.base);
	if (!status && o.control && !(status = suitefile_load(c.cmd, o.control, true, &control)))
		c.control = &control;
	if (!status && o.by)
		status = split_file(&c, &o, &whole);
	if (!status)
		status = report(&c, &o);
	cmp_caveats_free(&c);
	for (size_t k = 0; k < c.nf; k++)
		suitefile_free(&files[k]);
	suitefile_free(&whole);
	free(c.rows);
	free(o.test_arg);
	free(o.adjust_arg);
	free(o.fail_arg);
	free(o.min_arg);
	free(o.same_arg);
	free(o.control);
	free(o.base);
	suitefile_free(&control);
	free(o.by);
	free(o.conf_arg);
	free(o.sort_arg);
	free(o.style_arg);
	free(o.plot);
	if (ctx)
		poptFreeContext(ctx);
	free(av);
	return status;
}
