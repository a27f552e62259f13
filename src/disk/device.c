/* kbench - the device or file that kbench disk times
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The path is checked with stat() first so the common mistakes get a
 * plain message, then opened with O_NONBLOCK (a FIFO put there in between
 * cannot hang us) and checked again with fstat() on what was opened.
 */
#include "config.h"
#include "disk/device.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#define LOOP_MAJOR_NUMBER 7
#define FILE_DIRECT_ALIGN 4096u

static int open_error(const char *cmd, const char *path, int e, int direct, FILE *err)
{
	switch (e) {
	case ENOENT:
		fprintf(err, "%s: %s: no such file or device; check the path (lsblk lists block devices)\n",
			cmd, path);
		break;
	case EACCES:
	case EPERM:
		fprintf(err, "%s: %s: permission denied; run as root or get read access to it\n",
			cmd, path);
		break;
	case EINVAL:
		if (direct) {
			fprintf(err, "%s: %s: O_DIRECT is not supported here; run without --direct\n",
				cmd, path);
			break;
		}
		/* fall through */
	case ENXIO:
	case ENODEV:
	case ENOMEDIUM:
		fprintf(err, "%s: %s: cannot open: %s; is the device present?\n", cmd, path,
			strerror(e));
		break;
	default:
		fprintf(err, "%s: %s: cannot open: %s\n", cmd, path, strerror(e));
		break;
	}
	return -1;
}

/* 1 if mode is something we time; else print why not and return 0. */
static int type_ok(const char *cmd, const char *path, mode_t mode, FILE *err)
{
	if (S_ISBLK(mode) || S_ISREG(mode))
		return 1;
	const char *what = S_ISDIR(mode) ? "a directory" :
			   S_ISCHR(mode) ? "a character device" :
			   S_ISFIFO(mode) ? "a FIFO" :
			   S_ISSOCK(mode) ? "a socket" : "not a block device or a regular file";
	fprintf(err, "%s: %s: is %s; give a block device (e.g. /dev/sda) or a regular file\n",
		cmd, path, what);
	return 0;
}

/* A loop device reads its backing file through the host page cache unless
 * it was set up with direct I/O (/sys/dev/block/M:N/loop/dio is 1). */
static int is_buffered_loop(dev_t rdev)
{
	if (major(rdev) != LOOP_MAJOR_NUMBER)
		return 0;
	char p[96], c = 0;
	snprintf(p, sizeof(p), "/sys/dev/block/%u:%u/loop/dio", major(rdev), minor(rdev));
	FILE *f = fopen(p, "re");
	if (!f)
		return 0;
	int n = fread(&c, 1, 1, f);
	fclose(f);
	return n == 1 && c == '0';
}

/* A loop device's backing file and offset from sysfs into t (both left
 * empty when unknown). */
static void loop_backing(struct disk_target *t, dev_t rdev)
{
	char p[96], off[32] = "";
	snprintf(p, sizeof(p), "/sys/dev/block/%u:%u/loop/backing_file", major(rdev), minor(rdev));
	FILE *f = fopen(p, "re");
	if (f) {
		if (!fgets(t->backing, sizeof(t->backing), f))
			t->backing[0] = 0;
		t->backing[strcspn(t->backing, "\n")] = 0;
		fclose(f);
	}
	snprintf(p, sizeof(p), "/sys/dev/block/%u:%u/loop/offset", major(rdev), minor(rdev));
	if ((f = fopen(p, "re"))) {
		if (fgets(off, sizeof(off), f))
			t->backing_offset = strtoull(off, NULL, 10);
		fclose(f);
	}
}

int disk_open(struct disk_target *t, const char *path, int direct, const char *cmd, FILE *err)
{
	struct stat st;
	memset(t, 0, sizeof(*t));
	t->path = path;
	t->fd = -1;
	if (stat(path, &st) < 0)
		return open_error(cmd, path, errno, 0, err);
	if (!type_ok(cmd, path, st.st_mode, err))
		return -1;
	int flags = O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC | (direct ? O_DIRECT : 0);
	int fd = open(path, flags);
	if (fd < 0)
		return open_error(cmd, path, errno, direct, err);
	t->fd = fd;
	if (fstat(fd, &st) < 0) {
		fprintf(err, "%s: %s: cannot stat: %s\n", cmd, path, strerror(errno));
		goto fail;
	}
	if (!type_ok(cmd, path, st.st_mode, err))
		goto fail;
	int fl = fcntl(fd, F_GETFL);
	if (fl < 0 || fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) < 0) {
		fprintf(err, "%s: %s: fcntl: %s\n", cmd, path, strerror(errno));
		goto fail;
	}
	if (S_ISBLK(st.st_mode)) {
		uint64_t bytes;
		int lbs = 0;
		t->is_blk = 1;
		if (ioctl(fd, BLKGETSIZE64, &bytes) < 0) {
			fprintf(err, "%s: %s: cannot get the device size (BLKGETSIZE64): %s\n", cmd,
				path, strerror(errno));
			goto fail;
		}
		t->size = bytes;
		t->align = ioctl(fd, BLKSSZGET, &lbs) == 0 && lbs > 0 ? (unsigned)lbs : 512;
		t->loop_buffered = is_buffered_loop(st.st_rdev);
		if (major(st.st_rdev) == LOOP_MAJOR_NUMBER)
			loop_backing(t, st.st_rdev);
	} else {
		t->size = (uint64_t)st.st_size;
		t->align = FILE_DIRECT_ALIGN;
	}
	if (t->size == 0) {
		fprintf(err, "%s: %s: is empty (0 bytes): nothing to read; give a device or file with data\n",
			cmd, path);
		goto fail;
	}
	return 0;
