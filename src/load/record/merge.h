/* kbench - one merge for a load run's figures: clients into a run, ranks
 * into a job
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A struct run_result holds the figures of some clients: one client's
 * slot read after the run, one machine's run, or (under --mpi) a whole
 * job.  Adding one result into another is the same whatever the two hold,
 * so run.c adds each client's result into its run, and rank 0 adds each
 * rank's result into the job (mpi_job.c), both with run_result_add.  The
 * packed form is how a rank's result travels to rank 0.
 */
#ifndef KBENCH_LOAD_MERGE_H
#define KBENCH_LOAD_MERGE_H

#include <stddef.h>
#include "load/record/record.h"

/* Add src into dst (dst->hist must be allocated, OP_COUNT histograms; src->hist
 * may be NULL: no histograms):
 *  - counts summed: ops, bytes, errors, errors_unlisted, passes, unsupported[],
 *    late_ops, late_sum_ns, nprocs, stuck, nfatal; the histograms and lag merged;
 *  - maxima kept: max_latency_ns, late_max_ns;
 *  - the first of each kept: interrupted, a death (died, died_msg), a fatal
 *    client (fatal_client, counted from dst's kept clients, and fatal_err);
 *  - flags or'ed: strict_stop, setup_failed, oom_killed;
 *  - errors merged by (line, errno), most frequent first;
 *  - src's clients appended to dst's (deep copies);
 *  - the series added second by second: bytes and ops summed, the largest
 *    latency kept, lost and warmup or'ed, each second's coarse counts merged
 *    and its p99 made again from them.
 * measured_s, mbps and the --mpi fields are the caller's.  Returns 0, or -1
 * when out of memory (dst then holds part of src). */
int run_result_add(struct run_result *dst, const struct run_result *src);

/* A result that holds one client at a time (for adding a run's clients
 * one by one): its histograms, room for ERR_SLOTS errors and for one
 * client's sparse histogram.  Returns 0, or -1 when out of memory (what
 * was made is left for run_result_free). */
int run_result_client_alloc(struct run_result *one);

/* one (from run_result_client_alloc) made the result of the client whose
 * slot is st, over a measured window of window_s s: its counters, its
 * histograms and lag, its errors (line, errno, count), its fatal error
 * (fatal_client 0: the first of its result's clients), the largest latency
 * of an op other than Sleep, its own figures (one->clients[0]); no series.
 * Returns 0, or -1 when out of memory. */
int run_result_client_of(struct run_result *one, const struct client_stats *st,
			 double window_s);

/* The figures of res that run_result_add reads, in one buffer of *len bytes
 * (malloc'ed, the caller frees; only for a process of the same build:
 * structs are copied as they lie in memory).  Returns it, or NULL when out
 * of memory. */
void *run_result_pack(const struct run_result *res, size_t *len);

/* A buffer of len bytes from run_result_pack into *res (zeroed first; its
 * parts allocated: run_result_free releases them).  Returns 0, or -1 when
 * the buffer is cut short or malformed, or memory ran out. */
int run_result_unpack(const void *buf, size_t len, struct run_result *res);

/* Release what a result holds (its histograms, clients, series, errors,
 * ranks) and zero it: a result of run_load, of run_result_add, of
 * run_result_unpack, or one zeroed and never filled. */
void run_result_free(struct run_result *res);

#endif
