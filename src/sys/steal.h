/* kbench - steal time: how much of a CPU's time the hypervisor gave away
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A virtual machine's CPU is a thread on its host.  When the host runs
 * something else while that CPU has work, the guest loses the time and
 * every figure timed across the gap grows.  Linux counts that lost time as
 * "steal", the 8th number of each cpu line of /proc/stat (see the kernel's
 * Documentation/filesystems/proc.rst), in USER_HZ ticks
 * (sysconf(_SC_CLK_TCK), 1/100 s on Linux), when the hypervisor reports it
 * (KVM's steal-time feature, Xen, Hyper-V).  It stays 0 on bare metal and
 * on hypervisors that do not report it, and it only grows while a CPU has
 * work: an idle CPU loses nothing.
 *
 * A figure taken while steal grew did not come from a quiet machine.
 * kbench micro gives each test the steal of its CPUs; kbench load gives
 * the run's measured window the steal of every CPU.  Both take two
 * snapshots (steal_take) and print the largest share of one CPU's time
 * stolen between them (steal_max_pct).
 */
#ifndef KBENCH_SYS_STEAL_H
#define KBENCH_SYS_STEAL_H

#include <stddef.h>
#include <stdint.h>

/* One reading of /proc/stat's steal counters. */
struct steal_snap {
	int ok;             /* 1: the counters below were read */
	unsigned ncpu;      /* entries of cpu[]: the highest CPU number listed + 1 */
	uint64_t *cpu;      /* steal ticks by CPU number; a CPU not listed
			     * (offline) holds UINT64_MAX */
	uint64_t total;     /* the "cpu" line's steal ticks (every CPU) */
};

/* Parse the text of /proc/stat (len bytes at text, not NUL-terminated) into
 * s, replacing what s held.  Returns 0; -1 with errno EPROTO when a cpu
 * line has fewer than 8 numbers (a kernel older than 2.6.11 has no steal
 * field) or is not a cpu line of numbers, or no "cpu" line is there;
 * ENOMEM.  On failure s->ok is 0. */
int steal_parse(struct steal_snap *s, const char *text, size_t len);

/* Read path (NULL: /proc/stat) into s with steal_parse.  Returns 0, or -1
 * with errno (the file's open or read error, or steal_parse's). */
int steal_take(struct steal_snap *s, const char *path);

/* Free what s holds; s may be taken again afterwards. */
void steal_free(struct steal_snap *s);

/* The largest share of one CPU's time stolen from `before` to `after`, in
 * percent of wall_s seconds (the wall time between the two readings):
 * over cpus[0..n-1], or over every CPU both readings list when n is 0.
 * ticks_per_s is USER_HZ (sysconf(_SC_CLK_TCK)).  A tick is 1/USER_HZ s,
 * so the share is exact to 100/(USER_HZ * wall_s) percent; a share above
 * 100% by less than that is the cut to ticks, and is 100.  Returns NAN
 * when either reading failed, wall_s or ticks_per_s is not positive, a
 * CPU asked for is in neither reading, or a CPU's counter went backwards
 * or grew by more than wall_s and one tick hold (a counter that jumped,
 * as after a CPU's hot-plug or a migration, or steal the kernel added at
 * its tick after the first reading for time before it): that reading
 * measured nothing of the window.  *which (when not NULL) is set to the
 * CPU with that share (-1 with NAN). */
double steal_max_pct(const struct steal_snap *before, const struct steal_snap *after,
		     const int *cpus, unsigned n, double wall_s, long ticks_per_s, int *which);

/* Whether a share pct (from steal_max_pct over wall_s seconds, ticks_per_s
 * USER_HZ) surely reached 1%: its lower bound, pct less one tick's share
 * (a reading is cut to whole ticks), is 1% or more.  Returns 1 or 0 (0 for
 * NAN).  The rule of kbench's "steal:" lines. */
int steal_notable(double pct, double wall_s, long ticks_per_s);

#endif
