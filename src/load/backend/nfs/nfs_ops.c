/* kbench - -B nfs: the ops over libnfs, and the backend's row
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#ifdef HAVE_LIBNFS

#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>
#include "sys/clock.h"
#include "load/backend/nfs/nfs_int.h"

static int path1(struct backend_ctx *c, const struct op *op)
{
	struct nfs_client *nc = c->priv;
	return kbnfs_path_of(nc, nc->p1, (op->flags & OPF_SHARED1) != 0, op->path1, c);
}

/* Write len bytes of buf at off through fh, however many calls it takes. */
static int write_all(struct backend_ctx *c, struct nfsfh *fh, const char *buf,
		     size_t len, uint64_t off)
{
	struct nfs_client *nc = c->priv;
	size_t done = 0;
	while (done < len) {
		int n = libnfs.nfs_pwrite(nc->nfs, fh, off + done, len - done, buf + done);
		if (n < 0)
			return kbnfs_fail(c, n);
		if (n == 0)
			return EIO;
		done += (size_t)n;
	}
	return 0;
}

/* OPF_SETSIZE: grow the file by writing the data pattern, or cut it
 * (SETATTR size), as fileio.c does. */
static int set_size(struct backend_ctx *c, struct nfsfh *fh, uint64_t have, uint64_t want)
{
	struct nfs_client *nc = c->priv;
	if (want < have) {
		int r = libnfs.nfs_ftruncate(nc->nfs, fh, want);
		return r < 0 ? kbnfs_fail(c, r) : 0;
	}
	size_t chunk = c->prog->max_io < SETSIZE_CHUNK ? c->prog->max_io : SETSIZE_CHUNK;
	if (!chunk)
		return 0;
	for (; have < want; have += chunk) {
		size_t n = want - have < chunk ? (size_t)(want - have) : chunk;
		int e = write_all(c, fh, c->iobuf, n, have);
		if (e)
			return e;
	}
	return 0;
}

/* A directory at path: 0, ENOTDIR, or the lookup's error. */
int kbnfs_is_dir(struct backend_ctx *c, const char *path)
{
	struct nfs_client *nc = c->priv;
	struct nfs_stat_64 st;
	int r = libnfs.nfs_stat64(nc->nfs, path, &st);
	if (r < 0)
		return kbnfs_fail(c, r);
	return S_ISDIR(st.nfs_mode) ? 0 : ENOTDIR;
}

static int kbnfs_ntcreatex(struct backend_ctx *c, const struct op *op, uint64_t *bytes)
{
	struct nfs_client *nc = c->priv;
	struct nfsfh *fh = NULL;
	int isdir = 0, r, e;
	(void)bytes;

	if (op->handle >= c->nhandles && op->handle != NO_HANDLE)
		return EBADF;
	if ((e = path1(c, op)))
		return e;
	if (op->open & OPEN_DIR) {
		if (op->open & OPEN_CREATES) {
			r = libnfs.nfs_mkdir2(nc->nfs, nc->p1, 0777);
			if (r < 0 && r != -EEXIST)
				return kbnfs_fail(c, r);
		}
		if ((e = kbnfs_is_dir(c, nc->p1)))
			return e;
		isdir = 1;
	} else {
		int flags = O_RDWR | be_open_flags(op);
		if (c->opts->sync_open)
			flags |= O_SYNC;
		r = libnfs.nfs_open2(nc->nfs, nc->p1, flags, 0600, &fh);
		if (r == -EISDIR || r == -EEXIST) {
			/* a directory: its open fails (EISDIR), or its CREATE
			 * does (EEXIST); fileio opens it as a directory then */
			if ((e = kbnfs_is_dir(c, nc->p1)))
				return e == ENOTDIR ? kbnfs_fail(c, r) : e;
			isdir = 1;
			fh = NULL;
		} else if (r < 0) {
			return kbnfs_fail(c, r);
		}
	}
	if (fh) {
		/* only files and directories are the load's (one GETATTR) */
		struct nfs_stat_64 st;
		r = libnfs.nfs_fstat64(nc->nfs, fh, &st);
		e = r < 0 ? kbnfs_fail(c, r) : 0;
		if (!e && S_ISDIR(st.nfs_mode)) {
			/* NFSv3 "opens" a directory: it is used by its path */
			if (!c->dead)
				libnfs.nfs_close(nc->nfs, fh);
			fh = NULL;
			isdir = 1;
		} else if (!e && !S_ISREG(st.nfs_mode)) {
			e = BE_ENOTREG;
		} else if (!e && (op->flags & OPF_SETSIZE)) {
			e = set_size(c, fh, st.nfs_size, op->off);
		}
		if (e) {
			if (!c->dead)
				libnfs.nfs_close(nc->nfs, fh);
			return e;
		}
	}
	if (op->handle == NO_HANDLE) {
		if (fh && (r = libnfs.nfs_close(nc->nfs, fh)) < 0)
			return kbnfs_fail(c, r);
		return 0;  /* an open that was meant to fail binds nothing */
	}
	struct nfs_handle *h = &nc->h[op->handle];
	if (h->open && h->fh) {
		if (h->locks)
			kbnfs_nlm_unlock_all(c, h);
		if (!c->dead)
			libnfs.nfs_close(nc->nfs, h->fh);
	}
	h->locks = 0;
	h->fh = fh;
	h->path = op->path1;
	h->shared = (op->flags & OPF_SHARED1) != 0;
	h->isdir = (uint8_t)isdir;
	h->open = 1;
	return 0;
}

