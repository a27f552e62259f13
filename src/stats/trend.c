/* kbench - the trend test of a run's per-second throughput (unsteady)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Ordinary least squares of y against x = 0, 1, ..., n-1 and the t-test
 * of its slope (se = sqrt(SSE / (n - 2) / Sxx)), as any statistics text
 * gives them.
 */
#include "config.h"
#include "stats/trend.h"
#include "stats/ttest.h"

#include <math.h>
#include <stdlib.h>

int trend_test(const double *y, unsigned n, double conf, struct trend *out)
{
	if (n < TREND_MIN_POINTS || !(conf > 0 && conf < 100))
		return -1;
	double sx = 0, sy = 0;
	for (unsigned i = 0; i < n; i++) {
		if (!isfinite(y[i]))
			return -1;
		sx += i;
		sy += y[i];
	}
	double mx = sx / n, my = sy / n, sxx = 0, sxy = 0;
	if (!(my > 0))
		return -1;
	for (unsigned i = 0; i < n; i++) {
		sxx += (i - mx) * (i - mx);
		sxy += (i - mx) * (y[i] - my);
	}
	double b = sxy / sxx, sse = 0;
	for (unsigned i = 0; i < n; i++) {
		double e = y[i] - (my + b * (i - mx));
		sse += e * e;
	}
	double se = sqrt(sse / (n - 2) / sxx), t;
	if (se > 0)
		t = b / se;
	else
		t = b == 0 ? 0 : (b > 0 ? INFINITY : -INFINITY);
	double p = isinf(t) ? 0 : 2 * (1 - t_cdf(fabs(t), n - 2));
	out->n = n;
	out->mean = my;
	out->slope = b;
	out->slope_pct = 100 * b / my;
	out->change_pct = out->slope_pct * (n - 1);
	out->t = t;
	out->p = p;
	out->trending = p < 1 - conf / 100 && fabs(out->change_pct) >= TREND_MIN_CHANGE_PCT;
	return 0;
}

int trend_of_series(const json_t *series, double conf, struct trend *out)
{
	if (!series || json_is_null(series))
		return 0;
	const json_t *pts = json_object_get(series, "points");
	const json_t *iv = json_object_get(series, "interval_s");
	double interval = json_is_number(iv) ? json_number_value(iv) : 1;
	if (!json_is_array(pts) || !(interval > 0))
		return -1;
	size_t i, n = 0;
	const json_t *p;
	double *y = malloc((json_array_size(pts) + 1) * sizeof(*y));
	if (!y)
		return -1;
	json_array_foreach(pts, i, p) {
		const json_t *b = json_object_get(p, "bytes");
		if (!json_is_number(b)) {
			free(y);
			return -1;
		}
		if (!json_is_true(json_object_get(p, "warmup")))
			y[n++] = json_number_value(b) / interval;
	}
	int rc = trend_test(y, (unsigned)n, conf, out) == 0 ? 1 : 0;
	free(y);
	return rc;
}

json_t *trend_evidence(const struct trend *tr)
{
	return json_pack("{s:f, s:f, s:f, s:o, s:f, s:i}", "slope_Bps_per_s", tr->slope,
			 "slope_pct_per_s", tr->slope_pct, "change_pct", tr->change_pct,
			 "t", isfinite(tr->t) ? json_real(tr->t) : json_null(), "p", tr->p,
			 "points", (int)tr->n);
}