fail:
	disk_close(t);
	return -1;
}

int disk_size_now(const struct disk_target *t, uint64_t *bytes)
{
	if (t->is_blk)
		return ioctl(t->fd, BLKGETSIZE64, bytes) < 0 ? -1 : 0;
	struct stat st;
	if (fstat(t->fd, &st) < 0)
		return -1;
	*bytes = (uint64_t)st.st_size;
	return 0;
}

void disk_close(struct disk_target *t)
{
	if (t->fd >= 0)
		close(t->fd);
	t->fd = -1;
}

int disk_flush(const struct disk_target *t, char *why, size_t whylen)
{
	sync();
	if (fsync(t->fd) < 0 && errno != EINVAL) {
		snprintf(why, whylen, "fsync: %s", strerror(errno));
		return -1;
	}
	if (t->is_blk) {
		if (ioctl(t->fd, BLKFLSBUF, 0) < 0) {
			int e = errno;
			snprintf(why, whylen, "BLKFLSBUF: %s%s", strerror(e),
				 e == EACCES || e == EPERM ? " (needs CAP_SYS_ADMIN: run as root)" : "");
			return -1;
		}
	} else {
		int e = posix_fadvise(t->fd, 0, 0, POSIX_FADV_DONTNEED);
		if (e) {
			snprintf(why, whylen, "posix_fadvise(DONTNEED): %s", strerror(e));
			return -1;
		}
	}
	if (t->loop_buffered) {
		if (!t->backing[0]) {
			snprintf(why, whylen, "the loop device's backing file is unknown (no "
				 "loop/backing_file in sysfs), so its pages in the page cache stay");
			return -1;
		}
		int bfd = open(t->backing, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
		int e = bfd < 0 ? errno : posix_fadvise(bfd, 0, 0, POSIX_FADV_DONTNEED);
		if (bfd >= 0)
			close(bfd);
		if (e) {
			snprintf(why, whylen, "the loop device's backing file %s: %s: %s", t->backing,
				 bfd < 0 ? "open" : "posix_fadvise(DONTNEED)", strerror(e));
			return -1;
		}
	}
	return 0;
}

/* The share of [off, off + len) of fd's pages in the page cache (len
 * already bounded by the caller), percent, or -1. */
static double resident_pct(int fd, uint64_t off, uint64_t len)
{
	uint64_t pg = (uint64_t)sysconf(_SC_PAGESIZE);
	uint64_t start = off - off % pg;
	size_t maplen = (size_t)(off + len - start);
	if (maplen == 0)
		return 0;
	void *p = mmap(NULL, maplen, PROT_READ, MAP_SHARED, fd, (off_t)start);
	if (p == MAP_FAILED)
		return -1;
	size_t pages = (maplen + pg - 1) / pg, cached = 0;
	unsigned char *vec = malloc(pages);
	double pct = -1;
	if (vec && mincore(p, maplen, vec) == 0) {
		for (size_t i = 0; i < pages; i++)
			cached += vec[i] & 1;
		pct = 100.0 * (double)cached / (double)pages;
	}
	free(vec);
	munmap(p, maplen);
	return pct;
}

/* len bounded by the window and the end of t, from off (< t->size). */
static uint64_t window(const struct disk_target *t, uint64_t off, uint64_t len)
{
	if (len > DISK_RESIDENCY_WINDOW)
		len = DISK_RESIDENCY_WINDOW;
	return len > t->size - off ? t->size - off : len;
}

double disk_cached_pct(const struct disk_target *t, uint64_t off, uint64_t len)
{
	if (off >= t->size)
		return 0;
	return resident_pct(t->fd, off, window(t, off, len));
}

double disk_backing_cached_pct(const struct disk_target *t, uint64_t off, uint64_t len)
{
	if (!t->loop_buffered || off >= t->size)
		return 0;
	int fd = t->backing[0] ? open(t->backing, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK) : -1;
	if (fd < 0)
		return -1;
	double pct = resident_pct(fd, t->backing_offset + off, window(t, off, len));
	close(fd);
	return pct;
}

int64_t disk_first_hole(const struct disk_target *t, uint64_t off, uint64_t len)
{
	int fd = t->fd, own = 0;
	uint64_t base = 0;
	if (off >= t->size)
		return -1;
	if (len > t->size - off)
		len = t->size - off;
	if (t->is_blk) {
		if (!t->backing[0])
			return -1;
		if ((fd = open(t->backing, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK)) < 0)
			return -1;
		own = 1;
		base = t->backing_offset;
	}
	off_t h = lseek(fd, (off_t)(base + off), SEEK_HOLE);
	if (own)
		close(fd);
	if (h < 0 || (uint64_t)h < base + off || (uint64_t)h - base >= off + len)
		return -1;
	return (int64_t)((uint64_t)h - base);
}
