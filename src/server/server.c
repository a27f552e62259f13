/* kbench - kbench server: a tbench server, one process per connection
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * usage: kbench server [--port PORT] [--address ADDR] [--idle-timeout SECONDS]
 *                      [--header-timeout SECONDS] [--max-connections N] [-T OPTIONS]
 *
 * The other end of kbench load -B sockio and of dbench's tbench: per
 * connection, read a request (its first word: the bytes after it; its
 * second: the bytes the reply carries after its own first word), then
 * send the reply, whose first word is its length (load/backend/tbproto.h).  Each
 * connection gets its own process, as smbd and tbench_srv give each
 * client: the scheduler's work is part of what tbench measures.
 *
 * The listening process only accepts, forks and reaps; signals reach it
 * through a signalfd, so none is lost between two system calls.  A
 * request or reply of more than TB_MAX_MSG bytes (tbench_srv's buffer)
 * closes that connection alone with one line on stderr.  A client that
 * sends half a request and stalls holds only its own process, and not
 * for long: a request's 8-byte header must be whole --header-timeout (5 s)
 * after its first byte, as web servers bound a header apart from the
 * keep-alive time; no byte may come more than --idle-timeout (1 h: load
 * -R's slow clients) after the last (SO_RCVTIMEO, SO_SNDTIMEO).  Either
 * closes the connection with one line.  At most --max-connections are
 * served at once: one more is accepted and closed, with one line.  A stop signal (cli.h:
 * SIGINT, SIGTERM, SIGHUP, SIGUSR1, ...; not one ignored at the start)
 * stops every connection's process; the server then prints what it
 * served and exits 0.
 *
 * The first line on standard output says where it listens, port 0 giving
 * a free port ("kbench server: listening on 127.0.0.1:40123 (this address
 * only; ...)"), every address by default ("[::]:7003 (every IPv6 and IPv4
 * address; ...)").
 */
#include "config.h"
#include "cli.h"
#include "commands.h"
#include "load/load.h"
#include "sys/clock.h"

