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
#include <stdlib.h>
#include <limits.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <linux/magic.h>
#include <stddef.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>

#define DOS_ATTR_NAME "user.DosAttrib"

/* Each client keeps an fd on every directory of its tree that holds a
 * path it used, indexed by the directory's index in the program
 * (prog->dirs), so a call on a name costs one system call: the
 * directory is resolved once, beneath the client's tree, with no
 * symbolic link and no mount crossed (fs_open_beneath), and the call acts
 * on the last component in it.  A cached fd names that directory itself
 * from then on, wherever it goes: the client drops every fd when one of
 * its own ops could change what they name (a Rename or Rmdir of a path
 * that holds others, any shared path's Rename or Rmdir, every Deltree)
 * and at the end of each pass.  Shared paths (relative to DIR) are not
 * cached: other clients change them.  kbench-load(1) ("Clients and their
 * trees") states what a kept fd means when another process changes DIR. */

/* A client's own state (c->priv), made by fileio_client_open. */
struct fileio_client {
	int dirfd;           /* the client's tree, DIR/clients/clientK */
	int *fds;            /* handle index -> fd, -1 if not open (c->nhandles) */
	char *dentbuf;       /* FIND_FIRST's getdents64 buffer, DENTBUF bytes */
	int *fd_of;          /* prog->ndirs entries: directory index -> fd, -1 */
	uint32_t *held;      /* the indexes that have one */
	uint32_t nheld, cap;
	int fills;           /* DIR's filesystem fills a getdents64 buffer up
			      * to the directory's end (fills_dentbuf()) */
};

#define DENTBUF (8 * 1024)

/* The client's state, once fileio_client_open made it */
#define FC(c) ((struct fileio_client *)(c)->priv)

/* The largest record getdents64 returns: a 255-byte name, its NUL, the
 * header, rounded up to 8 bytes. */
#define DIRENT_MAX ((offsetof(struct fs_dirent64, d_name) + NAME_MAX + 1 + 7) & ~(size_t)7)

/* Filesystems whose readdir fills the buffer until it holds no more
 * entries or the directory has none left (their iterate functions stop
 * only at a full buffer, an error or the end): there, a getdents64 that
 * leaves room for the largest record read the directory to its end, and
 * the call that would return 0 is not needed.  Others (FUSE, network
 * filesystems) may return less mid-directory, and are read until 0. */
static int fills_dentbuf(int dirfd)
{
	struct statfs sf;
	if (fstatfs(dirfd, &sf) < 0)
		return 0;
	switch ((unsigned long)sf.f_type) {
	case TMPFS_MAGIC:
	case EXT4_SUPER_MAGIC:  /* ext2 and ext3 too */
	case XFS_SUPER_MAGIC:
	case BTRFS_SUPER_MAGIC:
		return 1;
	default:
		return 0;
	}
}

static void dircache_drop(struct backend_ctx *c)
{
	struct fileio_client *fc = c->priv;
	if (!fc)
		return;
	for (uint32_t i = 0; i < fc->nheld; i++) {
		close(fc->fd_of[fc->held[i]]);
		fc->fd_of[fc->held[i]] = -1;
	}
	fc->nheld = 0;
}

/* Open directory idx of the client's tree and keep its fd; when the
 * cache is full or the process out of fds, the fd is not kept and
 * *owned is set (the caller closes it).  Nothing cached is closed here:
 * a caller may hold another name.  Returns the fd, or -1 with errno. */
static int dircache_open(struct backend_ctx *c, uint32_t idx, int *owned)
{
	struct fileio_client *fc = c->priv;
	const char *path = prog_path(c->prog, c->prog->dirs[idx]);
	int fd = fs_open_beneath(FC(c)->dirfd, path, O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0);
	if (fd < 0 && errno == EACCES)  /* unreadable: it still holds names */
		fd = fs_open_beneath(FC(c)->dirfd, path, O_PATH | O_DIRECTORY | O_CLOEXEC, 0);
	if (fd < 0)
		return -1;
	if (fc->nheld == fc->cap) {
		*owned = 1;
		return fd;
	}
	fc->fd_of[idx] = fd;
	fc->held[fc->nheld++] = idx;
	return fd;
}

/* An fd on directory idx of the client's tree (0: the tree itself), from
 * the cache or opened now (*owned set when it is the caller's to close).
 * Returns the fd, or -1 with errno. */
static inline int tree_dir(struct backend_ctx *c, uint32_t idx, int *owned)
{
	*owned = 0;
	if (!idx)
		return FC(c)->dirfd;
	int fd = ((struct fileio_client *)c->priv)->fd_of[idx];
	return fd >= 0 ? fd : dircache_open(c, idx, owned);
}

/* A path's last component and the directory it is in. */
struct name {
	int dfd;
	const char *leaf;
	int owned;           /* dfd is the caller's to close */
};

/* The name of path `off` of op (shared: relative to DIR, else to the
 * client's tree).  Returns 0 or an errno. */
