/* kbench - the client processes of a load run, as the parent sees them
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The parent keeps one entry per client process: its pid until it is
 * reaped, and whether kbench itself killed it (a stuck client, or a run
 * called off before its start), so that such an end is not taken for a
 * client's death.
 */
#ifndef KBENCH_LOAD_PROCS_H
#define KBENCH_LOAD_PROCS_H

#include <stdint.h>
#include <sys/types.h>
#include "load/record/record.h"
#include "sys/memcg.h"

struct procs {
	pid_t *pid;          /* nprocs; 0 once reaped */
	unsigned char *killed;  /* nprocs: KILLED_* when kbench sent SIGKILL */
	unsigned n, alive;
	struct memcg *cg;    /* the clients' memory cgroup, NULL if none */
	uint64_t oom_seen;   /* OOM kills already put down to a client */
	/* without cg: kbench's own cgroup (memcg_own_oom_kills), its OOM
	 * kills before the clients were forked (MEMCG_UNKNOWN: not readable) */
	uint64_t own_oom;
	char own_cg[256];
};

/* why kbench sent a process SIGKILL */
enum { KILLED_NOT, KILLED_STUCK, KILLED_ABORT };

/* Reap every client process that has exited (without waiting).  A death
 * is described in res: res->died and died_msg ("client 3 (pid 1234) was
 * killed by signal 9 (Killed)", or by the OOM killer at the memory limit
 * when the cgroup's OOM count rose), res->setup_failed for status 3, and
 * res->stuck / stuck_msg for a process killed by procs_kill_stuck; one
 * killed by procs_kill_all is not described.  Each reaped process's peak
 * RSS (wait4's ru_maxrss) goes into res->own.  Returns 1 if a process
 * ended abnormally (kbench's own kills of stuck clients included), else 0. */
int procs_reap(struct procs *p, const struct run_config *cfg, struct run_result *res);

/* Kill the client processes still there 10 s after from (CLOCK_MONOTONIC
 * ns: the stop, or with limit set the time limit; 0 while neither has
 * come), or at once after a second stop signal (load_signal_count()).
 * Each is named on stderr ("client 3 (pid 1234) did not stop within 10 s;
 * killing it"; the first 8, then one line for the rest).  Does it once:
 * sets *killed. */
void procs_kill_stuck(struct procs *p, const struct run_config *cfg, uint64_t from,
		      int limit, int *killed);

/* Kill every client process still there (the run was called off before
 * its start; nothing is said). */
void procs_kill_all(struct procs *p);

#endif
