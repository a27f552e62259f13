/* kbench - the POSIX file backend's parts: what fileio.c and fileio_ops.c share
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * fileio.c holds each client's state (struct fileio_client), its cache of
 * directory fds and the names of the ops, and the backend's options;
 * fileio_ops.c the ops themselves and fileio_backend's row.  The ops
 * reach a name through name1()/name2() and name_done(), never a path.
 */
#ifndef KBENCH_FILEIO_H
#define KBENCH_FILEIO_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include <unistd.h>
#include "load/backend/backend.h"
#include "sys/fsutil.h"

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

/* A client's own state (c->priv), made by fio_client_open. */
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

/* The client's state, once fio_client_open made it */
#define FC(c) ((struct fileio_client *)(c)->priv)

/* The largest record getdents64 returns: a 255-byte name, its NUL, the
 * header, rounded up to 8 bytes. */
#define DIRENT_MAX ((offsetof(struct fs_dirent64, d_name) + NAME_MAX + 1 + 7) & ~(size_t)7)

/* A path's last component and the directory it is in. */
struct name {
	int dfd;
	const char *leaf;
	int owned;           /* dfd is the caller's to close */
};

/* fileio.c: the directory cache and the names of the ops (the comment
 * above struct fileio_client), the small rules the ops share. */
/* Close every cached directory fd of c. */
void fio_dircache_drop(struct backend_ctx *c);
/* Open directory idx of c's tree beneath it, cached when there is room,
 * else *owned = 1 (the caller closes it).  Returns the fd, or -1 (errno). */
int fio_dircache_open(struct backend_ctx *c, uint32_t idx, int *owned);
/* The name of path off (shared: relative to DIR, else to the client's
 * tree) into n.  Returns 0 or an errno. */
int fio_name_of(struct backend_ctx *c, uint32_t off, int shared, struct name *n);
/* After a Rename or Rmdir of op's paths: drop the cache if what it names
 * may have changed. */
void fio_names_changed(struct backend_ctx *c, const struct op *op);
/* -S: fsync path's parent (from base).  Returns 0 or an errno. */
int fio_sync_dirs(const struct backend_ctx *c, int base, const char *path);
/* -x: the DOS attribute word in the user.DosAttrib xattr, set or read
 * (failures ignored, as dbench does). */
void fio_dos_attr_set(int fd, uint32_t attr);
void fio_dos_attr_get(int fd);
/* lstat of a last component; EXDEV for another mount's root.  Returns 0
 * or an errno. */
int fio_leaf_stat(int dfd, const char *leaf, struct stat *st);
/* mkdir of a name (EEXIST only for a directory of this mount).  Returns 0
 * or an errno. */
int fio_name_mkdir(const struct name *n);
/* The hooks of fileio_backend (backend.h). */
int fio_client_open(struct backend_ctx *c);
void fio_close_all(struct backend_ctx *c);
void fio_client_close(struct backend_ctx *c);

/* An fd on directory idx of the client's tree (0: the tree itself), from
 * the cache or opened now (*owned set when it is the caller's to close).
 * Returns the fd, or -1 with errno. */
static inline int tree_dir(struct backend_ctx *c, uint32_t idx, int *owned)
{
	*owned = 0;
	if (!idx)
		return FC(c)->dirfd;
	int fd = ((struct fileio_client *)c->priv)->fd_of[idx];
	return fd >= 0 ? fd : fio_dircache_open(c, idx, owned);
}

static inline int name1(struct backend_ctx *c, const struct op *op, struct name *n)
{
	return fio_name_of(c, op->path1, op->flags & OPF_SHARED1, n);
}

static inline int name2(struct backend_ctx *c, const struct op *op, struct name *n)
{
	return fio_name_of(c, op->path2, op->flags & OPF_SHARED2, n);
}

static inline void name_done(struct name *n)
{
	if (n->owned)
		close(n->dfd);
	n->owned = 0;
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

#endif
