/* kbench - suite --until-stable PCT --max-runs N: runs added to a test
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * After a job's planned --runs, kbench suite adds runs of it while
 * stable_more (stats/stable.h) says its figures need them: until the
 * half-width of each of its test's median's 95% interval is within PCT
 * percent of the median, or the job has N runs.  A load or disk job has
 * one test; a micro job one per micro test it reports, and it goes on
 * while any of them is not yet within PCT (its runs give them all a
 * figure).  Each test row of the results file holds what happened:
 *   "until_stable": { "pct": PCT, "max_runs": N, "confidence": 95,
 *                     "runs": figures, "attempts": runs made,
 *                     "median_ci_half_pct": the half-width in percent of
 *                     the median (null: no interval yet),
 *                     "within": bool, "hit_max_runs": bool }
 * written after every run of its job.
 */
#ifndef KBENCH_UNTILSTABLE_H
#define KBENCH_UNTILSTABLE_H

#include <stdbool.h>
#include <stdio.h>
#include <jansson.h>

#include "suite/series.h"

/* --until-stable and --max-runs (s->until_arg, s->max_runs_arg) into
 * s->until_pct and s->max_runs, after --runs is parsed (s->runs); without
 * them max_runs is s->runs.  Returns 0, or KB_EXIT_USAGE after one line:
 * PCT not a number above 0, N not a whole number from --runs (and the 6
 * runs the interval needs) to SUITE_MAX_RUNS, either without the other. */
int ustable_parse(struct suite *s);

/* Is row t of the results document one of job j's tests: a load or
 * disk row by its name, a micro row (params.command "micro", not
 * skipped) by its memory limit? */
bool ustable_row_of(const struct job *j, const json_t *t);

/* Does job j need another run beyond its planned ones?  False without
 * --until-stable, before its planned runs are all made, and once its
 * runs made (jobs_done) reach --max-runs. */
bool ustable_more(const struct suite *s, const struct job *j);

/* Write the "until_stable" object above into every test row of job j
 * (nothing without --until-stable). */
void ustable_record(struct suite *s, const struct job *j);

/* The lines under suite's table for a document whose rows hold
 * "until_stable": each such test's runs and half-width, then which tests
 * hit --max-runs ("hit --max-runs 20: disk -t, load 1") or that none did.
 * Prints nothing when no row holds it.  Names escaped (escape.h). */
void ustable_print(FILE *f, const json_t *doc);

#endif
