/* kbench - unit tests: run_result_add (merge.c), the one merge of a load
 * run's figures, and the packed form a rank sends: two clients' slots
 * added give the sums, the merged histograms, both clients' own figures
 * and the errors by (line, errno); a result added to another after a
 * round trip through the packed form is the same as added directly
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "load/record/latency.h"
#include "load/record/merge.h"

/* an empty run result with its histograms, as run.c makes it */
static void empty(struct run_result *r)
{
	memset(r, 0, sizeof(*r));
	r->hist = malloc(OP_COUNT * sizeof(*r->hist));
	assert_non_null(r->hist);
	for (unsigned i = 0; i < OP_COUNT; i++)
		hist_init(&r->hist[i]);
	hist_init(&r->lag);
}

/* a client slot: ops ReadX of lat ns each, one error at line */
static void slot(struct client_stats *st, unsigned ops, uint64_t lat, uint32_t line, int err)
{
	memset(st, 0, sizeof(*st));
	for (unsigned k = 0; k < ops; k++)
		client_hist_add(st, &st->hist[OP_READX], lat);
	client_hist_add(st, &st->hist[OP_SLEEP], 5000000000ull);  /* no latency: a pause */
	st->ops = ops + 1;
	st->bytes = 1000ull * ops;
	st->errors = 1;
	st->passes = 2;
	st->nerr_slots = 1;
	st->errs[0] = (struct err_slot){ .line = line, .code = OP_READX, .err = err, .count = 1 };
}

/* clients 0 and 1 of a run added into r */
static void two_clients(struct run_result *r)
{
	static struct client_stats st[2];
	struct run_result one;
	slot(&st[0], 10, 1000, 7, 5);
	slot(&st[1], 30, 3000, 7, 5);
	st[1].fatal = 5;
	assert_int_equal(run_result_client_alloc(&one), 0);
	for (int c = 0; c < 2; c++) {
		assert_int_equal(run_result_client_of(&one, &st[c], 2.0), 0);
		assert_int_equal(run_result_add(r, &one), 0);
	}
	run_result_free(&one);
}

static void test_clients(void **state)
{
	(void)state;
	struct run_result r;
	empty(&r);
	two_clients(&r);
	assert_int_equal(r.ops, 42);
	assert_int_equal(r.bytes, 40000);
	assert_int_equal(r.passes, 4);
	assert_int_equal(r.hist[OP_READX].count, 40);
	assert_int_equal(r.hist[OP_READX].max_ns, 3000);
	assert_int_equal(r.max_latency_ns, 3000);  /* the Sleep left out */
	assert_int_equal(r.nerrs, 1);              /* one (line, errno): counted twice */
	assert_int_equal(r.errs[0].count, 2);
	assert_int_equal(r.nfatal, 1);
	assert_int_equal(r.fatal_client, 1);
	assert_int_equal(r.nclients_kept, 2);
	assert_int_equal(r.clients[0].ops, 11);
	assert_int_equal(r.clients[1].bytes, 30000);
	uint64_t in_hist = 0;
	for (unsigned i = 0; i < r.clients[1].nb; i++)
		in_hist += r.clients[1].cnt[i];
	assert_int_equal(in_hist, 31);
	run_result_free(&r);
}

/* a series of n seconds, each with ops latencies of lat ns */
static void series(struct run_series *s, unsigned n, uint64_t ops, uint64_t lat)
{
	uint64_t acc[HIST_COARSE_BUCKETS];
	for (unsigned k = 0; k < n; k++) {
		struct run_point p = { .bytes = ops * 10, .ops = ops, .max_ns = lat };
		memset(acc, 0, sizeof(acc));
		acc[hist_coarse_of(lat)] = ops;
		assert_int_equal(lat_series_point(s, &p, acc), 0);
	}
}

static void test_ranks_packed(void **state)
{
	(void)state;
	struct run_result job, rank, direct, back;
	empty(&job);
	empty(&direct);
	empty(&rank);
	two_clients(&rank);
	series(&rank.series, 3, 99, 1000000);  /* 3 s of 99 ops at 1 ms */
	series(&job.series, 2, 1, 100000000);  /* rank 0: 2 s of 1 op at 100 ms */
	series(&direct.series, 2, 1, 100000000);
	snprintf(rank.died_msg, sizeof(rank.died_msg), "client 1 (pid 9) killed by signal 9");
	rank.died = 1;
	size_t len = 0;
	void *buf = run_result_pack(&rank, &len);
	assert_non_null(buf);
	assert_int_equal(run_result_unpack(buf, len, &back), 0);
	struct run_result cut;
	assert_int_equal(run_result_unpack(buf, len - 1, &cut), -1);  /* cut short */
	run_result_free(&cut);
	free(buf);
	assert_int_equal(run_result_add(&job, &back), 0);
	assert_int_equal(run_result_add(&direct, &rank), 0);
	assert_int_equal(job.ops, direct.ops);
	assert_int_equal(job.hist[OP_READX].count, 40);
	assert_memory_equal(job.hist[OP_READX].bucket, direct.hist[OP_READX].bucket,
			    sizeof(job.hist[OP_READX].bucket));
	assert_int_equal(job.nclients_kept, 2);
	assert_string_equal(job.died_msg, "client 1 (pid 9) killed by signal 9");
	/* the series: 3 seconds, the first two both ranks' (the 100 ms op is
	 * the 100th of 100: the p99 is a 1 ms op's), the third the rank's */
	assert_int_equal(job.series.n, 3);
	assert_int_equal(job.series.pts[0].ops, 100);
	assert_int_equal(job.series.pts[0].max_ns, 100000000);
	assert_true(job.series.pts[0].p99_ns < 1100000 && job.series.pts[0].p99_ns > 900000);
	assert_int_equal(job.series.pts[2].ops, 99);
	assert_int_equal(direct.series.pts[1].p99_ns, job.series.pts[1].p99_ns);
	run_result_free(&back);
	run_result_free(&rank);
	run_result_free(&job);
	run_result_free(&direct);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_clients),
		cmocka_unit_test(test_ranks_packed),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
