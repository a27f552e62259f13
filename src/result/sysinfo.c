/* kbench - facts about the system a result was measured on
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"
#include "result/sysinfo.h"
#include "sys/memcg.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/utsname.h>
#include <unistd.h>

static void copy(char *dst, size_t n, const char *src)
{
	snprintf(dst, n, "%s", src);
}

static void read_cpu_model(struct kb_sysinfo *si)
{
	FILE *f = fopen("/proc/cpuinfo", "re");
	char line[512];
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, "model name", 10) == 0 || strncmp(line, "Model", 5) == 0) {
			char *v = strchr(line, ':');
			if (!v)
				continue;
			v++;
			while (*v == ' ' || *v == '\t')
				v++;
			v[strcspn(v, "\n")] = '\0';
			copy(si->cpu_model, sizeof(si->cpu_model), v);
			break;
		}
	}
	fclose(f);
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

/* mountinfo escapes blanks in paths as \040 etc. */
static void unescape(char *s)
{
	char *w = s;
	for (char *r = s; *r; r++) {
		if (r[0] == '\\' && r[1] >= '0' && r[1] <= '7' && r[2] >= '0' && r[2] <= '7' &&
		    r[3] >= '0' && r[3] <= '7') {
			*w++ = (char)((r[1] - '0') * 64 + (r[2] - '0') * 8 + (r[3] - '0'));
			r += 3;
		} else {
			*w++ = *r;
		}
	}
	*w = '\0';
}

static int under(const char *path, const char *mnt)
{
	size_t n = strlen(mnt);
	if (strcmp(mnt, "/") == 0)
		return 1;
	return strncmp(path, mnt, n) == 0 && (path[n] == '/' || path[n] == '\0');
}

/* The mount holding dir (longest mount point): its type, source and
 * options (per-mount and superblock), each optional (NULL). */
static void find_mount(const char *dir, char *type, size_t typen, char *src, size_t srcn,
		       char *opts, size_t optsn)
{
	char real[PATH_MAX];
	if (!realpath(dir, real))
		return;
	FILE *f = fopen("/proc/self/mountinfo", "re");
	if (!f)
		return;
	char *line = NULL;
	size_t cap = 0;
	size_t best = 0;
	while (getline(&line, &cap, f) > 0) {
		/* id parent maj:min root mountpoint opts [optional...] - fstype source superopts */
		char *fields[6] = { 0 };
		char *save = NULL, *tok;
		int i = 0;
		for (tok = strtok_r(line, " ", &save); tok && i < 6; tok = strtok_r(NULL, " ", &save))
			fields[i++] = tok;
		if (i < 6)
			continue;
		char *mnt = fields[4];
		while (tok && strcmp(tok, "-") != 0)
			tok = strtok_r(NULL, " ", &save);
		char *fstype = tok ? strtok_r(NULL, " ", &save) : NULL;
		char *source = fstype ? strtok_r(NULL, " ", &save) : NULL;
		char *super = source ? strtok_r(NULL, " \n", &save) : NULL;
		if (!fstype)
			continue;
		unescape(mnt);
		size_t n = strlen(mnt);
		if (under(real, mnt) && n >= best) {
			best = n;
			if (type)
				copy(type, typen, fstype);
			if (src)
				copy(src, srcn, source ? source : "");
			if (opts)
				snprintf(opts, optsn, "%s%s%s", fields[5], super ? " " : "",
					 super ? super : "");
		}
	}
	free(line);
	fclose(f);
}

static void read_fs(struct kb_sysinfo *si, const char *dir)
{
	find_mount(dir, si->fstype, sizeof(si->fstype), si->fsdev, sizeof(si->fsdev), NULL, 0);
}

void sysinfo_collect(struct kb_sysinfo *si, const char *dir)
{
	struct utsname u;
	memset(si, 0, sizeof(*si));
	if (uname(&u) == 0) {
		copy(si->kernel, sizeof(si->kernel), u.release);
		copy(si->machine, sizeof(si->machine), u.machine);
		copy(si->hostname, sizeof(si->hostname), u.nodename);
	}
	si->cpus_online = sysconf(_SC_NPROCESSORS_ONLN);
	read_cpu_model(si);
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
		find_mount(dir, NULL, 0, NULL, 0, x->fs_options, sizeof(x->fs_options));
	if (disk)
		read_disk(x, disk);
}
