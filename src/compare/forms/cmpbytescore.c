/* kbench - compare: BYTE's index, the scores and their verdicts (see cmpbytescore.h)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A row is a title and baseline; file k's tests fill it by BYTE's title
 * (kbench's own BYTE tests under BYTE 4.1's baselines, an import's by its
 * params).  A run's score needs that run in every row; the file's score
 * needs every row.
 */
#include "config.h"
#include "micro/byte/byte.h"
#include "micro/byte/bytereport.h"
#include "micro/byte/byteindex.h"
#include "compare/forms/cmpbytescore.h"
#include "compare/judge/cmpsame.h"
#include "result/caveat.h"
#include "resultsfile/rowcav.h"
#include "stats/equiv.h"
#include "stats/summary.h"
#include "stats/ttest.h"
#include "stats/utest.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

const struct micro_test *cmp_byte_test(const char *name)
{
	for (const struct micro_test *t = micro_byte_tests; t->name; t++)
		if (!strcmp(t->name, name))
			return t;
	return NULL;
}

static const char *param_str(const struct sf_test *t, const char *key)
{
	return json_string_value(json_object_get(t->params, key));
}

/* Test t's BYTE title and baseline, or 0 when it is not indexed. */
static double indexed(const struct sf_test *t, char *title, size_t n)
{
	const struct micro_test *bt = cmp_byte_test(t->name);
	double b = json_number_value(json_object_get(t->params, "baseline"));
	const char *own = param_str(t, "title");
	if (bt) {
		b = byte_baseline_value("byte4", t->name);
		snprintf(title, n, "%s", byte4_name(bt));
	} else if (b > 0 && own) {
		snprintf(title, n, "%s", own);
	} else {
		return 0;
	}
	return isfinite(b) && b > 0 ? b : 0;
}

/* The tool whose figures file k's indexed tests are. */
static const char *tool_of(const struct bx_row *rows, size_t n, size_t k)
{
	for (size_t i = 0; i < n; i++)
		if (rows[i].t[k]) {
			const char *tool = param_str(rows[i].t[k], "tool");
			return tool ? tool : KBENCH_BYTE;
		}
	return NULL;
}

/* The rows of every file's indexed tests into *out; how many (0 when out
 * of memory too). */
static size_t gather(const struct cmp *c, struct bx_row **out)
{
	size_t n = 0, cap = 0;
	struct bx_row *rows = NULL;
	for (size_t k = 0; k < c->nf; k++)
		for (size_t i = 0; i < c->f[k].nt; i++) {
			char title[160];
			const struct sf_test *t = &c->f[k].t[i];
			double b = indexed(t, title, sizeof(title));
			size_t j = 0;
			if (!b || !t->summarised)
				continue;
			while (j < n && (strcmp(rows[j].title, title) || rows[j].base != b))
				j++;
			if (j == n) {
				if (n == cap) {
					struct bx_row *m = realloc(rows, (cap = cap * 2 + 16) * sizeof(*m));
					if (!m) {
						free(rows);
						return 0;
					}
					rows = m;
				}
				memset(&rows[n], 0, sizeof(rows[n]));
				snprintf(rows[n].title, sizeof(rows[n].title), "%s", title);
				rows[n++].base = b;
			}
			if (!rows[j].t[k])
				rows[j].t[k] = t;
		}
	*out = rows;
	return n;
}

/* The score of run j of file k over every row; NAN when a row lacks it. */
static double run_score(const struct bx_row *rows, size_t n, size_t k, size_t j)
{
	double *v = malloc((n + 1) * sizeof(double));
	double s = NAN;
	size_t m = 0;
	for (size_t i = 0; v && i < n; i++) {
		const struct sf_test *t = rows[i].t[k];
		if (!t || t->n <= j)
			break;
		v[m++] = byte_index(t->v[j], rows[i].base);
	}
	if (v && m == n)
		s = byte_geomean(v, m);
	free(v);
	return s;
}

static size_t run_scores(const struct bx_row *rows, size_t n, size_t k, double *out, size_t max)
{
	size_t m = 0;
	for (size_t j = 0; j < max; j++) {
		double s = run_score(rows, n, k, j);
		if (!isfinite(s))
			break;
		out[m++] = s;
	}
	return m;
}

