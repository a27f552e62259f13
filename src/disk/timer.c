/* kbench - hdparm's read-timing methods (-T cached reads, -t device reads)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * One run of each test, in order (disk.c's run_once() makes the calls):
 *
 *   -T  flush the cache (disk_flush: sync, fsync, BLKFLSBUF); pause
 *       DISK_CACHED_PAUSE (1 s); then lseek to 0 + read 2 MiB + clock,
 *       again and again until 2 s have passed (the first read fetches the
 *       data and is counted); then as many lseek + clock without the read,
 *       whose time is subtracted.
 *   -t  flush the cache and (without O_DIRECT) check with mincore() that
 *       it took; pause DISK_BUFFERED_PAUSE (3 s); then read 2 MiB + clock,
 *       sequentially from the offset, until 3 s have passed or the end is
 *       reached.
 *
 * This is the hdparm -T and hdparm -t method as hdparm 9.65 runs it (seen
 * in its system calls): -T is sync, 3 s sleep, one untimed read, the
 * flush (sync, fsync, fdatasync, sync, BLKFLSBUF, an empty HDIO_DRIVE_CMD),
 * 1 s sleep, then the two loops above; -t is sync, 3 s sleep, then the
 * reads above, and the flush only after them.  The pauses are kept
 * because they change what is measured: the timed reads start on an idle
 * device and machine, and on a VM a read right after other I/O was seen
 * to run twice as fast as after 3 s of idling.  kbench departs from
 * hdparm where hdparm misleads: it flushes right before -t (hdparm reads
 * whatever the last flush left cached) and says when the flush did not
 * take.  It leaves out what changes nothing measured: -T's first sync,
 * sleep and read (the flush that follows undoes them), fdatasync (it
 * concerns writes; kbench never writes) and HDIO_DRIVE_CMD (a wait for
 * the old IDE driver's queue, refused by every other device).
 *
 * The loops are kept as bare as hdparm's: one read, the touch, one clock
 * read per iteration.  For -T the cost of everything but the read (lseek,
 * the clock read, the loop) is measured separately and subtracted, as
 * hdparm does, because at memory speed it is not negligible.
 */
#include "config.h"
#include "disk/timer.h"
#include "sys/clock.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

static volatile unsigned char sink;

/* Read one byte every DISK_TOUCH_STRIDE bytes of what arrived. */
static void touch(const unsigned char *p, size_t n)
{
	unsigned char acc = 0;
	for (size_t i = 0; i < n; i += DISK_TOUCH_STRIDE)
		acc ^= p[i];
	sink = acc;
}

