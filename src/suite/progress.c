/* kbench - suite --resume: is the file's progress what its runs say?
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * --resume skips, for every job, the runs its "done" count says were
 * attempted.  The counts are only trustworthy when they agree with what
 * the file holds: each attempt of a load or disk job left either a run in
 * its test or a failure (one_run() in suite.c), and a micro attempt left
 * at most one run in each micro test, or a failure.  A file edited by hand
 * or merged from two series may not agree; resuming it would record runs
 * beyond --runs (--max-runs with --until-stable) or leave a test short
 * without saying so.
 */
#include "config.h"
#include "resultsfile/escape.h"
#include "suite/progress.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

static const struct job *job_named(const struct suite *s, const char *name)
{
	for (size_t i = 0; name && i < s->njobs; i++)
		if (!strcmp(s->jobs[i].name, name))
			return &s->jobs[i];
	return NULL;
}

/* The micro job under memory limit mem (NULL: the one without). */
static const struct job *micro_job(const struct suite *s, const char *mem)
{
	for (size_t i = 0; i < s->njobs; i++)
		if (s->jobs[i].kind == JOB_MICRO &&
		    (mem ? s->jobs[i].mem && !strcmp(s->jobs[i].mem, mem) : !s->jobs[i].mem))
			return &s->jobs[i];
	return NULL;
}

/* The job a test row belongs to: a load or disk row by its name, a micro
 * row (params.command "micro") to the micro job of its memory limit. */
static const struct job *row_job(const struct suite *s, json_t *t)
{
	const char *name = json_string_value(json_object_get(t, "name"));
	const char *command = json_string_value(json_object_get(json_object_get(t, "params"),
								"command"));
	const struct job *j = job_named(s, name);
	if (j && j->kind != JOB_MICRO)
		return j;
	if (command && !strcmp(command, "micro"))
		return micro_job(s, json_string_value(json_object_get(json_object_get(t, "params"),
								      "mem_limit")));
	return NULL;
}

static size_t failures_of(const struct suite *s, const struct job *j)
{
	size_t i, n = 0;
	json_t *f;
	json_array_foreach(json_object_get(s->doc, "failures"), i, f) {
		const char *test = json_string_value(json_object_get(f, "test"));
		n += test && !strcmp(test, j->name);
	}
	return n;
}

static json_int_t done_of(const struct suite *s, const struct job *j)
{
	json_t *v = json_object_get(json_object_get(s->doc, "done"), j->name);
	return json_is_integer(v) ? json_integer_value(v) : 0;
}

static int check_done(const struct suite *s, char *why, size_t whylen)
{
	const char *key;
	json_t *v;
	char name[120];
	/* --until-stable's runs go on to --max-runs */
	unsigned most = s->until_stable || s->auto_runs ? s->max_runs : s->runs;
	json_object_foreach(json_object_get(s->doc, "done"), key, v) {
		esc_str(name, sizeof(name), key);
		if (!job_named(s, key)) {
			snprintf(why, whylen, "done counts runs of '%s', which is not a test of its "
				 "command line", name);
			return -1;
		}
		if (!json_is_integer(v) || json_integer_value(v) < 0) {
			snprintf(why, whylen, "test '%s': done is not a whole number of runs", name);
			return -1;
		}
		if (json_integer_value(v) > (json_int_t)most) {
			snprintf(why, whylen, "test '%s': done counts %lld runs, more than its "
				 "%s %u", name, (long long)json_integer_value(v),
				 s->until_stable || s->auto_runs ? "--max-runs" : "--runs", most);
			return -1;
		}
	}
	return 0;
}

static int check_rows(const struct suite *s, char *why, size_t whylen)
{
	size_t i;
	json_t *t, *f;
	char name[120];
	json_array_foreach(json_object_get(s->doc, "tests"), i, t) {
		const struct job *j = row_job(s, t);
		json_int_t runs = (json_int_t)json_array_size(json_object_get(t, "runs"));
		esc_str(name, sizeof(name), json_string_value(json_object_get(t, "name")));
		if (!j) {
			snprintf(why, whylen, "test '%s' is not a test of its command line", name);
			return -1;
		}
		json_int_t done = done_of(s, j), fails = (json_int_t)failures_of(s, j);
		/* a micro attempt need not give every micro test a figure, and
		 * one that failed keeps the figures its other tests gave */
		bool micro = j->kind == JOB_MICRO;
		if (micro && runs > done) {
			snprintf(why, whylen, "test '%s': done counts %lld micro run%s, but it holds "
				 "%lld run%s", name, (long long)done, done == 1 ? "" : "s",
				 (long long)runs, runs == 1 ? "" : "s");
			return -1;
		}
		if (!micro && runs + fails != done) {
			snprintf(why, whylen, "test '%s': done counts %lld run%s, but it holds "
				 "%lld run%s and %lld failure%s", name, (long long)done,
				 done == 1 ? "" : "s", (long long)runs, runs == 1 ? "" : "s",
				 (long long)fails, fails == 1 ? "" : "s");
			return -1;
		}
	}
	json_array_foreach(json_object_get(s->doc, "failures"), i, f) {
		const char *test = json_string_value(json_object_get(f, "test"));
		const struct job *j = job_named(s, test);
		if (!j) {
			snprintf(why, whylen, "a failure of '%s', which is not a test of its command "
				 "line", esc_str(name, sizeof(name), test));
			return -1;
		}
		if ((json_int_t)failures_of(s, j) > done_of(s, j)) {
			snprintf(why, whylen, "test '%s': done counts %lld runs, but it holds %zu "
				 "failures",
				 esc_str(name, sizeof(name), test), (long long)done_of(s, j),
				 failures_of(s, j));
			return -1;
		}
	}
	return 0;
}

int progress_check(const struct suite *s, char *why, size_t whylen)
{
	if (check_done(s, why, whylen) < 0)
		return -1;
	return check_rows(s, why, whylen);
}
