/* kbench - the loadfile parser's interning tables: paths and handle numbers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Two open-addressing hash tables that live only while a loadfile is
 * parsed (lfintern.h): paths go once into the program's arena, each with
 * a struct path_info before it naming the directory that holds it (every
 * directory of a path is interned first and gets its index in
 * prog->dirs, so a client resolves a directory once), and the loadfile's
 * handle numbers (fnums) become dense indexes from 0.  The readers reach
 * them through lf_path(), lf_pattern() and lf_handle_tok() (lfparse.c).
 */
#include "config.h"
#include "load/loadfile/lfintern.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static uint64_t hash_bytes(const char *s, size_t n)
{
	uint64_t h = 1469598103934665603ull;  /* FNV-1a */
	for (size_t i = 0; i < n; i++) {
		h ^= (unsigned char)s[i];
		h *= 1099511628211ull;
	}
	return h;
}

static uint64_t hash_u64(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdull;
	x ^= x >> 33;
	return x;
}

/* Store s[0..n) with its struct path_info before it (4-byte aligned);
 * *off receives the string's offset. */
static int arena_add(struct parser *ps, const char *s, size_t n, uint32_t dir, uint32_t *off)
{
	struct program *p = ps->prog;
	size_t at = (p->arena_len + 3) & ~(size_t)3;
	size_t end = at + sizeof(struct path_info) + n + 1;
	if (end > UINT32_MAX - 1)
		return -1;
	if (end > ps->arena_cap) {
		size_t cap = ps->arena_cap ? ps->arena_cap * 2 : 4096;
		while (cap < end)
			cap *= 2;
		char *a = realloc(p->arena, cap);
		if (!a)
			return -1;
		p->arena = a;
		ps->arena_cap = cap;
	}
	memset(p->arena + p->arena_len, 0, at - p->arena_len);
	const char *slash = memrchr(s, '/', n);
	struct path_info info = { dir, 0, slash ? (uint32_t)(slash - s + 1) : 0 };
	memcpy(p->arena + at, &info, sizeof(info));
	at += sizeof(info);
	memcpy(p->arena + at, s, n);
	p->arena[at + n] = '\0';
	*off = (uint32_t)at;
	p->arena_len = end;
	return 0;
}

static int strtab_grow(struct parser *ps)
{
	struct strtab *t = &ps->paths;
	size_t cap = t->cap ? t->cap * 2 : 256;
	uint32_t *slot = calloc(cap, sizeof(*slot));
	if (!slot)
		return -1;
	for (size_t i = 0; i < t->cap; i++) {
		if (!t->slot[i])
			continue;
		const char *s = ps->prog->arena + t->slot[i] - 1;
		size_t j = hash_bytes(s, strlen(s)) & (cap - 1);
		while (slot[j])
			j = (j + 1) & (cap - 1);
		slot[j] = t->slot[i];
	}
	free(t->slot);
	t->slot = slot;
	t->cap = cap;
	return 0;
}

/* Find s[0..n) among the interned paths: returns 1 and sets *off, or 0
 * with *slot the free slot it would take. */
static int find_path(struct parser *ps, const char *s, size_t n, uint32_t *off, size_t *slot)
{
	struct strtab *t = &ps->paths;
	size_t j = hash_bytes(s, n) & (t->cap - 1);
	while (t->slot[j]) {
		const char *a = ps->prog->arena + t->slot[j] - 1;
		if (memcmp(a, s, n) == 0 && a[n] == '\0') {
			*off = t->slot[j] - 1;
			return 1;
		}
		j = (j + 1) & (t->cap - 1);
	}
	*slot = j;
	return 0;
}

/* Intern s[0..n), whose holding directory has index dir; *off receives
 * its arena offset. */
static int intern_one(struct parser *ps, const char *s, size_t n, uint32_t dir, uint32_t *off)
{
	struct strtab *t = &ps->paths;
	size_t j;
	if ((t->used + 1) * 2 > t->cap && strtab_grow(ps) < 0)
		return -1;
	if (find_path(ps, s, n, off, &j))
		return 0;
	if (arena_add(ps, s, n, dir, off) < 0)
		return -1;
	t->slot[j] = *off + 1;
	t->used++;
	return 0;
}

