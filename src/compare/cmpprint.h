/* kbench - compare: the table, the steal lines and the verdicts as text (cmpprint.c)
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#ifndef KBENCH_CMPPRINT_H
#define KBENCH_CMPPRINT_H

#include <stddef.h>
#include <stdio.h>

#include "compare/cmprow.h"

/* The table (files, notes, every row and file, the tests not compared:
 * "only in B", or "in B, not in A (the baseline)"), printed to out from
 * c (cmprow.h). */
void cmp_print_table(FILE *out, const struct cmp *c);

/* After the table or the lkml lines: one line for each file whose
 * c->steal[k] is notable, "steal: PATH: the hypervisor took up to 35.4%
 * of a CPU's time in run 3 of TEST (steal in /proc/stat): its figures are
 * not a quiet machine's" (PATH and TEST escaped), after a blank line;
 * nothing when no file has one. */
void cmp_print_steal(FILE *out, const struct cmp *c);

/* The verdict of row r, file k, as text (buf, n bytes): "better
 * (p=0.008)", "~ (p=0.31)", Welch's "better: +2.04 +- 1.85 (+2.02% +-
 * 1.84%, p=0.071)", "too few runs ...". */
void cmp_verdict_text(const struct cmp *c, const struct cmp_row *r, size_t k, char *buf,
		      size_t n);

#endif
