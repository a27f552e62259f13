/* kbench - the POSIX file backend (dbench's "fileio" semantics)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Each op maps onto the system calls dbench 4's fileio backend makes, but
 * relative to the client's directory fd (or the run directory for shared
 * paths), so no path is built per op and none can leave the run
 * directory.  Loadfile names were folded to lower case when parsed, which
 * gives the case-insensitive namespace an SMB server has without the
 * per-lookup directory scans dbench does.
 */
#include "config.h"
#include "load/backend.h"
#include "sys/fsutil.h"

#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <stdio.h>
#include <limits.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>

/* NTCreateX create_options and dispositions (MS-SMB) */
#define FILE_DIRECTORY_FILE 0x0001
#define FILE_CREATE 2
#define FILE_OVERWRITE 4
#define FILE_OVERWRITE_IF 5

#define DOS_ATTR_NAME "user.DosAttrib"

static inline int base1(const struct backend_ctx *c, const struct op *op)
{
	return (op->flags & OPF_SHARED1) ? c->rootfd : c->dirfd;
}

static inline int base2(const struct backend_ctx *c, const struct op *op)
{
	return (op->flags & OPF_SHARED2) ? c->rootfd : c->dirfd;
}

static inline const char *path1(const struct backend_ctx *c, const struct op *op)
{
	return prog_path(c->prog, op->path1);
}

static inline int handle_fd(const struct backend_ctx *c, const struct op *op)
{
	return op->handle < c->nhandles ? c->fds[op->handle] : -1;
}

static int sync_dirs(const struct backend_ctx *c, int base, const char *path)
{
	return c->opts->sync_dirs ? fs_sync_parent(base, path) : 0;
}

static void dos_attr_set(int fd, uint32_t attr)
{
	/* dbench keeps the DOS attribute word in a user xattr; a filesystem
	 * without user xattrs simply does not get them (as with dbench) */
	(void)fsetxattr(fd, DOS_ATTR_NAME, &attr, sizeof(attr), 0);
}

static void dos_attr_get(int fd)
{
	uint32_t attr;
	(void)fgetxattr(fd, DOS_ATTR_NAME, &attr, sizeof(attr));
}

/* lstat of the last component; a mount point there is another mount's
 * root, which no op may look into (EXDEV).  "." is the base itself. */
static int leaf_stat(int dfd, const char *leaf, struct stat *st)
{
	int mnt;
	if (fs_stat_entry(dfd, leaf, st, &mnt) < 0)
		return errno;
	return mnt && strcmp(leaf, ".") != 0 ? EXDEV : 0;
}

/* Namespace calls on a path's last component, in its parent directory
 * opened with fs_parent_beneath(): a symbolic link in the middle of a
 * path can never lead the call out of the run directory. */
static int at_unlink(int base, const char *path, int flags)
{
	const char *leaf;
	int owned, dfd = fs_parent_beneath(base, path, &leaf, &owned);
	if (dfd < 0)
		return errno;
	int rc = unlinkat(dfd, leaf, flags) < 0 ? errno : 0;
	if (owned)
		close(dfd);
	return rc;
}

static int at_mkdir(int base, const char *path)
{
	const char *leaf;
	struct stat st;
	int owned, dfd = fs_parent_beneath(base, path, &leaf, &owned);
	if (dfd < 0)
		return errno;
	int rc = mkdirat(dfd, leaf, 0777) < 0 ? errno : 0;
	/* "already exists" is only what was asked for if it is a directory
	 * of this mount */
	if (rc == EEXIST) {
		int e = leaf_stat(dfd, leaf, &st);
		if (e == EXDEV || (!e && !S_ISDIR(st.st_mode)))
			rc = e ? e : ENOTDIR;
	}
	if (owned)
		close(dfd);
	return rc;
}

static int at_stat(int base, const char *path, struct stat *st)
{
	const char *leaf;
	int owned, dfd = fs_parent_beneath(base, path, &leaf, &owned);
	if (dfd < 0)
		return errno;
	int rc = leaf_stat(dfd, leaf, st);
	if (owned)
		close(dfd);
	return rc;
}

