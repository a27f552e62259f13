/* kbench - the caveats of a results file's test rows (suite and compare)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A row of a results file holds runs, each with the document of the child
 * that made it.  The caveats of a run are its document's (caveat_derive,
 * result/caveat.h), kept to the row's test when the document holds
 * several (kbench micro: a caveat whose evidence names another test is
 * not this row's).  The caveats of a row are those of its runs, each key
 * once with the runs that carry it, and those of the series itself: runs
 * on different kernels (mixed_kernels), hosts (mixed_hosts) or kbench
 * versions (mixed_builds), from each document's system.kernel,
 * system.hostname and kbench_version.
 */
#ifndef KBENCH_ROWCAV_H
#define KBENCH_ROWCAV_H

#include <jansson.h>
#include <stdio.h>

/* The confidence (percent) and USER_HZ of the caveats derived when a
 * document does not list them: the trend test's and the steal rule's. */
struct rowcav_opts {
	double conf;
	long ticks_per_s;
};

/* The number of run (an element of a row's "runs", the index-th from 0)
 * in its job's series, from 1: its "run_no" when it records one (a run
 * that failed leaves a gap: run 2 stays run 2), else index + 1 (a file
 * of an older kbench, an import). */
size_t rowcav_run_no(const json_t *run, size_t index);

/* The caveats of one run (an element of a row's "runs") of the row named
 * row_name: a new array, NULL when out of memory. */
json_t *rowcav_run(const json_t *run, const char *row_name, const struct rowcav_opts *o);

/* The caveats of a row (an element of a results file's "tests", with
 * "name" and "runs"): a new array of {key, text, evidence, runs: [N...]}
 * (runs numbered by rowcav_run_no; empty for the mixed_* keys, which are
 * the series'), in the order first seen.  NULL when out of memory. */
json_t *rowcav_row(const json_t *row, const struct rowcav_opts *o);

/* Under kbench suite's table: for every row with caveats, one line
 * "  NAME: key (runs 1, 2), key* (runs 3)" (* marks the unsound keys),
 * after a heading line; the text of each key once, at the end; nothing
 * when no row has one. */
void rowcav_print_table_notes(FILE *f, const json_t *doc, const struct rowcav_opts *o);

/* One line of caveats: "  HEAD: key (runs 1, 2), key* (runs 3)" (HEAD
 * escaped; * marks the unsound keys), cav as rowcav_row makes it; each
 * caveat whose key seen (an array, or NULL) lacks is appended to it. */
void rowcav_put_line(FILE *f, const char *head, const json_t *cav, json_t *seen);

/* For each caveat of seen: "  key: what it means; e.g. TEXT" (the
 * caveat's own text), a line each. */
void rowcav_put_meanings(FILE *f, const json_t *seen);

#endif
