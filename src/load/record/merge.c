/* kbench - one merge for a load run's figures (see merge.h)
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"
#include "load/record/merge.h"
#include "load/record/latency.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* most frequent first; ties by loadfile line, then errno */
static int cmp_err(const void *a, const void *b)
{
	const struct run_error *x = a, *y = b;
	if (x->count != y->count)
		return x->count < y->count ? 1 : -1;
	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	return x->err < y->err ? -1 : x->err > y->err;
}

static int add_errors(struct run_result *dst, const struct run_result *src)
{
	if (!src->nerrs)
		return 0;
	struct run_error *all = realloc(dst->errs, (dst->nerrs + src->nerrs) * sizeof(*all));
	if (!all)
		return -1;
	dst->errs = all;
	for (size_t k = 0; k < src->nerrs; k++) {
		const struct run_error *e = &src->errs[k];
		size_t j;
		for (j = 0; j < dst->nerrs; j++)
			if (all[j].line == e->line && all[j].err == e->err)
				break;
		if (j == dst->nerrs)
			all[dst->nerrs++] = *e;
		else
			all[j].count += e->count;
	}
	qsort(all, dst->nerrs, sizeof(*all), cmp_err);
	return 0;
}

static int add_clients(struct run_result *dst, const struct run_result *src)
{
	if (!src->nclients_kept)
		return 0;
	unsigned n = dst->nclients_kept + src->nclients_kept;
	struct run_client *all = realloc(dst->clients, n * sizeof(*all));
	if (!all)
		return -1;
	dst->clients = all;
	for (unsigned c = 0; c < src->nclients_kept; c++) {
		const struct run_client *s = &src->clients[c];
		struct run_client *d = &all[dst->nclients_kept];
		*d = *s;
		d->idx = malloc((s->nb ? s->nb : 1) * sizeof(*d->idx));
		d->cnt = malloc((s->nb ? s->nb : 1) * sizeof(*d->cnt));
		if (!d->idx || !d->cnt) {
			free(d->idx);
			free(d->cnt);
			return -1;
		}
		memcpy(d->idx, s->idx, s->nb * sizeof(*d->idx));
		memcpy(d->cnt, s->cnt, s->nb * sizeof(*d->cnt));
		dst->nclients_kept++;
	}
	return 0;
}

/* second k of ser's coarse counts added into acc */
static void coarse_into(const struct run_series *ser, size_t k, uint64_t *acc)
{
	if (k >= ser->n)
		return;
	const struct run_point *p = &ser->pts[k];
	for (uint32_t i = 0; i < p->cnb; i++)
		acc[ser->cidx[p->coff + i]] += ser->ccnt[p->coff + i];
}

static int add_series(struct run_series *dst, const struct run_series *src)
{
	if (!src->n)
		return 0;
	struct run_series out = { 0 };
	uint64_t acc[HIST_COARSE_BUCKETS];
	size_t n = dst->n > src->n ? dst->n : src->n;
	int rc = 0;
	for (size_t k = 0; k < n && !rc; k++) {
		struct run_point p = { 0 };
		const struct run_point *a = k < dst->n ? &dst->pts[k] : NULL;
		const struct run_point *b = k < src->n ? &src->pts[k] : NULL;
		for (int i = 0; i < 2; i++) {
			const struct run_point *x = i ? b : a;
			if (!x)
				continue;
			p.bytes += x->bytes;
			p.ops += x->ops;
			if (x->max_ns > p.max_ns)
				p.max_ns = x->max_ns;
			p.lost |= x->lost;
			p.warmup |= x->warmup;
		}
		memset(acc, 0, sizeof(acc));
		coarse_into(dst, k, acc);
		coarse_into(src, k, acc);
		rc = lat_series_point(&out, &p, acc);
	}
	if (rc) {
		lat_series_free(&out);
		return -1;
	}
	lat_series_free(dst);
	*dst = out;
	return 0;
}

/* the counters, maxima and flags of run_result_add */
static void add_figures(struct run_result *dst, const struct run_result *src)
{
	dst->ops += src->ops;
	dst->bytes += src->bytes;
	dst->errors += src->errors;
	dst->errors_unlisted += src->errors_unlisted;
	dst->passes += src->passes;
	for (unsigned i = 0; i < OP_COUNT; i++)
		dst->unsupported[i] += src->unsupported[i];
	dst->late_ops += src->late_ops;
	dst->late_sum_ns += src->late_sum_ns;
	if (src->late_max_ns > dst->late_max_ns)
		dst->late_max_ns = src->late_max_ns;
	if (src->max_latency_ns > dst->max_latency_ns)
		dst->max_latency_ns = src->max_latency_ns;
	dst->nprocs += src->nprocs;
	dst->stuck += src->stuck;
	if (src->nfatal && !dst->nfatal) {
		dst->fatal_client = dst->nclients_kept + src->fatal_client;
		dst->fatal_err = src->fatal_err;
	}
	dst->nfatal += src->nfatal;
	if (!dst->interrupted)
		dst->interrupted = src->interrupted;
	if (src->died && !dst->died) {
		dst->died = src->died;
		snprintf(dst->died_msg, sizeof(dst->died_msg), "%s", src->died_msg);
	}
	dst->strict_stop |= src->strict_stop;
	dst->setup_failed |= src->setup_failed;
	dst->oom_killed |= src->oom_killed;
}

