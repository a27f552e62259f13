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
#include "compare/cmpcav.h"
#include "suite/escape.h"
#include "suite/rowcav.h"

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

void cmp_put_caveats(FILE *out, const struct cmp_row *r, size_t k)
{
	size_t i;
	const json_t *c;
	if (!json_array_size(r->cav[k]))
		return;
	fputs("  [caveats:", out);
	json_array_foreach(r->cav[k], i, c) {
		const char *key = json_string_value(json_object_get(c, "key"));
		fputs(i ? ", " : " ", out);
		esc_put(out, key, 0);
		if (caveat_unsound(key))
			fputc('*', out);
		const json_t *ev = json_object_get(c, "evidence");
		if (!strcmp(key, "bimodal"))
			fprintf(out, " %.6g (%lld runs) and %.6g (%lld runs)",
				json_number_value(json_object_get(ev, "low_center")),
				(long long)json_integer_value(json_object_get(ev, "low_runs")),
				json_number_value(json_object_get(ev, "high_center")),
				(long long)json_integer_value(json_object_get(ev, "high_runs")));
	}
	fputc(']', out);
}
