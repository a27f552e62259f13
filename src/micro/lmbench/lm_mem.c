/* kbench - micro: lmbench's file, VM and memory tests
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * lat_fs (0K and 10K file create and delete, per file), lat_mmap (map a
 * file, read one byte every 16 KiB, unmap; per MB), lat_pagefault (map a
 * cached file and touch every page; per page), bw_file_rd (reread a
 * cached file with read() in 64 KiB blocks, summing its words),
 * bw_mmap_rd (map it, sum its words, unmap), bw_mem (rd, wr, bcopy with
 * memcpy and with a plain unrolled loop) and lat_mem_rd (a pointer chase
 * with a 128-byte stride, and lmbench 3's random order of the same lines).  Bandwidths in MB/s with MB = 10^6 bytes,
 * counting the bytes read, written or copied once (lmbench).  Memory
 * latencies in ns per load.  Files live in opts->tmpdir only and are
 * removed before return.
 */
#include "config.h"
#include "cli.h"
#include "micro/lmbench/lmbench.h"

#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define MiB (1024 * 1024)
#define FILE_BLOCK (64 * 1024)
#define CHASE_STRIDE 128
#define CHASE_UNROLL 16

static volatile uint64_t sink;

static size_t page_size(void)
{
	long p = sysconf(_SC_PAGESIZE);
	return p > 0 ? (size_t)p : 4096;
}

uint64_t lm_sum_words(const void *buf, size_t bytes)
{
	const uint64_t *p = buf, *end = p + bytes / 8;
	uint64_t a = 0, b = 0, c = 0, d = 0;
	for (; p + 8 <= end; p += 8) {
		a += p[0] + p[4];
		b += p[1] + p[5];
		c += p[2] + p[6];
		d += p[3] + p[7];
	}
	for (; p < end; p++)
		a += *p;
	return a + b + c + d;
}

/* ---- files ---- */

struct file_ctx {
	int dirfd, fd;
	size_t bytes;
	uint64_t made;          /* names f0 .. f(made-1) may exist */
	char *buf;
	int delete;
};

static void fname(char *name, uint64_t i)
{
	snprintf(name, 32, "lat_fs.%llu", (unsigned long long)i);
}

static int make_files(void *ctx, uint64_t n, char *why)
{
	struct file_ctx *c = ctx;
	char name[32];
	if (n > c->made)
		c->made = n;
	for (uint64_t i = 0; i < n; i++) {
		fname(name, i);
		int fd = openat(c->dirfd, name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
		if (fd < 0 || (c->bytes && micro_write_all(fd, c->buf, c->bytes) < 0)) {
			snprintf(why, 160, "create of a %zu-byte file: %s", c->bytes, strerror(errno));
			if (fd >= 0)
				close(fd);
			return -1;
		}
		close(fd);
	}
	return 0;
}

static int remove_files(void *ctx, uint64_t n, char *why)
{
	struct file_ctx *c = ctx;
	char name[32];
	for (uint64_t i = 0; i < n; i++) {
		fname(name, i);
		if (unlinkat(c->dirfd, name, 0) < 0) {
			snprintf(why, 160, "delete: %s", strerror(errno));
			return -1;
		}
	}
	return 0;
}

int lm_fs(const struct micro_test *t, const struct micro_opts *o, struct micro_result *r)
{
	const struct lm_fs_arg *a = t->arg;
	struct file_ctx c = { .bytes = a->bytes, .delete = a->delete };
	c.dirfd = open(o->tmpdir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (c.dirfd < 0)
		return lm_note(r, -1, "cannot open %s: %s", o->tmpdir, strerror(errno));
	if (c.bytes && !(c.buf = malloc(c.bytes))) {
		close(c.dirfd);
		return lm_note(r, -1, "out of memory");
	}
	if (c.buf)
		memset(c.buf, 'f', c.bytes);
	struct harness_bench b = { .unit = HARNESS_US, .ctx = &c, .ops_per_iter = 1,
				   .max_iters = o->quick ? 2000 : 10000 };
	if (a->delete) {
		b.before = make_files;
		b.run = remove_files;
	} else {
		b.run = make_files;
		b.after = remove_files;
	}
	int rc = harness_run(o, &b, r);
	char name[32];
	for (uint64_t i = 0; i < c.made; i++) {     /* whatever a failure left */
		fname(name, i);
		unlinkat(c.dirfd, name, 0);
	}
	free(c.buf);
	close(c.dirfd);
	return rc;
}

/* A cached file of bytes in tmpdir, open and already unlinked; returns the
 * fd, or -1 with r set and *rc the test's return (0 skip, -1 failure). */
static int cached_file(const struct micro_opts *o, size_t bytes, struct micro_result *r,
		       int *rc)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s/lm_file", o->tmpdir);
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0) {
		*rc = lm_note(r, -1, "cannot create %s: %s", path, strerror(errno));
		return -1;
	}
	unlink(path);
	char *blk = malloc(FILE_BLOCK);
	int err = blk ? 0 : ENOMEM;
	for (size_t done = 0; !err && done < bytes; done += FILE_BLOCK) {
		for (size_t i = 0; i < FILE_BLOCK; i++)
			blk[i] = (char)(done + i);
		if (micro_write_all(fd, blk, FILE_BLOCK) < 0)
			err = errno;
	}
	free(blk);
	if (!err) {     /* read it once so it is cached */
		char tmp[4096];
		for (off_t off = 0; off < (off_t)bytes; off += sizeof(tmp))
			if (pread(fd, tmp, sizeof(tmp), off) < 0) {
				err = errno;
				break;
			}
	}
	if (err) {
		close(fd);
		*rc = lm_note(r, err == ENOSPC || err == EDQUOT ? 0 : -1, "cannot write a %zu-byte "
			      "file in %s: %s", bytes, o->tmpdir, strerror(err));
		return -1;
	}
	return fd;
}

