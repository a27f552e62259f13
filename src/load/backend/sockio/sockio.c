/* kbench - the tbench network load: -B sockio --server HOST[:PORT]
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * tbench's half of NetBench: no file system, only the packets an SMB
 * client and server would exchange, over one TCP connection per client,
 * to a server that reads each request and answers it with a reply of the
 * asked size (kbench server, or dbench's tbench_srv).  Each op is one
 * request and one reply (Deltree none, as in tbench); the sizes per
 * opcode are those of dbench's sockio.c, and a name's length is the one
 * tbench puts in its packet: -D (default ".") followed by the loadfile's
 * path with "client1" made the client's own "clientK" (K from 0).  The
 * connection opens with tbench's 8-byte exchange.
 *
 * Waiting is bounded: the socket has SO_RCVTIMEO and SO_SNDTIMEO slices,
 * so no recv or send blocks longer than one slice, and after each one
 * (whether it moved some bytes, none, or was interrupted) the clock is
 * read: a read or write gives up once the run's end (or a stop, which
 * moves the end earlier) is GRACE_NS behind, however slowly a server
 * trickles its bytes; it never runs past that by more than one slice.  A lost connection, a stall
 * past the end or a reply of another size (tbench's "lost sync") leaves
 * the client dead: the op's error counts against its line and the client
 * stops, naming the server once.
 *
 * MB/sec counts ReadX's ret_size and WriteX's size, as tbench does.  A
 * line that expects a failure gets BE_ASTRACED: the server answers every
 * request alike, so it "failed as traced" by construction.
 */
#include "config.h"
#include "cli.h"
#include "load/backend/backend.h"
#include "load/backend/tbproto.h"
#include "sys/clock.h"

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#define GRACE_NS 2000000000ull     /* a reply may come this long after the end */
#define SLICE_MS 100               /* SO_RCVTIMEO/SO_SNDTIMEO: how often a wait looks at the time */
#define OPEN_MS 10000              /* a client's connect and first exchange, at most */
#define PROBE_MS 5000              /* prepare()'s check of the server, at most */

/* -B sockio's own options (backend.h), as given. */
struct sockio_opts {
	char *server;        /* --server HOST[:PORT] */
	char *tcp_options;   /* -T/--tcp-options WORDS */
};

#define SO(o) ((const struct sockio_opts *)(o)->own)

static void sio_options(void *mine, struct poptOption *rows)
{
	struct sockio_opts *so = mine;
	const struct poptOption r[] = {
		{ "server", 0, POPT_ARG_STRING, &so->server, 0,
		  "-B sockio: the tbench server (port 7003 unless given)", "HOST[:PORT]" },
		{ "tcp-options", 'T', POPT_ARG_STRING, &so->tcp_options, 0,
		  "-B sockio: socket options (default: TCP_NODELAY SO_REUSEADDR)", "OPTIONS" },
		POPT_TABLEEND
	};
	BACKEND_OPTS_COPY(rows, r);
}

struct sockio_target {
	struct sockaddr_storage addr;
	socklen_t addrlen;
	int family;
	struct tb_opts opts;
	unsigned dirlen;           /* strlen(-D), 1 for tbench's "." */
	char name[300];            /* HOST:PORT as given (describe) */
};

struct sio {
	int fd;
	uint64_t fixed_deadline;   /* while opening: its own deadline (ns), else 0 */
	unsigned clen;             /* strlen("/clients/clientK") */
	int said;                  /* the loss of the connection was reported */
	int eof;                   /* the server closed the connection */
	const struct sockio_target *t;
	unsigned char hdr[4];
	unsigned char buf[TB_MAX_MSG];  /* requests: zeros after the two words */
};

static void set_timeo(int fd, int ms)
{
	struct timeval tv = { ms / 1000, (ms % 1000) * 1000 };
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
}

/* the time past which this client waits no longer */
static int past_deadline(const struct backend_ctx *c, const struct sio *s)
{
	uint64_t now = kb_now_ns();
	if (s->fixed_deadline)
		return now >= s->fixed_deadline;
	uint64_t end = *c->end_ns;
	return end != UINT64_MAX && now >= end + GRACE_NS;
}

