/* kbench - how many runs a test needs to see a change of a given size
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Runs are planned, not guessed: from a test's coefficient of variation
 * (its runs' standard deviation over their mean, in percent) the runs a
 * side n that detect a change of d percent with power 1 - beta in a
 * two-sided test at alpha are, for the t-test, the usual
 *   n = 2 (z(1 - alpha/2) + z(1 - beta))^2 cov^2 / d^2
 * (normal approximation), and for the Mann-Whitney U test about 1/0.955
 * of it (its asymptotic relative efficiency against the t-test on normal
 * figures, 3/pi; G. E. Noether, "Sample size determination for some
 * common nonparametric tests", JASA 82, 1987, gives the U test's own
 * formula, which agrees with this for a normal shift).  The U test also
 * cannot go below p = 2 / C(2n, n): n is at least the fewest runs whose
 * floor is below alpha.  In a study of m tests adjusted by
 * Benjamini-Hochberg, a single changed row passes when its p is below
 * q / m: that is the alpha to plan for.  Quantiles are GSL's.
 */
#ifndef KBENCH_POWER_H
#define KBENCH_POWER_H

#include <stdbool.h>
#include <stddef.h>

/* The fewest runs a side n (the same on both) whose U-test floor
 * 2 / C(2n, n) is below alpha (0 < alpha < 1): 4 at 0.05, 7 at 0.05/68.
 * Returns 0 for alpha outside (0, 1) or when more than 200 would do. */
size_t power_u_floor_runs(double alpha);

/* The runs a side to detect a change of detect_pct percent in a test of
 * coefficient of variation cov_pct (both > 0), two-sided at alpha, with
 * power `power` (e.g. 0.8): the formula above rounded up, for the U test
 * (utest) divided by 0.955 and at least power_u_floor_runs(alpha), for
 * the t-test at least 2.  Returns 0 for arguments out of range or a
 * need of 10^15 runs or more. */
size_t power_runs(double cov_pct, double detect_pct, double alpha, double power, bool utest);

#endif
