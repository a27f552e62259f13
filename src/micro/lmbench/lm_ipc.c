/* kbench - micro: lmbench's context switch and local communication tests
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * lat_ctx: N processes in a ring of pipes pass a one-byte token; each sums
 * its own working set of K KiB before passing it on.  The ring's own cost
 * (one process writing the token into a pipe, reading it back and summing
 * its working set: lmbench's overhead measurement; its fastest interval)
 * is taken from the time per hop, which leaves the context switch.
 * Every test here runs in the placement of its row (place.h): micro.c has
 * pinned kbench to the placement's first CPU and the children inherit it;
 * a partner process moves itself to the second CPU of a two-CPU placement
 * (place_partner): the echoing or streaming child, the server, and the
 * odd-numbered members of the lat_ctx ring (so every hop crosses CPUs).
 * The lat_ctx overhead runs in kbench, on the first CPU.
 * lat_pipe, lat_unix, lat_tcp, lat_udp: a round trip of a small message
 * to an echoing child.  lat_connect: a TCP connect to a local server and
 * close.  bw_pipe, bw_unix, bw_tcp: a child writes 64 KiB chunks as fast
 * as it can, the parent reads them; MB/s with MB = 10^6 bytes.
 * Every child is made with micro_fork() and reaped before return.
 */
#include "config.h"
#include "micro/place.h"
#include "micro/lmbench/lmbench.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#define BW_CHUNK (64 * 1024)
#define MAX_RING 16

static void stop_child(pid_t pid)
{
	if (pid > 0) {
		kill(pid, SIGKILL);
		micro_reap(pid);
	}
}

/* ---- lat_ctx ---- */

struct ring {
	const struct micro_opts *o;
	unsigned procs;
	size_t bytes;
	int fd[MAX_RING][2];      /* pipe i: read by process i */
	pid_t pid[MAX_RING];
	char *ws;                 /* process 0's (the parent's) working set */
	volatile uint64_t sink;
};

static char *working_set(size_t bytes)
{
	if (!bytes)
		return NULL;
	char *p = malloc(bytes);
	if (p)
		memset(p, 1, bytes);
	return p;
}

static void ring_member(struct ring *g, unsigned i)
{
	int in = g->fd[i][0], out = g->fd[(i + 1) % g->procs][1];
	if (i % 2)
		place_partner(g->o);
	for (unsigned k = 0; k < g->procs; k++) {
		if (g->fd[k][0] != in)
			close(g->fd[k][0]);
		if (g->fd[k][1] != out)
			close(g->fd[k][1]);
	}
	char *ws = working_set(g->bytes);
	if (g->bytes && !ws)
		_exit(1);
	char tok;
	uint64_t sum = 0;
	while (micro_read_all(in, &tok, 1) == 0) {
		if (ws)
			sum += lm_sum_words(ws, g->bytes);
		if (micro_write_all(out, &tok, 1) < 0)
			break;
	}
	_exit(sum == 1);   /* sum is used, so the summing is not optimised away */
}

static void ring_close(struct ring *g)
{
	for (unsigned k = 0; k < g->procs; k++)
		for (int e = 0; e < 2; e++)
			if (g->fd[k][e] >= 0) {
				close(g->fd[k][e]);
				g->fd[k][e] = -1;
			}
	for (unsigned k = 1; k < g->procs; k++) {
		stop_child(g->pid[k]);
		g->pid[k] = 0;
	}
	free(g->ws);
	g->ws = NULL;
}

/* Make the pipes and fork processes 1..procs-1.  Returns 1, or with
 * r->skipped set 0 (out of processes or descriptors: cannot run here) or
 * -1 (failed). */
