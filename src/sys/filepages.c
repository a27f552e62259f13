/* kbench - give back the resident pages of read-only file mappings, and
 * the stack below the caller
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "sys/filepages.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* One mapping of /proc/self/smaps as read so far. */
struct vma {
	uintptr_t start, end;
	int candidate;       /* private, not writable, a file's */
	int stack;           /* the main thread's stack */
	unsigned long rss_kb, anon_kb;
	int seen_anon;       /* its Anonymous: line was read */
};

/* The stack's pages more than FILEPAGES_STACK_KEEP below sp, what deeper
 * calls before left there, are dropped (they read as zeros after, and
 * nothing below sp is live). */
static void trim_stack(const struct vma *v, uintptr_t sp)
{
	uintptr_t pg = (uintptr_t)sysconf(_SC_PAGESIZE);
	if (sp < v->start + FILEPAGES_STACK_KEEP || sp > v->end)
		return;
	uintptr_t top = (sp - FILEPAGES_STACK_KEEP) & ~(pg - 1);
	if (top > v->start)
		madvise((void *)v->start, top - v->start, MADV_DONTNEED);
}

static void settle(const struct vma *v, uintptr_t sp, size_t *dropped)
{
	if (v->stack) {
		trim_stack(v, sp);
		return;
	}
	if (!v->candidate || !v->seen_anon || v->anon_kb || !v->rss_kb)
		return;
	if (madvise((void *)v->start, v->end - v->start, MADV_DONTNEED) == 0 && dropped)
		*dropped += (size_t)v->rss_kb * 1024;
}

int filepages_drop(size_t *dropped)
{
	volatile char here = 0;
	uintptr_t sp = (uintptr_t)&here;
	if (dropped)
		*dropped = 0;
	FILE *f = fopen("/proc/self/smaps", "re");
	if (!f)
		return -1;
	char line[512];
	struct vma v = { 0 };
	int whole = 1;  /* line starts a line of the file */
	while (fgets(line, sizeof(line), f)) {
		int starts = whole;
		whole = strchr(line, '\n') != NULL;
		if (!starts)
			continue;  /* the rest of a long line */
		uintptr_t s, e;
		char perms[8];
		int path_at = -1;
		if (sscanf(line, "%" SCNxPTR "-%" SCNxPTR " %7s %*s %*s %*s %n", &s, &e, perms,
			   &path_at) == 3 && path_at > 0) {
			settle(&v, sp, dropped);
			v = (struct vma){ s, e, 0, 0, 0, 0, 0 };
			v.candidate = line[path_at] == '/' && strlen(perms) == 4 && perms[1] != 'w' &&
				      perms[3] == 'p' && strncmp(line + path_at, "/memfd:", 7) != 0;
			v.stack = strncmp(line + path_at, "[stack]", 7) == 0;
			continue;
		}
		unsigned long kb;
		if (sscanf(line, "Rss: %lu kB", &kb) == 1)
			v.rss_kb = kb;
		else if (sscanf(line, "Anonymous: %lu kB", &kb) == 1) {
			v.anon_kb = kb;
			v.seen_anon = 1;
		}
	}
	int err = ferror(f) ? EIO : 0;
	fclose(f);
	if (err) {
		errno = err;
		return -1;
	}
	settle(&v, sp, dropped);
	return 0;
}