struct map_ctx {
	int fd;
	size_t bytes;
	size_t touch;           /* lat_mmap: bytes between touches */
	size_t page;            /* the page size, bytes */
	char *buf;
};

static int run_mmap(void *ctx, uint64_t n, char *why)
{
	struct map_ctx *c = ctx;
	uint64_t sum = 0;
	for (uint64_t i = 0; i < n; i++) {
		volatile char *p = mmap(NULL, c->bytes, PROT_READ, MAP_SHARED, c->fd, 0);
		if (p == MAP_FAILED) {
			snprintf(why, 160, "mmap: %s", strerror(errno));
			return -1;
		}
		for (size_t off = 0; off < c->bytes; off += c->touch)
			sum += (uint64_t)p[off];
		munmap((void *)p, c->bytes);
	}
	sink += sum;
	return 0;
}

/* lat_pagefault: every page once, in an order that jumps (page k x 7
 * mod the number of pages, 7 prime to it), so faults do not come in
 * sequence. */
static int run_fault(void *ctx, uint64_t n, char *why)
{
	struct map_ctx *c = ctx;
	size_t pages = c->bytes / c->page;
	uint64_t sum = 0;
	for (uint64_t i = 0; i < n; i++) {
		volatile char *p = mmap(NULL, c->bytes, PROT_READ, MAP_SHARED, c->fd, 0);
		if (p == MAP_FAILED) {
			snprintf(why, 160, "mmap: %s", strerror(errno));
			return -1;
		}
		for (size_t k = 0; k < pages; k++)
			sum += (uint64_t)p[((k * 7) % pages) * c->page];
		munmap((void *)p, c->bytes);
	}
	sink += sum;
	return 0;
}

static int run_file_rd(void *ctx, uint64_t n, char *why)
{
	struct map_ctx *c = ctx;
	uint64_t sum = 0;
	for (uint64_t i = 0; i < n; i++)
		for (size_t off = 0; off < c->bytes; off += FILE_BLOCK) {
			ssize_t g = pread(c->fd, c->buf, FILE_BLOCK, (off_t)off);
			if (g != FILE_BLOCK) {
				snprintf(why, 160, "read: %s", g < 0 ? strerror(errno) : "short");
				return -1;
			}
			sum += lm_sum_words(c->buf, FILE_BLOCK);
		}
	sink += sum;
	return 0;
}

