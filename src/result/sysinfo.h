/* kbench - facts about the system a result was measured on
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#ifndef KBENCH_SYSINFO_H
#define KBENCH_SYSINFO_H

#include <stdint.h>
#include <jansson.h>

struct kb_sysinfo {
	char sysname[65];       /* uname -s */
	char kernel[65];        /* uname -r */
	char machine[65];       /* uname -m */
	char hostname[65];
	char cpu_model[128];    /* /proc/cpuinfo "model name", or "" */
	int cpu_mhz;            /* /proc/cpuinfo "cpu MHz", else cpufreq's
				 * cpuinfo_max_freq of cpu0, else 0 */
	long cpus_online;       /* sysconf(_SC_NPROCESSORS_ONLN) */
	uint64_t mem_total_kb;  /* /proc/meminfo MemTotal, KiB (2^10 bytes) */
	char fstype[32];        /* type of the filesystem holding dir, or "" */
	char fsdev[128];        /* its source (device) from mountinfo, or "" */
};

/* Fill si.  dir (may be NULL) names a directory whose filesystem is
 * described (from /proc/self/mountinfo, longest matching mount point).
 * Facts that cannot be read are left empty or 0; never fails. */
void sysinfo_collect(struct kb_sysinfo *si, const char *dir);

/* The facts as a JSON object: kernel, machine, hostname, cpu_model,
 * cpus_online, mem_total_kB, fs_type / fs_source when dir was given, and
 * settings: the machine's settings as they are now (settings_collect,
 * sys/settings.h).
 * Returns a new reference, NULL only when out of memory. */
json_t *sysinfo_json(const struct kb_sysinfo *si);

/* Further facts, for results files that describe a whole series of runs
 * (kbench suite).  Kept apart from struct kb_sysinfo so the documents of
 * the other commands do not change. */
struct kb_sysinfo_extra {
	char kernel_version[257]; /* uname -v: the build string, e.g. "#1 SMP PREEMPT_DYNAMIC ..." */
	char fs_options[512];     /* mount options of dir's filesystem: the mount's, a
				   * space, then the superblock's (mountinfo fields 6
				   * and 11), or "" */
	int64_t cgroup_mem_limit; /* bytes: the smallest memory limit of this process's
				   * cgroup and its ancestors (v2 memory.max, v1
				   * memory.limit_in_bytes); -1 if none or unknown */
	char disk_model[128];     /* /sys/block/X/device/model of the disk (of the whole
				   * disk for a partition), blanks trimmed, or "" */
	uint64_t disk_size_bytes; /* the disk's size in bytes (block device: sysfs
				   * size * 512; regular file: its size), 0 if unknown */
};

/* Fill x.  dir (may be NULL) names a directory whose mount options are
 * read; disk (may be NULL) a block device or file whose model and size are
 * read.  Facts that cannot be read are left empty, 0 or -1; never fails. */
void sysinfo_extra_collect(struct kb_sysinfo_extra *x, const char *dir, const char *disk);

#endif
