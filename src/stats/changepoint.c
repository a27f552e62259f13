/* kbench - change points of a series of kernels (method and sources in changepoint.h)
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"
#include "stats/changepoint.h"
#include "stats/summary.h"
#include "stats/utest.h"

#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

struct ranked {
	double v;
	size_t k;     /* the kernel the run belongs to */
};

static int by_value(const void *x, const void *y)
{
	double a = ((const struct ranked *)x)->v, b = ((const struct ranked *)y)->v;
	return (a > b) - (a < b);
}

static int cmp_double(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;
	return (a > b) - (a < b);
}

size_t cp_positions(const struct cp_runs *k, size_t nk)
{
	size_t with = 0;
	for (size_t i = 0; i < nk; i++)
		with += k[i].n > 0;
	return with > 1 ? with - 1 : 0;
}

/* The runs of k[lo..hi-1] into one malloc'd array (*n of them). */
static double *pool(const struct cp_runs *k, size_t lo, size_t hi, size_t *n)
{
	size_t total = 0;
	for (size_t i = lo; i < hi; i++)
		total += k[i].n;
	double *v = malloc((total ? total : 1) * sizeof(double));
	if (!v)
		return NULL;
	*n = 0;
	for (size_t i = lo; i < hi; i++) {
		if (!k[i].n)
			continue;   /* no point: v may be NULL */
		memcpy(v + *n, k[i].v, k[i].n * sizeof(double));
		*n += k[i].n;
	}
	return v;
}

/* The split of [lo, hi) with the largest standardised U, from one ranking
 * of the segment's runs: *at 0 when there is none (fewer than two kernels
 * with runs, or every run the same).  Returns -1 when memory runs out. */
static int best_split(const struct cp_runs *k, size_t lo, size_t hi, size_t *at, double *zbest)
{
	size_t n = 0;
	*at = 0;
	for (size_t i = lo; i < hi; i++)
		n += k[i].n;
	if (n < 2)
		return 0;
	struct ranked *r = malloc(n * sizeof(*r));
	double *rsum = calloc(hi - lo, sizeof(double));
	if (!r || !rsum) {
		free(r);
		free(rsum);
		return -1;
	}
	size_t m = 0;
	for (size_t i = lo; i < hi; i++)
		for (size_t j = 0; j < k[i].n; j++)
			r[m++] = (struct ranked){ k[i].v[j], i - lo };
	qsort(r, n, sizeof(*r), by_value);
	double ties = 0;
	for (size_t i = 0; i < n;) {
		size_t e = i;
		while (e < n && r[e].v == r[i].v)
			e++;
		double t = (double)(e - i), mid = (double)(i + e + 1) / 2;
		ties += t * t * t - t;
		for (size_t j = i; j < e; j++)
			rsum[r[j].k] += mid;
		i = e;
	}
	double dn = (double)n, tie_term = ties / (dn * (dn - 1));
	double n1 = 0, r1 = 0;
	*zbest = -1;
	for (size_t i = lo; i < hi; i++) {
		if (k[i].n && n1 > 0) {
			double n2 = dn - n1, u = r1 - n1 * (n1 + 1) / 2;
			double var = n1 * n2 / 12 * ((dn + 1) - tie_term);
			double z = var > 0 ? fabs(u - n1 * n2 / 2) / sqrt(var) : 0;
			if (var > 0 && z > *zbest) {
				*zbest = z;
				*at = i;
			}
		}
		n1 += (double)k[i].n;
		r1 += rsum[i - lo];
	}
	free(r);
	free(rsum);
	return 0;
}

/* The U test of the pooled runs left and right of at, into c. */
static int test_split(const struct cp_runs *k, size_t lo, size_t at, size_t hi, struct cp_cand *c)
{
	size_t nl, nr;
	double *l = pool(k, lo, at, &nl), *r = pool(k, at, hi, &nr);
	struct u_result u;
	int rc = l && r ? u_test(l, nl, r, nr, &u) : -1;
	free(l);
	free(r);
	if (rc < 0)
		return -1;
	c->p = u.p;
	c->p_min = u.p_min;
	return 0;
}

