/* kbench - kbench load across many machines: the MPI side (--with-mpi)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What mpi.h promises, over MPI-3 point-to-point messages in a star
 * around rank 0, each waited for with MPI_Test against a deadline so that
 * no rank hangs on a dead one.  MPI_COMM_WORLD returns errors instead of
 * aborting (MPI_ERRORS_RETURN): a failed call counts as the peer's death.
 * Messages are plain structs sent as bytes: every rank runs this same
 * kbench binary, so they have one layout (the loadfile's ops are already
 * exchanged that way between the clients of one machine).
 *
 * Only the parent process of each rank calls MPI; the client processes it
 * forks never do (fork and MPI: the clients inherit MPI's memory and
 * sockets but only replay and _exit, which Open MPI tolerates; its
 * warning about fork() is turned off before MPI_Init).
 */
#include "config.h"
#include "cli.h"
#include "load/mpi.h"
#include "load/merge.h"
#include "load/run.h"
#include "sys/clock.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

enum { TAG_AGREE = 101, TAG_CLOCK, TAG_ROUND, TAG_REPLY, TAG_HEAD, TAG_BODY,
       TAG_ACK, TAG_SAME };

#define PINGS 8
#define CHUNK (1u << 30)   /* bytes a broadcast moves at once (an int count) */

static struct {
	int active, rank, size;
	const char *cmd;
	char (*hosts)[KBMPI_HOST_MAX];
	int64_t offset_ns;        /* this rank's clock minus rank 0's */
	uint64_t bound_ns;        /* the largest offset bound of all ranks */
	uint64_t t0;              /* the start, this rank's clock */
	uint64_t round;           /* rounds completed */
	int inflight;             /* a round is under way */
	uint64_t posted;          /* when it was posted */
	MPI_Request *req;         /* size: receives (rank 0), or [0] send [1] reply */
	MPI_Request *sreq;        /* rank 0's replies of the last round */
	struct kbmpi_round *in;   /* rank 0: size rounds; others: [0] mine */
	struct reply { int32_t dead; int32_t pad; struct kbmpi_round r; } out;
	int dead;                 /* a rank declared dead, or -1 */
	int broken;               /* a rank is dead or an exchange failed */
} m = { .dead = -1 };

int kbmpi_built(void)
{
	return 1;
}

int kbmpi_active(void)
{
	return m.active;
}

int kbmpi_rank(void)
{
	return m.rank;
}

int kbmpi_size(void)
{
	return m.size;
}

const char *kbmpi_host(int r)
{
	return m.hosts && r >= 0 && r < m.size ? m.hosts[r] : "?";
}

uint64_t kbmpi_offset_bound_ns(void)
{
	return m.bound_ns;
}

uint64_t kbmpi_round_no(void)
{
	return m.round;
}

static uint64_t after_s(double s)
{
	return kb_now_ns() + (uint64_t)(s * 1e9);
}

/* How long this rank waits for the others: rank 0 KBMPI_DEAD_S, the
 * others 5 s more (rank 0 is waiting for someone else first); after a
 * stop signal KBMPI_GRACE_S. */
static double patience(int signalled)
{
	if (signalled)
		return KBMPI_GRACE_S;
	return m.rank == 0 ? KBMPI_DEAD_S : KBMPI_DEAD_S + 5;
}

/* Before the start a rank may be slow for good reasons (rank 0 parsing a
 * large loadfile, a rank noting a large DIR or forking many clients), so
 * the agreements then wait KBMPI_SETUP_S (5 s more for the others). */
static double setup_patience(void)
{
	return m.rank == 0 ? KBMPI_SETUP_S : KBMPI_SETUP_S + 5;
}

/* Wait for n requests until deadline.  Returns 0, or -1 with *first the
 * index of the first that did not complete (or failed). */
static int wait_reqs(int n, MPI_Request *r, uint64_t deadline, int *first, int spin)
{
	for (;;) {
		int pending = -1;
		for (int i = 0; i < n; i++) {
			if (r[i] == MPI_REQUEST_NULL)
				continue;
			int flag = 0;
			if (MPI_Test(&r[i], &flag, MPI_STATUS_IGNORE) != MPI_SUCCESS) {
				*first = i;
				return -1;
			}
			if (!flag && pending < 0)
				pending = i;
		}
		if (pending < 0)
			return 0;
		if (kb_now_ns() >= deadline) {
			*first = pending;
			return -1;
		}
		if (!spin)
			usleep(200);
	}
}

