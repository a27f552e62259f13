/* kbench - compare: BYTE's INDEX VALUES of every file side by side (cmpbyte.c)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * BYTE's index exists to set machines, and tools, side by side: a test's
 * result over its baseline, times 10, and the geometric mean of those as
 * the FINAL SCORE.  Printed from struct cmp (cmprow.h), from each file's
 * own tests, so an imported BYTE report (whose tests carry BYTE's titles
 * and baselines) and kbench's own BYTE tests (byte_dhry2, ... under BYTE
 * 4.1's baselines) meet in one table by BYTE's titles, though no row of
 * the comparison holds both.
 */
#ifndef KBENCH_CMPBYTE_H
#define KBENCH_CMPBYTE_H

#include "compare/judge/cmprow.h"

#include <stddef.h>
#include <stdio.h>

/* BYTE's index of c's files to out, when any file has an indexed test (an
 * imported BYTE test's params.baseline, or a kbench BYTE test under the
 * byte4 baseline): "INDEX VALUES", a row per indexed test (BYTE's title)
 * with its baseline and, for each file, its RESULT (the median of its
 * runs) and INDEX (result / baseline x 10); the FINAL SCORE (the
 * geometric mean of the indexes) of each file that has every row; then
 * for B, C, ... the score's change against A and the U test's verdict
 * over the scores of the runs (a run's score: over the tests with that
 * run).  When the files' figures come from different tools (an imported
 * report's BYTE against kbench's, or two BYTE versions), a note says so
 * and the lines between tools give the change with no verdict.  "too few
 * runs" is one line for all the files it applies to.  Returns how many
 * files have a FINAL SCORE (0: nothing printed when no test is indexed). */
size_t cmp_print_byte_index(FILE *out, const struct cmp *c);

#endif
