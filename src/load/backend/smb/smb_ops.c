/* kbench - -B smb: the ops over libsmbclient, and the backend's row
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#ifdef HAVE_LIBSMBCLIENT

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/time.h>
#include <unistd.h>
#include "load/backend/smb/smb_int.h"

/* The URL of op's first path, in sc->u1: in the client's tree, or in DIR
 * for a shared one.  Returns url_of's. */
static int url_path1(struct smb_client *sc, const struct backend_ctx *c, const struct op *op)
{
	return smb_url_of(sc, sc->u1, (op->flags & OPF_SHARED1) != 0, prog_path(c->prog, op->path1));
}

static struct smb_handle *handle_of(struct backend_ctx *c, const struct op *op)
{
	struct smb_client *sc = SC(c);
	if (op->handle >= c->nhandles || !sc->h[op->handle].open)
		return NULL;
	return &sc->h[op->handle];
}

/* ---- the ops ---- */

/* Write len bytes of c's pattern at off.  Returns 0 or an errno. */
static int write_at(struct backend_ctx *c, SMBCFILE *f, uint64_t off, size_t len)
{
	struct smb_client *sc = SC(c);
	errno = 0;
	if (sc->lseek(sc->x, f, (off_t)off, SEEK_SET) < 0)
		return smb_fail(c);
	ssize_t n = sc->write(sc->x, f, c->iobuf, len);
	if (n < 0)
		return smb_fail(c);
	return (size_t)n == len ? 0 : EIO;
}

/* OPF_SETSIZE, as fileio.c: grow the file by writing, cut it by truncating. */
static int set_size(struct backend_ctx *c, SMBCFILE *f, const struct op *op)
{
	struct smb_client *sc = SC(c);
	struct stat st;
	errno = 0;
	if (sc->fstat(sc->x, f, &st) < 0)
		return smb_fail(c);
	uint64_t have = (uint64_t)st.st_size, want = op->off;
	if (want < have)
		return sc->ftruncate(sc->x, f, (off_t)want) < 0 ? smb_fail(c) : 0;
	size_t chunk = c->prog->max_io < SETSIZE_CHUNK ? c->prog->max_io : SETSIZE_CHUNK;
	for (; chunk && have < want; have += chunk) {
		size_t n = want - have < chunk ? (size_t)(want - have) : chunk;
		int e = write_at(c, f, have, n);
		if (e)
			return e;
	}
	return 0;
}

static int smb_ntcreatex(struct backend_ctx *c, const struct op *op, uint64_t *bytes)
{
	struct smb_client *sc = SC(c);
	int shared = (op->flags & OPF_SHARED1) != 0;
	SMBCFILE *f = NULL;
	struct stat st;
	(void)bytes;

	if (op->handle >= c->nhandles && op->handle != NO_HANDLE)
		return EBADF;
	int e = smb_url_of(sc, sc->u1, shared, prog_path(c->prog, op->path1));
	if (e)
		return e;
	errno = 0;
	if (op->open & OPEN_DIR) {
		/* a directory: made if the disposition creates, then looked
		 * up; it holds no handle on the server (libsmbclient opens
		 * directories only to list them) */
		if ((op->open & OPEN_CREATES) && sc->mkdir(sc->x, sc->u1, 0777) < 0 && errno != EEXIST)
			return smb_fail(c);
		errno = 0;
		if (sc->stat(sc->x, sc->u1, &st) < 0)
			return smb_fail(c);
		if (!S_ISDIR(st.st_mode))
			return ENOTDIR;
	} else {
		/* fileio's (and dbench's) flags: libsmbclient sends FILE_OPEN_IF
		 * for O_CREAT, FILE_OVERWRITE_IF for O_CREAT|O_TRUNC */
		int flags = O_RDWR | be_open_flags(op);
		f = sc->open(sc->x, sc->u1, flags, 0600);
		if (!f) {
			if (errno != EISDIR)
				return smb_fail(c);
			errno = 0;
			if (sc->stat(sc->x, sc->u1, &st) < 0)
				return smb_fail(c);
		}
		if (f && (op->flags & OPF_SETSIZE)) {
			e = set_size(c, f, op);
			if (e) {
				sc->close(sc->x, f);
				return e;
			}
		}
	}
	if (op->handle == NO_HANDLE) {
		if (f)
			sc->close(sc->x, f);  /* an open meant to fail binds nothing */
		return 0;
	}
	struct smb_handle *h = &sc->h[op->handle];
	if (h->open)
		smb_unbind(sc, h);
	h->f = f;
	h->path = op->path1;
	h->shared = (uint8_t)shared;
	h->open = 1;
	return 0;
}

static int smb_close(struct backend_ctx *c, const struct op *op, uint64_t *bytes)
{
	struct smb_client *sc = SC(c);
	(void)bytes;
	struct smb_handle *h = handle_of(c, op);
	if (!h)
		return EBADF;
	SMBCFILE *f = h->f;
	h->f = NULL;
	h->open = 0;
	errno = 0;
	return f && sc->close(sc->x, f) < 0 ? smb_fail(c) : 0;
}

