/* kbench - kbench load under MPI: the start, the rounds, the gather
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What mpi_job.h promises, over the low layer of mpi.c (its star of
 * point-to-point messages with deadlines, its broadcasts, the ranks'
 * hosts and the dead rank): the clocks' offsets measured by ping-pong and
 * one start time, a round of small messages through rank 0 every
 * KBMPI_ROUND_NS while the run goes, and each rank's packed result sent
 * to rank 0 at the end (merge.h).  Built with --with-mpi only.
 */
#include "config.h"
#include "cli.h"
#include "load/record/merge.h"
#include "load/mpi/mpi.h"
#include "load/mpi/mpi_job.h"
#include "load/record/record.h"
#include "sys/clock.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PINGS 8

/* What the rounds hold from the start to the end. */
static struct {
	int64_t offset_ns;        /* this rank's clock minus rank 0's */
	uint64_t bound_ns;        /* the largest offset bound of all ranks */
	uint64_t t0;              /* the start, this rank's clock */
	uint64_t round;           /* rounds completed */
	int inflight;             /* a round is under way */
	uint64_t posted;          /* when it was posted */
	MPI_Request *req;         /* size: receives (rank 0), or [0] send [1] reply */
	MPI_Request *sreq;        /* rank 0's replies of the last round */
	struct kbmpi_round *in;   /* rank 0: size rounds; others: [0] mine */
	struct job_reply { int32_t dead; int32_t pad; struct kbmpi_round r; } out;
} jb;

uint64_t kbmpi_offset_bound_ns(void)
{
	return jb.bound_ns;
}

uint64_t kbmpi_round_no(void)
{
	return jb.round;
}

/* Rank 0 and rank r: PINGS round trips; rank 0 keeps the offset of the
 * shortest.  Returns 0 or -1 (r dead). */
static int ping(int r, int64_t *offset, uint64_t *bound)
{
	uint64_t best = UINT64_MAX, deadline = kbmpi_after_s(KBMPI_DEAD_S);
	for (int i = 0; i < PINGS; i++) {
		uint64_t t1 = kb_now_ns(), tr = 0;
		MPI_Request rq[2];
		int first;
		MPI_Irecv(&tr, sizeof(tr), MPI_BYTE, r, TAG_CLOCK, MPI_COMM_WORLD, &rq[1]);
		MPI_Isend(&t1, sizeof(t1), MPI_BYTE, r, TAG_CLOCK, MPI_COMM_WORLD, &rq[0]);
		if (kbmpi_wait(2, rq, deadline, &first, 1) < 0)
			return -1;
		uint64_t t2 = kb_now_ns();
		if (t2 - t1 < best) {
			best = t2 - t1;
			*offset = (int64_t)(tr - (t1 + (t2 - t1) / 2));
			*bound = (best + 1) / 2;
		}
	}
	return 0;
}

/* Rank r's side of ping(): answer each ping with this rank's clock. */
static int pong(void)
{
	uint64_t deadline = kbmpi_after_s(KBMPI_DEAD_S * 2 + 5);
	for (int i = 0; i < PINGS; i++) {
		uint64_t t1, tr;
		MPI_Request rq;
		int first;
		MPI_Irecv(&t1, sizeof(t1), MPI_BYTE, 0, TAG_CLOCK, MPI_COMM_WORLD, &rq);
		if (kbmpi_wait(1, &rq, deadline, &first, 1) < 0)
			return -1;
		tr = kb_now_ns();
		MPI_Isend(&tr, sizeof(tr), MPI_BYTE, 0, TAG_CLOCK, MPI_COMM_WORLD, &rq);
		if (kbmpi_wait(1, &rq, deadline, &first, 1) < 0)
			return -1;
	}
	return 0;
}

struct start_msg {
	uint64_t t0;         /* rank 0's clock */
	uint64_t bound;      /* the largest offset bound */
	int64_t offset[];    /* per rank (only rank r's is used by r) */
};

/* The rounds' requests and buffers, made once for this job's size.
 * Returns 0 or -1 (out of memory). */