static int segment(const struct cp_runs *k, size_t lo, size_t hi, int parent, double alpha,
		   struct cp_cand *out, size_t *nout)
{
	size_t at;
	double z;
	if (best_split(k, lo, hi, &at, &z) < 0)
		return -1;
	if (!at)
		return 0;
	struct cp_cand c = { .lo = lo, .hi = hi, .at = at, .from = at - 1, .z = z,
			     .parent = parent, .q = 1, .accepted = false };
	while (c.from > lo && !k[c.from].n)
		c.from--;
	if (test_split(k, lo, at, hi, &c) < 0)
		return -1;
	if (!(c.p < alpha))
		return 0;
	int me = (int)*nout;
	out[(*nout)++] = c;
	if (segment(k, lo, at, me, alpha, out, nout) < 0)
		return -1;
	return segment(k, at, hi, me, alpha, out, nout);
}

int cp_binseg(const struct cp_runs *k, size_t nk, double alpha, struct cp_cand *out,
	      size_t *nout)
{
	*nout = 0;
	return nk < 2 ? 0 : segment(k, 0, nk, -1, alpha, out, nout);
}

int cp_best(const struct cp_runs *k, size_t lo, size_t hi, size_t *at, size_t *from)
{
	double z;
	if (best_split(k, lo, hi, at, &z) < 0)
		return -1;
	if (!*at)
		return 0;
	*from = *at - 1;
	while (*from > lo && !k[*from].n)
		(*from)--;
	return 1;
}

void cp_accept(struct cp_cand *c, size_t n, double alpha)
{
	for (size_t i = 0; i < n; i++)
		c[i].accepted = c[i].q < alpha && (c[i].parent < 0 || c[c[i].parent].accepted);
}

/* The interval of the shift right - left from the normal approximation of
 * U (see cp_size_of), or NANs when c < 1. */
static int shift_normal(const double *l, size_t nl, const double *r, size_t nr, double conf_pct,
			double *lo, double *hi)
{
	double mn = (double)nl * (double)nr;
	double z = gsl_cdf_ugaussian_Qinv((1 - conf_pct / 100) / 2);
	double c = floor(mn / 2 - z * sqrt(mn * ((double)(nl + nr) + 1) / 12));
	*lo = *hi = NAN;
	if (c < 1)
		return 0;
	size_t m = nl * nr;
	double *d = malloc(m * sizeof(double));
	if (!d)
		return -1;
	for (size_t i = 0; i < nl; i++)
		for (size_t j = 0; j < nr; j++)
			d[i * nr + j] = r[j] - l[i];
	qsort(d, m, sizeof(double), cmp_double);
	*lo = d[(size_t)c - 1];
	*hi = d[m - (size_t)c];
	free(d);
	return 0;
}

int cp_size_of(const struct cp_runs *k, size_t lo, size_t at, size_t hi, double conf_pct,
	       struct cp_size *out)
{
	size_t nl, nr;
	double *l = pool(k, lo, at, &nl), *r = pool(k, at, hi, &nr);
	int rc = -1;
	if (!l || !r || !nl || !nr)
		goto out;
	struct summary sl, sr;
	if (summary_of(l, nl, &sl) < 0 || summary_of(r, nr, &sr) < 0)
		goto out;
	out->left = sl.median;
	out->right = sr.median;
	out->nl = nl;
	out->nr = nr;
	out->change_pct = out->left != 0 ? 100 * (out->right - out->left) / fabs(out->left) : NAN;
	double shift, slo, shi;
	if (u_shift_ci(l, nl, r, nr, conf_pct, &shift, &slo, &shi) < 0 &&
	    shift_normal(l, nl, r, nr, conf_pct, &slo, &shi) < 0)
		goto out;
	out->lo_pct = out->left != 0 ? 100 * slo / fabs(out->left) : NAN;
	out->hi_pct = out->left != 0 ? 100 * shi / fabs(out->left) : NAN;
	rc = 0;
out:
	free(l);
	free(r);
	return rc;
}
