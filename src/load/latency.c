/* kbench - a load run's latency record (see latency.h)
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"
#include "load/latency.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "stats/histjson.h"
#include "stats/summary.h"

static double ms(uint64_t ns)
{
	return (double)ns / 1e6;
}

static struct run_point *series_slot(struct run_series *ser)
{
	if (ser->n == ser->cap) {
		size_t cap = ser->cap ? ser->cap * 2 : 64;
		struct run_point *p = realloc(ser->pts, cap * sizeof(*p));
		if (!p)
			return NULL;
		ser->pts = p;
		ser->cap = cap;
	}
	struct run_point *p = &ser->pts[ser->n++];
	memset(p, 0, sizeof(*p));
	return p;
}

/* Second s of every client's ring into p; acc holds the merged coarse
 * counts.  A slot being emptied, or holding a later second, is lost. */
static void read_second(const struct run_shared *sh, unsigned n, uint64_t s,
			struct run_point *p, uint64_t *acc)
{
	unsigned slot = (unsigned)(s % SEC_SLOTS);
	memset(acc, 0, HIST_COARSE_BUCKETS * sizeof(*acc));
	for (unsigned c = 0; c < n && !p->lost; c++) {
		const struct client_stats *st = &sh->client[c];
		uint64_t tag = __atomic_load_n(&st->sec_tag[slot], __ATOMIC_ACQUIRE);
		if (tag != s) {
			p->lost = tag > s;
			continue;
		}
		p->bytes += __atomic_load_n(&st->sec_bytes[slot], __ATOMIC_RELAXED);
		p->ops += __atomic_load_n(&st->sec_ops[slot], __ATOMIC_RELAXED);
		uint64_t m = __atomic_load_n(&st->sec_max[slot], __ATOMIC_RELAXED);
		if (m > p->max_ns)
			p->max_ns = m;
		for (unsigned i = 0; i < HIST_COARSE_BUCKETS; i++)
			acc[i] += __atomic_load_n(&st->sec_hist[slot][i], __ATOMIC_RELAXED);
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		if (__atomic_load_n(&st->sec_tag[slot], __ATOMIC_RELAXED) != s)
			p->lost = 1;  /* emptied while read */
	}
	p->p99_ns = p->lost ? 0 : hist_coarse_percentile(acc, 99, p->max_ns);
}

int lat_series_collect(const struct run_config *cfg, const struct run_shared *sh,
		       uint64_t upto, struct run_series *ser)
{
	uint64_t acc[HIST_COARSE_BUCKETS];
	while (ser->n < upto) {
		uint64_t s = ser->n;
		struct run_point *p = series_slot(ser);
		if (!p)
			return -1;
		read_second(sh, cfg->nclients, s, p, acc);
		p->warmup = sh->t0_ns + s * 1000000000ull < sh->warm_end_ns;
	}
	return 0;
}

int lat_series_job(struct run_series *ser, uint64_t sec, uint64_t bytes, uint64_t ops,
		   uint64_t max_ns, int lost, int warmup)
{
	while (ser->n + 1 < sec) {  /* a second no round gave */
		struct run_point *p = series_slot(ser);
		if (!p)
			return -1;
		p->lost = p->no_p99 = 1;
		p->warmup = warmup;
	}
	if (ser->n + 1 != sec)
		return 0;
	struct run_point *p = series_slot(ser);
	if (!p)
		return -1;
	p->bytes = bytes;
	p->ops = ops;
	p->max_ns = max_ns;
	p->lost = lost;
	p->no_p99 = 1;
	p->warmup = warmup;
	return 0;
}

int lat_clients_merge(const struct run_config *cfg, const struct run_shared *sh,
		      struct run_result *res)
{
	unsigned n = cfg->nclients;
	struct hist *h = malloc(sizeof(*h)), *lag = malloc(sizeof(*lag));
	uint32_t *idx = malloc(HIST_BUCKETS * sizeof(*idx));
	uint64_t *cnt = malloc(HIST_BUCKETS * sizeof(*cnt));
	res->clients = calloc(n, sizeof(*res->clients));
	res->nclients_kept = res->clients ? n : 0;
	int rc = h && lag && idx && cnt && res->clients ? 0 : -1;
	hist_init(&res->lag);
	for (unsigned c = 0; !rc && c < n; c++) {
		const struct client_stats *st = &sh->client[c];
		struct run_client *rc_ = &res->clients[c];
		rc_->ops = st->ops;
		rc_->bytes = st->bytes;
		rc_->errors = st->errors;
		hist_init(h);
		for (unsigned i = 0; i < OP_COUNT; i++)
			hist_merge_rec(h, &st->hist[i]);
		hist_init(lag);
		hist_merge_rec(lag, &st->lag);
		hist_merge(&res->lag, lag);
		rc_->lag_n = lag->count;
		rc_->lag_p99_ns = hist_percentile(lag, 99);
		rc_->nb = hist_sparse(h, idx, cnt);
		rc_->idx = malloc((rc_->nb ? rc_->nb : 1) * sizeof(*rc_->idx));
		rc_->cnt = malloc((rc_->nb ? rc_->nb : 1) * sizeof(*rc_->cnt));
		if (!rc_->idx || !rc_->cnt) {
			rc = -1;
			break;
		}
		memcpy(rc_->idx, idx, rc_->nb * sizeof(*idx));
		memcpy(rc_->cnt, cnt, rc_->nb * sizeof(*cnt));
	}
	free(h);
	free(lag);
	free(idx);
	free(cnt);
	return rc;
}

