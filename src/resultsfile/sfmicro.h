/* kbench - a plain kbench micro document read as a results file
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * kbench compare takes a plain `kbench micro --json` document as a
 * results file of one run: every test that gave a figure becomes a test
 * with one run (so the comparison shows the change and, with one run a
 * side, no verdict), every skipped one a test without runs.
 * suitefile_read (suitefile.h) makes the conversion.
 */
#ifndef KBENCH_SFMICRO_H
#define KBENCH_SFMICRO_H

#include <jansson.h>

/* Whether doc is a kbench micro document (kind "micro"). */
int sfmicro_is_micro(const json_t *doc);

/* A results document (kind "suite", its skeleton sfnew.h's) holding doc's
 * figures: kbench_version, time, label "micro", system, params of doc, and tests
 * (name, params {command "micro", family, title}, unit,
 * higher_is_better, one run {value, started: doc's time, seconds 0,
 * document: doc itself}, or "skipped" and no run), as kbench suite records
 * a micro run (so compare finds each test's steal_pct and run_s in the
 * run's document, as in a suite's).  doc's tests without a name, or with
 * neither a finite value nor a reason, are left out.  Returns a new
 * reference (whose runs hold references to doc), or NULL when out of
 * memory or doc has no results.tests array. */
json_t *sfmicro_as_suite(json_t *doc);

#endif
