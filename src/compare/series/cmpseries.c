/* kbench - compare --series: N results files as one series of kernels
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * usage: kbench compare --series [--sort file|version] [--confidence 90|95|99]
 *                       [--style table|lkml] [--json] [--plot FILE.svg|FILE.png]
 *                       [--fail-on worse] FILE FILE FILE...
 *
 * Each file is one kernel (its label: the document's label, else its
 * kernel release, else the path), in the order given or, with --sort
 * version, by kernel release (serbuild.h: ser_version_cmp).  A file
 * whose label an earlier one has is that build run again: the control of
 * the series, as compare --control is, never a point.  For every test:
 * the steps of the series (serbuild.h), printed as a table of kernels,
 * lkml lines, JSON or charts (serprint.h, plotseries.h).
 *
 * Invariants: every file is read and checked before anything is printed,
 * and held only as long as the report needs it; there is no limit on the
 * count of files but memory.  At least three points (kernels) are needed.
 */
#include "config.h"
#include "cli.h"
#include "compare/series/cmpseries.h"
#include "compare/charts/plot.h"
#include "compare/series/plotseries.h"
#include "compare/series/serbuild.h"
#include "compare/series/serprint.h"
#include "resultsfile/escape.h"
#include "resultsfile/rowcav.h"

#include <errno.h>
#include <popt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

bool cmp_series_asked(int argc, const char **argv)
{
	for (int i = 1; i < argc && strcmp(argv[i], "--"); i++)
		if (!strcmp(argv[i], "--series"))
			return true;
	return false;
}

struct ser_opts {
	int series, json, version, lkml;
	char *sort_arg, *conf_arg, *style_arg, *plot, *fail_arg;
	const char **paths;
	size_t n;
};

static int parse(struct ser_opts *o, struct series *s, int argc, const char **argv,
		 poptContext *ctx)
{
	struct poptOption options[] = {
		{ "series", 0, POPT_ARG_NONE, &o->series, 0,
		  "the files are one series of kernels: where each test stepped", NULL },
		{ "sort", 0, POPT_ARG_STRING, &o->sort_arg, 0,
		  "the order of the kernels: file (as given, default) or version (by kernel "
		  "release: -test, -pre, -rc, then the release)", "KEY" },
		{ "confidence", 0, POPT_ARG_STRING, &o->conf_arg, 0,
		  "1 - the q a step needs, percent: 90, 95 (default) or 99", "PCT" },
		{ "style", 0, POPT_ARG_STRING, &o->style_arg, 0,
		  "table (default: kernels side by side) or lkml (a line a step)", "STYLE" },
		{ "json", 0, POPT_ARG_NONE, &o->json, 0, "print the series as JSON", NULL },
		{ "plot", 0, POPT_ARG_STRING, &o->plot, 0,
		  "also draw each stepping test into FILE.svg or FILE.png, then FILE-2... "
		  "(needs gnuplot)", "FILE" },
		{ "fail-on", 0, POPT_ARG_STRING, &o->fail_arg, 0,
		  "worse: exit with status 4 when the newest kernel sits in a segment proven "
		  "worse than the one before it", "WHAT" },
		POPT_AUTOHELP
		POPT_TABLEEND
	};
	*ctx = poptGetContext(s->cmd, argc, argv, options, 0);
	poptSetOtherOptionHelp(*ctx, "--series [OPTIONS] FILE FILE FILE...");
	int status = cli_popt_done(*ctx, s->cmd, cli_popt_next(*ctx, options));
	if (status)
		return status;
	o->paths = poptGetArgs(*ctx);
	while (o->paths && o->paths[o->n])
		o->n++;
	const char *cmd = s->cmd;
	if (o->sort_arg && !strcmp(o->sort_arg, "version"))
		o->version = 1;
	else if (o->sort_arg && strcmp(o->sort_arg, "file"))
		return cli_usage_error(cmd, "--sort %s: give file or version", o->sort_arg);
	if (o->conf_arg && (!strcmp(o->conf_arg, "90") || !strcmp(o->conf_arg, "95") ||
			    !strcmp(o->conf_arg, "99")))
		s->conf = atof(o->conf_arg);
	else if (o->conf_arg)
		return cli_usage_error(cmd, "--confidence %s: give 90, 95 or 99", o->conf_arg);
	if (o->style_arg && !strcmp(o->style_arg, "lkml"))
		o->lkml = 1;
	else if (o->style_arg && strcmp(o->style_arg, "table"))
		return cli_usage_error(cmd, "--style %s: give table or lkml (with --series)",
				       o->style_arg);
	if (o->fail_arg && strcmp(o->fail_arg, "worse"))
		return cli_usage_error(cmd, "--fail-on %s: give worse (with --series)", o->fail_arg);
	if (o->json && (o->lkml || o->plot))
		return cli_usage_error(cmd, "--json prints the series alone: leave out %s",
				       o->lkml ? "--style lkml" : "--plot");
	if (o->plot) {
		const char *dot = strrchr(o->plot, '.');
		if (!dot || (strcmp(dot, ".svg") && strcmp(dot, ".png")))
			return cli_usage_error(cmd, "--plot %s: the name must end in .svg or .png",
					       o->plot);
		for (const char *p = o->plot; *p; p++)
			if ((unsigned char)*p < 0x20 || *p == 0x7f)
				return cli_usage_error(cmd, "--plot: the name holds a control "
						       "character; gnuplot cannot take it");
	}
	if (o->n < 3)
		return cli_usage_error(cmd, "--series: give at least three results files (one a "
				       "kernel)");
	return 0;
}

