/* kbench - two clusters in repeated figures (the bimodal caveat)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Some tests land in one of two states from run to run (a TCP bandwidth
 * of about 1000 or about 4400 MB/s, as the scheduler places the two
 * ends): one median with a wide interval then describes neither.  The
 * rule: sort the figures, cut at the widest gap between neighbours; the
 * figures are bimodal when each side holds at least MODES_MIN_SIDE of
 * them, the gap is more than MODES_GAP_RATIO times the wider side's
 * range, and at least MODES_MIN_GAP_PCT percent of the lower side's
 * median (a gap of noise between tight figures is not two states).
 */
#ifndef KBENCH_MODES_H
#define KBENCH_MODES_H

#include <stdbool.h>
#include <stddef.h>

#define MODES_MIN_SIDE 2
#define MODES_GAP_RATIO 3.0
#define MODES_MIN_GAP_PCT 5.0

struct modes {
	double low_center, high_center;   /* the median of each side */
	size_t low_n, high_n;             /* figures on each side */
	double gap;                       /* between the sides, the figures' unit */
};

/* Are v[0..n-1] (finite, any order; not changed) two clusters by the rule
 * above?  Returns 1 with out filled, 0 when not (or n < 2 x
 * MODES_MIN_SIDE), -1 when memory runs out or a figure is not finite. */
int modes_bimodal(const double *v, size_t n, struct modes *out);

#endif
