/* kbench - the Mann-Whitney U test (method and sources in utest.h)
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"
#include "stats/utest.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;
	return (a > b) - (a < b);
}

/* The null distribution of U for m a's and n b's without ties: dist[v] =
 * P(U = v), v = 0..m n (m n + 1 doubles, malloc'd; NULL when out of
 * memory).  The largest of i a's and j b's is a b (above all i a's: i
 * pairs) or an a (none): c(i, j, v) = c(i, j-1, v-i) + c(i-1, j, v), kept
 * in two rows of i (each row: j = 0..n, v = 0..m n). */
static double *null_dist(size_t m, size_t n)
{
	size_t width = m * n + 1;
	double *prev = calloc((n + 1) * width, sizeof(double));
	double *cur = calloc((n + 1) * width, sizeof(double));
	double *dist = malloc(width * sizeof(double));
	if (!prev || !cur || !dist) {
		free(prev);
		free(cur);
		free(dist);
		return NULL;
	}
	/* i = 0: one arrangement, U = 0, for every j */
	for (size_t j = 0; j <= n; j++)
		prev[j * width] = 1;
	for (size_t i = 1; i <= m; i++) {
		memset(cur, 0, (n + 1) * width * sizeof(double));
		cur[0] = 1;   /* j = 0: U = 0 */
		for (size_t j = 1; j <= n; j++)
			for (size_t v = 0; v <= i * j; v++) {
				double c = prev[j * width + v];   /* the largest is an a */
				if (v >= i)
					c += cur[(j - 1) * width + v - i];   /* it is a b */
				cur[j * width + v] = c;
			}
		double *t = prev;
		prev = cur;
		cur = t;
	}
	double total = 0;
	for (size_t v = 0; v < width; v++)
		total += prev[n * width + v];
	for (size_t v = 0; v < width; v++)
		dist[v] = prev[n * width + v] / total;
	free(prev);
	free(cur);
	return dist;
}

/* P(U' <= u) and P(U' >= u) without ties.  Returns -1 when out of memory. */
static int exact_tails(size_t m, size_t n, double u, double *lo, double *hi)
{
	double *dist = null_dist(m, n);
	if (!dist)
		return -1;
	double below = 0, above = 0;
	for (size_t v = 0; v <= m * n; v++) {
		if ((double)v <= u + 1e-9)
			below += dist[v];
		if ((double)v >= u - 1e-9)
			above += dist[v];
	}
	*lo = below;
	*hi = above;
	free(dist);
	return 0;
}

/* The exact two-sided p with ties: every choice of nb of the N pooled
 * runs as b's is equally likely under "no difference", and U is b's sum
 * of midranks less nb (nb + 1) / 2.  Doubled midranks are whole numbers
 * (a group of t equal values from sorted place i, counted from 0, has
 * 2i + t + 1), so cnt[j][s], the choices of j runs summing to s, counts
 * them all in N nb N (N + 1) steps.  sorted[0..N-1] is the pooled runs in
 * order; u is b's U.  Returns -1 when out of memory. */
static int exact_tied(const double *sorted, size_t na, size_t nb, double u, double *p)
{
	size_t n = na + nb, top = n * (n + 1), width = top + 1;
	double *cnt = calloc((nb + 1) * width, sizeof(double));
	if (!cnt)
		return -1;
	cnt[0] = 1;
	for (size_t i = 0; i < n;) {
		size_t k = i;
		while (k < n && sorted[k] == sorted[i])
			k++;
		size_t r2 = 2 * i + (k - i) + 1;   /* the group's doubled midrank */
		for (size_t m = i; m < k; m++)
			for (size_t j = nb; j >= 1; j--)
				for (size_t s = top; s >= r2; s--)
					cnt[j * width + s] += cnt[(j - 1) * width + s - r2];
		i = k;
	}
	/* b's doubled rank sum is 2 U + nb (nb + 1) */
	double obs = 2 * u + (double)(nb * (nb + 1)), total = 0, lo = 0, hi = 0;
	for (size_t s = 0; s <= top; s++) {
		double c = cnt[nb * width + s];
		total += c;
		if ((double)s <= obs + 1e-9)
			lo += c;
		if ((double)s >= obs - 1e-9)
			hi += c;
	}
	free(cnt);
	*p = fmin(1, 2 * fmin(lo, hi) / total);
	return 0;
}

