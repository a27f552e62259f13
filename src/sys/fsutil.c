/* kbench - directory helpers that never leave the directory they are given
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * "Leave" has three ways here: a symbolic link, a ".." above the base, and
 * a mount.  A bind mount of the same filesystem has the same st_dev as its
 * parent, so mounts are told apart by the kernel's own notion (openat2
 * RESOLVE_NO_XDEV, statx STATX_ATTR_MOUNT_ROOT and STATX_MNT_ID), and only
 * where the kernel has neither by st_dev.
 */
#include "config.h"
#include "sys/fsutil.h"
#include "sys/textgroup.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#ifdef HAVE_LINUX_OPENAT2_H
#include <linux/openat2.h>
#endif

/* Mount identity of an open fd: the mount id where statx has it (Linux
 * 5.8+), else the device.  Returns 0, or -1 with errno. */
KB_CLIENT_TEXT
static int mount_of(int fd, uint64_t *id, int *is_mnt_id)
{
	struct statx sx;
	if (statx(fd, "", AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW, STATX_MNT_ID, &sx) < 0)
		return -1;
	*is_mnt_id = (sx.stx_mask & STATX_MNT_ID) != 0;
	*id = *is_mnt_id ? sx.stx_mnt_id : makedev(sx.stx_dev_major, sx.stx_dev_minor);
	return 0;
}

KB_CLIENT_TEXT
static int same_mount(int a, int b)
{
	uint64_t ia, ib;
	int ma, mb;
	if (mount_of(a, &ia, &ma) < 0 || mount_of(b, &ib, &mb) < 0)
		return 0;  /* cannot tell: refuse */
	return ma == mb && ia == ib;
}

KB_CLIENT_TEXT
int fs_stat_entry(int dirfd, const char *name, struct stat *st, int *mount_root)
{
	struct statx sx;
	if (statx(dirfd, name, AT_SYMLINK_NOFOLLOW | AT_NO_AUTOMOUNT,
		  STATX_TYPE | STATX_MODE | STATX_INO | STATX_SIZE | STATX_MNT_ID, &sx) < 0)
		return -1;
	memset(st, 0, sizeof(*st));
	st->st_mode = sx.stx_mode;
	st->st_ino = sx.stx_ino;
	st->st_dev = makedev(sx.stx_dev_major, sx.stx_dev_minor);
	st->st_size = (off_t)sx.stx_size;
	if (sx.stx_attributes_mask & STATX_ATTR_MOUNT_ROOT) {
		*mount_root = (sx.stx_attributes & STATX_ATTR_MOUNT_ROOT) != 0;
		return 0;
	}
	/* older kernels: compare with the directory it was found in */
	uint64_t id;
	int is_mnt_id;
	if (mount_of(dirfd, &id, &is_mnt_id) < 0)
		return -1;
	if (is_mnt_id && (sx.stx_mask & STATX_MNT_ID))
		*mount_root = sx.stx_mnt_id != id;
	else
		*mount_root = st->st_dev != (dev_t)id;
	return 0;
}

KB_CLIENT_TEXT
int fs_open_beneath(int dirfd, const char *path, int flags, unsigned mode)
{
#if defined(HAVE_LINUX_OPENAT2_H) && defined(SYS_openat2)
	static int no_openat2;
	if (!no_openat2) {
		struct open_how how;
		memset(&how, 0, sizeof(how));
		how.flags = (unsigned long long)(flags | O_NOFOLLOW);
		how.mode = (flags & O_CREAT) ? mode : 0;
		how.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_XDEV;
		long fd = syscall(SYS_openat2, dirfd, path, &how, sizeof(how));
		if (fd >= 0 || (errno != ENOSYS && errno != EPERM))
			return (int)fd;
		no_openat2 = 1;  /* old kernel or seccomp: fall back */
	}
#endif
	int fd = openat(dirfd, path, flags | O_NOFOLLOW, mode);
	if (fd >= 0 && !same_mount(dirfd, fd)) {
		close(fd);
		errno = EXDEV;
		return -1;
	}
	return fd;
}