/* The score of file k from the medians; NAN unless it has every row. */
static double file_score(const struct bx_row *rows, size_t n, size_t k)
{
	double *v = malloc((n + 1) * sizeof(double));
	double s = NAN;
	size_t m = 0;
	for (size_t i = 0; v && i < n; i++)
		if (rows[i].t[k])
			v[m++] = byte_index(rows[i].t[k]->sum.median, rows[i].base);
	if (v && m == n)
		s = byte_geomean(v, m);
	free(v);
	return s;
}

/* The score file k's report printed ("FINAL SCORE", BYTE 3's "AVERAGE":
 * an imported row of unit "index"), its median; NAN when it has none.
 * Where every file's report printed its score, those are the figures set
 * against each other (the table's row of them says the same change):
 * kbench's working from the index values is shown beside them, not
 * compared a second time. */
static double printed_score(const struct cmp *c, size_t k)
{
	for (size_t i = 0; i < c->f[k].nt; i++) {
		const struct sf_test *t = &c->f[k].t[i];
		const char *title = param_str(t, "title");
		if (t->summarised && t->unit && !strcmp(t->unit, "index") && title &&
		    (!strcmp(title, "FINAL SCORE") || !strcmp(title, "AVERAGE")))
			return t->sum.median;
	}
	return NAN;
}

/* The caveats of test t's runs (rowcav_row), a new array. */
static json_t *cell_caveats(const struct cmp *c, const struct sf_test *t)
{
	struct rowcav_opts o = { c->conf, c->ticks_per_s };
	json_t *cav = t && t->row ? rowcav_row(t->row, &o) : NULL;
	return cav ? cav : json_array();
}

/* Add the keys of cav to sc's caveats, each once with the tests (BYTE's
 * titles) whose runs carry it; the first unsound key into refused. */
static void score_caveats(struct bx_score *sc, const json_t *cav, const char *title)
{
	size_t i, j;
	const json_t *e, *have;
	json_array_foreach(cav, i, e) {
		const char *key = json_string_value(json_object_get(e, "key"));
		json_t *found = NULL;
		if (!key)
			continue;
		json_array_foreach(sc->cav, j, have)
			if (!strcmp(key, json_string_value(json_object_get(have, "key"))))
				found = (json_t *)have;
		if (!found) {
			found = json_pack("{s:s, s:[]}", "key", key, "tests");
			json_array_append_new(sc->cav, found);
		}
		json_array_append_new(json_object_get(found, "tests"), json_string(title));
		if (caveat_unsound(key) && !sc->unsound)
			sc->unsound = json_string_value(json_object_get(found, "key"));
	}
}

/* BYTE 4.1's indexed tests file k lacks, when its figures are kbench's:
 * "byte_execl skipped" (its reason into why), "failed" (a row with no
 * run) or "not run" (no row); how many BYTE indexes into *of. */
static void left_out(const struct cmp *c, size_t k, struct bx_score *sc)
{
	size_t used = 0;
	sc->of = 0;
	for (const struct micro_test *m = micro_byte_tests; m->name; m++) {
		if (!isfinite(byte_baseline_value("byte4", m->name)))
			continue;
		sc->of++;
		const struct sf_test *t = NULL;
		for (size_t i = 0; i < c->f[k].nt && !t; i++)
			if (!strcmp(c->f[k].t[i].name, m->name))
				t = &c->f[k].t[i];
		if (t && t->summarised)
			continue;
		const char *why = t && t->row ?
				  json_string_value(json_object_get(t->row, "skipped")) : NULL;
		const char *what = why ? "skipped" : t ? "failed" : "not run";
		snprintf(sc->missing + used, sizeof(sc->missing) - used, "%s%s %s",
			 used ? ", " : "", m->name, what);
		used = strlen(sc->missing);
		json_array_append_new(sc->left, json_pack("{s:s, s:s, s:s?}", "test", m->name, "as",
							  what, "why", why));
	}
}

/* The score's verdict for file k against A, as a row's (cmpsame.h): the
 * study's test on the runs' scores at its confidence, then "same" by
 * two one-sided tests within the row margin, else "not proven" with
 * what the runs could see.  The score restates rows already tested, so
 * its test is its own, not adjusted with theirs. */
