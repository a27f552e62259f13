/* kbench - compare --series: each test's runs by kernel, its steps, their q
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The steps of every test are found by binary segmentation with a U test
 * per split (stats/changepoint.h) and adjusted together: the family is
 * every split position of every test (s->m), so that a study of 40 tests
 * over 12 kernels pays for its 440 places a step could be.  Invariants:
 * a control (a build run again) is never a point; a point whose runs of a
 * test carry a caveat that keeps it out has no runs in that test's
 * segmentation, and a step across it names its neighbours.
 */
#include "config.h"
#include "compare/series/serbuild.h"
#include "compare/judge/cmpparams.h"
#include "compare/judge/cmprow.h"
#include "compare/judge/cmpsettings.h"
#include "result/caveat.h"
#include "stats/adjust.h"
#include "stats/utest.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

bool ser_keeps_out(const char *key)
{
	return key && (caveat_unsound(key) || !strcmp(key, "busy") || !strcmp(key, "steal") ||
		       !strcmp(key, "params_differ") || !strcmp(key, "settings_differ"));
}

/* The rank of a version's suffix (from its first '-'): the pre-releases
 * in the order kernels had them (2.4.0-test12, 2.4.0-prerelease; 2.4.20-pre11,
 * 2.4.20-rc1), then none, then any other (a distribution's build). */
static int suffix_kind(const char *s)
{
	if (!*s)
		return 3;
	s++;
	return !strncmp(s, "test", 4) ? 0 : !strncmp(s, "pre", 3) ? 1 : !strncmp(s, "rc", 2) ? 2 : 4;
}

int ser_version_cmp(const char *a, const char *b)
{
	size_t na = strcspn(a, "-"), nb = strcspn(b, "-");
	char pa[256], pb[256];
	snprintf(pa, sizeof(pa), "%.*s", (int)na, a);
	snprintf(pb, sizeof(pb), "%.*s", (int)nb, b);
	int c = strverscmp(pa, pb);
	if (c)
		return c;
	int ka = suffix_kind(a + na), kb = suffix_kind(b + nb);
	if (ka != kb)
		return ka - kb;
	return strverscmp(a + na, b + nb);
}

/* The tests of every file, each once (name and unit), in the order first
 * seen; t[k] of each. */
static int match_tests(struct series *s)
{
	size_t cap = 0;
	for (size_t k = 0; k < s->nk; k++)
		cap += s->k[k].nt;
	s->t = calloc(cap ? cap : 1, sizeof(*s->t));
	if (!s->t)
		return -1;
	for (size_t k = 0; k < s->nk; k++)
		for (size_t i = 0; i < s->k[k].nt; i++) {
			const struct sf_test *ft = &s->k[k].t[i];
			size_t j = 0;
			while (j < s->nt && !(cmp_same_name(s->t[j].name, ft->name) &&
					      !strcmp(s->t[j].unit, ft->unit)))
				j++;
			struct ser_test *t = &s->t[j];
			if (j == s->nt) {
				s->nt++;
				t->name = ft->name;
				t->unit = ft->unit;
				t->higher_is_better = ft->higher_is_better;
				t->drift_of = -1;
				t->t = calloc(s->nk, sizeof(*t->t));
				t->runs = calloc(s->nk, sizeof(*t->runs));
				t->kept_out = calloc(s->nk, sizeof(*t->kept_out));
				t->cav = calloc(s->nk, sizeof(*t->cav));
				t->cand = calloc(s->nk, sizeof(*t->cand));
				t->steps = calloc(s->nk, sizeof(*t->steps));
				if (!t->t || !t->runs || !t->kept_out || !t->cav || !t->cand || !t->steps)
					return -1;
			}
			if (!t->t[k])
				t->t[k] = ft;
		}
	return 0;
}

/* The first caveat of cav that keeps the runs out, or NULL. */
static const char *keeps_out(const json_t *cav)
{
	size_t i;
	const json_t *c;
	json_array_foreach(cav, i, c) {
		const char *key = json_string_value(json_object_get(c, "key"));
		if (ser_keeps_out(key))
			return key;
	}
	return NULL;
}

/* Each point's runs of t, and the caveats that keep some out. */
static int fill_runs(struct series *s, struct ser_test *t)
{
	long first = -1;
	size_t points = 0, multi = 0;
	for (size_t k = 0; k < s->nk; k++) {
		if (!t->t[k])
			continue;
		size_t i = (size_t)(t->t[k] - s->k[k].t);
		t->cav[k] = s->k[k].cav[i];
		if (s->k[k].control_of >= 0)
			continue;
		if (first < 0)
			first = (long)k;
		else if (cmp_params_caveats(s->k[first].params, s->k[k].params, s->k[k].commands[i],
					    'B', t->cav[k]) < 0 ||
			 cmp_settings_between(s->k[first].settings, s->k[k].settings, t->t[k]->name,
					      s->k[k].commands[i], t->t[k]->n, t->cav[k]) < 0)
			return -1;
		t->kept_out[k] = keeps_out(t->cav[k]);
		if (t->kept_out[k] || !t->t[k]->n)
			continue;
		t->runs[k] = (struct cp_runs){ t->t[k]->v, t->t[k]->n };
		points++;
		multi += t->t[k]->n > 1;
	}
	t->single = points > 0 && !multi;
	return 0;
}

