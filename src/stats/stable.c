/* kbench - the rule that stops kbench suite --until-stable adding runs
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * stable.h says what it is; the interval is utest.c's, the median
 * summary.c's, so the rule and compare's median_ci agree.
 */
#include "config.h"
#include "stats/stable.h"
#include "stats/summary.h"
#include "stats/utest.h"

#include <math.h>

int stable_half_pct(const double *v, size_t n, double conf_pct, double *half_pct)
{
	double lo, hi;
	for (size_t i = 0; i < n; i++)
		if (!isfinite(v[i]))
			return -1;
	if (u_median_ci(v, n, conf_pct, &lo, &hi) < 0)
		return -1;
	double med = summary_median(v, n);
	if (isnan(med))
		return -1;
	double half = (hi - lo) / 2;
	if (half == 0)
		*half_pct = 0;
	else
		*half_pct = med == 0 ? INFINITY : 100 * half / fabs(med);
	return 0;
}

size_t stable_min_runs(double conf_pct)
{
	double v[64], lo, hi;
	if (!(conf_pct > 0 && conf_pct < 100))
		return 0;
	for (size_t n = 1; n <= sizeof(v) / sizeof(v[0]); n++) {
		v[n - 1] = (double)n;
		if (u_median_ci(v, n, conf_pct, &lo, &hi) == 0)
			return n;
	}
	return 0;
}

bool stable_more(const double *v, size_t n, unsigned attempts, unsigned planned, double pct,
		 unsigned max_runs)
{
	double half;
	if (attempts < planned)
		return true;
	if (attempts >= max_runs)
		return false;
	return !(stable_half_pct(v, n, STABLE_CONF, &half) == 0 && half <= pct);
}

unsigned stable_runs(const double *v, size_t nv, unsigned planned, double pct,
		     unsigned max_runs, bool *hit)
{
	double half;
	if (nv < max_runs || planned > max_runs)
		return 0;
	unsigned n = planned;
	while (stable_more(v, n, n, planned, pct, max_runs))
		n++;
	if (hit)
		*hit = n >= max_runs &&
		       !(stable_half_pct(v, n, STABLE_CONF, &half) == 0 && half <= pct);
	return n;
}
