/* kbench - running a loadfile with N clients: the parent's entry point
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The parent maps one MAP_SHARED region (struct run_shared, record.h): a
 * header it writes (start and end times, the stop flag) and one
 * cache-line-aligned slot per client that only that client writes
 * (counters, per-opcode latency histograms, the errors it saw).  No
 * locks: a slot has a single writer, and the parent reads the few live
 * counters with relaxed atomic loads.
 */
#ifndef KBENCH_RUN_H
#define KBENCH_RUN_H

#include <stdint.h>
#include "load/record/record.h"

/* Fork the clients, release them together, print a line a second, stop
 * them at the end (or on a stop signal noted by load/run/signals.h, a client's
 * death, --strict), and merge what they measured into res.  A signal
 * before the start (while forking or waiting for the clients to set up)
 * forks no more clients, kills those there and measures nothing
 * (res->interrupted, return 1).  A client process that is still there 10 s
 * after the stop or the time limit (stopped, hung) is named on stderr and
 * killed (res->stuck; return 1); what it did until then counts.  First, with drop_caches, sync and
 * drop the caches; with mem_limit, make the cgroup kbench-PID under
 * memcg_site, which each client process joins right after fork (before
 * its setup and the barrier), sample its usage each second, read what it
 * did into res->mem once the clients are gone and remove it, also after
 * an error or a signal.  A client killed by SIGKILL while the cgroup's
 * OOM-kill count rose is reported as killed by the OOM killer, and the
 * run then has no throughput (res->mbps NAN).  Returns 0 if the run completed, 1
 * if it was cut short (res says why), -1 if it could not start (message
 * printed). */
int run_load(const struct run_config *cfg, struct run_result *res);

/* Throughput as dbench defines it: bytes / 10^6 / seconds of the window
 * [start_ns, end_ns).  Returns MB/s (MB = 10^6 bytes), or NAN when the
 * window is empty (end_ns <= start_ns): no window, no figure. */
double run_throughput_mbps(uint64_t bytes, uint64_t start_ns, uint64_t end_ns);

#endif