int disk_buf_init(struct disk_buf *b)
{
	long pg = sysconf(_SC_PAGESIZE);
	memset(b, 0, sizeof(*b));
	void *p = mmap(NULL, DISK_REQ_BYTES, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return -1;
	b->p = p;
	for (size_t i = 0; i < DISK_REQ_BYTES; i += (size_t)pg)
		b->p[i] = 1;
	if (mlock(b->p, DISK_REQ_BYTES) == 0)
		b->locked = 1;
	else
		b->lock_errno = errno;
	return 0;
}

void disk_buf_free(struct disk_buf *b)
{
	if (b->p) {
		if (b->locked)
			munlock(b->p, DISK_REQ_BYTES);
		munmap(b->p, DISK_REQ_BYTES);
	}
	b->p = NULL;
	b->locked = 0;
}

/* The test suite's knob, not the user's (HACKING.md): the environment
 * variable KBENCH_TEST_PAUSE_SCALE, a number from 0 to 1, scales the idle
 * pauses so that make check does not spend its time asleep.  Unset, or
 * anything else, the pauses are the method's own. */
static double pause_scale(void)
{
	const char *s = getenv("KBENCH_TEST_PAUSE_SCALE");
	char *end;
	if (!s || !*s)
		return 1;
	errno = 0;
	double v = strtod(s, &end);
	if (errno || *end || !(v >= 0 && v <= 1))
		return 1;
	return v;
}

double disk_pause_seconds(unsigned seconds)
{
	return (double)seconds * pause_scale();
}

void disk_pause(unsigned seconds)
{
	double s = disk_pause_seconds(seconds);
	struct timespec ts = { (time_t)s, (long)((s - (double)(time_t)s) * 1e9) };
	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

static size_t round_up(size_t n, unsigned align)
{
	return align > 1 ? (n + align - 1) / align * align : n;
}

/* read() until want bytes arrived, EOF or an error.  With O_DIRECT
 * (align > 1) the request is rounded up and a short answer means EOF.
 * Returns the bytes read, or -1 with errno. */
static ssize_t read_full(int fd, unsigned char *buf, size_t want, unsigned align)
{
	if (align > 1) {
		ssize_t r;
		do
			r = read(fd, buf, round_up(want, align));
		while (r < 0 && errno == EINTR);
		return r < 0 ? -1 : (size_t)r > want ? (ssize_t)want : r;
	}
	size_t got = 0;
	while (got < want) {
		ssize_t r = read(fd, buf + got, want - got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -1;
		if (r == 0)
			break;
		got += (size_t)r;
	}
	return (ssize_t)got;
}

int disk_time_cached(int fd, const struct disk_buf *b, size_t want, unsigned align,
		     double seconds, struct disk_timing *out)
{
	memset(out, 0, sizeof(*out));
	if (want > DISK_REQ_BYTES)
		want = DISK_REQ_BYTES;
	uint64_t n = 0;
	double start = kb_now_s(), t;
	do {
		n++;
		if (lseek(fd, 0, SEEK_SET) < 0)
			goto fail;
		ssize_t r = read_full(fd, b->p, want, align);
		if (r < 0)
			goto fail;
		if ((size_t)r != want) {
			out->ended_early = 1;   /* the file is shorter than it was */
			out->err_offset = (uint64_t)r;
			errno = 0;
			goto fail;
		}
		touch(b->p, want);
		t = kb_now_s();
	} while (t - start < seconds);
	out->iterations = n;
	out->bytes = n * want;
	out->loop_seconds = t - start;

	/* the same loop without the read: what it costs by itself */
	double s2 = kb_now_s(), t2 = s2;
	for (uint64_t i = 0; i < n; i++) {
		if (lseek(fd, 0, SEEK_SET) < 0)
			goto fail;
		t2 = kb_now_s();
		if (t2 - s2 < 0)
			sink = 0;
	}
	out->overhead_seconds = t2 - s2;
	out->seconds = out->loop_seconds - out->overhead_seconds;
	if (!(out->seconds > 0)) {
		out->err = ERANGE;
		return -1;
	}
	return 0;
fail:
	out->err = errno;
	out->iterations = n;
	out->bytes = (n - 1) * want;
	if (!out->ended_early)
		out->err_offset = 0;
	out->seconds = kb_now_s() - start;
	return -1;
}

int disk_time_buffered(int fd, const struct disk_buf *b, uint64_t offset, uint64_t end,
		       unsigned align, double seconds, struct disk_timing *out)
{
	memset(out, 0, sizeof(*out));
	uint64_t pos = offset;
	double start = kb_now_s(), t = start;
	if (lseek(fd, (off_t)offset, SEEK_SET) < 0) {
		out->err = errno;
		out->err_offset = offset;
		return -1;
	}
	while (pos < end) {
		size_t want = end - pos < DISK_REQ_BYTES ? (size_t)(end - pos) : DISK_REQ_BYTES;
		ssize_t r = read_full(fd, b->p, want, align);
		out->iterations++;
		if (r < 0) {
			out->err = errno;
			out->err_offset = pos;
			out->seconds = kb_now_s() - start;
			return -1;
		}
		touch(b->p, (size_t)r);
		t = kb_now_s();
		pos += (uint64_t)r;
		out->bytes += (uint64_t)r;
		if ((size_t)r < want) {
			/* end of file before the size measured at the start:
			 * the file shrank, and a figure over what was read
			 * would look like a normal one */
			out->ended_early = 1;
			out->err_offset = pos;
			out->seconds = t - start;
			return -1;
		}
		if (t - start >= seconds)
			break;
	}
	out->seconds = t - start;
	out->at_end = pos >= end;
	return 0;
}
