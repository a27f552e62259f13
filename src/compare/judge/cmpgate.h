/* kbench - compare --fail-on: the comparison as a pass or fail for CI and git bisect (cmpgate.c)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A CI job or `git bisect run` wants one call that says "worse or not":
 * `kbench compare --fail-on worse base.json new.json`.  The gate reads
 * the verdicts as cmp_adjust (cmpadj.h) left them, so it trips on what
 * survives the study's error control, never on a row's own p alone.
 */
#ifndef KBENCH_CMPGATE_H
#define KBENCH_CMPGATE_H

#include <stdio.h>

#include "compare/judge/cmprow.h"

#define CMP_EXIT_GATE 4   /* --fail-on: a row's verdict tripped the gate */

enum cmp_fail_on {
	CMP_FAIL_NEVER,       /* no --fail-on */
	CMP_FAIL_WORSE,       /* a row proven worse */
	CMP_FAIL_CHANGE,      /* a row proven better or worse */
	CMP_FAIL_NOT_SAME,    /* a row not proven the same (cmpsame.h) */
};

/* --fail-on's word ("worse", "change", "not-same") into *on: 0, or -1 for another. */
int cmp_fail_on_parse(const char *word, enum cmp_fail_on *on);

/* The gate over c's rows (file k >= 1 against A): a row trips it when
 * its verdict v[k] is T_WORSE (CMP_FAIL_WORSE) or T_WORSE or T_BETTER
 * (CMP_FAIL_CHANGE), or anything but "same" (CMP_FAIL_NOT_SAME: better,
 * worse, not proven or too few runs; min_change_pct then applies to the
 * proven changes alone) and the size of its change, |change[k]| in percent,
 * is at least min_change_pct (0: any; a change that has no percentage,
 * against a figure of 0, counts as large).  Rows not comparable
 * (T_REFUSED) never trip it and never pass it: they are counted, as are
 * the rows with too few runs to judge.  Prints to out one line per row
 * that trips it, then one line of the outcome ("gate: failed: ..." or
 * "gate: passed: ..." with the counts).  Returns CMP_EXIT_GATE when a
 * row tripped it, else 3 (CMP_EXIT_NOT_COMPARABLE, cmpcav.h) when a row
 * was not comparable, else 0; CMP_FAIL_NEVER prints nothing and returns
 * 3 or 0 the same way. */
int cmp_gate(FILE *out, const struct cmp *c, enum cmp_fail_on on, double min_change_pct);

#endif
