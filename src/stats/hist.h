/* kbench - latency histogram
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A log-linear histogram of durations in nanoseconds, after fio's scheme:
 * values below 128 ns have a bucket each; above that every power of two
 * is split into 64 equal buckets, so a bucket's width is at most 1/64 of
 * its lower bound and its midpoint is within 0.8% of any value in it.
 * Histograms merge by adding counts, so clients, runs and machines
 * combine exactly.  Values of 2^40 ns (about 18 minutes) and more land in
 * the last bucket; the exact maximum is kept beside it.
 *
 * The structs are plain data with no pointers (struct hist_pool, which
 * says where a recorder's chunks are, is kept apart): they can live in a
 * MAP_SHARED mapping written by one process and read by another.
 */
#ifndef KBENCH_HIST_H
#define KBENCH_HIST_H

#include <stdint.h>

#define HIST_SUB_BITS 6                      /* 64 buckets per power of two */
#define HIST_LINEAR (2u << HIST_SUB_BITS)    /* 128 exact buckets */
#define HIST_MAX_BIT 40                      /* values up to 2^40 ns */
#define HIST_BUCKETS (HIST_LINEAR + (HIST_MAX_BIT - HIST_SUB_BITS - 1) * (1u << HIST_SUB_BITS))

struct hist {
	uint64_t count;                /* number of values recorded */
	uint64_t sum_ns;               /* sum of all values, ns */
	uint64_t min_ns;               /* smallest value, ns (UINT64_MAX if empty) */
	uint64_t max_ns;               /* largest value, ns (0 if empty) */
	uint64_t bucket[HIST_BUCKETS]; /* counts per bucket */
};

/* The recording form, for histograms that one client writes in shared
 * memory: the same buckets with 32-bit counts (a count that would wrap
 * spills, in units of 2^32, into a small table), held in chunks of 64
 * buckets (a power of two's worth, HIST_GROUP) that the recorders of one
 * writer draw from one pool as values first land in them: a recorder
 * costs the groups its values use, not the whole range (a latency of
 * each op kind spans a few powers of two), and the pool's pages are
 * touched in the order they are handed out.  All-zero memory is an empty
 * recorder and an empty pool: no initialisation needed.  A recorder is
 * read by merging it, with its pool, into a struct hist. */
#define HIST_GROUP 64                        /* buckets a chunk */
#define HIST_GROUPS (HIST_BUCKETS / HIST_GROUP)  /* chunks a recorder can use */
#define HIST_SPILLS 8
struct hist_chunk {
	uint32_t n[HIST_GROUP];          /* counts of buckets g*64 .. g*64+63 */
};
struct hist_rec {
	uint64_t count;                 /* values recorded */
	uint64_t sum_ns;                /* their sum, ns */
	uint64_t min_ns;                /* smallest, ns (meaningless if count == 0) */
	uint64_t max_ns;                /* largest, ns */
	uint64_t lost;                  /* counts lost: the spill table or the
					 * pool was full */
	uint32_t nspill;
	uint32_t spill_idx[HIST_SPILLS];
	uint32_t spill_n[HIST_SPILLS];  /* units of 2^32 */
	uint16_t chunk[HIST_GROUPS];    /* 1 + the pool's chunk of each group of
					 * buckets; 0: none yet */
};

/* Where the recorders of one writer take their chunks: cap chunks at
 * chunk, used of them handed out (*used starts at 0).  A pool of
 * HIST_GROUPS chunks a recorder never runs out; cap is at most 65535. */
struct hist_pool {
	struct hist_chunk *chunk;
	uint32_t cap;
	uint32_t *used;
};

/* Record one duration of ns nanoseconds into r, taking a chunk from pool
 * the first time a value lands in a group.  Never fails: with the pool
 * exhausted the value is counted (count, sum, min, max) and in r->lost. */
void hist_rec_add(struct hist_rec *r, const struct hist_pool *pool, uint64_t ns);

/* dst += src: add every count of a recorder into a histogram; its chunks
 * are in chunk[], of which nchunks were handed out (a chunk index beyond
 * them is ignored). */
void hist_merge_rec(struct hist *dst, const struct hist_rec *src, const struct hist_chunk *chunk,
		    uint32_t nchunks);

/* Empty the histogram.  Takes h (not NULL). */
void hist_init(struct hist *h);

/* Empty the histogram as hist_init does, but write only its head and the
 * buckets that hold a count: pages of buckets never written (calloc's)
 * stay untouched, not resident.  Takes h (not NULL). */
void hist_clear(struct hist *h);

/* Empty a histogram whose bytes are all zero already (calloc's): the
 * same state as hist_init, but only its head is written, so the pages of
 * its buckets stay untouched (not resident) until a value lands in them.
 * Takes h (not NULL). */
void hist_init_zeroed(struct hist *h);

/* Record one duration of ns nanoseconds.  Never fails. */
void hist_add(struct hist *h, uint64_t ns);

/* Add every count of src into dst (dst += src).  Both must be initialised. */
void hist_merge(struct hist *dst, const struct hist *src);

/* Bucket index for a value in ns, and the [lo, hi] range in ns that a bucket
 * covers (hi inclusive).  Exposed for tests. */
unsigned hist_bucket_of(uint64_t ns);
void hist_bucket_range(unsigned idx, uint64_t *lo, uint64_t *hi);

/* The p-th percentile (0 < p <= 100) in ns: the value v such that at least
 * p% of recorded values are <= v, estimated as the midpoint of the bucket
 * holding that rank (exact below 128 ns; within 0.8% above), clamped to the
 * recorded min and max.  Returns 0 for an empty histogram. */
uint64_t hist_percentile(const struct hist *h, double p);

/* Mean in ns (0 if empty). */
double hist_mean(const struct hist *h);

/* The coarse scheme, for the per-second figures (one small histogram a
 * second per client): every 4 neighbouring buckets of the scheme above as
 * one, so 16 buckets per power of two (4 ns wide below 128 ns); a bucket's
 * width is at most 1/16 of its lower bound, its midpoint within 3.2% of
 * any value in it. */
#define HIST_COARSE_SHIFT 2
#define HIST_COARSE_BUCKETS (HIST_BUCKETS >> HIST_COARSE_SHIFT)

/* Coarse bucket index (0 .. HIST_COARSE_BUCKETS-1) of a value in ns. */
static inline unsigned hist_coarse_of(uint64_t ns)
{
	return hist_bucket_of(ns) >> HIST_COARSE_SHIFT;
}

/* The p-th percentile (0 < p <= 100), ns, of n coarse counts b[] (the
 * values' count is their sum): the midpoint of the bucket that holds the
 * rank, clamped to max_ns (the largest value, when known; 0: not
 * clamped).  Returns 0 when every count is 0. */
uint64_t hist_coarse_percentile(const uint64_t *b, double p, uint64_t max_ns);

/* Sparse form: the non-empty buckets of h in index order, written to
 * idx[] and cnt[] (room for HIST_BUCKETS each).  Returns how many. */
unsigned hist_sparse(const struct hist *h, uint32_t *idx, uint64_t *cnt);

#endif