static int run_mmap_rd(void *ctx, uint64_t n, char *why)
{
	struct map_ctx *c = ctx;
	uint64_t sum = 0;
	for (uint64_t i = 0; i < n; i++) {
		void *p = mmap(NULL, c->bytes, PROT_READ, MAP_SHARED, c->fd, 0);
		if (p == MAP_FAILED) {
			snprintf(why, 160, "mmap: %s", strerror(errno));
			return -1;
		}
		sum += lm_sum_words(p, c->bytes);
		munmap(p, c->bytes);
	}
	sink += sum;
	return 0;
}

static int file_test(const struct micro_opts *o, struct micro_result *r, size_t bytes,
		     struct harness_bench *b)
{
	struct map_ctx c = { .bytes = bytes, .touch = 16 * 1024, .page = page_size() };
	int rc;
	if ((c.fd = cached_file(o, bytes, r, &rc)) < 0)
		return rc;
	if (!(c.buf = malloc(FILE_BLOCK))) {
		close(c.fd);
		return lm_note(r, -1, "out of memory");
	}
	b->ctx = &c;
	rc = harness_run(o, b, r);
	free(c.buf);
	close(c.fd);
	return rc;
}

static size_t file_bytes(const struct micro_opts *o)
{
	return (size_t)(o->quick ? 2 : 8) * MiB;
}

int lm_mmap(const struct micro_test *t, const struct micro_opts *o, struct micro_result *r)
{
	(void)t;
	size_t bytes = file_bytes(o);
	struct harness_bench b = { .run = run_mmap, .unit = HARNESS_US,
				   .ops_per_iter = (double)bytes / 1e6 };
	return file_test(o, r, bytes, &b);
}

int lm_pagefault(const struct micro_test *t, const struct micro_opts *o, struct micro_result *r)
{
	(void)t;
	size_t bytes = file_bytes(o), page = page_size();
	if ((bytes / page) % 7 == 0)     /* 7 must be prime to the page count */
		bytes += page;
	struct harness_bench b = { .run = run_fault, .unit = HARNESS_US,
				   .ops_per_iter = (double)(bytes / page) };
	return file_test(o, r, bytes, &b);
}

int lm_bw_file(const struct micro_test *t, const struct micro_opts *o, struct micro_result *r)
{
	(void)t;
	size_t bytes = file_bytes(o);
	struct harness_bench b = { .run = run_file_rd, .unit = HARNESS_MBPS,
				   .bytes_per_iter = (double)bytes };
	return file_test(o, r, bytes, &b);
}

int lm_bw_mmap(const struct micro_test *t, const struct micro_opts *o, struct micro_result *r)
{
	(void)t;
	size_t bytes = file_bytes(o);
	struct harness_bench b = { .run = run_mmap_rd, .unit = HARNESS_MBPS,
				   .bytes_per_iter = (double)bytes };
	return file_test(o, r, bytes, &b);
}

/* ---- memory bandwidth ---- */

struct mem_ctx {
	int op;
	size_t bytes;
	uint64_t *src, *dst;
};

/* The plain loops: a compiler barrier per block keeps them loops (not a
 * call to memcpy or memset) without adding instructions. */
static void copy_loop(uint64_t *restrict d, const uint64_t *restrict s, size_t bytes)
{
	const uint64_t *end = s + bytes / 8;
	for (; s < end; s += 8, d += 8) {
		uint64_t a = s[0], b = s[1], c = s[2], e = s[3];
		uint64_t f = s[4], g = s[5], h = s[6], k = s[7];
		d[0] = a; d[1] = b; d[2] = c; d[3] = e;
		d[4] = f; d[5] = g; d[6] = h; d[7] = k;
		__asm__ __volatile__("" ::: "memory");
	}
}

static void write_loop(uint64_t *d, size_t bytes, uint64_t v)
{
	uint64_t *end = d + bytes / 8;
	for (; d < end; d += 8) {
		d[0] = v; d[1] = v; d[2] = v; d[3] = v;
		d[4] = v; d[5] = v; d[6] = v; d[7] = v;
		__asm__ __volatile__("" ::: "memory");
	}
}