static const char *label_of(const struct suitefile *f)
{
	const char *l = json_string_value(json_object_get(f->doc, "label"));
	if (l && *l)
		return l;
	l = suitefile_sys(f, "kernel");
	return *l ? l : f->path;
}

static char *dup_or_null(const char *s)
{
	return s ? strdup(s) : NULL;
}

/* What the series needs of f into k (its tests taken over, the caveats
 * of each test's runs worked out), then f freed: a document is held only
 * while it is read.  Returns 0, or -1 when memory runs out. */
static int take(struct ser_kernel *k, struct suitefile *f, const struct rowcav_opts *o)
{
	k->path = strdup(f->path);
	k->label = strdup(label_of(f));
	k->kernel = strdup(suitefile_sys(f, "kernel"));
	k->params = json_pack("{s:O?}", "params", json_object_get(f->doc, "params"));
	k->settings = json_incref(json_object_get(json_object_get(f->doc, "system"), "settings"));
	k->units = calloc(f->nt + 1, sizeof(*k->units));
	k->commands = calloc(f->nt + 1, sizeof(*k->commands));
	k->cav = calloc(f->nt + 1, sizeof(*k->cav));
	if (!k->path || !k->label || !k->kernel || !k->params || !k->units || !k->commands ||
	    !k->cav)
		return -1;
	k->t = f->t;
	k->nt = f->nt;
	f->t = NULL;
	f->nt = 0;
	for (size_t i = 0; i < k->nt; i++) {
		struct sf_test *t = &k->t[i];
		k->cav[i] = rowcav_row(t->row, o);
		k->units[i] = strdup(t->unit);
		k->commands[i] = dup_or_null(json_string_value(json_object_get(t->params, "command")));
		if (!t->own_name)
			t->own_name = strdup(t->name);
		if (!k->cav[i] || !k->units[i] || !t->own_name)
			return -1;
		t->name = t->own_name;
		t->unit = k->units[i];
		t->params = NULL;
		t->row = NULL;
	}
	suitefile_free(f);
	return 0;
}

static void kernel_free(struct ser_kernel *k)
{
	for (size_t i = 0; i < k->nt; i++) {
		free(k->t[i].v);
		free(k->t[i].own_name);
		free(k->units[i]);
		free(k->commands[i]);
		json_decref(k->cav[i]);
	}
	free(k->t);
	free(k->units);
	free(k->commands);
	free(k->cav);
	json_decref(k->settings);
	free(k->path);
	free(k->label);
	free(k->kernel);
	json_decref(k->params);
}

