/* kbench - micro: what a test is (its row, options and result), shared by
 * the harnesses, the test families and the command
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * kbench micro runs small CPU and IPC tests of two families:
 *   - lmbench (lmbench 2/3 methods): a latency per operation in
 *     microseconds, or a bandwidth in MB/sec with MB = 10^6 bytes, timed by
 *     the harness in harness.h (grow the count to "enough", subtract the
 *     clock's and the empty loop's cost, median of 11 intervals);
 *   - byte (the BYTE UNIX Benchmarks, UnixBench 4.1 and 5): a count of
 *     loops per second or per minute (lps, lpm), KBps or MWIPS over a
 *     fixed duration, repeated as BYTE does, scored against a baseline.
 * Each test is one row of a table (struct micro_test) kept by its family's
 * file (micro_lmbench_tests[] in lmbench.c, declared in lmbench.h;
 * micro_byte_tests[] in byte.c, declared in byte.h); micro.c finds, runs
 * and reports them.
 */
#ifndef KBENCH_MICRO_TEST_H
#define KBENCH_MICRO_TEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Where the two ends of an IPC test run (place.h finds the CPUs). */
enum micro_place {
	MICRO_PLACE_NONE = 0,   /* left to the scheduler (tests of one process) */
	MICRO_PLACE_ONE,        /* both ends on one CPU */
	MICRO_PLACE_SMT,        /* two SMT siblings of one core */
	MICRO_PLACE_CORES,      /* two CPUs on different cores */
};


enum micro_family {
	MICRO_LMBENCH,
	MICRO_BYTE,
};

/* What the command line chose; every test reads only this. */
struct micro_opts {
	double enough_s;      /* lmbench: shortest timed interval, seconds (default 0.005) */
	unsigned intervals;   /* lmbench: timed intervals per figure (default 11) */
	double duration_s;    /* byte: seconds per sample for the short tests (default 10);
			       * the long ones (30 s, 60 s as BYTE) scale with it */
	bool quick;           /* quick mode: short durations, fewer samples, for tests */
	unsigned copies;      /* byte: copies run at once, results summed (default 1) */
	const char *tmpdir;   /* a private directory for temporary files, made and
			       * removed by micro.c; tests never write elsewhere */
	/* the placement of the test running now (place.h), set by micro.c
	 * for each placed row: kbench is pinned to place_cpu[0] already, a
	 * partner process goes to place_cpu[1] (place_partner) */
	unsigned place_ncpu;  /* 0: not placed; 1 or 2 CPUs */
	int place_cpu[2];
};

/* One figure and its spread, in the test's unit. */
struct micro_result {
	double value;         /* the reported figure: the median of the intervals
			       * (lmbench) or BYTE's combined figure (byte) */
	double min, max;      /* smallest and largest sample, same unit */
	double cov_pct;       /* coefficient of variation of the samples, percent;
			       * NAN when fewer than 2 samples */
	unsigned samples;     /* samples behind value */
	double sample_s;      /* byte: seconds each sample ran (0 for lmbench) */
	double work;          /* byte: the work every copy did in every sample, in
			       * the test's count (loops, KB, Whetstone
			       * instructions / 10^6); 0 for lmbench */
	char skipped[160];    /* non-empty: the test could not run here, and why
			       * (no figure is reported) */
	unsigned place_ncpu;  /* the CPUs its placement used (set by micro.c): */
	int place_cpu[2];     /* 0 when not placed (or skipped before it ran) */
	double steal_pct;     /* set by micro.c: the largest share of one CPU's
			       * time the hypervisor took while the test ran
			       * (sys/steal.h), percent, over its placement's
			       * CPUs, or over every CPU of kbench's affinity
			       * mask when it is not placed (place_steal_cpus);
			       * NAN when not known */
	double other_cpu_pct; /* set by micro.c: CPU time other processes took
			       * while the test ran (sys/cpubusy.h), percent of
			       * one CPU; NAN when not known */
	double run_s;         /* set by micro.c: the wall seconds the test ran */
};

struct micro_test;

/* Run one test with options o; fill r.  Returns 0 when r holds a figure or
 * a reason in r->skipped; -1 when the run failed (a one-line reason is in
 * r->skipped then too, and the figure must not be printed). */
typedef int (*micro_run_fn)(const struct micro_test *t, const struct micro_opts *o,
			    struct micro_result *r);

struct micro_test {
	const char *name;        /* command-line name, lower case, e.g. "lat_syscall_null",
				  * "byte_pipe" */
	const char *title;       /* as the report prints it, e.g. "null call",
				  * "Pipe Throughput" */
	enum micro_family family;
	const char *unit;        /* "us", "MB/s" (10^6), "lps", "lpm", "KBps", "MWIPS" */
	bool higher_is_better;
	const char *what;        /* one line for --list: what one operation is */
	const char *method;      /* where the method comes from, e.g.
				  * "lmbench lat_syscall null" */
	micro_run_fn run;
	const void *arg;         /* the test's own parameters (sizes, counts) */
	enum micro_place place;  /* where its ends run (place.h); MICRO_PLACE_NONE
				  * for tests of one process or left to the
				  * scheduler.  A placed row's name ends in
				  * "_" place_suffix(place) */
};

#endif
