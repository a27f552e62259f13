/* kbench - directory helpers that never leave the directory they are given
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"
#include "load/fsutil.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
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

static int remove_contents(int fd, int depth)
{
	if (depth > PATH_MAX / 2)
		return ELOOP;
	DIR *d = fdopendir(fd);
	if (!d) {
		int e = errno;
		close(fd);
		return e;
	}
	int first = 0;
	struct dirent *de;
	while ((de = readdir(d)) != NULL) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		int isdir = de->d_type == DT_DIR;
		if (de->d_type == DT_UNKNOWN) {
			struct stat st;
			if (fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0)
				isdir = S_ISDIR(st.st_mode);
		}
		if (isdir) {
			int sub = openat(dirfd(d), de->d_name,
					 O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
			if (sub >= 0) {
				int e = remove_contents(sub, depth + 1);
				if (e && !first)
					first = e;
			}
			if (unlinkat(dirfd(d), de->d_name, AT_REMOVEDIR) < 0 &&
			    errno != ENOENT && !first)
				first = errno;
		} else if (unlinkat(dirfd(d), de->d_name, 0) < 0 && errno != ENOENT && !first) {
			first = errno;
		}
	}
	closedir(d);
	return first;
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
	} else {
		int fd = openat(pfd, leaf, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (fd < 0) {
			e = errno;
		} else {
			e = remove_contents(fd, 0);
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