int u_test(const double *a, size_t na, const double *b, size_t nb, struct u_result *out)
{
	if (!na || !nb)
		return -1;
	size_t n = na + nb;
	double *all = malloc(n * sizeof(double));
	if (!all)
		return -1;
	memcpy(all, a, na * sizeof(double));
	memcpy(all + na, b, nb * sizeof(double));
	qsort(all, n, sizeof(double), cmp_double);
	double ties = 0;
	for (size_t i = 0; i < n;) {
		size_t k = i;
		while (k < n && all[k] == all[i])
			k++;
		double t = (double)(k - i);
		ties += t * t * t - t;
		i = k;
	}
	double u = 0;
	for (size_t i = 0; i < na; i++)
		for (size_t j = 0; j < nb; j++)
			u += b[j] > a[i] ? 1 : b[j] == a[i] ? 0.5 : 0;
	double mn = (double)na * (double)nb, mu = mn / 2;
	memset(out, 0, sizeof(*out));
	out->u = u;
	out->b_larger = u > mu;
	/* 2 / C(N, na), by a product that stays in range */
	double c = 1;
	for (size_t i = 1; i <= na; i++)
		c = c * (double)(nb + i) / (double)i;
	out->p_min = fmin(1, 2 / c);
	if (na <= U_EXACT_MAX && nb <= U_EXACT_MAX) {
		double lo, hi;
		int rc = ties == 0 ? exact_tails(na, nb, u, &lo, &hi) :
			exact_tied(all, na, nb, u, &out->p);
		free(all);
		if (rc < 0)
			return -1;
		out->exact = true;
		if (ties == 0)
			out->p = fmin(1, 2 * fmin(lo, hi));
		return 0;
	}
	free(all);
	double var = mn / 12 * (((double)n + 1) - ties / ((double)n * ((double)n - 1)));
	if (!(var > 0)) {
		out->p = 1;   /* every value the same */
		return 0;
	}
	double z = (fabs(u - mu) - 0.5) / sqrt(var);
	out->p = z <= 0 ? 1 : fmin(1, erfc(z / sqrt(2)));
	return 0;
}

int u_median_ci(const double *v, size_t n, double conf_pct, double *lo, double *hi)
{
	double half_alpha = (1 - conf_pct / 100) / 2, p = pow(0.5, (double)n), cum = 0;
	size_t k = 0;
	/* P(B = j) = C(n, j) / 2^n, by the ratio C(n, j+1) = C(n, j) (n-j) / (j+1) */
	for (size_t j = 0; j < n / 2; j++) {
		cum += p;
		if (cum > half_alpha)
			break;
		k = j + 1;
		p = p * (double)(n - j) / (double)(j + 1);
	}
	if (!k)
		return -1;
	double *s = malloc(n * sizeof(double));
	if (!s)
		return -1;
	memcpy(s, v, n * sizeof(double));
	qsort(s, n, sizeof(double), cmp_double);
	*lo = s[k - 1];
	*hi = s[n - k];
	free(s);
	return 0;
}

int u_shift_ci(const double *a, size_t na, const double *b, size_t nb, double conf_pct,
	       double *shift, double *lo, double *hi)
{
	if (!na || !nb || na > U_EXACT_MAX || nb > U_EXACT_MAX)
		return -1;
	size_t mn = na * nb;
	double *d = malloc(mn * sizeof(double));
	if (!d)
		return -1;
	for (size_t i = 0; i < na; i++)
		for (size_t j = 0; j < nb; j++)
			d[i * nb + j] = b[j] - a[i];
	qsort(d, mn, sizeof(double), cmp_double);
	/* ties among the runs: no exact distribution, no interval */
	double *all = malloc((na + nb) * sizeof(double));
	int tied = !all;
	if (all) {
		memcpy(all, a, na * sizeof(double));
		memcpy(all + na, b, nb * sizeof(double));
		qsort(all, na + nb, sizeof(double), cmp_double);
		for (size_t i = 1; i < na + nb; i++)
			tied |= all[i] == all[i - 1];
		free(all);
	}
	double *dist = tied ? NULL : null_dist(na, nb);
	if (!dist) {
		free(d);
		return -1;
	}
	double half_alpha = (1 - conf_pct / 100) / 2, cum = 0;
	size_t c = 0;
	for (size_t v = 0; v < mn / 2; v++) {
		cum += dist[v];
		if (cum > half_alpha + 1e-12)
			break;
		c = v + 1;
	}
	free(dist);
	*shift = mn % 2 ? d[mn / 2] : (d[mn / 2 - 1] + d[mn / 2]) / 2;
	int rc = -1;
	if (c) {
		*lo = d[c - 1];
		*hi = d[mn - c];
		rc = 0;
	}
	free(d);
	return rc;
}

size_t u_runs_needed(double conf_pct)
{
	if (!(conf_pct > 0 && conf_pct < 100))
		return 0;
	double alpha = 1 - conf_pct / 100, c = 2;     /* C(2n, n), from n = 1 */
	for (size_t n = 1;; n++) {
		if (2 / c < alpha)
			return n;
		c = c * (2 * n + 1) * (2 * n + 2) / ((double)(n + 1) * (n + 1));
	}
}