static int kbnfs_close(struct backend_ctx *c, const struct op *op, uint64_t *bytes)
{
	struct nfs_client *nc = c->priv;
	struct nfs_handle *h = kbnfs_handle(c, op);
	(void)bytes;
	if (!h)
		return EBADF;
	h->open = 0;
	if (!h->fh)
		return 0;  /* a directory: nothing was open on the server */
	int e = h->locks ? kbnfs_nlm_unlock_all(c, h) : 0;
	if (c->dead) {
		h->fh = NULL;  /* left to the process's end */
		return e;
	}
	int r = libnfs.nfs_close(nc->nfs, h->fh);
	h->fh = NULL;
	return r < 0 ? kbnfs_fail(c, r) : e;
}

static int kbnfs_rename(struct backend_ctx *c, const struct op *op, uint64_t *bytes)
{
	struct nfs_client *nc = c->priv;
	int e;
	(void)bytes;
	if ((e = path1(c, op)) || (e = kbnfs_path_of(nc, nc->p2, (op->flags & OPF_SHARED2) != 0, op->path2, c)))
		return e;
	int r = libnfs.nfs_rename(nc->nfs, nc->p1, nc->p2);
	return r < 0 ? kbnfs_fail(c, r) : 0;
}

static int kbnfs_unlink(struct backend_ctx *c, const struct op *op, uint64_t *bytes)
{
	struct nfs_client *nc = c->priv;
	int e;
	(void)bytes;
	if ((e = path1(c, op)))
		return e;
	int r = libnfs.nfs_unlink(nc->nfs, nc->p1);
	return r < 0 ? kbnfs_fail(c, r) : 0;
}

static int kbnfs_rmdir(struct backend_ctx *c, const struct op *op, uint64_t *bytes)
{
	struct nfs_client *nc = c->priv;
	int e;
	(void)bytes;
	if ((e = path1(c, op)))
		return e;
	int r = libnfs.nfs_rmdir(nc->nfs, nc->p1);
	return r < 0 ? kbnfs_fail(c, r) : 0;
}

static int kbnfs_mkdir(struct backend_ctx *c, const struct op *op, uint64_t *bytes)
{
	struct nfs_client *nc = c->priv;
	int e;
	(void)bytes;
	if ((e = path1(c, op)))
		return e;
	int r = libnfs.nfs_mkdir2(nc->nfs, nc->p1, 0777);
	/* a directory already there is what the loadfile asked for (as
	 * fileio); something else there is not */
	if (r == -EEXIST)
		return kbnfs_is_dir(c, nc->p1);
	return r < 0 ? kbnfs_fail(c, r) : 0;
}

static int kbnfs_deltree(struct backend_ctx *c, const struct op *op, uint64_t *bytes)
{
	struct nfs_client *nc = c->priv;
	int e;
	(void)bytes;
	if ((e = path1(c, op)))
		return e;
	const char *rel = prog_path(c->prog, op->path1);
	size_t len = strlen(nc->p1);
	if (len == 1 && nc->p1[0] == '/')
		len = 0;
	memcpy(nc->work, nc->p1, len + 1);
	/* the root of a tree stays, as fileio */
	static const struct rm_links remove_links = { NULL, NULL, 0 };
	int r = kbnfs_rm_tree(nc->nfs, nc->work, len, strcmp(rel, ".") == 0, &remove_links);
	return r < 0 ? kbnfs_fail(c, r) : 0;
}

