/* kbench - unit tests: the latency histogram and its percentiles, the
 * coarse scheme, the sparse JSON string form
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "stats/hist.h"
#include "stats/histjson.h"

static uint64_t rng = 88172645463325252ull;

static uint64_t xorshift(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

/* exact p-th percentile of sorted v: smallest value with rank >= p% */
static uint64_t exact(const uint64_t *v, size_t n, double p)
{
	double want = p / 100.0 * (double)n;
	size_t rank = (size_t)want;
	if ((double)rank < want)
		rank++;
	if (rank < 1)
		rank = 1;
	return v[rank - 1];
}

static void test_buckets_cover_the_line(void **state)
{
	(void)state;
	/* consecutive buckets tile [0, 2^40) without gaps or overlaps */
	uint64_t next = 0;
	for (unsigned i = 0; i < HIST_BUCKETS; i++) {
		uint64_t lo, hi;
		hist_bucket_range(i, &lo, &hi);
		assert_int_equal(lo, next);
		assert_true(hi >= lo);
		assert_int_equal(hist_bucket_of(lo), i);
		assert_int_equal(hist_bucket_of(hi), i);
		/* width at most 1/64 of the lower bound above the exact range */
		if (lo >= 128)
			assert_true((hi - lo + 1) * 64 <= lo);
		next = hi + 1;
	}
	assert_int_equal(next, UINT64_C(1) << HIST_MAX_BIT);
	assert_int_equal(hist_bucket_of(UINT64_MAX), HIST_BUCKETS - 1);
}

/* hist_init_zeroed on calloc's zeros: the same bytes as hist_init, and
 * the same histogram once values are added; hist_clear back to
 * hist_init's bytes; hist_merge of sparse histograms. */
static void test_init_zeroed(void **state)
{
	(void)state;
	struct hist *a = malloc(sizeof(*a)), *b = calloc(1, sizeof(*b));
	assert_non_null(a);
	assert_non_null(b);
	memset(a, 0xa5, sizeof(*a));
	hist_init(a);
	hist_init_zeroed(b);
	assert_memory_equal(a, b, sizeof(*a));
	assert_int_equal(b->min_ns, UINT64_MAX);
	for (uint64_t v = 1000; v < 2000000; v += 7919) {
		hist_add(a, v);
		hist_add(b, v);
	}
	assert_memory_equal(a, b, sizeof(*a));
	/* hist_clear empties what was used: the bytes of hist_init's */
	hist_clear(b);
	hist_init(a);
	assert_memory_equal(a, b, sizeof(*a));
	/* hist_merge adds only what src holds: dst's other buckets as they were */
	hist_add(a, 5000);
	hist_add(b, 7000000);
	struct hist *c = calloc(1, sizeof(*c));
	assert_non_null(c);
	hist_init_zeroed(c);
	hist_merge(c, a);
	hist_merge(c, b);
	assert_int_equal(c->count, 2);
	assert_int_equal(c->bucket[hist_bucket_of(5000)], 1);
	assert_int_equal(c->bucket[hist_bucket_of(7000000)], 1);
	uint64_t total = 0;
	for (unsigned i = 0; i < HIST_BUCKETS; i++)
		total += c->bucket[i];
	assert_int_equal(total, 2);
	assert_int_equal(c->min_ns, 5000);
	assert_int_equal(c->max_ns, 7000000);
	free(a);
	free(b);
	free(c);
}

static void test_exact_small_values(void **state)
{
	(void)state;
	struct hist h;
	hist_init(&h);
	for (uint64_t v = 1; v <= 100; v++)
		hist_add(&h, v);
	assert_int_equal(h.count, 100);
	assert_int_equal(h.min_ns, 1);
	assert_int_equal(h.max_ns, 100);
	assert_int_equal(hist_percentile(&h, 50), 50);
	assert_int_equal(hist_percentile(&h, 99), 99);
	assert_int_equal(hist_percentile(&h, 1), 1);
	assert_int_equal(hist_percentile(&h, 100), 100);
	assert_true(fabs(hist_mean(&h) - 50.5) < 1e-9);
}