static int job_alloc(void)
{
	int n = kbmpi_size();
	if (jb.req)
		return 0;
	jb.req = calloc((size_t)n + 1, sizeof(*jb.req));
	jb.sreq = calloc((size_t)n, sizeof(*jb.sreq));
	jb.in = calloc((size_t)n, sizeof(*jb.in));
	if (!jb.req || !jb.sreq || !jb.in) {
		free(jb.req);
		free(jb.sreq);
		free(jb.in);
		jb.req = jb.sreq = NULL;
		jb.in = NULL;
		return -1;
	}
	for (int i = 0; i < n; i++)
		jb.sreq[i] = MPI_REQUEST_NULL;
	return 0;
}

int kbmpi_start(int ready, uint64_t *t0_ns)
{
	if (ready && job_alloc() < 0) {
		fprintf(stderr, "%s: rank %d (%s): out of memory\n", kbmpi_cmd(), kbmpi_rank(),
			kbmpi_host(kbmpi_rank()));
		ready = 0;
	}
	int32_t bad = kbmpi_agree(ready ? 0 : 1);
	if (bad)
		return kbmpi_broken() ? -1 : 1;
	size_t len = sizeof(struct start_msg) + (size_t)kbmpi_size() * sizeof(int64_t);
	struct start_msg *msg = calloc(1, len);
	if (!msg)
		return -1;
	int rc = 0;
	if (kbmpi_rank() == 0) {
		for (int r = 1; r < kbmpi_size() && !rc; r++) {
			uint64_t b = 0;
			if (ping(r, &msg->offset[r], &b) < 0) {
				kbmpi_say_dead(r, KBMPI_DEAD_S);
				rc = -1;
			} else if (b > msg->bound) {
				msg->bound = b;
			}
		}
		/* far enough ahead for the message to reach every rank first */
		msg->t0 = kb_now_ns() + 20000000ull + 2 * msg->bound;
	} else if (pong() < 0) {
		kbmpi_say_dead(0, KBMPI_DEAD_S * 2 + 5);
		rc = -1;
	}
	if (!rc && kbmpi_bcast(msg, len, kbmpi_after_s(KBMPI_DEAD_S)) < 0) {
		kbmpi_say_lost("the start time");
		rc = -1;
	}
	if (!rc) {
		jb.offset_ns = msg->offset[kbmpi_rank()];
		jb.bound_ns = msg->bound;
		jb.t0 = (uint64_t)((int64_t)msg->t0 + jb.offset_ns);
		*t0_ns = jb.t0;
	}
	free(msg);
	return rc;
}

static uint64_t to_rank0(uint64_t t)
{
	return t == UINT64_MAX ? t : (uint64_t)((int64_t)t - jb.offset_ns);
}

static uint64_t from_rank0(uint64_t t)
{
	return t == UINT64_MAX ? t : (uint64_t)((int64_t)t + jb.offset_ns);
}

static void combine_round(struct job_reply *out)
{
	struct kbmpi_round *j = &out->r;
	memset(j, 0, sizeof(*j));
	j->end_at = UINT64_MAX;
	j->stop_rank = -1;
	j->dead_rank = -1;
	j->sec = jb.in[0].sec;
	for (int r = 0; r < kbmpi_size(); r++) {
		const struct kbmpi_round *x = &jb.in[r];
		j->ops_all += x->ops_all;
		j->bytes_all += x->bytes_all;
		j->sec_bytes += x->sec_bytes;
		j->sec_ops += x->sec_ops;
		if (x->sec_max_ns > j->sec_max_ns)
			j->sec_max_ns = x->sec_max_ns;
		if (x->end_at < j->end_at)
			j->end_at = x->end_at;
		j->lost += x->lost;
		j->done += x->done;
		j->stopped += x->stopped;
		if (x->stopped && j->stop_rank < 0)
			j->stop_rank = r;
	}
}

uint64_t kbmpi_due(uint64_t now)
{
	if (jb.inflight || kbmpi_broken())
		return 0;
	return now >= jb.t0 + (jb.round + 1) * KBMPI_ROUND_NS ? jb.round + 1 : 0;
}

