/* kbench - load: the client processes' side of a run
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * run.c forks the client processes and each of them runs client_main()
 * (client.c): it replays the program for its clients and writes what they
 * did into their slots of the shared region (run.h), and nothing else.
 * sleep_until() is the one way a client, and the parent between its
 * progress lines, waits for a time.
 */
#ifndef KBENCH_LOAD_CLIENT_H
#define KBENCH_LOAD_CLIENT_H

#include <stdint.h>

struct run_config;
struct run_shared;

/* Replay for clients [first, first+count) in this process, interleaving
 * them one op at a time, until the end time, the stop flag or (run_once)
 * the end of the pass.  Called in a forked child; returns the exit status
 * for it (0, or 3 if a client could not set up its tree). */
int client_main(const struct run_config *cfg, struct run_shared *sh,
		unsigned first, unsigned count, int barrier_fd);

/* Sleep until the absolute CLOCK_MONOTONIC time t (ns, a kb_now_ns()
 * reading), waking early when *stop becomes non-zero (checked every 50 ms
 * at most; stop may be NULL). */
void sleep_until(uint64_t t, volatile int *stop);

#endif
