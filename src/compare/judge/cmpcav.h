/* kbench - compare: the caveats of the compared rows, and the verdicts they refuse (cmpcav.c)
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#ifndef KBENCH_CMPCAV_H
#define KBENCH_CMPCAV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "compare/judge/cmprow.h"

#define CMP_EXIT_NOT_COMPARABLE 3   /* a row's verdict was refused for a caveat */

/* The caveats of row r's files (r->cav[k], rowcav_row at c->conf and
 * c->ticks_per_s), and for k >= 1 with a verdict (not T_TOO_FEW) the
 * refusal: when A's runs or file k's carry an unsound caveat (result/
 * caveat.h: cache_timed, flush_failed, sparse_file, errors, interrupted,
 * mixed_kernels, mixed_hosts), v[k] becomes T_REFUSED with that key.
 * The summaries, changes and p values stay.  Called by cmp_build. */
void cmp_caveats_fill(const struct cmp *c, struct cmp_row *r);

/* Free what cmp_caveats_fill made for every row of c (c->rows stays). */
void cmp_caveats_free(struct cmp *c);

/* Does any row of c have a T_REFUSED verdict? */
bool cmp_any_refused(const struct cmp *c);

/* "not comparable: KEY (A's runs 1, 3)" for row r, file k (T_REFUSED). */
void cmp_refused_text(const struct cmp_row *r, size_t k, char *buf, size_t n);

/* The caveats of run run_no (from 1) among cav (rowcav_row's array:
 * each key with the runs that carry it): 2 when one of them makes the
 * figure unsound, 1 for another, 0 for none. */
int cmp_cav_run(const json_t *cav, size_t run_no);

/* " key*, key" of cav (rowcav_row's array): each key, * after an unsound
 * one, bimodal with both centres; nothing for an empty array. */
void cmp_put_keys(FILE *out, const json_t *cav);

/* "  [caveats: key*, key]" after a table cell (* unsound; bimodal with
 * both centres: "bimodal 1000 (3 runs) and 4395 (2 runs)"); nothing when
 * file k's runs of r carry none. */
void cmp_put_caveats(FILE *out, const struct cmp_row *r, size_t k);

#endif
