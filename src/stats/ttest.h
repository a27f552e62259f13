/* kbench - Student's t: quantiles, confidence intervals of a mean, Welch's test
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * kbench compare asks of two sets of repeated figures (MB/sec of five runs
 * on kernel A, five on kernel B) whether their means differ by more than
 * the run-to-run noise explains.  The answer is Welch's t-test (B. L.
 * Welch, "The generalization of Student's problem when several different
 * population variances are involved", Biometrika 34, 1947), which does not
 * assume both sets have the same spread, with the Welch-Satterthwaite
 * degrees of freedom.  Student's pooled-variance test is here too: it is
 * what ministat(1) prints, and the unit tests check both.
 *
 * The t distribution is computed here, not taken from a library:
 *   - its CDF from the regularized incomplete beta function,
 *     P(T <= t) = 1 - I_x(df/2, 1/2) / 2 for t >= 0 with x = df/(df+t^2)
 *     (Abramowitz & Stegun 26.7.1 and 26.5.2);
 *   - I_x(a, b) by its continued fraction (A&S 26.5.8), evaluated with the
 *     modified Lentz method (W. J. Lentz 1976; Thompson & Barnett 1986),
 *     on the side of x where it converges fast (A&S 26.5.2 symmetry);
 *   - the quantile by inverting the CDF: bisection, which cannot diverge,
 *     to a relative width of 1e-13.
 * Accuracy: about 1e-10 absolute in the CDF for df >= 1; the quantiles
 * match published t tables to their last printed digit.
 *
 * All functions are unit-free: intervals are in the unit of the figures.
 * "Confidence" is two-sided, in percent (90, 95, 99).
 */
#ifndef KBENCH_TTEST_H
#define KBENCH_TTEST_H

#include <stdbool.h>
#include <stddef.h>

#include "stats/summary.h"

/* Regularized incomplete beta function I_x(a, b) for a > 0, b > 0,
 * 0 <= x <= 1 (continued fraction, modified Lentz).  Returns NAN for
 * arguments outside those ranges. */
double t_incbeta(double x, double a, double b);

/* P(T <= t) for Student's t with df > 0 degrees of freedom (df need not be
 * a whole number: Welch's df is not).  Returns NAN if df <= 0 or t is NAN. */
double t_cdf(double t, double df);

/* The quantile: the t with P(T <= t) = p, for 0 < p < 1 and df > 0, e.g.
 * t_quantile(0.975, 4) = 2.776 (the two-sided 95% critical value for five
 * figures).  Returns NAN outside those ranges. */
double t_quantile(double p, double df);

/* The two-sided critical value for confidence conf_pct (0 < conf_pct <
 * 100): t_quantile(1 - (1 - conf_pct/100) / 2, df). */
double t_critical(double conf_pct, double df);

/* Half-width of the confidence interval of the mean of s (Student t with
 * n-1 degrees of freedom: t * stddev / sqrt(n)), in the unit of the
 * figures; the interval is mean +- the result.  Returns NAN if s->n < 2. */
double t_mean_ci(const struct summary *s, double conf_pct);

/* A comparison of the means of two sets, b against a. */
struct t_diff {
	double diff;     /* mean(b) - mean(a), in the unit of the figures */
	double se;       /* standard error of diff */
	double t;        /* diff / se (infinite when se is 0 and diff is not) */
	double df;       /* degrees of freedom: Welch-Satterthwaite, or na+nb-2 pooled */
	double tcrit;    /* two-sided critical value at the chosen confidence */
	double half;     /* half-width of the interval of diff: tcrit * se */
	double p;        /* two-sided p-value, P(|T| >= |t|) */
	double pct;      /* 100 * diff / mean(a): the change in percent (NAN if mean(a) is 0) */
	double pct_half; /* 100 * half / mean(a): the interval of the change, in percent */
	bool proven;     /* the interval diff +- half leaves out 0 */
};

/* Welch's t-test of b against a at confidence conf_pct: se =
 * sqrt(va/na + vb/nb), df = (va/na + vb/nb)^2 / ((va/na)^2/(na-1) +
 * (vb/nb)^2/(nb-1)) (Welch-Satterthwaite).  When both variances are 0 the
 * difference is proven exactly when the means differ (df = na+nb-2).
 * Returns 0, or -1 if a set has fewer than 2 figures or conf_pct is not in
 * (0, 100). */
int t_welch(const struct summary *a, const struct summary *b, double conf_pct,
	    struct t_diff *out);

/* Student's two-sample t-test with pooled variance, as ministat(1) prints
 * it ("Difference at 95.0% confidence: diff +/- half, pooled s"):
 * s^2 = ((na-1) va + (nb-1) vb) / (na+nb-2), se = s sqrt(1/na + 1/nb),
 * df = na+nb-2.  Same returns as t_welch. */
int t_pooled(const struct summary *a, const struct summary *b, double conf_pct,
	     struct t_diff *out);

enum t_verdict {
	T_TOO_FEW,       /* fewer than T_MIN_RUNS figures on a side: no verdict */
	T_SAME,          /* no difference proven at the chosen confidence ("~") */
	T_BETTER,        /* b proven better than a */
	T_WORSE,         /* b proven worse than a */
	T_REFUSED,       /* not comparable: a caveat of the runs makes any verdict
			  * unsound (set by kbench compare, never by a test) */
};

#define T_MIN_RUNS 3     /* fewest figures on each side for a verdict */

/* The verdict on b against a at conf_pct, from Welch's test, knowing which
 * way is better (higher_is_better: MB/sec, lps; else latencies).  Fills d
 * (when not NULL) for T_SAME, T_BETTER and T_WORSE.  Returns T_TOO_FEW when
 * a->n or b->n is below T_MIN_RUNS. */
enum t_verdict t_verdict_of(const struct summary *a, const struct summary *b,
			    double conf_pct, bool higher_is_better, struct t_diff *d);

/* "too few runs", "~", "better", "worse", "not comparable". */
const char *t_verdict_word(enum t_verdict v);

#endif
