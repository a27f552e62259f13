/* kbench - the POSIX file backend's ops and its row (fileio_backend)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * One function per opcode, each the system calls dbench 4's fileio
 * backend makes for it, on the name fileio.c resolves (fileio.h):
 * a directory fd and a last component, never a path built per op.  Each
 * returns 0 or a positive errno (or BE_*) and sets *bytes only for the
 * bytes that count towards throughput.
 */
#include "config.h"
#include "load/backend/fileio/fileio.h"
#include "sys/textgroup.h"

#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <linux/magic.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <sys/xattr.h>
#include <time.h>

/* Write len bytes of buf at off, however many pwrite calls it takes.
 * Returns 0 or an errno (EIO for a write that took nothing). */
KB_CLIENT_TEXT
static int pwrite_all(int fd, const char *buf, size_t len, uint64_t off)
{
	size_t done = 0;
	while (done < len) {
		ssize_t n = pwrite(fd, buf + done, len - done, (off_t)(off + done));
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return errno;
		}
		if (n == 0)
			return EIO;
		done += (size_t)n;
	}
	return 0;
}

/* Give the open file fd the size op->off (OPF_SETSIZE), as dbench 1 did:
 * grow it by writing the data pattern, cut it with ftruncate.  These
 * writes are part of the open, not WriteX bytes. */
KB_CLIENT_TEXT
static int set_size(struct backend_ctx *c, int fd, const struct stat *st, const struct op *op)
{
	if (!S_ISREG(st->st_mode))
		return 0;
	uint64_t have = (uint64_t)st->st_size, want = op->off;
	if (want < have)
		return ftruncate(fd, (off_t)want) < 0 ? errno : 0;
	size_t chunk = c->prog->max_io < SETSIZE_CHUNK ? c->prog->max_io : SETSIZE_CHUNK;
	if (!chunk)
		return 0;
	for (; have < want; have += chunk) {
		size_t n = want - have < chunk ? (size_t)(want - have) : chunk;
		int e = pwrite_all(fd, c->iobuf, n, have);
		if (e)
			return e;
	}
	return 0;
}

KB_CLIENT_TEXT
static int fio_ntcreatex(struct backend_ctx *c, const struct op *op, uint64_t *bytes)
{
	int base = base1(c, op), fd;
	const char *path = path1(c, op);
	struct name n;
	(void)bytes;

	if (op->handle >= c->nhandles && op->handle != NO_HANDLE)
		return EBADF;
	int e = name1(c, op, &n);
	if (e)
		return e;
	if (op->open & OPEN_DIR) {
		if (op->open & OPEN_CREATES) {
			e = fio_name_mkdir(&n);
			if (e && e != EEXIST) {
				name_done(&n);
				return e;
			}
		}
		fd = fs_open_beneath(n.dfd, n.leaf, O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0);
	} else {
		int flags = O_RDWR | O_CLOEXEC | be_open_flags(op);
		if (c->opts->sync_open)
			flags |= O_SYNC;
		fd = fs_open_beneath(n.dfd, n.leaf, flags, 0600);
		if (fd < 0 && errno == EISDIR)
			fd = fs_open_beneath(n.dfd, n.leaf, O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0);
	}
	e = fd < 0 ? errno : 0;
	name_done(&n);
	if (fd < 0)
		return e;
	/* only files and directories are the load's: a device node or FIFO
	 * someone left in DIR is never written through (one fstat per open) */
	struct stat st;
	e = fstat(fd, &st) < 0 ? errno : 0;
	if (!e && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode))
		e = BE_ENOTREG;
	if (!e && (op->flags & OPF_SETSIZE))
		e = set_size(c, fd, &st, op);
	if (e) {
		close(fd);
		return e;
	}
	if (op->handle == NO_HANDLE) {
		close(fd);  /* an open that was meant to fail binds nothing */
		return 0;
	}
	if (FC(c)->fds[op->handle] >= 0)
		close(FC(c)->fds[op->handle]);
	FC(c)->fds[op->handle] = fd;
	int creates = (op->open & OPEN_CREATES) != 0;
	if (c->opts->xattr && creates)
		fio_dos_attr_set(fd, 0x20);  /* FILE_ATTRIBUTE_ARCHIVE */
	if (creates)
		return fio_sync_dirs(c, base, path);
	return 0;
}

