/* kbench - summaries of repeated measurements (min, median, max, CoV)
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"
#include "stats/summary.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

double summary_mean(const double *v, size_t n)
{
	if (n == 0)
		return NAN;
	double sum = 0;
	for (size_t i = 0; i < n; i++)
		sum += v[i];
	return sum / (double)n;
}

double summary_stddev(const double *v, size_t n)
{
	if (n < 2)
		return NAN;
	double mean = summary_mean(v, n), ss = 0;
	for (size_t i = 0; i < n; i++)
		ss += (v[i] - mean) * (v[i] - mean);
	return sqrt(ss / (double)(n - 1));
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

double summary_median(const double *v, size_t n)
{
	if (n == 0)
		return NAN;
	double *s = malloc(n * sizeof(*s));
	if (!s)
		return NAN;
	memcpy(s, v, n * sizeof(*s));
	qsort(s, n, sizeof(*s), cmp_double);
	double m = n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
	free(s);
	return m;
}

int summary_of(const double *v, size_t n, struct summary *out)
{
	if (n == 0)
		return -1;
	out->n = n;
	out->min = out->max = v[0];
	for (size_t i = 0; i < n; i++) {
		if (!isfinite(v[i]))
			return -1;
		if (v[i] < out->min)
			out->min = v[i];
		if (v[i] > out->max)
			out->max = v[i];
	}
	out->mean = summary_mean(v, n);
	out->median = summary_median(v, n);
	if (isnan(out->median))
		return -1;
	out->stddev = summary_stddev(v, n);
	out->cov_pct = n >= 2 && out->mean != 0 ? 100 * out->stddev / fabs(out->mean) : NAN;
	return 0;
}