static int ring_open(struct ring *g, struct micro_result *r)
{
	for (unsigned k = 0; k < MAX_RING; k++)
		g->fd[k][0] = g->fd[k][1] = -1;
	for (unsigned k = 0; k < g->procs; k++)
		if (pipe(g->fd[k]) < 0)
			return lm_note(r, lm_resource_errno(errno) ? 0 : -1, "cannot make %u pipes: %s",
				       g->procs, strerror(errno));
	if (g->bytes && !(g->ws = working_set(g->bytes)))
		return lm_note(r, -1, "out of memory for a %zu-byte working set", g->bytes);
	for (unsigned k = 1; k < g->procs; k++) {
		pid_t pid = micro_fork();
		if (pid < 0)
			return lm_note(r, lm_resource_errno(errno) ? 0 : -1,
				       "cannot fork %u processes: %s", g->procs, strerror(errno));
		if (pid == 0)
			ring_member(g, k);
		g->pid[k] = pid;
	}
	/* the parent keeps only its own two ends */
	for (unsigned k = 0; k < g->procs; k++) {
		if (k != 0 && g->fd[k][0] >= 0) {
			close(g->fd[k][0]);
			g->fd[k][0] = -1;
		}
		if (k != 1 % g->procs && g->fd[k][1] >= 0) {
			close(g->fd[k][1]);
			g->fd[k][1] = -1;
		}
	}
	return 1;
}

/* One repetition: the token goes once round the ring (procs hops; with
 * one process, the parent's pipe to itself: the overhead). */
static int run_ring(void *ctx, uint64_t n, char *why)
{
	struct ring *g = ctx;
	int out = g->fd[1 % g->procs][1], in = g->fd[0][0];
	char tok = 't';
	uint64_t sum = 0;
	for (uint64_t i = 0; i < n; i++) {
		if (micro_write_all(out, &tok, 1) < 0 || micro_read_all(in, &tok, 1) < 0) {
			snprintf(why, 160, "token lost in the ring of %u: %s", g->procs,
				 strerror(errno));
			return -1;
		}
		if (g->ws)
			sum += lm_sum_words(g->ws, g->bytes);
	}
	g->sink += sum;
	return 0;
}

int lm_ctx(const struct micro_test *t, const struct micro_opts *o, struct micro_result *r)
{
	const struct lm_ctx_arg *a = t->arg;
	struct harness_samples ring_s, over_s;
	char why[160];
	int rc = 0;
	if (a->procs < 2 || a->procs > MAX_RING)
		return lm_note(r, -1, "ring of %u processes: 2 to %d supported", a->procs, MAX_RING);

	struct ring *g = calloc(1, sizeof(*g));
	if (!g)
		return lm_note(r, -1, "out of memory");
	g->o = o;
	g->bytes = a->kbytes * 1024;
	g->procs = 1;
	struct harness_bench b = { .run = run_ring, .ctx = g, .unit = HARNESS_US,
				   .ops_per_iter = 1 };
	if ((rc = ring_open(g, r)) != 1)
		goto out;
	if (harness_measure(o, &b, &over_s, why) < 0) {
		rc = lm_note(r, -1, "overhead: %s", why);
		goto out;
	}
	ring_close(g);
	g->procs = a->procs;
	b.ops_per_iter = a->procs;
	if ((rc = ring_open(g, r)) != 1)
		goto out;
	rc = 0;
	if (harness_measure(o, &b, &ring_s, why) < 0) {
		rc = lm_note(r, -1, "%s", why);
		goto out;
	}
	/* the ring's own cost is fixed work; preemption only adds to it, so
	 * its smallest interval is the best estimate (and a busy machine does
	 * not make it swallow the switch) */
	double over = over_s.v[0];
	for (unsigned i = 1; i < over_s.n; i++)
		if (over_s.v[i] < over)
			over = over_s.v[i];
	for (unsigned i = 0; i < ring_s.n; i++) {
		ring_s.v[i] -= over;
		if (!(ring_s.v[i] > 0)) {
			rc = lm_note(r, -1, "the ring's own cost (%.3f us per hop) is not smaller "
				     "than a hop (%.3f us); no figure", over, ring_s.v[i] + over);
			goto out;
		}
	}
	if (harness_summarize(ring_s.v, ring_s.n, r) < 0)
		rc = lm_note(r, -1, "no samples");
out:
	ring_close(g);
	free(g);
	return rc;
}

