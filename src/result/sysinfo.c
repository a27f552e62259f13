/* kbench - facts about the system a result was measured on
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"
#include "result/sysinfo.h"
#include "sys/mountinfo.h"
#include "sys/memcg.h"
#include "sys/settings.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/utsname.h>
#include <unistd.h>

/* src into dst (n bytes), cut to fit */
static void copy(char *dst, size_t n, const char *src)
{
	size_t l = strlen(src);
	if (l >= n)
		l = n - 1;
	memcpy(dst, src, l);
	dst[l] = '\0';
}

/* The first CPU's model name and clock rate from /proc/cpuinfo. */
static void read_cpu(struct kb_sysinfo *si)
{
	FILE *f = fopen("/proc/cpuinfo", "re");
	char line[512];
	while (f && fgets(line, sizeof(line), f) && (!si->cpu_model[0] || !si->cpu_mhz)) {
		char *v = strchr(line, ':');
		if (!v)
			continue;
		v++;
		while (*v == ' ' || *v == '\t')
			v++;
		v[strcspn(v, "\n")] = '\0';
		if (!si->cpu_model[0] &&
		    (strncmp(line, "model name", 10) == 0 || strncmp(line, "Model", 5) == 0))
			copy(si->cpu_model, sizeof(si->cpu_model), v);
		else if (!si->cpu_mhz && strncmp(line, "cpu MHz", 7) == 0)
			si->cpu_mhz = (int)(atof(v) + 0.5);
	}
	if (f)
		fclose(f);
	if (!si->cpu_mhz && (f = fopen("/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq", "re"))) {
		long khz = 0;
		if (fscanf(f, "%ld", &khz) == 1 && khz > 0)
			si->cpu_mhz = (int)((khz + 500) / 1000);
		fclose(f);
	}
}

static void read_memtotal(struct kb_sysinfo *si)
{
	FILE *f = fopen("/proc/meminfo", "re");
	char line[256];
	unsigned long long kb;
	if (!f)
		return;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "MemTotal: %llu kB", &kb) == 1) {
			si->mem_total_kb = kb;
			break;
		}
	fclose(f);
}

static void read_fs(struct kb_sysinfo *si, const char *dir)
{
	struct mountinfo *m = malloc(sizeof(*m));
	if (m && mountinfo_find(dir, m) == 0) {
		copy(si->fstype, sizeof(si->fstype), m->fstype);
		copy(si->fsdev, sizeof(si->fsdev), m->source);
	}
	free(m);
}

/* The mount's own options and its super-block's, as one string. */
static void read_fs_options(char *out, size_t len, const char *dir)
{
	struct mountinfo *m = malloc(sizeof(*m));
	if (m && mountinfo_find(dir, m) == 0)
		snprintf(out, len, "%s %s", m->opts, m->super_opts);
	free(m);
}

void sysinfo_collect(struct kb_sysinfo *si, const char *dir)
{
	struct utsname u;
	memset(si, 0, sizeof(*si));
	if (uname(&u) == 0) {
		copy(si->sysname, sizeof(si->sysname), u.sysname);
		copy(si->kernel, sizeof(si->kernel), u.release);
		copy(si->machine, sizeof(si->machine), u.machine);
		copy(si->hostname, sizeof(si->hostname), u.nodename);
	}
	si->cpus_online = sysconf(_SC_NPROCESSORS_ONLN);
	read_cpu(si);
	read_memtotal(si);
	if (dir)
		read_fs(si, dir);
}

json_t *sysinfo_json(const struct kb_sysinfo *si)
{
	json_t *o = json_pack("{s:s, s:s, s:s, s:s, s:I, s:I}",
			      "kernel", si->kernel,
			      "machine", si->machine,
			      "hostname", si->hostname,
			      "cpu_model", si->cpu_model,
			      "cpus_online", (json_int_t)si->cpus_online,
			      "mem_total_kB", (json_int_t)si->mem_total_kb);
	if (o && si->fstype[0]) {
		json_object_set_new(o, "fs_type", json_string(si->fstype));
		json_object_set_new(o, "fs_source", json_string(si->fsdev));
	}
	/* what else moves a figure: every run records it (sys/settings.h) */
	if (o)
		json_object_set_new(o, "settings", settings_collect(NULL));
	return o;
}

static void read_trimmed(const char *path, char *dst, size_t n)
{
	FILE *f = fopen(path, "re");
	if (!f)
		return;
	if (fgets(dst, (int)n, f)) {
		size_t len = strcspn(dst, "\n");
		while (len && dst[len - 1] == ' ')
			len--;
		dst[len] = '\0';
	}
	fclose(f);
}

static void read_disk(struct kb_sysinfo_extra *x, const char *disk)
{
	struct stat st;
	char sys[PATH_MAX], real[PATH_MAX], file[PATH_MAX + 32];
	if (stat(disk, &st) < 0)
		return;
	if (S_ISREG(st.st_mode)) {
		x->disk_size_bytes = (uint64_t)st.st_size;
		return;
	}
	if (!S_ISBLK(st.st_mode))
		return;
	snprintf(sys, sizeof(sys), "/sys/dev/block/%u:%u", major(st.st_rdev), minor(st.st_rdev));
	if (!realpath(sys, real))
		return;
	char sz[32] = "";
	snprintf(file, sizeof(file), "%s/size", real);
	read_trimmed(file, sz, sizeof(sz));
	x->disk_size_bytes = strtoull(sz, NULL, 10) * 512;
	snprintf(file, sizeof(file), "%s/partition", real);
	if (access(file, F_OK) == 0) {   /* a partition: the model is its disk's */
		char *slash = strrchr(real, '/');
		if (slash)
			*slash = '\0';
	}
	snprintf(file, sizeof(file), "%s/device/model", real);
	read_trimmed(file, x->disk_model, sizeof(x->disk_model));
}

void sysinfo_extra_collect(struct kb_sysinfo_extra *x, const char *dir, const char *disk)
{
	struct utsname u;
	memset(x, 0, sizeof(*x));
	uint64_t lim = memcg_own_limit();
	x->cgroup_mem_limit = lim == MEMCG_UNKNOWN ? -1 : (int64_t)lim;
	if (uname(&u) == 0)
		copy(x->kernel_version, sizeof(x->kernel_version), u.version);
	if (dir)
		read_fs_options(x->fs_options, sizeof(x->fs_options), dir);
	if (disk)
		read_disk(x, disk);
}
