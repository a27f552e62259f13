/* kbench - the device or file that kbench disk times
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Opening (read-only, always), sizing, flushing the buffer cache and
 * checking that the flush took.  Nothing here writes to the device: the
 * descriptor is O_RDONLY and the only mapping is PROT_READ.
 */
#ifndef KBENCH_DISK_DEVICE_H
#define KBENCH_DISK_DEVICE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct disk_target {
	const char *path;     /* as given on the command line */
	int fd;               /* O_RDONLY (| O_DIRECT with --direct), or -1 */
	int is_blk;           /* 1: block device; 0: regular file */
	uint64_t size;        /* bytes: BLKGETSIZE64, or st_size for a file */
	unsigned align;       /* O_DIRECT alignment of offsets and lengths,
			       * bytes: BLKSSZGET for a device, 4096 for a file */
	int loop_buffered;    /* 1: a loop device not in direct-I/O mode, whose
			       * backing file stays in the host page cache */
	char backing[4096];   /* a loop device's backing file (sysfs
			       * loop/backing_file), or "" */
	uint64_t backing_offset; /* where the device starts in it, bytes
				  * (sysfs loop/offset) */
	int64_t first_hole;   /* set by the caller from disk_first_hole() before
			       * any timing (a file's SEEK_HOLE moves its offset) */
};

/* Open path for timing: O_RDONLY, plus O_DIRECT if direct.  Accepts a
 * block device or a non-empty regular file; finds its size and O_DIRECT
 * alignment.  Returns 0 with t filled, or -1 after printing one line
 * "cmd: path: what is wrong; what to do" on err (not found, permission
 * denied, a directory, a character device, a FIFO or socket, empty,
 * O_DIRECT not supported, size unknown).  Never blocks on a FIFO. */
int disk_open(struct disk_target *t, const char *path, int direct, const char *cmd, FILE *err);

/* The size of t as it is now, read the way disk_open() read it
 * (BLKGETSIZE64 on a block device, fstat()'s st_size on a file), in
 * bytes in *bytes: a run compares it with t->size to see whether the
 * device or file changed size while it was read.  Returns 0, or -1 with
 * errno set (the device went away, for instance). */
int disk_size_now(const struct disk_target *t, uint64_t *bytes);

/* Close t's descriptor (safe to call twice). */
void disk_close(struct disk_target *t);

/* Flush the buffer cache for t, as hdparm does before timing: sync(),
 * fsync(fd), then ioctl BLKFLSBUF on a block device (needs
 * CAP_SYS_ADMIN) or posix_fadvise(POSIX_FADV_DONTNEED) on a regular file.
 * A loop device in buffered mode reads its backing file through the
 * host's page cache, which BLKFLSBUF leaves alone: that file's pages are
 * dropped too (posix_fadvise DONTNEED on t->backing), or a -t run would
 * time them (a run in a small memory cgroup after one that read the
 * whole file did, at memory speed).
 * Returns 0 if every step succeeded, or -1 with the step that failed and
 * its reason in why (whylen bytes); the data may then still be cached. */
int disk_flush(const struct disk_target *t, char *why, size_t whylen);

/* Share of the pages of [off, off + len) of t that are in the page cache,
 * in percent (0 to 100), from mincore() on a read-only mapping; at most
 * DISK_RESIDENCY_WINDOW bytes from off are looked at.  Returns -1 if it
 * cannot tell (mapping refused). */
#define DISK_RESIDENCY_WINDOW (256u << 20)
double disk_cached_pct(const struct disk_target *t, uint64_t off, uint64_t len);

/* The same share for the pages of a buffered loop device's backing file
 * that hold [off, off + len) of the device (t->backing_offset added), in
 * percent; 0 when t is not such a device; -1 if it cannot tell (the file
 * cannot be opened or mapped). */
double disk_backing_cached_pct(const struct disk_target *t, uint64_t off, uint64_t len);

/* Where the data that a read of t from off would come from first has a
 * hole: a regular file's own, or a loop device's backing file's (a sparse
 * file, as `truncate -s` makes; a hole is read as zeros from no disk at
 * memory speed).  Returns the offset of the first hole at or after off
 * within the next len bytes, as an offset of t, or -1 when there is none
 * there or it cannot tell (SEEK_HOLE not supported, the file cannot be
 * opened). */
int64_t disk_first_hole(const struct disk_target *t, uint64_t off, uint64_t len);

#endif
