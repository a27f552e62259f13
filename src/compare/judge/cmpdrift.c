/* kbench - compare --control: drift of the machine between the series (see cmpdrift.h)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The check against A' is a second family of tests, one a flagged row,
 * adjusted as if every tested row were in it (the rest at p = 1), so it
 * asks as much of a change against A' as the first asked against A.
 */
#include "config.h"
#include "result/caveat.h"
#include "stats/adjust.h"
#include "compare/judge/cmpdrift.h"

#include <math.h>
#include <stdlib.h>

static double pct_of(double from, double to)
{
	return from != 0 ? 100 * (to - from) / fabs(from) : NAN;
}

static json_t *num(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

/* The test of B (file k of r) against A': p into *p, and whether it says
 * the same as the verdict against A; false when A' lacks the test. */
static bool against_control(const struct cmp *c, const struct cmp_row *r, size_t k,
			    const struct sf_test **x, double *p)
{
	struct u_result u;
	*p = 1;
	*x = cmp_find_test(c->control, &c->f[0], r->name, r->unit);
	if (!*x || !(*x)->summarised || u_test((*x)->v, (*x)->n, r->t[k]->v, r->t[k]->n, &u) < 0)
		return false;
	*p = u.p;
	return (u.b_larger == r->higher_is_better) == (r->v[k] == T_BETTER);
}

/* Can the control's runs x (NULL: it lacks the test) prove a change
 * against B's (file k of r) at the confidence at all?  When not, the row
 * gets control_runs, not drift: nothing of the control was measured. */
static bool control_short(const struct cmp *c, const struct cmp_row *r, size_t k,
			  const struct sf_test *x)
{
	struct u_result u;
	if (x && x->summarised && u_test(x->v, x->n, r->t[k]->v, r->t[k]->n, &u) == 0 &&
	    !(u.p_min > 1 - c->conf / 100))
		return false;
	return true;
}

static int refuse(const struct cmp *c, struct cmp_row *r, size_t k, const struct sf_test *x,
		  double p, double q)
{
	if (control_short(c, r, k, x)) {
		json_t *ev = json_pack("{s:s, s:I}", "control", c->control->path, "runs",
				       (json_int_t)(x ? x->n : 0));
		if (!ev || caveat_add(r->cav[k], "control_runs", ev, "the control has %zu runs "
				      "of the test: too few to check the change against",
				      x ? x->n : 0) < 0)
			return -1;
		r->v[k] = T_REFUSED;
		r->refused[k] = "control_runs";
		r->refused_in[k] = k;
		return 0;
	}
	double mx = x && x->summarised ? x->sum.median : NAN;
	json_t *ev = json_pack("{s:s, s:o, s:f, s:o, s:o}", "control", c->control->path,
			       "change_pct", num(pct_of(mx, r->s[k].median)), "p", p,
			       "p_adjusted", num(q), "control_change_pct",
			       num(pct_of(r->s[0].median, mx)));
	if (!ev || caveat_add(r->cav[k], "drift", ev, "against the control (A run again "
			      "after the others) the change is not proven: the machine may have "
			      "drifted between the series") < 0)
		return -1;
	r->v[k] = T_REFUSED;
	r->refused[k] = "drift";
	r->refused_in[k] = k;
	return 0;
}

int cmp_drift_check(struct cmp *c)
{
	if (!c->control || !c->ntested)
		return 0;
	size_t m = c->ntested, n = 0, cap = c->nrows * c->nf + 1;
	double *p = malloc((m > cap ? m : cap) * sizeof(double));
	double *q = malloc((m > cap ? m : cap) * sizeof(double));
	bool *same = calloc(cap, sizeof(bool));
	int rc = p && q && same ? 0 : -1;
	for (size_t i = 0; !rc && i < c->nrows; i++)
		for (size_t k = 1; k < c->nf; k++) {
			const struct sf_test *x;
			struct cmp_row *r = &c->rows[i];
			if (r->v[k] != T_BETTER && r->v[k] != T_WORSE)
				continue;
			same[n] = against_control(c, r, k, &x, &p[n]);
			n++;
		}
	for (size_t j = n; !rc && j < m; j++)
		p[j] = 1;
	if (!rc && n)
		rc = p_adjust(p, n > m ? n : m, c->adjust, q);
	n = 0;
	for (size_t i = 0; !rc && i < c->nrows; i++)
		for (size_t k = 1; !rc && k < c->nf; k++) {
			const struct sf_test *x;
			struct cmp_row *r = &c->rows[i];
			double alpha = 1 - c->conf / 100, pk;
			if (r->v[k] != T_BETTER && r->v[k] != T_WORSE)
				continue;
			against_control(c, r, k, &x, &pk);
			if (!same[n] || !(q[n] < alpha))
				rc = refuse(c, r, k, x, p[n], q[n]);
			n++;
		}
	free(p);
	free(q);
	free(same);
	return rc;
}