static int send_all(const struct backend_ctx *c, struct sio *s, const unsigned char *p, size_t n)
{
	while (n) {
		ssize_t r = send(s->fd, p, n, MSG_NOSIGNAL);
		if (r > 0) {
			p += r;
			n -= (size_t)r;
		} else if (r == 0 || (errno != EINTR && errno != EAGAIN && errno != EWOULDBLOCK)) {
			return r < 0 ? errno : EPIPE;
		}
		/* a part sent, a slice waited or a signal: the clock decides */
		if (n && past_deadline(c, s))
			return ETIMEDOUT;
	}
	return 0;
}

/* n bytes into p, or discarded unread (MSG_TRUNC, as tbench) when p is NULL */
static int recv_all(const struct backend_ctx *c, struct sio *s, unsigned char *p, size_t n)
{
	while (n) {
		ssize_t r = p ? recv(s->fd, p, n, MSG_WAITALL)
			      : recv(s->fd, s->buf, n, MSG_WAITALL | MSG_TRUNC);
		if (r > 0) {
			if (p)
				p += r;
			n -= (size_t)r;
		} else if (r == 0) {
			s->eof = 1;
			return ECONNRESET;
		} else if (errno != EINTR && errno != EAGAIN && errno != EWOULDBLOCK) {
			return errno;
		}
		/* a server that trickles its reply returns some bytes every
		 * slice and never a timeout: the clock decides, after every
		 * part as after every slice waited in vain */
		if (n && past_deadline(c, s))
			return ETIMEDOUT;
	}
	return 0;
}

static const char *why(int e, int eof)
{
	if (eof)
		return "the server closed the connection";
	if (e == ETIMEDOUT)
		return "no reply by the run's end (the server stalled)";
	if (e == BE_ELOSTSYNC)
		return "a reply of another size than asked for (lost sync)";
	return backend_strerror(e);
}

/* One request of send_size bytes and its reply of recv_size bytes, both
 * counting the length word (dbench's do_packets). */
static int exchange(struct backend_ctx *c, const struct op *op, unsigned send_size, unsigned recv_size)
{
	struct sio *s = c->priv;
	if (send_size > TB_MAX_MSG || recv_size > TB_MAX_MSG)
		return EMSGSIZE;  /* more than a tbench server takes: not sent */
	tb_put32(s->buf, send_size - 4);
	tb_put32(s->buf + 4, recv_size - 4);
	int e = send_all(c, s, s->buf, send_size);
	if (!e)
		e = recv_all(c, s, s->hdr, 4);
	if (!e && tb_get32(s->hdr) != recv_size - 4)
		e = BE_ELOSTSYNC;
	if (!e)
		e = recv_all(c, s, NULL, recv_size - 4);
	if (!e)
		return 0;
	c->dead = 1;
	if (!s->said) {
		s->said = 1;
		/* one call, so one write: the clients' lines do not interleave */
		char where[64] = "";
		if (op)
			snprintf(where, sizeof(where), " (loadfile line %u, %s)", op->line,
				 op_file_name(op->code));
		fprintf(stderr, "kbench load: client %u: server %s: %s%s\n", c->id, s->t->name,
			why(e, s->eof), where);
	}
	return e;
}

/* The length of the name tbench sends for the path at arena offset off. */
static unsigned name_len(const struct backend_ctx *c, const struct op *op, uint32_t off, int shared)
{
	const struct sio *s = c->priv;
	const char *p = prog_path(c->prog, off);
	size_t n = (p[0] == '.' && !p[1]) ? 0 : 1 + strlen(p);
	if (op->flags & OPF_WILDCARD)
		for (const char *q = p; *q; q++)
			n -= *q == '\\';  /* kbench's escapes of '[' and ']' */
	return s->t->dirlen + (shared ? 0 : s->clen) + (unsigned)n;
}

static unsigned len1(const struct backend_ctx *c, const struct op *op)
{
	return name_len(c, op, op->path1, op->flags & OPF_SHARED1);
}

/* the op's outcome: a line that expects a failure got it, as traced */
static int outcome(const struct op *op, int e)
{
	return !e && op->expect == EXPECT_FAIL ? BE_ASTRACED : e;
}