void lat_result_free(struct run_result *res)
{
	for (unsigned c = 0; res->clients && c < res->nclients_kept; c++) {
		free(res->clients[c].idx);
		free(res->clients[c].cnt);
	}
	free(res->clients);
	free(res->series.pts);
	res->clients = NULL;
	res->series.pts = NULL;
}

/* min, median, max of the clients' p99 lag, ms; -1 when there is none */
static int lag_spread(const struct run_result *res, unsigned n, struct summary *s)
{
	if (!res->clients || !n)
		return -1;
	double *v = malloc(n * sizeof(*v));
	size_t k = 0;
	for (unsigned c = 0; v && c < n; c++)
		if (res->clients[c].lag_n)
			v[k++] = ms(res->clients[c].lag_p99_ns);
	int rc = v && k ? summary_of(v, k, s) : -1;
	free(v);
	return rc;
}

void lat_report_schedule(FILE *f, const struct run_config *cfg, const struct run_result *res)
{
	if (!cfg->prog->timed && !(cfg->target_rate > 0))
		return;
	const char *what = cfg->prog->timed ? "timed ops" : "ops";
	char rate[64] = "";
	if (!cfg->prog->timed)
		snprintf(rate, sizeof(rate), " (-R %g MB/sec a client)", cfg->target_rate);
	if (res->late_ops)
		fprintf(f, "\nschedule%s: %llu %s started late, by %.3f ms on average, %.3f ms at most",
			rate, (unsigned long long)res->late_ops, what,
			ms(res->late_sum_ns) / (double)res->late_ops, ms(res->late_max_ns));
	else
		fprintf(f, "\nschedule%s: every %s started on time", rate,
			cfg->prog->timed ? "timed op" : "op");
	struct summary s;
	if (!res->nranks && lag_spread(res, cfg->nclients, &s) == 0)
		fprintf(f, "; p99 lag per client: min %.3f  median %.3f  max %.3f ms",
			s.min, s.median, s.max);
	fprintf(f, "\n");
}

double lat_jain_index(const double *v, size_t n)
{
	double sum = 0, sq = 0;
	for (size_t i = 0; i < n; i++) {
		sum += v[i];
		sq += v[i] * v[i];
	}
	if (!n || sq <= 0)
		return NAN;
	return sum * sum / ((double)n * sq);
}