static void check_against_sorted(uint64_t *v, size_t n)
{
	struct hist *h = malloc(sizeof(*h));
	hist_init(h);
	for (size_t i = 0; i < n; i++)
		hist_add(h, v[i]);
	qsort(v, n, sizeof(*v), cmp_u64);
	const double ps[] = { 1, 10, 25, 50, 75, 90, 95, 99, 99.9, 99.99 };
	for (size_t i = 0; i < sizeof(ps) / sizeof(ps[0]); i++) {
		uint64_t e = exact(v, n, ps[i]), got = hist_percentile(h, ps[i]);
		double rel = fabs((double)got - (double)e) / (double)e;
		if (rel >= 0.01)
			fail_msg("p%.2f: histogram %llu, exact %llu, error %.4f", ps[i],
				 (unsigned long long)got, (unsigned long long)e, rel);
	}
	assert_int_equal(hist_percentile(h, 100), v[n - 1]);
	assert_int_equal(h->max_ns, v[n - 1]);
	assert_int_equal(h->min_ns, v[0]);
	free(h);
}

static void test_percentiles_uniform(void **state)
{
	(void)state;
	size_t n = 100000;
	uint64_t *v = malloc(n * sizeof(*v));
	for (size_t i = 0; i < n; i++)
		v[i] = 1000 + xorshift() % 10000000;  /* 1 us .. 10 ms */
	check_against_sorted(v, n);
	free(v);
}

static void test_percentiles_lognormal(void **state)
{
	(void)state;
	/* a long tail spanning six decades, like real op latencies */
	size_t n = 200000;
	uint64_t *v = malloc(n * sizeof(*v));
	for (size_t i = 0; i < n; i++) {
		double u = ((double)(xorshift() >> 11) + 0.5) / 9007199254740992.0;
		v[i] = (uint64_t)(200.0 * pow(10.0, 6.0 * u * u));
	}
	check_against_sorted(v, n);
	free(v);
}

static void test_merge_equals_combined(void **state)
{
	(void)state;
	struct hist *a = malloc(sizeof(*a)), *b = malloc(sizeof(*b)), *all = malloc(sizeof(*all));
	hist_init(a);
	hist_init(b);
	hist_init(all);
	for (int i = 0; i < 50000; i++) {
		uint64_t x = xorshift() % 5000000, y = 100 + xorshift() % 90000;
		hist_add(a, x);
		hist_add(b, y);
		hist_add(all, x);
		hist_add(all, y);
	}
	hist_merge(a, b);
	assert_int_equal(a->count, all->count);
	assert_int_equal(a->sum_ns, all->sum_ns);
	assert_int_equal(a->min_ns, all->min_ns);
	assert_int_equal(a->max_ns, all->max_ns);
	assert_memory_equal(a->bucket, all->bucket, sizeof(a->bucket));
	/* merging an empty histogram changes nothing */
	struct hist *e = malloc(sizeof(*e));
	hist_init(e);
	hist_merge(a, e);
	assert_int_equal(a->min_ns, all->min_ns);
	free(a);
	free(b);
	free(all);
	free(e);
}

static void test_empty_and_huge(void **state)
{
	(void)state;
	struct hist h;
	hist_init(&h);
	assert_int_equal(hist_percentile(&h, 50), 0);
	assert_true(hist_mean(&h) == 0.0);
	hist_add(&h, UINT64_C(1) << 50);  /* beyond the range: last bucket */
	assert_int_equal(h.bucket[HIST_BUCKETS - 1], 1);
	assert_int_equal(hist_percentile(&h, 50), UINT64_C(1) << 50);  /* clamped to max */
}

/* a pool of n chunks, all zero: empty */
static struct hist_pool pool_new(uint32_t n)
{
	struct hist_pool p = { calloc(n, sizeof(struct hist_chunk)), n, calloc(1, sizeof(uint32_t)) };
	assert_non_null(p.chunk);
	assert_non_null(p.used);
	return p;
}

static void pool_free(struct hist_pool *p)
{
	free(p->chunk);
	free(p->used);
}