KB_CLIENT_TEXT
static int fio_close(struct backend_ctx *c, const struct op *op, uint64_t *bytes)
{
	(void)bytes;
	int fd = handle_fd(c, op);
	if (fd < 0)
		return EBADF;
	FC(c)->fds[op->handle] = -1;
	return close(fd) < 0 ? errno : 0;
}

KB_CLIENT_TEXT
static int fio_rename(struct backend_ctx *c, const struct op *op, uint64_t *bytes)
{
	(void)bytes;
	const char *to = prog_path(c->prog, op->path2);
	struct name from, dest;
	int e = name1(c, op, &from);
	if (e)
		return e;
	e = name2(c, op, &dest);
	if (!e) {
		e = renameat(from.dfd, from.leaf, dest.dfd, dest.leaf) < 0 ? errno : 0;
		name_done(&dest);
	}
	name_done(&from);
	if (e)
		return e;
	fio_names_changed(c, op);
	return fio_sync_dirs(c, base2(c, op), to);
}

KB_CLIENT_TEXT
static int fio_unlink(struct backend_ctx *c, const struct op *op, uint64_t *bytes)
{
	(void)bytes;
	struct name n;
	int e = name1(c, op, &n);
	if (e)
		return e;
	e = unlinkat(n.dfd, n.leaf, 0) < 0 ? errno : 0;
	name_done(&n);
	return e ? e : fio_sync_dirs(c, base1(c, op), path1(c, op));
}

KB_CLIENT_TEXT
static int fio_deltree(struct backend_ctx *c, const struct op *op, uint64_t *bytes)
{
	(void)bytes;
	const char *path = path1(c, op);
	/* every directory fd the client holds may name what goes */
	fio_dircache_drop(c);
	/* the root of a tree stays (clients hold an fd on theirs) */
	return fs_remove_tree(base1(c, op), path, strcmp(path, ".") == 0, NULL);
}

KB_CLIENT_TEXT
static int fio_rmdir(struct backend_ctx *c, const struct op *op, uint64_t *bytes)
{
	(void)bytes;
	struct name n;
	int e = name1(c, op, &n);
	if (e)
		return e;
	e = unlinkat(n.dfd, n.leaf, AT_REMOVEDIR) < 0 ? errno : 0;
	name_done(&n);
	if (e)
		return e;
	fio_names_changed(c, op);
	return fio_sync_dirs(c, base1(c, op), path1(c, op));
}

KB_CLIENT_TEXT
static int fio_mkdir(struct backend_ctx *c, const struct op *op, uint64_t *bytes)
{
	(void)bytes;
	/* a directory that is already there is what the loadfile asked for:
	 * clients share DIR/clients, and dbench ignores EEXIST too */
	struct name n;
	int e = name1(c, op, &n);
	if (e)
		return e;
	e = fio_name_mkdir(&n);
	name_done(&n);
	if (e && e != EEXIST)
		return e;
	return fio_sync_dirs(c, base1(c, op), path1(c, op));
}

KB_CLIENT_TEXT
static int fio_qpathinfo(struct backend_ctx *c, const struct op *op, uint64_t *bytes)
{
	struct stat st;
	struct name n;
	(void)bytes;
	int e = name1(c, op, &n);
	if (e)
		return e;
	e = fio_leaf_stat(n.dfd, n.leaf, &st);
	if (!e && c->opts->xattr && (S_ISREG(st.st_mode) || S_ISDIR(st.st_mode))) {
		int fd = fs_open_beneath(n.dfd, n.leaf, O_RDONLY | O_NONBLOCK | O_CLOEXEC, 0);
		if (fd >= 0) {
			fio_dos_attr_get(fd);
			close(fd);
		}
	}
	name_done(&n);
	return e;
}

KB_CLIENT_TEXT
static int fio_qfileinfo(struct backend_ctx *c, const struct op *op, uint64_t *bytes)
{
	struct stat st;
	(void)bytes;
	int fd = handle_fd(c, op);
	if (fd < 0)
		return EBADF;
	if (fstat(fd, &st) < 0)
		return errno;
	if (c->opts->xattr)
		fio_dos_attr_get(fd);
	return 0;
}

KB_CLIENT_TEXT
static int fio_qfsinfo(struct backend_ctx *c, const struct op *op, uint64_t *bytes)
{
	struct statvfs sv;
	(void)op;
	(void)bytes;
	return fstatvfs(FC(c)->dirfd, &sv) < 0 ? errno : 0;
}