static int at_rename(int base1, const char *from, int base2, const char *to)
{
	const char *leaf1, *leaf2;
	int owned1, owned2 = 0, rc;
	int d1 = fs_parent_beneath(base1, from, &leaf1, &owned1);
	if (d1 < 0)
		return errno;
	int d2 = fs_parent_beneath(base2, to, &leaf2, &owned2);
	if (d2 < 0)
		rc = errno;
	else
		rc = renameat(d1, leaf1, d2, leaf2) < 0 ? errno : 0;
	if (owned1)
		close(d1);
	if (owned2)
		close(d2);
	return rc;
}

/* Write len bytes of buf at off, however many pwrite calls it takes.
 * Returns 0 or an errno (EIO for a write that took nothing). */
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

static int do_ntcreatex(struct backend_ctx *c, const struct op *op, uint64_t *bytes)
{
	int base = base1(c, op), fd;
	const char *path = path1(c, op);
	int creates = op->aux == FILE_CREATE || op->aux == FILE_OVERWRITE ||
		      op->aux == FILE_OVERWRITE_IF;
	(void)bytes;

	if (op->handle >= c->nhandles && op->handle != NO_HANDLE)
		return EBADF;
	if (op->arg & FILE_DIRECTORY_FILE) {
		if (creates) {
			int e = at_mkdir(base, path);
			if (e && e != EEXIST)
				return e;
		}
		fd = fs_open_beneath(base, path, O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0);
	} else {
		int flags = O_RDWR | O_CLOEXEC;
		if (op->aux == FILE_CREATE || (op->flags & OPF_OPEN_IF))
			flags |= O_CREAT;
		else if (op->aux == FILE_OVERWRITE || op->aux == FILE_OVERWRITE_IF)
			flags |= O_CREAT | O_TRUNC;
		if (c->opts->sync_open)
			flags |= O_SYNC;
		fd = fs_open_beneath(base, path, flags, 0600);
		if (fd < 0 && errno == EISDIR)
			fd = fs_open_beneath(base, path, O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0);
	}
	if (fd < 0)
		return errno;
	/* only files and directories are the load's: a device node or FIFO
	 * someone left in DIR is never written through (one fstat per open) */
	struct stat st;
	int e = fstat(fd, &st) < 0 ? errno : 0;
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
	if (c->fds[op->handle] >= 0)
		close(c->fds[op->handle]);
	c->fds[op->handle] = fd;
	if (c->opts->xattr && creates)
		dos_attr_set(fd, 0x20);  /* FILE_ATTRIBUTE_ARCHIVE */
	if (creates)
		return sync_dirs(c, base, path);
	return 0;
}

static int do_close(struct backend_ctx *c, const struct op *op, uint64_t *bytes)
{
	(void)bytes;
	int fd = handle_fd(c, op);
	if (fd < 0)
		return EBADF;
	c->fds[op->handle] = -1;
	return close(fd) < 0 ? errno : 0;
}

static int do_rename(struct backend_ctx *c, const struct op *op, uint64_t *bytes)
{
	(void)bytes;
	const char *to = prog_path(c->prog, op->path2);
	int e = at_rename(base1(c, op), path1(c, op), base2(c, op), to);
	return e ? e : sync_dirs(c, base2(c, op), to);
}

static int do_unlink(struct backend_ctx *c, const struct op *op, uint64_t *bytes)
{
	(void)bytes;
	int e = at_unlink(base1(c, op), path1(c, op), 0);
	return e ? e : sync_dirs(c, base1(c, op), path1(c, op));
}

static int do_deltree(struct backend_ctx *c, const struct op *op, uint64_t *bytes)
{
	(void)bytes;
	const char *path = path1(c, op);
	/* the root of a tree stays (clients hold an fd on theirs) */
	return fs_remove_tree(base1(c, op), path, strcmp(path, ".") == 0, NULL);
}

static int do_rmdir(struct backend_ctx *c, const struct op *op, uint64_t *bytes)
{
	(void)bytes;
	int e = at_unlink(base1(c, op), path1(c, op), AT_REMOVEDIR);
	return e ? e : sync_dirs(c, base1(c, op), path1(c, op));
}

