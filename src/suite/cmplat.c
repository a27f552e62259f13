/* kbench - compare --latency: the latency rows of load runs (see cmplat.h)
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"
#include "suite/cmplat.h"
#include "suite/escape.h"
#include "stats/hist.h"
#include "stats/histjson.h"
#include "stats/utest.h"
#include "cli.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define NPCT 4
static const double pcts[NPCT] = { 50, 90, 99, 99.9 };
static const char *const pct_names[NPCT] = { "p50", "p90", "p99", "p99.9" };

/* One file's figures for one op: merged and per run. */
struct lat_side {
	size_t runs;               /* runs with the op's histogram */
	double pct[NPCT];          /* merged percentiles, ms */
	double max;                /* the largest latency of any run, ms */
	double *p99;               /* each run's p99, ms (runs of them) */
};

/* A run's results.histograms when its document is a load one with them,
 * else NULL. */
static const json_t *hists_of(const json_t *run)
{
	const json_t *doc = json_object_get(run, "document");
	const char *kind = json_string_value(json_object_get(doc, "kind"));
	const json_t *hs = json_object_get(json_object_get(doc, "results"), "histograms");
	return kind && !strcmp(kind, "load") && json_is_object(hs) ? hs : NULL;
}

/* results.histograms.OP of a run's document, or NULL */
static const json_t *op_of(const json_t *run, const char *op)
{
	return json_object_get(hists_of(run), op);
}

static int ms_of(const json_t *o, const char *key, double *v)
{
	const json_t *x = json_object_get(o, key);
	if (!json_is_number(x) || !(json_number_value(x) >= 0) || !isfinite(json_number_value(x)))
		return -1;
	*v = json_number_value(x);
	return 0;
}

/* One run's op into h (initialised), with its exact min and max.
 * Returns 0 or -1 (not a histogram). */
static int run_hist(const json_t *o, struct hist *h)
{
	double lo, hi;
	if (!json_is_object(o) || ms_of(o, "min_ms", &lo) < 0 || ms_of(o, "max_ms", &hi) < 0 ||
	    histjson_read(json_object_get(o, "buckets"), h) < 0)
		return -1;
	if (h->count) {
		h->min_ns = (uint64_t)llround(lo * 1e6);
		h->max_ns = (uint64_t)llround(hi * 1e6);
	}
	return 0;
}

int cmplat_check(const struct cmp *c)
{
	struct hist *h = malloc(sizeof(*h));
	if (!h) {
		fprintf(stderr, "%s: out of memory\n", c->cmd);
		return KB_EXIT_FAIL;
	}
	int status = 0;
	for (size_t i = 0; i < c->nrows && !status; i++)
		for (size_t k = 0; k < c->nf && !status; k++) {
			const struct sf_test *t = c->rows[i].t[k];
			const json_t *run, *hs;
			size_t j;
			if (!t)
				continue;
			json_array_foreach(json_object_get(t->row, "runs"), j, run) {
				if (!(hs = hists_of(run)))
					continue;
				const char *op;
				const json_t *o;
				json_object_foreach((json_t *)hs, op, o) {
					hist_init(h);
					if (run_hist(o, h) == 0)
						continue;
					char f[300], tn[200], on[100];
					fprintf(stderr, "%s: %s: test %s, run %zu: results.histograms.%s "
						"is not a histogram (buckets \"LOWER_NS:COUNT ...\", "
						"min_ms, max_ms)\n", c->cmd,
						esc_str(f, sizeof(f), c->f[k].path),
						esc_str(tn, sizeof(tn), t->name), j + 1,
						esc_str(on, sizeof(on), op));
					status = KB_EXIT_USAGE;
					break;
				}
				if (status)
					break;
			}
		}
	free(h);
	return status;
}

/* File k's side of op in test t into s (s->p99 malloc'd).  Returns 0, or
 * -1 when out of memory. */
static int side_of(const struct sf_test *t, const char *op, struct lat_side *s,
		   struct hist *all, struct hist *one)
{
	const json_t *run;
	size_t j, n = json_array_size(json_object_get(t->row, "runs"));
	memset(s, 0, sizeof(*s));
	s->p99 = malloc((n ? n : 1) * sizeof(*s->p99));
	if (!s->p99)
		return -1;
	hist_init(all);
	json_array_foreach(json_object_get(t->row, "runs"), j, run) {
		const json_t *o = op_of(run, op);
		hist_init(one);
		if (!o || run_hist(o, one) < 0 || !one->count)
			continue;
		s->p99[s->runs++] = (double)hist_percentile(one, 99) / 1e6;
		hist_merge(all, one);
	}
	for (size_t q = 0; q < NPCT; q++)
		s->pct[q] = (double)hist_percentile(all, pcts[q]) / 1e6;
	s->max = (double)all->max_ns / 1e6;
	return 0;
}

