/* kbench - one writer per results file: a lock file beside it
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * lock.h says why the lock is on FILE.lock and not on FILE, and how a
 * holder that removes the file cannot let two others in at once.
 */
#include "config.h"
#include "suite/lock.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define LOCK_TRIES 20            /* reopenings when the holder removed it meanwhile */
#define PID_WAIT_MS 1000         /* for a new holder to write its PID */

/* The PID a lock file holds: 0 when it is empty, -1 when it holds
 * anything but one decimal number and a newline. */
static long read_pid(int fd)
{
	char buf[32];
	ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);
	if (n <= 0)
		return n == 0 ? 0 : -1;
	buf[n] = '\0';
	char *end;
	errno = 0;
	long pid = strtol(buf, &end, 10);
	if (!isdigit((unsigned char)buf[0]) || errno || pid <= 0 || strcmp(end, "\n"))
		return -1;
	return pid;
}

/* The holder's PID; a holder that has just locked it may not have
 * written it yet. */
static long holder_pid(int fd)
{
	struct timespec ts = { 0, 10 * 1000 * 1000 };
	long pid = read_pid(fd);
	for (int ms = 0; pid == 0 && ms < PID_WAIT_MS; ms += 10) {
		nanosleep(&ts, NULL);
		pid = read_pid(fd);
	}
	return pid;
}

static int refuse(struct results_lock *l, int fd, char *why, size_t whylen, const char *fmt,
		  const char *arg)
{
	snprintf(why, whylen, fmt, l->path, arg);
	if (fd >= 0)
		close(fd);
	l->fd = -1;
	return -1;
}

/* Write our PID into the locked file fd. */
static int claim(int fd)
{
	char line[32];
	int n = snprintf(line, sizeof(line), "%ld\n", (long)getpid());
	if (ftruncate(fd, 0) < 0 || pwrite(fd, line, (size_t)n, 0) != n)
		return -1;
	return 0;
}

int results_lock(const char *path, struct results_lock *l, char *why, size_t whylen)
{
	l->fd = -1;
	if ((size_t)snprintf(l->path, sizeof(l->path), "%s.lock", path) >= sizeof(l->path))
		return refuse(l, -1, why, whylen, "%s: %s", strerror(ENAMETOOLONG));
	for (int tries = 0; tries < LOCK_TRIES; tries++) {
		struct stat fst, pst;
		int fd = open(l->path, O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0666);
		if (fd < 0 && errno == EISDIR)
			return refuse(l, -1, why, whylen, "%s is there and is %s; remove it or "
				      "name the results file otherwise", "not a regular file");
		if (fd < 0)
			return refuse(l, -1, why, whylen, "cannot make the lock file %s: %s",
				      errno == ELOOP ? "it is a symbolic link" : strerror(errno));
		if (fstat(fd, &fst) < 0 || !S_ISREG(fst.st_mode))
			return refuse(l, fd, why, whylen, "%s is there and is %s; remove it or "
				      "name the results file otherwise", "not a regular file");
		if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
			if (errno != EWOULDBLOCK)
				return refuse(l, fd, why, whylen, "cannot lock %s: %s", strerror(errno));
			long pid = holder_pid(fd);
			char who[64] = "another process";
			if (pid > 0)
				snprintf(who, sizeof(who), "kbench suite (PID %ld)", pid);
			snprintf(why, whylen, "%s is writing it (lock %s)", who, l->path);
			close(fd);
			return -1;
		}
		/* the name still leads to what we locked: it is ours */
		if (stat(l->path, &pst) < 0 || pst.st_dev != fst.st_dev || pst.st_ino != fst.st_ino) {
			close(fd);
			continue;
		}
		if (read_pid(fd) < 0)
			return refuse(l, fd, why, whylen, "%s is there and %s; remove it or name the "
				      "results file otherwise", "is not a kbench lock file");
		if (claim(fd) < 0) {
			int e = errno;
			unlink(l->path);
			return refuse(l, fd, why, whylen, "cannot write the lock file %s: %s",
				      strerror(e));
		}
		l->fd = fd;
		return 0;
	}
	return refuse(l, -1, why, whylen, "%s: %s", "it keeps being removed and made again");
}

void results_unlock(struct results_lock *l)
{
	struct stat fst, pst;
	if (l->fd < 0)
		return;
	if (fstat(l->fd, &fst) == 0 && stat(l->path, &pst) == 0 && fst.st_dev == pst.st_dev &&
	    fst.st_ino == pst.st_ino)
		unlink(l->path);
	close(l->fd);
	l->fd = -1;
}
