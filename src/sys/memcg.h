/* kbench - memory cgroups: limit the memory and page cache of a run
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Testers compare kernels on a machine booted with little memory (mem=32M,
 * mem=128M).  A memory cgroup gives the same pressure without a reboot:
 * the processes put in it are charged for the memory and the page cache
 * they bring in, and the kernel reclaims (and at worst OOM-kills inside
 * the group) when the charge reaches the limit.
 *
 * Both interfaces of the kernel's Documentation/admin-guide/cgroup-v1/
 * memory.rst and cgroup-v2.rst are supported.  Which one holds the memory
 * controller is read from /proc/self/cgroup (hierarchy lines
 * "ID:CONTROLLERS:PATH"; v2 is "0::PATH") and /proc/self/mountinfo (where
 * that hierarchy is mounted and which part of it the mount shows), never
 * assumed from /sys/fs/cgroup.  A cgroup is always made as a child of the
 * cgroup kbench itself runs in, and nothing outside that subtree is
 * touched.
 *
 * Used by kbench load (--mem-limit) and meant for kbench suite.  The
 * parsing functions are pure (text in, values out) so they can be tested
 * on sample text.
 */
#ifndef KBENCH_MEMCG_H
#define KBENCH_MEMCG_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "sys/mountinfo.h"

#define MEMCG_UNKNOWN UINT64_MAX   /* a figure this kernel does not report */
#define MEMCG_V1_NO_LIMIT (1ULL << 62) /* v1 shows "no limit" as about 2^63 */

enum memcg_version { MEMCG_V1 = 1, MEMCG_V2 = 2 };

/* Where memory cgroups can be made: the directory of the cgroup kbench
 * runs in, in the hierarchy that has the memory controller. */
struct memcg_site {
	enum memcg_version version;
	char dir[PATH_MAX];
};

/* One memory cgroup made by memcg_create(). */
struct memcg {
	enum memcg_version version;
	int parentfd;            /* the site's directory */
	int dirfd;               /* the cgroup's directory */
	int procs_fd;            /* its cgroup.procs, open for writing */
	char name[64];           /* its name under the site */
	uint64_t limit_bytes;    /* the limit as the kernel holds it, bytes */
	uint64_t sampled_peak;   /* highest usage seen by memcg_sample(), bytes */
	uint64_t sampled_proc;   /* highest memory of the processes themselves
				    seen by memcg_sample() (memcg_stats'
				    proc_peak_bytes), bytes; MEMCG_UNKNOWN: none */
};

/* What a cgroup did, read by memcg_read().  Every figure is MEMCG_UNKNOWN
 * when the kernel does not report it. */
struct memcg_stats {
	enum memcg_version version;
	uint64_t limit_bytes;    /* the limit in force, bytes (the kernel rounds
				    down to whole pages) */
	uint64_t peak_bytes;     /* highest charge: v1 memory.max_usage_in_bytes,
				    v2 memory.peak, else the highest sample */
	int peak_sampled;        /* 1 if peak_bytes is the highest sample of
				    memory.current (v2 before Linux 5.19) */
	uint64_t limit_hits;     /* v1 memory.failcnt (charges that hit the
				    limit); v2 memory.events max + high */
	uint64_t oom_kills;      /* processes the OOM killer killed in the
				    group: v2 memory.events oom_kill, v1
				    memory.oom_control oom_kill (Linux 4.13+) */
	uint64_t cache_bytes;    /* page cache charged to the group now, bytes:
				    v1 memory.stat total_cache (or cache), v2
				    memory.stat file */
	uint64_t proc_peak_bytes; /* the highest sample (memcg_sample, about
				    once a second, and at memcg_read) of the
				    memory of the group's processes themselves,
				    not the page cache they bring in: v1
				    memory.stat total_rss (anonymous memory),
				    v2 anon + kernel_stack + pagetables */
};

/* ---- pure parsing (tested on sample text) ---- */

/* From the text of /proc/self/cgroup (lines "ID:CONTROLLERS:PATH"), the
 * path of this process's cgroup in the hierarchy of version v: for v1 the
 * line whose comma-separated CONTROLLERS include "memory", for v2 the line
 * "0::PATH".  Copies PATH (always starting with '/') into path (len
 * bytes).  Returns 0, or -1 if there is no such line or it does not fit. */
int memcg_parse_proc_cgroup(const char *text, enum memcg_version v, char *path, size_t len);

/* 1 if mount m is a v1 hierarchy holding the memory controller (type
 * "cgroup" with "memory" among its super-block options) or, for v2, a
 * "cgroup2" mount; else 0. */
int memcg_mount_matches(const struct mountinfo *m, enum memcg_version v);

/* The directory of cgroup cgpath (a path from /proc/self/cgroup) seen
 * through mount m: the mount point plus cgpath less the mount's root.
 * Returns 0, or -1 if cgpath is not inside the mount's root (the mount
 * shows another part of the hierarchy) or the result does not fit. */
int memcg_dir_through(const struct mountinfo *m, const char *cgpath, char *dir, size_t len);