static int name_of(struct backend_ctx *c, uint32_t off, int shared, struct name *n)
{
	const char *path = prog_path(c->prog, off);
	if (shared) {
		n->dfd = fs_parent_beneath(c->rootfd, path, &n->leaf, &n->owned);
		return n->dfd < 0 ? errno : 0;
	}
	const struct path_info *pi = prog_info(c->prog, off);
	n->leaf = path + pi->leaf;
	n->dfd = tree_dir(c, pi->dir, &n->owned);
	return n->dfd < 0 ? errno : 0;
}

static inline int name1(struct backend_ctx *c, const struct op *op, struct name *n)
{
	return name_of(c, op->path1, op->flags & OPF_SHARED1, n);
}

static inline int name2(struct backend_ctx *c, const struct op *op, struct name *n)
{
	return name_of(c, op->path2, op->flags & OPF_SHARED2, n);
}

static inline void name_done(struct name *n)
{
	if (n->owned)
		close(n->dfd);
	n->owned = 0;
}

/* After a Rename or Rmdir of op's paths succeeded: drop the cached fds
 * if what they name may have changed. */
static void names_changed(struct backend_ctx *c, const struct op *op)
{
	if ((op->flags & (OPF_SHARED1 | OPF_SHARED2)) || prog_info(c->prog, op->path1)->self ||
	    (op->path2 != NO_PATH && prog_info(c->prog, op->path2)->self))
		dircache_drop(c);
}

static inline int base1(const struct backend_ctx *c, const struct op *op)
{
	return (op->flags & OPF_SHARED1) ? c->rootfd : FC(c)->dirfd;
}

static inline int base2(const struct backend_ctx *c, const struct op *op)
{
	return (op->flags & OPF_SHARED2) ? c->rootfd : FC(c)->dirfd;
}

static inline const char *path1(const struct backend_ctx *c, const struct op *op)
{
	return prog_path(c->prog, op->path1);
}

