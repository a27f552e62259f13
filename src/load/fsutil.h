/* kbench - directory helpers that never leave the directory they are given
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#ifndef KBENCH_FSUTIL_H
#define KBENCH_FSUTIL_H

/* Open path below dirfd, refusing symbolic links anywhere in it and any
 * resolution that would leave dirfd (openat2 RESOLVE_BENEATH |
 * RESOLVE_NO_SYMLINKS; on kernels without openat2, openat with O_NOFOLLOW,
 * which guards the last component only).  Returns an fd or -1 with errno. */
int fs_open_beneath(int dirfd, const char *path, int flags, unsigned mode);

/* Open the directory that holds path (below dirfd) the same safe way, so
 * that an *at() call on the last component cannot be led out of dirfd by a
 * symbolic link in the middle of the path.  *leaf receives the last
 * component (a pointer into path).  For a path without '/', returns dirfd
 * itself and sets *owned to 0; otherwise an O_PATH fd the caller closes
 * (*owned = 1).  Returns -1 with errno on failure. */
int fs_parent_beneath(int dirfd, const char *path, const char **leaf, int *owned);

/* Remove path below dirfd and everything under it, never following
 * symbolic links (a link is removed, not its target).  With keep_top the
 * directory itself stays and only its contents go.  A missing path is not
 * an error.  Returns 0 or a positive errno value of the first failure. */
int fs_remove_tree(int dirfd, const char *path, int keep_top);

/* fsync the directory that holds path (below dirfd).  Returns 0 or errno. */
int fs_sync_parent(int dirfd, const char *path);

#endif
