/* kbench - micro: BYTE's file tests (File Copy, Read, Write)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * File Copy|Read|Write B bufsize M maxblocks (byte_fcopy_B, byte_fread_B,
 *   byte_fwrite_B; KBps, KB = 1024 bytes): UnixBench's fstime method: a
 *   file of M x 1024 bytes in the temporary directory; write: write B-byte
 *   buffers, rewinding at M KB; read: read it back in B-byte buffers,
 *   rewinding at its end; copy: read B bytes from it and write them to a
 *   second file, rewinding both at the end.  The read and copy files are
 *   written and synced before the timer starts.  The files are unlinked
 *   as soon as they are open.  B/M: 1024/2000, 256/500, 4096/8000.
 *
 * Files are made in opts->tmpdir only and never outlive the copy that
 * opened them (unlinked at once); a full file system while the test file
 * is written skips the test (SETUP_ERR) rather than failing it.
 */
#include "config.h"
#include "micro/byte/byte_tests.h"
#include "micro/harness.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

/* ---- File Copy / Read / Write ---- */

struct fs_state {
	int f, g;               /* source (or the written file), copy target */
	char *buf;
	size_t bufsize;
	off_t fsize;            /* maxblocks x 1024 bytes */
};

/* Open a new file in dir and unlink it at once: nothing is left behind
 * whatever happens to the process. */
static int anon_file(const char *dir, int idx, char *err, size_t errlen)
{
	char path[PATH_MAX];
	if (snprintf(path, sizeof path, "%s/byte-fs-%ld-%d", dir, (long)getpid(), idx) >=
	    (int)sizeof path)
		return ERR("temporary directory path too long");
	int fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0)
		return ERR("%s: %s", path, strerror(errno));
	unlink(path);
	return fd;
}

static void fs_cleanup(void *state)
{
	struct fs_state *s = state;
	if (!s)
		return;
	if (s->f >= 0)
		close(s->f);
	if (s->g >= 0)
		close(s->g);
	free(s->buf);
	free(s);
}

static int fs_setup(const void *arg, const struct micro_opts *o, void **state, char *err,
		    size_t errlen)
{
	const struct byte_arg *a = arg;
	enum fs_mode mode = (enum fs_mode)a->p1;
	struct fs_state *s = calloc(1, sizeof *s);
	if (!s)
		return ERR("out of memory");
	s->f = s->g = -1;
	s->bufsize = (size_t)a->p2;
	s->fsize = (off_t)a->p3 * 1024;
	*state = s;
	if (!o->tmpdir)
		return ERR("no temporary directory");
	s->buf = aligned_alloc(4096, 8192);
	if (!s->buf)
		return ERR("out of memory");
	for (size_t i = 0; i < s->bufsize; i++)
		s->buf[i] = (char)(i & 0xff);
	s->f = anon_file(o->tmpdir, 0, err, errlen);
	if (s->f < 0)
		return -1;
	if (mode == FS_COPY) {
		s->g = anon_file(o->tmpdir, 1, err, errlen);
		if (s->g < 0)
			return -1;
	}
	if (mode == FS_WRITE)
		return 0;
	/* the file to read: written once, synced, read once (fstime's priming) */
	for (off_t pos = 0; pos < s->fsize; pos += (off_t)s->bufsize)
		if (micro_write_all(s->f, s->buf, s->bufsize))
			return SETUP_ERR(errno, "writing the test file: %s",
					 strerror(errno));
	if (fsync(s->f))
		return ERR("fsync: %s", strerror(errno));
	if (lseek(s->f, 0, SEEK_SET) < 0)
		return ERR("lseek: %s", strerror(errno));
	for (;;) {
		ssize_t got = read(s->f, s->buf, s->bufsize);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0)
			return ERR("reading the test file: %s", strerror(errno));
		if (got == 0)
			break;
	}
	if (lseek(s->f, 0, SEEK_SET) < 0)
		return ERR("lseek: %s", strerror(errno));
	return 0;
}

static int fs_body(void *state, const void *arg, volatile sig_atomic_t *stop, double *amount,
		   char *err, size_t errlen)
{
	const struct byte_arg *a = arg;
	struct fs_state *s = state;
	enum fs_mode mode = (enum fs_mode)a->p1;
	unsigned long long bytes = 0;
	off_t pos = 0;

	do {
		if (mode == FS_WRITE) {
			if (micro_write_all(s->f, s->buf, s->bufsize))
				return ERR("write: %s", strerror(errno));
			bytes += s->bufsize;
			pos += (off_t)s->bufsize;
			if (pos >= s->fsize) {
				if (lseek(s->f, 0, SEEK_SET) < 0)
					return ERR("lseek: %s", strerror(errno));
				pos = 0;
			}
			continue;
		}
		ssize_t got = read(s->f, s->buf, s->bufsize);
		if (got < 0) {
			if (errno == EINTR)
				continue;
			return ERR("read: %s", strerror(errno));
		}
		if ((size_t)got < s->bufsize) {         /* end of the file: rewind */
			if (mode == FS_READ)
				bytes += (unsigned long long)got;
			if (lseek(s->f, 0, SEEK_SET) < 0 ||
			    (mode == FS_COPY && lseek(s->g, 0, SEEK_SET) < 0))
				return ERR("lseek: %s", strerror(errno));
			continue;
		}
		if (mode == FS_COPY && micro_write_all(s->g, s->buf, s->bufsize))
			return ERR("write: %s", strerror(errno));
		bytes += s->bufsize;
	} while (!*stop);
	*amount = (double)bytes / 1024.0;
	return 0;
}

const struct fixed_ops byte_fs_ops = { fs_setup, fs_body, fs_cleanup };