KB_CLIENT_TEXT
int fs_parent_beneath(int dirfd, const char *path, const char **leaf, int *owned)
{
	const char *slash = strrchr(path, '/');
	if (!slash) {
		*leaf = path;
		*owned = 0;
		return dirfd;
	}
	char dir[PATH_MAX];
	size_t n = (size_t)(slash - path);
	if (n >= sizeof(dir)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	memcpy(dir, path, n);
	dir[n] = '\0';
	*leaf = slash + 1;
	int fd = fs_open_beneath(dirfd, dir, O_PATH | O_DIRECTORY | O_CLOEXEC, 0);
	*owned = fd >= 0;
	return fd;
}

/* Removing a tree without recursion: the walk holds one directory fd at
 * a time and keeps the way back as a stack of names, so no depth runs out
 * of file descriptors or of PATH_MAX.  Going up is checked (the ".." it
 * opens must be the directory it came from), and a directory that cannot
 * be emptied is left, not retried.  Another mount is never entered: a
 * mount point is seen by statx before the walk goes down, and the open
 * that goes down resolves with RESOLVE_NO_XDEV, so a mount that appears
 * between the two is refused too.  A mount point is also never unlinked
 * (the kernel refuses that with EBUSY), so what is mounted stays whole. */
struct frame {
	size_t name;         /* this directory's name in its parent: an offset
			      * into the walk's names */
	dev_t pdev;          /* the parent's identity */
	ino_t pino;
};

struct seen {
	dev_t dev;
	ino_t ino;
};

/* The walk's way back lives in fixed room first, so removing a tree of
 * ordinary depth (a loadfile's Deltree) allocates nothing; a deeper one
 * moves it to the heap. */
#define INLINE_FRAMES 64
#define INLINE_NAMES 4096

struct walk {
	struct frame *stack;
	size_t depth, cap;
	char *names;                     /* the stack's names, NUL-separated */
	size_t names_len, names_cap;
	struct frame inline_stack[INLINE_FRAMES];
	char inline_names[INLINE_NAMES];
	struct seen *failed;
	size_t nfailed, capf;
	const char *top;                 /* the tree's path, for notes */
	const struct fs_mount_note *note;
	int first;                       /* first error */
};

KB_CLIENT_TEXT
static void fail(struct walk *w, int e)
{
	if (!w->first)
		w->first = e;
}

KB_CLIENT_TEXT
static int in_seen(const struct walk *w, dev_t dev, ino_t ino)
{
	for (size_t i = 0; i < w->nfailed; i++)
		if (w->failed[i].dev == dev && w->failed[i].ino == ino)
			return 1;
	return 0;
}

KB_CLIENT_TEXT
static void add_seen(struct walk *w, dev_t dev, ino_t ino)
{
	if (w->nfailed == w->capf) {
		size_t ncap = w->capf ? w->capf * 2 : 16;
		struct seen *nf = realloc(w->failed, ncap * sizeof(*nf));
		if (!nf)
			return;
		w->failed = nf;
		w->capf = ncap;
	}
	w->failed[w->nfailed++] = (struct seen){ dev, ino };
}

/* A mount point at name (in the directory the walk is in): tell the note
 * its path below the base, and leave it. */
KB_CLIENT_TEXT
static void met_mount(struct walk *w, const char *name)
{
	fail(w, EXDEV);
	if (!w->note || !w->note->fn)
		return;
	size_t len = strlen(w->top) + strlen(name) + 2 + w->names_len;
	char *p = malloc(len);
	if (!p) {
		w->note->fn(w->note->arg, name);
		return;
	}
	strcpy(p, w->top);
	for (size_t i = 0; i < w->depth; i++) {
		strcat(p, "/");
		strcat(p, w->names + w->stack[i].name);
	}
	strcat(p, "/");
	strcat(p, name);
	w->note->fn(w->note->arg, p);
	free(p);
}

/* Room for one more frame and n more bytes of names: the inline room
 * first, then the heap.  Returns 0, or -1 when out of memory. */
KB_CLIENT_TEXT
static int make_room(struct walk *w, size_t n)
{
	if (w->depth == w->cap) {
		size_t ncap = w->cap * 2;
		struct frame *ns = w->stack == w->inline_stack ? malloc(ncap * sizeof(*ns)) :
				   realloc(w->stack, ncap * sizeof(*ns));
		if (!ns)
			return -1;
		if (w->stack == w->inline_stack)
			memcpy(ns, w->inline_stack, sizeof(w->inline_stack));
		w->stack = ns;
		w->cap = ncap;
	}
	if (w->names_len + n > w->names_cap) {
		size_t ncap = w->names_cap * 2;
		while (ncap < w->names_len + n)
			ncap *= 2;
		char *nn = w->names == w->inline_names ? malloc(ncap) : realloc(w->names, ncap);
		if (!nn)
			return -1;
		if (w->names == w->inline_names)
			memcpy(nn, w->inline_names, w->names_len);
		w->names = nn;
		w->names_cap = ncap;
	}
	return 0;
}

KB_CLIENT_TEXT
static int push(struct walk *w, int cur, const char *name)
{
	struct stat here;
	size_t n = strlen(name) + 1;
	if (make_room(w, n) < 0 || fstat(cur, &here) < 0)
		return -1;
	memcpy(w->names + w->names_len, name, n);
	w->stack[w->depth++] = (struct frame){ w->names_len, here.st_dev, here.st_ino };
	w->names_len += n;
	return 0;
}

/* Remove what cur holds but its subdirectories; returns an fd on the
 * first subdirectory to go into (pushed on the stack), -1 when none is
 * left, -2 when cur cannot be read.  Reads cur from its start with
 * getdents64 into a buffer on the stack: no allocation. */
KB_CLIENT_TEXT
static int empty_dir(struct walk *w, int cur)
{
	char buf[8192] __attribute__((aligned(8)));
	if (lseek(cur, 0, SEEK_SET) < 0) {
		fail(w, errno);
		return -2;
	}
	for (;;) {
		long got = syscall(SYS_getdents64, cur, buf, sizeof(buf));
		if (got < 0) {
			fail(w, errno);
			return -2;
		}
		if (got == 0)
			return -1;
		for (long off = 0; off < got;) {
			struct fs_dirent64 *de = (struct fs_dirent64 *)(buf + off);
			off += de->d_reclen;
			const char *n = de->d_name;
			struct stat st;
			int mnt;
			if (n[0] == '.' && (!n[1] || (n[1] == '.' && !n[2])))
				continue;
			if (fs_stat_entry(cur, n, &st, &mnt) < 0)
				continue;
			if (mnt) {
				met_mount(w, n);
				continue;
			}
			if (!S_ISDIR(st.st_mode)) {
				if (unlinkat(cur, n, 0) < 0 && errno != ENOENT)
					fail(w, errno == EBUSY ? EXDEV : errno);
				continue;
			}
			if (in_seen(w, st.st_dev, st.st_ino))
				continue;
			int down = fs_open_beneath(cur, n, O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0);
			if (down < 0) {
				if (errno == EXDEV)
					met_mount(w, n);  /* mounted since the statx */
				else
					fail(w, errno);
				continue;
			}
			if (push(w, cur, n) < 0) {
				close(down);
				fail(w, ENOMEM);
				return -2;
			}
			return down;
		}
	}
}

/* cur is as empty as it gets: go up to its parent and remove it there.
 * Returns the parent's fd, or -1 when the tree moved under the walk. */
KB_CLIENT_TEXT
static int climb(struct walk *w, int cur)
{
	struct frame *fr = &w->stack[--w->depth];
	const char *name = w->names + fr->name;
	struct stat self, up_st;
	int up = openat(cur, "..", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	w->names_len = fr->name;  /* the name stays readable until the next push */
	if (up < 0 || fstat(up, &up_st) < 0 || up_st.st_dev != fr->pdev ||
	    up_st.st_ino != fr->pino || fstat(cur, &self) < 0) {
		fail(w, ESTALE);  /* stop rather than guess */
		if (up >= 0)
			close(up);
		return -1;
	}
	if (unlinkat(up, name, AT_REMOVEDIR) < 0 && errno != ENOENT) {
		fail(w, errno);
		add_seen(w, self.st_dev, self.st_ino);
	}
	return up;
}

KB_CLIENT_TEXT
static int remove_contents(int topfd, const char *top, const struct fs_mount_note *note)
{
	struct walk w;
	memset(&w, 0, offsetof(struct walk, inline_stack));
	w.stack = w.inline_stack;
	w.cap = INLINE_FRAMES;
	w.names = w.inline_names;
	w.names_cap = INLINE_NAMES;
	w.failed = NULL;
	w.nfailed = w.capf = 0;
	w.top = top;
	w.note = note;
	w.first = 0;
	int cur = topfd;

	for (;;) {
		int down = empty_dir(&w, cur);
		if (down == -2)
			break;
		if (down >= 0) {
			if (cur != topfd)
				close(cur);
			cur = down;
			continue;
		}
		if (w.depth == 0)
			break;
		int up = climb(&w, cur);
		if (cur != topfd)
			close(cur);
		cur = topfd;
		if (up < 0)
			break;
		if (w.depth == 0)
			close(up);
		else
			cur = up;
	}
	if (cur != topfd)
		close(cur);
	if (w.stack != w.inline_stack)
		free(w.stack);
	if (w.names != w.inline_names)
		free(w.names);
	free(w.failed);
	return w.first;
}

KB_CLIENT_TEXT
int fs_remove_tree(int dirfd, const char *path, int keep_top, const struct fs_mount_note *note)
{
	struct stat st;
	const char *leaf;
	int owned, mnt, e = 0;
	int pfd = fs_parent_beneath(dirfd, path, &leaf, &owned);
	if (pfd < 0) {
		if (errno == EXDEV && note && note->fn)
			note->fn(note->arg, path);  /* somewhere on the way */
		return errno == ENOENT ? 0 : errno;
	}
	if (fs_stat_entry(pfd, leaf, &st, &mnt) < 0) {
		e = errno == ENOENT ? 0 : errno;
	} else if (mnt && strcmp(leaf, ".") != 0) {
		e = EXDEV;  /* a mount point: neither entered nor removed */
		if (note && note->fn)
			note->fn(note->arg, path);
	} else if (!S_ISDIR(st.st_mode)) {
		if (keep_top)
			e = ENOTDIR;
		else if (unlinkat(pfd, leaf, 0) < 0 && errno != ENOENT)
			e = errno;
	} else {
		int fd = fs_open_beneath(pfd, leaf, O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0);
		if (fd < 0) {
			e = errno;
			if (e == EXDEV && note && note->fn)
				note->fn(note->arg, path);
		} else {
			e = remove_contents(fd, path, note);
			close(fd);
			if (!keep_top && unlinkat(pfd, leaf, AT_REMOVEDIR) < 0 && errno != ENOENT && !e)
				e = errno;
		}
	}
	if (owned)
		close(pfd);
	return e;
}

KB_CLIENT_TEXT
int fs_sync_parent(int dirfd, const char *path)
{
	char buf[PATH_MAX];
	const char *slash = strrchr(path, '/');
	const char *dir = ".";
	if (slash) {
		size_t n = (size_t)(slash - path);
		if (n >= sizeof(buf))
			return ENAMETOOLONG;
		memcpy(buf, path, n);
		buf[n] = '\0';
		dir = buf;
	}
	int fd = fs_open_beneath(dirfd, dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0);
	if (fd < 0)
		return errno;
	int e = fsync(fd) < 0 ? errno : 0;
	close(fd);
	return e;
}