static void test_recorder_merges_exactly(void **state)
{
	(void)state;
	struct hist_rec *r = calloc(1, sizeof(*r)), *r2 = calloc(1, sizeof(*r2));
	struct hist *h = malloc(sizeof(*h)), *m = malloc(sizeof(*m)), *h2 = malloc(sizeof(*h2));
	struct hist_pool pool = pool_new(2 * HIST_GROUPS);
	/* all-zero memory is an empty recorder */
	hist_init(h);
	hist_init(h2);
	hist_init(m);
	hist_merge_rec(m, r, pool.chunk, *pool.used);
	assert_int_equal(m->count, 0);
	assert_int_equal(m->min_ns, UINT64_MAX);
	/* two recorders on one pool, their values interleaved */
	for (int i = 0; i < 100000; i++) {
		uint64_t v = 50 + xorshift() % 20000000;
		hist_rec_add(r, &pool, v);
		hist_add(h, v);
		v = 1000 + xorshift() % 3000;
		hist_rec_add(r2, &pool, v);
		hist_add(h2, v);
	}
	hist_merge_rec(m, r, pool.chunk, *pool.used);
	assert_int_equal(m->count, h->count);
	assert_int_equal(m->sum_ns, h->sum_ns);
	assert_int_equal(m->min_ns, h->min_ns);
	assert_int_equal(m->max_ns, h->max_ns);
	assert_memory_equal(m->bucket, h->bucket, sizeof(h->bucket));
	hist_init(m);
	hist_merge_rec(m, r2, pool.chunk, *pool.used);
	assert_memory_equal(m->bucket, h2->bucket, sizeof(h2->bucket));
	/* one chunk for each group of buckets a recorder used, no more */
	unsigned want = 0;
	for (unsigned g = 0; g < HIST_GROUPS; g++) {
		int used = 0, used2 = 0;
		for (unsigned k = 0; k < HIST_GROUP; k++) {
			used |= h->bucket[g * HIST_GROUP + k] != 0;
			used2 |= h2->bucket[g * HIST_GROUP + k] != 0;
		}
		want += (unsigned)used + (unsigned)used2;
	}
	assert_true(want >= 3 + 10);
	assert_int_equal(*pool.used, want);
	free(r);
	free(r2);
	free(h);
	free(h2);
	free(m);
	pool_free(&pool);
}

/* a pool that runs dry: the values still count, as lost */
static void test_recorder_pool_full(void **state)
{
	(void)state;
	struct hist_rec *r = calloc(1, sizeof(*r));
	struct hist *m = malloc(sizeof(*m));
	struct hist_pool pool = pool_new(1);
	hist_init(m);
	hist_rec_add(r, &pool, 100);       /* group 1: the pool's one chunk */
	hist_rec_add(r, &pool, 100);
	hist_rec_add(r, &pool, 1000000);   /* another group: no chunk left */
	assert_int_equal(*pool.used, 1);
	assert_int_equal(r->count, 3);
	assert_int_equal(r->lost, 1);
	hist_merge_rec(m, r, pool.chunk, *pool.used);
	assert_int_equal(m->count, 2);
	assert_int_equal(m->bucket[hist_bucket_of(100)], 2);
	assert_int_equal(m->max_ns, 1000000);
	free(r);
	free(m);
	pool_free(&pool);
}

static void test_recorder_spills_past_32_bits(void **state)
{
	(void)state;
	struct hist_rec *r = calloc(1, sizeof(*r));
	struct hist *m = malloc(sizeof(*m));
	struct hist_pool pool = pool_new(HIST_GROUPS);
	hist_init(m);
	unsigned i = hist_bucket_of(5000);
	/* pretend 2^32 - 1 values of 5000 ns were recorded, then add two */
	hist_rec_add(r, &pool, 5000);
	uint32_t *b = &pool.chunk[r->chunk[i / HIST_GROUP] - 1].n[i % HIST_GROUP];
	*b = UINT32_MAX;
	r->count = UINT32_MAX;
	r->min_ns = r->max_ns = 5000;
	r->sum_ns = 5000ull * UINT32_MAX;
	hist_rec_add(r, &pool, 5000);
	hist_rec_add(r, &pool, 5000);
	assert_int_equal(*b, 1);
	assert_int_equal(r->nspill, 1);
	hist_merge_rec(m, r, pool.chunk, *pool.used);
	assert_int_equal(m->bucket[i], (UINT64_C(1) << 32) + 1);
	assert_int_equal(m->count, (UINT64_C(1) << 32) + 1);
	assert_int_equal(hist_percentile(m, 99.9), 5000);
	free(r);
	free(m);
	pool_free(&pool);
}

