/* kbench - facts about the system a result was measured on
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#ifndef KBENCH_SYSINFO_H
#define KBENCH_SYSINFO_H

#include <stdint.h>
#include <jansson.h>

struct kb_sysinfo {
	char kernel[65];        /* uname -r */
	char machine[65];       /* uname -m */
	char hostname[65];
	char cpu_model[128];    /* /proc/cpuinfo "model name", or "" */
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
 * cpus_online, mem_total_kB, and fs_type / fs_source when dir was given.
 * Returns a new reference, NULL only when out of memory. */
json_t *sysinfo_json(const struct kb_sysinfo *si);

#endif