static void say_dead(int r, double waited)
{
	fprintf(stderr, "%s: rank %d (%s): rank %d (%s) did not answer for %.1f s: the job stops\n",
		m.cmd, m.rank, kbmpi_host(m.rank), r, kbmpi_host(r), waited);
	m.dead = r;
	m.broken = 1;
}

/* An exchange failed without naming the rank at fault. */
static void say_lost(const char *what)
{
	fprintf(stderr, "%s: rank %d (%s): %s did not reach every rank in time: the job stops\n",
		m.cmd, m.rank, kbmpi_host(m.rank), what);
	m.broken = 1;
}

int kbmpi_init(const char *cmd)
{
	int provided, len;
	char name[MPI_MAX_PROCESSOR_NAME];
	m.cmd = cmd;
	/* the clients are forked after MPI_Init and never call MPI */
	setenv("OMPI_MCA_mpi_warn_on_fork", "0", 0);
	if (MPI_Init_thread(NULL, NULL, MPI_THREAD_SINGLE, &provided) != MPI_SUCCESS) {
		fprintf(stderr, "%s: --mpi: MPI_Init failed\n", cmd);
		return KB_EXIT_USAGE;
	}
	m.active = 1;
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
	MPI_Comm_rank(MPI_COMM_WORLD, &m.rank);
	MPI_Comm_size(MPI_COMM_WORLD, &m.size);
	m.hosts = calloc((size_t)m.size, sizeof(*m.hosts));
	m.req = calloc((size_t)m.size + 1, sizeof(*m.req));
	m.sreq = calloc((size_t)m.size, sizeof(*m.sreq));
	m.in = calloc((size_t)m.size, sizeof(*m.in));
	if (!m.hosts || !m.req || !m.sreq || !m.in) {
		fprintf(stderr, "%s: --mpi: out of memory\n", cmd);
		MPI_Abort(MPI_COMM_WORLD, KB_EXIT_FAIL);
	}
	for (int i = 0; i < m.size; i++)
		m.sreq[i] = MPI_REQUEST_NULL;
	if (MPI_Get_processor_name(name, &len) != MPI_SUCCESS)
		snprintf(name, sizeof(name), "?");
	snprintf(m.hosts[m.rank], KBMPI_HOST_MAX, "%.*s", KBMPI_HOST_MAX - 1, name);
	/* every rank's host, for the messages that name a rank */
	if (MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, m.hosts, KBMPI_HOST_MAX, MPI_CHAR,
			  MPI_COMM_WORLD) != MPI_SUCCESS) {
		fprintf(stderr, "%s: --mpi: the ranks cannot exchange their host names\n", cmd);
		MPI_Abort(MPI_COMM_WORLD, KB_EXIT_FAIL);
	}
	for (int i = 0; i < m.size; i++)
		m.hosts[i][KBMPI_HOST_MAX - 1] = '\0';
	return 0;
}

/* The star: rank 0 receives len bytes from every rank into all[] (its own
 * is mine), combine() makes the reply's payload, and every rank gets it
 * into out.  Returns 0, or -1 when a rank is dead (m.dead). */