static int smb_rename(struct backend_ctx *c, const struct op *op, uint64_t *bytes)
{
	struct smb_client *sc = SC(c);
	(void)bytes;
	int e = url_path1(sc, c, op);
	if (!e)
		e = smb_url_of(sc, sc->u2, (op->flags & OPF_SHARED2) != 0, prog_path(c->prog, op->path2));
	if (e)
		return e;
	errno = 0;
	return sc->rename(sc->x, sc->u1, sc->x, sc->u2) < 0 ? smb_fail(c) : 0;
}

static int smb_unlink(struct backend_ctx *c, const struct op *op, uint64_t *bytes)
{
	struct smb_client *sc = SC(c);
	(void)bytes;
	int e = url_path1(sc, c, op);
	if (e)
		return e;
	errno = 0;
	return sc->unlink(sc->x, sc->u1) < 0 ? smb_fail(c) : 0;
}

static int smb_deltree(struct backend_ctx *c, const struct op *op, uint64_t *bytes)
{
	struct smb_client *sc = SC(c);
	(void)bytes;
	const char *path = prog_path(c->prog, op->path1);
	int e = smb_url_of(sc, sc->u1, (op->flags & OPF_SHARED1) != 0, path);
	if (e)
		return e;
	int dead = 0;
	/* the root of a tree stays, as with fileio */
	e = smb_tree_rm(sc->x, NULL, sc->u1, strlen(sc->u1), strcmp(path, ".") == 0, &dead,
			NULL);
	if (dead)
		c->dead = 1;
	return e;
}

static int smb_rmdir(struct backend_ctx *c, const struct op *op, uint64_t *bytes)
{
	struct smb_client *sc = SC(c);
	(void)bytes;
	int e = url_path1(sc, c, op);
	if (e)
		return e;
	errno = 0;
	return sc->rmdir(sc->x, sc->u1) < 0 ? smb_fail(c) : 0;
}

static int smb_mkdir(struct backend_ctx *c, const struct op *op, uint64_t *bytes)
{
	struct smb_client *sc = SC(c);
	struct stat st;
	(void)bytes;
	int e = url_path1(sc, c, op);
	if (e)
		return e;
	errno = 0;
	if (sc->mkdir(sc->x, sc->u1, 0777) == 0)
		return 0;
	if (errno != EEXIST)
		return smb_fail(c);
	/* "already exists" is what was asked for only if it is a directory */
	errno = 0;
	if (sc->stat(sc->x, sc->u1, &st) < 0)
		return smb_fail(c);
	return S_ISDIR(st.st_mode) ? 0 : ENOTDIR;
}

static int smb_qpathinfo(struct backend_ctx *c, const struct op *op, uint64_t *bytes)
{
	struct smb_client *sc = SC(c);
	struct stat st;
	(void)bytes;
	int e = url_path1(sc, c, op);
	if (e)
		return e;
	errno = 0;
	return sc->stat(sc->x, sc->u1, &st) < 0 ? smb_fail(c) : 0;
}

/* The path a handle was opened by, as a URL in u1. */
static int handle_url(struct backend_ctx *c, const struct smb_handle *h)
{
	struct smb_client *sc = SC(c);
	return smb_url_of(sc, sc->u1, h->shared, prog_path(c->prog, h->path));
}

static int smb_qfileinfo(struct backend_ctx *c, const struct op *op, uint64_t *bytes)
{
	struct smb_client *sc = SC(c);
	struct stat st;
	(void)bytes;
	struct smb_handle *h = handle_of(c, op);
	if (!h)
		return EBADF;
	errno = 0;
	if (h->f)
		return sc->fstat(sc->x, h->f, &st) < 0 ? smb_fail(c) : 0;
	int e = handle_url(c, h);  /* a directory: by its path */
	if (e)
		return e;
	return sc->stat(sc->x, sc->u1, &st) < 0 ? smb_fail(c) : 0;
}

static int smb_qfsinfo(struct backend_ctx *c, const struct op *op, uint64_t *bytes)
{
	struct smb_client *sc = SC(c);
	struct statvfs sv;
	(void)op;
	(void)bytes;
	errno = 0;
	return sc->fstatvfs(sc->x, sc->treedir, &sv) < 0 ? smb_fail(c) : 0;
}

/* Set the times of u1 to what st says they are: the metadata write of a
 * client's "set basic info", nothing visible changed. */
static int set_times(struct backend_ctx *c, const struct stat *st)
{
	struct smb_client *sc = SC(c);
	struct timeval tv[2] = {
		{ st->st_atim.tv_sec, st->st_atim.tv_nsec / 1000 },
		{ st->st_mtim.tv_sec, st->st_mtim.tv_nsec / 1000 },
	};
	errno = 0;
	return sc->utimes(sc->x, sc->u1, tv) < 0 ? smb_fail(c) : 0;
}

