/* kbench - compare --latency: the latency rows of load runs (see cmplat.h)
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"
#include "compare/judge/cmplat.h"
#include "resultsfile/escape.h"
#include "stats/hist.h"
#include "stats/histjson.h"
#include "stats/utest.h"
#include "cli.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define NPCT CMPLAT_NPCT
static const double pcts[NPCT] = { 50, 90, 99, 99.9 };
const char *const cmplat_pct_names[NPCT] = { "p50", "p90", "p99", "p99.9" };

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

/* File k's side of op in test t into s, each run's p99 into p99 (room
 * for every run of t). */
static void side_of(const struct sf_test *t, const char *op, struct cmplat_side *s,
		    double *p99, struct hist *all, struct hist *one)
{
	const json_t *run;
	size_t j;
	hist_init(all);
	json_array_foreach(json_object_get(t->row, "runs"), j, run) {
		const json_t *o = op_of(run, op);
		hist_init(one);
		if (!o || run_hist(o, one) < 0 || !one->count)
			continue;
		p99[s->runs++] = (double)hist_percentile(one, 99) / 1e6;
		hist_merge(all, one);
	}
	for (size_t q = 0; q < NPCT; q++)
		s->pct[q] = (double)hist_percentile(all, pcts[q]) / 1e6;
	s->max = (double)all->max_ns / 1e6;
}

static double change_of(double a, double b)
{
	return a > 0 && isfinite(a) && isfinite(b) ? 100 * (b - a) / a : NAN;
}

/* The changes of side b against a, and the verdict on the runs' p99s. */
static void judge(const struct cmp *c, const struct cmplat_side *a, const double *ap99,
		  struct cmplat_side *b, const double *bp99)
{
	for (size_t q = 0; q < NPCT; q++)
		b->change[q] = change_of(a->pct[q], b->pct[q]);
	b->change[NPCT] = change_of(a->max, b->max);
	double alpha = 1 - c->conf / 100;
	b->q = NAN;
	if (!a->runs || !b->runs || u_test(ap99, a->runs, bp99, b->runs, &b->u) < 0 ||
	    b->u.p_min > alpha)
		b->v = CMPLAT_TOO_FEW;
	else if (!(b->u.p < alpha))
		b->v = CMPLAT_SAME;
	else  /* a lower latency is better */
		b->v = b->u.b_larger ? CMPLAT_WORSE : CMPLAT_BETTER;
}