static int kbnfs_qpathinfo(struct backend_ctx *c, const struct op *op, uint64_t *bytes)
{
	struct nfs_client *nc = c->priv;
	struct nfs_stat_64 st;
	int e;
	(void)bytes;
	if ((e = path1(c, op)))
		return e;
	int r = libnfs.nfs_lstat64(nc->nfs, nc->p1, &st);
	return r < 0 ? kbnfs_fail(c, r) : 0;
}

/* The attributes of what handle h names: GETATTR of the file, or of the
 * directory by its path. */
static int handle_stat(struct backend_ctx *c, const struct nfs_handle *h, struct nfs_stat_64 *st)
{
	struct nfs_client *nc = c->priv;
	int r, e;
	if (h->fh) {
		r = libnfs.nfs_fstat64(nc->nfs, h->fh, st);
	} else {
		if ((e = kbnfs_path_of(nc, nc->p2, h->shared, h->path, c)))
			return e;
		r = libnfs.nfs_stat64(nc->nfs, nc->p2, st);
	}
	return r < 0 ? kbnfs_fail(c, r) : 0;
}

static int kbnfs_qfileinfo(struct backend_ctx *c, const struct op *op, uint64_t *bytes)
{
	struct nfs_stat_64 st;
	struct nfs_handle *h = kbnfs_handle(c, op);
	(void)bytes;
	if (!h)
		return EBADF;
	return handle_stat(c, h, &st);
}

static int kbnfs_qfsinfo(struct backend_ctx *c, const struct op *op, uint64_t *bytes)
{
	struct nfs_client *nc = c->priv;
	struct nfs_statvfs_64 sv;
	(void)op;
	(void)bytes;
	int r = libnfs.nfs_statvfs64(nc->nfs, nc->tree, &sv);
	return r < 0 ? kbnfs_fail(c, r) : 0;
}

/* Set the times of path to what st says they are: SETATTR, the metadata
 * write a client's "set basic info" causes, nothing visible changed
 * (microseconds: what libnfs's utimes carries). */
static int set_times(struct backend_ctx *c, const char *path, const struct nfs_stat_64 *st)
{
	struct nfs_client *nc = c->priv;
	struct timeval tv[2] = {
		{ .tv_sec = (time_t)st->nfs_atime, .tv_usec = (suseconds_t)(st->nfs_atime_nsec / 1000) },
		{ .tv_sec = (time_t)st->nfs_mtime, .tv_usec = (suseconds_t)(st->nfs_mtime_nsec / 1000) },
	};
	int r = libnfs.nfs_utimes(nc->nfs, path, tv);
	return r < 0 ? kbnfs_fail(c, r) : 0;
}

static int kbnfs_sfileinfo(struct backend_ctx *c, const struct op *op, uint64_t *bytes)
{
	struct nfs_client *nc = c->priv;
	struct nfs_stat_64 st;
	int e, r;
	(void)bytes;
	if (op->flags & OPF_BYPATH) {
		if ((e = path1(c, op)))
			return e;
		r = libnfs.nfs_stat64(nc->nfs, nc->p1, &st);
		if (r < 0)
			return kbnfs_fail(c, r);
		return set_times(c, nc->p1, &st);
	}
	struct nfs_handle *h = kbnfs_handle(c, op);
	if (!h)
		return EBADF;
	if ((e = handle_stat(c, h, &st)))
		return e;
	/* libnfs sets times by path only: the path the handle was opened by */
	if ((e = kbnfs_path_of(nc, nc->p2, h->shared, h->path, c)))
		return e;
	return set_times(c, nc->p2, &st);
}

/* FIND_FIRST: a plain name is a lookup; a pattern lists the directory
 * (READDIRPLUS, libnfs's directory cache off) and succeeds if anything
 * matches, counting at most maxcnt matches, as fileio. */
