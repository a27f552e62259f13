/* kbench - one writer per results file: a lock file beside it
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * kbench suite rewrites its results file after every run by writing a
 * new file and renaming it over the old one (result_write), so a lock on
 * the results file itself would be on an inode that the first rewrite
 * replaces.  The lock is therefore an flock(2) on FILE.lock, a file
 * beside it that is never renamed, held from before the series reads or
 * writes FILE until after its last write.  The file holds the holder's
 * PID (a line), so a second writer can say who is writing.
 *
 * flock semantics, not existence: the kernel releases the lock when its
 * holder dies, even by SIGKILL, so a lock file left by a killed suite
 * does not stop the next one (which takes it over).  The holder removes
 * the file before it lets go of the lock; whoever opened the file just
 * before that finds, after locking it, that its name leads elsewhere (or
 * nowhere) and opens it again, so two processes never both hold it.
 */
#ifndef KBENCH_LOCK_H
#define KBENCH_LOCK_H

#include <limits.h>
#include <stddef.h>

struct results_lock {
	int fd;                    /* -1: not held */
	char path[PATH_MAX + 8];   /* FILE.lock */
};

/* Take the lock of the results file path (FILE.lock beside it, made with
 * mode 0666 less the umask if missing; never following a symbolic link;
 * its descriptor is close-on-exec, so no child holds it).  Returns 0 with
 * l held, or -1 with l->fd = -1 and a one-line reason in why (whylen
 * bytes): "kbench suite (PID N) is writing it (lock FILE.lock)" when
 * another process holds it, or what is wrong with FILE.lock (not a
 * regular file, not a lock file of kbench's, an error). */
int results_lock(const char *path, struct results_lock *l, char *why, size_t whylen);

/* Remove FILE.lock and release the lock, if held (l->fd >= 0); then
 * l->fd = -1.  Never removes a file whose lock it does not hold. */
void results_unlock(struct results_lock *l);

#endif
