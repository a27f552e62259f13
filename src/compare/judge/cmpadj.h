/* kbench - compare: the verdicts adjusted over the whole study (cmpadj.c)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Each row and file of a comparison gets its own test (the U test or
 * Welch's), and a study holds tens of them: at 95% each, about one in
 * twenty unchanged rows would read "better" or "worse".  cmp_adjust
 * adjusts every tested p of the comparison together (stats/adjust.h:
 * Benjamini-Hochberg by default, Holm, or none) and gives a row a
 * verdict only when its adjusted p is below 1 - confidence.
 */
#ifndef KBENCH_CMPADJ_H
#define KBENCH_CMPADJ_H

#include <stddef.h>

#include "compare/judge/cmplat.h"
#include "compare/judge/cmprow.h"

/* Adjust the verdicts of c->rows by c->adjust at c->conf.  The family is
 * every row and file k >= 1 whose test ran (test_v[k] not T_TOO_FEW,
 * refused rows included); their count goes to c->ntested and each one's
 * adjusted p to r->q[k] (NAN for the rest).  A better or worse whose
 * adjusted p is not below 1 - conf becomes "~" (T_SAME), in v[k] and
 * test_v[k] (a refusal stays in v[k]).  For the U test, a row not flagged
 * whose smallest possible p (u.p_min) would not pass either, were it its
 * p and the others' as they are, has no verdict at these run counts:
 * T_TOO_FEW with adj_floor[k], q_floor[k] that p's adjusted value, and
 * need[k] the fewest runs a side n (the same on both) whose smallest p,
 * 2 / C(2n, n), would pass in its place; need[k] is worked out the same
 * way for the rows whose own p_min is above 1 - conf (the family one
 * larger).  Call after cmp_caveats_fill on every row.  Returns 0, or -1
 * when memory runs out. */
int cmp_adjust(struct cmp *c);

/* The latency rows of --latency (cmplat.h) adjusted the same way, as a
 * family of their own (every op and file whose U test ran): each tested
 * side's q gets its adjusted p when more than one was tested and
 * c->adjust is not P_ADJ_NONE (else NAN), and a better or worse whose q
 * is not below 1 - c->conf becomes "~".  Returns 0, or -1 when memory
 * runs out. */
int cmp_adjust_latency(const struct cmp *c, struct cmplat *l);

/* The p-value row r, file k >= 1 was tested with (u.p or d.p); NAN when
 * its test did not run. */
double cmp_row_p(const struct cmp *c, const struct cmp_row *r, size_t k);

#endif