int kbmpi_poll(const struct kbmpi_round *mine, struct kbmpi_round *job, uint64_t now,
	       int signalled)
{
	int first;
	if (kbmpi_broken()) {
		job->dead_rank = kbmpi_dead();
		return -1;
	}
	if (mine && !jb.inflight) {
		struct kbmpi_round x = *mine;
		x.end_at = to_rank0(x.end_at);
		jb.posted = now;
		jb.inflight = 1;
		if (kbmpi_rank() == 0) {
			/* the last round's replies have long gone: small messages */
			kbmpi_wait(kbmpi_size(), jb.sreq, now + (uint64_t)(KBMPI_DEAD_S * 1e9), &first, 0);
			jb.in[0] = x;
			jb.req[0] = MPI_REQUEST_NULL;
			for (int r = 1; r < kbmpi_size(); r++)
				MPI_Irecv(&jb.in[r], sizeof(jb.in[r]), MPI_BYTE, r, TAG_ROUND,
					  MPI_COMM_WORLD, &jb.req[r]);
		} else {
			jb.in[0] = x;
			MPI_Isend(&jb.in[0], sizeof(jb.in[0]), MPI_BYTE, 0, TAG_ROUND, MPI_COMM_WORLD,
				  &jb.req[0]);
			MPI_Irecv(&jb.out, sizeof(jb.out), MPI_BYTE, 0, TAG_REPLY, MPI_COMM_WORLD,
				  &jb.req[1]);
		}
	}
	if (!jb.inflight)
		return 0;
	double wait_s = kbmpi_patience(signalled);
	uint64_t deadline = jb.posted + (uint64_t)(wait_s * 1e9);
	int n = kbmpi_rank() == 0 ? kbmpi_size() : 2;
	/* a deadline already past only looks once */
	if (kbmpi_wait(n, jb.req, now < deadline ? now : deadline, &first, 0) < 0) {
		if (kb_now_ns() < deadline)
			return 0;
		kbmpi_say_dead(kbmpi_rank() == 0 ? first : 0, wait_s);
		if (kbmpi_rank() == 0) {
			/* tell the ranks that answered */
			jb.out.dead = kbmpi_dead();
			for (int r = 1; r < kbmpi_size(); r++)
				if (jb.req[r] == MPI_REQUEST_NULL)
					MPI_Isend(&jb.out, sizeof(jb.out), MPI_BYTE, r, TAG_REPLY,
						  MPI_COMM_WORLD, &jb.sreq[r]);
			kbmpi_wait(kbmpi_size(), jb.sreq, kbmpi_after_s(1), &first, 0);
		}
		job->dead_rank = kbmpi_dead();
		return -1;
	}
	jb.inflight = 0;
	jb.round++;
	if (kbmpi_rank() == 0) {
		combine_round(&jb.out);
		jb.out.dead = -1;
		for (int r = 1; r < kbmpi_size(); r++)
			MPI_Isend(&jb.out, sizeof(jb.out), MPI_BYTE, r, TAG_REPLY, MPI_COMM_WORLD,
				  &jb.sreq[r]);
	} else if (jb.out.dead >= 0) {
		kbmpi_set_dead(jb.out.dead);
		job->dead_rank = kbmpi_dead();
		return -1;
	}
	*job = jb.out.r;
	job->end_at = from_rank0(job->end_at);
	job->dead_rank = -1;
	return 1;
}

/* What a rank sends rank 0 at the end, before its packed result (len bytes). */
struct gather_head {
	struct run_rank rr;
	uint64_t len;
};

/* This rank's row of results.per_rank[]. */
static void rank_row(const struct run_result *res, unsigned nclients, struct run_rank *rr)
{
	memset(rr, 0, sizeof(*rr));
	snprintf(rr->host, sizeof(rr->host), "%s", kbmpi_host(kbmpi_rank()));
	rr->clients = nclients;
	rr->nprocs = res->nprocs;
	rr->ops = res->ops;
	rr->bytes = res->bytes;
	rr->errors = res->errors;
	rr->passes = res->passes;
	rr->measured_s = res->measured_s;
	rr->mbps = res->mbps;
	rr->died = res->died;
	rr->interrupted = res->interrupted;
	rr->strict_stop = res->strict_stop;
	rr->setup_failed = res->setup_failed;
	rr->stuck = res->stuck;
	rr->nfatal = res->nfatal;
	if (res->died)
		snprintf(rr->why, sizeof(rr->why), "%s", res->died_msg);
}

