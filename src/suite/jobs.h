/* kbench - suite: the jobs of a series, their children and figures
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What a job is, and the series that holds them, is in series.h; the
 * options that make the jobs are parsed and checked in opts.h.
 */
#ifndef KBENCH_JOBS_H
#define KBENCH_JOBS_H

#include <stddef.h>
#include <jansson.h>

#include "suite/series.h"

/* The jobs of s's options in run order, into s->jobs (njobs): under each
 * --mem-limit item in turn (named "... mem=X"; once without --mem-limit),
 * disk -T and disk -t with --disk, then "load N" for every client count,
 * then micro with --micro. */
void jobs_build(struct suite *s);

/* The params object of the results document. */
json_t *jobs_params_json(const struct suite *s);

/* Make sure the document has a test row for every load and disk job, in
 * job order (micro rows appear with their first figures). */
void jobs_rows(struct suite *s);

/* The child's command line for one run of j, writing its document to
 * s->child_json: load with -t, --warmup, -D, -c, --mem-limit,
 * --drop-caches and the options passed through as given
 * (--clients-per-process, -s, -S, -F, -x, -R, -B, --server (which means
 * -B sockio without -B), -T, --nfs, --smb-share, --smb-user); disk -T or
 * -t; micro with --quick, --copies and the named tests.  Disk and micro
 * get no memory option: kbench suite runs them in a memory cgroup of
 * their own (suite.c). */
struct job_args {
	const char *argv[64 + SUITE_MAX_MICRO];
	char clients[16];
	char timelimit[16];   /* -t's default when not given */
};
void jobs_args(const struct suite *s, const struct job *j, struct job_args *a);

/* Read the child's document after it exited 0 and record its figures (a
 * run {value, started, seconds, document} in each row).  Returns 0 with a
 * one-line description of the figure(s) in msg ("123.45 MB/s"), or -1
 * with the reason nothing was recorded in msg. */
int jobs_record(struct suite *s, const struct job *j, const char *started, double seconds,
		char *msg, size_t msglen);

/* Why a load child that exited non-zero failed, from the document it left
 * (its last line is then often the throughput summary): OOM-killed, or how
 * many operations did not end as the loadfile expects and the first of
 * them.  Returns 0 with the reason in msg, -1 (msg untouched) when the
 * document says neither or is missing. */
int jobs_failure_reason(const struct suite *s, const struct job *j, char *msg, size_t msglen);

/* The micro tests of a micro child that exited non-zero which gave no
 * figure, from the document it left: "lat_sig_hndl: WHY; ..." in msg.
 * Returns 0 with msg set, -1 (msg untouched) when j is not a micro job, or
 * the document is missing or names no failed test. */
int jobs_micro_errors(const struct suite *s, const struct job *j, char *msg, size_t msglen);

/* Runs of j attempted so far (the document's done count). */
unsigned jobs_done(const struct suite *s, const struct job *j);
void jobs_set_done(struct suite *s, const struct job *j, unsigned n);

/* A first guess of one run's seconds before any has been timed (load:
 * warm-up + measured time + 3 s; disk: hdparm's pauses and timings);
 * NAN for micro (its length depends on the tests). */
double jobs_guess_s(const struct suite *s, const struct job *j);

#endif
