/* kbench - two clusters in repeated figures: the widest-gap rule
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"
#include "stats/modes.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int by_value(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;
	return (a > b) - (a < b);
}

static double median_of(const double *s, size_t n)
{
	return n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

int modes_bimodal(const double *v, size_t n, struct modes *out)
{
	if (n < 2 * MODES_MIN_SIDE)
		return 0;
	double *s = malloc(n * sizeof(*s));
	if (!s)
		return -1;
	memcpy(s, v, n * sizeof(*s));
	for (size_t i = 0; i < n; i++)
		if (!isfinite(s[i])) {
			free(s);
			return -1;
		}
	qsort(s, n, sizeof(*s), by_value);
	size_t cut = 0;     /* the high side starts at cut */
	double gap = -1;
	for (size_t i = MODES_MIN_SIDE; i + MODES_MIN_SIDE <= n; i++)
		if (s[i] - s[i - 1] > gap) {
			gap = s[i] - s[i - 1];
			cut = i;
		}
	double range = fmax(s[cut - 1] - s[0], s[n - 1] - s[cut]);
	double low = median_of(s, cut), high = median_of(s + cut, n - cut);
	int rc = gap > MODES_GAP_RATIO * range && gap >= MODES_MIN_GAP_PCT / 100 * fabs(low) &&
		 gap > 0;
	if (rc)
		*out = (struct modes){ low, high, cut, n - cut, gap };
	free(s);
	return rc;
}
