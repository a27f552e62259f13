/* kbench - suite --runs auto --detect PCT: the runs each test needs, planned from its spread
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A study compared by kbench compare gets a verdict on a row only when
 * its runs are enough for the row's change to pass the study-wide
 * adjustment.  With --runs auto every job first runs AUTO_PILOT pilot
 * runs; then, before any other run, each test's coefficient of variation
 * is taken from its pilots and the runs it needs worked out
 * (stats/power.h): enough that a change of PCT percent in any one row of
 * the study's m tests would pass Benjamini-Hochberg at 95% (p below
 * 0.05 / m) with AUTO_POWER power under the U test, and never fewer than
 * the U test's floor 2 / C(2n, n) allows.  A job runs as many times as
 * its neediest test asks (a micro run gives all its tests a figure),
 * bounded by --max-runs (default AUTO_MAX_RUNS) and by --budget TIME
 * (the time left after the pilots, shared evenly among the jobs from
 * each one's mean run time).  The plan is said up front on standard
 * error, with every test the bounds leave short ("lat_mem_rand_l3 needs
 * 14 runs for 2%; --max-runs 10"), and recorded in the results file:
 *   runs_auto (top level): { "detect_pct", "power", "confidence", "adjust":
 *                       "bh", "tests", "alpha", "pilot_runs",
 *                       "max_runs", "budget_s" (null: none) }
 *   each test row's "plan": { "cov_pct" (null: no spread yet),
 *                       "pilot_runs", "needs", "runs", "short_by":
 *                       null, "max_runs" or "budget" }
 * A resumed series keeps the plan it recorded.
 */
#ifndef KBENCH_AUTORUNS_H
#define KBENCH_AUTORUNS_H

#include <stdbool.h>
#include <stdio.h>
#include <jansson.h>

#include "suite/series.h"

#define AUTO_PILOT 5          /* pilot runs of every job */
#define AUTO_MAX_RUNS 30      /* default --max-runs under --runs auto */
#define AUTO_POWER 0.8        /* the chance a change of --detect is found */
#define AUTO_CONF 95.0        /* kbench compare's default confidence */

/* --runs auto (s->runs_arg), --detect, --max-runs, --budget into
 * s->auto_runs, s->detect_pct, s->max_runs, s->budget_s, with s->runs the
 * pilot runs.  Returns 0 (nothing set without --runs auto: the caller
 * parses --runs), or KB_EXIT_USAGE after one line: --detect without
 * --runs auto or not a percentage above 0 and below 100, --runs auto
 * without --detect, --max-runs below AUTO_PILOT, --budget not a
 * duration, --until-stable beside it. */
int autoruns_parse(struct suite *s);

/* Work out the plan of every job from its pilots and record it (nothing
 * when s->auto_runs is false, or the rows already hold one: a resumed
 * series), printing it on err.  Returns 0, or -1 when memory runs out. */
int autoruns_plan(struct suite *s, FILE *err);

/* The runs job j is planned to make (AUTO_PILOT before the plan). */
unsigned autoruns_planned(const struct suite *s, const struct job *j);

/* Does job j need another run by the plan? */
bool autoruns_more(const struct suite *s, const struct job *j);

/* The plan's lines under suite's table: its tests, alpha and power, and
 * the tests left short of their need.  Nothing for a document without
 * params.runs_auto.  Names escaped (escape.h). */
void autoruns_print(FILE *f, const json_t *doc);

#endif
