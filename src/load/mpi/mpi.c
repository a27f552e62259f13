/* kbench - kbench load across many machines: MPI's low layer (--with-mpi)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What mpi.h promises (mpi_job.c builds the run's exchanges on it), over MPI-3 point-to-point messages in a star
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
#include "load/mpi/mpi.h"
#include "load/run/client.h"
#include "sys/clock.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define CHUNK (1u << 30)   /* bytes a broadcast moves at once (an int count) */

static struct {
	int active, rank, size;
	const char *cmd;
	char (*hosts)[KBMPI_HOST_MAX];
	MPI_Request *req;         /* size: receives (rank 0) */
	MPI_Request *sreq;        /* rank 0's replies of the last star */
	int32_t *acks;            /* rank 0: size, the ends' answers */
	int dead;                 /* a rank declared dead, or -1 */
	int broken;               /* a rank is dead or an exchange failed */
} m = { .dead = -1 };

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

const char *kbmpi_cmd(void)
{
	return m.cmd;
}

int kbmpi_dead(void)
{
	return m.dead;
}

void kbmpi_set_dead(int r)
{
	m.dead = r;
	m.broken = 1;
}

uint64_t kbmpi_after_s(double s)
{
	return kb_now_ns() + (uint64_t)(s * 1e9);
}

double kbmpi_patience(int signalled)
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

int kbmpi_wait(int n, MPI_Request *r, uint64_t deadline, int *first, int spin)
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

void kbmpi_say_dead(int r, double waited)
{
	fprintf(stderr, "%s: rank %d (%s): rank %d (%s) did not answer for %.1f s: the job stops\n",
		m.cmd, m.rank, kbmpi_host(m.rank), r, kbmpi_host(r), waited);
	kbmpi_set_dead(r);
}

void kbmpi_say_lost(const char *what)
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
	m.acks = calloc((size_t)m.size, sizeof(*m.acks));
	if (!m.hosts || !m.req || !m.sreq || !m.acks) {
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
		if (kbmpi_wait(m.size, m.req, kbmpi_after_s(wait_s), &first, 0) < 0) {
			kbmpi_say_dead(first, wait_s);
			rc = -1;
		} else {
			combine(all, reply + 8);
		}
		*(int32_t *)reply = rc ? m.dead : -1;
		for (int r = 1; r < m.size; r++)
			if (r != m.dead)
				MPI_Isend(reply, (int)(8 + outlen), MPI_BYTE, r, TAG_REPLY,
					  MPI_COMM_WORLD, &m.sreq[r]);
		kbmpi_wait(m.size, m.sreq, kbmpi_after_s(1), &first, 0);
	} else {
		MPI_Request rq[2];
		MPI_Isend(mine, (int)len, MPI_BYTE, 0, tag, MPI_COMM_WORLD, &rq[0]);
		MPI_Irecv(reply, (int)(8 + outlen), MPI_BYTE, 0, TAG_REPLY, MPI_COMM_WORLD, &rq[1]);
		if (kbmpi_wait(2, rq, kbmpi_after_s(wait_s), &first, 0) < 0) {
			kbmpi_say_dead(0, wait_s);
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

int kbmpi_bcast(void *p, size_t len, uint64_t deadline)
{
	for (size_t at = 0; at < len; at += CHUNK) {
		size_t n = len - at < CHUNK ? len - at : CHUNK;
		MPI_Request rq;
		int first;
		if (MPI_Ibcast((char *)p + at, (int)n, MPI_BYTE, 0, MPI_COMM_WORLD, &rq) != MPI_SUCCESS ||
		    kbmpi_wait(1, &rq, deadline, &first, 0) < 0)
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
	uint64_t lens[4] = { 0, 0, 0, 0 };  /* source, arena, packed ops, directory table bytes */
	if (m.rank == 0) {
		head = *prog;
		lens[0] = strlen(prog->source) + 1;
		lens[1] = prog->arena_len;
		lens[2] = prog->code_bytes;
		lens[3] = (uint64_t)prog->ndirs * sizeof(*prog->dirs);
	}
	uint64_t deadline = kbmpi_after_s(setup_patience());
	if (kbmpi_bcast(&head, sizeof(head), deadline) < 0 || kbmpi_bcast(lens, sizeof(lens), deadline) < 0) {
		kbmpi_say_lost("the loadfile");
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
	deadline = kbmpi_after_s(setup_patience());
	if (!status && (kbmpi_bcast(source, lens[0], deadline) < 0 || kbmpi_bcast(arena, lens[1], deadline) < 0 ||
			(lens[3] && kbmpi_bcast(dirs, lens[3], deadline) < 0) ||
			(lens[2] && kbmpi_bcast(ops, lens[2], deadline) < 0))) {
		kbmpi_say_lost("the loadfile");
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
	uint64_t deadline = kbmpi_after_s(setup_patience());
	if (kbmpi_bcast(&len, sizeof(len), deadline) < 0) {
		kbmpi_say_lost("rank 0's options");
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
	if (!status && kbmpi_bcast(rank0, len, kbmpi_after_s(setup_patience())) < 0) {
		kbmpi_say_lost("rank 0's options");
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

void kbmpi_end(int status)
{
	if (!m.active)
		return;
	fflush(NULL);
	if (!m.broken) {
		int first;
		kbmpi_wait(m.size, m.sreq, kbmpi_after_s(1), &first, 0);
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
				MPI_Irecv(&m.acks[r], sizeof(m.acks[r]), MPI_BYTE, r, TAG_ACK,
					  MPI_COMM_WORLD, &m.req[r]);
		m.req[0] = MPI_REQUEST_NULL;
		kbmpi_wait(m.size, m.req, kbmpi_after_s(KBMPI_DEAD_S), &first, 0);
	} else if (m.dead != 0) {
		MPI_Request rq;
		MPI_Isend(&ack, sizeof(ack), MPI_BYTE, 0, TAG_ACK, MPI_COMM_WORLD, &rq);
		/* rank 0 ends the job; on its own only if rank 0 does not */
		sleep_until(kbmpi_after_s(KBMPI_DEAD_S * 2), NULL);
	}
	MPI_Abort(MPI_COMM_WORLD, status ? status : KB_EXIT_FAIL);
	_exit(status ? status : KB_EXIT_FAIL);
}

int kbmpi_broken(void)
{
	return m.broken;
}
