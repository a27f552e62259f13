/* kbench - micro: the lmbench timing harness, with its spread shown
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * lmbench's method (lib_timing.c's benchmp, as its papers describe it):
 * run the operation once to warm up, then grow the repetition count until
 * one timed interval lasts at least "enough" (5 ms by default here; 100
 * ms for a placed row, HARNESS_PLACED_ENOUGH below), take
 * the cost of reading the clock and of the empty loop away from every
 * interval, repeat the interval (11 times) and report the median.  lmbench
 * prints only the median; the harness also keeps the smallest, the largest
 * and the coefficient of variation of the intervals, so a noisy figure
 * shows as noisy.  Clock: CLOCK_MONOTONIC.
 *
 * The arithmetic (overhead subtraction, the next count, per-operation
 * scaling, the summary) is in pure functions below, without clock or
 * state, so the unit tests check them against figures worked out by hand.
 *
 * The harness also keeps the children the tests fork (micro_fork): on
 * SIGINT, SIGTERM or SIGHUP micro.c kills and reaps them all before it exits.
 */
#ifndef KBENCH_MICRO_HARNESS_H
#define KBENCH_MICRO_HARNESS_H

#include "micro/test.h"

#include <stdint.h>
#include <sys/types.h>

#define HARNESS_MAX_INTERVALS 101

/* A placed row's intervals (o->place_ncpu > 0: a test between processes,
 * pinned) last at least this many times --enough, 100 ms by default, but
 * never longer than HARNESS_PLACED_CAP_S or --enough, whichever is longer
 * (so --enough 2 still means 2 s, not 40).  On
 * two CPUs every message wakes the other, idle CPU, and what that costs
 * moves from one wake-up to the next (more so in a virtual machine, where
 * the idle CPU has left to the host): 5 ms holds only some 100 of them,
 * so intervals differed by 25-35% (CoV) and the median moved as much
 * from run to run.  The longer interval averages over 20 times as many
 * wake-ups; what one operation costs is measured as before. */
#define HARNESS_PLACED_ENOUGH 20
#define HARNESS_PLACED_CAP_S 0.1
#define HARNESS_MAX_ITERS (UINT64_C(1) << 40)

/* What one sample is reported in. */
enum harness_unit {
	HARNESS_US,      /* microseconds per operation */
	HARNESS_NS,      /* nanoseconds per operation */
	HARNESS_MBPS,    /* MB per second, MB = 10^6 bytes */
};

/* One measured operation.  run() does iters repetitions (the timed part);
 * before() and after(), when set, run untimed around every run() with the
 * same count (making or removing what run() needs; after() runs even when
 * run() failed, and then run()'s reason is the one reported).  Each
 * returns 0, or -1 after writing a one-line reason to why (160 bytes). */
struct harness_bench {
	int (*run)(void *ctx, uint64_t iters, char *why);
	int (*before)(void *ctx, uint64_t iters, char *why);
	int (*after)(void *ctx, uint64_t iters, char *why);
	void *ctx;
	enum harness_unit unit;
	double ops_per_iter;     /* operations in one repetition (latencies; >= 1) */
	double bytes_per_iter;   /* bytes moved by one repetition (HARNESS_MBPS) */
	uint64_t max_iters;      /* 0: HARNESS_MAX_ITERS; else a cap on the count
				  * (tests whose repetitions use up a resource) */
};

/* The samples of one measurement, in the bench's unit. */
struct harness_samples {
	double v[HARNESS_MAX_INTERVALS];
	unsigned n;
	uint64_t iters;          /* repetitions in each interval */
};

/* ---- pure arithmetic ---- */

/* The time an interval of iters repetitions spent in the operation:
 * elapsed_ns less one clock read (clock_ns) and iters times the empty
 * loop's cost per repetition (loop_ns).  Returns ns; a value <= 0 (the
 * overhead is not smaller than the interval) is returned as 0, which
 * callers treat as "no figure". */
double harness_net_ns(double elapsed_ns, uint64_t iters, double clock_ns, double loop_ns);