/* In text made of "KEY VALUE" lines (memory.stat, memory.events,
 * memory.oom_control), the whole number after KEY.  Returns 0, or -1 if
 * no line has that key or its value is not a whole number. */
int memcg_key_value(const char *text, const char *key, uint64_t *out);

/* 1 if word is one of the items of list separated by any of the
 * characters in seps (e.g. " \n" for cgroup.controllers, "," for mount
 * options), else 0. */
int memcg_has_word(const char *list, const char *word, const char *seps);

/* A limit file's value: a whole number of bytes, or "max" (v2: no limit,
 * returned as MEMCG_UNKNOWN).  Returns 0 or -1. */
int memcg_parse_limit(const char *text, uint64_t *out);

/* ---- the system ---- */

/* The smallest memory limit on this process's own cgroup and its
 * ancestors (v1 memory.limit_in_bytes, else v2 memory.max), in bytes; read
 * only, no root needed.  Returns MEMCG_UNKNOWN when there is no limit or
 * no memory controller (v1's "no limit", 2^62 bytes and more, counts as
 * none). */
uint64_t memcg_own_limit(void);

/* The OOM kills counted in this process's own memory cgroup (v2
 * memory.events, v1 memory.oom_control: oom_kill), its directory into dir
 * (len bytes): a child that died of SIGKILL while the count rose was the
 * OOM killer's.  No root needed.  MEMCG_UNKNOWN when it cannot be read. */
uint64_t memcg_own_oom_kills(char *dir, size_t len);

/* Make this process the OOM killer's first choice (oom_score_adj 1000):
 * a child calls it, so that a cgroup too small for the run loses a
 * child, and the parent lives to clean up what the run made.  Errors are
 * ignored (the score stays). */
void memcg_oom_first(void);

/* Find where memory cgroups can be made for this process, without making
 * one: needs root; prefers v1 when a v1 hierarchy holds the memory
 * controller (then v2 cannot have it), else v2 with "memory" in the
 * cgroup's cgroup.controllers.  On v2, if memory is not yet enabled for
 * the cgroup's children, writes "+memory" to its cgroup.subtree_control
 * (and leaves it so); that fails (EBUSY) when the cgroup has processes of
 * its own and is not the root.  Returns 0 with site filled, or -1 with a
 * one-line reason in why (whylen bytes). */
int memcg_detect(struct memcg_site *site, char *why, size_t whylen);

/* Make the cgroup NAME under site with a limit of limit_bytes bytes on
 * memory plus page cache: v1 memory.limit_in_bytes, v2 memory.max.  Swap
 * is left as the parent has it (v1 memory.memsw.*, v2 memory.swap.max
 * untouched).  A left-over empty cgroup of that name is removed first.
 * Returns 0 with cg filled, or -1 with a one-line reason in why (and
 * nothing left behind). */
int memcg_create(const struct memcg_site *site, const char *name, uint64_t limit_bytes,
		 struct memcg *cg, char *why, size_t whylen);

/* Move process pid (0: the caller) into cg by writing its number to the
 * cgroup's cgroup.procs.  Async-signal-safe (one write(2), no
 * allocation), so a child may call it right after fork().  Returns 0 or a
 * positive errno. */
int memcg_join(const struct memcg *cg, pid_t pid);

/* Read the current usage (v1 memory.usage_in_bytes, v2 memory.current)
 * and keep the highest in cg->sampled_peak: the peak on kernels without
 * memory.peak; and the memory of the group's processes themselves
 * (memory.stat: see proc_peak_bytes), the highest in cg->sampled_proc.
 * Meant to be called about once a second. */
void memcg_sample(struct memcg *cg);

/* Fill st from the cgroup's files (see struct memcg_stats).  Returns 0,
 * or -1 with errno if the cgroup's directory cannot be read. */
int memcg_read(struct memcg *cg, struct memcg_stats *st);

/* Remove the cgroup (it must hold no process any more; a process that is
 * still exiting is waited for up to a second) and close its files.  Safe
 * to call on a cg that memcg_create() did not fill if it was zeroed with
 * its fds set to -1 (see memcg_init).  Returns 0, or -1 with a one-line
 * reason in why. */
int memcg_remove(struct memcg *cg, char *why, size_t whylen);

/* Remove the cgroups under site named prefix followed by the number of a
 * process that no longer exists (kill(pid, 0) fails with ESRCH): what a
 * kbench killed by SIGKILL leaves, as it cannot remove its own cgroup.
 * Only an empty cgroup can be removed (rmdir; one whose cgroup.procs is
 * empty but whose last processes are still exiting is waited for up to a
 * second); one that still holds processes is left alone and said in note
 * ("" when there is none).
 * Nothing else under site is touched.  Returns how many were removed, or
 * -1 if site's directory cannot be read. */
int memcg_sweep(const struct memcg_site *site, const char *prefix, char *note, size_t notelen);

/* Mark cg as holding no cgroup (fds -1), so memcg_remove() does nothing. */
void memcg_init(struct memcg *cg);

#endif
