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

#include <jansson.h>
#include <stddef.h>
#include <stdio.h>

/* BYTE's index of c's files to out, when any file has an indexed test (an
 * imported BYTE test's params.baseline, or a kbench BYTE test under the
 * byte4 baseline): "INDEX VALUES", a row per indexed test (BYTE's title)
 * with its baseline and, for each file, its RESULT (the median of its
 * runs) and INDEX (result / baseline x 10), then the caveats of those
 * runs ("[caveats A: busy]", as a table cell's); the FINAL SCORE (the
 * geometric mean of the indexes) of each file that has every row, with
 * the caveats of the runs of every test in it; what a score of kbench's
 * figures is of when it lacks one of BYTE 4.1's eleven indexed tests
 * ("A, B: the score of 10 of BYTE's 11 indexed tests; byte_execl
 * skipped"); then for B, C, ... the score's change against A and its
 * verdict in a row's words (cmpsame.h): the study's test (--test) on the
 * scores of the runs (a run's score: over the tests with that run) at
 * the study's confidence, on its own (the score restates rows already
 * tested, so it is not adjusted with them): better, worse, "same +-PCT"
 * (two one-sided tests within --same-within, else 5%), "not proven"
 * with what the runs could see, "too few runs", "not comparable: KEY"
 * (an unsound caveat of a test in either score).  When the files'
 * figures come from different tools (an imported report's BYTE against
 * kbench's, or two BYTE versions), a note says so and the lines between
 * tools give the change with no verdict.  Returns how many files have a
 * FINAL SCORE (0: nothing printed when no test is indexed). */
size_t cmp_print_byte_index(FILE *out, const struct cmp *c);

/* The same index as a new JSON object (kbench-compare(1), JSON OUTPUT,
 * "byte_index"): "tests" (each title, baseline and each file's result,
 * index and caveats), "scores" (each file's score, run_scores,
 * tests_in_score, indexed_tests_of_byte, left_out, caveats, and for B, C,
 * ... change_pct, verdict, p, same, detectable_change_pct); json null
 * when no test is indexed. */
json_t *cmp_byte_json(const struct cmp *c);

/* The lkml form's line of the FINAL SCOREs of A and file k: "FINAL SCORE
 * (B: 10 of BYTE's 11 indexed tests; byte_execl skipped) || 136.5 ->
 * 135.7 -0.59% same +-5% (could see +-2.10%)  [caveats A: busy]";
 * nothing when either has no score. */
void cmp_byte_lkml(FILE *out, const struct cmp *c, size_t k);

#endif
