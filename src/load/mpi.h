/* kbench - kbench load across many machines under MPI (--mpi)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Under mpirun every rank is one kbench load with its own clients in
 * DIR/rank<r>; the ranks agree at the few points where they must, as IOR
 * and mdtest do: after the checks (is every rank's input good, and does
 * it measure what rank 0 measures?), at the start (every rank's clients
 * ready; one start time, rank 0's clock), a few times a second while the
 * run goes (stops, --stonewall, the progress line's sums), and at the end
 * (rank 0 merges every rank's counters and histograms).  Only the parent
 * rank process calls MPI: the forked clients replay and _exit, and never
 * touch it.
 *
 * Every exchange is a star over rank 0 with non-blocking point-to-point
 * messages and a deadline, not a blocking collective, so that a rank that
 * died or stopped answering is named (rank and host) and no rank hangs:
 * rank 0 declares a rank dead after KBMPI_DEAD_S seconds without its
 * answer and tells the others; the others declare rank 0 dead after
 * KBMPI_DEAD_S + 5.  Before the start (the checks, the loadfile, the
 * clients' setup) the agreements wait KBMPI_SETUP_S instead.  After a
 * stop signal the others get only
 * KBMPI_GRACE_S more (mpirun kills a job's processes soon after its
 * SIGTERM).
 *
 * Clocks: the ranks' CLOCK_MONOTONIC clocks have unrelated origins.  At
 * the start rank 0 measures each rank's offset by 8 ping-pongs and keeps
 * the one with the shortest round trip; the offset is then known to within
 * half that round trip (Cristian's method), the bound kbmpi_offset_bound_ns
 * reports.  All start and end times are rank 0's, converted.
 *
 * Built with --with-mpi this is mpi.c; without it mpi_none.c, whose
 * kbmpi_init refuses --mpi (exit 2) and whose other functions are never
 * reached.
 */
#ifndef KBENCH_LOAD_MPI_H
#define KBENCH_LOAD_MPI_H

#include <stddef.h>
#include <stdint.h>
#include "load/program.h"

struct run_result;

#define KBMPI_DEAD_S 10.0      /* a rank silent this long is dead */
#define KBMPI_SETUP_S 600.0    /* ... before the start: checks, loadfile, clients' setup */
#define KBMPI_GRACE_S 0.5      /* after a stop signal, what the others still get */
#define KBMPI_ROUND_NS 100000000ull   /* a round every 0.1 s while the run goes */
#define KBMPI_HOST_MAX 64

/* 1 when this kbench was built with MPI, else 0. */
int kbmpi_built(void);

/* MPI_Init (with Open MPI's warning about fork() turned off: the clients
 * only replay and _exit), this rank's number, the number of ranks and
 * every rank's host name.  cmd names the command in messages.  Returns 0,
 * or KB_EXIT_USAGE without MPI support ("built without MPI") or when
 * MPI cannot start (said on stderr). */
int kbmpi_init(const char *cmd);

/* After kbmpi_init: 1, else 0. */
int kbmpi_active(void);
int kbmpi_rank(void);
int kbmpi_size(void);

/* Host name of rank r (0 <= r < kbmpi_size()), as MPI_Get_processor_name
 * gave it; "?" for a rank out of range. */
const char *kbmpi_host(int r);

/* The statuses of every rank combined: each rank passes its own (0 or an
 * exit status); every rank gets the largest, or KB_EXIT_FAIL when a rank
 * did not answer in time (named on stderr).  A collective: every rank
 * calls it at the same point. */
int kbmpi_agree(int status);

/* How far a rank's shown option may run in the message, bytes. */
#define KBMPI_SHOWN_MAX 240

/* Compares a rank's text with rank 0's: 0 when they agree, else 1 with
 * the first difference as each gives it (NUL-terminated, cut to size). */
typedef int (*kbmpi_differ_fn)(const char *mine, const char *rank0, char *shown_mine,
			       char *shown_rank0, size_t size);

/* Every rank measures the same thing: each passes its text of what
 * defines the measurement (NULL when it could not make it: out of
 * memory); rank 0's is sent to every rank, which compares it with its own
 * by differs; rank 0 gathers the answers and, when a rank differs, says
 * so in one line on stderr, for the lowest such rank: "CMD: rank R (HOST)
 * runs A, rank 0 B: every rank must measure the same thing" (and how many
 * more ranks differ).  A collective, before anything is made.  Returns 0
 * when every rank agrees, KB_EXIT_USAGE on every rank when one differs,
 * KB_EXIT_FAIL when a text is missing or a rank did not answer (said). */
int kbmpi_same(const char *mine, kbmpi_differ_fn differs);

/* The loadfile: rank 0 passes the status of its parse and, when 0, its
 * program; the others get status and, when 0, a copy of the program
 * (ops in a new sealed memfd, arena, source name).  Returns the status
 * (KB_EXIT_FAIL also when out of memory or a rank did not answer). */
int kbmpi_share_program(int status, struct program *prog);

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

/* One rank's figures at the end (results.per_rank[]). */
struct run_rank {
	char host[KBMPI_HOST_MAX];
	uint32_t clients;
	uint32_t nprocs;
	uint64_t ops, bytes, errors, passes;
	double measured_s;             /* its window, s */
	double mbps;                   /* bytes / 10^6 / its window; NAN: none */
	int32_t died, interrupted, strict_stop, setup_failed;
	uint32_t stuck, nfatal;
	char why[160];                 /* the died message, or "" */
};

/* At the end, after this rank merged its own clients into res: rank 0
 * adds every other rank's counters, histograms and errors into res and
 * fills res->ranks[] (res->nranks); the others send theirs.  Returns 0, or
 * -1 when a rank did not answer or memory ran out (said).  signalled as
 * for kbmpi_poll. */
int kbmpi_gather(struct run_result *res, unsigned nclients, int signalled);

/* 1 when a rank was declared dead or an exchange failed, else 0. */
int kbmpi_broken(void);

/* The end of the job, after this rank cleaned up, with its exit status.
 * When the job is broken (kbmpi_broken), it is ended with MPI_Abort (by
 * rank 0, once every live rank said it cleaned up, or KBMPI_DEAD_S
 * later) and this does not return.  Else MPI_Finalize.  Does nothing
 * before kbmpi_init. */
void kbmpi_end(int status);

#endif
