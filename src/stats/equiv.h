/* kbench - equivalence: proving "the same within +-d", and what runs could have seen
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A test of difference (utest.h, ttest.h) that finds none has not shown
 * that there is none: its runs may simply be too few or too noisy.  To
 * say "the same" the claim is turned round, as in bioequivalence:
 *
 * - Two one-sided tests (D. J. Schuirmann, "A comparison of the two
 *   one-sided tests procedure and the power approach for assessing the
 *   equivalence of average bioavailability", J. Pharmacokin. Biopharm.
 *   15, 1987): the change lies within +-d when both "change > -d" and
 *   "change < +d" are proven; the p-value of the pair is the larger of
 *   the two one-sided p-values.  It is the same as the (1 - 2 alpha)
 *   interval of the change lying inside +-d.  On means with Welch's
 *   standard error and degrees of freedom (Welch's t-test's family), or
 *   on the runs with the Mann-Whitney U test (the U test's family: each
 *   one-sided test is a U test of b's runs against a's shifted by -+d,
 *   S. Wellek, Testing Statistical Hypotheses of Equivalence and
 *   Noninferiority, 2nd ed. 2010, ch. 6).
 * - The smallest change the runs could have proven at a threshold alpha:
 *   the half-width of the interval of the difference at confidence
 *   1 - alpha (a shift that large, runs spread as these are, is just
 *   proven).  For the U test, the distribution-free interval of the
 *   Hodges-Lehmann shift (D. F. Bauer, "Constructing confidence sets
 *   using rank statistics", JASA 67, 1972): the sorted n_a n_b
 *   differences ranked c and n_a n_b + 1 - c, c the largest whole number
 *   with P(U <= c - 1) <= alpha / 2 (exact up to U_EXACT_MAX runs a
 *   side, ties or not; the normal approximation above); for Welch's
 *   test, t(1 - alpha/2, df) times the standard error.
 *
 * Distribution functions and quantiles are GSL's.  Figures are in any
 * one unit; margins and half-widths are in that unit.
 */
#ifndef KBENCH_EQUIV_H
#define KBENCH_EQUIV_H

#include <stddef.h>

#include "stats/summary.h"

/* Two one-sided U tests that b's runs lie within +-margin (margin >= 0,
 * the figures' unit) of a's: the larger one-sided p of "b - margin is
 * stochastically below a" and "b + margin is above it", each from
 * u_test (exact to U_EXACT_MAX runs a side).  Returns 0 with *p in
 * [0, 1], -1 when a set is empty or memory runs out. */
int eq_tost_u(const double *a, size_t na, const double *b, size_t nb, double margin,
	      double *p);

/* Schuirmann's two one-sided t-tests of mean(b) - mean(a) within
 * +-margin, with Welch's standard error and degrees of freedom: p =
 * max(Q_t((diff + margin) / se), P_t((diff - margin) / se)).  Both sets
 * need 2 figures; with se 0 the p is 0 when |diff| < margin, else 1.
 * Returns 0 with *p, or -1 for fewer figures. */
int eq_tost_welch(const struct summary *a, const struct summary *b, double margin, double *p);

/* The half-width of the Hodges-Lehmann shift's interval (Bauer 1972) at
 * confidence 1 - alpha (0 < alpha < 1), in the figures' unit: the
 * smallest shift of b's runs the U test could prove at alpha.  NAN when
 * these run counts allow no interval (the U test's smallest p, 2 /
 * C(N, n_a), is not below alpha) or memory runs out. */
double eq_detect_u(const double *a, size_t na, const double *b, size_t nb, double alpha);

/* t(1 - alpha/2, df) times Welch's standard error of the difference of
 * the means, in the figures' unit; NAN with fewer than 2 figures a side
 * or alpha outside (0, 1). */
double eq_detect_welch(const struct summary *a, const struct summary *b, double alpha);

/* The whole number c of eq_detect_u: the largest with P(U <= c - 1) <=
 * alpha / 2 under "no difference", from U's exact null distribution up
 * to U_EXACT_MAX runs a side, else its normal approximation; 0 when
 * none (too few runs).  Exposed for the unit tests. */
size_t eq_u_rank(size_t na, size_t nb, double alpha);

#endif
