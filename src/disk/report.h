/* kbench - kbench disk results: hdparm-form text lines and the JSON document
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The text keeps hdparm's line form exactly, so scripts written for
 * hdparm's output read kbench's too, except that the rate is always in
 * MB/sec (hdparm switches to kB/sec below 1 MB/sec).  MB = 2^20 bytes.
 * Text and JSON are printed from the same structs.
 */
#ifndef KBENCH_DISK_REPORT_H
#define KBENCH_DISK_REPORT_H

#include "disk/device.h"
#include "disk/timer.h"

#include <jansson.h>
#include <stdio.h>

#define DISK_MB 1048576.0   /* hdparm's MB: 2^20 bytes */

enum disk_test { DISK_CACHED, DISK_BUFFERED, DISK_NTESTS };

/* One run: completed, or the failed one of a test. */
struct disk_run {
	struct disk_timing tm;
	int flushed;         /* 1: the buffer cache was flushed before it */
	double cached_pct;   /* -t: % of the pages to be read still cached after
			      * the flush (disk_cached_pct), -1 if unknown or
			      * not checked */
	double backing_cached_pct; /* -t on a buffered loop device: the same for
				    * its backing file (disk_backing_cached_pct),
				    * -1 if unknown or not checked */
	int flush_failed;    /* 1: a step of the flush failed (not_flushed says
			      * which); 0 with !flushed: pages stayed cached */
	char not_flushed[240]; /* why the cache is not known to be flushed, or "" */
	int64_t first_hole;  /* -t: the first hole in the data to be read, a byte
			      * of the device or file (disk_first_hole), or -1 */
	int size_changed;    /* 1: the size re-read after the run is not the size
			      * at the start (t.size), or the data ended before
			      * it (tm.ended_early): the run failed */
	uint64_t size_after; /* bytes, the size re-read after the run */
	int size_errno;      /* errno when the size could not be re-read (the
			      * run failed), else 0 */
	double window_s;     /* wall seconds from just before the timed reads to
			      * just after them (-T: its overhead loop too) */
	double other_cpu_pct; /* CPU time other processes took in that window
			       * (sys/cpubusy.h), percent of one CPU; NAN when
			       * /proc could not tell */
};

/* All runs of one test on one device. */
struct disk_test_result {
	int wanted;                  /* the test was asked for */
	struct disk_run *runs;       /* the completed runs, nruns of them */
	size_t nruns;
	int failed;                  /* a run failed; fail holds how far it got */
	struct disk_run fail;
};

struct disk_result {
	struct disk_target t;
	char fs_type[32];            /* regular files: the filesystem, or "" */
	char fs_source[128];
	struct disk_test_result test[DISK_NTESTS];
};

struct disk_params {
	int direct;          /* --direct */
	unsigned runs;       /* --runs */
	uint64_t offset;     /* --offset, bytes */
};

/* "cached reads", "O_DIRECT cached reads", "buffered disk reads" or
 * "O_DIRECT disk reads": hdparm's names of the tests. */
const char *disk_test_label(enum disk_test k, int direct);

/* MB per second of a run: bytes / 2^20 / seconds. */
double disk_run_mbps(const struct disk_run *r);

/* 1 if the run's figure is not trustworthy because the cache was not
 * flushed (buffered -t only: -T reads the cache on purpose and O_DIRECT
 * bypasses it). */
int disk_run_unflushed(enum disk_test k, int direct, const struct disk_run *r);

/* One line in hdparm's form, e.g.
 * " Timing buffered disk reads: 512 MB in  2.49 seconds = 205.98 MB/sec"
 * MB is a whole number when the bytes are whole MiB, else two decimals;
 * " (cache not flushed)" is appended when disk_run_unflushed(). */
void disk_print_run(FILE *out, enum disk_test k, int direct, const struct disk_run *r);

/* After several runs: " Summary LABEL (N runs): min A / median B / max C
 * MB/sec, CoV D%" over the completed runs ("K of N runs" if some
 * failed).  Prints nothing when no run completed. */
void disk_print_summary(FILE *out, enum disk_test k, const struct disk_params *p,
			const struct disk_test_result *tr);

/* The results as JSON: an array with one object per device (device, type,
 * size_bytes, and per test its runs with MB, seconds, MB_per_s,
 * other_cpu_pct and window_s (null where undefined), and min,
 * median, max, cov_pct of MB_per_s; null where undefined; a failed test's
 * error, with size_bytes_after when the size changed).  Returns a new
 * reference, NULL only when out of memory. */
json_t *disk_results_json(const struct disk_params *p, const struct disk_result *res,
			  size_t ndev);

#endif