static inline int handle_fd(const struct backend_ctx *c, const struct op *op)
{
	return op->handle < c->nhandles ? FC(c)->fds[op->handle] : -1;
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

/* mkdir of a name; "already exists" is only what was asked for if it is
 * a directory of this mount */
static int name_mkdir(const struct name *n)
{
	struct stat st;
	int rc = mkdirat(n->dfd, n->leaf, 0777) < 0 ? errno : 0;
	if (rc == EEXIST) {
		int e = leaf_stat(n->dfd, n->leaf, &st);
		if (e == EXDEV || (!e && !S_ISDIR(st.st_mode)))
			rc = e ? e : ENOTDIR;
	}
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
	struct name n;
	(void)bytes;

	if (op->handle >= c->nhandles && op->handle != NO_HANDLE)
		return EBADF;
	int e = name1(c, op, &n);
	if (e)
		return e;
	if (op->open & OPEN_DIR) {
		if (op->open & OPEN_CREATES) {
			e = name_mkdir(&n);
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
	FC(c)->fds[op->handle] = -1;
	return close(fd) < 0 ? errno : 0;
}

static int do_rename(struct backend_ctx *c, const struct op *op, uint64_t *bytes)
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
	names_changed(c, op);
	return sync_dirs(c, base2(c, op), to);
}

static int do_unlink(struct backend_ctx *c, const struct op *op, uint64_t *bytes)
{
	(void)bytes;
	struct name n;
	int e = name1(c, op, &n);
	if (e)
		return e;
	e = unlinkat(n.dfd, n.leaf, 0) < 0 ? errno : 0;
	name_done(&n);
	return e ? e : sync_dirs(c, base1(c, op), path1(c, op));
}

static int do_deltree(struct backend_ctx *c, const struct op *op, uint64_t *bytes)
{
	(void)bytes;
	const char *path = path1(c, op);
	/* every directory fd the client holds may name what goes */
	dircache_drop(c);
	/* the root of a tree stays (clients hold an fd on theirs) */
	return fs_remove_tree(base1(c, op), path, strcmp(path, ".") == 0, NULL);
}

static int do_rmdir(struct backend_ctx *c, const struct op *op, uint64_t *bytes)
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
	names_changed(c, op);
	return sync_dirs(c, base1(c, op), path1(c, op));
}

static int do_mkdir(struct backend_ctx *c, const struct op *op, uint64_t *bytes)
{
	(void)bytes;
	/* a directory that is already there is what the loadfile asked for:
	 * clients share DIR/clients, and dbench ignores EEXIST too */
	struct name n;
	int e = name1(c, op, &n);
	if (e)
		return e;
	e = name_mkdir(&n);
	name_done(&n);
	if (e && e != EEXIST)
		return e;
	return sync_dirs(c, base1(c, op), path1(c, op));
}

static int do_qpathinfo(struct backend_ctx *c, const struct op *op, uint64_t *bytes)
{
	struct stat st;
	struct name n;
	(void)bytes;
	int e = name1(c, op, &n);
	if (e)
		return e;
	e = leaf_stat(n.dfd, n.leaf, &st);
	if (!e && c->opts->xattr && (S_ISREG(st.st_mode) || S_ISDIR(st.st_mode))) {
		int fd = fs_open_beneath(n.dfd, n.leaf, O_RDONLY | O_NONBLOCK | O_CLOEXEC, 0);
		if (fd >= 0) {
			dos_attr_get(fd);
			close(fd);
		}
	}
	name_done(&n);
	return e;
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
	return fstatvfs(FC(c)->dirfd, &sv) < 0 ? errno : 0;
}

/* SET_FILE_INFORMATION on a path (dbench 1's SMBsetatr): the same
 * metadata write, by name. */
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

/* name ends in tail (tail_len bytes), without regard to case (as
 * fnmatch's FNM_CASEFOLD in the C locale) */
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
static int do_find_first(struct backend_ctx *c, const struct op *op, uint64_t *bytes)
{
	struct stat st;
	struct name n;
	(void)bytes;
	if (!(op->flags & OPF_WILDCARD)) {
		int e = name1(c, op, &n);
		if (e)
			return e;
		e = leaf_stat(n.dfd, n.leaf, &st);
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
	return be_write_done(op, bytes);
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
	/* a read that ends as expected counts what it read, its ret_size:
	 * dbench counts the requested size, the same for every line whose
	 * ret_size is its size (all of dbench's client.txt), but a line that
	 * expects less would count bytes no read moved */
	return be_read_done(op, (uint64_t)n, bytes);
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

/* "clientK" into name (room for 17 bytes), without stdio: a client
 * that never formats anything does not fault in printf's code (its peak
 * RSS is mostly the code it runs) */
static void client_name(char *name, unsigned id)
{
	char digits[10];
	int n = 0;
	do
		digits[n++] = (char)('0' + id % 10);
	while ((id /= 10) && n < (int)sizeof(digits));
	memcpy(name, "client", 6);
	for (int i = 0; i < n; i++)
		name[6 + i] = digits[n - 1 - i];
	name[6 + n] = '\0';
}

/* The client's tree DIR/clients/clientK, opened beneath DIR and on its
 * mount: a tree that is a symbolic link or a mount point (a bind mount of
 * something else) is refused. */
/* What fileio_client_open allocated, and the tree's fd, released. */
static void client_free(struct fileio_client *fc)
{
	if (!fc)
		return;
	if (fc->dirfd >= 0)
		close(fc->dirfd);
	free(fc->fds);
	free(fc->dentbuf);
	free(fc->fd_of);
	free(fc->held);
	free(fc);
}

/* The client's state: its handles (none open), the find buffer, the
 * directory cache (empty).  Returns it, or NULL when out of memory. */
static struct fileio_client *client_alloc(const struct backend_ctx *c)
{
	struct fileio_client *fc = calloc(1, sizeof(*fc));
	if (!fc)
		return NULL;
	uint32_t n = c->prog->ndirs ? c->prog->ndirs : 1;
	fc->dirfd = -1;
	fc->cap = n - 1 < FILEIO_DIRCACHE_MAX ? n - 1 : FILEIO_DIRCACHE_MAX;
	fc->fd_of = malloc(n * sizeof(*fc->fd_of));
	fc->held = malloc((fc->cap ? fc->cap : 1) * sizeof(*fc->held));
	fc->fds = malloc((c->nhandles ? c->nhandles : 1) * sizeof(*fc->fds));
	fc->dentbuf = malloc(DENTBUF);
	if (!fc->fd_of || !fc->held || !fc->fds || !fc->dentbuf) {
		client_free(fc);
		return NULL;
	}
	for (uint32_t i = 0; i < n; i++)
		fc->fd_of[i] = -1;
	for (uint32_t i = 0; i < c->nhandles; i++)
		fc->fds[i] = -1;
	return fc;
}

/* The client's tree DIR/clients/clientK, opened beneath DIR and on its
 * mount: a tree that is a symbolic link or a mount point (a bind mount of
 * something else) is refused. */
static int fileio_client_open(struct backend_ctx *c)
{
	char name[32];
	int e;
	struct fileio_client *fc = client_alloc(c);
	if (!fc)
		return ENOMEM;
	if (mkdirat(c->rootfd, "clients", 0777) < 0 && errno != EEXIST) {
		e = errno;
		client_free(fc);
		return e;
	}
	int clients = fs_open_beneath(c->rootfd, "clients", O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0);
	if (clients < 0) {
		e = errno;
		client_free(fc);
		return e;
	}
	client_name(name, c->id);
	if (mkdirat(clients, name, 0777) < 0 && errno != EEXIST) {
		e = errno;
		close(clients);
		client_free(fc);
		return e;
	}
	fc->dirfd = fs_open_beneath(clients, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0);
	e = errno;
	close(clients);
	if (fc->dirfd < 0) {
		client_free(fc);
		return e;
	}
	fc->fills = fills_dentbuf(fc->dirfd);
	c->priv = fc;
	return 0;
}

static void fileio_close_all(struct backend_ctx *c)
{
	struct fileio_client *fc = c->priv;
	dircache_drop(c);
	for (uint32_t i = 0; i < c->nhandles; i++) {
		if (fc->fds[i] >= 0) {
			close(fc->fds[i]);
			fc->fds[i] = -1;
		}
	}
}

static void fileio_client_close(struct backend_ctx *c)
{
	dircache_drop(c);
	client_free(c->priv);
	c->priv = NULL;
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
