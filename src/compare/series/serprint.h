/* kbench - compare --series: its forms, its gate and the ranges to bisect (serprint.c)
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#ifndef KBENCH_SERPRINT_H
#define KBENCH_SERPRINT_H

#include <stdio.h>

#include "compare/series/sertypes.h"

/* The table in the seed reports' layout: a header naming each kernel
 * (file and label), then one row a test with each kernel's median in a
 * column of its own, " | " between the two columns of a step (a kept-out
 * point's median in parentheses, a control's column marked '), then the
 * steps as ser_print_lkml's lines and each one's bisect line, the tests
 * without a step, the kept-out points, controls and one-run notes. */
void ser_print_table(FILE *out, const struct series *s);

/* One line a step, largest first: "TEST: -18.2% between K1 and K2
 * (q=0.004)" with the interval, then "no step in N tests" or, with no
 * step at all, "no step: N tests over K kernels".  Tests whose points
 * have one run each carry "(one run a kernel)". */
void ser_print_lkml(FILE *out, const struct series *s);

/* The series as one JSON document (man kbench-compare, SERIES): kernels,
 * tests with their medians, kept-out points, drift and steps, and a list
 * "steps" of every step with test, unit, from, to, change_pct, ci, p, q. */
void ser_print_json(FILE *out, const struct series *s);

/* --fail-on worse: trips when a test's last step is worse and not
 * doubted by drift (the newest kernel then sits in a segment proven worse
 * than the one before it): a line each "gate: TEST: ...", then
 * "gate: failed: ..." or "gate: passed: ...".  Returns 4 when tripped,
 * else 0. */
int ser_gate(FILE *out, const struct series *s);

#endif
