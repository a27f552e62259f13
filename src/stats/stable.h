/* kbench - the rule that stops kbench suite --until-stable adding runs
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * kbench suite --until-stable PCT --max-runs N adds runs of a test after
 * its planned --runs until its median is known within PCT percent: the
 * half-width of the median's distribution-free confidence interval
 * (u_median_ci, utest.h: the interval kbench compare shows as
 * median_ci), (hi - lo) / 2, is at most PCT percent of the median, or
 * the test has N runs.  The interval exists only from a count of runs
 * on (6 at 95%: stable_min_runs), so a test with fewer never stops early.
 * The functions here are pure: figures in, counts out (src/suite/untilstable.c
 * applies them to a series).
 */
#ifndef KBENCH_STABLE_H
#define KBENCH_STABLE_H

#include <stdbool.h>
#include <stddef.h>

/* The confidence of the median's interval the rule uses: compare's
 * default, percent. */
#define STABLE_CONF 95.0

/* The half-width of the median's conf_pct interval of v[0..n-1] (finite
 * figures) as a percentage of the median's size, into *half_pct (0 when
 * the interval is one point; infinity when the median is 0 and the
 * interval is not).  Returns 0, or -1 (*half_pct untouched) when n is too
 * small for the interval, a figure is not finite or memory runs out. */
int stable_half_pct(const double *v, size_t n, double conf_pct, double *half_pct);

/* The fewest runs for which the median's conf_pct interval exists (6 at
 * 95%, 5 at 90%, 8 at 99%); 0 for a conf_pct out of (0, 100). */
size_t stable_min_runs(double conf_pct);

/* Does a test whose n figures are v[0..n-1], after `attempts` runs (a
 * failed run is an attempt without a figure), need another run?  Yes
 * while attempts < planned; no once attempts >= max_runs; between the
 * two, yes unless stable_half_pct at STABLE_CONF is at most pct. */
bool stable_more(const double *v, size_t n, unsigned attempts, unsigned planned, double pct,
		 unsigned max_runs);

/* The runs the rule makes of a test whose successive runs would give
 * v[0], v[1], ... (nv figures, none failing): the first count from
 * planned on at which stable_more says no.  *hit (may be NULL) is set
 * when it stopped at max_runs without the interval within pct.  Needs
 * nv >= max_runs; returns 0 when nv is smaller or planned > max_runs. */
unsigned stable_runs(const double *v, size_t nv, unsigned planned, double pct,
		     unsigned max_runs, bool *hit);

#endif