static int run_mem(void *ctx, uint64_t n, char *why)
{
	(void)why;
	struct mem_ctx *c = ctx;
	uint64_t sum = 0;
	for (uint64_t i = 0; i < n; i++)
		switch (c->op) {
		case LM_MEM_RD:
			sum += lm_sum_words(c->src, c->bytes);
			break;
		case LM_MEM_WR:
			write_loop(c->dst, c->bytes, i);
			break;
		case LM_MEM_BCOPY_LIBC:
			memcpy(c->dst, c->src, c->bytes);
			break;
		case LM_MEM_BCOPY_LOOP:
			copy_loop(c->dst, c->src, c->bytes);
			break;
		}
	sink += sum;
	return 0;
}

static void *map_anon(size_t bytes)
{
	void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return NULL;
	memset(p, 1, bytes);     /* every page faulted in before timing */
	return p;
}

int lm_bw_mem(const struct micro_test *t, const struct micro_opts *o, struct micro_result *r)
{
	struct mem_ctx c = { .op = *(const int *)t->arg, .bytes = (size_t)(o->quick ? 8 : 64) * MiB };
	int rc;
	c.src = map_anon(c.bytes);
	c.dst = map_anon(c.bytes);
	if (!c.src || !c.dst)
		rc = lm_note(r, 0, "cannot map two %zu MiB buffers", c.bytes / MiB);
	else {
		struct harness_bench b = { .run = run_mem, .ctx = &c, .unit = HARNESS_MBPS,
					   .bytes_per_iter = (double)c.bytes };
		rc = harness_run(o, &b, r);
	}
	if (c.src)
		munmap(c.src, c.bytes);
	if (c.dst)
		munmap(c.dst, c.bytes);
	return rc;
}

/* ---- memory latency ---- */

void **lm_make_chain(char *buf, size_t bytes, size_t stride)
{
	size_t n = bytes / stride;
	for (size_t i = 0; i < n; i++) {
		size_t prev = i ? i - 1 : n - 1;
		*(void **)(buf + i * stride) = buf + prev * stride;
	}
	return (void **)(buf + (n - 1) * stride);
}

static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += UINT64_C(0x9e3779b97f4a7c15));
	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

void **lm_make_random_chain(char *buf, size_t bytes, size_t stride, uint64_t seed)
{
	size_t n = bytes / stride;
	size_t *order = malloc(n * sizeof(*order));
	if (!order)
		return NULL;
	for (size_t i = 0; i < n; i++)
		order[i] = i;
	for (size_t i = n - 1; i > 0; i--) {
		size_t j = (size_t)(splitmix64(&seed) % (i + 1));
		size_t t = order[i];
		order[i] = order[j];
		order[j] = t;
	}
	for (size_t i = 0; i < n; i++)
		*(void **)(buf + order[i] * stride) = buf + order[(i + 1) % n] * stride;
	void **start = (void **)(buf + order[0] * stride);
	free(order);
	return start;
}

struct chase_ctx { void **p; };

static int run_chase(void *ctx, uint64_t n, char *why)
{
	(void)why;
	struct chase_ctx *c = ctx;
	void **p = c->p;
	for (uint64_t i = 0; i < n; i++) {
#define HOP p = (void **)*p;
		HOP HOP HOP HOP HOP HOP HOP HOP HOP HOP HOP HOP HOP HOP HOP HOP
#undef HOP
	}
	c->p = p;
	return 0;
}

/* Chase a chain of bytes, in stride order or random: r gets ns per load.
 * Returns as a test. */
static int chase(const struct micro_opts *o, size_t bytes, int random, struct micro_result *r)
{
	char *buf = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (buf == MAP_FAILED)
		return lm_note(r, 0, "cannot map %zu bytes: %s", bytes, strerror(errno));
	struct chase_ctx c = { random ? lm_make_random_chain(buf, bytes, CHASE_STRIDE, bytes)
				      : lm_make_chain(buf, bytes, CHASE_STRIDE) };
	if (!c.p) {
		munmap(buf, bytes);
		return lm_note(r, -1, "out of memory for the random order of %zu bytes", bytes);
	}
	struct harness_bench b = { .run = run_chase, .ctx = &c, .unit = HARNESS_NS,
				   .ops_per_iter = CHASE_UNROLL };
	int rc = harness_run(o, &b, r);
	munmap(buf, bytes);
	return rc;
}

static int read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return -1;
	int ok = fgets(buf, (int)len, f) != NULL;
	fclose(f);
	if (!ok)
		return -1;
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

