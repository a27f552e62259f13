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
	}
	for (size_t k = 1; k < c->nf; k++) {
		if (!r->t[k] || !r->t[k]->n || !r->t[0]->n)
			continue;
		const json_t *u = unsound_of(r->cav[0]);
		r->refused_in[k] = 0;
		if (!u) {
			u = unsound_of(r->cav[k]);
			r->refused_in[k] = k;
		}
		if (!u)
			continue;
		r->refused[k] = json_string_value(json_object_get(u, "key"));
		r->v[k] = T_REFUSED;
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

void cmp_refused_text(const struct cmp_row *r, size_t k, char *buf, size_t n)
{
	char runs[120], key[64];
	size_t in = r->refused_in[k];
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
