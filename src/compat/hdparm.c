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
 * as hdparm's (25 for a loop device's geometry).  -I and -i print what
 * the drive answers (hdident.c).  Nothing is ever set: every other hdparm
 * option is refused.
 *
 * As hdparm, the devices are taken in order and the first that fails
 * ends the command with hdparm's words and status: one that cannot be
 * opened ("DEV: No such file or directory", the errno), a regular file
 * under -t (hdparm's read of it hits the end: status 5, EIO, and no
 * figure), while the devices before it are timed.  No device (or "-")
 * is hdparm's usage, status 22 (EINVAL); "--" ends the options.
 */
#include "config.h"
#include "cli.h"
#include "commands.h"
#include "compat/compat.h"
#include "compat/hdident.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <linux/fs.h>
#include <linux/hdreg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

/* The command line: flags, and the devices in order. */
struct hd_opts {
	int t, T, direct, ident_ata, ident_drv;
	const char *offset, *json;
	const char **dev;     /* argc entries */
	int ndev;
};

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

/* The options hdparm's timing takes, and -I, -i; 1 for an option that is
 * not one. */
static int read_flags(const char *arg, struct hd_opts *o)
{
	for (const char *p = arg + 1; *p; p++) {
		if (*p == 't')
			o->t = 1;
		else if (*p == 'T')
			o->T = 1;
		else if (*p == 'I')
			o->ident_ata = 1;
		else if (*p == 'i')
			o->ident_drv = 1;
		else
			return 1;
	}
	return 0;
}

/* hdparm's usage line for a command line with nothing to do: status 22. */
static int usage(void)
{
	fprintf(stderr, "Usage:  hdparm  [options] [device ...]\n"
		"kbench's hdparm: -t, -T, --direct, --offset GiB, --json FILE, -I, -i, or a "
		"device's settings; it never sets anything\n");
	return EINVAL;
}

/* argv into o: the options, and the devices in o->dev.  Returns 0, or an
 * exit status. */
static int parse(int argc, char **argv, struct hd_opts *o)
{
	const char *tool = "hdparm";
	int opts_end = 0;
	for (int i = 1; i < argc; i++) {
		const char *s = argv[i];
		if (opts_end || s[0] != '-' || !s[1]) {
			if (!strcmp(s, "-") && !opts_end)
				return usage();  /* hdparm takes it for an empty flag */
			o->dev[o->ndev++] = s;
		} else if (!strcmp(s, "--")) {
			opts_end = 1;
		} else if (!strcmp(s, "--direct")) {
			o->direct = 1;
		} else if (!strcmp(s, "--offset")) {
			uint64_t gib;
			if (++i >= argc || cli_parse_uint(argv[i], 0, 1u << 30, &gib) < 0)
				return cli_usage_error(tool, "--offset needs a whole number of GiB");
			o->offset = argv[i];
		} else if (!strcmp(s, "--json")) {
			if (++i >= argc)
				return cli_usage_error(tool, "--json needs a FILE");
			o->json = argv[i];
		} else if (!strcmp(s, "-h") || !strcmp(s, "--help")) {
			printf("usage: hdparm [-t] [-T] [--direct] [--offset GiB] [--json FILE] "
			       "DEVICE...\n"
			       "       hdparm -I|-i DEVICE...   (what the drive answers)\n"
			       "       hdparm DEVICE...   (its settings)\n"
			       "kbench's hdparm: timed reads (kbench disk), identity and settings; "
			       "it never sets anything\n");
			return -1;
		} else if (s[1] == '-' || read_flags(s, o)) {
			return cli_usage_error(tool, "%s: kbench's hdparm times reads (-t, -T, "
					       "--direct, --offset), prints a drive's identity (-I, "
					       "-i) and a device's settings; it has no other option",
					       s);
		}
	}
	if (!o->ndev)
		return usage();
	if (!o->t && !o->T && (o->direct || o->offset || o->json))
		return cli_usage_error(tool, "--direct, --offset and --json go with -t or -T");
	return 0;
}

