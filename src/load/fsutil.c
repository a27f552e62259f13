/* kbench - directory helpers that never leave the directory they are given
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"
#include "load/fsutil.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#ifdef HAVE_LINUX_OPENAT2_H
#include <linux/openat2.h>
#endif

int fs_open_beneath(int dirfd, const char *path, int flags, unsigned mode)
{
#if defined(HAVE_LINUX_OPENAT2_H) && defined(SYS_openat2)
	static int no_openat2;
	if (!no_openat2) {
		struct open_how how;
		memset(&how, 0, sizeof(how));
		how.flags = (unsigned long long)(flags | O_NOFOLLOW);
		how.mode = (flags & O_CREAT) ? mode : 0;
		how.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS;
		long fd = syscall(SYS_openat2, dirfd, path, &how, sizeof(how));
		if (fd >= 0 || (errno != ENOSYS && errno != EPERM))
			return (int)fd;
		no_openat2 = 1;  /* old kernel or seccomp: fall back */
	}
#endif
	return openat(dirfd, path, flags | O_NOFOLLOW, mode);
}

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
 * opens must be the directory it came from), other mounts are never
 * entered, and a directory that cannot be emptied is left, not retried. */
struct frame {
	char *name;          /* this directory's name in its parent */
	dev_t pdev;          /* the parent's identity */
	ino_t pino;
};

struct seen {
	dev_t dev;
	ino_t ino;
};

static int in_seen(const struct seen *v, size_t n, dev_t dev, ino_t ino)
{
	for (size_t i = 0; i < n; i++)
		if (v[i].dev == dev && v[i].ino == ino)
			return 1;
	return 0;
}

static int remove_contents(int topfd)
{
	struct stat top, st;
	struct frame *stack = NULL;
	struct seen *failed = NULL;
	size_t depth = 0, cap = 0, nfailed = 0, capf = 0;
	int first = 0, cur = topfd;

	if (fstat(topfd, &top) < 0)
		return errno;
	for (;;) {
		int lfd = openat(cur, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		DIR *d = lfd >= 0 ? fdopendir(lfd) : NULL;
		if (!d) {
			if (!first)
				first = errno;
			if (lfd >= 0)
				close(lfd);
			break;
		}
		int down = -1;
		struct dirent *de;
		while ((de = readdir(d)) != NULL) {
			if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
				continue;
			if (fstatat(cur, de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0)
				continue;
			if (!S_ISDIR(st.st_mode)) {
				if (unlinkat(cur, de->d_name, 0) < 0 && errno != ENOENT && !first)
					first = errno;
				continue;
			}
			if (st.st_dev != top.st_dev) {
				if (!first)
					first = EXDEV;  /* a mount point: never entered */
				continue;
			}
			if (in_seen(failed, nfailed, st.st_dev, st.st_ino))
				continue;
			down = openat(cur, de->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
			if (down < 0) {
				if (!first)
					first = errno;
				continue;
			}
			struct stat here;
			char *name = strdup(de->d_name);
			if (depth == cap) {
				size_t ncap = cap ? cap * 2 : 64;
				struct frame *ns = realloc(stack, ncap * sizeof(*ns));
				if (ns) {
					stack = ns;
					cap = ncap;
				}
			}
			if (!name || depth == cap || fstat(cur, &here) < 0) {
				free(name);
				close(down);
				down = -1;
				if (!first)
					first = ENOMEM;
				break;
			}
			stack[depth].name = name;
			stack[depth].pdev = here.st_dev;
			stack[depth].pino = here.st_ino;
			depth++;
			break;
		}
		closedir(d);
		if (down >= 0) {
			if (cur != topfd)
				close(cur);
			cur = down;
			continue;
		}
		if (depth == 0)
			break;
		/* cur is as empty as it gets: go up and remove it */
		struct frame *fr = &stack[--depth];
		struct stat self, up_st;
		int up = openat(cur, "..", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (up < 0 || fstat(up, &up_st) < 0 || up_st.st_dev != fr->pdev ||
		    up_st.st_ino != fr->pino || fstat(cur, &self) < 0) {
			/* the tree moved under us: stop rather than guess */
			if (!first)
				first = ESTALE;
			if (up >= 0)
				close(up);
			free(fr->name);
			while (depth)
				free(stack[--depth].name);
			break;
		}
		if (cur != topfd)
			close(cur);
		if (unlinkat(up, fr->name, AT_REMOVEDIR) < 0 && errno != ENOENT) {
			if (!first)
				first = errno;
			if (nfailed == capf) {
				size_t ncap = capf ? capf * 2 : 16;
				struct seen *nf = realloc(failed, ncap * sizeof(*nf));
				if (nf) {
					failed = nf;
					capf = ncap;
				}
			}
			if (nfailed < capf)
				failed[nfailed++] = (struct seen){ self.st_dev, self.st_ino };
		}
		free(fr->name);
		if (depth == 0) {
			close(up);
			cur = topfd;
		} else {
			cur = up;
		}
	}
	if (cur != topfd)
		close(cur);
	while (depth)
		free(stack[--depth].name);
	free(stack);
	free(failed);
	return first;
}

/* Is the directory leaf (stat st, in the directory pfd) the root of a
 * mount other than its parent's?  For "." the parent is "..". */
static int on_other_mount(int pfd, const char *leaf, const struct stat *st)
{
	struct stat parent;
	if (strcmp(leaf, ".") == 0) {
		if (fstatat(pfd, "..", &parent, 0) < 0)
			return 0;
	} else if (fstat(pfd, &parent) < 0) {
		return 0;
	}
	return parent.st_dev != st->st_dev;
}

int fs_remove_tree(int dirfd, const char *path, int keep_top)
{
	struct stat st;
	const char *leaf;
	int owned, e = 0;
	int pfd = fs_parent_beneath(dirfd, path, &leaf, &owned);
	if (pfd < 0)
		return errno == ENOENT ? 0 : errno;
	if (fstatat(pfd, leaf, &st, AT_SYMLINK_NOFOLLOW) < 0) {
		e = errno == ENOENT ? 0 : errno;
	} else if (!S_ISDIR(st.st_mode)) {
		if (keep_top)
			e = ENOTDIR;
		else if (unlinkat(pfd, leaf, 0) < 0 && errno != ENOENT)
			e = errno;
	} else if (on_other_mount(pfd, leaf, &st)) {
		e = EXDEV;  /* a mount point: neither entered nor removed */
	} else {
		int fd = openat(pfd, leaf, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (fd < 0) {
			e = errno;
		} else {
			e = remove_contents(fd);
			close(fd);
			if (!keep_top && unlinkat(pfd, leaf, AT_REMOVEDIR) < 0 && errno != ENOENT && !e)
				e = errno;
		}
	}
	if (owned)
		close(pfd);
	return e;
}

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
