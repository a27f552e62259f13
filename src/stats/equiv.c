/* kbench - equivalence tests and the detectable change (see equiv.h)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * U's null distribution without ties is counted as the coefficients of
 * the Gaussian binomial [N choose n_a] in q (the number of arrangements
 * of n_a a's and n_b b's with U = u is the coefficient of q^u): the
 * product over i = 1..n_a of (1 - q^(n_b + i)) / (1 - q^i), each factor
 * a multiplication and an exact division of a polynomial.  Counts stay
 * whole numbers below C(40, 20) = 1.4e11, exact in a double.
 */
#include "config.h"
#include "stats/equiv.h"
#include "stats/utest.h"

#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* One-sided p that b's runs lie above (up) or below (!up) a's shifted by
 * `by`: from the two-sided U test, half its p on the side it leans to,
 * one less that on the other. */
static int one_sided(const double *a, size_t na, const double *b, size_t nb, double by, bool up,
		     double *p)
{
	double *s = malloc(na * sizeof(double));
	struct u_result u;
	if (!s)
		return -1;
	for (size_t i = 0; i < na; i++)
		s[i] = a[i] + by;
	int rc = u_test(s, na, b, nb, &u);
	free(s);
	if (rc < 0)
		return -1;
	bool lower = u.u < (double)na * (double)nb / 2;
	bool leans = up ? u.b_larger : lower;
	*p = leans ? u.p / 2 : 1 - u.p / 2;
	return 0;
}

int eq_tost_u(const double *a, size_t na, const double *b, size_t nb, double margin, double *p)
{
	double lo, hi;
	if (!na || !nb || !(margin >= 0))
		return -1;
	if (one_sided(a, na, b, nb, -margin, true, &lo) < 0 ||
	    one_sided(a, na, b, nb, margin, false, &hi) < 0)
		return -1;
	*p = fmax(lo, hi);
	return 0;
}

int eq_tost_welch(const struct summary *a, const struct summary *b, double margin, double *p)
{
	if (a->n < 2 || b->n < 2 || !(margin >= 0))
		return -1;
	double va = a->stddev * a->stddev / (double)a->n, vb = b->stddev * b->stddev / (double)b->n;
	double se = sqrt(va + vb), diff = b->mean - a->mean;
	if (se == 0) {
		*p = fabs(diff) < margin ? 0 : 1;
		return 0;
	}
	double df = (va + vb) * (va + vb) /
		    (va * va / (double)(a->n - 1) + vb * vb / (double)(b->n - 1));
	double p_lo = gsl_cdf_tdist_Q((diff + margin) / se, df);
	double p_hi = gsl_cdf_tdist_P((diff - margin) / se, df);
	*p = fmax(p_lo, p_hi);
	return 0;
}

/* The counts of U = 0 .. na nb without ties, into cnt (na nb + 1). */
static void u_counts(size_t na, size_t nb, double *cnt)
{
	size_t top = na * nb;
	memset(cnt, 0, (top + 1) * sizeof(double));
	cnt[0] = 1;
	for (size_t i = 1; i <= na; i++) {
		size_t up = nb + i;
		/* times (1 - q^up), from the top down */
		for (size_t u = top + 1; u-- > up;)
			cnt[u] -= cnt[u - up];
		/* divided by (1 - q^i): the running sum with stride i */
		for (size_t u = i; u <= top; u++)
			cnt[u] += cnt[u - i];
	}
}

size_t eq_u_rank(size_t na, size_t nb, double alpha)
{
	if (!na || !nb || !(alpha > 0 && alpha < 1))
		return 0;
	double mn = (double)na * (double)nb;
	if (na > U_EXACT_MAX || nb > U_EXACT_MAX) {
		double n = (double)(na + nb);
		double z = gsl_cdf_ugaussian_Qinv(alpha / 2);
		double c = floor(mn / 2 - z * sqrt(mn * (n + 1) / 12) + 0.5);
		return c >= 1 ? (size_t)c : 0;
	}
	double *cnt = malloc((na * nb + 1) * sizeof(double));
	if (!cnt)
		return 0;
	u_counts(na, nb, cnt);
	double total = 0, cum = 0;
	for (size_t u = 0; u <= na * nb; u++)
		total += cnt[u];
	size_t c = 0;
	/* P(U <= c - 1) <= alpha / 2: c grows while the tail below it stays small */
	for (size_t u = 0; u <= na * nb; u++) {
		cum += cnt[u];
		if (cum / total > alpha / 2)
			break;
		c = u + 1;
	}
	free(cnt);
	return c;
}

static int by_value(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;
	return (a > b) - (a < b);
}

double eq_detect_u(const double *a, size_t na, const double *b, size_t nb, double alpha)
{
	size_t c = eq_u_rank(na, nb, alpha), m = na * nb;
	if (!c || 2 * c > m)
		return NAN;
	double *d = malloc(m * sizeof(double));
	if (!d)
		return NAN;
	for (size_t i = 0; i < na; i++)
		for (size_t j = 0; j < nb; j++)
			d[i * nb + j] = b[j] - a[i];
	qsort(d, m, sizeof(double), by_value);
	double half = (d[m - c] - d[c - 1]) / 2;
	free(d);
	return half;
}

double eq_detect_welch(const struct summary *a, const struct summary *b, double alpha)
{
	if (a->n < 2 || b->n < 2 || !(alpha > 0 && alpha < 1))
		return NAN;
	double va = a->stddev * a->stddev / (double)a->n, vb = b->stddev * b->stddev / (double)b->n;
	double se = sqrt(va + vb);
	if (se == 0)
		return 0;
	double df = (va + vb) * (va + vb) /
		    (va * va / (double)(a->n - 1) + vb * vb / (double)(b->n - 1));
	return gsl_cdf_tdist_Qinv(alpha / 2, df) * se;
}
