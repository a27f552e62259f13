/* kbench - summaries of repeated measurements (min, median, max, CoV)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A benchmark run N times gives N figures (MB/sec, seconds, ...); these
 * functions reduce them to what a report prints: the smallest, the median,
 * the largest, the mean, the sample standard deviation and the coefficient
 * of variation.  They are unit-free: the results are in the unit of the
 * input.  Inputs are never modified.  Confidence intervals and the
 * comparison of two sets (Welch's t-test) are in ttest.h.
 */
#ifndef KBENCH_SUMMARY_H
#define KBENCH_SUMMARY_H

#include <stddef.h>

struct summary {
	size_t n;        /* number of values */
	double min;      /* smallest value */
	double max;      /* largest value */
	double mean;     /* arithmetic mean */
	double median;   /* middle value; mean of the two middle ones if n is even */
	double stddev;   /* sample standard deviation (divides by n-1); NAN if n < 2 */
	double cov_pct;  /* coefficient of variation: 100 * stddev / mean, in
			  * percent; NAN if n < 2 or the mean is 0 */
};

/* Arithmetic mean of v[0..n-1].  Returns NAN if n is 0. */
double summary_mean(const double *v, size_t n);

/* Sample standard deviation of v[0..n-1] (the sum of squared deviations
 * from the mean divided by n-1, square-rooted; two passes, so large
 * values with small spread keep their precision).  Returns NAN if n < 2. */
double summary_stddev(const double *v, size_t n);

/* Median of v[0..n-1]: the middle value of the sorted values, or the mean
 * of the two middle ones when n is even.  v is not changed (a sorted copy
 * is made).  Returns NAN if n is 0 or the copy cannot be allocated. */
double summary_median(const double *v, size_t n);

/* Fill out with every figure of struct summary for v[0..n-1].
 * Returns 0; -1 if n is 0, a value is not finite (NAN, infinity) or
 * memory runs out, leaving out unspecified. */
int summary_of(const double *v, size_t n, struct summary *out);

#endif
