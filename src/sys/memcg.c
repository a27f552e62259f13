/* kbench - memory cgroups: detect, create with a limit, join, read, remove
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * File names and meanings follow the kernel's Documentation/admin-guide/
 * cgroup-v1/memory.rst and cgroup-v2.rst; /proc/self/cgroup's and
 * mountinfo's formats proc(5) and cgroups(7).  Every file is opened
 * relative to the cgroup's directory fd: nothing outside is written.
 */
#include "config.h"
#include "sys/memcg.h"
#include "sys/textgroup.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* ---- pure parsing ---- */

int memcg_has_word(const char *list, const char *word, const char *seps)
{
	size_t wl = strlen(word);
	const char *p = list;
	while (*p) {
		size_t n = strcspn(p, seps);
		if (n == wl && strncmp(p, word, wl) == 0)
			return 1;
		p += n;
		if (*p)
			p++;
	}
	return 0;
}

int memcg_parse_proc_cgroup(const char *text, enum memcg_version v, char *path, size_t len)
{
	const char *line = text;
	while (line && *line) {
		const char *end = strchr(line, '\n');
		size_t ll = end ? (size_t)(end - line) : strlen(line);
		const char *c1 = memchr(line, ':', ll);
		const char *c2 = c1 ? memchr(c1 + 1, ':', ll - (size_t)(c1 + 1 - line)) : NULL;
		if (c2) {
			size_t idlen = (size_t)(c1 - line), clen = (size_t)(c2 - c1 - 1);
			const char *p = c2 + 1;
			size_t plen = ll - (size_t)(p - line);
			int match;
			if (v == MEMCG_V2) {
				match = idlen == 1 && line[0] == '0' && clen == 0;
			} else {
				char ctl[256];
				match = 0;
				if (clen > 0 && clen < sizeof(ctl) && !(idlen == 1 && line[0] == '0')) {
					memcpy(ctl, c1 + 1, clen);
					ctl[clen] = '\0';
					match = memcg_has_word(ctl, "memory", ",");
				}
			}
			if (match) {
				if (plen == 0 || p[0] != '/' || plen >= len)
					return -1;
				memcpy(path, p, plen);
				path[plen] = '\0';
				return 0;
			}
		}
		line = end ? end + 1 : NULL;
	}
	return -1;
}

int memcg_mount_matches(const struct mountinfo *m, enum memcg_version v)
{
	if (v == MEMCG_V2)
		return strcmp(m->fstype, "cgroup2") == 0;
	return strcmp(m->fstype, "cgroup") == 0 && memcg_has_word(m->super_opts, "memory", ",");
}

int memcg_dir_through(const struct mountinfo *m, const char *cgpath, char *dir, size_t len)
{
	size_t rl = strlen(m->root);
	while (rl > 1 && m->root[rl - 1] == '/')
		rl--;
	const char *rest;
	if (rl == 1 && m->root[0] == '/') {
		rest = cgpath;
	} else {
		if (strncmp(cgpath, m->root, rl) != 0 || (cgpath[rl] != '\0' && cgpath[rl] != '/'))
			return -1;
		rest = cgpath + rl;
	}
	while (*rest == '/')
		rest++;
	/* a ".." component would lead out of the mount: never follow one */
	for (const char *c = rest; *c; c += strcspn(c, "/"), c += *c == '/')
		if (c[0] == '.' && c[1] == '.' && (c[2] == '/' || c[2] == '\0'))
			return -1;
	size_t pl = strlen(m->point);
	while (pl > 1 && m->point[pl - 1] == '/')
		pl--;
	int n = *rest ? snprintf(dir, len, "%.*s/%s", (int)pl, m->point, rest)
		      : snprintf(dir, len, "%.*s", (int)pl, m->point);
	return n < 0 || (size_t)n >= len ? -1 : 0;
}

int memcg_key_value(const char *text, const char *key, uint64_t *out)
{
	size_t kl = strlen(key);
	const char *line = text;
	while (line && *line) {
		if (strncmp(line, key, kl) == 0 && line[kl] == ' ') {
			const char *v = line + kl + 1;
			if (*v < '0' || *v > '9')
				return -1;
			char *end;
			errno = 0;
			unsigned long long x = strtoull(v, &end, 10);
			if (errno || (*end != '\n' && *end != '\0'))
				return -1;
			*out = x;
			return 0;
		}
		line = strchr(line, '\n');
		if (line)
			line++;
	}
	return -1;
}

