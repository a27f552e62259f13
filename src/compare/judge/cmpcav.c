/* kbench - compare: the caveats of each row, and the verdicts they refuse
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A verdict is only as good as the runs it is drawn from: a disk figure
 * that timed the page cache, a load run with errors or stopped by a
 * signal, a series whose runs ran on different kernels.  Runs whose
 * caveats make a comparison unsound (result/caveat.h) give no
 * better/worse: the row reads "not comparable: KEY", with its figures.
 */
#include "config.h"
#include "result/caveat.h"
#include "compare/judge/cmpcav.h"
#include "compare/judge/cmpparams.h"
#include "resultsfile/escape.h"
#include "resultsfile/figures.h"
#include "resultsfile/rowcav.h"
#include "compare/judge/cmpsettings.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The first unsound caveat of list, or NULL. */
static const json_t *unsound_of(const json_t *list)
{
	size_t i;
	const json_t *c;
	json_array_foreach(list, i, c)
		if (caveat_unsound(json_string_value(json_object_get(c, "key"))))
			return c;
	return NULL;
}

/* The entry of key in list, or NULL. */
static const json_t *entry_of(const json_t *list, const char *key)
{
	size_t i;
	const json_t *c;
	json_array_foreach(list, i, c) {
		const char *k = json_string_value(json_object_get(c, "key"));
		if (k && !strcmp(k, key))
			return c;
	}
	return NULL;
}

void cmp_caveats_fill(const struct cmp *c, struct cmp_row *r)
{
	struct rowcav_opts o = { c->conf, c->ticks_per_s };
	for (size_t k = 0; k < c->nf; k++) {
		r->cav[k] = r->t[k] ? rowcav_row(r->t[k]->row, &o) : NULL;
		r->refused[k] = NULL;
		r->test_v[k] = r->v[k];
		/* the settings that differ from A's, on this file's side of the row */
		if (k && r->t[k] && r->cav[k])
			cmp_params_caveats(c->f[0].doc, c->f[k].doc, json_string_value(
				json_object_get(r->t[0]->params, "command")), (char)('A' + k), r->cav[k]);
		/* the machine's settings that differ and can move this test, from
		 * A's, and from the series' own start */
		if (k && r->t[k] && r->cav[k])
			cmp_settings_caveats(c, k, r->t[0], r->t[k], r->cav[k]);
		if (r->t[k] && r->cav[k])
			cmp_settings_run_caveats(c, k, r->t[k], r->cav[k]);
		/* files that disagree on what the test is give it no verdict, and
		 * figures in another unit no change */
		if (k && r->t[k] && r->cav[k] &&
		    cmp_test_caveats(r->t[0], r->t[k], (char)('A' + k), r->cav[k]) == 1 &&
		    strcmp(r->t[0]->unit, r->t[k]->unit))
			r->change[k] = NAN;
	}
	for (size_t k = 1; k < c->nf; k++) {
		if (!r->t[k] || !r->t[k]->n || !r->t[0]->n)
			continue;
		const json_t *u = entry_of(r->cav[k], "test_differs");
		r->refused_in[k] = k;
		if (!u) {
			u = unsound_of(r->cav[0]);
			r->refused_in[k] = 0;
		}
		if (!u) {
			u = unsound_of(r->cav[k]);
			r->refused_in[k] = k;
		}
		if (!u)
			continue;
		r->refused[k] = json_string_value(json_object_get(u, "key"));
		r->v[k] = T_REFUSED;
		/* not one test: no p of it joins the adjusted family */
		if (!strcmp(r->refused[k], "test_differs"))
			r->test_v[k] = T_TOO_FEW;
	}
}

void cmp_caveats_free(struct cmp *c)
{
	for (size_t i = 0; c->rows && i < c->nrows; i++)
		for (size_t k = 0; k < c->nf; k++) {
			json_decref(c->rows[i].cav[k]);
			c->rows[i].cav[k] = NULL;
		}
}

bool cmp_any_refused(const struct cmp *c)
{
	for (size_t i = 0; i < c->nrows; i++)
		for (size_t k = 1; k < c->nf; k++)
			if (c->rows[i].v[k] == T_REFUSED)
				return true;
	return false;
}

/* The runs of caveat key in list as " 1, 3" into buf (n bytes). */
static void runs_of(const json_t *list, const char *key, char *buf, size_t n)
{
	size_t i, j, used = 0;
	const json_t *c, *x;
	buf[0] = 0;
	json_array_foreach(list, i, c) {
		if (strcmp(json_string_value(json_object_get(c, "key")), key))
			continue;
		json_array_foreach(json_object_get(c, "runs"), j, x) {
			int w = snprintf(buf + used, n - used, "%s%lld", j ? ", " : " ",
					 (long long)json_integer_value(x));
			if (w < 0 || (size_t)w >= n - used)
				return;
			used += (size_t)w;
		}
	}
}