#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define CMD "kbench server"
#define BACKLOG 4096        /* 1,000 clients connecting at once queue here */
#define STOP_WAIT_NS 3000000000ull  /* SIGTERM, then SIGKILL after this */
#define IDLE_DEFAULT_S 3600.0  /* --idle-timeout's default: an hour between
			       * requests (load -R's slowest clients) */
#define HEADER_DEFAULT_S 5.0  /* --header-timeout's default */
#define IDLE_MAX_S 86400.0  /* ... and its largest value, a day */
#define MAX_CONNS_DEFAULT 1024u      /* --max-connections' default */
#define MAX_CONNS_LIMIT 1000000u     /* ... and its largest value */

/* what the connections' processes served, added up as each ends */
struct totals {
	uint64_t requests, bytes_in, bytes_out;
};

struct server {
	int lfd, sfd;
	struct tb_opts opts;
	int family;
	int hup;               /* SIGHUP stops the server (it was not ignored) */
	int any;               /* listening on every address (no --address) */
	double idle_s;         /* --idle-timeout: seconds, 0 for no bound */
	double header_s;       /* --header-timeout: seconds, 0 for no bound */
	size_t max_conns;      /* --max-connections */
	pid_t *pids;           /* live connections' processes */
	size_t npids, cap;
	uint64_t conns, refused;
	struct totals *tot;    /* MAP_SHARED */
};

static volatile sig_atomic_t child_stop;

static void on_child_stop(int sig)
{
	(void)sig;
	child_stop = 1;
}

struct server_args {
	char *port, *addr, *tcp, *idle, *header, *max;
};

static int parse_options(int argc, const char **argv, struct server_args *a)
{
	char **port = &a->port, **addr = &a->addr, **tcp = &a->tcp;
	struct poptOption options[] = {
		{ "port", 'p', POPT_ARG_STRING, port, 0,
		  "TCP port to listen on (default 7003, tbench's; 0: a free one, printed)", "PORT" },
		{ "address", 'a', POPT_ARG_STRING, addr, 0,
		  "address to listen on (default: every IPv6 and IPv4 address)", "ADDR" },
		{ "idle-timeout", 0, POPT_ARG_STRING, &a->idle, 0,
		  "close a connection that sends (or takes) no byte for this long "
		  "(default 1 h; 0: never)", "SECONDS" },
		{ "header-timeout", 0, POPT_ARG_STRING, &a->header, 0,
		  "close a connection whose request header (8 bytes) is not whole this long "
		  "after its first byte (default 5 s; 0: only the idle bound)", "SECONDS" },
		{ "max-connections", 0, POPT_ARG_STRING, &a->max, 0,
		  "connections served at once, at most (default 1024); more are refused", "N" },
		{ "tcp-options", 'T', POPT_ARG_STRING, tcp, 0,
		  "socket options, dbench's words (default: TCP_NODELAY SO_REUSEADDR)", "OPTIONS" },
		POPT_AUTOHELP
		POPT_TABLEEND
	};
	poptContext ctx = poptGetContext(argv[0], argc, argv, options, 0);
	poptSetOtherOptionHelp(ctx, "[--port PORT] [--address ADDR] [--idle-timeout SECONDS] "
			       "[--header-timeout SECONDS] [--max-connections N] [-T OPTIONS]");
	int status = cli_popt_done(ctx, CMD, cli_popt_next(ctx, options));
	if (!status && poptPeekArg(ctx))
		status = cli_usage_error(CMD, "unexpected argument '%s'", poptPeekArg(ctx));
	poptFreeContext(ctx);
	return status;
}

static void raise_nofile(void)
{
	struct rlimit rl;
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
}

/* The listening socket on addr (NULL: every address, IPv6 and IPv4 on one
 * socket, or IPv4 alone where there is no IPv6) and port.  Returns 0, or
 * KB_EXIT_USAGE after one line. */
static int listen_on(struct server *sv, const char *addr, const char *port)
{
	struct addrinfo hints = { .ai_family = addr ? AF_UNSPEC : AF_INET6, .ai_socktype = SOCK_STREAM,
				  .ai_flags = AI_PASSIVE | AI_NUMERICSERV }, *res = NULL;
	int fd = -1, g = getaddrinfo(addr, port, &hints, &res);
	if (!g) {
		fd = socket(res->ai_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
		if (fd < 0 && !addr) {
			freeaddrinfo(res);
			res = NULL;
		}
	}
	if (!addr && !res) {
		hints.ai_family = AF_INET;  /* no IPv6 here */
		g = getaddrinfo(NULL, port, &hints, &res);
		if (!g)
			fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	}
	if (g) {
		fprintf(stderr, "%s: --address %s: %s\n", CMD, addr ? addr : "(any)",
			g == EAI_SYSTEM ? strerror(errno) : gai_strerror(g));
		return KB_EXIT_USAGE;
	}
	char where[64];
	tb_addr_str(res->ai_addr, res->ai_addrlen, where, sizeof(where));
	if (fd < 0) {
		fprintf(stderr, "%s: cannot make a socket for %s: %s\n", CMD, where, strerror(errno));
		freeaddrinfo(res);
		return KB_EXIT_USAGE;
	}
	sv->family = res->ai_family;
	sv->any = !addr;
	int on = 1, off = 0;
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof(on));
	if (sv->family == AF_INET6 && !addr)
		setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &off, sizeof(off));
	const char *failed;
	if (tb_opts_apply(fd, sv->family, &sv->opts, &failed) < 0) {
		fprintf(stderr, "%s: -T: cannot set %s: %s\n", CMD, failed, strerror(errno));
		goto bad;
	}
	if (bind(fd, res->ai_addr, res->ai_addrlen) < 0 || listen(fd, BACKLOG) < 0) {
		fprintf(stderr, "%s: cannot listen on %s: %s\n", CMD, where, strerror(errno));
		goto bad;
	}
	freeaddrinfo(res);
	sv->lfd = fd;
	return 0;
bad:
	freeaddrinfo(res);
	close(fd);
	return KB_EXIT_USAGE;
}

/* ---- one connection, in its own process ---- */

/* The idle bound on fd: SO_RCVTIMEO and SO_SNDTIMEO of idle_s (0: none). */
static void set_idle(int fd, double idle_s)
{
	struct timeval tv = { (time_t)idle_s, (suseconds_t)((idle_s - (double)(time_t)idle_s) * 1e6) };
	if (idle_s > 0 && !tv.tv_sec && !tv.tv_usec)
		tv.tv_usec = 1;
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
}

