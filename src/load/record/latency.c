/* kbench - a load run's latency record (see latency.h)
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"
#include "load/record/latency.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "stats/histjson.h"
#include "stats/summary.h"

static double ms(uint64_t ns)
{
	return (double)ns / 1e6;
}

int lat_series_point(struct run_series *ser, const struct run_point *pt, const uint64_t *acc)
{
	if (ser->n == ser->cap) {
		size_t cap = ser->cap ? ser->cap * 2 : 64;
		struct run_point *p = realloc(ser->pts, cap * sizeof(*p));
		if (!p)
			return -1;
		ser->pts = p;
		ser->cap = cap;
	}
	unsigned nb = 0;
	for (unsigned i = 0; i < HIST_COARSE_BUCKETS; i++)
		nb += acc[i] != 0;
	if (ser->cn + nb > ser->ccap) {
		size_t cap = ser->ccap ? ser->ccap : 1024;
		while (cap < ser->cn + nb)
			cap *= 2;
		uint32_t *idx = realloc(ser->cidx, cap * sizeof(*idx));
		if (idx)
			ser->cidx = idx;
		uint64_t *cnt = realloc(ser->ccnt, cap * sizeof(*cnt));
		if (cnt)
			ser->ccnt = cnt;
		if (!idx || !cnt)
			return -1;
		ser->ccap = cap;
	}
	struct run_point *p = &ser->pts[ser->n++];
	*p = *pt;
	p->coff = (uint32_t)ser->cn;
	p->cnb = nb;
	for (unsigned i = 0; i < HIST_COARSE_BUCKETS; i++)
		if (acc[i]) {
			ser->cidx[ser->cn] = i;
			ser->ccnt[ser->cn++] = acc[i];
		}
	p->p99_ns = p->lost ? 0 : hist_coarse_percentile(acc, 99, p->max_ns);
	return 0;
}

void lat_series_free(struct run_series *ser)
{
	free(ser->pts);
	free(ser->cidx);
	free(ser->ccnt);
	memset(ser, 0, sizeof(*ser));
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
	if (p->lost)  /* a lost second keeps no counts */
		memset(acc, 0, HIST_COARSE_BUCKETS * sizeof(*acc));
}

int lat_series_collect(const struct run_config *cfg, const struct run_shared *sh,
		       uint64_t upto, struct run_series *ser)
{
	uint64_t acc[HIST_COARSE_BUCKETS];
	while (ser->n < upto) {
		uint64_t s = ser->n;
		struct run_point p = { 0 };
		read_second(sh, cfg->nclients, s, &p, acc);
		p.warmup = sh->t0_ns + s * 1000000000ull < sh->warm_end_ns;
		if (lat_series_point(ser, &p, acc) < 0)
			return -1;
	}
	return 0;
}

void lat_client_of(const struct client_stats *st, double window_s, struct run_client *out,
		   struct hist *scratch, struct hist *lag)
{
	out->ops = st->ops;
	out->bytes = st->bytes;
	out->errors = st->errors;
	out->window_s = window_s;
	hist_init(scratch);
	for (unsigned i = 0; i < OP_COUNT; i++)
		client_hist_merge(scratch, st, &st->hist[i]);
	hist_init(lag);
	client_hist_merge(lag, st, &st->lag);
	out->lag_n = lag->count;
	out->lag_p99_ns = hist_percentile(lag, 99);
	out->nb = hist_sparse(scratch, out->idx, out->cnt);
}

void lat_result_free(struct run_result *res)
{
	for (unsigned c = 0; res->clients && c < res->nclients_kept; c++) {
		free(res->clients[c].idx);
		free(res->clients[c].cnt);
	}
	free(res->clients);
	lat_series_free(&res->series);
	res->clients = NULL;
	res->nclients_kept = 0;
}

/* min, median, max of the clients' p99 lag, ms; -1 when there is none */
static int lag_spread(const struct run_result *res, struct summary *s)
{
	unsigned n = res->nclients_kept;
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
	if (lag_spread(res, &s) == 0)
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

/* results.clients and results.clients_summary (under --mpi every rank's
 * clients, rank by rank) */
static int clients_json(json_t *results, const struct run_config *cfg,
			const struct run_result *res)
{
	unsigned n = res->nclients_kept;
	if (!res->clients || !n) {
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
		v[c] = x->window_s > 0 ? (double)x->bytes / 1e6 / x->window_s : NAN;
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
			"lat_p99_ms", p->lost || !p->ops ? json_null() :
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
		json_object_set_new(o, "lag_p99_ms", lag_spread(res, &s) == 0 ?
				    json_pack("{s:f, s:f, s:f}", "min", s.min, "median", s.median,
					      "max", s.max) : json_null());
		json_object_set_new(o, "lag_hist", histjson_of(&res->lag));
	}
	return 0;
}