#define SIMPLE(fn, sendsz, recvsz) \
	static int fn(struct backend_ctx *c, const struct op *op, uint64_t *bytes) \
	{ \
		*bytes = 0; \
		return outcome(op, exchange(c, op, (sendsz), (recvsz))); \
	}

SIMPLE(sio_ntcreatex, 70 + 2 + 2 * len1(c, op) + 2, 39 + 12 * 4)
SIMPLE(sio_close, 39 + 8, 39)
SIMPLE(sio_rename, 39 + 8 + 2 * len1(c, op) + 2 * name_len(c, op, op->path2, op->flags & OPF_SHARED2), 39)
SIMPLE(sio_unlink, 39 + 2 + 2 * len1(c, op) + 2, 39)
SIMPLE(sio_rmdir, 39 + 2 + 2 * len1(c, op) + 2, 39)
SIMPLE(sio_mkdir, 39 + 2 + 2 * len1(c, op) + 2, 39)
SIMPLE(sio_qpathinfo, 39 + 16 + 2 * len1(c, op), 39 + 32)
SIMPLE(sio_qfileinfo, 39 + 20, 39 + 32)
SIMPLE(sio_qfsinfo, 39 + 20, 39 + 32)
SIMPLE(sio_sfileinfo, 39 + 32, 39 + 8)
SIMPLE(sio_find_first, 39 + 20 + 2 * len1(c, op), 39 + 90 * op->ret)
SIMPLE(sio_lockx, 39 + 12, 39)
SIMPLE(sio_unlockx, 39 + 12, 39)
SIMPLE(sio_flush, 39 + 2, 39)

static int sio_writex(struct backend_ctx *c, const struct op *op, uint64_t *bytes)
{
	int e = exchange(c, op, 39 + 20 + op->len, 39 + 16);
	*bytes = e ? 0 : op->len;
	return outcome(op, e);
}

static int sio_readx(struct backend_ctx *c, const struct op *op, uint64_t *bytes)
{
	int e = exchange(c, op, 39 + 20, 39 + 20 + op->ret);
	*bytes = e ? 0 : op->ret;
	return outcome(op, e);
}

static int sio_deltree(struct backend_ctx *c, const struct op *op, uint64_t *bytes)
{
	(void)c;
	*bytes = 0;
	return outcome(op, 0);  /* tbench sends nothing for it */
}

/* A connected socket with -T's options, or -1 with errno (*failed names
 * an option that could not be set).  Waits at most ms for the connect. */
static int connect_to(const struct sockio_target *t, int ms, const char **failed)
{
	int fd = socket(t->family, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -1;
	*failed = NULL;
	if (tb_opts_apply(fd, t->family, &t->opts, failed) < 0)
		goto fail;
	int fl = fcntl(fd, F_GETFL);
	fcntl(fd, F_SETFL, fl | O_NONBLOCK);
	if (connect(fd, (const struct sockaddr *)&t->addr, t->addrlen) < 0) {
		if (errno != EINPROGRESS)
			goto fail;
		struct pollfd pf = { fd, POLLOUT, 0 };
		int r;
		do
			r = poll(&pf, 1, ms);
		while (r < 0 && errno == EINTR);
		if (r == 0) {
			errno = ETIMEDOUT;
			goto fail;
		}
		int err = 0;
		socklen_t len = sizeof(err);
		if (r < 0 || getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len) < 0)
			goto fail;
		if (err) {
			errno = err;
			goto fail;
		}
	}
	fcntl(fd, F_SETFL, fl);
	return fd;
fail:;
	int e = errno;
	close(fd);
	errno = e;
	return -1;
}

static int sio_client_open(struct backend_ctx *c)
{
	const struct sockio_target *t = c->opts->target;
	struct sio *s = calloc(1, sizeof(*s));
	if (!s)
		return ENOMEM;
	c->priv = s;
	s->t = t;
	s->said = 1;  /* the client loop reports a failure to set up */
	char name[32];
	s->clen = 9 + (unsigned)snprintf(name, sizeof(name), "client%u", c->id);
	const char *failed;
	s->fd = connect_to(t, OPEN_MS, &failed);
	if (s->fd < 0)
		return errno;
	set_timeo(s->fd, SLICE_MS);
	s->fixed_deadline = kb_now_ns() + OPEN_MS * 1000000ull;
	int e = exchange(c, NULL, 8, 8);  /* tbench's opening exchange */
	s->fixed_deadline = 0;
	s->said = 0;
	c->dead = 0;
	return e;
}

