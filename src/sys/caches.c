/* kbench - the page cache between runs: sync and drop
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"
#include "sys/caches.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define DROP_CACHES "/proc/sys/vm/drop_caches"

static int open_drop(char *why, size_t whylen)
{
	if (geteuid() != 0) {
		snprintf(why, whylen, "needs root (writes %s)", DROP_CACHES);
		return -1;
	}
	int fd = open(DROP_CACHES, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		snprintf(why, whylen, "%s: %s", DROP_CACHES, strerror(errno));
	return fd;
}

int caches_drop_check(char *why, size_t whylen)
{
	int fd = open_drop(why, whylen);
	if (fd < 0)
		return -1;
	close(fd);
	return 0;
}

int caches_drop(char *why, size_t whylen)
{
	sync();
	int fd = open_drop(why, whylen);
	if (fd < 0)
		return -1;
	ssize_t n = write(fd, "3\n", 2);
	int err = errno;
	close(fd);
	if (n != 2) {
		snprintf(why, whylen, "%s: %s", DROP_CACHES, n < 0 ? strerror(err) : "short write");
		return -1;
	}
	return 0;
}
