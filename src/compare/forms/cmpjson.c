/* kbench - compare: the comparison as one JSON document, for scripts
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Built from the same struct cmp as the table (cmprow.h), so the two
 * cannot disagree.  A figure that does not exist (a change against 0, an
 * interval of one run) is null, never NaN.  The layout is in
 * kbench-compare(1), JSON OUTPUT.
 */
#include "config.h"
#include "compare/forms/cmpbyte.h"
#include "compare/forms/cmpjson.h"
#include "compare/judge/cmplat.h"
#include "compare/judge/cmpruns.h"
#include "compare/judge/cmpsettings.h"
#include "compare/judge/cmpsame.h"

#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

static json_t *num(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

/* The spread of file k against A's (cmpsame.h), or null when untested. */
static json_t *spread_json(const struct cmp_spread *s)
{
	if (!s->tested)
		return json_null();
	return json_pack("{s:o, s:o, s:o, s:o, s:b, s:b, s:b}", "cov_pct_a", num(s->cov_a),
			 "cov_pct", num(s->cov), "p", num(s->p), "p_adjusted", num(s->q),
			 "changed", s->changed, "two_clusters_a", s->modes_a, "two_clusters",
			 s->modes);
}

static json_t *cell(const struct cmp *c, const struct cmp_row *r, size_t k)
{
	char letter[2] = { (char)('A' + k), 0 };
	json_t *o = json_pack("{s:s, s:s}", "file", letter, "test", r->t[k] ? r->t[k]->name : "");
	if (!r->t[k]) {
		json_object_set_new(o, "present", json_false());
		return o;
	}
	json_object_set_new(o, "present", json_true());
	json_t *runs = json_array();
	for (size_t i = 0; i < r->t[k]->n; i++)
		json_array_append_new(runs, json_real(r->t[k]->v[i]));
	json_object_set_new(o, "runs", runs);
	json_object_set_new(o, "n", json_integer((json_int_t)r->t[k]->n));
	bool s = r->t[k]->summarised;
	json_object_set_new(o, "median", s ? num(r->s[k].median) : json_null());
	json_object_set_new(o, "mean", s ? num(r->s[k].mean) : json_null());
	json_object_set_new(o, "mean_ci_half", s ? num(r->ci[k]) : json_null());
	double lo, hi;
	json_object_set_new(o, "median_ci", s && u_median_ci(r->t[k]->v, r->t[k]->n, c->conf, &lo,
							     &hi) == 0 ?
			    json_pack("[f, f]", lo, hi) : json_null());
	json_object_set_new(o, "min", s ? num(r->s[k].min) : json_null());
	json_object_set_new(o, "max", s ? num(r->s[k].max) : json_null());
	json_object_set_new(o, "caveats", r->cav[k] ? json_incref(r->cav[k]) : json_array());
	if (k == 0)
		return o;
	json_object_set_new(o, "change_pct", num(r->change[k]));
	json_object_set_new(o, "verdict", json_string(cmp_verdict_key(r, k)));
	/* false: a machine setting that can move the row differs (settings_differ) */
	json_object_set_new(o, "kernel_alone", json_boolean(!cmp_settings_in(r->cav[k])));
	if (r->v[k] != T_BETTER && r->v[k] != T_WORSE)
		json_object_set_new(o, "detectable_change_pct", num(cmp_detectable_pct(c, r, k)));
	if (isfinite(r->p_same[k]))
		json_object_set_new(o, "same", json_pack("{s:f, s:o, s:o}", "within_pct",
				    r->same_pct[k], "p", num(r->p_same[k]), "p_adjusted",
				    num(r->q_same[k])));
	json_object_set_new(o, "spread", spread_json(&r->sp[k]));
	if (cmp_runs_needed(c, r, k))
		json_object_set_new(o, "runs_needed_each_side",
				    json_integer((json_int_t)cmp_runs_needed(c, r, k)));
	if (r->v[k] == T_REFUSED)
		json_object_set_new(o, "not_comparable", json_pack("{s:s, s:s}", "caveat",
				    r->refused[k], "in", (char[2]){ (char)('A' + r->refused_in[k]), 0 }));
	/* files that disagree on what the test is were not tested */
	if (!s || !r->t[0]->summarised || (r->v[k] == T_REFUSED &&
					   !strcmp(r->refused[k], "test_differs")))
		return o;
	json_object_set_new(o, "p_adjusted", num(r->q[k]));
	if (r->adj_floor[k])
		json_object_set_new(o, "p_adjusted_floor", num(r->q_floor[k]));
	if (c->method == CMP_UTEST) {
		json_object_set_new(o, "u", num(r->u[k].u));
		json_object_set_new(o, "p", num(r->u[k].p));
		json_object_set_new(o, "p_exact", json_boolean(r->u[k].exact));
		json_object_set_new(o, "p_min", num(r->u[k].p_min));
		double sh = NAN, slo, shi;
		int ci = u_shift_ci(r->t[0]->v, r->t[0]->n, r->t[k]->v, r->t[k]->n, c->conf, &sh,
				    &slo, &shi);
		json_object_set_new(o, "shift", num(sh));
		json_object_set_new(o, "shift_ci", ci == 0 ? json_pack("[f, f]", slo, shi) :
				    json_null());
	} else if (r->test_v[k] != T_TOO_FEW) {
		json_object_set_new(o, "p", num(r->d[k].p));
		json_object_set_new(o, "diff", num(r->d[k].diff));
		json_object_set_new(o, "diff_ci_half", num(r->d[k].half));
		json_object_set_new(o, "diff_pct_ci_half", num(r->d[k].pct_half));
		json_object_set_new(o, "df", num(r->d[k].df));
	}
	return o;
}

/* One file's side of a latency row. */
static json_t *lat_side(const struct cmplat_side *s, size_t k)
{
	char letter[2] = { (char)('A' + k), 0 };
	json_t *o = json_pack("{s:s, s:b}", "file", letter, "present", s->present);
	if (!s->present)
		return o;
	json_object_set_new(o, "runs", json_integer((json_int_t)s->runs));
	for (size_t q = 0; q < CMPLAT_NPCT; q++)
		json_object_set_new(o, cmplat_pct_names[q], s->runs ? num(s->pct[q]) : json_null());
	json_object_set_new(o, "max", s->runs ? num(s->max) : json_null());
	if (k == 0)
		return o;
	json_t *ch = json_object();
	for (size_t q = 0; q <= CMPLAT_NPCT; q++)
		json_object_set_new(ch, q < CMPLAT_NPCT ? cmplat_pct_names[q] : "max",
				    num(s->change[q]));
	json_object_set_new(o, "change_pct", ch);
	json_object_set_new(o, "verdict", json_string(cmplat_verdict_key(s->v)));
	if (s->v != CMPLAT_TOO_FEW) {
		json_object_set_new(o, "u", num(s->u.u));
		json_object_set_new(o, "p", num(s->u.p));
		json_object_set_new(o, "p_exact", json_boolean(s->u.exact));
		json_object_set_new(o, "p_adjusted", num(s->q));
	}
	return o;
}

/* --latency: the latency rows, with the test their verdicts use. */
static json_t *latency(const struct cmp *c, const struct cmplat *l)
{
	json_t *rows = json_array();
	for (size_t i = 0; i < l->n; i++) {
		json_t *files = json_array();
		for (size_t k = 0; k < c->nf; k++)
			json_array_append_new(files, lat_side(&l->rows[i].s[k], k));
		json_array_append_new(rows, json_pack("{s:s, s:s, s:o}", "test", l->rows[i].test,
						      "op", l->rows[i].op, "files", files));
	}
	return json_pack("{s:s, s:s, s:s, s:b, s:o}", "unit", "ms", "verdict_test", "utest",
			 "verdict_on", "p99_of_each_run", "higher_is_better", 0, "rows", rows);
}

void cmp_print_json(FILE *out, const struct cmp *c)
{
	json_t *files = json_array(), *rows = json_array(), *left = json_array();
	for (size_t k = 0; k < c->nf; k++) {
		char letter[2] = { (char)('A' + k), 0 };
		json_t *label = json_object_get(c->f[k].doc, "label");
		const struct cmp_steal *st = &c->steal[k];
		json_array_append_new(files, json_pack("{s:s, s:s, s:O, s:o}", "file", letter, "path",
						       c->f[k].path, "label",
						       label ? label : json_null(), "steal",
						       st->notable ?
						       json_pack("{s:f, s:f, s:i, s:s}", "pct",
								 st->pct, "wall_s", st->wall_s,
								 "run", (int)st->run, "test",
								 st->test) : json_null()));
		for (size_t i = 0; i < c->f[k].nt; i++) {
			size_t where;
			const struct sf_test *t = &c->f[k].t[i];
			if (cmp_matched(c, k, t, &where))
				continue;
			char other[2] = { (char)('A' + where), 0 };
			json_t *e = json_pack("{s:s, s:s, s:s, s:i}", "file", letter, "test", t->name,
					      "unit", t->unit, "runs", (int)t->n);
			json_object_set_new(e, "only_in_this_file", json_boolean(where == k));
			if (where != k)
				json_object_set_new(e, "also_in", json_string(other));
			json_array_append_new(left, e);
		}
	}
	for (size_t i = 0; i < c->nrows; i++) {
		const struct cmp_row *r = &c->rows[i];
		json_t *cells = json_array();
		for (size_t k = 0; k < c->nf; k++)
			json_array_append_new(cells, cell(c, r, k));
		json_array_append_new(rows, json_pack("{s:s, s:s, s:b, s:o}", "test", r->name, "unit",
						      r->unit, "higher_is_better",
						      r->higher_is_better, "files", cells));
	}
	json_t *doc = json_pack("{s:s, s:s, s:f, s:s, s:o, s:o, s:o}", "kind", "compare",
				"test", c->method == CMP_UTEST ? "utest" : "welch",
				"confidence_pct", c->conf, "change_of",
				c->method == CMP_UTEST ? "median" : "mean", "files", files, "rows", rows,
				"not_compared", left);
	json_object_set_new(doc, "settings_differ", cmp_settings_json(c));
	json_object_set_new(doc, "adjust", json_string(p_adjust_name(c->adjust)));
	json_object_set_new(doc, "tests_adjusted", json_integer((json_int_t)c->ntested));
	json_object_set_new(doc, "same_within_pct", c->same_within > 0 ? json_real(c->same_within) :
			    json_null());
	json_object_set_new(doc, "same_tests_adjusted", json_integer((json_int_t)c->nsame));
	json_object_set_new(doc, "spread_tests_adjusted", json_integer((json_int_t)c->nspread));
	json_object_set_new(doc, "control", c->control ? json_string(c->control->path) :
			    json_null());
	if (c->lat)
		json_object_set_new(doc, "latency", latency(c, c->lat));
	json_object_set_new(doc, "byte_index", cmp_byte_json(c));
	json_dumpf(doc, out, JSON_INDENT(2) | JSON_ENSURE_ASCII);
	fputc('\n', out);
	json_decref(doc);
}