/* Read every file, refusing one given twice (the same inode). */
static int load(struct series *s, const struct ser_opts *o)
{
	struct stat *st = calloc(o->n, sizeof(*st));
	struct rowcav_opts ro = { s->conf, sysconf(_SC_CLK_TCK) };
	s->k = calloc(o->n, sizeof(*s->k));
	if (!st || !s->k) {
		free(st);
		fprintf(stderr, "%s: out of memory\n", s->cmd);
		return KB_EXIT_FAIL;
	}
	int status = 0;
	char shown[2][300];
	for (size_t k = 0; !status && k < o->n; k++) {
		struct suitefile f;
		status = suitefile_load(s->cmd, o->paths[k], true, &f);
		if (status) {
			suitefile_free(&f);
			break;
		}
		s->nk++;
		if (take(&s->k[k], &f, &ro) < 0) {
			suitefile_free(&f);
			fprintf(stderr, "%s: out of memory\n", s->cmd);
			status = KB_EXIT_FAIL;
			break;
		}
		esc_str(shown[0], sizeof(shown[0]), o->paths[k]);
		if (stat(o->paths[k], &st[k]) < 0) {
			fprintf(stderr, "%s: %s: %s\n", s->cmd, shown[0], strerror(errno));
			status = KB_EXIT_USAGE;
		}
		for (size_t j = 0; !status && j < k; j++)
			if (st[j].st_dev == st[k].st_dev && st[j].st_ino == st[k].st_ino) {
				fprintf(stderr, "%s: %s: the same file as %s; a build run again is "
					"another results file\n", s->cmd, shown[0],
					esc_str(shown[1], sizeof(shown[1]), o->paths[j]));
				status = KB_EXIT_USAGE;
			}
	}
	free(st);
	return status;
}

static const char *release_of(const struct ser_kernel *k)
{
	return *k->kernel ? k->kernel : k->label;
}

/* insertion sort: stable, and a series is short */
static void sort_by_version(struct series *s)
{
	for (size_t i = 1; i < s->nk; i++) {
		struct ser_kernel x = s->k[i];
		size_t j = i;
		while (j > 0 && ser_version_cmp(release_of(&s->k[j - 1]), release_of(&x)) > 0) {
			s->k[j] = s->k[j - 1];
			j--;
		}
		s->k[j] = x;
	}
}

/* Each kernel a point, or the control of the earlier build of its label. */
static int mark_controls(struct series *s)
{
	s->npoints = 0;
	s->newest = -1;
	for (size_t k = 0; k < s->nk; k++) {
		s->k[k].control_of = -1;
		for (size_t j = 0; j < k && s->k[k].control_of < 0; j++)
			if (s->k[j].control_of < 0 && !strcmp(s->k[j].label, s->k[k].label))
				s->k[k].control_of = (long)j;
		if (s->k[k].control_of < 0) {
			s->npoints++;
			s->newest = (long)k;
		}
	}
	if (s->npoints < 3)
		return cli_usage_error(s->cmd, "--series: %zu kernels (labels) among %zu files: "
				       "give at least three", s->npoints, s->nk);
	return 0;
}

static int report(struct series *s, const struct ser_opts *o)
{
	if (o->plot && plot_missing(s->cmd))
		return KB_EXIT_FAIL;
	if (ser_build(s) < 0) {
		fprintf(stderr, "%s: out of memory\n", s->cmd);
		return KB_EXIT_FAIL;
	}
	if (o->json)
		ser_print_json(stdout, s);
	else if (o->lkml)
		ser_print_lkml(stdout, s);
	else
		ser_print_table(stdout, s);
	fflush(stdout);
	int rc = o->plot ? plotseries_write(s, o->plot) : 0;
	int gate = o->fail_arg ? ser_gate(stderr, s) : 0;
	return rc ? rc : gate;
}

int cmp_series_main(int argc, const char **argv)
{
	struct ser_opts o;
	struct series s = { .cmd = argv[0], .conf = 95 };
	poptContext ctx = NULL;
	memset(&o, 0, sizeof(o));
	int status = parse(&o, &s, argc, argv, &ctx);
	if (!status)
		status = load(&s, &o);
	if (!status && o.version)
		sort_by_version(&s);
	if (!status)
		status = mark_controls(&s);
	if (!status)
		status = report(&s, &o);
	ser_free(&s);
	for (size_t k = 0; k < s.nk; k++)
		kernel_free(&s.k[k]);
	free(s.k);
	free(o.sort_arg);
	free(o.conf_arg);
	free(o.style_arg);
	free(o.plot);
	free(o.fail_arg);
	if (ctx)
		poptFreeContext(ctx);
	return status;
}