static void sio_close_all(struct backend_ctx *c)
{
	(void)c;  /* handles are the server's business: nothing is open here */
}

static void sio_client_close(struct backend_ctx *c)
{
	struct sio *s = c->priv;
	if (!s)
		return;
	if (s->fd >= 0)
		close(s->fd);
	free(s);
	c->priv = NULL;
}

/* Connect to t and make tbench's opening exchange, each within PROBE_MS.
 * Returns 0, or an errno (BE_ELOSTSYNC for a wrong reply); *stage says
 * which step failed. */
static int probe(const struct sockio_target *t, const char **stage, const char **failed)
{
	*stage = "cannot connect to";
	int fd = connect_to(t, PROBE_MS, failed);
	if (fd < 0)
		return errno;
	*stage = "no tbench reply from";
	set_timeo(fd, PROBE_MS);
	unsigned char req[8], rep[8];
	tb_put32(req, 4);
	tb_put32(req + 4, 4);
	int e = 0;
	if (send(fd, req, sizeof(req), MSG_NOSIGNAL) != (ssize_t)sizeof(req))
		e = errno ? errno : EPIPE;
	else {
		ssize_t r = recv(fd, rep, sizeof(rep), MSG_WAITALL);
		if (r < 0)
			e = errno == EAGAIN ? ETIMEDOUT : errno;
		else if (r == 0)
			e = ECONNRESET;
		else if (r != (ssize_t)sizeof(rep) || tb_get32(rep) != 4)
			e = BE_ELOSTSYNC;
	}
	close(fd);
	return e;
}

/* A process may interleave many clients (--clients-per-process), each
 * with its socket: room for all of them, as far as the hard limit goes. */
static void raise_nofile(unsigned nclients)
{
	struct rlimit rl;
	rlim_t need = (rlim_t)nclients + 64;
	if (getrlimit(RLIMIT_NOFILE, &rl) < 0 || rl.rlim_cur >= need)
		return;
	rl.rlim_cur = rl.rlim_max == RLIM_INFINITY || rl.rlim_max > need ? need : rl.rlim_max;
	setrlimit(RLIMIT_NOFILE, &rl);
}

/* --server HOST[:PORT] into host and port.  Returns 0, or -1 with the
 * reason in err. */
static int split_server(const struct backend_opts *o, char *host, size_t hostlen, char *port,
			size_t portlen, char *err, size_t errlen)
{
	return tb_split_hostport(SO(o)->server, TB_PORT, host, hostlen, port, portlen, err, errlen);
}

static int sio_check(const struct backend_opts *o, const char *cmd)
{
	char host[256], port[8], err[300];
	struct tb_opts words;
	if (!SO(o)->server) {
		fprintf(stderr, "%s: -B sockio needs --server HOST[:PORT] (a tbench server: "
			"kbench server, or tbench_srv on port 7003)\n", cmd);
		return KB_EXIT_USAGE;
	}
	if (o->sync_open || o->sync_dirs || o->fsync_write || o->xattr) {
		fprintf(stderr, "%s: %s has no meaning with -B sockio, which makes no file system "
			"call (tbench ignores it)\n", cmd, o->sync_open ? "-s" : o->sync_dirs ? "-S" :
			o->fsync_write ? "-F" : "-x");
		return KB_EXIT_USAGE;
	}
	if (split_server(o, host, sizeof(host), port, sizeof(port), err, sizeof(err)) < 0) {
		fprintf(stderr, "%s: --server %s\n", cmd, err);
		return KB_EXIT_USAGE;
	}
	if (tb_opts_parse(SO(o)->tcp_options ? SO(o)->tcp_options : TB_DEFAULT_OPTIONS, &words, err,
			  sizeof(err)) < 0) {
		fprintf(stderr, "%s: -T: %s\n", cmd, err);
		return KB_EXIT_USAGE;
	}
	return 0;
}

static int sio_endpoint(const struct backend_opts *o, char *host, size_t hostlen, char *port,
			size_t portlen)
{
	char err[300];
	return split_server(o, host, hostlen, port, portlen, err, sizeof(err));
}

