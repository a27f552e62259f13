/* kbench - latency histogram (see hist.h for the bucket scheme)
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"
#include "stats/hist.h"
#include "sys/textgroup.h"

#include <string.h>

void hist_init(struct hist *h)
{
	memset(h, 0, sizeof(*h));
	h->min_ns = UINT64_MAX;
}

void hist_clear(struct hist *h)
{
	for (unsigned i = 0; i < HIST_BUCKETS; i++)
		if (h->bucket[i])
			h->bucket[i] = 0;
	h->count = 0;
	h->sum_ns = 0;
	h->min_ns = UINT64_MAX;
	h->max_ns = 0;
}

void hist_init_zeroed(struct hist *h)
{
	h->min_ns = UINT64_MAX;
}

KB_CLIENT_TEXT
unsigned hist_bucket_of(uint64_t ns)
{
	if (ns < HIST_LINEAR)
		return (unsigned)ns;
	if (ns >> HIST_MAX_BIT)
		return HIST_BUCKETS - 1;
	unsigned msb = 63u - (unsigned)__builtin_clzll(ns);  /* >= 7 */
	unsigned shift = msb - HIST_SUB_BITS;
	unsigned sub = (unsigned)(ns >> shift) - (1u << HIST_SUB_BITS);
	return HIST_LINEAR + (msb - HIST_SUB_BITS - 1) * (1u << HIST_SUB_BITS) + sub;
}

void hist_bucket_range(unsigned idx, uint64_t *lo, uint64_t *hi)
{
	if (idx < HIST_LINEAR) {
		*lo = *hi = idx;
		return;
	}
	unsigned group = (idx - HIST_LINEAR) >> HIST_SUB_BITS;
	unsigned sub = (idx - HIST_LINEAR) & ((1u << HIST_SUB_BITS) - 1);
	unsigned shift = group + 1;
	*lo = ((uint64_t)((1u << HIST_SUB_BITS) + sub)) << shift;
	*hi = *lo + (UINT64_C(1) << shift) - 1;
}

void hist_add(struct hist *h, uint64_t ns)
{
	h->count++;
	h->sum_ns += ns;
	if (ns < h->min_ns)
		h->min_ns = ns;
	if (ns > h->max_ns)
		h->max_ns = ns;
	h->bucket[hist_bucket_of(ns)]++;
}

/* count, sum, min and max of one side added into dst */
static void merge_head(struct hist *dst, uint64_t count, uint64_t sum_ns, uint64_t min_ns,
		       uint64_t max_ns)
{
	dst->count += count;
	dst->sum_ns += sum_ns;
	if (min_ns < dst->min_ns)
		dst->min_ns = min_ns;
	if (max_ns > dst->max_ns)
		dst->max_ns = max_ns;
}

void hist_merge(struct hist *dst, const struct hist *src)
{
	if (!src->count)
		return;
	merge_head(dst, src->count, src->sum_ns, src->min_ns, src->max_ns);
	for (unsigned i = 0; i < HIST_BUCKETS; i++)
		if (src->bucket[i])  /* dst's empty pages stay unwritten */
			dst->bucket[i] += src->bucket[i];
}

uint64_t hist_percentile(const struct hist *h, double p)
{
	if (!h->count)
		return 0;
	if (p <= 0)
		return h->min_ns;
	if (p >= 100)
		return h->max_ns;
	/* rank: the smallest k with k >= p/100 * count (1-based) */
	double want = p / 100.0 * (double)h->count;
	uint64_t rank = (uint64_t)want;
	if ((double)rank < want)
		rank++;
	if (rank < 1)
		rank = 1;
	uint64_t seen = 0;
	for (unsigned i = 0; i < HIST_BUCKETS; i++) {
		seen += h->bucket[i];
		if (seen >= rank) {
			uint64_t lo, hi, v;
			hist_bucket_range(i, &lo, &hi);
			v = lo + (hi - lo) / 2;
			if (v < h->min_ns)
				v = h->min_ns;
			if (v > h->max_ns)
				v = h->max_ns;
			return v;
		}
	}
	return h->max_ns;
}

