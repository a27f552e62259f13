/* kbench - micro: where the two ends of an IPC test run (placements)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A test that passes data or a token between processes measures the
 * scheduler as much as the IPC: with both ends on one CPU every message is
 * a context switch; with the ends on two CPUs it is a wake-up of another
 * CPU, which overlaps the sender's return.  Left to the scheduler, each
 * interval lands on one or the other by chance and the figure is noise.
 * So such a test is run in stated placements, each its own row:
 *   one CPU    both ends (every process) pinned to one CPU;
 *   two SMT    the ends on two hardware threads of one core (siblings);
 *   two cores  the ends on two CPUs of different cores (of one package
 *              where the machine has one with two cores).
 * The pairs are chosen from the CPUs kbench may use (its affinity mask, or
 * --cpus), in their order, as the topology in sysfs
 * (/sys/devices/system/cpu/cpuN/topology: physical_package_id, core_id)
 * groups them; a placement the set lacks is skipped with its reason.
 * The parent (kbench) is pinned to the first CPU of the placement before
 * the test runs and its children inherit it; the test moves its partner
 * process to the second CPU with place_partner().
 */
#ifndef KBENCH_MICRO_PLACE_H
#define KBENCH_MICRO_PLACE_H

#include "micro/test.h"

#include <sched.h>
#include <stddef.h>

struct micro_opts;

#define PLACE_MAX_CPUS 1024

/* One CPU and where it sits. */
struct place_cpu {
	int cpu;                /* the kernel's CPU number */
	int package, core;      /* physical_package_id, core_id; -1 when unknown
				 * (the CPU is then its own core) */
};

/* The CPUs placements are chosen from, in order. */
struct place_set {
	unsigned n;
	struct place_cpu c[PLACE_MAX_CPUS];
};

/* The row-name suffix ("1cpu", "2smt", "2core"), the JSON word
 * ("one_cpu", "smt_siblings", "two_cores") and the words for reports
 * ("one CPU", "two SMT siblings", "two cores") of p; "" / "none" / "any CPU"
 * for MICRO_PLACE_NONE. */
const char *place_suffix(enum micro_place p);
const char *place_key(enum micro_place p);
const char *place_words(enum micro_place p);

/* How many CPUs placement p uses: 1, 2, or 0 for MICRO_PLACE_NONE. */
unsigned place_ncpus(enum micro_place p);

/* Parse a CPU list as the kernel writes them ("0", "0,2", "0-3,8") into
 * cpus[0..max-1], in the order given, no CPU twice.  Returns the count
 * (>= 1), or -1 for an empty, malformed or repeating list, or a CPU
 * number above PLACE_MAX_CPUS - 1. */
int place_parse_list(const char *s, int *cpus, unsigned max);

/* Choose the CPUs of placement p from set s (pure: no system call).
 * MICRO_PLACE_ONE: the first CPU; MICRO_PLACE_SMT: the first pair, in the
 * set's order, with the same package and core; MICRO_PLACE_CORES: the
 * first pair of different cores of one package, else of two packages.
 * Returns 1 with the CPUs in cpu[0] (kbench's end) and cpu[1]; 0 when the
 * set has no such CPUs, with the reason (one line) in why. */
int place_choose(const struct place_set *s, enum micro_place p, int cpu[2], char *why,
		 size_t whylen);

/* Fill s from cpus[0..n-1] (n > 0), or from this process's affinity mask
 * in CPU order when cpus is NULL, each CPU's package and core read from
 * sysfs.  Returns 0, or -1 with a reason in why: a CPU of cpus is not in
 * the affinity mask (or not online), or the mask cannot be read. */
int place_set_load(struct place_set *s, const int *cpus, unsigned n, char *why, size_t whylen);

/* The CPUs whose steal (sys/steal.h) counts for a test, into
 * cpus[0..max-1]: a placed test's place_cpu[0..place_ncpu-1]; an unplaced
 * one's every CPU of affinity (kbench's own mask, which the test and its
 * children run on, whatever --cpus chose placements from), in CPU order.
 * Returns the count. */
unsigned place_steal_cpus(unsigned place_ncpu, const int *place_cpu, const cpu_set_t *affinity,
			  int *cpus, unsigned max);

/* Pin the calling process (thread) to one CPU.  Returns 0, or -1 with
 * errno (sched_setaffinity(2)). */
int place_pin(int cpu);

/* In a test's partner process (a child forked by the test): move it to
 * the placement's second CPU when the placement has two (o->place_ncpu ==
 * 2); nothing otherwise (one CPU: it inherited the parent's).  A failure
 * leaves the child where it was; the test then reports the placement it
 * asked for, so the parent checks it first (micro.c pins itself to both
 * CPUs once before the test). */
void place_partner(const struct micro_opts *o);

#endif