/* Each control against the build it runs again, test by test, adjusted
 * over the tests so tested: a test whose build differs from itself is
 * marked drift_of. */
static int check_controls(struct series *s)
{
	double *p = calloc(s->nt + 1, sizeof(double));
	size_t n = 0;
	if (!p)
		return -1;
	for (size_t i = 0; i < s->nt; i++) {
		struct ser_test *t = &s->t[i];
		for (size_t k = 0; k < s->nk; k++) {
			long of = s->k[k].control_of;
			if (of < 0 || !t->t[k] || !t->t[of] || !t->t[k]->n || !t->t[of]->n)
				continue;
			struct u_result u;
			if (u_test(t->t[of]->v, t->t[of]->n, t->t[k]->v, t->t[k]->n, &u) < 0)
				continue;
			if (t->drift_of >= 0 && u.p >= t->drift_p)
				continue;
			if (t->drift_of < 0)
				n++;
			t->drift_of = (long)k;
			t->drift_p = u.p;
			double a = t->t[of]->sum.median, b = t->t[k]->sum.median;
			t->drift_pct = a != 0 ? 100 * (b - a) / fabs(a) : NAN;
		}
	}
	size_t j = 0;
	for (size_t i = 0; i < s->nt; i++)
		if (s->t[i].drift_of >= 0)
			p[j++] = s->t[i].drift_p;
	if (p_adjust(p, n, P_ADJ_BH, p) < 0) {
		free(p);
		return -1;
	}
	j = 0;
	for (size_t i = 0; i < s->nt; i++) {
		struct ser_test *t = &s->t[i];
		if (t->drift_of < 0)
			continue;
		t->drift_q = p[j++];
		if (!(t->drift_q < 1 - s->conf / 100))
			t->drift_of = -1;
	}
	s->ndrift_tested = n;
	free(p);
	return 0;
}

/* Every candidate's p adjusted over s->m positions, the splits not taken
 * counted at p = 1. */
static int adjust_all(struct series *s)
{
	double *p = malloc((s->m ? s->m : 1) * sizeof(double));
	if (!p)
		return -1;
	size_t j = 0;
	for (size_t i = 0; i < s->nt; i++)
		for (size_t c = 0; c < s->t[i].ncand; c++)
			p[j++] = s->t[i].cand[c].p;
	for (size_t r = j; r < s->m; r++)
		p[r] = 1;
	if (p_adjust(p, s->m, P_ADJ_BH, p) < 0) {
		free(p);
		return -1;
	}
	j = 0;
	for (size_t i = 0; i < s->nt; i++)
		for (size_t c = 0; c < s->t[i].ncand; c++)
			s->t[i].cand[c].q = p[j++];
	free(p);
	return 0;
}

static int by_at(const void *x, const void *y)
{
	const struct ser_step *a = x, *b = y;
	return (a->to > b->to) - (a->to < b->to);
}

/* The accepted candidates of t as steps, in order, each sized between the
 * steps either side of it. */
static int make_steps(struct series *s, struct ser_test *t)
{
	cp_accept(t->cand, t->ncand, 1 - s->conf / 100);
	t->nsteps = 0;
	for (size_t c = 0; c < t->ncand; c++)
		if (t->cand[c].accepted)
			t->steps[t->nsteps++] = (struct ser_step){ .cand = c, .from = t->cand[c].from,
								   .to = t->cand[c].at };
	qsort(t->steps, t->nsteps, sizeof(*t->steps), by_at);
	for (size_t i = 0; i < t->nsteps; i++) {
		struct ser_step *st = &t->steps[i];
		size_t lo = i ? t->steps[i - 1].to : 0;
		size_t hi = i + 1 < t->nsteps ? t->steps[i + 1].to : s->nk;
		/* placed again between its neighbours, now that they are known */
		if (t->nsteps > 1 && cp_best(t->runs, lo, hi, &st->to, &st->from) < 0)
			return -1;
		if (cp_size_of(t->runs, lo, st->to, hi, s->conf, &st->size) < 0)
			return -1;
		st->worse = t->higher_is_better ? st->size.right < st->size.left :
			    st->size.right > st->size.left;
	}
	return 0;
}

int ser_build(struct series *s)
{
	if (match_tests(s) < 0)
		return -1;
	s->m = 0;
	for (size_t i = 0; i < s->nt; i++) {
		struct ser_test *t = &s->t[i];
		if (fill_runs(s, t) < 0)
			return -1;
		t->positions = cp_positions(t->runs, s->nk);
		s->m += t->positions;
		if (cp_binseg(t->runs, s->nk, 1 - s->conf / 100, t->cand, &t->ncand) < 0)
			return -1;
	}
	if (check_controls(s) < 0 || adjust_all(s) < 0)
		return -1;
	for (size_t i = 0; i < s->nt; i++)
		if (make_steps(s, &s->t[i]) < 0)
			return -1;
	return 0;
}

void ser_free(struct series *s)
{
	for (size_t i = 0; s->t && i < s->nt; i++) {
		struct ser_test *t = &s->t[i];
		free(t->t);
		free(t->runs);
		free(t->kept_out);
		free(t->cav);
		free(t->cand);
		free(t->steps);
	}
	free(s->t);
	s->t = NULL;
	s->nt = 0;
}