static int star(int tag, const void *mine, size_t len, void *all,
		void (*combine)(const void *all, void *out), void *out, size_t outlen,
		double wait_s)
{
	char *reply = calloc(1, 8 + outlen);
	int rc = 0, first;
	if (!reply)
		return -1;
	if (m.rank == 0) {
		memcpy(all, mine, len);
		for (int r = 1; r < m.size; r++)
			MPI_Irecv((char *)all + (size_t)r * len, (int)len, MPI_BYTE, r, tag,
				  MPI_COMM_WORLD, &m.req[r]);
		m.req[0] = MPI_REQUEST_NULL;
		if (wait_reqs(m.size, m.req, after_s(wait_s), &first, 0) < 0) {
			say_dead(first, wait_s);
			rc = -1;
		} else {
			combine(all, reply + 8);
		}
		*(int32_t *)reply = rc ? m.dead : -1;
		for (int r = 1; r < m.size; r++)
			if (r != m.dead)
				MPI_Isend(reply, (int)(8 + outlen), MPI_BYTE, r, TAG_REPLY,
					  MPI_COMM_WORLD, &m.sreq[r]);
		wait_reqs(m.size, m.sreq, after_s(1), &first, 0);
	} else {
		MPI_Request rq[2];
		MPI_Isend(mine, (int)len, MPI_BYTE, 0, tag, MPI_COMM_WORLD, &rq[0]);
		MPI_Irecv(reply, (int)(8 + outlen), MPI_BYTE, 0, TAG_REPLY, MPI_COMM_WORLD, &rq[1]);
		if (wait_reqs(2, rq, after_s(wait_s), &first, 0) < 0) {
			say_dead(0, wait_s);
			rc = -1;
		} else if (*(int32_t *)reply >= 0) {
			m.dead = *(int32_t *)reply;
			m.broken = 1;
			rc = -1;
		}
	}
	if (!rc)
		memcpy(out, reply + 8, outlen);
	free(reply);
	return rc;
}

static int nranks_for_combine;

static void combine_max(const void *all, void *out)
{
	const int32_t *v = all;
	int32_t best = 0;
	for (int r = 0; r < nranks_for_combine; r++)
		if (v[r] > best)
			best = v[r];
	*(int32_t *)out = best;
}

int kbmpi_agree(int status)
{
	int32_t mine = status, got = KB_EXIT_FAIL;
	int32_t *all = calloc((size_t)m.size, sizeof(*all));
	nranks_for_combine = m.size;
	if (!all || star(TAG_AGREE, &mine, sizeof(mine), all, combine_max, &got, sizeof(got),
			 setup_patience()) < 0)
		got = KB_EXIT_FAIL;
	free(all);
	return got;
}

/* One broadcast from rank 0 of len bytes at p, in chunks an int counts,
 * waited for until deadline.  Returns 0 or -1. */
static int bcast(void *p, size_t len, uint64_t deadline)
{
	for (size_t at = 0; at < len; at += CHUNK) {
		size_t n = len - at < CHUNK ? len - at : CHUNK;
		MPI_Request rq;
		int first;
		if (MPI_Ibcast((char *)p + at, (int)n, MPI_BYTE, 0, MPI_COMM_WORLD, &rq) != MPI_SUCCESS ||
		    wait_reqs(1, &rq, deadline, &first, 0) < 0)
			return -1;
	}
	return 0;
}

int kbmpi_share_program(int status, struct program *prog)
{
	status = kbmpi_agree(status);
	if (status)
		return status;
	struct program head;
	uint64_t lens[4] = { 0, 0, 0, 0 };  /* source, arena, ops, directory table bytes */
	if (m.rank == 0) {
		head = *prog;
		lens[0] = strlen(prog->source) + 1;
		lens[1] = prog->arena_len;
		lens[2] = (uint64_t)prog->nops * sizeof(struct op);
		lens[3] = (uint64_t)prog->ndirs * sizeof(*prog->dirs);
	}
	uint64_t deadline = after_s(setup_patience());
	if (bcast(&head, sizeof(head), deadline) < 0 || bcast(lens, sizeof(lens), deadline) < 0) {
		say_lost("the loadfile");
		return KB_EXIT_FAIL;
	}
	char *source = m.rank ? malloc(lens[0]) : prog->source;
	char *arena = m.rank ? malloc(lens[1] ? lens[1] : 1) : prog->arena;
	uint32_t *dirs = m.rank ? malloc(lens[3] ? lens[3] : 1) : prog->dirs;
	int fd = m.rank ? memfd_create("kbench-program", MFD_CLOEXEC | MFD_ALLOW_SEALING) : prog->fd;
	void *ops = MAP_FAILED;
	int ok = source && arena && dirs && fd >= 0 && (m.rank == 0 || ftruncate(fd, (off_t)lens[2]) == 0);
	if (ok && lens[2])
		ops = mmap(NULL, lens[2], m.rank ? PROT_READ | PROT_WRITE : PROT_READ, MAP_SHARED,
			   fd, 0);
	ok = ok && (!lens[2] || ops != MAP_FAILED);
	if (!ok)
		fprintf(stderr, "%s: rank %d (%s): cannot hold the loadfile: %s\n", m.cmd, m.rank,
			kbmpi_host(m.rank), strerror(errno));
	/* every rank can take it, or none goes on */
	status = kbmpi_agree(ok ? 0 : KB_EXIT_FAIL);
	deadline = after_s(setup_patience());
	if (!status && (bcast(source, lens[0], deadline) < 0 || bcast(arena, lens[1], deadline) < 0 ||
			(lens[3] && bcast(dirs, lens[3], deadline) < 0) ||
			(lens[2] && bcast(ops, lens[2], deadline) < 0))) {
		say_lost("the loadfile");
		status = KB_EXIT_FAIL;
	}
	if (ops != MAP_FAILED)
		munmap(ops, lens[2]);
	if (m.rank == 0)
		return status;
	if (!status) {
		fcntl(fd, F_ADD_SEALS, F_SEAL_WRITE | F_SEAL_GROW | F_SEAL_SHRINK | F_SEAL_SEAL);
		*prog = head;
		prog->source = source;
		prog->arena = arena;
		prog->dirs = dirs;
		prog->fd = fd;
		return 0;
	}
	free(source);
	free(arena);
	free(dirs);
	if (fd >= 0)
		close(fd);
	return status;
}

