/* kbench - Student's t: quantiles, confidence intervals of a mean, Welch's test
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The methods and their sources are in ttest.h.
 */
#include "config.h"
#include "stats/ttest.h"

#include <math.h>

#define CF_MAX_TERMS 10000
#define CF_EPS 1e-15
#define CF_TINY 1e-300

/* The continued fraction of A&S 26.5.8, 1 + d1/(1 + d2/(1 + ...)), by the
 * modified Lentz method. */
static double incbeta_cf(double x, double a, double b)
{
	double f = 1, c = 1, d = 0;
	for (int j = 1; j <= CF_MAX_TERMS; j++) {
		double m, num;
		if (j % 2) {
			m = (j - 1) / 2;
			num = -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1));
		} else {
			m = j / 2;
			num = m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m));
		}
		d = 1 + num * d;
		if (fabs(d) < CF_TINY)
			d = CF_TINY;
		c = 1 + num / c;
		if (fabs(c) < CF_TINY)
			c = CF_TINY;
		d = 1 / d;
		double delta = c * d;
		f *= delta;
		if (fabs(delta - 1) < CF_EPS)
			break;
	}
	return f;
}

double t_incbeta(double x, double a, double b)
{
	if (!(a > 0) || !(b > 0) || !(x >= 0) || !(x <= 1))
		return NAN;
	if (x == 0 || x == 1)
		return x;
	/* the fraction converges fast below (a+1)/(a+b+2); above, use
	 * I_x(a, b) = 1 - I_{1-x}(b, a) */
	if (x > (a + 1) / (a + b + 2))
		return 1 - t_incbeta(1 - x, b, a);
	double lfront = lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x);
	return exp(lfront) / a / incbeta_cf(x, a, b);
}

double t_cdf(double t, double df)
{
	if (!(df > 0) || isnan(t))
		return NAN;
	if (isinf(t))
		return t > 0 ? 1 : 0;
	double tail = 0.5 * t_incbeta(df / (df + t * t), df / 2, 0.5);
	return t >= 0 ? 1 - tail : tail;
}

double t_quantile(double p, double df)
{
	if (!(p > 0) || !(p < 1) || !(df > 0))
		return NAN;
	if (p == 0.5)
		return 0;
	if (p < 0.5)
		return -t_quantile(1 - p, df);
	double lo = 0, hi = 1;
	while (t_cdf(hi, df) < p) {
		lo = hi;
		hi *= 2;
		if (hi > 1e300)
			return INFINITY;
	}
	for (int i = 0; i < 400 && hi - lo > 1e-13 * hi; i++) {
		double mid = lo + (hi - lo) / 2;
		if (t_cdf(mid, df) < p)
			lo = mid;
		else
			hi = mid;
	}
	return lo + (hi - lo) / 2;
}

double t_critical(double conf_pct, double df)
{
	if (!(conf_pct > 0) || !(conf_pct < 100))
		return NAN;
	return t_quantile(1 - (1 - conf_pct / 100) / 2, df);
}

double t_mean_ci(const struct summary *s, double conf_pct)
{
	if (s->n < 2)
		return NAN;
	return t_critical(conf_pct, (double)(s->n - 1)) * s->stddev / sqrt((double)s->n);
}

/* Everything that follows from diff, se and df. */
static void finish(const struct summary *a, double conf_pct, struct t_diff *o)
{
	o->tcrit = t_critical(conf_pct, o->df);
	if (o->se > 0) {
		o->t = o->diff / o->se;
		o->p = 2 * t_cdf(-fabs(o->t), o->df);
	} else {
		o->t = o->diff == 0 ? 0 : copysign(INFINITY, o->diff);
		o->p = o->diff == 0 ? 1 : 0;
	}
	o->half = o->tcrit * o->se;
	o->proven = fabs(o->diff) > o->half;
	o->pct = a->mean != 0 ? 100 * o->diff / fabs(a->mean) : NAN;
	o->pct_half = a->mean != 0 ? 100 * o->half / fabs(a->mean) : NAN;
}

int t_welch(const struct summary *a, const struct summary *b, double conf_pct,
	    struct t_diff *out)
{
	if (a->n < 2 || b->n < 2 || !(conf_pct > 0) || !(conf_pct < 100))
		return -1;
	double qa = a->stddev * a->stddev / (double)a->n;
	double qb = b->stddev * b->stddev / (double)b->n;
	out->diff = b->mean - a->mean;
	out->se = sqrt(qa + qb);
	if (qa + qb > 0) {
		/* Welch-Satterthwaite with the shares of qa + qb: the squares of
		 * qa and qb themselves overflow for large figures */
		double wa = qa / (qa + qb), wb = qb / (qa + qb);
		out->df = 1 / (wa * wa / (double)(a->n - 1) + wb * wb / (double)(b->n - 1));
	} else
		out->df = (double)(a->n + b->n - 2);
	finish(a, conf_pct, out);
	return 0;
}

int t_pooled(const struct summary *a, const struct summary *b, double conf_pct,
	     struct t_diff *out)
{
	if (a->n < 2 || b->n < 2 || !(conf_pct > 0) || !(conf_pct < 100))
		return -1;
	double df = (double)(a->n + b->n - 2);
	double s2 = ((double)(a->n - 1) * a->stddev * a->stddev +
		     (double)(b->n - 1) * b->stddev * b->stddev) / df;
	out->diff = b->mean - a->mean;
	out->se = sqrt(s2 * (1.0 / (double)a->n + 1.0 / (double)b->n));
	out->df = df;
	finish(a, conf_pct, out);
	return 0;
}

enum t_verdict t_verdict_of(const struct summary *a, const struct summary *b,
			    double conf_pct, bool higher_is_better, struct t_diff *d)
{
	struct t_diff tmp;
	if (!d)
		d = &tmp;
	if (a->n < T_MIN_RUNS || b->n < T_MIN_RUNS || t_welch(a, b, conf_pct, d) < 0)
		return T_TOO_FEW;
	if (!d->proven)
		return T_SAME;
	return (d->diff > 0) == higher_is_better ? T_BETTER : T_WORSE;
}

const char *t_verdict_word(enum t_verdict v)
{
	switch (v) {
	case T_TOO_FEW: return "too few runs";
	case T_SAME: return "~";
	case T_BETTER: return "better";
	case T_WORSE: return "worse";
	case T_REFUSED: return "not comparable";
	}
	return "?";
}
