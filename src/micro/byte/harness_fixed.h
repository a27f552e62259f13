/* kbench - micro: fixed-duration counting, the BYTE UNIX Benchmarks way
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * BYTE's tests (UnixBench 4.1 and 5) do not time a fixed amount of work:
 * a test body loops until an alarm ends the sample, and the count of
 * loops (or bytes, or Whetstone instructions) over the time taken is the
 * sample's rate.  Here:
 *   - every copy of a sample runs in its own forked process; it sets up
 *     (files, pipes, partner processes), says it is ready, waits on a
 *     barrier so all copies start together, arms an ITIMER_REAL alarm for
 *     the sample's duration (SIGALRM, SA_RESTART) and runs the body until
 *     the alarm sets the stop flag.  The body finishes the loop it is in
 *     and returns; the time is read then, so the rate counts whole loops
 *     over exactly the time they took (never a partial loop);
 *   - a sample's rate = the amount of all copies x per / the seconds
 *     from the first copy's start to the last copy's end (per = 1: per
 *     second, 60: per minute).  With one copy that is BYTE's rate; with
 *     several started at once it is the sum of their rates, as UnixBench
 *     sums its parallel copies, but copies that start late on a busy
 *     machine do not count as running alone;
 *   - the samples combine as UnixBench 5's Run script does
 *     (byte_combine_samples: the worst third dropped, geometric mean of
 *     the rest); min, max and CoV are of all the samples run.
 * Copies are forked with micro_fork() (harness.h): SIGINT and SIGTERM
 * at their defaults, killed by micro_kill_children() and when kbench
 * dies.  Children are always reaped; a copy that does not report within
 * the sample's duration plus 60 s is killed and the run fails.
 */
#ifndef KBENCH_MICRO_HARNESS_FIXED_H
#define KBENCH_MICRO_HARNESS_FIXED_H

#include "micro/test.h"

#include <signal.h>
#include <stddef.h>

/* How long BYTE runs a test: the class scales opts->duration_s (whose
 * default, 10 s, is BYTE's short tests). */
enum fixed_class {
	FIXED_SHORT,     /* 10 s x 10 samples: Dhrystone, Whetstone, pipe,
			  * context switching, system calls (UnixBench "long" repeat) */
	FIXED_SHORT3,    /* 10 s x 3 samples: arithmetic, select */
	FIXED_HANOI,     /* 20 s x 3 samples: recursion */
	FIXED_LONG,      /* 30 s x 3 samples: process creation, execl, file tests */
	FIXED_SHELL,     /* 60 s x 3 samples: shell scripts */
};

/* What a test does inside each copy's process.  setup runs before the
 * barrier (not timed) and may make a state; run loops until *stop becomes
 * non-zero, checking it between whole loops, and sets *amount to the work
 * done (loops, KB of 1024 bytes, Whetstone instructions / 10^6); cleanup
 * (also after a failed run) releases the state and any child processes
 * and files.  setup and run return 0, or -1 with a one-line reason in err
 * (errlen bytes); setup may instead return 1 with a reason when the test
 * cannot run here (it is skipped). */
struct fixed_ops {
	int (*setup)(const void *arg, const struct micro_opts *o, void **state,
		     char *err, size_t errlen);
	int (*run)(void *state, const void *arg, volatile sig_atomic_t *stop, double *amount,
		   char *err, size_t errlen);
	void (*cleanup)(void *state);
};

/* Seconds one sample runs: opts->duration_s (10 s by default) x the
 * class's factor (1, 2 for FIXED_HANOI, 3 for FIXED_LONG, 6 for
 * FIXED_SHELL); 0.2 s for every class when opts->quick. */
double fixed_sample_seconds(const struct micro_opts *o, enum fixed_class c);

/* Samples BYTE takes: 10 for FIXED_SHORT, 3 for the others (UnixBench 5's
 * long and short repeat counts); 3 when opts->quick. */
unsigned fixed_sample_count(const struct micro_opts *o, enum fixed_class c);

/* Fill r from the sample rates v[0..n-1] and their times t[0..n-1]
 * (seconds): value = byte_combine_samples(v), samples = the samples kept,
 * sample_s = the mean time of the kept samples, min, max and cov_pct (NAN
 * when n < 2) of all of v.  Returns 0; -1 when n is 0 or a rate is not
 * finite and > 0 (r is left unchanged then). */
int fixed_fill_result(const double *v, const double *t, size_t n, struct micro_result *r);

/* The copies of one sample taken together: the work of all of them over
 * the time from the first copy's start to the last copy's end (seconds
 * on one clock).  Summing each copy's own rate instead would count copies
 * that started late, or ended early, as if they had run alone. */
struct fixed_window {
	double work;         /* the amounts of the copies added so far */
	double first, last;  /* earliest start, latest end; +inf, -inf when empty */
};

/* An empty window. */
void fixed_window_init(struct fixed_window *w);

/* Add one copy's report: its amount of work, when it started and how many
 * seconds it ran. */
void fixed_window_add(struct fixed_window *w, double amount, double start, double seconds);

/* The sample's rate, work x per / (last - first), in *rate and the window
 * in *secs (seconds).  Returns 0, or -1 when the window is empty or took
 * no time (*rate and *secs are then 0). */
int fixed_window_rate(const struct fixed_window *w, double per, double *rate, double *secs);

/* Run the test: fixed_sample_count() samples of fixed_sample_seconds()
 * each, opts->copies copies at once (1 when 0), rates x per (1: per
 * second, 60: per minute).  Fills r (r->work: the amounts of every copy
 * of every sample added up).  Returns 0 with a figure in r, or 0
 * with r->skipped set when setup said the test cannot run here; -1 when a
 * copy failed (fork, setup, run, a crash, no report in time), with a
 * one-line reason in r->skipped and no figure. */
int fixed_run(const struct fixed_ops *ops, const void *arg, const struct micro_opts *o,
	      enum fixed_class c, double per, struct micro_result *r);

#endif
