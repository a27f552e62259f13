/* kbench - the loadfile parsed in a short-lived child process
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "load/loadfile/lfapart.h"
#include "load/loadfile/loadfile.h"
#include "sys/memcg.h"

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

/* What the child sends first, with the memfd attached. */
struct apart_head {
	int32_t rc;          /* loadfile_load's */
	struct program prog; /* its pointers and fd meaningless here */
	uint64_t source_len; /* bytes that follow: source (with its NUL), */
	uint64_t arena_len;  /* the arena, */
	uint64_t dirs_len;   /* the directory table */
};

static int write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;
	while (len) {
		ssize_t n = write(fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

static int read_all(int fd, void *buf, size_t len)
{
	char *p = buf;
	while (len) {
		ssize_t n = read(fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/* The child: parse, send, exit. */
static void __attribute__((noreturn)) child(int sock, const char *path, enum lf_format format,
					    FILE *errs, unsigned max_errors)
{
	/* the parent handles the stop signals; this process ends with it */
	sigset_t all;
	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, NULL);
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	prctl(PR_SET_NAME, "kbench-parse");  /* told apart in ps, top and /proc */
	memcg_oom_first();  /* a cgroup too small for the loadfile takes this one */
	if (getppid() == 1)
		_exit(1);
	struct apart_head h;
	memset(&h, 0, sizeof(h));
	h.rc = loadfile_load(path, format, &h.prog, errs, max_errors);
	if (errs)
		fflush(errs);
	if (h.rc == 0) {
		h.source_len = strlen(h.prog.source) + 1;
		h.arena_len = h.prog.arena_len;
		h.dirs_len = (uint64_t)h.prog.ndirs * sizeof(*h.prog.dirs);
	}
	struct iovec iov = { &h, sizeof(h) };
	union {
		struct cmsghdr c;
		char space[CMSG_SPACE(sizeof(int))];
	} ctl;
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1 };
	if (h.rc == 0) {
		memset(&ctl, 0, sizeof(ctl));
		m.msg_control = ctl.space;
		m.msg_controllen = sizeof(ctl.space);
		struct cmsghdr *c = CMSG_FIRSTHDR(&m);
		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = SCM_RIGHTS;
		c->cmsg_len = CMSG_LEN(sizeof(int));
		memcpy(CMSG_DATA(c), &h.prog.fd, sizeof(int));
	}
	ssize_t n;
	do
		n = sendmsg(sock, &m, MSG_NOSIGNAL);
	while (n < 0 && errno == EINTR);
	if (n != (ssize_t)sizeof(h))
		_exit(1);
	if (h.rc == 0 &&
	    (write_all(sock, h.prog.source, h.source_len) < 0 ||
	     write_all(sock, h.prog.arena, h.arena_len) < 0 ||
	     write_all(sock, h.prog.dirs, h.dirs_len) < 0))
		_exit(1);
	_exit(0);
}

/* The head and the fd; returns the fd (>= 0), -2 when none came with a
 * head (a failed parse's), -1 when no whole head came. */
static int recv_head(int sock, struct apart_head *h)
{
	struct iovec iov = { h, sizeof(*h) };
	union {
		struct cmsghdr c;
		char space[CMSG_SPACE(sizeof(int))];
	} ctl;
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = ctl.space,
			    .msg_controllen = sizeof(ctl.space) };
	ssize_t n;
	do
		n = recvmsg(sock, &m, MSG_CMSG_CLOEXEC | MSG_WAITALL);
	while (n < 0 && errno == EINTR);
	int fd = -2;
	for (struct cmsghdr *c = CMSG_FIRSTHDR(&m); c; c = CMSG_NXTHDR(&m, c))
		if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS &&
		    c->cmsg_len == CMSG_LEN(sizeof(int)))
			memcpy(&fd, CMSG_DATA(c), sizeof(int));
	if (n != (ssize_t)sizeof(*h)) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	return fd;
}

/* Read the program the child sends into prog; returns 0, or -1 when what
 * came is not a whole program (why: a short reason) or memory ran out. */
static int recv_program(int sock, struct program *prog, const char **why)
{
	struct apart_head h;
	int fd = recv_head(sock, &h);
	if (fd == -1) {
		*why = "the parse process sent no result";
		return -1;
	}
	if (h.rc != 0) {
		if (fd >= 0)
			close(fd);
		return h.rc;
	}
	*prog = h.prog;
	prog->fd = fd;
	prog->source = NULL;
	prog->arena = NULL;
	prog->dirs = NULL;
	if (fd < 0 || h.source_len == 0 || h.arena_len != h.prog.arena_len ||
	    h.dirs_len != (uint64_t)h.prog.ndirs * sizeof(*prog->dirs)) {
		*why = "the parse process sent no program";
		goto fail;
	}
	prog->source = malloc(h.source_len);
	prog->arena = malloc(h.arena_len ? h.arena_len : 1);
	prog->dirs = malloc(h.dirs_len ? h.dirs_len : 1);
	if (!prog->source || !prog->arena || !prog->dirs) {
		*why = "out of memory";
		goto fail;
	}
	if (read_all(sock, prog->source, h.source_len) < 0 ||
	    read_all(sock, prog->arena, h.arena_len) < 0 ||
	    read_all(sock, prog->dirs, h.dirs_len) < 0 || prog->source[h.source_len - 1]) {
		*why = "the parse process sent part of the program";
		goto fail;
	}
	return 0;
fail:
	prog_free(prog);
	return -1;
}

int loadfile_load_apart(const char *path, enum lf_format format, struct program *prog,
			FILE *errs, unsigned max_errors, uint64_t *peak_bytes)
{
	if (peak_bytes)
		*peak_bytes = 0;
	memset(prog, 0, sizeof(*prog));
	prog->fd = -1;
	int sv[2];
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0) {
		if (errs)
			fprintf(errs, "kbench load: %s: cannot parse in a child: socketpair: %s\n",
				path, strerror(errno));
		return -1;
	}
	/* the OOM kills of kbench's own cgroup so far: a rise while the child
	 * parsed is what killed it */
	char cg[PATH_MAX];
	uint64_t oom0 = memcg_own_oom_kills(cg, sizeof(cg));
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0) {
		int e = errno;
		close(sv[0]);
		close(sv[1]);
		if (errs)
			fprintf(errs, "kbench load: %s: cannot parse in a child: fork: %s\n", path,
				strerror(e));
		return -1;
	}
	if (pid == 0) {
		close(sv[0]);
		child(sv[1], path, format, errs, max_errors);
	}
	close(sv[1]);
	const char *why = NULL;
	int rc = recv_program(sv[0], prog, &why);
	close(sv[0]);
	int st;
	pid_t w;
	struct rusage ru;
	do
		w = wait4(pid, &st, 0, &ru);
	while (w < 0 && errno == EINTR);
	if (w == pid && peak_bytes)
		*peak_bytes = (uint64_t)ru.ru_maxrss * 1024;
	if (w == pid && WIFSIGNALED(st) && rc == -1 && why) {
		uint64_t oom = WTERMSIG(st) == SIGKILL ? memcg_own_oom_kills(cg, sizeof(cg)) :
			       MEMCG_UNKNOWN;
		if (errs && oom != MEMCG_UNKNOWN && oom0 != MEMCG_UNKNOWN && oom > oom0)
			fprintf(errs, "kbench load: %s: the parse process was killed by the OOM "
				"killer (memory cgroup %s)\n", path, cg);
		else if (errs)
			fprintf(errs, "kbench load: %s: the parse process ended by signal %d\n", path,
				WTERMSIG(st));
		return -1;
	}
	if (rc == -1 && why && errs)
		fprintf(errs, "kbench load: %s: %s\n", path, why);
	return rc;
}