/* The row of op in compared row r into lr. */
static int op_row(const struct cmp *c, const struct cmp_row *r, const char *op,
		  struct cmplat_row *lr, struct hist *all, struct hist *one)
{
	double *p99[CMP_MAX_FILES] = { NULL };
	int rc = 0;
	memset(lr, 0, sizeof(*lr));
	lr->test = r->name;
	lr->op = op;
	for (size_t k = 0; k < c->nf && !rc; k++) {
		if (!r->t[k])
			continue;
		size_t n = json_array_size(json_object_get(r->t[k]->row, "runs"));
		if (!(p99[k] = malloc((n ? n : 1) * sizeof(double)))) {
			rc = -1;
			break;
		}
		lr->s[k].present = true;
		side_of(r->t[k], op, &lr->s[k], p99[k], all, one);
	}
	for (size_t k = 1; k < c->nf && !rc; k++)
		if (r->t[k])
			judge(c, &lr->s[0], p99[0], &lr->s[k], p99[k]);
	for (size_t k = 0; k < c->nf; k++)
		free(p99[k]);
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

int cmplat_build(const struct cmp *c, struct cmplat *out)
{
	struct hist *all = malloc(sizeof(*all)), *one = malloc(sizeof(*one));
	size_t cap = 0;
	int rc = all && one ? 0 : -1;
	memset(out, 0, sizeof(*out));
	for (size_t i = 0; i < c->nrows && !rc; i++) {
		const struct cmp_row *r = &c->rows[i];
		const json_t *hs = r->t[0] ? first_hists(r->t[0]) : NULL;
		const char *op;
		const json_t *o;
		if (!hs)
			continue;
		json_object_foreach((json_t *)hs, op, o) {
			if (out->n == cap) {
				size_t ncap = cap ? 2 * cap : 8;
				struct cmplat_row *nr = realloc(out->rows, ncap * sizeof(*nr));
				if (!nr) {
					rc = -1;
					break;
				}
				out->rows = nr;
				cap = ncap;
			}
			if ((rc = op_row(c, r, op, &out->rows[out->n], all, one)) < 0)
				break;
			out->n++;
		}
	}
	free(all);
	free(one);
	if (rc < 0) {
		fprintf(stderr, "%s: out of memory\n", c->cmd);
		cmplat_free(out);
	}
	return rc;
}

void cmplat_free(struct cmplat *l)
{
	free(l->rows);
	l->rows = NULL;
	l->n = 0;
}

const char *cmplat_verdict_key(enum cmplat_verdict v)
{
	switch (v) {
	case CMPLAT_TOO_FEW: return "too_few_runs";
	case CMPLAT_SAME: return "same";
	case CMPLAT_BETTER: return "better";
	case CMPLAT_WORSE: return "worse";
	}
	return "?";
}

static void side_line(FILE *out, const char *label, const struct cmplat_side *s)
{
	fprintf(out, "  %-24s", label);
	if (!s->runs) {
		fprintf(out, " %9s %9s %9s %9s %9s %5d\n", "-", "-", "-", "-", "-", 0);
		return;
	}
	/* 4 significant digits: a change of a few microseconds is seen */
	for (size_t q = 0; q < NPCT; q++)
		fprintf(out, " %9.4g", s->pct[q]);
	fprintf(out, " %9.4g %5zu\n", s->max, s->runs);
}

/* The changes of file side b against A and its verdict. */
static void change_line(FILE *out, const struct cmplat_side *b)
{
	fprintf(out, "  %-24s", "");
	for (size_t q = 0; q <= NPCT; q++)
		if (isfinite(b->change[q]))
			fprintf(out, " %+8.1f%%", b->change[q]);
		else
			fprintf(out, " %9s", "n/a");
	if (b->v == CMPLAT_TOO_FEW)
		fprintf(out, "       too few runs\n");
	else if (isfinite(b->q))
		fprintf(out, "       %s (p=%.3g, adjusted %.3g)\n", b->v == CMPLAT_SAME ? "not proven" :
			b->v == CMPLAT_WORSE ? "worse" : "better", b->u.p, b->q);
	else
		fprintf(out, "       %s (p=%.3g)\n", b->v == CMPLAT_SAME ? "not proven" :
			b->v == CMPLAT_WORSE ? "worse" : "better", b->u.p);
}

void cmplat_print(FILE *out, const struct cmp *c, const struct cmplat *l)
{
	for (size_t i = 0; i < l->n; i++) {
		const struct cmplat_row *lr = &l->rows[i];
		if (!i)
			fprintf(out, "\nlatency (ms): each file's runs merged; the change "
				"against A; verdict: U test on the runs' p99s (lower is "
				"better), %g%% confidence\n", c->conf);
		fprintf(out, "\n");
		char tn[200], on[100], head[320];
		snprintf(head, sizeof(head), "%s, %s", esc_str(tn, sizeof(tn), lr->test),
			 esc_str(on, sizeof(on), lr->op));
		fprintf(out, "%-26s", head);
		for (size_t q = 0; q < NPCT; q++)
			fprintf(out, " %9s", cmplat_pct_names[q]);
		fprintf(out, " %9s %5s\n", "max", "runs");
		for (size_t k = 0; k < c->nf; k++) {
			char label[4] = { (char)('A' + k), '\0' };
			side_line(out, label, &lr->s[k]);
			if (k && lr->s[k].present)
				change_line(out, &lr->s[k]);
		}
	}
}