/* n bytes into p (discarded when flags has MSG_TRUNC).  Without
 * MSG_WAITALL, each recv returns once a byte is there, so its timeout
 * (the idle bound) counts from the last byte received.  Returns 0, -1 on
 * an end, an error or a stop, or -2 when no byte came within the bound. */
static int get(int fd, unsigned char *p, size_t n, int flags)
{
	while (n) {
		ssize_t r = recv(fd, p, n, flags);
		if (r > 0) {
			n -= (size_t)r;
			if (!(flags & MSG_TRUNC))
				p += r;
		} else if (r < 0 && errno == EINTR && !child_stop) {
			continue;
		} else {
			return r < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) ? -2 : -1;
		}
	}
	return 0;
}

/* n bytes into p by deadline_ns (CLOCK_MONOTONIC; 0: none), each within
 * idle_s of the last (0: no bound); a recv first, a poll only when
 * nothing is there.  Returns 0, -1 on an end, an error or a stop, -2 when
 * no byte came within idle_s, -3 at the deadline. */
static int get_by(int fd, unsigned char *p, size_t n, uint64_t deadline_ns, double idle_s)
{
	while (n) {
		ssize_t got = recv(fd, p, n, MSG_DONTWAIT);
		if (got > 0) {
			n -= (size_t)got;
			p += got;
			continue;
		}
		if (got == 0 || (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) ||
		    child_stop)
			return -1;
		int wait = idle_s > 0 ? (int)(idle_s * 1000.0 + 0.999) : -1, at_deadline = 0;
		if (deadline_ns) {
			uint64_t now = kb_now_ns();
			uint64_t left = now < deadline_ns ? (deadline_ns - now + 999999) / 1000000 : 0;
			if (wait < 0 || left <= (uint64_t)wait) {
				wait = (int)left;
				at_deadline = 1;
			}
		}
		struct pollfd pf = { fd, POLLIN, 0 };
		int r = poll(&pf, 1, wait);
		if (r < 0 && errno != EINTR)
			return -1;
		if (r == 0)
			return at_deadline ? -3 : -2;
	}
	return 0;
}

/* n bytes from p.  Returns 0, -1, or -2 when the client took no byte
 * within the idle bound. */
static int put(int fd, const unsigned char *p, size_t n)
{
	while (n) {
		ssize_t r = send(fd, p, n, MSG_NOSIGNAL);
		if (r > 0) {
			p += r;
			n -= (size_t)r;
		} else if (r < 0 && errno == EINTR && !child_stop) {
			continue;
		} else {
			return r < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) ? -2 : -1;
		}
	}
	return 0;
}

/* one line for a connection closed on the idle bound */
static void say_idle(const struct server *sv, const char *peer, const char *what)
{
	fprintf(stderr, "%s: %s: %s for %g s (--idle-timeout); connection closed\n", CMD, peer,
		what, sv->idle_s);
}