int run_result_add(struct run_result *dst, const struct run_result *src)
{
	add_figures(dst, src);  /* before the clients: fatal_client counts dst's */
	for (unsigned i = 0; src->hist && i < OP_COUNT; i++)
		hist_merge(&dst->hist[i], &src->hist[i]);
	hist_merge(&dst->lag, &src->lag);
	if (add_errors(dst, src) < 0 || add_clients(dst, src) < 0 ||
	    add_series(&dst->series, &src->series) < 0)
		return -1;
	return 0;
}

int run_result_client_alloc(struct run_result *one)
{
	memset(one, 0, sizeof(*one));
	/* fresh zeros (calloc), cleared between clients by hist_clear: only
	 * the buckets a client used are ever written (324 KiB otherwise) */
	one->hist = calloc(OP_COUNT, sizeof(*one->hist));
	one->errs = malloc(ERR_SLOTS * sizeof(*one->errs));
	one->clients = calloc(1, sizeof(*one->clients));
	if (!one->hist || !one->errs || !one->clients)
		return -1;
	one->nclients_kept = 1;
	one->clients[0].idx = malloc(HIST_BUCKETS * sizeof(*one->clients[0].idx));
	one->clients[0].cnt = malloc(HIST_BUCKETS * sizeof(*one->clients[0].cnt));
	return one->clients[0].idx && one->clients[0].cnt ? 0 : -1;
}

int run_result_client_of(struct run_result *one, const struct client_stats *st,
			 double window_s)
{
	struct hist *scratch = malloc(sizeof(*scratch));
	if (!scratch)
		return -1;
	one->ops = st->ops;
	one->bytes = st->bytes;
	one->errors = st->errors;
	one->errors_unlisted = st->errors_unlisted;
	one->passes = st->passes;
	memcpy(one->unsupported, st->unsupported, sizeof(one->unsupported));
	one->late_ops = st->late_ops;
	one->late_sum_ns = st->late_sum_ns;
	one->late_max_ns = st->late_max_ns;
	one->nfatal = st->fatal != 0;
	one->fatal_client = 0;
	one->fatal_err = st->fatal;
	one->max_latency_ns = 0;
	for (unsigned i = 0; i < OP_COUNT; i++) {
		hist_clear(&one->hist[i]);
		client_hist_merge(&one->hist[i], st, &st->hist[i]);
		/* a Sleep is the loadfile's pause, not a file-system latency */
		if (i != OP_SLEEP && one->hist[i].max_ns > one->max_latency_ns)
			one->max_latency_ns = one->hist[i].max_ns;
	}
	one->nerrs = 0;
	for (uint32_t k = 0; k < st->nerr_slots && k < ERR_SLOTS; k++) {
		const struct err_slot *e = &st->errs[k];
		one->errs[one->nerrs++] = (struct run_error){ .line = e->line, .code = e->code,
			.expect = e->expect, .err = e->err, .count = e->count };
	}
	lat_client_of(st, window_s, &one->clients[0], scratch, &one->lag);
	free(scratch);
	return 0;
}

/* --- the packed form ---------------------------------------------------- */

struct packer {
	unsigned char *buf;
	size_t len, cap;
	int failed;
};

static void put(struct packer *pk, const void *p, size_t n)
{
	if (pk->failed || !n)
		return;
	if (pk->len + n > pk->cap) {
		size_t cap = pk->cap ? pk->cap : 4096;
		while (cap < pk->len + n)
			cap *= 2;
		unsigned char *b = realloc(pk->buf, cap);
		if (!b) {
			pk->failed = 1;
			return;
		}
		pk->buf = b;
		pk->cap = cap;
	}
	memcpy(pk->buf + pk->len, p, n);
	pk->len += n;
}

