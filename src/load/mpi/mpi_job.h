/* kbench - kbench load under MPI: the start, the rounds, the gather
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The exchanges of a job's run itself, over mpi.h's low layer.  Clocks:
 * the ranks' CLOCK_MONOTONIC clocks have unrelated origins.  At the start
 * rank 0 measures each rank's offset by 8 ping-pongs and keeps the one
 * with the shortest round trip; the offset is then known to within half
 * that round trip (Cristian's method), the bound kbmpi_offset_bound_ns
 * reports.  All start and end times are rank 0's, converted.  While the
 * run goes, a round every KBMPI_ROUND_NS: each rank's live figures to
 * rank 0, the job's back to every rank.  At the end rank 0 merges every
 * rank's result (merge.h's run_result_add).  Built with --with-mpi only;
 * coord_mpi.c is the one caller.
 */
#ifndef KBENCH_LOAD_MPI_JOB_H
#define KBENCH_LOAD_MPI_JOB_H

#include <stdint.h>

struct run_result;

#define KBMPI_ROUND_NS 100000000ull   /* a round every 0.1 s while the run goes */

/* At the start: ready is 1 when this rank's clients are all set up.
 * Measures the clock offsets and agrees on one start time.  Returns 0 with
 * *t0_ns the start on this rank's clock when every rank is ready; 1 when a
 * rank was not (the start is called off everywhere); -1 when a rank did
 * not answer (said). */
int kbmpi_start(int ready, uint64_t *t0_ns);

/* How far this rank's clock can be from rank 0's after kbmpi_start, ns:
 * the largest bound over every rank (rank 0's figure, sent to all). */
uint64_t kbmpi_offset_bound_ns(void);

/* One rank's figures in a round, and the job's (sums, maxima, counts). */
struct kbmpi_round {
	uint64_t ops_all, bytes_all;   /* live counters since the start (sum) */
	uint64_t sec;                  /* the second whose figures these are */
	uint64_t sec_bytes;            /* bytes completed in it (sum) */
	uint64_t sec_ops;              /* ops completed in it (sum) */
	uint64_t sec_max_ns;           /* largest latency in it (max) */
	uint64_t end_at;               /* this rank ended (stonewall), its clock;
					* the job: the earliest, on this rank's
					* clock; UINT64_MAX: none */
	uint32_t lost;                 /* the second's bytes are unknown (ranks) */
	uint32_t done;                 /* all clients exited (ranks) */
	uint32_t stopped;              /* stopped early: signal, death, --strict (ranks) */
	int32_t stop_rank;             /* the job: the first rank that stopped, or -1 */
	int32_t dead_rank;             /* the job: a rank declared dead, or -1 */
	uint32_t pad_;
};

/* The number of the round due at now (ns, this rank's clock), or 0 when
 * none is: a round is under way, or the next one's time has not come. */
uint64_t kbmpi_due(uint64_t now);

/* While the run goes, called every few ms: when no round is under way and
 * now (ns, this rank's clock) has passed the next round's time, mine is
 * sent; when the round under way completes, *job holds the job's figures.
 * Returns 1 when *job is new, 0 when nothing is, -1 when a rank is dead
 * (job->dead_rank; said on stderr).  signalled: a stop signal came here,
 * so the others get only KBMPI_GRACE_S. */
int kbmpi_poll(const struct kbmpi_round *mine, struct kbmpi_round *job, uint64_t now,
	       int signalled);

/* The round number of the last *job kbmpi_poll returned (1, 2, ...; a
 * round every KBMPI_ROUND_NS from the start). */
uint64_t kbmpi_round_no(void);

/* At the end, after this rank merged its own clients into res: rank 0
 * adds every other rank's counters, histograms and errors into res and
 * fills res->ranks[] (res->nranks); the others send theirs.  Returns 0, or
 * -1 when a rank did not answer or memory ran out (said).  signalled as
 * for kbmpi_poll. */
int kbmpi_gather(struct run_result *res, unsigned nclients, int signalled);

#endif