static int sio_prepare(struct backend_opts *o, unsigned nclients, const char *cmd)
{
	char host[256], port[8], err[300];
	int status = sio_check(o, cmd);
	if (status)
		return status;
	struct sockio_target *t = calloc(1, sizeof(*t));
	if (!t) {
		fprintf(stderr, "%s: out of memory\n", cmd);
		return KB_EXIT_USAGE;
	}
	/* sio_check found both good */
	split_server(o, host, sizeof(host), port, sizeof(port), err, sizeof(err));
	tb_opts_parse(SO(o)->tcp_options ? SO(o)->tcp_options : TB_DEFAULT_OPTIONS, &t->opts, err,
		      sizeof(err));
	snprintf(t->name, sizeof(t->name), strchr(host, ':') ? "[%s]:%s" : "%s:%s", host, port);
	t->dirlen = o->directory ? (unsigned)strlen(o->directory) : 1;

	struct addrinfo hints = { .ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM,
				  .ai_flags = AI_NUMERICSERV }, *res, *ai;
	int g = getaddrinfo(host, port, &hints, &res);
	if (g) {
		fprintf(stderr, "%s: --server %s: cannot resolve '%s': %s\n", cmd, SO(o)->server, host,
			g == EAI_SYSTEM ? strerror(errno) : gai_strerror(g));
		goto bad;
	}
	int e = 0;
	const char *stage = "", *failed = NULL;
	char where[64] = "";
	for (ai = res; ai; ai = ai->ai_next) {
		if (ai->ai_addrlen > sizeof(t->addr))
			continue;
		memcpy(&t->addr, ai->ai_addr, ai->ai_addrlen);
		t->addrlen = ai->ai_addrlen;
		t->family = ai->ai_family;
		tb_addr_str(ai->ai_addr, ai->ai_addrlen, where, sizeof(where));
		e = probe(t, &stage, &failed);
		if (!e || failed)
			break;
	}
	freeaddrinfo(res);
	if (failed) {
		fprintf(stderr, "%s: -T: cannot set %s on a socket to %s: %s\n", cmd, failed, where,
			strerror(e));
		goto bad;
	}
	if (e) {
		fprintf(stderr, "%s: --server %s: %s %s: %s\n", cmd, SO(o)->server, stage, where,
			e == ECONNRESET ? "the connection was closed" : backend_strerror(e));
		goto bad;
	}
	o->target = t;
	raise_nofile(nclients);
	return 0;
bad:
	free(t);
	return KB_EXIT_USAGE;
}

static void sio_release(struct backend_opts *o)
{
	free(o->target);
	o->target = NULL;
}

static const char *sio_describe(const struct backend_opts *o)
{
	const struct sockio_target *t = o->target;
	return t ? t->name : SO(o)->server;
}

const struct backend sockio_backend = {
	.name = "sockio",
	.help = "tbench's network load: a request and reply per op to --server (no files)",
	.flags = 0,
	.opts_size = sizeof(struct sockio_opts),
	.options = sio_options,
	.opts_heading = "-B sockio's options:",
	.check = sio_check,
	.endpoint = sio_endpoint,
	.prepare = sio_prepare,
	.client_open = sio_client_open,
	.close_all = sio_close_all,
	.client_close = sio_client_close,
	.release = sio_release,
	.describe = sio_describe,
	.op = {
		[OP_NTCREATEX] = sio_ntcreatex,
		[OP_CLOSE] = sio_close,
		[OP_RENAME] = sio_rename,
		[OP_UNLINK] = sio_unlink,
		[OP_DELTREE] = sio_deltree,
		[OP_RMDIR] = sio_rmdir,
		[OP_MKDIR] = sio_mkdir,
		[OP_QPATHINFO] = sio_qpathinfo,
		[OP_QFILEINFO] = sio_qfileinfo,
		[OP_QFSINFO] = sio_qfsinfo,
		[OP_SFILEINFO] = sio_sfileinfo,
		[OP_FIND_FIRST] = sio_find_first,
		[OP_WRITEX] = sio_writex,
		[OP_READX] = sio_readx,
		[OP_LOCKX] = sio_lockx,
		[OP_UNLOCKX] = sio_unlockx,
		[OP_FLUSH] = sio_flush,
	},
};
