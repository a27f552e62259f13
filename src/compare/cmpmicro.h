/* kbench - compare: kbench micro runs (plain documents, lmbench's tables)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Two things kbench compare does for micro runs, kept apart from the
 * comparison itself:
 *   - it reads a plain `kbench micro --json` document as a results file
 *     of one run: every test that gave a figure becomes a test with one
 *     run (so the comparison shows the change and, with one run a side,
 *     no verdict), every skipped one a test without runs;
 *   - after the comparison, when the files hold lmbench tests, it prints
 *     lmbench 2's summary (micro/lmreport.h: the banner, Basic system
 *     parameters, the tables) with one row per run per file, as lmbench
 *     users posted two kernels side by side.
 */
#ifndef KBENCH_CMPMICRO_H
#define KBENCH_CMPMICRO_H

#include "suite/suitefile.h"

#include <stdio.h>
#include <jansson.h>

/* Whether doc is a kbench micro document (kind "micro"). */
int cmpmicro_is_micro(const json_t *doc);

/* A results document (kind "suite", schema 1) holding doc's figures:
 * kbench_version, time, label "micro", system, params of doc, and tests
 * (name, params {command "micro", family, title}, unit,
 * higher_is_better, one run {value, started: doc's time, seconds 0,
 * document: doc itself}, or "skipped" and no run), as kbench suite records
 * a micro run (so compare finds each test's steal_pct and run_s in the
 * run's document, as in a suite's).  doc's tests without a name, or with
 * neither a finite value nor a reason, are left out.  Returns a new
 * reference (whose runs hold references to doc), or NULL when out of
 * memory or doc has no results.tests array. */
json_t *cmpmicro_as_suite(json_t *doc);

/* lmbench's summary of the lmbench tests of files f[0..nf-1] to out: one
 * row per run of each file (its host and kernel from the file's system),
 * in the files' order; nothing when no file holds an lmbench test. */
void cmpmicro_lmbench(FILE *out, const struct suitefile *f, size_t nf);

#endif
