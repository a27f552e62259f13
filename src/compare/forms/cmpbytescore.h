/* kbench - compare: BYTE's index of the files, each FINAL SCORE and its verdict (cmpbytescore.c)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What cmpbyte.c prints in every form (the table, --json, --style lkml),
 * worked out once here so the forms cannot disagree: the indexed rows
 * (BYTE's title and baseline, each file's test and the caveats of its
 * runs), each file's score (the report's printed one when every file has
 * one, else kbench's geometric mean of the medians' indexes), what it is
 * of, the caveats of its tests, and for B, C, ... its verdict against A
 * in a row's words and by a row's rules (cmpsame.h).
 */
#ifndef KBENCH_CMPBYTESCORE_H
#define KBENCH_CMPBYTESCORE_H

#include "compare/judge/cmprow.h"

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#define KBENCH_BYTE "kbench micro (BYTE's tests)"

struct bx_row {
	char title[160];
	double base;
	const struct sf_test *t[CMP_MAX_FILES];
	json_t *cav[CMP_MAX_FILES];     /* the caveats of t[k]'s runs (rowcav_row), owned */
};

#define BX_MAX_RUNS 256
#define BX_MISSING 400

/* One file's FINAL SCORE and, for B, C, ..., its verdict against A's. */
struct bx_score {
	const char *tool;               /* whose figures: an import's params.tool, or kbench's */
	double score;                   /* the one shown: printed (every file has one) or worked */
	double worked, printed;         /* from the medians' indexes; the report's own */
	double runs[BX_MAX_RUNS];       /* the score of each run (the runs every row has) */
	size_t nruns;
	size_t ntests;                  /* indexed tests in the score */
	size_t of;                      /* kbench's figures: BYTE 4.1's indexed tests (11); 0 */
	char missing[BX_MISSING];       /* "byte_execl skipped, ..." */
	json_t *left;                   /* [{test, as, why}] of missing, owned */
	json_t *cav;                    /* [{key, tests: [title...]}] over the score's tests */
	const char *unsound;            /* the first unsound key in cav, or NULL */
	/* k >= 1 */
	double change, p, p_min, p_same, detect, same_pct;
	const char *verdict;            /* as cmp_verdict_key's, or "different_tools", "no_score" */
	const char *refused;            /* not_comparable: the key, in file refused_in */
	size_t refused_in;
};

struct cmp_bx {
	struct bx_row *rows;
	size_t n;
	bool printed;                   /* every file's report printed its score */
	struct bx_score s[CMP_MAX_FILES];
};

/* The index of c's files into b: its rows (BYTE's titles in the order
 * first seen, each with the caveats of each file's runs, rowcav_row at
 * c->conf), each file's score and its caveats, and the verdicts: the
 * study's test (--test) on the scores of the runs at c->conf, not
 * adjusted with the rows (the score restates them); not proven gives way
 * to same when two one-sided tests (stats/equiv.h) prove the change
 * within --same-within (else CMP_SAME_THROUGHPUT) of A's center; an
 * unsound caveat (result/caveat.h) of any test in either score makes it
 * not_comparable.  Returns false when no test is indexed or memory ran
 * out (nothing to free), else true: free with cmp_bx_free. */
bool cmp_bx_build(const struct cmp *c, struct cmp_bx *b);

/* Free what cmp_bx_build made (b itself is the caller's). */
void cmp_bx_free(struct cmp_bx *b);

struct micro_test;

/* The kbench BYTE test (micro/byte/byte.h) named name, or NULL. */
const struct micro_test *cmp_byte_test(const char *name);

#endif