/* kbench disk on the devices dev[0..n-1]: its status. */
static int time_devices(const struct hd_opts *o, const char **dev, int n)
{
	struct argvec a = { 0 };
	av_push(&a, "hdparm");
	if (o->T)
		av_push(&a, "-T");
	if (o->t)
		av_push(&a, "-t");
	if (o->direct)
		av_push(&a, "--direct");
	if (o->offset)
		av_pushf(&a, "--offset=%sG", o->offset);
	if (o->json) {
		av_push(&a, "--json");
		av_push(&a, o->json);
	}
	av_push(&a, "--output-form=hdparm");
	av_push(&a, "--");
	for (int i = 0; i < n; i++)
		av_push(&a, dev[i]);
	int status = compat_run("hdparm", cmd_disk, &a);
	av_free(&a);
	return status;
}

static int cannot_open(const char *dev, int e);

/* Whether dev is a regular file: hdparm's -t has no block device size
 * for it and its reads hit the end. */
static int is_file(const char *dev)
{
	struct stat st;
	return stat(dev, &st) == 0 && S_ISREG(st.st_mode);
}

/* hdparm -t on the regular file dev: its -T figure when asked, then
 * hdparm's words for the failed reads and its status, 5 (EIO). */
static int file_fails(const struct hd_opts *o, const char *dev)
{
	struct stat st;
	if (stat(dev, &st) < 0)
		return cannot_open(dev, errno);
	if (o->T) {
		struct hd_opts c = { .T = 1, .direct = o->direct };
		int status = time_devices(&c, &dev, 1);
		if (status)
			return status;
	} else {
		printf("\n%s:\n", dev);
	}
	printf(" Timing buffered disk reads: ");
	fflush(stdout);
	if (st.st_size < 2 * 1048576)
		fprintf(stderr, "read(%d) returned %lld bytes\n", 2 * 1048576,
			(long long)st.st_size);
	else
		fprintf(stderr, "read() hit EOF - device too small\n");
	return EIO;
}

/* The errno of opening dev as hdparm does, or 0 when it opens. */
static int open_errno(const char *dev)
{
	int fd = open(dev, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return errno ? errno : EIO;
	close(fd);
	return 0;
}

/* hdparm's words and status for a device it cannot open (errno e). */
static int cannot_open(const char *dev, int e)
{
	fflush(stdout);
	fprintf(stderr, "%s: %s\n", dev, strerror(e));
	return e < 126 ? e : KB_EXIT_FAIL;
}

int compat_hdparm(int argc, char **argv)
{
	struct hd_opts o = { 0 };
	o.dev = calloc((size_t)argc + 1, sizeof(*o.dev));
	if (!o.dev) {
		fprintf(stderr, "hdparm: out of memory\n");
		return KB_EXIT_FAIL;
	}
	int status = parse(argc, argv, &o);
	if (status) {
		free(o.dev);
		return status < 0 ? KB_EXIT_OK : status;
	}
	/* the devices before the first that fails are done; that one ends
	 * the command with its words and status */
	int good = 0, stop = 0, file = 0, gone = 0;
	for (; good < o.ndev; good++) {
		const char *dev = o.dev[good];
		if ((gone = open_errno(dev)))
			break;
		if (o.t && is_file(dev)) {
			file = 1;
			break;
		}
		if (o.ident_ata || o.ident_drv) {
			printf("\n%s:\n", dev);
			if ((o.ident_ata && (stop = hd_identify_ata(dev))) ||
			    (o.ident_drv && (stop = hd_identify_drive(dev))))
				break;
		} else if (!o.t && !o.T && (stop = settings("hdparm", dev))) {
			break;
		}
	}
	if (good > 0 && (o.t || o.T))
		status = time_devices(&o, o.dev, good);
	if (!status && file)
		status = file_fails(&o, o.dev[good]);
	if (!status && gone)
		status = cannot_open(o.dev[good], gone);
	if (!status)
		status = stop;
	free(o.dev);
	return status;
}
