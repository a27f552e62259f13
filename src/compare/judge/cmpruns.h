/* kbench - compare: how many runs a verdict needs, and the smallest change they could show (cmpruns.c)
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#ifndef KBENCH_CMPRUNS_H
#define KBENCH_CMPRUNS_H

#include <stddef.h>
#include <stdio.h>

#include "compare/judge/cmprow.h"

/* For a row and file k >= 1 that is not a proven change: the smallest
 * change these runs could have proven at the study's threshold for one
 * more change, in percent of A's center (r->detect[k], cmpsame.h); NAN
 * for a proven change, or when these runs could prove none. */
double cmp_detectable_pct(const struct cmp *c, const struct cmp_row *r, size_t k);

/* For "too few runs" (T_TOO_FEW, both files with runs): the runs a side
 * the test needs: r->need[k] when cmp_adjust worked it out (the U test
 * under the adjustment, cmpadj.h), else u_runs_needed at c->conf (the U
 * test) or T_MIN_RUNS (Welch); 0 otherwise. */
size_t cmp_runs_needed(const struct cmp *c, const struct cmp_row *r, size_t k);

/* After the table, for every row and file with too few runs, one line:
 * "runs: TEST B: too few runs: the U test
 * needs 4 runs a side at 95% (A has 3, B 3)"; the rows of one file
 * with the same "too few runs" line share one: "runs: 31 tests B: too
 * few runs: ... (A has 1, B 1, each): NAME, NAME, NAME and 28 more";
 * a blank line first; nothing when there is none. */
void cmp_print_runs_needed(FILE *out, const struct cmp *c);

#endif
