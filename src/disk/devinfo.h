/* kbench - a block device's settings from sysfs, as hdparm DEV reports them
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The 2001 study logged `hdparm DEV` beside every timing: the settings
 * that decide a read figure (read-ahead, the I/O scheduler, the queue,
 * the write cache) change between kernels and boots, and a comparison
 * that does not know them compares settings, not kernels.  Linux
 * publishes them in sysfs (Documentation/ABI/stable/sysfs-block):
 * /sys/dev/block/MAJ:MIN is the device (a partition's queue and model are
 * its disk's, one directory up), with size (512-byte sectors),
 * device/model, device/vendor, queue/read_ahead_kb, queue/scheduler (the
 * one in use in brackets), queue/rotational, queue/nr_requests,
 * device/queue_depth (SCSI and SATA), queue/write_cache ("write back" or
 * "write through"), and for a loop device loop/backing_file.  For a
 * regular file the device is the one holding its filesystem (st_dev),
 * when that is a block device.  Nothing here needs root or opens DEV.
 */
#ifndef KBENCH_DEVINFO_H
#define KBENCH_DEVINFO_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <jansson.h>

struct dev_info {
	bool of_file;            /* DEV is a regular file: this is the device under it */
	char name[64];           /* sysfs name: "sda1", "loop0", "nvme0n1" */
	char disk[64];           /* the whole disk's name (the same unless a partition) */
	char model[128];         /* device/model (vendor first when there is one), or "" */
	uint64_t size_bytes;     /* size * 512: of DEV itself (the partition) */
	int64_t read_ahead_kb;   /* queue/read_ahead_kb, KiB (2^10 bytes); -1 unknown */
	char scheduler[64];      /* the I/O scheduler in use ("none", "mq-deadline"), or "" */
	int rotational;          /* queue/rotational: 1 spinning, 0 not, -1 unknown */
	int64_t nr_requests;     /* queue/nr_requests (the block layer's queue); -1 unknown */
	int64_t queue_depth;     /* device/queue_depth (the device's own, SCSI/SATA); -1 */
	char write_cache[32];    /* queue/write_cache: "write back", "write through", or "" */
	char backing_file[256];  /* a loop device's loop/backing_file, or "" */
};

/* The settings of the block device path is, or of the one holding the
 * regular file path.  Returns 0 with out filled (a setting sysfs lacks
 * stays unknown: -1 or ""), or -1 with a one-line reason in why (path
 * missing, neither a block device nor a regular file, a file on a
 * filesystem without a block device such as tmpfs, no sysfs entry). */
int devinfo_collect(const char *path, struct dev_info *out, char *why, size_t whylen);

/* The settings as a JSON object: device, of_file, name, disk, model,
 * size_bytes, read_ahead_kb, read_ahead_sectors (512 bytes, hdparm -a's
 * unit), scheduler, rotational, nr_requests, queue_depth, write_cache,
 * backing_file; unknown ones null.  NULL when out of memory. */
json_t *devinfo_json(const char *path, const struct dev_info *d);

/* The settings as text, one "name = value" line each, after a line
 * "PATH:" (hdparm's form), to out; path is shown escaped by the caller's
 * rule (here: as given, it was checked to exist). */
void devinfo_print(FILE *out, const char *path, const struct dev_info *d);

#endif
