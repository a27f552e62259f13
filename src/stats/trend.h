/* kbench - is a run's throughput still trending? (the unsteady caveat)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A load run records its per-second figures (results.series: bytes and
 * ops of each second, the warm-up's seconds marked).  When the figures of
 * the measured seconds still rise or fall, the warm-up was too short for
 * the run to settle and its mean is a point on a slope, not a steady
 * state.  The test: the least-squares line through the measured seconds'
 * throughput (bytes per second against the second), its slope's t
 * statistic with n - 2 degrees of freedom; a run is trending when the
 * slope is significant at the chosen confidence (two-sided) AND the
 * change it makes across the window is at least TREND_MIN_CHANGE_PCT of
 * the mean (a slope too small to matter is not reported, however sure).
 */
#ifndef KBENCH_TREND_H
#define KBENCH_TREND_H

#include <jansson.h>
#include <stdbool.h>

#define TREND_MIN_POINTS 5          /* fewer measured seconds: no test */
#define TREND_MIN_CHANGE_PCT 5.0    /* slope x (n - 1) against the mean, percent */

struct trend {
	unsigned n;          /* points (seconds) fitted */
	double mean;         /* their mean, the figure's unit a second */
	double slope;        /* change a second, the figure's unit a second */
	double slope_pct;    /* 100 slope / mean: percent of the mean a second */
	double change_pct;   /* slope_pct x (n - 1): across the window */
	double t;            /* slope / its standard error (INFINITY on a
			      * perfect line with a slope) */
	double p;            /* two-sided p of t with n - 2 degrees of freedom */
	bool trending;       /* p < 1 - conf/100 and |change_pct| >=
			      * TREND_MIN_CHANGE_PCT */
};

/* The trend of y[0..n-1], figures one second apart, at confidence conf
 * (percent, 0 < conf < 100).  Returns 0 with out filled, or -1 when n is
 * below TREND_MIN_POINTS, a figure is not finite, the mean is not
 * positive, or conf is out of range (out untouched). */
int trend_test(const double *y, unsigned n, double conf, struct trend *out);

/* The trend of a load document's results.series ({"interval_s": 1,
 * "points": [{"t": 1, "warmup": true, "bytes": N, ...}, ...]}): the
 * "bytes" of the points not marked warm-up, divided by interval_s.
 * Returns 1 with out filled, 0 when series is absent or gives too few
 * points (no test), -1 when it is malformed (points not an array, a
 * point's bytes not a number, interval_s not above 0). */
int trend_of_series(const json_t *series, double conf, struct trend *out);

/* out as {"slope_Bps_per_s", "slope_pct_per_s", "change_pct", "t", "p",
 * "points"}, the evidence of the unsteady caveat.  A new reference, NULL
 * when out of memory. */
json_t *trend_evidence(const struct trend *tr);

#endif