int memcg_parse_limit(const char *text, uint64_t *out)
{
	if (strcmp(text, "max\n") == 0 || strcmp(text, "max") == 0) {
		*out = MEMCG_UNKNOWN;
		return 0;
	}
	if (*text < '0' || *text > '9')
		return -1;
	char *end;
	errno = 0;
	unsigned long long x = strtoull(text, &end, 10);
	if (errno || (*end != '\n' && *end != '\0'))
		return -1;
	*out = x;
	return 0;
}

/* ---- files ---- */

/* Read a small file under dirfd into buf (NUL-terminated).  Returns the
 * length, or -1 with errno. */
static ssize_t read_at(int dirfd, const char *name, char *buf, size_t len)
{
	int fd = openat(dirfd, name, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	size_t got = 0;
	while (got + 1 < len) {
		ssize_t n = read(fd, buf + got, len - 1 - got);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			int e = errno;
			close(fd);
			errno = e;
			return -1;
		}
		if (n == 0)
			break;
		got += (size_t)n;
	}
	buf[got] = '\0';
	close(fd);
	return (ssize_t)got;
}

/* Write text to the file name under dirfd in one write(2).  Returns 0 or
 * -1 with errno. */
static int write_at(int dirfd, const char *name, const char *text)
{
	int fd = openat(dirfd, name, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	size_t n = strlen(text);
	ssize_t w = write(fd, text, n);
	int e = errno;
	close(fd);
	if (w != (ssize_t)n) {
		errno = w < 0 ? e : EIO;
		return -1;
	}
	return 0;
}

static uint64_t value_at(int dirfd, const char *name)
{
	char buf[64];
	uint64_t v;
	if (read_at(dirfd, name, buf, sizeof(buf)) < 0 || memcg_parse_limit(buf, &v) < 0)
		return MEMCG_UNKNOWN;
	return v;
}

static uint64_t key_at(int dirfd, const char *name, const char *key)
{
	char buf[16384];
	uint64_t v;
	if (read_at(dirfd, name, buf, sizeof(buf)) < 0 || memcg_key_value(buf, key, &v) < 0)
		return MEMCG_UNKNOWN;
	return v;
}

/* The directory of this process's cgroup in hierarchy v, or -1. */
static int find_dir(enum memcg_version v, char *dir, size_t len)
{
	char text[8192], cgpath[PATH_MAX];
	int fd = open("/proc/self/cgroup", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	ssize_t n = read(fd, text, sizeof(text) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	text[n] = '\0';
	if (memcg_parse_proc_cgroup(text, v, cgpath, sizeof(cgpath)) < 0)
		return -1;

	FILE *f = fopen("/proc/self/mountinfo", "re");
	if (!f)
		return -1;
	char *line = NULL;
	size_t cap = 0;
	int found = -1;
	struct mountinfo *m = malloc(sizeof(*m));
	while (m && found < 0 && getline(&line, &cap, f) > 0) {
		if (mountinfo_parse_line(line, m) == 0 && memcg_mount_matches(m, v) &&
		    memcg_dir_through(m, cgpath, dir, len) == 0 && access(dir, F_OK) == 0)
			found = 0;
	}
	free(m);
	free(line);
	fclose(f);
	return found;
}

uint64_t memcg_own_limit(void)
{
	char dir[PATH_MAX];
	const char *file;
	if (find_dir(MEMCG_V1, dir, sizeof(dir)) == 0)
		file = "memory.limit_in_bytes";
	else if (find_dir(MEMCG_V2, dir, sizeof(dir)) == 0)
		file = "memory.max";
	else
		return MEMCG_UNKNOWN;
	/* up to the hierarchy's root: above it (or at v2's root) the file is gone */
	uint64_t best = MEMCG_UNKNOWN;
	for (;;) {
		int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (fd < 0)
			break;
		uint64_t v = value_at(fd, file);
		int had = faccessat(fd, file, F_OK, 0) == 0;
		close(fd);
		if (!had)
			break;
		if (v < MEMCG_V1_NO_LIMIT && v < best)
			best = v;
		char *slash = strrchr(dir, '/');
		if (!slash || slash == dir)
			break;
		*slash = '\0';
	}
	return best;
}

uint64_t memcg_own_oom_kills(char *dir, size_t len)
{
	int v1 = find_dir(MEMCG_V1, dir, len) == 0;
	int fd = v1 || find_dir(MEMCG_V2, dir, len) == 0 ?
		 open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC) : -1;
	if (fd < 0)
		return MEMCG_UNKNOWN;
	uint64_t n = key_at(fd, v1 ? "memory.oom_control" : "memory.events", "oom_kill");
	close(fd);
	return n;
}

void memcg_oom_first(void)
{
	/* raising one's own score needs no privilege; a failure changes nothing */
	int fd = open("/proc/self/oom_score_adj", O_WRONLY | O_CLOEXEC);
	if (fd >= 0 && (write(fd, "1000", 4) || 1))
		close(fd);
}

int memcg_detect(struct memcg_site *site, char *why, size_t whylen)
{
	char buf[1024];
	if (geteuid() != 0) {
		snprintf(why, whylen, "needs root (creates a memory cgroup)");
		return -1;
	}
	if (find_dir(MEMCG_V1, site->dir, sizeof(site->dir)) == 0) {
		site->version = MEMCG_V1;
		int fd = open(site->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (fd < 0 || faccessat(fd, "memory.limit_in_bytes", R_OK, 0) < 0) {
			snprintf(why, whylen, "%s: not a memory cgroup: %s", site->dir, strerror(errno));
			if (fd >= 0)
				close(fd);
			return -1;
		}
		close(fd);
		return 0;
	}
	if (find_dir(MEMCG_V2, site->dir, sizeof(site->dir)) < 0) {
		snprintf(why, whylen, "no memory controller: neither a cgroup v1 memory hierarchy "
			 "nor cgroup v2 is mounted for this process (/proc/self/cgroup, "
			 "/proc/self/mountinfo)");
		return -1;
	}
	site->version = MEMCG_V2;
	int fd = open(site->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		snprintf(why, whylen, "%s: %s", site->dir, strerror(errno));
		return -1;
	}
	int rc = 0;
	if (read_at(fd, "cgroup.controllers", buf, sizeof(buf)) < 0 ||
	    !memcg_has_word(buf, "memory", " \n")) {
		snprintf(why, whylen, "no memory controller: cgroup v2 does not offer \"memory\" in "
			 "%s/cgroup.controllers", site->dir);
		rc = -1;
	} else if (read_at(fd, "cgroup.subtree_control", buf, sizeof(buf)) < 0) {
		snprintf(why, whylen, "%s/cgroup.subtree_control: %s", site->dir, strerror(errno));
		rc = -1;
	} else if (!memcg_has_word(buf, "memory", " \n") &&
		   write_at(fd, "cgroup.subtree_control", "+memory") < 0) {
		snprintf(why, whylen, "no memory controller for child cgroups: cannot enable it in "
			 "%s/cgroup.subtree_control: %s%s", site->dir, strerror(errno),
			 errno == EBUSY ? " (the kernel allows it only in the root cgroup or a "
			 "cgroup without processes, and kbench is in this one: start kbench from "
			 "the root cgroup)" : "");
		rc = -1;
	}
	close(fd);
	return rc;
}

void memcg_init(struct memcg *cg)
{
	memset(cg, 0, sizeof(*cg));
	cg->parentfd = cg->dirfd = cg->procs_fd = -1;
	cg->sampled_proc = MEMCG_UNKNOWN;
}

int memcg_create(const struct memcg_site *site, const char *name, uint64_t limit_bytes,
		 struct memcg *cg, char *why, size_t whylen)
{
	char num[32];
	memcg_init(cg);
	cg->version = site->version;
	if (snprintf(cg->name, sizeof(cg->name), "%s", name) >= (int)sizeof(cg->name) ||
	    strchr(name, '/') || !*name || name[0] == '.') {
		snprintf(why, whylen, "bad cgroup name '%s'", name);
		return -1;
	}
	cg->parentfd = open(site->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (cg->parentfd < 0) {
		snprintf(why, whylen, "%s: %s", site->dir, strerror(errno));
		return -1;
	}
	int made = mkdirat(cg->parentfd, name, 0755) == 0;
	if (!made && errno == EEXIST) {
		/* left by a run that was killed; a cgroup with processes stays */
		if (unlinkat(cg->parentfd, name, AT_REMOVEDIR) == 0)
			made = mkdirat(cg->parentfd, name, 0755) == 0;
		else
			errno = EEXIST;
	}
	if (!made) {
		snprintf(why, whylen, "cannot create cgroup %s/%s: %s", site->dir, name,
			 strerror(errno));
		close(cg->parentfd);
		memcg_init(cg);
		return -1;
	}
	const char *what = "";
	cg->dirfd = openat(cg->parentfd, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (cg->dirfd < 0) {
		what = name;
		goto fail;
	}
	const char *limit_file = cg->version == MEMCG_V1 ? "memory.limit_in_bytes" : "memory.max";
	snprintf(num, sizeof(num), "%llu", (unsigned long long)limit_bytes);
	if (write_at(cg->dirfd, limit_file, num) < 0) {
		what = limit_file;
		goto fail;
	}
	cg->limit_bytes = value_at(cg->dirfd, limit_file);
	if (cg->limit_bytes == MEMCG_UNKNOWN) {
		errno = EINVAL;
		what = limit_file;
		goto fail;
	}
	cg->procs_fd = openat(cg->dirfd, "cgroup.procs", O_WRONLY | O_CLOEXEC);
	if (cg->procs_fd < 0) {
		what = "cgroup.procs";
		goto fail;
	}
	return 0;
fail:
	snprintf(why, whylen, "cgroup %s/%s: %s%s%s", site->dir, name, what, *what ? ": " : "",
		 strerror(errno));
	{
		char ignore[8];
		memcg_remove(cg, ignore, sizeof(ignore));
	}
	return -1;
}

KB_CLIENT_TEXT
int memcg_join(const struct memcg *cg, pid_t pid)
{
	char num[24];
	size_t n = 0;
	unsigned long v = (unsigned long)pid;
	char rev[24];
	do {
		rev[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	for (size_t i = 0; i < n; i++)
		num[i] = rev[n - 1 - i];
	ssize_t w = write(cg->procs_fd, num, n);
	if (w == (ssize_t)n)
		return 0;
	return w < 0 ? errno : EIO;
}

/* The memory of the group's processes themselves (not the page cache they
 * bring in), bytes: v1 memory.stat total_rss (anonymous); v2 memory.stat
 * anon + kernel_stack + pagetables.  MEMCG_UNKNOWN when not reported. */
static uint64_t proc_bytes(const struct memcg *cg)
{
	static const char *const v1[] = { "total_rss", NULL };
	static const char *const v2[] = { "anon", "kernel_stack", "pagetables", NULL };
	char buf[16384];
	uint64_t sum = 0, v;
	if (read_at(cg->dirfd, "memory.stat", buf, sizeof(buf)) < 0)
		return MEMCG_UNKNOWN;
	for (const char *const *k = cg->version == MEMCG_V1 ? v1 : v2; *k; k++) {
		if (memcg_key_value(buf, *k, &v) < 0)
			return MEMCG_UNKNOWN;
		sum += v;
	}
	return sum;
}

void memcg_sample(struct memcg *cg)
{
	if (cg->dirfd < 0)
		return;
	uint64_t v = value_at(cg->dirfd, cg->version == MEMCG_V1 ? "memory.usage_in_bytes"
						      : "memory.current");
	if (v != MEMCG_UNKNOWN && v > cg->sampled_peak)
		cg->sampled_peak = v;
	v = proc_bytes(cg);
	if (v != MEMCG_UNKNOWN && (cg->sampled_proc == MEMCG_UNKNOWN || v > cg->sampled_proc))
		cg->sampled_proc = v;
}

int memcg_read(struct memcg *cg, struct memcg_stats *st)
{
	st->version = cg->version;
	st->limit_bytes = cg->limit_bytes;
	st->peak_bytes = st->limit_hits = st->oom_kills = st->cache_bytes = MEMCG_UNKNOWN;
	st->peak_sampled = 0;
	st->proc_peak_bytes = MEMCG_UNKNOWN;
	if (cg->dirfd < 0) {
		errno = EBADF;
		return -1;
	}
	memcg_sample(cg);
	if (cg->version == MEMCG_V1) {
		st->peak_bytes = value_at(cg->dirfd, "memory.max_usage_in_bytes");
		st->limit_hits = value_at(cg->dirfd, "memory.failcnt");
		st->oom_kills = key_at(cg->dirfd, "memory.oom_control", "oom_kill");
		st->cache_bytes = key_at(cg->dirfd, "memory.stat", "total_cache");
		if (st->cache_bytes == MEMCG_UNKNOWN)
			st->cache_bytes = key_at(cg->dirfd, "memory.stat", "cache");
	} else {
		st->peak_bytes = value_at(cg->dirfd, "memory.peak");
		uint64_t max = key_at(cg->dirfd, "memory.events", "max");
		uint64_t high = key_at(cg->dirfd, "memory.events", "high");
		if (max != MEMCG_UNKNOWN)
			st->limit_hits = max + (high != MEMCG_UNKNOWN ? high : 0);
		st->oom_kills = key_at(cg->dirfd, "memory.events", "oom_kill");
		st->cache_bytes = key_at(cg->dirfd, "memory.stat", "file");
	}
	st->proc_peak_bytes = cg->sampled_proc;
	if (st->peak_bytes == MEMCG_UNKNOWN && cg->sampled_peak) {
		st->peak_bytes = cg->sampled_peak;
		st->peak_sampled = 1;
	}
	if (st->limit_bytes == MEMCG_UNKNOWN)
		st->limit_bytes = value_at(cg->dirfd, cg->version == MEMCG_V1 ?
					   "memory.limit_in_bytes" : "memory.max");
	return 0;
}

int memcg_remove(struct memcg *cg, char *why, size_t whylen)
{
	int rc = 0;
	if (cg->procs_fd >= 0)
		close(cg->procs_fd);
	if (cg->dirfd >= 0)
		close(cg->dirfd);
	if (cg->parentfd >= 0 && cg->name[0]) {
		/* a process counts until the kernel has finished its exit */
		for (int tries = 0;; tries++) {
			if (unlinkat(cg->parentfd, cg->name, AT_REMOVEDIR) == 0 || errno == ENOENT)
				break;
			if (errno != EBUSY || tries == 100) {
				snprintf(why, whylen, "cannot remove cgroup %s: %s", cg->name,
					 strerror(errno));
				rc = -1;
				break;
			}
			struct timespec ts = { 0, 10000000 };
			nanosleep(&ts, NULL);
		}
	}
	if (cg->parentfd >= 0)
		close(cg->parentfd);
	memcg_init(cg);
	return rc;
}

/* 1 if cgroup name under dfd lists no process in its cgroup.procs */
static int no_procs(int dfd, const char *name)
{
	char path[NAME_MAX + 16], c;
	snprintf(path, sizeof(path), "%s/cgroup.procs", name);
	int fd = openat(dfd, path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	ssize_t n = read(fd, &c, 1);
	close(fd);
	return n == 0;
}

int memcg_sweep(const struct memcg_site *site, const char *prefix, char *note, size_t notelen)
{
	size_t plen = strlen(prefix);
	int removed = 0, kept = 0;
	char first[NAME_MAX + 1] = "";
	note[0] = '\0';
	DIR *d = opendir(site->dir);
	if (!d)
		return -1;
	struct dirent *e;
	while ((e = readdir(d))) {
		const char *num = e->d_name + plen;
		char *end;
		if (strncmp(e->d_name, prefix, plen) || *num < '1' || *num > '9')
			continue;
		errno = 0;
		long pid = strtol(num, &end, 10);
		if (*end || errno || pid <= 0 || (pid_t)pid != pid)
			continue;
		if (kill((pid_t)pid, 0) == 0 || errno != ESRCH)
			continue;   /* its kbench runs (or a process took its number) */
		/* an empty cgroup.procs with EBUSY: its last processes are still
		 * exiting (not yet reaped); wait up to a second as memcg_remove */
		int r, tries = 0;
		while ((r = unlinkat(dirfd(d), e->d_name, AT_REMOVEDIR)) < 0 && errno == EBUSY &&
		       tries++ < 20 && no_procs(dirfd(d), e->d_name)) {
			struct timespec ts = { 0, 50 * 1000 * 1000 };
			nanosleep(&ts, NULL);
		}
		if (r == 0) {
			removed++;
		} else if (errno != ENOENT) {
			if (!kept++)
				snprintf(first, sizeof(first), "%s", e->d_name);
		}
	}
	closedir(d);
	if (kept)
		snprintf(note, notelen, "%d cgroup%s of killed kbench runs still hold%s processes, "
			 "left alone: %s/%s%s", kept, kept == 1 ? "" : "s", kept == 1 ? "s" : "",
			 site->dir, first, kept > 1 ? ", ..." : "");
	return removed;
}
