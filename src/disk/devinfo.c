/* kbench - a block device's settings from sysfs (where each comes from: devinfo.h)
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"
#include "disk/devinfo.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

/* The first line of dir/name, trailing blanks and newline cut; "" if none. */
static void read_line(const char *dir, const char *name, char *dst, size_t n)
{
	char path[PATH_MAX + 64];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	dst[0] = '\0';
	FILE *f = fopen(path, "re");
	if (!f)
		return;
	if (fgets(dst, (int)n, f)) {
		size_t len = strcspn(dst, "\n");
		while (len && (dst[len - 1] == ' ' || dst[len - 1] == '\t'))
			len--;
		dst[len] = '\0';
	}
	fclose(f);
}

static int64_t read_num(const char *dir, const char *name)
{
	char v[64], *end;
	read_line(dir, name, v, sizeof(v));
	if (!v[0])
		return -1;
	errno = 0;
	long long x = strtoll(v, &end, 10);
	return errno || *end || x < 0 ? -1 : (int64_t)x;
}

/* queue/scheduler: "mq-deadline kyber [none]" -> "none"; a single word
 * without brackets (some drivers) is that word. */
static void scheduler_of(const char *queue, char *dst, size_t n)
{
	char line[256];
	read_line(queue, "scheduler", line, sizeof(line));
	char *open = strchr(line, '['), *close = open ? strchr(open, ']') : NULL;
	if (open && close)
		snprintf(dst, n, "%.*s", (int)(close - open - 1 < 63 ? close - open - 1 : 63),
			 open + 1);
	else
		snprintf(dst, n, "%.63s", strchr(line, ' ') ? "" : line);
}

int devinfo_collect(const char *path, struct dev_info *out, char *why, size_t whylen)
{
	struct stat st;
	char sys[64], real[PATH_MAX], disk[PATH_MAX + 8], queue[PATH_MAX + 16];
	memset(out, 0, sizeof(*out));
	out->read_ahead_kb = out->nr_requests = out->queue_depth = -1;
	out->rotational = -1;
	if (stat(path, &st) < 0) {
		snprintf(why, whylen, "%s", strerror(errno));
		return -1;
	}
	dev_t dev;
	if (S_ISBLK(st.st_mode)) {
		dev = st.st_rdev;
	} else if (S_ISREG(st.st_mode)) {
		dev = st.st_dev;
		out->of_file = true;
	} else {
		snprintf(why, whylen, "neither a block device nor a regular file");
		return -1;
	}
	snprintf(sys, sizeof(sys), "/sys/dev/block/%u:%u", major(dev), minor(dev));
	if (!realpath(sys, real)) {
		if (out->of_file)
			snprintf(why, whylen, "its filesystem is on no block device (device %u:%u)",
				 major(dev), minor(dev));
		else
			snprintf(why, whylen, "no sysfs entry %s", sys);
		return -1;
	}
	const char *base = strrchr(real, '/');
	snprintf(out->name, sizeof(out->name), "%.63s", base ? base + 1 : real);
	out->size_bytes = (uint64_t)(read_num(real, "size") < 0 ? 0 : read_num(real, "size")) * 512;
	snprintf(disk, sizeof(disk), "%s", real);
	if (read_num(real, "partition") >= 0) {   /* a partition: its disk holds the rest */
		char *slash = strrchr(disk, '/');
		if (slash)
			*slash = '\0';
	}
	base = strrchr(disk, '/');
	snprintf(out->disk, sizeof(out->disk), "%.63s", base ? base + 1 : disk);
	char vendor[64], model[96];
	read_line(disk, "device/vendor", vendor, sizeof(vendor));
	read_line(disk, "device/model", model, sizeof(model));
	snprintf(out->model, sizeof(out->model), "%.40s%s%.80s", vendor,
		 vendor[0] && model[0] ? " " : "", model);
	snprintf(queue, sizeof(queue), "%s/queue", disk);
	out->read_ahead_kb = read_num(queue, "read_ahead_kb");
	scheduler_of(queue, out->scheduler, sizeof(out->scheduler));
	out->rotational = (int)read_num(queue, "rotational");
	out->nr_requests = read_num(queue, "nr_requests");
	out->queue_depth = read_num(disk, "device/queue_depth");
	read_line(queue, "write_cache", out->write_cache, sizeof(out->write_cache));
	read_line(disk, "loop/backing_file", out->backing_file, sizeof(out->backing_file));
	return 0;
}

static json_t *num_or_null(int64_t v)
{
	return v < 0 ? json_null() : json_integer((json_int_t)v);
}

static json_t *str_or_null(const char *s)
{
	return s[0] ? json_string(s) : json_null();
}

json_t *devinfo_json(const char *path, const struct dev_info *d)
{
	json_t *o = json_pack("{s:s, s:b, s:s, s:s, s:o, s:I, s:o, s:o, s:o, s:o, s:o, s:o, "
			      "s:o, s:o}",
			      "device", path, "of_file", d->of_file, "name", d->name,
			      "disk", d->disk, "model", str_or_null(d->model),
			      "size_bytes", (json_int_t)d->size_bytes,
			      "read_ahead_kb", num_or_null(d->read_ahead_kb),
			      "read_ahead_sectors", num_or_null(d->read_ahead_kb < 0 ? -1 :
								d->read_ahead_kb * 2),
			      "scheduler", str_or_null(d->scheduler),
			      "rotational", d->rotational < 0 ? json_null() :
					    json_boolean(d->rotational),
			      "nr_requests", num_or_null(d->nr_requests),
			      "queue_depth", num_or_null(d->queue_depth),
			      "write_cache", str_or_null(d->write_cache),
			      "backing_file", str_or_null(d->backing_file));
	return o;
}

void devinfo_print(FILE *out, const char *path, const struct dev_info *d)
{
	fprintf(out, "%s:%s\n", path, d->of_file ? " (the device holding this file)" : "");
	fprintf(out, " device        = %s", d->name);
	if (strcmp(d->name, d->disk))
		fprintf(out, " (a partition of %s)", d->disk);
	fputc('\n', out);
	fprintf(out, " model         = %s\n", d->model[0] ? d->model : "(none in sysfs)");
	fprintf(out, " size          = %llu bytes (%.1f MiB, MiB = 2^20 bytes)\n",
		(unsigned long long)d->size_bytes, (double)d->size_bytes / 1048576.0);
	if (d->read_ahead_kb >= 0)
		fprintf(out, " readahead     = %lld KiB (%lld sectors of 512 bytes, hdparm -a)\n",
			(long long)d->read_ahead_kb, (long long)d->read_ahead_kb * 2);
	else
		fprintf(out, " readahead     = unknown\n");
	fprintf(out, " scheduler     = %s\n", d->scheduler[0] ? d->scheduler : "unknown");
	fprintf(out, " rotational    = %s\n", d->rotational < 0 ? "unknown" :
		d->rotational ? "1 (spinning)" : "0 (no moving parts)");
	if (d->nr_requests >= 0)
		fprintf(out, " nr_requests   = %lld (the block layer's queue)\n",
			(long long)d->nr_requests);
	else
		fprintf(out, " nr_requests   = unknown\n");
	if (d->queue_depth >= 0)
		fprintf(out, " queue_depth   = %lld (the device's)\n", (long long)d->queue_depth);
	else
		fprintf(out, " queue_depth   = unknown (no device/queue_depth)\n");
	fprintf(out, " write cache   = %s\n", d->write_cache[0] ? d->write_cache : "unknown");
	if (d->backing_file[0])
		fprintf(out, " backing file  = %s\n", d->backing_file);
}
