/* kbench - the coordinator of a load run: one interface, local or MPI
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A run has one or more participants, each a kbench load with its own
 * clients: one on its own (the local coordinator, coord_local() here),
 * or the ranks of a job under mpirun (--mpi: coord_mpi.h).  They meet at
 * the same few points whatever their number, and load.c and run.c go
 * through those points alone, never asking which coordinator they have:
 *
 *   input   every participant's command line checked, the options and
 *           the loadfile's program agreed (rank 0's shared), bad input
 *           anywhere stopping all (exit 2)
 *   agree   a status combined after each participant's own checks
 *   start   every participant's clients ready; one start time
 *   due, poll, wake  the watch loop's rounds: this participant's live
 *           figures in, the whole run's out (a progress line each second)
 *   gather  at the end, every participant's result merged into rank 0's
 *   end     the last step, with the exit status
 *
 * Participant 0 (rank 0) speaks for the run: its banner, progress lines,
 * report and JSON.  Which coordinator a run has is chosen once, in
 * cmd_load, from --mpi.
 */
#ifndef KBENCH_LOAD_COORD_H
#define KBENCH_LOAD_COORD_H

#include <stdint.h>
#include <stdio.h>

struct load_opts;
struct program;
struct run_result;

/* One participant's live figures at a round, or the whole run's (sums,
 * maxima, counts over the participants). */
struct coord_round {
	uint64_t sec;            /* the second (from the start, 1, 2, ...) whose
				  * end this round is; 0: the round ends none */
	uint64_t ops_all, bytes_all;  /* live counters since the start */
	uint64_t sec_bytes;      /* bytes completed in second sec */
	uint64_t sec_ops;        /* ops completed in it */
	uint64_t sec_max_ns;     /* largest latency in it, ns */
	uint64_t end_at;         /* this participant's measurement ended (a stop,
				  * the time limit, its clients' own end), its
				  * clock; the run's: the earliest; UINT64_MAX: not */
	uint32_t left;           /* clients still running; UINT32_MAX: not counted */
	uint32_t lost;           /* participants whose second is unknown */
	uint32_t done;           /* participants whose clients have all exited */
	uint32_t stopped;        /* participants stopped early (a signal, a death,
				  * --strict) */
	int32_t stop_rank;       /* the run's: the first participant that stopped,
				  * or -1 */
};

/* Reads the loadfile into the program the caller gave input(); arg is
 * the caller's.  Returns 0 or an exit status (said on stderr). */
typedef int (*coord_read_fn)(void *arg);

struct coord {
	int rank;                /* this participant, 0 .. nparts-1 */
	int nparts;              /* participants */
	const char *who;         /* this participant in messages ("rank 2 (HOST)"),
				  * "" when it is the only one */
	const char *subdir;      /* this participant's own directory under DIR (and
				  * on a server), NULL: DIR itself */
	uint64_t round_ns;       /* a round every this many ns from the start,
				  * 10^9 divisible by it */

	/* The input.  status is this participant's check of its command line
	 * (0 or an exit status); o may be changed to this participant's share
	 * of the clients; read is called on participant 0 alone and the
	 * program it makes reaches every participant's *prog.  Returns the
	 * same status on every participant: 0, the largest status given (bad
	 * input anywhere: KB_EXIT_USAGE), or KB_EXIT_FAIL (a participant lost,
	 * out of memory; said). */
	int (*input)(struct load_opts *o, int status, coord_read_fn read, void *arg,
		     struct program *prog);
	/* Every participant's status combined: each passes its own (0 or an
	 * exit status) and gets the largest, or KB_EXIT_FAIL when a
	 * participant did not answer (said). */
	int (*agree)(int status);
	/* The start: ready is 1 when this participant's clients are all set
	 * up; *t0_ns holds now on entry, and the start on this participant's
	 * clock on return.  *bound_ms: how far the participants' clocks may
	 * differ, ms (0 when alone).  Returns 0 when every participant is ready,
	 * 1 when one was not (the start is called off everywhere), -1 when a
	 * participant was lost (said). */
	int (*start)(int ready, uint64_t *t0_ns, double *bound_ms);
	/* The number (1, 2, ...) of the round due at now (ns, this clock), or
	 * 0 when none is.  done: this participant's clients have all exited
	 * (alone, that ends the run at once: a round is due). */
	uint64_t (*due)(uint64_t now, int done);
	/* Called often while the run goes: mine (with a round due, else NULL)
	 * is this participant's figures for it; when a round completes, *run
	 * is the run's.  signalled: a stop signal came here (the others then
	 * get little time).  Returns 1 when *run is new, 0 when nothing is, -1
	 * when a participant was lost (said). */
	int (*poll)(const struct coord_round *mine, struct coord_round *run, uint64_t now,
		    int signalled);
	/* When the watch loop next looks, ns on this clock, from now. */
	uint64_t (*wake)(uint64_t now);
	/* At the end, after this participant merged its own clients into res:
	 * participant 0 adds every other's result into res (run_result_add)
	 * and fills res->ranks[] when there are several; the others send
	 * theirs.  nclients: this participant's.  Returns 0, or -1 when a
	 * participant was lost or memory ran out (said). */
	int (*gather)(struct run_result *res, unsigned nclients, int signalled);
	/* What the banner says of the participants (nothing when alone):
	 * clients_total, every participant's clients; stonewall, --stonewall. */
	void (*describe)(FILE *out, unsigned clients_total, int stonewall);
	/* The end, after this participant cleaned up, with its exit status.
	 * When a participant was lost it may end the process (MPI_Abort). */
	void (*end)(int status);
};

/* The coordinator of a run on its own: one participant, rounds once a
 * second; input reads the loadfile, the rest only passes through.
 * Never fails. */
const struct coord *coord_local(void);

#endif
