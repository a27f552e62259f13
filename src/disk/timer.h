/* kbench - hdparm's read-timing methods (-T cached reads, -t device reads)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Both methods read into one buffer of DISK_REQ_BYTES (2 MiB) that is
 * page-aligned (so O_DIRECT accepts it), has every page touched before
 * timing and is locked in memory where allowed.  After each read a byte
 * every 512 bytes is touched, so the data must really have arrived.
 * Time is CLOCK_MONOTONIC (sys/clock.h).  These functions only read and time: flushing
 * the cache first is the caller's job (disk/device.h).
 */
#ifndef KBENCH_DISK_TIMER_H
#define KBENCH_DISK_TIMER_H

#include <stddef.h>
#include <stdint.h>

#define DISK_REQ_BYTES (2u << 20)        /* one read request: 2 MiB */
#define DISK_CACHED_SECONDS 2.0          /* -T read loop runs this long */
#define DISK_BUFFERED_SECONDS 3.0        /* -t reads stop after this long */
#define DISK_CACHED_PAUSE 1              /* -T: idle seconds before the reads */
#define DISK_BUFFERED_PAUSE 3            /* -t: idle seconds before the reads */
#define DISK_TOUCH_STRIDE 512            /* bytes between touched bytes */

struct disk_buf {
	unsigned char *p;   /* DISK_REQ_BYTES, page-aligned */
	int locked;         /* 1 if mlock() succeeded */
	int lock_errno;     /* mlock()'s errno when it did not */
};

/* Map the buffer (anonymous, page-aligned), write every page, then try to
 * mlock() it; a refused lock is reported in locked/lock_errno, not as a
 * failure.  Returns 0, or -1 with errno set if the mapping fails. */
int disk_buf_init(struct disk_buf *b);

/* Unmap the buffer (safe on a zeroed or already freed struct). */
void disk_buf_free(struct disk_buf *b);

/* Sleep `seconds` (DISK_CACHED_PAUSE or DISK_BUFFERED_PAUSE), going back
 * to sleep after a signal: the idle pause between the flush and the
 * timed reads (see timer.c for why it is there).  The test suite alone
 * shortens it, with KBENCH_TEST_PAUSE_SCALE (HACKING.md). */
void disk_pause(unsigned seconds);

/* The pause disk_pause(seconds) sleeps, in seconds: seconds itself, or
 * less under the test suite's KBENCH_TEST_PAUSE_SCALE.  The JSON reports
 * this, the pause that was slept, not the method's. */
double disk_pause_seconds(unsigned seconds);

/* The outcome of one timed run. */
struct disk_timing {
	uint64_t bytes;           /* bytes read and counted, all runs' unit */
	uint64_t iterations;      /* read requests made */
	double seconds;           /* the figure: -T loop minus overhead; -t
				   * time from the first read to the last */
	double loop_seconds;      /* -T: the read loop as measured */
	double overhead_seconds;  /* -T: the same loop without the read */
	int at_end;               /* -t: stopped at the end of the device */
	int err;                  /* 0, or the errno of the read that failed */
	uint64_t err_offset;      /* byte offset of the failed read; with
				   * ended_early, where the data ended */
	int ended_early;          /* 1: a read returned less than asked before
				   * the end given: the data ended at err_offset
				   * (the file or device shrank during the run) */
};

/* hdparm -T method: read `want` bytes (at most DISK_REQ_BYTES; the device
 * or file size if smaller) at offset 0 with lseek + read, again and again
 * until `seconds` have passed; the first read primes the page cache.  Then
 * run the same number of iterations without the read (lseek and clock
 * only) and subtract that time.  align > 1 (O_DIRECT) rounds the request
 * length up to a multiple of align; the read must still return `want`.
 * Returns 0 with out filled (bytes = iterations * want), or -1 with
 * out->err (errno; ERANGE if the overhead was not smaller than the loop)
 * and out->bytes, the bytes read before the error; a read that returned
 * less than `want` sets out->ended_early instead (err 0, err_offset = the
 * bytes that arrived). */
int disk_time_cached(int fd, const struct disk_buf *b, size_t want, unsigned align,
		     double seconds, struct disk_timing *out);

/* hdparm -t method: read sequentially in DISK_REQ_BYTES requests from
 * `offset` until `seconds` have passed (checked after each read) or `end`
 * (bytes, the device size) is reached; the last request is shortened so
 * that it never passes `end`.  align > 1 (O_DIRECT) rounds a short last
 * request up to a multiple of align; offset must then be aligned.
 * Returns 0 with out filled, or -1 with out->err, out->err_offset and
 * out->bytes and out->seconds up to the failed read.  A read that returns
 * less than asked before `end` (end of file early: the file or device
 * shrank) is a failure too: -1 with out->ended_early set, err 0 and
 * err_offset where the data ended; no figure may be made of such a run. */
int disk_time_buffered(int fd, const struct disk_buf *b, uint64_t offset, uint64_t end,
		       unsigned align, double seconds, struct disk_timing *out);

#endif
