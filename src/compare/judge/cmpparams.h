/* kbench - compare: the recorded settings in which two results files differ (cmpparams.c)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A results file records the settings of its series in "params" (suite's
 * own, and every option passed through to load: fsync, sync, the
 * backend, clients per process, ...).  Two files that did different work
 * can still be compared (a tester may be measuring what -F costs), but no
 * verdict may hide it: each setting that differs is named on the rows it
 * touches, and another backend (another kind of work) is not comparable.
 */
#ifndef KBENCH_CMPPARAMS_H
#define KBENCH_CMPPARAMS_H

#include <jansson.h>

#include "resultsfile/suitefile.h"

/* The settings of results documents a and b (their "params") that differ
 * for a test run by command ("load", "disk", "micro"; NULL: any), added
 * to the caveat list cav: "params_differ" with evidence {KEY: {"A": a's
 * value or null, "B": b's or null}, ...} (letter the file's, "B" ...),
 * and for a load test whose backend differs (absent is fileio, the
 * default) also "other_backend", which makes the comparison unsound
 * (result/caveat.h).  Keys about the series alone and not its work (runs,
 * pause_s, clients, micro_tests, micro, mem_limits, until_stable_pct,
 * max_runs) are not compared; disk, drop_caches count for disk tests,
 * micro_quick, micro_copies, drop_caches for micro tests, every other key
 * for load tests.  Returns 0, or -1 when memory runs out. */
int cmp_params_caveats(const json_t *a, const json_t *b, const char *command, char letter,
		       json_t *cav);

/* Do tests a (of A) and b (of the file named letter) disagree on what the
 * test is: its unit, its direction (higher_is_better), or a param that
 * names the work (clients, test, family; the command between load, disk
 * and micro: an imported figure may stand for any of them)?  Then
 * "test_differs", unsound, goes into cav with evidence {KEY: {"A": a's,
 * "B": b's}, ...} (only keys both record).  Returns 1 when they disagree,
 * 0 when not, -1 when memory runs out. */
int cmp_test_caveats(const struct sf_test *a, const struct sf_test *b, char letter, json_t *cav);

#endif
