/* kbench - compare: the table, the steal lines and the verdicts as text (cmpprint.c)
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#ifndef KBENCH_CMPPRINT_H
#define KBENCH_CMPPRINT_H

#include <stddef.h>
#include <stdio.h>

#include "compare/judge/cmprow.h"

/* The table (files, notes, every row and file, the tests not compared:
 * "only in B", or "in B, not in A (the baseline)"), printed to out from
 * c (cmprow.h). */
void cmp_print_table(FILE *out, const struct cmp *c);

/* Why no test of A is in another file, one line to out (stderr):
 * "CMD: no test of A (PATH) is in B: nothing to compare: " and the
 * reason: the files' figures come from different tools (an imported
 * report's tests keep their tool's names, "byte: Execl Throughput",
 * which kbench's own never share), or their tests' names and units
 * differ (an example of each side's). */
void cmp_print_no_match(FILE *out, const struct cmp *c);

/* After the table or the lkml lines: one line for each file whose
 * c->steal[k] is notable, "steal: PATH: the hypervisor took up to 35.4%
 * of a CPU's time in run 3 of TEST (steal in /proc/stat): its figures are
 * not a quiet machine's" (PATH and TEST escaped), after a blank line;
 * nothing when no file has one. */
void cmp_print_steal(FILE *out, const struct cmp *c);

/* The line above a table (or lkml lines) saying how many tests the
 * verdicts were adjusted over and how (c->ntested, c->adjust): "80 tests
 * (every row and file against A) adjusted together by Benjamini-Hochberg
 * (--adjust bh): a verdict needs q < 0.05, ...", or with none "80 tests,
 * each on its own at 95% (--adjust none): about 1 in 20 unchanged rows
 * reads better or worse"; then one line on the control: "no control
 * (--control FILE, ...): a drift of the machine between the series would
 * read as a change", or with c->control "control: PATH (A run again):
 * ...". */
void cmp_print_adjust_line(FILE *out, const struct cmp *c);

/* The verdict of row r, file k, as text (buf, n bytes): "better
 * (p=0.008)", "~ (p=0.31)", Welch's "better: +2.04 +- 1.85 (+2.02% +-
 * 1.84%, p=0.071)", "too few runs ...".  When c->adjust adjusted more
 * than one test, the row's adjusted p follows its own: "better (p=0.002,
 * q=0.011)" (Benjamini-Hochberg's q) or "p_holm=" (Holm); a row the
 * adjustment leaves undecidable at its run counts reads "too few runs for
 * Benjamini-Hochberg over 80 tests at 95% (6 and 6: p >= 0.0022, q >=
 * 0.18)". */
void cmp_verdict_text(const struct cmp *c, const struct cmp_row *r, size_t k, char *buf,
		      size_t n);

#endif