int lm_cache_sizes(size_t size[4])
{
	glob_t g;
	int deepest = 0;
	memset(size, 0, 4 * sizeof(size[0]));
	if (glob("/sys/devices/system/cpu/cpu0/cache/index*", 0, NULL, &g) != 0)
		return 0;
	for (size_t i = 0; i < g.gl_pathc; i++) {
		char path[4200], level[16], type[32], sz[32];
		snprintf(path, sizeof(path), "%s/level", g.gl_pathv[i]);
		if (read_line(path, level, sizeof(level)) < 0)
			continue;
		snprintf(path, sizeof(path), "%s/type", g.gl_pathv[i]);
		if (read_line(path, type, sizeof(type)) < 0 || !strcmp(type, "Instruction"))
			continue;
		snprintf(path, sizeof(path), "%s/size", g.gl_pathv[i]);
		if (read_line(path, sz, sizeof(sz)) < 0)
			continue;
		int lv = atoi(level);
		if (lv >= 1 && lv <= 3) {
			uint64_t v;    /* sysfs writes "32K", "1024K", "32768K" */
			size[lv] = cli_parse_size(sz, &v) == 0 ? (size_t)v : 0;
			if (size[lv] && lv > deepest)
				deepest = lv;
		}
	}
	globfree(&g);
	return deepest;
}

unsigned lm_levels_from_curve(const size_t *size, const double *lat, unsigned n, size_t *out,
			      unsigned max)
{
	unsigned k = 0;
	for (unsigned i = 0; i + 1 < n && k < max; i++) {
		if (!(lat[i + 1] > 1.4 * lat[i]))
			continue;
		/* a rise that falls back at the next point is noise */
		if (i + 2 < n && !(lat[i + 2] > 1.2 * lat[i]))
			continue;
		out[k++] = size[i];
	}
	return k;
}

/* Cache sizes by level, from sysfs or else from a latency curve measured
 * once (16 KiB to 64 MiB, doubling). */
static int cache_levels(const struct micro_opts *o, size_t size[4], int *from_curve)
{
	static size_t known[4];
	static int done, deepest, curve;
	if (!done) {
		deepest = lm_cache_sizes(known);
		if (!deepest) {
			size_t sz[13], bounds[3];
			double lat[13];
			unsigned n = 0;
			struct micro_opts q = *o;
			q.enough_s = 0.001;
			q.intervals = 3;
			for (size_t s = 16 * 1024; s <= (size_t)64 * MiB && n < 13; s *= 2) {
				struct micro_result tr = { 0 };
				if (chase(&q, s, 0, &tr) != 0 || tr.skipped[0])
					break;
				lat[n] = tr.value;
				sz[n++] = s;
			}
			unsigned k = lm_levels_from_curve(sz, lat, n, bounds, 3);
			for (unsigned i = 0; i < k; i++)
				known[i + 1] = bounds[i];
			deepest = (int)k;
			curve = 1;
		}
		done = 1;
	}
	memcpy(size, known, sizeof(known));
	*from_curve = curve;
	return deepest;
}

int lm_lat_mem(const struct micro_test *t, const struct micro_opts *o, struct micro_result *r)
{
	const struct lm_mem_lat_arg *a = t->arg;
	int level = a->level, curve;
	size_t size[4];
	int deepest = cache_levels(o, size, &curve);
	size_t bytes;
	if (level == 0) {
		size_t llc = deepest ? size[deepest] : 0;
		size_t floor_ = (size_t)(o->quick ? 16 : 64) * MiB;
		bytes = llc * (o->quick ? 2 : 4);
		if (bytes < floor_)
			bytes = floor_;
	} else {
		if (level > deepest || !size[level])
			return lm_note(r, 0, "no level %d cache %s", level,
				       curve ? "seen in the latency curve" : "listed in sysfs");
		bytes = size[level] / 2;
		if (level > 1 && bytes <= size[level - 1])
			return lm_note(r, 0, "level %d cache (%zu KiB) not larger than twice level %d",
				       level, size[level] / 1024, level - 1);
	}
	bytes -= bytes % (CHASE_STRIDE * 8);
	return chase(o, bytes, a->random, r);
}
