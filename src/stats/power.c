/* kbench - runs needed for a given change (see power.h)
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"
#include "stats/power.h"

#include <gsl/gsl_cdf.h>
#include <math.h>

size_t power_u_floor_runs(double alpha)
{
	double c = 2;     /* C(2n, n), from n = 1 */
	if (!(alpha > 0 && alpha < 1))
		return 0;
	for (size_t n = 1; n <= 200; n++) {
		if (2 / c < alpha)
			return n;
		c = c * (double)(2 * n + 1) * (double)(2 * n + 2) / ((double)(n + 1) * (double)(n + 1));
	}
	return 0;
}

size_t power_runs(double cov_pct, double detect_pct, double alpha, double power, bool utest)
{
	if (!(cov_pct >= 0) || !(detect_pct > 0) || !(alpha > 0 && alpha < 1) ||
	    !(power > 0 && power < 1))
		return 0;
	double z = gsl_cdf_ugaussian_Qinv(alpha / 2) + gsl_cdf_ugaussian_Pinv(power);
	double n = 2 * z * z * cov_pct * cov_pct / (detect_pct * detect_pct);
	if (utest)
		n /= 0.955;
	if (!(n < 1e15))
		return 0;
	size_t runs = (size_t)ceil(n), least = utest ? power_u_floor_runs(alpha) : 2;
	return runs > least ? runs : least;
}