static int do_mkdir(struct backend_ctx *c, const struct op *op, uint64_t *bytes)
{
	(void)bytes;
	/* a directory that is already there is what the loadfile asked for:
	 * clients share DIR/clients, and dbench ignores EEXIST too */
	int e = at_mkdir(base1(c, op), path1(c, op));
	if (e && e != EEXIST)
		return e;
	return sync_dirs(c, base1(c, op), path1(c, op));
}

static int do_qpathinfo(struct backend_ctx *c, const struct op *op, uint64_t *bytes)
{
	struct stat st;
	(void)bytes;
	int e = at_stat(base1(c, op), path1(c, op), &st);
	if (e)
		return e;
	if (c->opts->xattr && (S_ISREG(st.st_mode) || S_ISDIR(st.st_mode))) {
		int fd = fs_open_beneath(base1(c, op), path1(c, op),
					 O_RDONLY | O_NONBLOCK | O_CLOEXEC, 0);
		if (fd >= 0) {
			dos_attr_get(fd);
			close(fd);
		}
	}
	return 0;
}

static int do_qfileinfo(struct backend_ctx *c, const struct op *op, uint64_t *bytes)
{
	struct stat st;
	(void)bytes;
	int fd = handle_fd(c, op);
	if (fd < 0)
		return EBADF;
	if (fstat(fd, &st) < 0)
		return errno;
	if (c->opts->xattr)
		dos_attr_get(fd);
	return 0;
}

static int do_qfsinfo(struct backend_ctx *c, const struct op *op, uint64_t *bytes)
{
	struct statvfs sv;
	(void)op;
	(void)bytes;
	return fstatvfs(c->dirfd, &sv) < 0 ? errno : 0;
}

/* SET_FILE_INFORMATION on a path (dbench 1's SMBsetatr): the same
 * metadata write, by name. */
static int sfileinfo_path(struct backend_ctx *c, const struct op *op)
{
	struct stat st;
	/* an O_PATH open resolves the name once, beneath the base and on its
	 * mount; the times are then set on what it found, not on a name
	 * that could meanwhile become a mount point */
	int fd = fs_open_beneath(base1(c, op), path1(c, op), O_PATH | O_CLOEXEC, 0);
	if (fd < 0)
		return errno;
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

static int do_sfileinfo(struct backend_ctx *c, const struct op *op, uint64_t *bytes)
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
		dos_attr_set(fd, 0x20);
	return 0;
}

/* FIND_FIRST: a plain name is a lookup; a pattern lists the directory
 * (at most maxcnt matches, as the request asks) and succeeds if anything
 * matches.  getdents64 into the client's buffer: no allocation. */
static int do_find_first(struct backend_ctx *c, const struct op *op, uint64_t *bytes)
{
	struct stat st;
	(void)bytes;
	const char *path = path1(c, op);
	if (!(op->flags & OPF_WILDCARD))
		return at_stat(base1(c, op), path, &st);

	const char *slash = strrchr(path, '/');
	const char *pat = slash ? slash + 1 : path;
	char dir[PATH_MAX];
	if (slash) {
		memcpy(dir, path, (size_t)(slash - path));
		dir[slash - path] = '\0';
	} else {
		strcpy(dir, ".");
	}
	int fd = fs_open_beneath(base1(c, op), dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0);
	if (fd < 0)
		return errno;
	uint32_t matches = 0, maxcnt = op->arg ? op->arg : UINT32_MAX;
	int err = 0;
	while (matches < maxcnt) {
		long n = syscall(SYS_getdents64, fd, c->dentbuf, c->dentbuf_len);
		if (n < 0) {
			err = errno;
			break;
		}
		if (n == 0)
			break;
		for (long at = 0; at < n && matches < maxcnt;) {
			struct fs_dirent64 *de = (struct fs_dirent64 *)(c->dentbuf + at);
			if (fnmatch(pat, de->d_name, FNM_CASEFOLD) == 0)
				matches++;
			at += de->d_reclen;
		}
	}
	close(fd);
	if (err)
		return err;
	return matches ? 0 : ENOENT;
}