/* Append arena offset off (NO_PATH for the base) to prog->dirs; *idx
 * receives its index. */
static int dirs_push(struct parser *ps, uint32_t off, uint32_t *idx)
{
	struct program *p = ps->prog;
	if (p->ndirs + 1 > ps->dirs_cap) {
		size_t cap = ps->dirs_cap ? ps->dirs_cap * 2 : 64;
		if (cap > UINT32_MAX / 2)
			return -1;
		uint32_t *d = realloc(p->dirs, cap * sizeof(*d));
		if (!d)
			return -1;
		p->dirs = d;
		ps->dirs_cap = cap;
	}
	*idx = p->ndirs;
	p->dirs[p->ndirs++] = off;
	return 0;
}

/* The directory index of the path at off, given one if it has none. */
static int dir_index(struct parser *ps, uint32_t off, uint32_t *idx)
{
	struct path_info *info = (struct path_info *)(void *)(ps->prog->arena + off - sizeof(*info));
	if (!info->self) {
		if (dirs_push(ps, off, idx) < 0)
			return -1;
		/* the arena did not move: dirs_push grows prog->dirs only */
		info->self = *idx;
	}
	*idx = info->self;
	return 0;
}

/* Intern path s; *off receives its arena offset.  A new path's
 * directories are interned first, shortest first, each with its index in
 * prog->dirs, so every path knows the directory that holds it. */
int lf_intern_path(struct parser *ps, const char *s, uint32_t *off)
{
	struct strtab *t = &ps->paths;
	size_t n = strlen(s), j;
	uint32_t dir = 0, doff;
	if (ps->prog->ndirs == 0 && dirs_push(ps, NO_PATH, &dir) < 0)
		return -1;
	if (t->cap && find_path(ps, s, n, off, &j))
		return 0;
	for (size_t i = 0; i < n; i++) {
		if (s[i] != '/')
			continue;
		if (intern_one(ps, s, i, dir, &doff) < 0 || dir_index(ps, doff, &dir) < 0)
			return -1;
	}
	return intern_one(ps, s, n, dir, off);
}

static int numtab_grow(struct numtab *t)
{
	size_t cap = t->cap ? t->cap * 2 : 256;
	uint64_t *key = calloc(cap, sizeof(*key));
	uint32_t *val = calloc(cap, sizeof(*val));
	if (!key || !val) {
		free(key);
		free(val);
		return -1;
	}
	for (size_t i = 0; i < t->cap; i++) {
		if (!t->val[i])
			continue;
		size_t j = hash_u64(t->key[i]) & (cap - 1);
		while (val[j])
			j = (j + 1) & (cap - 1);
		key[j] = t->key[i];
		val[j] = t->val[i];
	}
	free(t->key);
	free(t->val);
	t->key = key;
	t->val = val;
	t->cap = cap;
	return 0;
}

int lf_handle(struct parser *ps, uint64_t fnum, uint32_t *idx)
{
	struct numtab *t = &ps->handles;
	if ((t->used + 1) * 2 > t->cap && numtab_grow(t) < 0)
		return -1;
	size_t j = hash_u64(fnum) & (t->cap - 1);
	while (t->val[j]) {
		if (t->key[j] == fnum) {
			*idx = t->val[j] - 1;
			return 0;
		}
		j = (j + 1) & (t->cap - 1);
	}
	if (ps->prog->nhandles == UINT32_MAX - 1)
		return -1;
	*idx = ps->prog->nhandles++;
	t->key[j] = fnum;
	t->val[j] = *idx + 1;
	t->used++;
	return 0;
}

void lf_tables_free(struct parser *ps)
{
	free(ps->paths.slot);
	free(ps->handles.key);
	free(ps->handles.val);
	ps->paths = (struct strtab){ 0 };
	ps->handles = (struct numtab){ 0 };
}
