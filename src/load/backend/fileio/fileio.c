/* kbench - the POSIX file backend (dbench's "fileio" semantics)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Each op maps onto the system calls dbench 4's fileio backend makes, but
 * relative to the client's directory fd (or the run directory for shared
 * paths), so no path is built per op and none can leave the run
 * directory.  Loadfile names were folded to lower case when parsed, which
 * gives the case-insensitive namespace an SMB server has without the
 * per-lookup directory scans dbench does.
 *
 * This file: each client's state, its cache of directory fds and the
 * names the ops act on (fileio.h); the ops are fileio_ops.c's.
 */
#include "config.h"
#include "load/backend/fileio/fileio.h"
#include "sys/textgroup.h"

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

/* Filesystems whose readdir fills the buffer until it holds no more
 * entries or the directory has none left (their iterate functions stop
 * only at a full buffer, an error or the end): there, a getdents64 that
 * leaves room for the largest record read the directory to its end, and
 * the call that would return 0 is not needed.  Others (FUSE, network
 * filesystems) may return less mid-directory, and are read until 0. */
KB_CLIENT_TEXT
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

KB_CLIENT_TEXT
void fio_dircache_drop(struct backend_ctx *c)
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
KB_CLIENT_TEXT
int fio_dircache_open(struct backend_ctx *c, uint32_t idx, int *owned)
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

/* The name of path `off` of op (shared: relative to DIR, else to the
 * client's tree).  Returns 0 or an errno. */
KB_CLIENT_TEXT
int fio_name_of(struct backend_ctx *c, uint32_t off, int shared, struct name *n)
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

/* After a Rename or Rmdir of op's paths succeeded: drop the cached fds
 * if what they name may have changed. */
KB_CLIENT_TEXT
void fio_names_changed(struct backend_ctx *c, const struct op *op)
{
	if ((op->flags & (OPF_SHARED1 | OPF_SHARED2)) || prog_info(c->prog, op->path1)->self ||
	    (op->path2 != NO_PATH && prog_info(c->prog, op->path2)->self))
		fio_dircache_drop(c);
}

KB_CLIENT_TEXT
int fio_sync_dirs(const struct backend_ctx *c, int base, const char *path)
{
	return c->opts->sync_dirs ? fs_sync_parent(base, path) : 0;
}

KB_CLIENT_TEXT
void fio_dos_attr_set(int fd, uint32_t attr)
{
	/* dbench keeps the DOS attribute word in a user xattr; a filesystem
	 * without user xattrs simply does not get them (as with dbench) */
	(void)fsetxattr(fd, DOS_ATTR_NAME, &attr, sizeof(attr), 0);
}

KB_CLIENT_TEXT
void fio_dos_attr_get(int fd)
{
	uint32_t attr;
	(void)fgetxattr(fd, DOS_ATTR_NAME, &attr, sizeof(attr));
}

/* lstat of the last component; a mount point there is another mount's
 * root, which no op may look into (EXDEV).  "." is the base itself. */
KB_CLIENT_TEXT
int fio_leaf_stat(int dfd, const char *leaf, struct stat *st)
{
	int mnt;
	if (fs_stat_entry(dfd, leaf, st, &mnt) < 0)
		return errno;
	return mnt && strcmp(leaf, ".") != 0 ? EXDEV : 0;
}

/* mkdir of a name; "already exists" is only what was asked for if it is
 * a directory of this mount */
KB_CLIENT_TEXT
int fio_name_mkdir(const struct name *n)
{
	struct stat st;
	int rc = mkdirat(n->dfd, n->leaf, 0777) < 0 ? errno : 0;
	if (rc == EEXIST) {
		int e = fio_leaf_stat(n->dfd, n->leaf, &st);
		if (e == EXDEV || (!e && !S_ISDIR(st.st_mode)))
			rc = e ? e : ENOTDIR;
	}
	return rc;
}

/* "clientK" into name (room for 17 bytes), without stdio: a client
 * that never formats anything does not fault in printf's code (its peak
 * RSS is mostly the code it runs) */
KB_CLIENT_TEXT
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
/* What fio_client_open allocated, and the tree's fd, released. */
KB_CLIENT_TEXT
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
KB_CLIENT_TEXT
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
KB_CLIENT_TEXT
int fio_client_open(struct backend_ctx *c)
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

KB_CLIENT_TEXT
void fio_close_all(struct backend_ctx *c)
{
	struct fileio_client *fc = c->priv;
	fio_dircache_drop(c);
	for (uint32_t i = 0; i < c->nhandles; i++) {
		if (fc->fds[i] >= 0) {
			close(fc->fds[i]);
			fc->fds[i] = -1;
		}
	}
}

KB_CLIENT_TEXT
void fio_client_close(struct backend_ctx *c)
{
	fio_dircache_drop(c);
	client_free(c->priv);
	c->priv = NULL;
}