/* A rank's answer to rank 0's measure text. */
struct same_msg {
	int32_t status;                 /* 0 the same, KB_EXIT_USAGE differs, KB_EXIT_FAIL */
	char mine[KBMPI_SHOWN_MAX];     /* the first option that differs, as this rank has it */
	char rank0[KBMPI_SHOWN_MAX];    /* ... and as rank 0 has it */
};

/* Rank 0, with every rank's answer in all[]: the one line for the lowest
 * rank that differs. */
static void say_differs(const struct same_msg *all)
{
	int first = -1, more = 0;
	for (int r = 1; r < m.size; r++)
		if (all[r].status == KB_EXIT_USAGE && first < 0)
			first = r;
		else if (all[r].status == KB_EXIT_USAGE)
			more++;
	if (first < 0)
		return;
	const struct same_msg *x = &all[first];
	char tail[64] = "";
	if (more)
		snprintf(tail, sizeof(tail), " (%d more rank%s differ%s)", more, more == 1 ? "" : "s",
			 more == 1 ? "s" : "");
	fprintf(stderr, "%s: rank %d (%s) runs %.*s, rank 0 %.*s: every rank must measure the "
		"same thing%s\n", m.cmd, first, kbmpi_host(first), KBMPI_SHOWN_MAX - 1, x->mine,
		KBMPI_SHOWN_MAX - 1, x->rank0, tail);
}

/* Rank 0: the largest status, and the line said before any rank hears
 * the answer (and may exit, which mpirun may take for the job's end). */
static void combine_same(const void *all, void *out)
{
	const struct same_msg *v = all;
	int32_t best = 0;
	for (int r = 0; r < nranks_for_combine; r++)
		if (v[r].status > best)
			best = v[r].status;
	if (best == KB_EXIT_USAGE)
		say_differs(v);
	*(int32_t *)out = best;
}