void *run_result_pack(const struct run_result *res, size_t *len)
{
	struct packer pk = { 0 };
	uint32_t has_hist = res->hist != NULL;
	put(&pk, res, sizeof(*res));
	put(&pk, &has_hist, sizeof(has_hist));
	if (has_hist)
		put(&pk, res->hist, OP_COUNT * sizeof(*res->hist));
	put(&pk, res->errs, res->nerrs * sizeof(*res->errs));
	put(&pk, res->clients, res->nclients_kept * sizeof(*res->clients));
	for (unsigned c = 0; c < res->nclients_kept; c++) {
		put(&pk, res->clients[c].idx, res->clients[c].nb * sizeof(uint32_t));
		put(&pk, res->clients[c].cnt, res->clients[c].nb * sizeof(uint64_t));
	}
	put(&pk, res->series.pts, res->series.n * sizeof(*res->series.pts));
	put(&pk, res->series.cidx, res->series.cn * sizeof(*res->series.cidx));
	put(&pk, res->series.ccnt, res->series.cn * sizeof(*res->series.ccnt));
	if (pk.failed) {
		free(pk.buf);
		return NULL;
	}
	*len = pk.len;
	return pk.buf;
}

struct unpacker {
	const unsigned char *buf;
	size_t len, at;
};

/* n bytes copied into a new block (at least 1 byte), or NULL */
static void *take(struct unpacker *u, size_t n)
{
	if (u->len - u->at < n)
		return NULL;
	void *p = malloc(n ? n : 1);
	if (p) {
		memcpy(p, u->buf + u->at, n);
		u->at += n;
	}
	return p;
}

static int unpack_clients(struct unpacker *u, struct run_result *res, unsigned n)
{
	res->clients = take(u, (size_t)n * sizeof(*res->clients));
	if (!res->clients)
		return -1;
	for (unsigned c = 0; c < n; c++)
		res->clients[c].idx = NULL, res->clients[c].cnt = NULL;
	res->nclients_kept = n;
	for (unsigned c = 0; c < n; c++) {
		struct run_client *x = &res->clients[c];
		if (x->nb > HIST_BUCKETS)
			return -1;
		x->idx = take(u, x->nb * sizeof(*x->idx));
		x->cnt = take(u, x->nb * sizeof(*x->cnt));
		if (!x->idx || !x->cnt)
			return -1;
		for (unsigned i = 0; i < x->nb; i++)
			if (x->idx[i] >= HIST_BUCKETS)
				return -1;
	}
	return 0;
}

static int unpack_series(struct unpacker *u, struct run_series *s, size_t n, size_t cn)
{
	s->pts = take(u, n * sizeof(*s->pts));
	s->cidx = take(u, cn * sizeof(*s->cidx));
	s->ccnt = take(u, cn * sizeof(*s->ccnt));
	if (!s->pts || !s->cidx || !s->ccnt)
		return -1;
	s->n = s->cap = n;
	s->cn = s->ccap = cn;
	for (size_t k = 0; k < n; k++)
		if (s->pts[k].coff > cn || s->pts[k].cnb > cn - s->pts[k].coff)
			return -1;
	for (size_t i = 0; i < cn; i++)
		if (s->cidx[i] >= HIST_COARSE_BUCKETS)
			return -1;
	return 0;
}

int run_result_unpack(const void *buf, size_t len, struct run_result *res)
{
	struct unpacker u = { buf, len, 0 };
	uint32_t has_hist;
	memset(res, 0, sizeof(*res));
	if (len < sizeof(*res) + sizeof(has_hist))
		return -1;
	memcpy(res, buf, sizeof(*res));
	u.at = sizeof(*res);
	memcpy(&has_hist, u.buf + u.at, sizeof(has_hist));
	u.at += sizeof(has_hist);
	size_t nerrs = res->nerrs, sn = res->series.n, cn = res->series.cn;
	unsigned ncl = res->nclients_kept;
	/* the pointers were the sender's */
	res->hist = NULL;
	res->errs = NULL;
	res->clients = NULL;
	res->client_bytes = NULL;
	res->ranks = NULL;
	res->nranks = 0;
	res->nerrs = 0;
	res->nclients_kept = 0;
	memset(&res->series, 0, sizeof(res->series));
	res->died_msg[sizeof(res->died_msg) - 1] = '\0';
	if (has_hist && !(res->hist = take(&u, OP_COUNT * sizeof(*res->hist))))
		return -1;
	if (!(res->errs = take(&u, nerrs * sizeof(*res->errs))))
		return -1;
	res->nerrs = nerrs;
	if (unpack_clients(&u, res, ncl) < 0 || unpack_series(&u, &res->series, sn, cn) < 0)
		return -1;
	return u.at == len ? 0 : -1;
}

void run_result_free(struct run_result *res)
{
	lat_result_free(res);
	free(res->hist);
	free(res->client_bytes);
	free(res->errs);
	free(res->ranks);
	memset(res, 0, sizeof(*res));
}
