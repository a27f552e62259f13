/* kbench - directory helpers that never leave the directory they are given
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#ifndef KBENCH_FSUTIL_H
#define KBENCH_FSUTIL_H

#include <stdint.h>
#include <sys/stat.h>

/* One entry as getdents64(2) returns it (the kernel's struct
 * linux_dirent64), for reading a directory into a buffer of one's own,
 * with no allocation, as readdir(3) would not. */
struct fs_dirent64 {
	uint64_t d_ino;
	int64_t d_off;
	unsigned short d_reclen;
	unsigned char d_type;
	char d_name[];
};

/* Open path below dirfd, refusing symbolic links anywhere in it, any
 * resolution that would leave dirfd, and any mount crossing, bind mounts
 * of the same filesystem included (openat2 RESOLVE_BENEATH |
 * RESOLVE_NO_SYMLINKS | RESOLVE_NO_XDEV; on kernels without openat2,
 * openat with O_NOFOLLOW, which guards the last component only against
 * links, and a mount check of the result).  Returns an fd, or -1 with
 * errno: EXDEV when the path crosses into another mount, ELOOP for a
 * link, and what openat reports otherwise. */
int fs_open_beneath(int dirfd, const char *path, int flags, unsigned mode);

/* Open the directory that holds path (below dirfd) the same safe way, so
 * that an *at() call on the last component cannot be led out of dirfd by a
 * symbolic link in the middle of the path.  *leaf receives the last
 * component (a pointer into path).  For a path without '/', returns dirfd
 * itself and sets *owned to 0; otherwise an O_PATH fd the caller closes
 * (*owned = 1).  Returns -1 with errno on failure. */
int fs_parent_beneath(int dirfd, const char *path, const char **leaf, int *owned);

/* lstat of name in dirfd (statx, no link followed, no automount) into
 * *st (mode, ino, dev and size filled); *mount_root is 1 when name is the
 * root of a mount other than dirfd's, bind mounts included
 * (STATX_ATTR_MOUNT_ROOT, Linux 5.8+; else mount ids or st_dev compared).
 * Returns 0, or -1 with errno. */
int fs_stat_entry(int dirfd, const char *name, struct stat *st, int *mount_root);

/* Told of each mount point a tree removal meets and leaves alone. */
struct fs_mount_note {
	void (*fn)(void *arg, const char *path);  /* path: relative to the
						   * dirfd of fs_remove_tree */
	void *arg;
};

/* Remove path below dirfd and everything under it, never following
 * symbolic links (a link is removed, not its target) and never entering
 * or removing another mount: a mount point met on the way is left as it
 * is, passed to note->fn (note may be NULL), and the result is EXDEV.
 * With keep_top the directory itself stays and only its contents go.  A
 * missing path is not an error.  Returns 0 or a positive errno value of
 * the first failure. */
int fs_remove_tree(int dirfd, const char *path, int keep_top, const struct fs_mount_note *note);

/* fsync the directory that holds path (below dirfd).  Returns 0 or errno. */
int fs_sync_parent(int dirfd, const char *path);

#endif