static json_t *num_or_null(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

/* results.clients and results.clients_summary (not under --mpi: a rank
 * holds its own clients only) */
static int clients_json(json_t *results, const struct run_config *cfg,
			const struct run_result *res)
{
	unsigned n = cfg->nclients;
	if (!res->clients || res->nranks) {
		json_object_set_new(results, "clients", json_null());
		json_object_set_new(results, "clients_summary", json_null());
		return 0;
	}
	json_t *a = json_array();
	double *v = malloc(n * sizeof(*v));
	if (!a || !v) {
		json_decref(a);
		free(v);
		return -1;
	}
	int timed = cfg->prog->timed || cfg->target_rate > 0;
	for (unsigned c = 0; c < n; c++) {
		const struct run_client *x = &res->clients[c];
		v[c] = res->measured_s > 0 ? (double)x->bytes / 1e6 / res->measured_s : NAN;
		json_t *o = json_pack("{s:i, s:I, s:I, s:I, s:o, s:o, s:o}", "client", (int)c,
			"ops", (json_int_t)x->ops, "bytes", (json_int_t)x->bytes,
			"errors", (json_int_t)x->errors, "MBps", num_or_null(v[c]),
			"lag_p99_ms", timed && x->lag_n ? json_real(ms(x->lag_p99_ns)) : json_null(),
			"hist", histjson_sparse(x->idx, x->cnt, x->nb));
		if (!o || json_array_append_new(a, o) < 0) {
			json_decref(a);
			free(v);
			return -1;
		}
	}
	struct summary s;
	json_t *sum = json_null();
	if (res->measured_s > 0 && summary_of(v, n, &s) == 0)
		sum = json_pack("{s:f, s:f, s:f, s:o}", "MBps_min", s.min, "MBps_median", s.median,
				"MBps_max", s.max, "jain_index", num_or_null(lat_jain_index(v, n)));
	free(v);
	json_object_set_new(results, "clients", a);
	json_object_set_new(results, "clients_summary", sum ? sum : json_null());
	return 0;
}

/* results.series, exactly {"interval_s": 1, "points": [{t, warmup, bytes,
 * ops, lat_max_ms, lat_p99_ms}, ...]}; a lost figure is null */
static json_t *series_json(const struct run_series *ser)
{
	json_t *pts = json_array();
	for (size_t k = 0; pts && k < ser->n; k++) {
		const struct run_point *p = &ser->pts[k];
		json_t *o = json_pack("{s:I, s:b, s:o, s:o, s:o, s:o}", "t", (json_int_t)(k + 1),
			"warmup", p->warmup,
			"bytes", p->lost ? json_null() : json_integer((json_int_t)p->bytes),
			"ops", p->lost ? json_null() : json_integer((json_int_t)p->ops),
			"lat_max_ms", p->lost ? json_null() : json_real(ms(p->max_ns)),
			"lat_p99_ms", p->lost || p->no_p99 || !p->ops ? json_null() :
				json_real(ms(p->p99_ns)));
		if (!o || json_array_append_new(pts, o) < 0) {
			json_decref(pts);
			return NULL;
		}
	}
	return pts ? json_pack("{s:i, s:o}", "interval_s", 1, "points", pts) : NULL;
}

/* results.histograms: each op of results.ops (by name) its histogram and
 * the percentiles the table has not (results.ops keeps its keys) */
static int ops_json(json_t *results, const struct run_config *cfg, const struct run_result *res)
{
	json_t *all = json_object();
	if (!all)
		return -1;
	json_object_set_new(results, "histograms", all);
	for (unsigned i = 0; i < OP_COUNT; i++) {
		if (!cfg->prog->count[i])
			continue;
		const struct hist *h = &res->hist[i];
		json_t *o = json_pack("{s:I, s:f, s:f, s:f, s:f, s:f, s:f, s:o}",
			"count", (json_int_t)h->count, "min_ms", h->count ? ms(h->min_ns) : 0.0,
			"p50_ms", ms(hist_percentile(h, 50)), "p90_ms", ms(hist_percentile(h, 90)),
			"p99_ms", ms(hist_percentile(h, 99)), "p99_9_ms", ms(hist_percentile(h, 99.9)),
			"max_ms", ms(h->max_ns), "buckets", histjson_of(h));
		if (!o || json_object_set_new(all, op_report_name(i), o) < 0)
			return -1;
	}
	return 0;
}

int lat_report_json(json_t *results, json_t *params, const struct run_config *cfg,
		    const struct run_result *res)
{
	json_object_set_new(params, "latency_from", json_string(cfg->latency_from_due ?
								 "due" : "start"));
	if (ops_json(results, cfg, res) < 0)
		return -1;
	json_t *sch = histjson_scheme();
	json_t *ser = series_json(&res->series);
	if (!sch || !ser) {
		json_decref(sch);
		json_decref(ser);
		return -1;
	}
	json_object_set_new(results, "histogram_scheme", sch);
	json_object_set_new(results, "series", ser);
	if (clients_json(results, cfg, res) < 0)
		return -1;
	if (cfg->prog->timed || cfg->target_rate > 0) {
		json_t *o = json_object_get(results, "schedule");
		if (!o) {
			o = json_pack("{s:I, s:f, s:f}", "late_ops", (json_int_t)res->late_ops,
				"late_avg_ms", res->late_ops ? ms(res->late_sum_ns) / (double)res->late_ops : 0.0,
				"late_max_ms", ms(res->late_max_ns));
			if (!o)
				return -1;
			json_object_set_new(results, "schedule", o);
		}
		struct summary s;
		json_object_set_new(o, "lag_p99_ms", !res->nranks && lag_spread(res, cfg->nclients, &s) == 0 ?
				    json_pack("{s:f, s:f, s:f}", "min", s.min, "median", s.median,
					      "max", s.max) : json_null());
		json_object_set_new(o, "lag_hist", res->nranks ? json_null() : histjson_of(&res->lag));
	}
	return 0;
}