static int smb_sfileinfo(struct backend_ctx *c, const struct op *op, uint64_t *bytes)
{
	struct smb_client *sc = SC(c);
	struct stat st;
	int e;
	(void)bytes;
	errno = 0;
	if (op->flags & OPF_BYPATH) {
		e = url_path1(sc, c, op);
		if (e)
			return e;
		if (sc->stat(sc->x, sc->u1, &st) < 0)
			return smb_fail(c);
		return set_times(c, &st);
	}
	struct smb_handle *h = handle_of(c, op);
	if (!h)
		return EBADF;
	e = handle_url(c, h);
	if (e)
		return e;
	/* libsmbclient sets times by path only */
	if (h->f ? sc->fstat(sc->x, h->f, &st) < 0 : sc->stat(sc->x, sc->u1, &st) < 0)
		return smb_fail(c);
	return set_times(c, &st);
}

/* FIND_FIRST, as fileio.c: a plain name is a lookup; a pattern lists the
 * directory and succeeds if at most maxcnt names counted match. */
static int smb_find_first(struct backend_ctx *c, const struct op *op, uint64_t *bytes)
{
	struct smb_client *sc = SC(c);
	struct stat st;
	(void)bytes;
	const char *path = prog_path(c->prog, op->path1);
	int shared = (op->flags & OPF_SHARED1) != 0;
	int e;
	if (!(op->flags & OPF_WILDCARD)) {
		e = smb_url_of(sc, sc->u1, shared, path);
		if (e)
			return e;
		errno = 0;
		return sc->stat(sc->x, sc->u1, &st) < 0 ? smb_fail(c) : 0;
	}
	const char *slash = strrchr(path, '/');
	const char *pat = slash ? slash + 1 : path;
	size_t len = shared ? sc->root_len : sc->tree_len;
	memcpy(sc->u1, shared ? sc->root : sc->tree, len + 1);
	if (slash) {
		size_t dl = (size_t)(slash - path);
		if (dl + 1 >= sizeof(sc->u2))
			return ENAMETOOLONG;
		memcpy(sc->u2, path, dl);
		sc->u2[dl] = '\0';
		sc->u1[len++] = '/';
		sc->u1[len] = '\0';
		e = smb_url_append(sc->u1, &len, sc->u2);
		if (e)
			return e;
	}
	errno = 0;
	SMBCFILE *d = sc->opendir(sc->x, sc->u1);
	if (!d)
		return smb_fail(c);
	uint32_t matches = 0, maxcnt = op->arg ? op->arg : UINT32_MAX;
	struct smbc_dirent *de;
	while (matches < maxcnt && (de = sc->readdir(sc->x, d)))
		if (fnmatch(pat, de->name, FNM_CASEFOLD) == 0)
			matches++;
	sc->closedir(sc->x, d);
	return matches ? 0 : ENOENT;
}

static int smb_writex(struct backend_ctx *c, const struct op *op, uint64_t *bytes)
{
	struct smb_handle *h = handle_of(c, op);
	if (!h || !h->f)
		return EBADF;
	int e = write_at(c, h->f, op->off, op->len);
	if (e)
		return e;
	return be_write_done(op, bytes);
}

static int smb_readx(struct backend_ctx *c, const struct op *op, uint64_t *bytes)
{
	struct smb_client *sc = SC(c);
	struct smb_handle *h = handle_of(c, op);
	if (!h || !h->f)
		return EBADF;
	errno = 0;
	if (sc->lseek(sc->x, h->f, (off_t)op->off, SEEK_SET) < 0)
		return smb_fail(c);
	ssize_t n = sc->read(sc->x, h->f, c->iobuf, op->len);
	if (n < 0)
		return smb_fail(c);
	return be_read_done(op, (uint64_t)n, bytes);
}

const struct backend smb_backend = {
	SMB_BACKEND_ROW,
	.check = smb_check,
	.endpoint = smb_endpoint,
	.prepare = smb_prepare,
	.client_open = smb_client_open,
	.close_all = smb_close_all,
	.client_close = smb_client_close,
	.cleanup = smb_cleanup,
	.release = smb_release,
	.describe = smb_describe,
	.op = {
		[OP_NTCREATEX] = smb_ntcreatex,
		[OP_CLOSE] = smb_close,
		[OP_RENAME] = smb_rename,
		[OP_UNLINK] = smb_unlink,
		[OP_DELTREE] = smb_deltree,
		[OP_RMDIR] = smb_rmdir,
		[OP_MKDIR] = smb_mkdir,
		[OP_QPATHINFO] = smb_qpathinfo,
		[OP_QFILEINFO] = smb_qfileinfo,
		[OP_QFSINFO] = smb_qfsinfo,
		[OP_SFILEINFO] = smb_sfileinfo,
		[OP_FIND_FIRST] = smb_find_first,
		[OP_WRITEX] = smb_writex,
		[OP_READX] = smb_readx,
		/* libsmbclient has no byte-range locks, and no fsync (SMB2
		 * FLUSH): counted as unsupported */
		[OP_LOCKX] = backend_refuse,
		[OP_UNLOCKX] = backend_refuse,
		[OP_FLUSH] = backend_refuse,
	},
};

#endif /* HAVE_LIBSMBCLIENT */
