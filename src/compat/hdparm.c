/* kbench - the hdparm personality: timed reads through kbench disk, and hdparm DEV's settings
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * usage: hdparm [-t] [-T] [--direct] [--offset GiB] [--json FILE] DEVICE...
 *        hdparm DEVICE...
 *
 * -t, -T (also -tT, -Tt), --direct and --offset N (whole GiB, -t only)
 * become kbench disk's options with --output-form hdparm: hdparm's
 * "DEV:" heading and its " Timing ... = X MB/sec" lines, MB = 2^20 bytes,
 * always MB/sec; --json FILE is kbench disk's document, which says how
 * each figure was measured.  With no option, the settings block hdparm prints for a
 * device (the "get" half of hdparm -acdgkmur): each setting the device
 * answers through hdparm's ioctls, in hdparm's words and order; what it
 * does not answer is left out, as hdparm does for a device that is not
 * ATA; readonly, readahead and geometry it cannot give are hdparm's
 * " BLKROGET failed: ..." lines, and the exit status is then the errno,
 * as hdparm's (25 for a loop device's geometry).  Nothing is ever set:
 * every other hdparm option is refused.
 */
#include "config.h"
#include "cli.h"
#include "commands.h"
#include "compat/compat.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <linux/fs.h>
#include <linux/hdreg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

static const char *on_off(unsigned long v)
{
	return v ? "on" : "off";
}

/* One HDIO_GET_* flag, printed when the device answers. */
static void flag_line(int fd, unsigned long req, const char *name)
{
	unsigned long v = 0;
	if (ioctl(fd, req, &v) == 0)
		printf(" %-13s = %2lu (%s)\n", name, v, on_off(v));
}

/* hdparm's words for a query the device does not answer, on stderr after
 * what is already printed; its status, as hdparm's, the errno. */
static int failed(const char *ioctl_name)
{
	int e = errno;
	fflush(stdout);
	fprintf(stderr, " %s failed: %s\n", ioctl_name, strerror(e));
	return e > 0 && e < 126 ? e : KB_EXIT_FAIL;
}

/* hdparm DEV: what the device answers, in hdparm's order and words; the
 * status of the last query it did not answer (hdparm's), else 0. */
static int settings(const char *tool, const char *dev)
{
	int fd = open(dev, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, "%s: %s: %s\n", tool, dev, strerror(errno));
		return KB_EXIT_USAGE;
	}
	static const char *io32[] = { "default", "32-bit", "16-bit", "32-bit w/sync" };
	unsigned long v = 0;
	long ra = 0;
	int ro = 0;
	struct hd_geometry g;
	printf("\n%s:\n", dev);
	flag_line(fd, HDIO_GET_MULTCOUNT, "multcount");
	if (ioctl(fd, HDIO_GET_32BIT, &v) == 0)
		printf(" %-13s = %2lu (%s)\n", "IO_support", v, v < 4 ? io32[v] : "???");
	flag_line(fd, HDIO_GET_UNMASKINTR, "unmaskirq");
	flag_line(fd, HDIO_GET_DMA, "using_dma");
	flag_line(fd, HDIO_GET_KEEPSETTINGS, "keepsettings");
	int status = KB_EXIT_OK;
	if (ioctl(fd, BLKROGET, &ro) == 0)
		printf(" %-13s = %2d (%s)\n", "readonly", ro, on_off((unsigned long)ro));
	else
		status = failed("BLKROGET");
	if (ioctl(fd, BLKRAGET, &ra) == 0)
		printf(" %-13s = %2ld (%s)\n", "readahead", ra, on_off((unsigned long)ra));
	else
		status = failed("BLKRAGET");
	if (ioctl(fd, HDIO_GETGEO, &g) == 0) {
		uint64_t bytes = 0, sectors;
		if (ioctl(fd, BLKGETSIZE64, &bytes) < 0)
			bytes = 0;
		sectors = bytes / 512;
		unsigned per_cyl = (unsigned)g.heads * g.sectors;
		printf(" %-13s = %" PRIu64 "/%u/%u, sectors = %" PRIu64 ", start = %lu\n", "geometry",
		       per_cyl ? sectors / per_cyl : g.cylinders, g.heads, g.sectors, sectors, g.start);
	} else {
		status = failed("HDIO_GETGEO");
	}
	close(fd);
	return status;
}

/* The options hdparm's timing takes; 1 for an option that is not one. */
static int read_flags(const char *arg, int *t, int *T)
{
	for (const char *p = arg + 1; *p; p++) {
		if (*p == 't')
			*t = 1;
		else if (*p == 'T')
			*T = 1;
		else
			return 1;
	}
	return 0;
}

int compat_hdparm(int argc, char **argv)
{
	const char *tool = "hdparm", *offset = NULL, *json = NULL;
	int t = 0, T = 0, direct = 0, ndev = 0;
	struct argvec a = { 0 };
	av_push(&a, tool);
	for (int i = 1; i < argc; i++) {
		const char *s = argv[i];
		if (!strcmp(s, "--direct")) {
			direct = 1;
		} else if (!strcmp(s, "--offset")) {
			uint64_t gib;
			if (++i >= argc || cli_parse_uint(argv[i], 0, 1u << 30, &gib) < 0) {
				av_free(&a);
				return cli_usage_error(tool, "--offset needs a whole number of GiB");
			}
			offset = argv[i];
		} else if (!strcmp(s, "--json")) {
			if (++i >= argc) {
				av_free(&a);
				return cli_usage_error(tool, "--json needs a FILE");
			}
			json = argv[i];
		} else if (!strcmp(s, "-h") || !strcmp(s, "--help")) {
			printf("usage: hdparm [-t] [-T] [--direct] [--offset GiB] [--json FILE] "
			       "DEVICE...\n"
			       "       hdparm DEVICE...   (its settings)\n"
			       "kbench's hdparm: timed reads (kbench disk) and settings; it never "
			       "sets anything\n");
			av_free(&a);
			return KB_EXIT_OK;
		} else if (s[0] == '-' && s[1]) {
			if (s[1] == '-' || read_flags(s, &t, &T)) {
				av_free(&a);
				return cli_usage_error(tool, "%s: kbench's hdparm times reads (-t, -T, "
						       "--direct, --offset) and prints a device's "
						       "settings; it has no other option", s);
			}
		} else {
			ndev++;
		}
	}
	if (!ndev) {
		av_free(&a);
		return cli_usage_error(tool, "give the DEVICE");
	}
	int status = KB_EXIT_OK;
	if (!t && !T) {
		if (direct || offset || json)
			status = cli_usage_error(tool, "--direct, --offset and --json go with -t or -T");
		for (int i = 1; !status && i < argc; i++)
			if (argv[i][0] != '-')
				status = settings(tool, argv[i]);
		av_free(&a);
		return status;
	}
	if (T)
		av_push(&a, "-T");
	if (t)
		av_push(&a, "-t");
	if (direct)
		av_push(&a, "--direct");
	if (offset)
		av_pushf(&a, "--offset=%sG", offset);
	if (json) {
		av_push(&a, "--json");
		av_push(&a, json);
	}
	av_push(&a, "--output-form=hdparm");
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--offset") || !strcmp(argv[i], "--json"))
			i++;
		else if (argv[i][0] != '-')
			av_push(&a, argv[i]);
	}
	status = compat_run(tool, cmd_disk, &a);
	av_free(&a);
	return status;
}
