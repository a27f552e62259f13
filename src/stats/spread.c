/* kbench - the Brown-Forsythe test of spread (see spread.h)
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"
#include "stats/spread.h"
#include "stats/summary.h"

#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdlib.h>

/* |v - median(v)| into z; their mean and sum of squares about it. */
static int deviations(const double *v, size_t n, double *mean, double *ss)
{
	double *z = malloc(n * sizeof(double));
	if (!z)
		return -1;
	double med = summary_median(v, n), sum = 0;
	for (size_t i = 0; i < n; i++)
		sum += z[i] = fabs(v[i] - med);
	*mean = sum / (double)n;
	*ss = 0;
	for (size_t i = 0; i < n; i++)
		*ss += (z[i] - *mean) * (z[i] - *mean);
	free(z);
	return 0;
}

int spread_bf(const double *a, size_t na, const double *b, size_t nb, struct spread_test *out)
{
	double ma, sa, mb, sb;
	if (na < 2 || nb < 2 || deviations(a, na, &ma, &sa) < 0 || deviations(b, nb, &mb, &sb) < 0)
		return -1;
	out->mad_a = ma;
	out->mad_b = mb;
	double df = (double)(na + nb - 2);
	double s2 = (sa + sb) / df;
	double se2 = s2 * (1 / (double)na + 1 / (double)nb);
	if (!(se2 > 0)) {
		out->f = ma == mb ? 0 : INFINITY;
		out->p = ma == mb ? 1 : 0;
		return 0;
	}
	out->f = (mb - ma) * (mb - ma) / se2;
	out->p = gsl_cdf_fdist_Q(out->f, 1, df);
	return 0;
}