static void side_line(FILE *out, const char *label, const struct lat_side *s)
{
	fprintf(out, "  %-24s", label);
	if (!s->runs) {
		fprintf(out, " %9s %9s %9s %9s %9s %5d\n", "-", "-", "-", "-", "-", 0);
		return;
	}
	for (size_t q = 0; q < NPCT; q++)
		fprintf(out, " %9.3f", s->pct[q]);
	fprintf(out, " %9.3f %5zu\n", s->max, s->runs);
}

static void change_cell(FILE *out, double a, double b)
{
	if (a > 0 && isfinite(a) && isfinite(b))
		fprintf(out, " %+8.1f%%", 100 * (b - a) / a);
	else
		fprintf(out, " %9s", "n/a");
}

/* The changes of file k against A and the verdict on the runs' p99s. */
static void change_line(FILE *out, const struct cmp *c, const struct lat_side *a,
			const struct lat_side *b)
{
	fprintf(out, "  %-24s", "");
	for (size_t q = 0; q < NPCT; q++)
		change_cell(out, a->pct[q], b->pct[q]);
	change_cell(out, a->max, b->max);
	struct u_result u;
	double alpha = 1 - c->conf / 100;
	if (!a->runs || !b->runs || u_test(a->p99, a->runs, b->p99, b->runs, &u) < 0 ||
	    u.p_min > alpha)
		fprintf(out, "       too few runs\n");
	else if (!(u.p < alpha))
		fprintf(out, "       ~ (p=%.3g)\n", u.p);
	else  /* a lower latency is better */
		fprintf(out, "       %s (p=%.3g)\n", u.b_larger ? "worse" : "better", u.p);
}

/* The block of one op of row r. */
static int op_block(FILE *out, const struct cmp *c, const struct cmp_row *r, const char *op,
		    struct hist *all, struct hist *one)
{
	struct lat_side s[CMP_MAX_FILES];
	int rc = 0;
	size_t made = 0;
	for (size_t k = 0; k < c->nf && !rc; k++, made++)
		if (r->t[k])
			rc = side_of(r->t[k], op, &s[k], all, one);
		else
			memset(&s[k], 0, sizeof(s[k]));
	if (!rc) {
		char tn[200], on[100];
		char head[320];
		snprintf(head, sizeof(head), "%s, %s", esc_str(tn, sizeof(tn), r->name),
			 esc_str(on, sizeof(on), op));
		fprintf(out, "%-26s", head);
		for (size_t q = 0; q < NPCT; q++)
			fprintf(out, " %9s", pct_names[q]);
		fprintf(out, " %9s %5s\n", "max", "runs");
		for (size_t k = 0; k < c->nf; k++) {
			char label[4] = { (char)('A' + k), '\0' };
			side_line(out, label, &s[k]);
			if (k && r->t[k])
				change_line(out, c, &s[0], &s[k]);
		}
	}
	for (size_t k = 0; k < made; k++)
		free(s[k].p99);
	return rc;
}

/* The first run of t with load histograms, or NULL. */
static const json_t *first_hists(const struct sf_test *t)
{
	const json_t *run;
	size_t j;
	json_array_foreach(json_object_get(t->row, "runs"), j, run)
		if (hists_of(run))
			return hists_of(run);
	return NULL;
}

int cmplat_print(FILE *out, const struct cmp *c)
{
	struct hist *all = malloc(sizeof(*all)), *one = malloc(sizeof(*one));
	int rc = all && one ? 0 : -1, said = 0;
	for (size_t i = 0; i < c->nrows && !rc; i++) {
		const struct cmp_row *r = &c->rows[i];
		const json_t *hs = r->t[0] ? first_hists(r->t[0]) : NULL;
		const char *op;
		const json_t *o;
		if (!hs)
			continue;
		json_object_foreach((json_t *)hs, op, o) {
			if (!said++)
				fprintf(out, "\nlatency (ms): each file's runs merged; the change "
					"against A; verdict: U test on the runs' p99s (lower is "
					"better), %g%% confidence\n", c->conf);
			fprintf(out, "\n");
			if ((rc = op_block(out, c, r, op, all, one)) < 0)
				break;
		}
	}
	if (rc < 0)
		fprintf(stderr, "%s: out of memory\n", c->cmd);
	free(all);
	free(one);
	return rc;
}
