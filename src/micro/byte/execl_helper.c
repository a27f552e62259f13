/* kbench-execl - the small program BYTE's Execl Throughput re-executes
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * BYTE's execl test is one program that replaces itself with execl()
 * over and over, a counter passed along in its arguments, until its time
 * is up.  A kbench process is too large to stand for that program (the
 * test would time the loading of kbench and its libraries), so kbench
 * micro's byte_execl starts this one instead (byte_sys.c): it needs only
 * the C library, and each image does what BYTE's does: count, look
 * whether the run is over, exec itself again.
 *
 * usage (kbench micro only): kbench-execl COUNT, with descriptor 3 the
 * read end of a pipe whose other end kbench holds until the sample ends
 * (then it reads end of file: stop), and descriptor 4 where the last
 * image writes "COUNT\n", the number of images that ran, before it exits
 * 0.  argv[0] must be this program's path: it is what is executed again.
 * A failure writes "error: WHY\n" there and exits 1; a command line not
 * of this form exits 2 with one line on standard error.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define STOP_FD 3
#define REPORT_FD 4

static void report(const char *text)
{
	size_t len = strlen(text);
	while (len > 0) {
		ssize_t w = write(REPORT_FD, text, len);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return;
		text += w;
		len -= (size_t)w;
	}
}

int main(int argc, char **argv)
{
	char *end;
	if (argc != 2 || !argv[1][0] || fcntl(STOP_FD, F_GETFD) < 0 ||
	    fcntl(REPORT_FD, F_GETFD) < 0) {
		fprintf(stderr, "kbench-execl: run by kbench micro's byte_execl only "
			"(usage: kbench-execl COUNT, descriptors 3 and 4 open)\n");
		return 2;
	}
	errno = 0;
	unsigned long long count = strtoull(argv[1], &end, 10);
	if (errno || *end) {
		fprintf(stderr, "kbench-execl: COUNT must be a whole number, not '%s'\n", argv[1]);
		return 2;
	}
	count++;
	char text[64];
	struct pollfd p = { .fd = STOP_FD, .events = POLLIN };
	int r;
	while ((r = poll(&p, 1, 0)) < 0 && errno == EINTR)
		;
	if (r != 0) {
		/* the sample is over (or poll failed: say so) */
		if (r < 0)
			snprintf(text, sizeof(text), "error: poll: %s\n", strerror(errno));
		else
			snprintf(text, sizeof(text), "%llu\n", count);
		report(text);
		return r < 0;
	}
	snprintf(text, sizeof(text), "%llu", count);
	execl(argv[0], argv[0], text, (char *)NULL);
	char why[128];
	snprintf(why, sizeof(why), "error: exec: %s\n", strerror(errno));
	report(why);
	return 1;
}
