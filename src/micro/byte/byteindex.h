/* kbench - micro: the BYTE UNIX Benchmarks index (baselines, scores, report)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * BYTE's tests (byte.c) give each a figure in lps, lpm, KBps (KB = 1024
 * bytes, as UnixBench's fstime counts) or MWIPS.  A test with a baseline
 * figure is "indexed": its index is result / baseline x 10, so a machine
 * as fast as the baseline machine scores 10.0; the final score is the
 * geometric mean of the indexes of the indexed tests that ran.
 *
 * Two baselines are known, both the figures of a SPARCstation 20-61
 * (128 MB RAM, Solaris 2.3) as the two releases publish them:
 *   "byte4"       BYTE UNIX Benchmarks 4.1: eleven indexed tests
 *                 (Dhrystone 2, Whetstone, Execl, three File Copy, Pipe
 *                 Throughput, Context Switching, Process Creation, Shell
 *                 Scripts (8 concurrent), System Call Overhead);
 *   "unixbench5"  UnixBench 5 (pgms/index.base): the same, plus Shell
 *                 Scripts (1 concurrent).
 * Tests without a baseline value (Arithmetic, Recursion, select, File
 * Read/Write, Shell Scripts (16 concurrent) ...) are reported but not
 * indexed.
 *
 * The pure functions here (index, geometric mean, sample combining) take
 * no clock and no state, so unit tests check them against published
 * figures.
 */
#ifndef KBENCH_MICRO_BYTEINDEX_H
#define KBENCH_MICRO_BYTEINDEX_H

#include "micro/test.h"

#include <jansson.h>
#include <stddef.h>
#include <stdio.h>

/* The default baseline of `kbench micro`. */
#define BYTE_BASELINE_DEFAULT "unixbench5"

/* 0 when name is a known baseline ("byte4" or "unixbench5"), -1 when not
 * (also for NULL). */
int byte_baseline_valid(const char *name);

/* The baseline figure of the test named test_name (a micro_test name such
 * as "byte_dhry2") under baseline, in the test's unit; NAN when the
 * baseline is unknown or does not index that test. */
double byte_baseline_value(const char *baseline, const char *test_name);

/* How many tests baseline indexes (11 for byte4, 12 for unixbench5); 0
 * for an unknown name. */
size_t byte_baseline_count(const char *baseline);

/* Index of one result: value / baseline x 10 (BYTE 4.1 and UnixBench 5).
 * Unit-free.  NAN when baseline is not > 0 or value is not finite or < 0. */
double byte_index(double value, double baseline);

/* Geometric mean of v[0..n-1]: exp of the mean of the logarithms (as
 * UnixBench computes the final score).  NAN when n is 0 or a value is not
 * finite or not > 0. */
double byte_geomean(const double *v, size_t n);

/* Combine the samples of one test the UnixBench 5 way (its Run script):
 * with more than 2 samples, the worst third (int(n / 3) of them, the
 * lowest rates) is dropped; the figure is the geometric mean of the rest.
 * v[0..n-1] are rates (lps, KBps ...) and are not changed.  Writes the
 * number of samples kept to *kept when kept is not NULL.  Returns the
 * figure, in the unit of v; NAN when n is 0, a value is not finite or not
 * > 0, or memory runs out. */
double byte_combine_samples(const double *v, size_t n, unsigned *kept);

/* A line "(against UnixBench 5.1.3, TEST: WHAT)" after indent to out for
 * each BYTE test among tests[0..n) whose work still differs from
 * UnixBench's (the execl image, the shell scripts' input, Dhrystone and
 * Whetstone built without -march=native); nothing for the others. */
void byte_report_differences(FILE *out, const char *indent,
			     const struct micro_test *const *tests, size_t n);

/* BYTE's result lines for the byte-family tests among tests[0..n-1] with
 * results res[0..n-1] (entries of other families are ignored; a skipped
 * test prints its reason instead of a figure), each as UnixBench 5 prints
 * it ("Pipe Throughput   245334.2 lps   (10.0 s, 7 samples)") with the
 * spread of the samples (min, max, CoV %) after it; then the "System
 * Benchmarks Index Values" table (BASELINE, RESULT, INDEX, one decimal)
 * and the "System Benchmarks Index Score" line against baseline ("byte4"
 * or "unixbench5"; an unknown name prints no table), to out.  The table
 * is left out when no indexed test ran. */
void byte_report_text(FILE *out, const struct micro_test *const *tests,
		      const struct micro_result *res, size_t n, const char *baseline);

/* The index as JSON: {"baseline": name, "tests": [{"name", "title",
 * "unit", "baseline_value", "value", "index"}], "partial": bool,
 * "final_score": x} for the indexed byte tests among tests[0..n-1] that
 * gave a figure ("partial": not every test the baseline indexes ran).  Returns a new
 * reference; NULL when no indexed test ran, the baseline is unknown or
 * memory runs out. */
json_t *byte_index_json(const struct micro_test *const *tests, const struct micro_result *res,
			size_t n, const char *baseline);

#endif
