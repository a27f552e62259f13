/* kbench - compare: lmbench's tables of kbench micro runs (see cmpmicro.h)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The figures for lmbench's tables are read from each file's tests
 * array directly (the run's value, or the reason it was skipped), so the
 * tables show what the files hold, not a summary of it.
 */
#include "config.h"
#include "compare/forms/cmpmicro.h"
#include "micro/lmbench/lmreport.h"
#include "compare/judge/cmprow.h"
#include "resultsfile/escape.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One row of the tables: run `run` of a file. */
struct run_src {
	const json_t *tests;
	size_t run;
	char host[128], os[160], descr[96];
};

/* An lmbench test: a kbench micro one, or one imported from an lmbench
 * summary (params.lm_name: the kbench test of its column). */
static int is_lmbench(const json_t *t)
{
	const json_t *p = json_object_get(t, "params");
	const char *fam = json_string_value(json_object_get(p, "family"));
	return (fam && !strcmp(fam, "lmbench")) || json_is_string(json_object_get(p, "lm_name"));
}

/* The kbench lmbench test t stands for: its lm_name, else its name. */
static const char *lm_name_of(const json_t *t)
{
	const char *n = json_string_value(json_object_get(json_object_get(t, "params"), "lm_name"));
	return n ? n : json_string_value(json_object_get(t, "name"));
}

/* The machine's clock rate a file records (system.mhz: a number, or an
 * imported report's text), or 0. */
static int file_mhz(const json_t *sys)
{
	const json_t *m = json_object_get(sys, "mhz");
	double v = json_is_number(m) ? json_number_value(m) :
		   json_is_string(m) ? atof(json_string_value(m)) : 0;
	return v > 0 && v < 1e6 ? (int)(v + 0.5) : 0;
}

/* Run k (from 0) of runs: the k-th, or for imported runs the one
 * numbered k + 1. */
static const json_t *run_numbered(const json_t *runs, size_t run_no);
static const json_t *run_at(const json_t *runs, size_t k)
{
	const json_t *first = json_array_get(runs, 0);
	if (json_is_integer(json_object_get(first, "run_no")))
		return run_numbered(runs, k + 1);
	return json_array_get(runs, k);
}

static int file_figure(const void *ctx, const char *name, double *v)
{
	const struct run_src *s = ctx;
	const json_t *t;
	size_t i;
	json_array_foreach(s->tests, i, t) {
		const char *n = lm_name_of(t);
		if (!n || strcmp(n, name) || !is_lmbench(t))
			continue;
		const json_t *runs = json_object_get(t, "runs");
		const json_t *r = run_at(runs, s->run);
		const json_t *val = json_object_get(r, "value");
		if (json_is_number(val) && isfinite(json_number_value(val))) {
			*v = json_number_value(val);
			return 1;
		}
		return json_is_string(json_object_get(t, "skipped")) ? -1 : 0;
	}
	return 0;
}

/* Run number run_no (from 1) of an imported test, whose runs say which
 * row of its report they are (a row skipped there leaves a gap). */
static const json_t *run_numbered(const json_t *runs, size_t run_no)
{
	size_t i;
	const json_t *r;
	json_array_foreach(runs, i, r)
		if ((size_t)json_integer_value(json_object_get(r, "run_no")) == run_no)
			return r;
	return NULL;
}

/* The runs of the file's lmbench tests (the most any has, or the highest
 * run_no of imported ones). */
static size_t lm_runs(const json_t *tests)
{
	size_t most = 0, i;
	const json_t *t;
	json_array_foreach(tests, i, t) {
		if (!is_lmbench(t))
			continue;
		const json_t *runs = json_object_get(t, "runs"), *r;
		size_t n = json_array_size(runs), j;
		json_array_foreach(runs, j, r)
			if ((size_t)json_integer_value(json_object_get(r, "run_no")) > n)
				n = (size_t)json_integer_value(json_object_get(r, "run_no"));
		if (n > most)
			most = n;
	}
	return most;
}

/* The clock rate the document of run r (from 0) of the file's lmbench
 * tests records (kbench micro writes system.mhz in each run's), or 0. */
static int run_mhz(const json_t *tests, size_t r)
{
	size_t i;
	const json_t *t;
	json_array_foreach(tests, i, t) {
		if (!is_lmbench(t))
			continue;
		const json_t *run = run_at(json_object_get(t, "runs"), r);
		int mhz = file_mhz(json_object_get(json_object_get(run, "document"), "system"));
		if (mhz)
			return mhz;
	}
	return 0;
}

#define MAX_SOURCES 64

void cmpmicro_lmbench(FILE *out, const struct suitefile *f, size_t nf)
{
	static struct run_src ctx[MAX_SOURCES];
	static struct lm_source src[MAX_SOURCES];
	size_t n = 0, cut = 0;
	for (size_t k = 0; k < nf; k++) {
		const json_t *tests = json_object_get(f[k].doc, "tests");
		const json_t *sys = json_object_get(f[k].doc, "system");
		size_t runs = lm_runs(tests);
		for (size_t r = 0; r < runs; r++) {
			if (n == MAX_SOURCES) {
				cut++;
				continue;
			}
			struct run_src *c = &ctx[n];
			char host[100], kernel[120], mach[60];
			c->tests = tests;
			c->run = r;
			esc_str(host, sizeof(host), json_string_value(json_object_get(sys, "hostname")) ?
				json_string_value(json_object_get(sys, "hostname")) : "?");
			esc_str(kernel, sizeof(kernel), json_string_value(json_object_get(sys, "kernel")) ?
				json_string_value(json_object_get(sys, "kernel")) : "?");
			const char *m = json_string_value(json_object_get(sys, "machine"));
			esc_str(mach, sizeof(mach), m && *m ? m : "unknown");
			/* the file's letter, as compare's table names it, and the run */
			snprintf(c->host, sizeof(c->host), "%s", host);
			const char *label = cmp_file_label(f, nf, k);
			if (label)    /* the tester's name for the build, where lmbench put the kernel's */
				esc_str(kernel, sizeof(kernel), label);
			snprintf(c->os, sizeof(c->os), "Linux %s %c%zu", kernel,
				 (char)('A' + k), r + 1);
			snprintf(c->descr, sizeof(c->descr), "%s-linux-gnu", mach);
			int mhz = file_mhz(sys);
			src[n] = (struct lm_source){ c->host, c->os, c->descr, mhz ? mhz : run_mhz(tests, r),
						     0, file_figure, NULL, c };
			n++;
		}
	}
	if (!n)
		return;
	fprintf(out, "\nlmbench's summary of the runs: one row per run of each file (the OS "
		"column: the kernel, or the file's label where that names the build, then the "
		"file's letter and the run's number)\n");
	lm_banner(out, src, n);
	lm_tables(out, src, n);
	if (cut)
		fprintf(out, "(%zu more runs not shown: at most %d rows)\n", cut, MAX_SOURCES);
}