static void serve(struct server *sv, int fd, const char *peer)
{
	static unsigned char buf[TB_MAX_MSG];  /* replies: the length word, then zeros */
	unsigned char head[8];
	struct totals t = { 0, 0, 0 };
	const char *failed;
	if (tb_opts_apply(fd, sv->family, &sv->opts, &failed) < 0)
		fprintf(stderr, "%s: %s: cannot set %s: %s\n", CMD, peer, failed, strerror(errno));
	set_idle(fd, sv->idle_s);
	int g = 0;
	while (!child_stop) {
		/* between requests: the idle bound; from a request's first byte
		 * on, its header by the header deadline too */
		ssize_t r = recv(fd, head, 4, 0);  /* the idle bound: SO_RCVTIMEO */
		if (r <= 0) {
			if (r < 0 && errno == EINTR && !child_stop)
				continue;
			g = r < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) ? -2 : -1;
			break;
		}
		uint64_t by = sv->header_s > 0 ? kb_now_ns() + (uint64_t)(sv->header_s * 1e9) : 0;
		if ((g = get_by(fd, head + r, 4 - (size_t)r, by, sv->idle_s)) < 0)
			break;
		uint32_t n = tb_get32(head);
		if (n > TB_MAX_MSG - 4 || n < 4) {
			fprintf(stderr, "%s: %s: a request of %llu bytes (%s); connection closed\n", CMD, peer,
				(unsigned long long)n + 4, n < 4 ? "too short to say its reply's size" :
				"more than the 70000 a request may have");
			break;
		}
		if ((g = get_by(fd, head + 4, 4, by, sv->idle_s)) < 0)
			break;
		uint32_t m = tb_get32(head + 4);
		if (m > TB_MAX_MSG - 4) {
			fprintf(stderr, "%s: %s: a request for a reply of %llu bytes (more than the 70000 "
				"a reply may have); connection closed\n", CMD, peer, (unsigned long long)m + 4);
			break;
		}
		if (n > 4 && (g = get(fd, buf + 4, n - 4, MSG_TRUNC)) < 0)
			break;
		tb_put32(buf, m);
		int w = put(fd, buf, (size_t)m + 4);
		if (w == -2 && !child_stop)
			say_idle(sv, peer, "the client took no byte of its reply");
		if (w < 0)
			break;
		t.requests++;
		t.bytes_in += (uint64_t)n + 4;
		t.bytes_out += (uint64_t)m + 4;
	}
	if (g == -2 && !child_stop)
		say_idle(sv, peer, "no byte received");
	if (g == -3 && !child_stop)
		fprintf(stderr, "%s: %s: a request's header was not whole %g s after its first byte "
			"(--header-timeout); connection closed\n", CMD, peer, sv->header_s);
	__atomic_fetch_add(&sv->tot->requests, t.requests, __ATOMIC_RELAXED);
	__atomic_fetch_add(&sv->tot->bytes_in, t.bytes_in, __ATOMIC_RELAXED);
	__atomic_fetch_add(&sv->tot->bytes_out, t.bytes_out, __ATOMIC_RELAXED);
}

static void child_main(struct server *sv, int fd, const struct sockaddr *sa, socklen_t salen)
{
	close(sv->lfd);
	close(sv->sfd);
	struct sigaction sa_stop = { .sa_handler = on_child_stop };  /* no SA_RESTART */
	sigemptyset(&sa_stop.sa_mask);
	sigaction(SIGTERM, &sa_stop, NULL);
	if (cli_is_stop_signal(SIGINT))  /* one ignored at the start stays so */
		sigaction(SIGINT, &sa_stop, NULL);
	signal(SIGCHLD, SIG_DFL);
	sigset_t all;
	sigemptyset(&all);
	sigprocmask(SIG_SETMASK, &all, NULL);
	char peer[64];
	tb_addr_str(sa, salen, peer, sizeof(peer));
	serve(sv, fd, peer);
	_exit(0);
}

/* ---- the listening process ---- */

static void reap(struct server *sv)
{
	pid_t p;
	while ((p = waitpid(-1, NULL, WNOHANG)) > 0)
		for (size_t i = 0; i < sv->npids; i++)
			if (sv->pids[i] == p) {
				sv->pids[i] = sv->pids[--sv->npids];
				break;
			}
}

static void accept_one(struct server *sv)
{
	struct sockaddr_storage ss;
	socklen_t len = sizeof(ss);
	int fd = accept4(sv->lfd, (struct sockaddr *)&ss, &len, SOCK_CLOEXEC);
	if (fd < 0) {
		if (errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM) {
			fprintf(stderr, "%s: cannot accept a connection: %s\n", CMD, strerror(errno));
			struct timespec ts = { 0, 100000000 };
			nanosleep(&ts, NULL);  /* let some connection end first */
		}
		return;
	}
	if (sv->npids >= sv->max_conns)
		reap(sv);  /* a process that just ended frees its place */
	if (sv->npids >= sv->max_conns) {
		char peer[64];
		tb_addr_str((struct sockaddr *)&ss, len, peer, sizeof(peer));
		fprintf(stderr, "%s: %s: refused: %zu connections are served already "
			"(--max-connections %zu)\n", CMD, peer, sv->npids, sv->max_conns);
		sv->refused++;
		close(fd);
		return;
	}
	if (sv->npids == sv->cap) {
		size_t cap = sv->cap ? 2 * sv->cap : 1024;
		pid_t *np = realloc(sv->pids, cap * sizeof(*np));
		if (!np) {
			fprintf(stderr, "%s: out of memory: connection closed\n", CMD);
			close(fd);
			return;
		}
		sv->pids = np;
		sv->cap = cap;
	}
	pid_t pid = fork();
	if (pid == 0)
		child_main(sv, fd, (struct sockaddr *)&ss, len);
	if (pid < 0) {
		char peer[64];
		tb_addr_str((struct sockaddr *)&ss, len, peer, sizeof(peer));
		fprintf(stderr, "%s: %s: cannot start a process for it: %s; connection closed\n", CMD,
			peer, strerror(errno));
	} else {
		sv->pids[sv->npids++] = pid;
		sv->conns++;
	}
	close(fd);
}