/* SET_FILE_INFORMATION on a path (dbench 1's SMBsetatr): the same
 * metadata write, by name. */
KB_CLIENT_TEXT
static int sfileinfo_path(struct backend_ctx *c, const struct op *op)
{
	struct stat st;
	struct name n;
	/* an O_PATH open resolves the name once, beneath the base and on its
	 * mount; the times are then set on what it found, not on a name
	 * that could meanwhile become a mount point */
	int e = name1(c, op, &n);
	if (e)
		return e;
	int fd = fs_open_beneath(n.dfd, n.leaf, O_PATH | O_CLOEXEC, 0);
	e = errno;
	name_done(&n);
	if (fd < 0)
		return e;
	int rc = 0;
	if (fstat(fd, &st) < 0) {
		rc = errno;
	} else {
		struct timespec ts[2] = { st.st_atim, st.st_mtim };
		if (utimensat(fd, "", ts, AT_EMPTY_PATH) < 0)
			rc = errno;
	}
	close(fd);
	return rc;
}

KB_CLIENT_TEXT
static int fio_sfileinfo(struct backend_ctx *c, const struct op *op, uint64_t *bytes)
{
	struct stat st;
	(void)bytes;
	if (op->flags & OPF_BYPATH)
		return sfileinfo_path(c, op);
	int fd = handle_fd(c, op);
	if (fd < 0)
		return EBADF;
	if (fstat(fd, &st) < 0)
		return errno;
	/* set the times to what they are: the metadata write a client's
	 * "set basic info" causes, without changing anything visible */
	struct timespec ts[2] = { st.st_atim, st.st_mtim };
	if (futimens(fd, ts) < 0)
		return errno;
	if (c->opts->xattr)
		fio_dos_attr_set(fd, 0x20);
	return 0;
}

/* name ends in tail (tail_len bytes), without regard to case (as
 * fnmatch's FNM_CASEFOLD in the C locale) */
KB_CLIENT_TEXT
static inline int ends_with(const char *name, const char *tail, size_t tail_len)
{
	if (!tail_len)
		return 1;
	size_t n = strlen(name);
	return n >= tail_len && strcasecmp(name + n - tail_len, tail) == 0;
}

/* FIND_FIRST: a plain name is a lookup; a pattern lists the directory
 * (at most maxcnt matches, as the request asks) and succeeds if anything
 * matches.  getdents64 into the client's buffer: no allocation. */
KB_CLIENT_TEXT
static int fio_find_first(struct backend_ctx *c, const struct op *op, uint64_t *bytes)
{
	struct stat st;
	struct name n;
	(void)bytes;
	if (!(op->flags & OPF_WILDCARD)) {
		int e = name1(c, op, &n);
		if (e)
			return e;
		e = fio_leaf_stat(n.dfd, n.leaf, &st);
		name_done(&n);
		return e;
	}

	const struct path_info *pi = prog_info(c->prog, op->path1);
	const char *pat = path1(c, op) + pi->leaf;
	int fd, owned = 0, fills = ((struct fileio_client *)c->priv)->fills;
	if (op->flags & OPF_SHARED1) {
		const char *dir = pi->dir ? prog_path(c->prog, c->prog->dirs[pi->dir]) : ".";
		fd = fs_open_beneath(c->rootfd, dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0);
		owned = 1;
	} else {
		/* a cached fd is read from its start */
		fd = tree_dir(c, pi->dir, &owned);
		if (fd >= 0 && lseek(fd, 0, SEEK_SET) < 0) {
			int e = errno;
			if (owned)
				close(fd);
			return e;
		}
	}
	if (fd < 0)
		return errno;
	uint32_t matches = 0, maxcnt = op->arg ? op->arg : UINT32_MAX;
	int err = 0;
	/* the two shapes loadfiles use most are matched without fnmatch, to
	 * the same result: "*" (every name) and "*" before a plain tail
	 * ("*.jnk": names that end in it, without regard to case) */
	const char *tail = NULL;
	size_t tail_len = 0;
	if (pat[0] == '*' && (pat[1] == '\0' || !strpbrk(pat + 1, "*?[\\"))) {
		tail = pat + 1;
		tail_len = strlen(tail);
	}
	while (matches < maxcnt) {
		long got = syscall(SYS_getdents64, fd, FC(c)->dentbuf, (size_t)DENTBUF);
		if (got < 0) {
			err = errno;
			break;
		}
		if (got == 0)
			break;
		for (long at = 0; at < got && matches < maxcnt;) {
			struct fs_dirent64 *de = (struct fs_dirent64 *)(FC(c)->dentbuf + at);
			if (tail ? ends_with(de->d_name, tail, tail_len) :
				   fnmatch(pat, de->d_name, FNM_CASEFOLD) == 0)
				matches++;
			at += de->d_reclen;
		}
		if (fills && (size_t)DENTBUF - (size_t)got >= DIRENT_MAX)
			break;  /* the directory's end: the next call returns 0 */
	}
	if (owned)
		close(fd);
	if (err)
		return err;
	return matches ? 0 : ENOENT;
}

