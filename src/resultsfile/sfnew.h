/* kbench - a new results document: its skeleton, written once
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * kbench suite starts its results file with it, kbench import writes one
 * per system of a report, and a plain `kbench micro --json` document is
 * read as one (sfmicro.h): the same keys in the same order, the layout
 * suitefile.h gives, schema SUITE_SCHEMA (the one schema number, here
 * where it is written; suitefile_read refuses a newer one).
 */
#ifndef KBENCH_SFNEW_H
#define KBENCH_SFNEW_H

#include <stdbool.h>
#include <jansson.h>

#define SUITE_SCHEMA 1    /* the newest layout this kbench writes and reads */

/* What the head of a new results document holds.  Each json_t is taken
 * (its reference is the document's, also on an error); cwd and units may
 * be NULL (the key is then left out), the others not. */
struct sf_head {
	const char *label;
	json_t *command;    /* the command line, an array of strings */
	json_t *cwd;        /* the directory it ran from */
	json_t *units;      /* what each unit means */
	json_t *params;
	json_t *system;
	json_t *started, *ended;   /* times (result_time_now's form) or null */
	bool finished;
};

/* A new results document: kbench_version, kind "suite", time (now),
 * schema, label, command, cwd, units, params, system, started, ended,
 * finished, then interrupted false and empty done, failures and tests.
 * Returns it, or NULL when out of memory (or when a json_t of h the
 * caller made is NULL). */
json_t *sf_new(struct sf_head *h);

#endif