static int do_writex(struct backend_ctx *c, const struct op *op, uint64_t *bytes)
{
	int fd = handle_fd(c, op);
	if (fd < 0)
		return EBADF;
	int e = pwrite_all(fd, c->iobuf, op->len, op->off);
	if (e)
		return e;
	if (c->opts->fsync_write && fsync(fd) < 0)
		return errno;
	if (op->ret != op->len)
		return BE_ESHORT;  /* the line expects another size written */
	*bytes = op->len;
	return 0;
}

static int do_readx(struct backend_ctx *c, const struct op *op, uint64_t *bytes)
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
	if (op->flags & OPF_ANYSIZE) {
		*bytes = (uint64_t)n;  /* what it read, no more */
		return 0;
	}
	/* dbench's fileio fails a read that returns another size than the
	 * line's ret_size: on a full disk the files are empty and every read
	 * returns 0 bytes, which must not count as data moved.  A read that
	 * ends as expected counts what it read, its ret_size: dbench counts
	 * the requested size, the same for every line whose ret_size is its
	 * size (all of dbench's client.txt), but a line that expects less
	 * would count bytes no read moved. */
	if ((uint64_t)n != op->ret)
		return BE_ESHORT;
	*bytes = (uint64_t)n;
	return 0;
}

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

static int do_lockx(struct backend_ctx *c, const struct op *op, uint64_t *bytes)
{
	(void)bytes;
	return lock_range(c, op, F_WRLCK);
}

static int do_unlockx(struct backend_ctx *c, const struct op *op, uint64_t *bytes)
{
	(void)bytes;
	return lock_range(c, op, F_UNLCK);
}

static int do_flush(struct backend_ctx *c, const struct op *op, uint64_t *bytes)
{
	(void)bytes;
	int fd = handle_fd(c, op);
	if (fd < 0)
		return EBADF;
	return fsync(fd) < 0 ? errno : 0;
}

/* The client's tree DIR/clients/clientK, opened beneath DIR and on its
 * mount: a tree that is a symbolic link or a mount point (a bind mount of
 * something else) is refused. */
static int fileio_client_open(struct backend_ctx *c)
{
	char name[32];
	int e;

	if (mkdirat(c->rootfd, "clients", 0777) < 0 && errno != EEXIST)
		return errno;
	int clients = fs_open_beneath(c->rootfd, "clients", O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0);
	if (clients < 0)
		return errno;
	snprintf(name, sizeof(name), "client%u", c->id);
	if (mkdirat(clients, name, 0777) < 0 && errno != EEXIST) {
		e = errno;
		close(clients);
		return e;
	}
	c->dirfd = fs_open_beneath(clients, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0);
	e = errno;
	close(clients);
	return c->dirfd < 0 ? e : 0;
}

static void fileio_close_all(struct backend_ctx *c)
{
	for (uint32_t i = 0; i < c->nhandles; i++) {
		if (c->fds[i] >= 0) {
			close(c->fds[i]);
			c->fds[i] = -1;
		}
	}
}

static void fileio_client_close(struct backend_ctx *c)
{
	if (c->dirfd >= 0)
		close(c->dirfd);
	c->dirfd = -1;
}

const struct backend fileio_backend = {
	.name = "fileio",
	.help = "files in a local directory (-D), dbench's default",
	.flags = BACKEND_LOCAL,
	.client_open = fileio_client_open,
	.close_all = fileio_close_all,
	.client_close = fileio_client_close,
	.op = {
		[OP_NTCREATEX] = do_ntcreatex,
		[OP_CLOSE] = do_close,
		[OP_RENAME] = do_rename,
		[OP_UNLINK] = do_unlink,
		[OP_DELTREE] = do_deltree,
		[OP_RMDIR] = do_rmdir,
		[OP_MKDIR] = do_mkdir,
		[OP_QPATHINFO] = do_qpathinfo,
		[OP_QFILEINFO] = do_qfileinfo,
		[OP_QFSINFO] = do_qfsinfo,
		[OP_SFILEINFO] = do_sfileinfo,
		[OP_FIND_FIRST] = do_find_first,
		[OP_WRITEX] = do_writex,
		[OP_READX] = do_readx,
		[OP_LOCKX] = do_lockx,
		[OP_UNLOCKX] = do_unlockx,
		[OP_FLUSH] = do_flush,
	},
};