/* the coarse scheme: 4 buckets as one, its percentile within 1/32 */
static void test_coarse(void **state)
{
	(void)state;
	uint64_t *b = calloc(HIST_COARSE_BUCKETS, sizeof(*b));
	uint64_t *v = malloc(20000 * sizeof(*v));
	for (unsigned i = 0; i < HIST_BUCKETS; i += 37) {
		uint64_t lo, hi;
		hist_bucket_range(i, &lo, &hi);
		assert_int_equal(hist_coarse_of(lo), i >> 2);
		assert_int_equal(hist_coarse_of(hi), i >> 2);
	}
	assert_int_equal(hist_coarse_percentile(b, 99, 0), 0);
	for (size_t i = 0; i < 20000; i++) {
		v[i] = 1000 + xorshift() % 10000000;
		b[hist_coarse_of(v[i])]++;
	}
	qsort(v, 20000, sizeof(*v), cmp_u64);
	for (double p = 10; p < 100; p += 22.3) {
		double want = (double)exact(v, 20000, p), got = (double)hist_coarse_percentile(b, p, 0);
		assert_true(fabs(got - want) <= want / 32 + 1);
	}
	/* clamped to the largest value */
	assert_int_equal(hist_coarse_percentile(b, 100, v[19999] - 1), v[19999] - 1);
	free(b);
	free(v);
}

/* written as a string and read back: the same buckets; bad strings refused */
static void test_json_round_trip(void **state)
{
	(void)state;
	struct hist *h = malloc(sizeof(*h)), *r = malloc(sizeof(*r));
	hist_init(h);
	hist_init(r);
	for (int i = 0; i < 30000; i++)
		hist_add(h, xorshift() % 50000000);
	hist_add(h, 0);
	hist_add(h, UINT64_C(1) << 45);
	json_t *s = histjson_of(h);
	assert_non_null(s);
	assert_int_equal(histjson_read(s, r), 0);
	assert_int_equal(r->count, h->count);
	assert_memory_equal(r->bucket, h->bucket, sizeof(h->bucket));
	assert_int_equal(r->min_ns, 0);
	/* read twice, the counts add up: runs merge */
	assert_int_equal(histjson_read(s, r), 0);
	assert_int_equal(r->count, 2 * h->count);
	json_decref(s);
	const char *bad[] = { "100:1 7:2", "7:2 7:1", "129:1", "5:0", "5:-1", "5:1  6:1",
			      " 5:1", "5:1 ", "5", "5:", ":5", "a:1", "5:1x", "99999999999999999999:1",
			      "5:4611686018427387905", "5:4611686018427387904 6:1" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		json_t *j = json_string(bad[i]);
		hist_init(r);
		assert_int_equal(histjson_read(j, r), -1);
		assert_int_equal(r->count, 0);   /* untouched */
		json_decref(j);
	}
	json_t *num = json_integer(5), *empty = json_string("");
	assert_int_equal(histjson_read(num, r), -1);
	assert_int_equal(histjson_read(empty, r), 0);
	assert_int_equal(r->count, 0);
	json_decref(num);
	json_decref(empty);
	free(h);
	free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_buckets_cover_the_line),
		cmocka_unit_test(test_init_zeroed),
		cmocka_unit_test(test_exact_small_values),
		cmocka_unit_test(test_percentiles_uniform),
		cmocka_unit_test(test_percentiles_lognormal),
		cmocka_unit_test(test_merge_equals_combined),
		cmocka_unit_test(test_empty_and_huge),
		cmocka_unit_test(test_recorder_merges_exactly),
		cmocka_unit_test(test_recorder_pool_full),
		cmocka_unit_test(test_recorder_spills_past_32_bits),
		cmocka_unit_test(test_coarse),
		cmocka_unit_test(test_json_round_trip),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
