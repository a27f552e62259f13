/* kbench - suite results files: reading, checking, the Go benchmark form
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * kbench suite writes one JSON document per series of runs (kind "suite",
 * schema SUITE_SCHEMA); kbench compare and kbench suite --resume read it
 * back.  The layout (man/kbench-suite.1 describes every key):
 *   { kbench_version, kind: "suite", time, schema, label, command: [argv],
 *     cwd, params, system, started, ended, finished, interrupted,
 *     done: { job: runs attempted }, failures: [...],
 *     runs_auto (with --runs auto: autoruns.h),
 *     tests: [ { name, params, unit, higher_is_better,
 *                runs: [ { value, started, seconds, document } ],
 *                until_stable (with --until-stable: untilstable.h),
 *                plan (with --runs auto: autoruns.h) } ] }
 * A test's values are its runs' "value" figures, in the test's unit.
 */
#ifndef KBENCH_SUITEFILE_H
#define KBENCH_SUITEFILE_H

#include <stdbool.h>
#include <stdio.h>
#include <jansson.h>

#include "resultsfile/sfnew.h"
#include "stats/summary.h"

/* One test of a results file, pointing into the document. */
struct sf_test {
	const char *name;       /* "load 5", "disk -T", "lat_syscall_null", ... */
	const char *unit;       /* "MB/s" (10^6 bytes), "MiB/s" (2^20 bytes), a micro unit */
	bool higher_is_better;
	json_t *params;         /* the test's params object (borrowed) */
	const json_t *row;      /* the test's tests[] entry itself (borrowed): its runs */
	double *v;              /* the runs' figures, in file order (owned) */
	size_t n;
	struct summary sum;     /* of v[0..n-1] (summary_of), when summarised */
	bool summarised;        /* false when n is 0 or summary_of refused */
	char *own_name;         /* a name made here (compare --by), freed with the file */
};

struct suitefile {
	char *path;             /* as given */
	json_t *doc;            /* the whole document (owned) */
	struct sf_test *t;      /* tests in file order */
	size_t nt;
	size_t nruns;           /* figures over all tests */
};

/* The steal one run's document (a run's "document": a load or micro
 * --json document) records for the test of row (its tests[] entry): for
 * a load document results.steal_pct over results.measured_s seconds; for
 * a micro document the steal_pct over run_s of its results.tests entry
 * named as the row, or as the row less " mem=LIMIT" of its
 * params.mem_limit (kbench suite's names).  Returns 1 with the share
 * (percent of one CPU's time) in *pct and its seconds in *wall_s; 0 when
 * none is recorded: no document, a disk one, an older kbench's without
 * the keys, no such test, steal_pct or the seconds null or absent;
 * -1 with the reason in why (whylen bytes) when what is recorded is no
 * measurement: a steal_pct that is not a number from 0 to 100 (a share
 * of one CPU's time; sys/steal.h), or seconds that are not a number of
 * 0 or more. */
int suitefile_run_steal(const json_t *doc, const json_t *row, double *pct, double *wall_s,
			char *why, size_t whylen);

/* Read and check the results file path (a regular file; a FIFO or device
 * is refused, not read): a JSON object of kind "suite" whose schema is an
 * integer no newer than SUITE_SCHEMA, with a tests array whose entries
 * have a name, a unit, higher_is_better and runs with finite numeric
 * values, no test twice (name and unit), no negative figure in a unit
 * that cannot have one (suitefile_unit_nonnegative), no figures whose
 * mean or spread overflows, no run whose document records a steal no
 * measurement gives (suitefile_run_steal).  need_runs: refuse a file without a single
 * figure.  Returns 0, or KB_EXIT_USAGE (2) after one line "CMD: PATH:
 * reason" on stderr (not JSON, which line; not a kbench suite file; a
 * newer schema; which test and run; no runs), names from the file and
 * PATH escaped (escape.h).  Free out with suitefile_free (also after a
 * refusal: it is then empty). */
int suitefile_load(const char *cmd, const char *path, bool need_runs, struct suitefile *out);

/* suitefile_load's checks on a document read from in (to its end), named
 * name in out->path and in the refusal line, which goes to errs (NULL:
 * none).  The same returns. */
int suitefile_read(const char *cmd, const char *name, FILE *in, FILE *errs, bool need_runs,
		   struct suitefile *out);

/* The one reader of a test's runs: the tests[] entry t into out (name,
 * unit, higher_is_better, params and row point into t), the "value" of every
 * run into out->v (malloc'd: free it, also after a refusal), their
 * summary.  Checks the layout only (a name, a unit, higher_is_better,
 * runs, and a finite number for every value), not what a figure may be
 * (suitefile_read's further checks).  Returns 0, or -1 with a one-line
 * reason in why (whylen bytes; the test's name escaped): out->v is NULL
 * when the layout is wrong or memory runs out, else it holds the out->n
 * figures before the first run without one. */
int suitefile_test(const json_t *t, struct sf_test *out, char *why, size_t whylen);

/* Is unit one whose figures cannot be negative: a throughput, a rate or
 * a time?  "MB/s", "MiB/s", "KBps", "lps", "lpm", "MWIPS", "ns", "us",
 * "ms", "s", "seconds", and any unit ending in "/s", "/op" or "ps". */
bool suitefile_unit_nonnegative(const char *unit);

void suitefile_free(struct suitefile *sf);

/* A string member of the document's "system" object, or "" if absent. */
const char *suitefile_sys(const struct suitefile *sf, const char *key);

/* Print the figures of doc (one suitefile_read accepts, or one kbench
 * suite writes) in the Go benchmark format
 * (golang.org/design/14313-benchmark-format), which benchstat reads:
 * configuration lines "key: value" (goos, goarch, kernel, host, cpu,
 * label, kbench), "Unit UNIT better=higher|lower" lines, then one line per
 * run "BenchmarkLoad/clients=5 1 7.85 MB/s" (the test as a name without
 * blanks, one iteration, the figure and its unit; Go's MB/s is 10^6 bytes
 * a second, as kbench load's, and kbench disk's MB = 2^20 is MiB/s). */
void suitefile_benchstat(FILE *f, const json_t *doc);

/* The Go benchmark name of a test row (its name and params), written to
 * buf (n bytes): "Load/clients=5", "Load/clients=5/mem=32M",
 * "Disk/test=cached", "Micro/test=lat_syscall_null" (either with
 * "/mem=X" under a memory limit, the micro name without its " mem=X"), or
 * the name with
 * blanks turned to '_' for anything else (no "Benchmark" prefix). */
void suitefile_go_name(const json_t *test, char *buf, size_t n);

#endif