double hist_mean(const struct hist *h)
{
	return h->count ? (double)h->sum_ns / (double)h->count : 0.0;
}

static void spill(struct hist_rec *r, uint32_t *b, unsigned idx)
{
	for (uint32_t i = 0; i < r->nspill; i++) {
		if (r->spill_idx[i] == idx) {
			r->spill_n[i]++;
			return;
		}
	}
	if (r->nspill < HIST_SPILLS) {
		r->spill_idx[r->nspill] = idx;
		r->spill_n[r->nspill++] = 1;
		return;
	}
	/* no room: keep the bucket full rather than wrap it to zero */
	*b = UINT32_MAX;
	r->lost++;
}

KB_CLIENT_TEXT
void hist_rec_add(struct hist_rec *r, const struct hist_pool *pool, uint64_t ns)
{
	unsigned i = hist_bucket_of(ns), g = i / HIST_GROUP;
	if (r->count++ == 0 || ns < r->min_ns)
		r->min_ns = ns;
	if (ns > r->max_ns)
		r->max_ns = ns;
	r->sum_ns += ns;
	if (__builtin_expect(!r->chunk[g], 0)) {
		if (*pool->used >= pool->cap) {
			r->lost++;
			return;
		}
		r->chunk[g] = (uint16_t)++*pool->used;
	}
	uint32_t *b = &pool->chunk[r->chunk[g] - 1].n[i % HIST_GROUP];
	if (__builtin_expect(++*b == 0, 0))
		spill(r, b, i);
}

void hist_merge_rec(struct hist *dst, const struct hist_rec *src, const struct hist_chunk *chunk,
		    uint32_t nchunks)
{
	if (!src->count)
		return;
	merge_head(dst, src->count - src->lost, src->sum_ns, src->min_ns, src->max_ns);
	for (unsigned g = 0; g < HIST_GROUPS; g++) {
		unsigned c = src->chunk[g];
		if (!c || c > nchunks)
			continue;
		for (unsigned k = 0; k < HIST_GROUP; k++)
			dst->bucket[g * HIST_GROUP + k] += chunk[c - 1].n[k];
	}
	for (uint32_t i = 0; i < src->nspill && i < HIST_SPILLS; i++)
		if (src->spill_idx[i] < HIST_BUCKETS)
			dst->bucket[src->spill_idx[i]] += (uint64_t)src->spill_n[i] << 32;
}

uint64_t hist_coarse_percentile(const uint64_t *b, double p, uint64_t max_ns)
{
	uint64_t n = 0;
	for (unsigned i = 0; i < HIST_COARSE_BUCKETS; i++)
		n += b[i];
	if (!n)
		return 0;
	double want = p / 100.0 * (double)n;
	uint64_t rank = (uint64_t)want, seen = 0;
	if ((double)rank < want)
		rank++;
	if (rank < 1)
		rank = 1;
	for (unsigned i = 0; i < HIST_COARSE_BUCKETS; i++) {
		seen += b[i];
		if (seen < rank)
			continue;
		uint64_t lo, hi, x;
		hist_bucket_range(i << HIST_COARSE_SHIFT, &lo, &x);
		hist_bucket_range(((i + 1) << HIST_COARSE_SHIFT) - 1, &x, &hi);
		uint64_t v = lo + (hi - lo) / 2;
		return max_ns && v > max_ns ? max_ns : v;
	}
	return max_ns;
}

unsigned hist_sparse(const struct hist *h, uint32_t *idx, uint64_t *cnt)
{
	unsigned n = 0;
	for (unsigned i = 0; i < HIST_BUCKETS; i++)
		if (h->bucket[i]) {
			idx[n] = i;
			cnt[n++] = h->bucket[i];
		}
	return n;
}