static int kbnfs_find_first(struct backend_ctx *c, const struct op *op, uint64_t *bytes)
{
	struct nfs_client *nc = c->priv;
	struct nfs_stat_64 st;
	int e, r;
	(void)bytes;
	if ((e = path1(c, op)))
		return e;
	if (!(op->flags & OPF_WILDCARD)) {
		r = libnfs.nfs_lstat64(nc->nfs, nc->p1, &st);
		return r < 0 ? kbnfs_fail(c, r) : 0;
	}
	/* p1 is BASE/[DIR/]PATTERN: the pattern is after the last '/' */
	char *slash = strrchr(nc->p1, '/');
	const char *pat = slash + 1;
	memcpy(nc->p2, nc->p1, (size_t)(slash - nc->p1));
	nc->p2[slash - nc->p1] = '\0';
	struct nfsdir *d;
	r = libnfs.nfs_opendir(nc->nfs, nc->p2[0] ? nc->p2 : "/", &d);
	if (r < 0)
		return kbnfs_fail(c, r);
	uint32_t matches = 0, maxcnt = op->arg ? op->arg : UINT32_MAX;
	struct nfsdirent *de;
	while (matches < maxcnt && (de = libnfs.nfs_readdir(nc->nfs, d)))
		if (fnmatch(pat, de->name, FNM_CASEFOLD) == 0)
			matches++;
	libnfs.nfs_closedir(nc->nfs, d);
	return matches ? 0 : ENOENT;
}

static int kbnfs_writex(struct backend_ctx *c, const struct op *op, uint64_t *bytes)
{
	struct nfs_client *nc = c->priv;
	struct nfs_handle *h = kbnfs_handle(c, op);
	if (!h)
		return EBADF;
	if (!h->fh)
		return EBADF;  /* a directory, opened read-only (as fileio) */
	int e = write_all(c, h->fh, c->iobuf, op->len, op->off);
	if (e)
		return e;
	if (c->opts->fsync_write) {
		int r = libnfs.nfs_fsync(nc->nfs, h->fh);
		if (r < 0)
			return kbnfs_fail(c, r);
	}
	return be_write_done(op, bytes);
}

static int kbnfs_readx(struct backend_ctx *c, const struct op *op, uint64_t *bytes)
{
	struct nfs_client *nc = c->priv;
	struct nfs_handle *h = kbnfs_handle(c, op);
	if (!h)
		return EBADF;
	if (!h->fh)
		return EISDIR;
	int n = libnfs.nfs_pread(nc->nfs, h->fh, op->off, op->len, c->iobuf);
	if (n < 0)
		return kbnfs_fail(c, n);
	return be_read_done(op, (uint64_t)n, bytes);
}

static int kbnfs_flush(struct backend_ctx *c, const struct op *op, uint64_t *bytes)
{
	struct nfs_client *nc = c->priv;
	struct nfs_handle *h = kbnfs_handle(c, op);
	(void)bytes;
	if (!h)
		return EBADF;
	if (!h->fh)
		return 0;  /* a directory: NFS servers commit namespace changes
			    * before they reply; there is nothing to send */
	int r = libnfs.nfs_fsync(nc->nfs, h->fh);
	return r < 0 ? kbnfs_fail(c, r) : 0;
}

const struct backend nfs_backend = {
	NFS_BACKEND_ROW,
	.check = nfs_check,
	.endpoint = nfs_endpoint,
	.prepare = nfs_prepare,
	.client_open = nfs_client_open,
	.close_all = nfs_close_all,
	.client_close = nfs_client_close,
	.cleanup = nfs_cleanup,
	.release = nfs_release,
	.describe = nfs_describe,
	.op = {
		[OP_NTCREATEX] = kbnfs_ntcreatex,
		[OP_CLOSE] = kbnfs_close,
		[OP_RENAME] = kbnfs_rename,
		[OP_UNLINK] = kbnfs_unlink,
		[OP_DELTREE] = kbnfs_deltree,
		[OP_RMDIR] = kbnfs_rmdir,
		[OP_MKDIR] = kbnfs_mkdir,
		[OP_QPATHINFO] = kbnfs_qpathinfo,
		[OP_QFILEINFO] = kbnfs_qfileinfo,
		[OP_QFSINFO] = kbnfs_qfsinfo,
		[OP_SFILEINFO] = kbnfs_sfileinfo,
		[OP_FIND_FIRST] = kbnfs_find_first,
		[OP_WRITEX] = kbnfs_writex,
		[OP_READX] = kbnfs_readx,
		[OP_LOCKX] = kbnfs_lockx,
		[OP_UNLOCKX] = kbnfs_unlockx,
		[OP_FLUSH] = kbnfs_flush,
	},
};

#endif /* HAVE_LIBNFS */