/* A rank other than 0: its row and packed result to rank 0.  Returns 0 or -1. */
static int gather_send(const struct run_result *res, struct gather_head *mine, uint64_t deadline,
		       int signalled)
{
	size_t len = 0;
	int first;
	void *body = run_result_pack(res, &len);
	if (!body || len > INT_MAX) {
		fprintf(stderr, "%s: rank %d (%s): out of memory packing its results\n", kbmpi_cmd(),
			kbmpi_rank(), kbmpi_host(kbmpi_rank()));
		len = 0;  /* rank 0 then knows this rank has no result */
	}
	mine->len = len;
	MPI_Request rq[2];
	MPI_Isend(mine, sizeof(*mine), MPI_BYTE, 0, TAG_HEAD, MPI_COMM_WORLD, &rq[0]);
	MPI_Isend(body, (int)len, MPI_BYTE, 0, TAG_BODY, MPI_COMM_WORLD, &rq[1]);
	int rc = kbmpi_wait(2, rq, deadline, &first, 0);
	free(body);
	if (rc < 0) {
		kbmpi_say_dead(0, kbmpi_patience(signalled));
		return -1;
	}
	return len ? 0 : -1;
}

/* Rank 0: rank r's row into res->ranks[r] and its result added into res
 * (run_result_add).  Returns 0 with *mbps its throughput, or -1 (said). */
static int gather_rank(struct run_result *res, int r, uint64_t deadline, int signalled,
		       double *mbps)
{
	struct gather_head head;
	struct run_result one;
	MPI_Request rq;
	int first;
	memset(&one, 0, sizeof(one));
	MPI_Irecv(&head, sizeof(head), MPI_BYTE, r, TAG_HEAD, MPI_COMM_WORLD, &rq);
	if (kbmpi_wait(1, &rq, deadline, &first, 0) < 0) {
		kbmpi_say_dead(r, kbmpi_patience(signalled));
		return -1;
	}
	void *body = head.len && head.len <= INT_MAX ? malloc(head.len) : NULL;
	MPI_Irecv(body, body ? (int)head.len : 0, MPI_BYTE, r, TAG_BODY, MPI_COMM_WORLD, &rq);
	if (kbmpi_wait(1, &rq, deadline, &first, 0) < 0) {
		kbmpi_say_dead(r, kbmpi_patience(signalled));
		free(body);
		return -1;
	}
	int rc = body ? run_result_unpack(body, head.len, &one) : -1;
	free(body);
	if (rc < 0) {
		fprintf(stderr, "%s: rank 0 (%s): no result from rank %d (%s)\n", kbmpi_cmd(),
			kbmpi_host(0), r, kbmpi_host(r));
		run_result_free(&one);
		return -1;
	}
	head.rr.host[RUN_HOST_MAX - 1] = '\0';
	head.rr.why[sizeof(head.rr.why) - 1] = '\0';
	res->ranks[r] = head.rr;
	if (one.died)
		snprintf(one.died_msg, sizeof(one.died_msg), "rank %d (%.32s): %.100s", r,
			 head.rr.host, head.rr.why);
	rc = run_result_add(res, &one);
	run_result_free(&one);
	*mbps = head.rr.mbps;
	return rc;
}

int kbmpi_gather(struct run_result *res, unsigned nclients, int signalled)
{
	struct gather_head mine;
	int first;
	uint64_t deadline = kbmpi_after_s(kbmpi_patience(signalled));
	memset(&mine, 0, sizeof(mine));
	rank_row(res, nclients, &mine.rr);
	if (kbmpi_rank() == 0)  /* the last round's replies */
		kbmpi_wait(kbmpi_size(), jb.sreq, deadline, &first, 0);
	if (kbmpi_rank())
		return gather_send(res, &mine, deadline, signalled);
	res->ranks = calloc((size_t)kbmpi_size(), sizeof(*res->ranks));
	if (!res->ranks) {
		fprintf(stderr, "%s: rank 0 (%s): out of memory merging the ranks\n", kbmpi_cmd(),
			kbmpi_host(0));
		return -1;
	}
	res->nranks = (unsigned)kbmpi_size();
	res->ranks[0] = mine.rr;
	int finite = isfinite(res->mbps);
	double sum = finite ? res->mbps : 0;
	int rc = 0;
	for (int r = 1; r < kbmpi_size() && !rc; r++) {
		double mbps = NAN;
		rc = gather_rank(res, r, deadline, signalled, &mbps);
		if (isfinite(mbps))
			sum += mbps;
		else
			finite = 0;
	}
	/* the job's throughput is the sum of the ranks' (each over its own
	 * window, on its own clock); a rank without a figure leaves none */
	res->mbps = finite && !res->oom_killed ? sum : NAN;
	return rc;
}