/* What the files disagree on, from test_differs' evidence: "unit: A
 * MB/s, B us; clients: A 5, B 7" into buf (n bytes). */
static void differs_text(const json_t *ev, char *buf, size_t n)
{
	const char *key, *side;
	const json_t *pair, *v;
	size_t used = 0;
	buf[0] = 0;
	json_object_foreach((json_t *)ev, key, pair) {
		char shown[2][64];
		int w = snprintf(buf + used, n - used, "%s%s:", used ? "; " : "",
				 esc_str(shown[0], sizeof(shown[0]), key));
		if (w < 0 || (size_t)w >= n - used)
			return;
		used += (size_t)w;
		json_object_foreach((json_t *)pair, side, v) {
			char *text = json_dumps(v, JSON_ENCODE_ANY);
			w = snprintf(buf + used, n - used, " %s %s,", side,
				     esc_str(shown[1], sizeof(shown[1]), text ? text : "?"));
			free(text);
			if (w < 0 || (size_t)w >= n - used)
				return;
			used += (size_t)w;
		}
		buf[--used] = 0;
	}
}

void cmp_refused_text(const struct cmp_row *r, size_t k, char *buf, size_t n)
{
	char runs[120], key[64], what[240];
	size_t in = r->refused_in[k];
	const json_t *ev = json_object_get(entry_of(r->cav[in], r->refused[k]), "evidence");
	if (!strcmp(r->refused[k], "test_differs")) {
		differs_text(ev, what, sizeof(what));
		snprintf(buf, n, "not comparable: the files disagree on what the test is (%s)",
			 what);
		return;
	}
	if (!strcmp(r->refused[k], "control_runs")) {
		json_int_t m = json_integer_value(json_object_get(ev, "runs"));
		if (!m)
			snprintf(buf, n, "not comparable: the control has no runs of it");
		else
			snprintf(buf, n, "not comparable: the control has %lld run%s of it, too few "
				 "to check the change against", (long long)m, m == 1 ? "" : "s");
		return;
	}
	runs_of(r->cav[in], r->refused[k], runs, sizeof(runs));
	esc_str(key, sizeof(key), r->refused[k]);
	if (runs[0])
		snprintf(buf, n, "not comparable: %s (%c's run%s%s)", key, (char)('A' + in),
			 strchr(runs, ',') ? "s" : "", runs);
	else
		snprintf(buf, n, "not comparable: %s (%c's series)", key, (char)('A' + in));
}

int cmp_cav_run(const json_t *cav, size_t run_no)
{
	int mark = 0;
	size_t i, j;
	const json_t *cv, *n;
	json_array_foreach(cav, i, cv)
		json_array_foreach(json_object_get(cv, "runs"), j, n)
			if ((size_t)json_integer_value(n) == run_no)
				mark = caveat_unsound(json_string_value(json_object_get(cv, "key"))) ?
				       2 : mark ? mark : 1;
	return mark;
}

void cmp_put_keys(FILE *out, const json_t *cav)
{
	size_t i;
	const json_t *c;
	json_array_foreach(cav, i, c) {
		const char *key = json_string_value(json_object_get(c, "key"));
		fputs(i ? ", " : " ", out);
		esc_put(out, key, 0);
		if (caveat_unsound(key))
			fputc('*', out);
		const json_t *ev = json_object_get(c, "evidence");
		if (!strcmp(key, "params_differ")) {
			const char *name;
			const json_t *v;
			json_object_foreach((json_t *)ev, name, v) {
				fputc(' ', out);
				esc_put(out, name, 0);
			}
		}
		if (!strcmp(key, "settings_differ"))
			cmp_settings_put_brief(out, c);
		if (!strcmp(key, "bimodal")) {
			char lo[64], hi[64];
			fig_plain(lo, sizeof(lo), json_number_value(json_object_get(ev, "low_center")), 6);
			fig_plain(hi, sizeof(hi), json_number_value(json_object_get(ev, "high_center")), 6);
			fprintf(out, " %s (%lld runs) and %s (%lld runs)", lo,
				(long long)json_integer_value(json_object_get(ev, "low_runs")), hi,
				(long long)json_integer_value(json_object_get(ev, "high_runs")));
		}
	}
}

void cmp_put_caveats(FILE *out, const struct cmp_row *r, size_t k)
{
	if (!json_array_size(r->cav[k]))
		return;
	fputs("  [caveats:", out);
	cmp_put_keys(out, r->cav[k]);
	fputc(']', out);
}