KB_CLIENT_TEXT
static int fio_writex(struct backend_ctx *c, const struct op *op, uint64_t *bytes)
{
	int fd = handle_fd(c, op);
	if (fd < 0)
		return EBADF;
	int e = pwrite_all(fd, c->iobuf, op->len, op->off);
	if (e)
		return e;
	if (c->opts->fsync_write && fsync(fd) < 0)
		return errno;
	return be_write_done(op, bytes);
}

KB_CLIENT_TEXT
static int fio_readx(struct backend_ctx *c, const struct op *op, uint64_t *bytes)
{
	int fd = handle_fd(c, op);
	if (fd < 0)
		return EBADF;
	ssize_t n;
	do
		n = pread(fd, c->iobuf, op->len, (off_t)op->off);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return errno;
	/* a read that ends as expected counts what it read, its ret_size:
	 * dbench counts the requested size, the same for every line whose
	 * ret_size is its size (all of dbench's client.txt), but a line that
	 * expects less would count bytes no read moved */
	return be_read_done(op, (uint64_t)n, bytes);
}

KB_CLIENT_TEXT
static int lock_range(const struct backend_ctx *c, const struct op *op, short type)
{
	int fd = handle_fd(c, op);
	if (fd < 0)
		return EBADF;
	struct flock fl;
	memset(&fl, 0, sizeof(fl));
	fl.l_type = type;
	fl.l_whence = SEEK_SET;
	fl.l_start = (off_t)op->off;
	fl.l_len = (off_t)(((uint64_t)op->arg << 32) | op->len);
	return fcntl(fd, F_SETLK, &fl) < 0 ? errno : 0;
}

KB_CLIENT_TEXT
static int fio_lockx(struct backend_ctx *c, const struct op *op, uint64_t *bytes)
{
	(void)bytes;
	return lock_range(c, op, F_WRLCK);
}

KB_CLIENT_TEXT
static int fio_unlockx(struct backend_ctx *c, const struct op *op, uint64_t *bytes)
{
	(void)bytes;
	return lock_range(c, op, F_UNLCK);
}

KB_CLIENT_TEXT
static int fio_flush(struct backend_ctx *c, const struct op *op, uint64_t *bytes)
{
	(void)bytes;
	int fd = handle_fd(c, op);
	if (fd < 0)
		return EBADF;
	return fsync(fd) < 0 ? errno : 0;
}

const struct backend fileio_backend = {
	.name = "fileio",
	.help = "files in a local directory (-D), dbench's default",
	.flags = BACKEND_LOCAL,
	.client_open = fio_client_open,
	.close_all = fio_close_all,
	.client_close = fio_client_close,
	.op = {
		[OP_NTCREATEX] = fio_ntcreatex,
		[OP_CLOSE] = fio_close,
		[OP_RENAME] = fio_rename,
		[OP_UNLINK] = fio_unlink,
		[OP_DELTREE] = fio_deltree,
		[OP_RMDIR] = fio_rmdir,
		[OP_MKDIR] = fio_mkdir,
		[OP_QPATHINFO] = fio_qpathinfo,
		[OP_QFILEINFO] = fio_qfileinfo,
		[OP_QFSINFO] = fio_qfsinfo,
		[OP_SFILEINFO] = fio_sfileinfo,
		[OP_FIND_FIRST] = fio_find_first,
		[OP_WRITEX] = fio_writex,
		[OP_READX] = fio_readx,
		[OP_LOCKX] = fio_lockx,
		[OP_UNLOCKX] = fio_unlockx,
		[OP_FLUSH] = fio_flush,
	},
};
