/* kbench - kbench load across many machines under MPI: the low layer
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
 * This is mpi.c's face: MPI itself, the ranks and their hosts, the
 * deadlines, the star and the broadcasts, the agreements before the run
 * (statuses, the measurement, the program) and the job's end; mpi_job.h
 * builds the run's exchanges (the start, the rounds, the gather) on it,
 * and coord_mpi.c makes both the MPI coordinator (load/run/coord.h).  Built
 * with --with-mpi only.
 */
#ifndef KBENCH_LOAD_MPI_H
#define KBENCH_LOAD_MPI_H

#include <mpi.h>
#include <stddef.h>
#include <stdint.h>
#include "load/loadfile/program.h"

#define KBMPI_DEAD_S 10.0      /* a rank silent this long is dead */
#define KBMPI_SETUP_S 600.0    /* ... before the start: checks, loadfile, clients' setup */
#define KBMPI_GRACE_S 0.5      /* after a stop signal, what the others still get */
#define KBMPI_HOST_MAX 64

/* The tags of the messages, one a kind of exchange. */
enum { TAG_AGREE = 101, TAG_CLOCK, TAG_ROUND, TAG_REPLY, TAG_HEAD, TAG_BODY,
       TAG_ACK, TAG_SAME };

/* MPI_Init (with Open MPI's warning about fork() turned off: the clients
 * only replay and _exit), this rank's number, the number of ranks and
 * every rank's host name.  cmd names the command in messages.  Returns 0,
 * or KB_EXIT_USAGE when MPI cannot start (said on stderr). */
int kbmpi_init(const char *cmd);

/* After kbmpi_init: 1, else 0. */
int kbmpi_active(void);
int kbmpi_rank(void);
int kbmpi_size(void);

/* Host name of rank r (0 <= r < kbmpi_size()), as MPI_Get_processor_name
 * gave it; "?" for a rank out of range. */
const char *kbmpi_host(int r);

/* The command's name kbmpi_init was given, for messages. */
const char *kbmpi_cmd(void);

/* The rank declared dead, or -1. */
int kbmpi_dead(void);

/* Rank r is dead (told by rank 0): the job is broken. */
void kbmpi_set_dead(int r);

/* 1 when a rank was declared dead or an exchange failed, else 0. */
int kbmpi_broken(void);

/* The clock (kb_now_ns) s seconds from now, ns. */
uint64_t kbmpi_after_s(double s);

/* How long this rank waits for the others while the run goes, s: rank 0
 * KBMPI_DEAD_S, the others 5 s more (rank 0 is waiting for someone else
 * first); after a stop signal (signalled) KBMPI_GRACE_S. */
double kbmpi_patience(int signalled);

/* Wait for the n requests r[] until deadline (ns, kb_now_ns's clock),
 * spinning when spin, else pausing 0.2 ms between tests.  Returns 0, or
 * -1 with *first the index of the first that did not complete (or
 * failed). */
int kbmpi_wait(int n, MPI_Request *r, uint64_t deadline, int *first, int spin);

/* Rank r did not answer for waited seconds: said on stderr, and the job
 * is broken (kbmpi_dead() is r). */
void kbmpi_say_dead(int r, double waited);

/* An exchange (what, as a message names it) failed without naming the
 * rank at fault: said on stderr, and the job is broken. */
void kbmpi_say_lost(const char *what);

/* One broadcast from rank 0 of len bytes at p, in chunks an int counts,
 * waited for until deadline (ns).  Returns 0 or -1. */
int kbmpi_bcast(void *p, size_t len, uint64_t deadline);

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

/* The end of the job, after this rank cleaned up, with its exit status.
 * When the job is broken (kbmpi_broken), it is ended with MPI_Abort (by
 * rank 0, once every live rank said it cleaned up, or KBMPI_DEAD_S
 * later) and this does not return.  Else MPI_Finalize.  Does nothing
 * before kbmpi_init. */
void kbmpi_end(int status);

#endif
