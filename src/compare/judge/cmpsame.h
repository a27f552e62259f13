/* kbench - compare: "same", "not proven", what the runs could see, and spread (cmpsame.c)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A row with no proven change is one of two things: the kernels are the
 * same (within a margin the tester accepts), or these runs could not
 * tell.  cmp_same tells them apart:
 *
 * - "same": the change is proven to lie within +-PCT percent of A's
 *   median (U test) or mean (Welch) by two one-sided tests (Schuirmann
 *   1987; on the runs with the U test, on the means with Welch's standard
 *   error: stats/equiv.h), their p-values adjusted over every such row
 *   and file by the study's --adjust (Benjamini-Hochberg by default), as
 *   the change verdicts are; "same" needs the adjusted p below 1 -
 *   confidence.  PCT is --same-within, else each kind's default
 *   (cmp_same_default).  Else "not proven".
 * - what the runs could see: on every row that is not a proven change,
 *   the smallest change the runs could have proven at the study's
 *   threshold for one more change (Benjamini-Hochberg: (R + 1) alpha / m
 *   with R rows proven changed among m tested; Holm: alpha / (m - R);
 *   --adjust none: alpha), in percent of A's center: the half-width of
 *   the Hodges-Lehmann shift's interval (Bauer 1972) at that level, or
 *   Welch's t times the standard error.
 * - spread: each row and file with 3 runs a side or more gets the
 *   Brown-Forsythe test of its spread against A's (stats/spread.h),
 *   adjusted over the study the same way; a row whose spread changed, or
 *   where two clusters (stats/modes.h) appear or go, gets its own line,
 *   whether or not its center moved.
 */
#ifndef KBENCH_CMPSAME_H
#define KBENCH_CMPSAME_H

#include <stdio.h>

#include "compare/judge/cmprow.h"

#define CMP_SAME_THROUGHPUT 5.0   /* default --same-within: load, disk, bandwidths, rates */
#define CMP_SAME_LATENCY 10.0     /* default --same-within: micro latencies (lower is better) */

/* The default margin of row r, percent: CMP_SAME_LATENCY for a micro
 * test whose figure is better lower (lmbench's latencies), else
 * CMP_SAME_THROUGHPUT. */
double cmp_same_default(const struct cmp_row *r);

/* Fill same, same_pct, p_same, q_same, detect, alpha_row and sp of every
 * row and file k >= 1 of c, and c->nsame, c->nspread.  Call after
 * cmp_adjust and the drift check, when every verdict is final.  Returns 0,
 * or -1 when memory runs out. */
int cmp_same(struct cmp *c);

/* The JSON verdict of row r, file k: "better", "worse", "same",
 * "not_proven", "too_few_runs" or "not_comparable". */
const char *cmp_verdict_key(const struct cmp_row *r, size_t k);

/* The words of a T_SAME row in the table and lkml forms: "same +-5%" or
 * "not proven" (lkml: "not-proven", one word for its parsers). */
const char *cmp_same_word(const struct cmp_row *r, size_t k, bool lkml, char *buf, size_t n);

/* "could see +-7.40%" (the row's detect), "could see n/a" (A's figure is
 * 0: no percentage) or "could see no change" (too few runs) into buf. */
const char *cmp_could_see(const struct cmp_row *r, size_t k, char *buf, size_t n);

/* The line under the adjustment's: how "same" is proven, and its margins. */
void cmp_print_same_line(FILE *out, const struct cmp *c);

/* A "spread:" line per row and file whose spread changed or whose
 * clusters did (nothing when none did). */
void cmp_print_spread(FILE *out, const struct cmp *c);

#endif