static void verdict(const struct cmp *c, struct cmp_bx *b, size_t k)
{
	struct bx_score *a = &b->s[0], *s = &b->s[k];
	double alpha = 1 - c->conf / 100;
	s->change = 100 * (s->score - a->score) / a->score;
	s->same_pct = c->same_within > 0 ? c->same_within : CMP_SAME_THROUGHPUT;
	s->p = s->p_min = s->p_same = s->detect = NAN;
	if (!isfinite(s->score) || !isfinite(a->score)) {
		s->verdict = "no_score";
		return;
	}
	if (a->tool && s->tool && strcmp(a->tool, s->tool)) {
		s->verdict = "different_tools";
		return;
	}
	struct summary sa, sb;
	struct u_result u;
	struct t_diff d;
	bool tested = false, proven = false, larger = false;
	double center = NAN, half = NAN, margin;
	if (summary_of(a->runs, a->nruns, &sa) == 0 && summary_of(s->runs, s->nruns, &sb) == 0) {
		if (c->method == CMP_UTEST && u_test(a->runs, a->nruns, s->runs, s->nruns, &u) == 0) {
			s->p = u.p;
			s->p_min = u.p_min;
			tested = u.p_min <= alpha;
			proven = u.p < alpha;
			larger = u.b_larger;
			center = sa.median;
		} else if (c->method == CMP_WELCH && a->nruns >= T_MIN_RUNS &&
			   s->nruns >= T_MIN_RUNS && t_welch(&sa, &sb, c->conf, &d) == 0) {
			s->p = d.p;
			tested = true;
			proven = d.p < alpha;
			larger = d.diff > 0;
			center = sa.mean;
		}
	}
	s->refused = a->unsound ? a->unsound : s->unsound;
	s->refused_in = a->unsound ? 0 : k;
	if (s->refused) {
		s->verdict = "not_comparable";
		return;
	}
	if (!tested) {
		s->verdict = "too_few_runs";
		return;
	}
	if (proven) {
		s->verdict = larger ? "better" : "worse";
		return;
	}
	margin = s->same_pct / 100 * fabs(center);
	if (c->method == CMP_UTEST) {
		eq_tost_u(a->runs, a->nruns, s->runs, s->nruns, margin, &s->p_same);
		half = eq_detect_u(a->runs, a->nruns, s->runs, s->nruns, alpha);
	} else {
		eq_tost_welch(&sa, &sb, margin, &s->p_same);
		half = eq_detect_welch(&sa, &sb, alpha);
	}
	s->detect = fabs(center) > 0 ? 100 * half / fabs(center) : NAN;
	s->verdict = s->p_same < alpha ? "same" : "not_proven";
}

void cmp_bx_free(struct cmp_bx *b)
{
	for (size_t k = 0; k < CMP_MAX_FILES; k++) {
		json_decref(b->s[k].cav);
		json_decref(b->s[k].left);
		for (size_t i = 0; i < b->n; i++)
			json_decref(b->rows[i].cav[k]);
	}
	free(b->rows);
}

bool cmp_bx_build(const struct cmp *c, struct cmp_bx *b)
{
	size_t nprinted = 0;
	memset(b, 0, sizeof(*b));
	b->n = gather(c, &b->rows);
	if (!b->n)
		return false;
	for (size_t k = 0; k < c->nf; k++) {
		struct bx_score *s = &b->s[k];
		s->cav = json_array();
		s->left = json_array();
		s->tool = tool_of(b->rows, b->n, k);
		for (size_t i = 0; i < b->n; i++) {
			if (!b->rows[i].t[k])
				continue;
			b->rows[i].cav[k] = cell_caveats(c, b->rows[i].t[k]);
			score_caveats(s, b->rows[i].cav[k], b->rows[i].title);
			s->ntests++;
		}
		if (s->tool && !strcmp(s->tool, KBENCH_BYTE))
			left_out(c, k, s);
		s->nruns = run_scores(b->rows, b->n, k, s->runs, BX_MAX_RUNS);
		s->printed = printed_score(c, k);
		s->worked = file_score(b->rows, b->n, k);
		nprinted += isfinite(s->printed);
	}
	/* the printed scores when every file has one (the table's row of
	 * them then says the same change), else kbench's working for all:
	 * one method across the line */
	b->printed = nprinted == c->nf;
	for (size_t k = 0; k < c->nf; k++)
		b->s[k].score = b->printed ? b->s[k].printed : b->s[k].worked;
	for (size_t k = 1; k < c->nf; k++)
		verdict(c, b, k);
	return true;
}