/* ---- round trips and streams ---- */

struct link {
	int fd;                  /* the parent's end (writes; reads too unless rfd) */
	int rfd;                 /* the parent's read end when apart (pipes), or -1 */
	pid_t child;
	size_t msg;              /* round-trip message size, bytes */
	char buf[BW_CHUNK];
};

static void echo_loop(int in, int out, size_t msg)
{
	char buf[64];
	while (micro_read_all(in, buf, msg) == 0)
		if (micro_write_all(out, buf, msg) < 0)
			break;
	_exit(0);
}

static void udp_echo_loop(int s, size_t msg)
{
	char buf[64];
	struct sockaddr_in from;
	for (;;) {
		socklen_t fl = sizeof(from);
		ssize_t g = recvfrom(s, buf, msg, 0, (struct sockaddr *)&from, &fl);
		if (g <= 0 || sendto(s, buf, (size_t)g, 0, (struct sockaddr *)&from, fl) < 0)
			_exit(0);
	}
}

static void stream_loop(int out)
{
	static char chunk[BW_CHUNK];
	memset(chunk, 'b', sizeof(chunk));
	while (micro_write_all(out, chunk, sizeof(chunk)) == 0)
		;
	_exit(0);
}

static void nodelay(int fd)
{
	int one = 1;
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
}

/* A listening socket on 127.0.0.1 (TCP with a backlog of backlog, or UDP
 * bound), port in *sa. */
static int loopback_socket(int type, struct sockaddr_in *sa, int backlog)
{
	socklen_t len = sizeof(*sa);
	memset(sa, 0, sizeof(*sa));
	sa->sin_family = AF_INET;
	sa->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	int s = socket(AF_INET, type | SOCK_CLOEXEC, 0);
	if (s < 0)
		return -1;
	if (bind(s, (struct sockaddr *)sa, sizeof(*sa)) < 0 ||
	    (type == SOCK_STREAM && listen(s, backlog) < 0) ||
	    getsockname(s, (struct sockaddr *)sa, &len) < 0) {
		int e = errno;
		close(s);
		errno = e;
		return -1;
	}
	return s;
}

/* Connect the parent to a child that echoes (stream = 0) or streams
 * (stream = 1) over transport tr.  Returns 1, or with r->skipped set 0
 * (cannot run here) or -1 (failed). */
