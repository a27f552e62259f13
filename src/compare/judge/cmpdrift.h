/* kbench - compare --control: drift of the machine between the series (cmpdrift.c)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Error control across rows does not catch a machine that drifted
 * between the series: a warmer room, another page-cache state, a daemon
 * that woke up move many rows one way, and every such row reads as a
 * change of B.  A control catches it: the baseline run again after the
 * others (A, B, A').  A change of B is kept only when B differs from A'
 * the same way as from A; otherwise A and A' differ by as much, and the
 * row gets no verdict but the caveat "drift" (unsound, result/caveat.h).
 */
#ifndef KBENCH_CMPDRIFT_H
#define KBENCH_CMPDRIFT_H

#include "compare/judge/cmprow.h"

/* With a control (c->control, A'; NULL: nothing done), after cmp_adjust:
 * every row and file k >= 1 whose verdict is better or worse is tested
 * again, B's runs against A''s (the U test, the test of A' matching the
 * row by cmp_find_test), and those p-values adjusted by c->adjust as a
 * family of c->ntested (the untested counted at p = 1).  A row whose
 * adjusted p against A' is not below 1 - c->conf, or whose direction
 * differs, or that A' lacks, gets the caveat "drift" in r->cav[k] with
 * evidence {"control": A''s path, "change_pct": B against A' in percent
 * (null: none), "p", "p_adjusted", "control_change_pct": A' against A}
 * and verdict T_REFUSED ("drift", in k); test_v stays.  Returns 0, or -1
 * when memory runs out. */
int cmp_drift_check(struct cmp *c);

#endif