/* The count for the next calibration try after iters repetitions took
 * elapsed_ns and enough_ns is wanted: below 1% of it (or a zero time) x10,
 * otherwise scaled to 1.25 x enough / elapsed (at least +1, at most x10).
 * Returns at most max_iters (then the caller stops growing). */
uint64_t harness_next_iters(uint64_t iters, double elapsed_ns, double enough_ns,
			    uint64_t max_iters);

/* One sample from a net interval: net_ns spent on iters repetitions of ops
 * operations each, or moving bytes bytes each.  HARNESS_US: us per
 * operation; HARNESS_NS: ns per operation; HARNESS_MBPS: 10^6 bytes per
 * second.  Returns NAN when net_ns is not > 0 or iters, ops (or bytes for
 * MBPS) are 0. */
double harness_scale(enum harness_unit unit, double net_ns, uint64_t iters, double ops,
		     double bytes);

/* Fill r from samples v[0..n-1]: value = median, min, max, cov_pct
 * (100 x sample standard deviation / mean; NAN when n < 2), samples = n,
 * sample_s = 0.  Returns 0, or -1 when n is 0 or a sample is not finite. */
int harness_summarize(const double *v, unsigned n, struct micro_result *r);

/* The shortest timed interval for o, in ns: o->enough_s (5 ms when 0),
 * or harness_placed_enough_s() of it when o->place_ncpu > 0. */
double harness_enough_ns(const struct micro_opts *o);

/* A placed row's shortest interval, in seconds, for --enough enough_s
 * (> 0): HARNESS_PLACED_ENOUGH x enough_s, at most the longer of
 * HARNESS_PLACED_CAP_S and enough_s.  E.g. 5 ms -> 100 ms, 1 ms -> 20 ms,
 * 50 ms -> 100 ms, 2 s -> 2 s. */
double harness_placed_enough_s(double enough_s);

/* ---- measuring ---- */

/* ns of one kb_now_ns() read (sys/clock.h), and ns of one empty loop
 * repetition, measured once per process (the smaller of several tries). */
double harness_clock_ns(void);
double harness_loop_ns(void);

/* Write all n bytes of buf to fd, again after EINTR or a short write.
 * Returns 0, or -1 with errno (ENOSPC when write(2) took nothing). */
int micro_write_all(int fd, const void *buf, size_t n);

/* Read exactly n bytes from fd into buf, again after EINTR or a short
 * read.  Returns 0, or -1 with errno (EPIPE at end of file). */
int micro_read_all(int fd, void *buf, size_t n);

/* Measure b with o's intervals (at most HARNESS_MAX_INTERVALS), each of
 * at least harness_enough_ns(o): warm up, calibrate, then o->intervals
 * timed intervals into s.  Returns 0, or -1 with a reason in why (160 bytes):
 * the operation failed, or the overhead left nothing to measure. */
int harness_measure(const struct micro_opts *o, const struct harness_bench *b,
		    struct harness_samples *s, char *why);

/* harness_measure, then harness_summarize into r.  On failure r->skipped
 * holds the reason and -1 is returned. */
int harness_run(const struct micro_opts *o, const struct harness_bench *b,
		struct micro_result *r);

/* ---- children ---- */

/* How many children can be noted at once: more than the 1024 copies
 * --copies allows. */
#define MICRO_MAX_CHILDREN 1280

/* fork() for tests: the child gets SIGINT, SIGTERM and SIGHUP (unless
 * ignored) back at their default, dies with its parent (PR_SET_PDEATHSIG
 * SIGKILL) and, in the parent, is noted so micro_kill_children() can find
 * it.  Returns as fork(); -1 with errno EAGAIN, without forking, when
 * MICRO_MAX_CHILDREN children are already noted. */
pid_t micro_fork(void);

/* Note pid as a child (after a plain fork()) / forget it after reaping. */
void micro_child_add(pid_t pid);
void micro_child_del(pid_t pid);

/* Wait for child pid and forget it.  Returns its wait status, or -1. */
int micro_reap(pid_t pid);

/* SIGKILL every noted child and reap it; async-signal-safe. */
void micro_kill_children(void);

#endif