int kbmpi_same(const char *mine, kbmpi_differ_fn differs)
{
	int status = kbmpi_agree(mine ? 0 : KB_EXIT_FAIL);
	if (status)
		return status;
	uint64_t len = m.rank == 0 ? strlen(mine) + 1 : 0;
	uint64_t deadline = after_s(setup_patience());
	if (bcast(&len, sizeof(len), deadline) < 0) {
		say_lost("rank 0's options");
		return KB_EXIT_FAIL;
	}
	/* rank 0 the answers, the others rank 0's text: room on every rank
	 * before the broadcast, which every rank must join */
	struct same_msg *all = m.rank == 0 ? calloc((size_t)m.size, sizeof(*all)) : NULL;
	char *rank0 = m.rank == 0 ? (char *)mine : malloc(len ? len : 1);
	int ok = m.rank == 0 ? all != NULL : rank0 != NULL;
	if (!ok)
		fprintf(stderr, "%s: rank %d (%s): out of memory\n", m.cmd, m.rank, kbmpi_host(m.rank));
	status = kbmpi_agree(ok ? 0 : KB_EXIT_FAIL);
	if (!status && bcast(rank0, len, after_s(setup_patience())) < 0) {
		say_lost("rank 0's options");
		status = KB_EXIT_FAIL;
	}
	struct same_msg msg;
	memset(&msg, 0, sizeof(msg));
	if (!status && m.rank) {
		rank0[len ? len - 1 : 0] = '\0';
		if (differs(mine, rank0, msg.mine, msg.rank0, sizeof(msg.mine)))
			msg.status = KB_EXIT_USAGE;
	}
	int32_t got = KB_EXIT_FAIL;
	nranks_for_combine = m.size;
	if (!status && star(TAG_SAME, &msg, sizeof(msg), all, combine_same, &got, sizeof(got),
			    setup_patience()) == 0) {
		status = got;
	} else if (!status) {
		status = KB_EXIT_FAIL;
	}
	free(all);
	if (m.rank)
		free(rank0);
	return status;
}

/* Rank 0 and rank r: PINGS round trips; rank 0 keeps the offset of the
 * shortest.  Returns 0 or -1 (r dead). */