/* SIGTERM to every connection's process, SIGKILL to those left after
 * STOP_WAIT_NS; all reaped. */
static void stop_all(struct server *sv)
{
	for (size_t i = 0; i < sv->npids; i++)
		kill(sv->pids[i], SIGTERM);
	uint64_t until = kb_now_ns() + STOP_WAIT_NS;
	while (sv->npids && kb_now_ns() < until) {
		struct timespec ts = { 0, 10000000 };
		nanosleep(&ts, NULL);
		reap(sv);
	}
	for (size_t i = 0; i < sv->npids; i++)
		kill(sv->pids[i], SIGKILL);
	while (sv->npids) {
		pid_t p = waitpid(-1, NULL, 0);
		if (p < 0) {
			sv->npids = 0;
			break;
		}
		for (size_t i = 0; i < sv->npids; i++)
			if (sv->pids[i] == p) {
				sv->pids[i] = sv->pids[--sv->npids];
				break;
			}
	}
}

static int loop(struct server *sv)
{
	for (;;) {
		struct pollfd pf[2] = { { sv->lfd, POLLIN, 0 }, { sv->sfd, POLLIN, 0 } };
		if (poll(pf, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			fprintf(stderr, "%s: poll: %s\n", CMD, strerror(errno));
			return -1;
		}
		if (pf[1].revents & POLLIN) {
			struct signalfd_siginfo si;
			while (read(sv->sfd, &si, sizeof(si)) == (ssize_t)sizeof(si)) {
				if (si.ssi_signo == SIGCHLD)
					reap(sv);
				else if (si.ssi_signo != SIGHUP || sv->hup)
					return (int)si.ssi_signo;
			}
		}
		if (pf[0].revents & POLLIN)
			accept_one(sv);
	}
}

static int run(struct server *sv, const char *addr, const char *port)
{
	/* the signals go to the signalfd; a SIGHUP ignored at the start stays so */
	struct sigaction old;
	sigaction(SIGHUP, NULL, &old);
	sv->hup = old.sa_handler != SIG_IGN;
	signal(SIGPIPE, SIG_IGN);
	sigset_t set;
	cli_stop_sigset(&set);     /* every stop signal not ignored at the start */
	sigaddset(&set, SIGCHLD);
	sigprocmask(SIG_BLOCK, &set, NULL);
	sv->sfd = signalfd(-1, &set, SFD_NONBLOCK | SFD_CLOEXEC);
	if (sv->sfd < 0) {
		fprintf(stderr, "%s: signalfd: %s\n", CMD, strerror(errno));
		return KB_EXIT_FAIL;
	}
	int status = listen_on(sv, addr, port);
	if (status)
		return status;
	raise_nofile();
	struct sockaddr_storage ss;
	socklen_t len = sizeof(ss);
	char where[64] = "?";
	if (getsockname(sv->lfd, (struct sockaddr *)&ss, &len) == 0)
		tb_addr_str((struct sockaddr *)&ss, len, where, sizeof(where));
	char idle[64] = "never closed when idle", header[64] = "";
	if (sv->idle_s > 0)
		snprintf(idle, sizeof(idle), "closed after %g s idle", sv->idle_s);
	if (sv->header_s > 0)
		snprintf(header, sizeof(header), " or a header not whole in %g s", sv->header_s);
	printf("%s: listening on %s (%s; tbench protocol, a process per connection, at most "
	       "%zu at once, %s%s)\n", CMD, where, !sv->any ? "this address only" :
	       sv->family == AF_INET6 ? "every IPv6 and IPv4 address" : "every IPv4 address",
	       sv->max_conns, idle, header);
	fflush(stdout);

	int sig = loop(sv);
	char signame[CLI_SIGNAME_LEN];
	stop_all(sv);
	struct rusage ru;
	getrusage(RUSAGE_CHILDREN, &ru);
	printf("%s: stopped by %s: %llu connections, %llu requests, %llu bytes received, "
	       "%llu bytes sent; CPU of the connections' processes: user %.3f s, system %.3f s\n",
	       CMD, sig > 0 ? cli_signal_name(sig, signame) : "an error",
	       (unsigned long long)sv->conns, (unsigned long long)sv->tot->requests,
	       (unsigned long long)sv->tot->bytes_in, (unsigned long long)sv->tot->bytes_out,
	       (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6,
	       (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6);
	fflush(stdout);
	return sig > 0 ? KB_EXIT_OK : KB_EXIT_FAIL;
}

/* --idle-timeout's, --header-timeout's and --max-connections' values into sv.  Returns 0 or
 * KB_EXIT_USAGE after one line. */
static int check_limits(struct server *sv, const struct server_args *a)
{
	sv->idle_s = IDLE_DEFAULT_S;
	sv->header_s = HEADER_DEFAULT_S;
	sv->max_conns = MAX_CONNS_DEFAULT;
	if (a->idle && (cli_parse_duration(a->idle, &sv->idle_s) < 0 || sv->idle_s > IDLE_MAX_S))
		return cli_usage_error(CMD, "--idle-timeout '%s': a duration of 0 (never) to 86400 s, "
				       "e.g. 60, 1.5, 2m", a->idle);
	if (a->header && (cli_parse_duration(a->header, &sv->header_s) < 0 ||
			  sv->header_s > IDLE_MAX_S))
		return cli_usage_error(CMD, "--header-timeout '%s': a duration of 0 (only the idle "
				       "bound) to 86400 s, e.g. 5, 0.5, 1m", a->header);
	uint64_t v;
	if (a->max) {
		if (cli_parse_uint(a->max, 1, MAX_CONNS_LIMIT, &v) < 0)
			return cli_usage_error(CMD, "--max-connections '%s': a whole number, 1 to %u",
					       a->max, MAX_CONNS_LIMIT);
		sv->max_conns = (size_t)v;
	}
	return 0;
}

int cmd_server(int argc, const char **argv)
{
	struct server_args a = { 0 };
	struct server sv = { .lfd = -1, .sfd = -1 };
	int status = parse_options(argc, argv, &a);
	char *port = a.port, *addr = a.addr, *tcp = a.tcp;
	char err[300];
	uint64_t pv = 0;
	if (!status && port && cli_parse_uint(port, 0, 65535, &pv) < 0)
		status = cli_usage_error(CMD, "--port '%s': a port is 0 (any free one) to 65535", port);
	if (!status)
		status = check_limits(&sv, &a);
	if (!status && tb_opts_parse(tcp ? tcp : TB_DEFAULT_OPTIONS, &sv.opts, err, sizeof(err)) < 0)
		status = cli_usage_error(CMD, "-T: %s", err);
	if (!status && addr && !*addr)
		status = cli_usage_error(CMD, "--address is empty");
	if (!status) {
		sv.tot = mmap(NULL, sizeof(*sv.tot), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
		if (sv.tot == MAP_FAILED) {
			fprintf(stderr, "%s: cannot map shared memory: %s\n", CMD, strerror(errno));
			status = KB_EXIT_FAIL;
		}
	}
	if (!status) {
		char pbuf[8];
		snprintf(pbuf, sizeof(pbuf), "%u", port ? (unsigned)pv : 7003u);
		status = run(&sv, addr, pbuf);
		munmap(sv.tot, sizeof(*sv.tot));
	}
	if (sv.lfd >= 0)
		close(sv.lfd);
	if (sv.sfd >= 0)
		close(sv.sfd);
	free(sv.pids);
	free(port);
	free(addr);
	free(tcp);
	free(a.idle);
	free(a.header);
	free(a.max);
	return status;
}