static int link_open(struct link *l, int tr, int stream, const struct micro_opts *o,
		     struct micro_result *r)
{
	int fds[2] = { -1, -1 }, back[2] = { -1, -1 }, ls = -1, rc;
	struct sockaddr_in sa;
	l->fd = l->rfd = -1;
	l->child = 0;
	switch (tr) {
	case LM_PIPE:
		if (pipe(fds) < 0 || (!stream && pipe(back) < 0))
			goto resource;
		break;
	case LM_UNIX:
		if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) < 0)
			goto resource;
		break;
	case LM_TCP:
	case LM_UDP:
		if ((ls = loopback_socket(tr == LM_TCP ? SOCK_STREAM : SOCK_DGRAM, &sa, 128)) < 0) {
			rc = lm_note(r, 0, "no %s on 127.0.0.1: %s", tr == LM_TCP ? "TCP" : "UDP",
				     strerror(errno));
			goto fail;
		}
		break;
	}
	pid_t pid = micro_fork();
	if (pid < 0)
		goto resource;
	if (pid == 0) {
		place_partner(o);
		if (tr == LM_PIPE && stream)
			stream_loop(fds[1]);
		if (tr == LM_PIPE)
			echo_loop(fds[0], back[1], l->msg);
		if (tr == LM_UNIX)
			stream ? stream_loop(fds[1]) : echo_loop(fds[1], fds[1], l->msg);
		if (tr == LM_UDP)
			udp_echo_loop(ls, l->msg);
		int c = accept(ls, NULL, NULL);
		if (c < 0)
			_exit(1);
		nodelay(c);
		stream ? stream_loop(c) : echo_loop(c, c, l->msg);
	}
	l->child = pid;
	switch (tr) {
	case LM_PIPE:
		if (stream) {
			l->fd = fds[0];
			close(fds[1]);
		} else {
			close(fds[0]);
			close(back[1]);
			l->fd = fds[1];
			l->rfd = back[0];
		}
		return 1;
	case LM_UNIX:
		close(fds[1]);
		l->fd = fds[0];
		return 1;
	default:
		l->fd = socket(AF_INET, (tr == LM_TCP ? SOCK_STREAM : SOCK_DGRAM) | SOCK_CLOEXEC, 0);
		if (l->fd < 0 || connect(l->fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
			rc = lm_note(r, lm_resource_errno(errno) ? 0 : -1,
				     "cannot connect to 127.0.0.1: %s", strerror(errno));
			close(ls);
			return rc;
		}
		if (tr == LM_TCP)
			nodelay(l->fd);
		else {
			/* a lost datagram fails the test instead of hanging it */
			struct timeval tv = { 5, 0 };
			setsockopt(l->fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
		}
		close(ls);
		return 1;
	}
resource:
	rc = lm_note(r, lm_resource_errno(errno) ? 0 : -1, "cannot set up the %s: %s",
		tr == LM_PIPE ? "pipes" : "sockets", strerror(errno));
fail:
	for (int e = 0; e < 2; e++) {
		if (fds[e] >= 0)
			close(fds[e]);
		if (back[e] >= 0)
			close(back[e]);
	}
	if (ls >= 0)
		close(ls);
	return rc;
}

static void link_close(struct link *l)
{
	if (l->rfd >= 0)
		close(l->rfd);
	l->rfd = -1;
	if (l->fd >= 0)
		close(l->fd);
	l->fd = -1;
	stop_child(l->child);
	l->child = 0;
}

static int run_roundtrip(void *ctx, uint64_t n, char *why)
{
	struct link *l = ctx;
	size_t m = l->msg;
	int rfd = l->rfd >= 0 ? l->rfd : l->fd;
	for (uint64_t i = 0; i < n; i++)
		if (micro_write_all(l->fd, l->buf, m) < 0 || micro_read_all(rfd, l->buf, m) < 0) {
			snprintf(why, 160, "round trip: %s", strerror(errno));
			return -1;
		}
	return 0;
}

static int run_stream(void *ctx, uint64_t n, char *why)
{
	struct link *l = ctx;
	for (uint64_t i = 0; i < n; i++)
		if (micro_read_all(l->fd, l->buf, BW_CHUNK) < 0) {
			snprintf(why, 160, "read of the stream: %s", strerror(errno));
			return -1;
		}
	return 0;
}

static int link_test(const struct micro_test *t, const struct micro_opts *o,
		     struct micro_result *r, int stream)
{
	int tr = *(const int *)t->arg;
	struct link *l = calloc(1, sizeof(*l));
	if (!l)
		return lm_note(r, -1, "out of memory");
	/* lmbench: 1-byte messages, UDP one int (4 bytes) */
	l->msg = tr == LM_UDP ? 4 : 1;
	int rc = link_open(l, tr, stream, o, r);
	if (rc == 1) {
		struct harness_bench b = { .run = stream ? run_stream : run_roundtrip, .ctx = l,
					   .unit = stream ? HARNESS_MBPS : HARNESS_US,
					   .ops_per_iter = 1, .bytes_per_iter = BW_CHUNK };
		rc = harness_run(o, &b, r);
	}
	link_close(l);
	free(l);
	return rc;
}

int lm_lat_ipc(const struct micro_test *t, const struct micro_opts *o, struct micro_result *r)
{
	return link_test(t, o, r, 0);
}

int lm_bw_ipc(const struct micro_test *t, const struct micro_opts *o, struct micro_result *r)
{
	return link_test(t, o, r, 1);
}

/* ---- lat_connect ---- */

struct connect_ctx {
	struct sockaddr_in sa;
	int ls;                  /* the listening socket (the child accepts on it) */
};

static int run_connect(void *ctx, uint64_t n, char *why)
{
	const struct sockaddr_in *sa = &((struct connect_ctx *)ctx)->sa;
	for (uint64_t i = 0; i < n; i++) {
		int s = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
		if (s < 0 || connect(s, (const struct sockaddr *)sa, sizeof(*sa)) < 0) {
			snprintf(why, 160, "connect to 127.0.0.1:%u: %s", ntohs(sa->sin_port),
				 strerror(errno));
			if (s >= 0)
				close(s);
			return -1;
		}
		close(s);
	}
	return 0;
}

/* After an interval, untimed: wait until the child has accepted every
 * connection (the listener's accept queue, TCP_INFO's tcpi_unacked, is
 * empty), so the next interval starts with the whole backlog free.  A
 * full queue drops SYNs, and the retransmission a second later would be
 * timed as a connect. */
static int drain_accepts(void *ctx, uint64_t n, char *why)
{
	(void)n;
	struct connect_ctx *c = ctx;
	for (int i = 0; i < 50000; i++) {      /* 5 s at most */
		struct tcp_info ti;
		socklen_t len = sizeof(ti);
		if (getsockopt(c->ls, IPPROTO_TCP, TCP_INFO, &ti, &len) < 0)
			return 0;            /* cannot tell: as lmbench, do not wait */
		if (ti.tcpi_unacked == 0)
			return 0;
		usleep(100);
	}
	snprintf(why, 160, "the server on 127.0.0.1:%u did not accept its connections within 5 s",
		 ntohs(c->sa.sin_port));
	return -1;
}

/* The connects one interval may make: 1000 (each leaves a port in
 * TIME_WAIT: well inside the ephemeral range), and no more than half the
 * accept queue the kernel allows (net.core.somaxconn). */
static uint64_t connect_cap(void)
{
	FILE *f = fopen("/proc/sys/net/core/somaxconn", "re");
	long max = 128;
	if (f) {
		if (fscanf(f, "%ld", &max) != 1)
			max = 128;
		fclose(f);
	}
	uint64_t cap = max / 2 > 0 ? (uint64_t)(max / 2) : 1;
	return cap < 1000 ? cap : 1000;
}

int lm_lat_connect(const struct micro_test *t, const struct micro_opts *o,
		   struct micro_result *r)
{
	(void)t;
	struct connect_ctx c;
	uint64_t cap = connect_cap();
	int ls = loopback_socket(SOCK_STREAM, &c.sa, (int)(2 * cap));
	if (ls < 0)
		return lm_note(r, 0, "no TCP on 127.0.0.1: %s", strerror(errno));
	c.ls = ls;
	/* one connect first: no loopback (a new network namespace) is a
	 * skip, as in the other TCP tests; the child accepts it later */
	int probe = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (probe < 0 || connect(probe, (const struct sockaddr *)&c.sa, sizeof(c.sa)) < 0) {
		int e = errno;
		if (probe >= 0)
			close(probe);
		close(ls);
		return lm_note(r, lm_resource_errno(e) ? 0 : -1, "cannot connect to 127.0.0.1: %s",
			       strerror(e));
	}
	close(probe);
	pid_t pid = micro_fork();
	if (pid < 0) {
		close(ls);
		return lm_note(r, 0, "cannot fork: %s", strerror(errno));
	}
	if (pid == 0) {
		place_partner(o);
		for (;;) {
			int a = accept(ls, NULL, NULL);
			if (a < 0 && errno != EINTR && errno != ECONNABORTED)
				_exit(1);
			if (a >= 0)
				close(a);
		}
	}
	struct harness_bench b = { .run = run_connect, .after = drain_accepts, .ctx = &c,
				   .unit = HARNESS_US, .ops_per_iter = 1, .max_iters = cap };
	int rc = harness_run(o, &b, r);
	stop_child(pid);
	close(ls);
	return rc;
}
