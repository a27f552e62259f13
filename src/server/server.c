/* kbench - kbench server: a tbench server, one process per connection
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * usage: kbench server [--port PORT] [--address ADDR] [--idle-timeout SECONDS]
 *                      [--max-connections N] [-T OPTIONS]
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
 * sends half a request and stalls holds only its own process, and only
 * for --idle-timeout: a connection's socket has SO_RCVTIMEO and
 * SO_SNDTIMEO of that length, and a receive that got no byte in it (or a
 * send that gave none away) closes the connection with one line.  At
 * most --max-connections connections are served at once: one more is
 * accepted and closed at once, with one line.  A stop signal (cli.h:
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
#include "load/backend/tbproto.h"
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
#define IDLE_DEFAULT_S 60.0 /* --idle-timeout's default */
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
	char *port, *addr, *tcp, *idle, *max;
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
		  "(default 60 s; 0: never)", "SECONDS" },
		{ "max-connections", 0, POPT_ARG_STRING, &a->max, 0,
		  "connections served at once, at most (default 1024); more are refused", "N" },
		{ "tcp-options", 'T', POPT_ARG_STRING, tcp, 0,
		  "socket options, dbench's words (default: TCP_NODELAY SO_REUSEADDR)", "OPTIONS" },
		POPT_AUTOHELP
		POPT_TABLEEND
	};
	poptContext ctx = poptGetContext(argv[0], argc, argv, options, 0);
	poptSetOtherOptionHelp(ctx, "[--port PORT] [--address ADDR] [--idle-timeout SECONDS] "
			       "[--max-connections N] [-T OPTIONS]");
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
		if ((g = get(fd, head, 4, 0)) < 0)
			break;
		uint32_t n = tb_get32(head);
		if (n > TB_MAX_MSG - 4 || n < 4) {
			fprintf(stderr, "%s: %s: a request of %llu bytes (%s); connection closed\n", CMD, peer,
				(unsigned long long)n + 4, n < 4 ? "too short to say its reply's size" :
				"more than the 70000 a request may have");
			break;
		}
		if ((g = get(fd, head + 4, 4, 0)) < 0)
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
	char idle[64] = "never closed when idle";
	if (sv->idle_s > 0)
		snprintf(idle, sizeof(idle), "closed after %g s idle", sv->idle_s);
	printf("%s: listening on %s (%s; tbench protocol, a process per connection, at most "
	       "%zu at once, %s)\n", CMD, where, !sv->any ? "this address only" :
	       sv->family == AF_INET6 ? "every IPv6 and IPv4 address" : "every IPv4 address",
	       sv->max_conns, idle);
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

/* --idle-timeout's and --max-connections' values into sv.  Returns 0 or
 * KB_EXIT_USAGE after one line. */
static int check_limits(struct server *sv, const struct server_args *a)
{
	sv->idle_s = IDLE_DEFAULT_S;
	sv->max_conns = MAX_CONNS_DEFAULT;
	if (a->idle && (cli_parse_duration(a->idle, &sv->idle_s) < 0 || sv->idle_s > IDLE_MAX_S))
		return cli_usage_error(CMD, "--idle-timeout '%s': a duration of 0 (never) to 86400 s, "
				       "e.g. 60, 1.5, 2m", a->idle);
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
	free(a.max);
	return status;
}