static int ping(int r, int64_t *offset, uint64_t *bound)
{
	uint64_t best = UINT64_MAX, deadline = after_s(KBMPI_DEAD_S);
	for (int i = 0; i < PINGS; i++) {
		uint64_t t1 = kb_now_ns(), tr = 0;
		MPI_Request rq[2];
		int first;
		MPI_Irecv(&tr, sizeof(tr), MPI_BYTE, r, TAG_CLOCK, MPI_COMM_WORLD, &rq[1]);
		MPI_Isend(&t1, sizeof(t1), MPI_BYTE, r, TAG_CLOCK, MPI_COMM_WORLD, &rq[0]);
		if (wait_reqs(2, rq, deadline, &first, 1) < 0)
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
	uint64_t deadline = after_s(KBMPI_DEAD_S * 2 + 5);
	for (int i = 0; i < PINGS; i++) {
		uint64_t t1, tr;
		MPI_Request rq;
		int first;
		MPI_Irecv(&t1, sizeof(t1), MPI_BYTE, 0, TAG_CLOCK, MPI_COMM_WORLD, &rq);
		if (wait_reqs(1, &rq, deadline, &first, 1) < 0)
			return -1;
		tr = kb_now_ns();
		MPI_Isend(&tr, sizeof(tr), MPI_BYTE, 0, TAG_CLOCK, MPI_COMM_WORLD, &rq);
		if (wait_reqs(1, &rq, deadline, &first, 1) < 0)
			return -1;
	}
	return 0;
}

struct start_msg {
	uint64_t t0;         /* rank 0's clock */
	uint64_t bound;      /* the largest offset bound */
	int64_t offset[];    /* per rank (only rank r's is used by r) */
};

int kbmpi_start(int ready, uint64_t *t0_ns)
{
	int32_t bad = kbmpi_agree(ready ? 0 : 1);
	if (bad)
		return m.broken ? -1 : 1;
	size_t len = sizeof(struct start_msg) + (size_t)m.size * sizeof(int64_t);
	struct start_msg *msg = calloc(1, len);
	if (!msg)
		return -1;
	int rc = 0;
	if (m.rank == 0) {
		for (int r = 1; r < m.size && !rc; r++) {
			uint64_t b = 0;
			if (ping(r, &msg->offset[r], &b) < 0) {
				say_dead(r, KBMPI_DEAD_S);
				rc = -1;
			} else if (b > msg->bound) {
				msg->bound = b;
			}
		}
		/* far enough ahead for the message to reach every rank first */
		msg->t0 = kb_now_ns() + 20000000ull + 2 * msg->bound;
	} else if (pong() < 0) {
		say_dead(0, KBMPI_DEAD_S * 2 + 5);
		rc = -1;
	}
	if (!rc && bcast(msg, len, after_s(KBMPI_DEAD_S)) < 0) {
		say_lost("the start time");
		rc = -1;
	}
	if (!rc) {
		m.offset_ns = msg->offset[m.rank];
		m.bound_ns = msg->bound;
		m.t0 = (uint64_t)((int64_t)msg->t0 + m.offset_ns);
		*t0_ns = m.t0;
	}
	free(msg);
	return rc;
}

static uint64_t to_rank0(uint64_t t)
{
	return t == UINT64_MAX ? t : (uint64_t)((int64_t)t - m.offset_ns);
}

static uint64_t from_rank0(uint64_t t)
{
	return t == UINT64_MAX ? t : (uint64_t)((int64_t)t + m.offset_ns);
}

static void combine_round(struct reply *out)
{
	struct kbmpi_round *j = &out->r;
	memset(j, 0, sizeof(*j));
	j->end_at = UINT64_MAX;
	j->stop_rank = -1;
	j->dead_rank = -1;
	j->sec = m.in[0].sec;
	for (int r = 0; r < m.size; r++) {
		const struct kbmpi_round *x = &m.in[r];
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
	if (m.inflight || m.broken)
		return 0;
	return now >= m.t0 + (m.round + 1) * KBMPI_ROUND_NS ? m.round + 1 : 0;
}

int kbmpi_poll(const struct kbmpi_round *mine, struct kbmpi_round *job, uint64_t now,
	       int signalled)
{
	int first;
	if (m.broken) {
		job->dead_rank = m.dead;
		return -1;
	}
	if (mine && !m.inflight) {
		struct kbmpi_round x = *mine;
		x.end_at = to_rank0(x.end_at);
		m.posted = now;
		m.inflight = 1;
		if (m.rank == 0) {
			/* the last round's replies have long gone: small messages */
			wait_reqs(m.size, m.sreq, now + (uint64_t)(KBMPI_DEAD_S * 1e9), &first, 0);
			m.in[0] = x;
			m.req[0] = MPI_REQUEST_NULL;
			for (int r = 1; r < m.size; r++)
				MPI_Irecv(&m.in[r], sizeof(m.in[r]), MPI_BYTE, r, TAG_ROUND,
					  MPI_COMM_WORLD, &m.req[r]);
		} else {
			m.in[0] = x;
			MPI_Isend(&m.in[0], sizeof(m.in[0]), MPI_BYTE, 0, TAG_ROUND, MPI_COMM_WORLD,
				  &m.req[0]);
			MPI_Irecv(&m.out, sizeof(m.out), MPI_BYTE, 0, TAG_REPLY, MPI_COMM_WORLD,
				  &m.req[1]);
		}
	}
	if (!m.inflight)
		return 0;
	double wait_s = patience(signalled);
	uint64_t deadline = m.posted + (uint64_t)(wait_s * 1e9);
	int n = m.rank == 0 ? m.size : 2;
	/* a deadline already past only looks once */
	if (wait_reqs(n, m.req, now < deadline ? now : deadline, &first, 0) < 0) {
		if (kb_now_ns() < deadline)
			return 0;
		say_dead(m.rank == 0 ? first : 0, wait_s);
		if (m.rank == 0) {
			/* tell the ranks that answered */
			m.out.dead = m.dead;
			for (int r = 1; r < m.size; r++)
				if (m.req[r] == MPI_REQUEST_NULL)
					MPI_Isend(&m.out, sizeof(m.out), MPI_BYTE, r, TAG_REPLY,
						  MPI_COMM_WORLD, &m.sreq[r]);
			wait_reqs(m.size, m.sreq, after_s(1), &first, 0);
		}
		job->dead_rank = m.dead;
		return -1;
	}
	m.inflight = 0;
	m.round++;
	if (m.rank == 0) {
		combine_round(&m.out);
		m.out.dead = -1;
		for (int r = 1; r < m.size; r++)
			MPI_Isend(&m.out, sizeof(m.out), MPI_BYTE, r, TAG_REPLY, MPI_COMM_WORLD,
				  &m.sreq[r]);
	} else if (m.out.dead >= 0) {
		m.dead = m.out.dead;
		m.broken = 1;
		job->dead_rank = m.dead;
		return -1;
	}
	*job = m.out.r;
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
	snprintf(rr->host, sizeof(rr->host), "%s", m.hosts[m.rank]);
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
		fprintf(stderr, "%s: rank %d (%s): out of memory packing its results\n", m.cmd,
			m.rank, kbmpi_host(m.rank));
		len = 0;  /* rank 0 then knows this rank has no result */
	}
	mine->len = len;
	MPI_Request rq[2];
	MPI_Isend(mine, sizeof(*mine), MPI_BYTE, 0, TAG_HEAD, MPI_COMM_WORLD, &rq[0]);
	MPI_Isend(body, (int)len, MPI_BYTE, 0, TAG_BODY, MPI_COMM_WORLD, &rq[1]);
	int rc = wait_reqs(2, rq, deadline, &first, 0);
	free(body);
	if (rc < 0) {
		say_dead(0, patience(signalled));
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
	if (wait_reqs(1, &rq, deadline, &first, 0) < 0) {
		say_dead(r, patience(signalled));
		return -1;
	}
	void *body = head.len && head.len <= INT_MAX ? malloc(head.len) : NULL;
	MPI_Irecv(body, body ? (int)head.len : 0, MPI_BYTE, r, TAG_BODY, MPI_COMM_WORLD, &rq);
	if (wait_reqs(1, &rq, deadline, &first, 0) < 0) {
		say_dead(r, patience(signalled));
		free(body);
		return -1;
	}
	int rc = body ? run_result_unpack(body, head.len, &one) : -1;
	free(body);
	if (rc < 0) {
		fprintf(stderr, "%s: rank 0 (%s): no result from rank %d (%s)\n", m.cmd,
			kbmpi_host(0), r, kbmpi_host(r));
		run_result_free(&one);
		return -1;
	}
	head.rr.host[KBMPI_HOST_MAX - 1] = '\0';
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
	uint64_t deadline = after_s(patience(signalled));
	memset(&mine, 0, sizeof(mine));
	rank_row(res, nclients, &mine.rr);
	if (m.rank == 0)  /* the last round's replies */
		wait_reqs(m.size, m.sreq, deadline, &first, 0);
	if (m.rank)
		return gather_send(res, &mine, deadline, signalled);
	res->ranks = calloc((size_t)m.size, sizeof(*res->ranks));
	if (!res->ranks) {
		fprintf(stderr, "%s: rank 0 (%s): out of memory merging the ranks\n", m.cmd,
			kbmpi_host(0));
		return -1;
	}
	res->nranks = (unsigned)m.size;
	res->ranks[0] = mine.rr;
	int finite = isfinite(res->mbps);
	double sum = finite ? res->mbps : 0;
	int rc = 0;
	for (int r = 1; r < m.size && !rc; r++) {
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

void kbmpi_end(int status)
{
	if (!m.active)
		return;
	fflush(NULL);
	if (!m.broken) {
		int first;
		wait_reqs(m.size, m.sreq, after_s(1), &first, 0);
		MPI_Finalize();
		return;
	}
	/* a rank is dead: every live rank has cleaned up before rank 0 ends
	 * the job, which kills what is left */
	int first, ack = status;
	if (m.rank == 0) {
		for (int r = 1; r < m.size; r++)
			if (r == m.dead)
				m.req[r] = MPI_REQUEST_NULL;
			else
				MPI_Irecv(&m.in[r], sizeof(m.in[r]), MPI_BYTE, r, TAG_ACK,
					  MPI_COMM_WORLD, &m.req[r]);
		m.req[0] = MPI_REQUEST_NULL;
		wait_reqs(m.size, m.req, after_s(KBMPI_DEAD_S), &first, 0);
	} else if (m.dead != 0) {
		MPI_Request rq;
		MPI_Isend(&ack, sizeof(ack), MPI_BYTE, 0, TAG_ACK, MPI_COMM_WORLD, &rq);
		/* rank 0 ends the job; on its own only if rank 0 does not */
		sleep_until(after_s(KBMPI_DEAD_S * 2), NULL);
	}
	MPI_Abort(MPI_COMM_WORLD, status ? status : KB_EXIT_FAIL);
	_exit(status ? status : KB_EXIT_FAIL);
}

int kbmpi_broken(void)
{
	return m.broken;
}
