/* kbench - compare: the verdicts adjusted over the whole study (see cmpadj.h)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The family is gathered once (p, row, file); a row's floor and its runs
 * needed ask "what would this row's adjusted p be, were its p this one
 * and the others as they are", one adjustment of the family per question.
 */
#include "config.h"
#include "compare/judge/cmpadj.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* the tested p-values of a comparison, with where each came from */
struct family {
	double *p, *q, *tp, *tq;     /* p, adjusted, and room for one question (m + 1) */
	size_t *row, *file;
	size_t m;
	enum p_adjust how;
};

double cmp_row_p(const struct cmp *c, const struct cmp_row *r, size_t k)
{
	if (k == 0 || !r->t[k] || r->test_v[k] == T_TOO_FEW)
		return NAN;
	return c->method == CMP_UTEST ? r->u[k].p : r->d[k].p;
}

static void family_free(struct family *f)
{
	free(f->p);
	free(f->q);
	free(f->tp);
	free(f->tq);
	free(f->row);
	free(f->file);
}

static int family_of(const struct cmp *c, struct family *f)
{
	size_t max = c->nrows * c->nf + 1;
	memset(f, 0, sizeof(*f));
	f->how = c->adjust;
	f->p = malloc(max * sizeof(double));
	f->q = malloc(max * sizeof(double));
	f->tp = malloc(max * sizeof(double));
	f->tq = malloc(max * sizeof(double));
	f->row = malloc(max * sizeof(size_t));
	f->file = malloc(max * sizeof(size_t));
	if (!f->p || !f->q || !f->tp || !f->tq || !f->row || !f->file)
		return -1;
	for (size_t i = 0; i < c->nrows; i++)
		for (size_t k = 1; k < c->nf; k++) {
			double p = cmp_row_p(c, &c->rows[i], k);
			if (isnan(p))
				continue;
			f->p[f->m] = p;
			f->row[f->m] = i;
			f->file[f->m++] = k;
		}
	return p_adjust(f->p, f->m, f->how, f->q);
}

/* The adjusted p member `at` of f would get with p in its place (at ==
 * f->m: added to the family).  NAN when memory runs out. */
static double q_if(struct family *f, size_t at, double p)
{
	size_t n = at == f->m ? f->m + 1 : f->m;
	memcpy(f->tp, f->p, f->m * sizeof(double));
	f->tp[at] = p;
	if (p_adjust(f->tp, n, f->how, f->tq) < 0)
		return NAN;
	return f->tq[at];
}

/* The fewest runs a side n whose smallest U-test p, 2 / C(2n, n), would
 * pass at alpha as member `at` of f; 0 when none up to 60 would. */
static size_t runs_for(struct family *f, size_t at, double alpha)
{
	double c = 2;     /* C(2n, n), from n = 1 */
	for (size_t n = 1; n <= 60; n++) {
		if (q_if(f, at, fmin(1, 2 / c)) < alpha)
			return n;
		c = c * (double)(2 * n + 1) * (double)(2 * n + 2) / ((double)(n + 1) * (double)(n + 1));
	}
	return 0;
}

/* Row r, file k, member `at` of f: the verdict its adjusted p allows. */
static void judge(const struct cmp *c, struct family *f, size_t at, struct cmp_row *r, size_t k,
		  double alpha)
{
	r->q[k] = f->q[at];
	if (r->q[k] < alpha)
		return;
	enum t_verdict v = T_SAME;
	if (c->method == CMP_UTEST) {
		double qf = q_if(f, at, r->u[k].p_min);
		if (!(qf < alpha)) {
			v = T_TOO_FEW;
			r->adj_floor[k] = true;
			r->q_floor[k] = qf;
			r->need[k] = runs_for(f, at, alpha);
		}
	}
	if (r->v[k] != T_REFUSED)
		r->v[k] = v;
	r->test_v[k] = v;
}

int cmp_adjust(struct cmp *c)
{
	struct family f;
	double alpha = 1 - c->conf / 100;
	int rc = family_of(c, &f);
	for (size_t i = 0; i < c->nrows; i++)
		for (size_t k = 0; k < c->nf; k++) {
			c->rows[i].q[k] = NAN;
			c->rows[i].adj_floor[k] = false;
			c->rows[i].need[k] = 0;
		}
	c->ntested = f.m;
	for (size_t j = 0; !rc && j < f.m; j++)
		judge(c, &f, j, &c->rows[f.row[j]], f.file[j], alpha);
	/* rows whose own run counts cannot reach the confidence: how many
	 * runs would, in this family */
	for (size_t i = 0; !rc && c->method == CMP_UTEST && i < c->nrows; i++)
		for (size_t k = 1; k < c->nf; k++) {
			struct cmp_row *r = &c->rows[i];
			if (r->test_v[k] == T_TOO_FEW && !r->adj_floor[k] && r->t[k] && r->t[k]->n &&
			    r->t[0]->n)
				r->need[k] = runs_for(&f, f.m, alpha);
		}
	family_free(&f);
	return rc;
}

int cmp_adjust_latency(const struct cmp *c, struct cmplat *l)
{
	size_t m = 0, cap = l->n * c->nf + 1;
	double *p = malloc(cap * sizeof(double)), alpha = 1 - c->conf / 100;
	if (!p)
		return -1;
	for (size_t i = 0; i < l->n; i++)
		for (size_t k = 1; k < c->nf; k++)
			if (l->rows[i].s[k].present && l->rows[i].s[k].v != CMPLAT_TOO_FEW)
				p[m++] = l->rows[i].s[k].u.p;
	int rc = m > 1 && c->adjust != P_ADJ_NONE ? p_adjust(p, m, c->adjust, p) : 0;
	for (size_t i = 0, j = 0; !rc && m > 1 && c->adjust != P_ADJ_NONE && i < l->n; i++)
		for (size_t k = 1; k < c->nf; k++) {
			struct cmplat_side *b = &l->rows[i].s[k];
			if (!b->present || b->v == CMPLAT_TOO_FEW)
				continue;
			b->q = p[j++];
			if (!(b->q < alpha))
				b->v = CMPLAT_SAME;
		}
	free(p);
	return rc;
}
