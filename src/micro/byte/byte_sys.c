/* kbench - micro: BYTE's system tests (execl, pipes, context switching,
 * process creation, system calls, select)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The tests whose loop is a few system calls or a process's life.  Pipe,
 * context switching and select share struct fds: the descriptors a copy
 * holds and the partner process it forked, all released by fds_cleanup()
 * (the partner is killed with the copy: micro_fork(), harness.h).
 *
 * Execl Throughput (byte_execl, lps): BYTE's execl is one process that
 *   replaces itself with execl() again and again, a counter in its
 *   arguments, until its time is up; one loop = one exec.  kbench is too
 *   large a program to be that image, so a sample spawns the small helper
 *   kbench-execl (execl_helper.c; installed in $(pkglibexecdir), found
 *   beside the binary in a build tree) once, and the helper's images
 *   chain exactly so: count, look at a pipe kbench closes when the sample
 *   ends, exec again.  The last image reports the count.  Differences
 *   left: BYTE's image also carries some 8 KiB of data and unused code
 *   (its big.c), and it reads the clock (time()) where the helper polls
 *   a pipe.
 * Pipe Throughput (byte_pipe, lps): one process writes 512 bytes to a
 *   pipe and reads them back; one loop = one write + one read (BYTE pipe.c).
 * Pipe-based Context Switching (byte_context, lps): two processes pass an
 *   increasing counter back and forth over two pipes, each checking it
 *   (BYTE context1.c); one loop = one round trip.  Pipe Throughput runs
 *   on one CPU, Context Switching in each placement of its rows
 *   (place.h): the copy on the first CPU, its partner on the second.
 * Process Creation (byte_spawn, lps): fork, the child exits at once, the
 *   parent waits (BYTE spawn.c).
 * System Call Overhead (byte_syscall, lps): one loop = close(dup(0)),
 *   getppid(), getuid(), umask(022) (UnixBench 5 syscall.c "mix").
 * select() on N fds (byte_select_10, byte_select_100; lps): one loop is a
 *   select() for reading with zero timeout on N pipe read ends that all
 *   have data, which must report N ready (UnixBench's optional "select"
 *   test idea; kbench's own method).
 */
#include "config.h"
#include "micro/place.h"
#include "micro/byte/byte.h"
#include "micro/byte/byte_tests.h"
#include "micro/harness.h"

#define EXECL_HELPER "kbench-execl"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/select.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

/* ---- Execl ---- */

static const char *execl_program;      /* set by byte_set_execl_program() */
static char execl_found[PATH_MAX];

void byte_set_execl_program(const char *path)
{
	execl_program = path;
}

/* The helper's path: as set, else TOP/src/kbench-execl when this binary
 * is TOP/src/kbench (a build tree), else the installed one. */
static const char *execl_helper(void)
{
	char exe[PATH_MAX];
	if (execl_program)
		return execl_program;
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n > 0) {
		exe[n] = '\0';
		char *slash = strrchr(exe, '/');
		if (slash && slash - exe >= 4 && !strncmp(slash - 4, "/src", 4) &&
		    (size_t)snprintf(execl_found, sizeof(execl_found), "%.*s/" EXECL_HELPER,
				     (int)(slash - exe), exe) < sizeof(execl_found) &&
		    access(execl_found, X_OK) == 0)
			return execl_found;
	}
	snprintf(execl_found, sizeof(execl_found), "%s/" EXECL_HELPER, KBENCH_PKGLIBEXECDIR);
	return execl_found;
}

static int execl_setup(const void *arg, const struct micro_opts *o, void **state, char *err,
		       size_t errlen)
{
	(void)arg, (void)o, (void)state;
	const char *prog = execl_helper();
	if (access(prog, X_OK))
		return snprintf(err, errlen, "its helper %s is not executable here", prog), 1;
	return 0;
}

/* A descriptor of a pipe moved to 10 or above (close-on-exec), so that
 * the spawn's dup2 onto 3 and 4 never meets one already there. */
static int high_fd(int fd)
{
	int h = fcntl(fd, F_DUPFD_CLOEXEC, 10);
	close(fd);
	return h;
}

/* What the helper's chain wrote on its report pipe: the count of images
 * that ran.  Returns 0, or -1 after setting err. */
static int execl_result(int fd, unsigned long *count, char *err, size_t errlen)
{
	char text[160];
	size_t got = 0;
	for (;;) {
		ssize_t r = read(fd, text + got, sizeof(text) - 1 - got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0 || (got += (size_t)r) == sizeof(text) - 1)
			break;
	}
	text[got] = '\0';
	text[strcspn(text, "\n")] = '\0';
	char *end;
	errno = 0;
	*count = strtoul(text, &end, 10);
	if (!got || errno || *end || end == text)
		return ERR("%s: %s", EXECL_HELPER, got ? text : "no count reported");
	return 0;
}

static int execl_body(void *state, const void *arg, volatile sig_atomic_t *stop, double *amount,
		      char *err, size_t errlen)
{
	(void)state, (void)arg;
	const char *prog = execl_helper();
	char *const argv[] = { (char *)prog, (char *)"0", NULL };
	posix_spawn_file_actions_t fa;
	int stopp[2], rep[2], rc = 0;
	unsigned long count = 0;

	if (pipe(stopp))
		return ERR("pipe: %s", strerror(errno));
	if (pipe(rep)) {
		close(stopp[0]), close(stopp[1]);
		return ERR("pipe: %s", strerror(errno));
	}
	for (int k = 0; k < 2; k++)
		stopp[k] = high_fd(stopp[k]), rep[k] = high_fd(rep[k]);
	if (stopp[0] < 0 || stopp[1] < 0 || rep[0] < 0 || rep[1] < 0 ||
	    posix_spawn_file_actions_init(&fa)) {
		rc = ERR("descriptors for %s: %s", EXECL_HELPER, strerror(errno));
		goto out;
	}
	pid_t pid;
	int e = posix_spawn_file_actions_adddup2(&fa, stopp[0], 3) ||
		posix_spawn_file_actions_adddup2(&fa, rep[1], 4) ||
		posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0) ||
		posix_spawn_file_actions_adddup2(&fa, 1, 2);
	if (!e)
		e = posix_spawn(&pid, prog, &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	if (e) {
		rc = ERR("exec of %s: %s", prog, strerror(e));
		goto out;
	}
	close(rep[1]);
	rep[1] = -1;
	/* the chain runs on its own; it ends early only on a failure (its
	 * report pipe then reads) */
	struct pollfd p = { .fd = rep[0], .events = POLLIN };
	while (!*stop && poll(&p, 1, 10) <= 0)
		;
	close(stopp[1]);        /* the sample is over: the next image sees it */
	stopp[1] = -1;
	rc = execl_result(rep[0], &count, err, errlen);
	int st;
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR) {
			st = -1;
			break;
		}
	if (!rc && (st == -1 || !WIFEXITED(st) || WEXITSTATUS(st) != 0))
		rc = ERR("%s did not exit 0", prog);
out:
	for (int k = 0; k < 2; k++) {
		if (stopp[k] >= 0)
			close(stopp[k]);
		if (rep[k] >= 0)
			close(rep[k]);
	}
	*amount = (double)count;
	return rc;
}

const struct fixed_ops byte_execl_ops = { execl_setup, execl_body, NULL };

/* ---- Pipe Throughput ---- */

struct fds {
	int n;
	int fd[2 * 100];
	pid_t child;
};

static void fds_cleanup(void *state)
{
	struct fds *s = state;
	if (!s)
		return;
	for (int i = 0; i < s->n; i++)
		if (s->fd[i] >= 0)
			close(s->fd[i]);
	if (s->child > 0)
		micro_reap(s->child);
	free(s);
}

static struct fds *fds_new(void)
{
	struct fds *s = calloc(1, sizeof *s);
	if (s)
		for (size_t i = 0; i < sizeof s->fd / sizeof s->fd[0]; i++)
			s->fd[i] = -1;
	return s;
}

static int pipe_setup(const void *arg, const struct micro_opts *o, void **state, char *err,
		      size_t errlen)
{
	(void)arg, (void)o;
	struct fds *s = fds_new();
	if (!s)
		return ERR("out of memory");
	*state = s;
	if (pipe2(s->fd, O_CLOEXEC))
		return ERR("pipe: %s", strerror(errno));
	s->n = 2;
	return 0;
}

static int pipe_body(void *state, const void *arg, volatile sig_atomic_t *stop, double *amount,
		     char *err, size_t errlen)
{
	(void)arg;
	struct fds *s = state;
	char buf[512];
	unsigned long n = 0;
	memset(buf, 'p', sizeof buf);
	do {
		if (micro_write_all(s->fd[1], buf, sizeof buf))
			return ERR("pipe write: %s", strerror(errno));
		if (micro_read_all(s->fd[0], buf, sizeof buf))
			return ERR("pipe read: %s", strerror(errno));
		n++;
	} while (!*stop);
	*amount = (double)n;
	return 0;
}

const struct fixed_ops byte_pipe_ops = { pipe_setup, pipe_body, fds_cleanup };

/* ---- Pipe-based Context Switching ---- */

/* fd[0]: read replies, fd[1]: write the counter */
static int context_setup(const void *arg, const struct micro_opts *o, void **state, char *err,
			 size_t errlen)
{
	(void)arg;
	int to[2], from[2];
	struct fds *s = fds_new();
	if (!s)
		return ERR("out of memory");
	*state = s;
	if (pipe2(to, O_CLOEXEC))
		return ERR("pipe: %s", strerror(errno));
	if (pipe2(from, O_CLOEXEC)) {
		close(to[0]);
		close(to[1]);
		return ERR("pipe: %s", strerror(errno));
	}
	pid_t p = micro_fork();      /* dies with the copy */
	if (p < 0) {
		int e = errno;
		close(to[0]), close(to[1]), close(from[0]), close(from[1]);
		return snprintf(err, errlen, "fork: %s", strerror(e)), e == EAGAIN ? 1 : -1;
	}
	if (p == 0) {               /* the partner: echo the counter, checking it */
		place_partner(o);   /* to the placement's second CPU, if it has one */
		close(to[1]);
		close(from[0]);
		unsigned long want = 0, got;
		for (;;) {
			if (micro_read_all(to[0], &got, sizeof got))
				_exit(0);
			if (got != want)
				_exit(2);
			if (micro_write_all(from[1], (const char *)&got, sizeof got))
				_exit(0);
			want++;
		}
	}
	close(to[0]);
	close(from[1]);
	s->fd[0] = from[0];
	s->fd[1] = to[1];
	s->n = 2;
	s->child = p;
	return 0;
}

static int context_body(void *state, const void *arg, volatile sig_atomic_t *stop,
			double *amount, char *err, size_t errlen)
{
	(void)arg;
	struct fds *s = state;
	unsigned long i = 0, back;
	do {
		if (micro_write_all(s->fd[1], (const char *)&i, sizeof i))
			return ERR("context switch: partner gone");
		if (micro_read_all(s->fd[0], &back, sizeof back))
			return ERR("context switch: partner gone");
		if (back != i)
			return ERR("context switch: sync error, sent %lu got %lu", i, back);
		i++;
	} while (!*stop);
	*amount = (double)i;
	return 0;
}

const struct fixed_ops byte_context_ops = { context_setup, context_body, fds_cleanup };

/* ---- Process Creation ---- */

static int spawn_body(void *state, const void *arg, volatile sig_atomic_t *stop, double *amount,
		      char *err, size_t errlen)
{
	(void)state, (void)arg;
	unsigned long n = 0;
	do {
		pid_t p = fork();
		if (p < 0)
			return ERR("fork: %s", strerror(errno));
		if (p == 0)
			_exit(0);
		int st;
		while (waitpid(p, &st, 0) < 0)
			if (errno != EINTR)
				return ERR("waitpid: %s", strerror(errno));
		if (!WIFEXITED(st) || WEXITSTATUS(st))
			return ERR("child did not exit 0");
		n++;
	} while (!*stop);
	*amount = (double)n;
	return 0;
}

const struct fixed_ops byte_spawn_ops = { NULL, spawn_body, NULL };

/* ---- System Call Overhead ---- */

static int syscall_body(void *state, const void *arg, volatile sig_atomic_t *stop,
			double *amount, char *err, size_t errlen)
{
	(void)state, (void)arg;
	int fd = 0, own = -1;
	if (fcntl(0, F_GETFD) < 0) {          /* no stdin: dup a file of our own */
		own = open("/dev/null", O_RDONLY | O_CLOEXEC);
		if (own < 0)
			return ERR("/dev/null: %s", strerror(errno));
		fd = own;
	}
	unsigned long n = 0;
	do {
		close(dup(fd));
		getppid();
		getuid();
		umask(022);
		n++;
	} while (!*stop);
	if (own >= 0)
		close(own);
	*amount = (double)n;
	return 0;
}

const struct fixed_ops byte_syscall_ops = { NULL, syscall_body, NULL };

/* ---- select() ---- */

static int select_setup(const void *arg, const struct micro_opts *o, void **state, char *err,
			size_t errlen)
{
	(void)o;
	const struct byte_arg *a = arg;
	int want = (int)a->p1;
	struct fds *s = fds_new();
	if (!s)
		return ERR("out of memory");
	*state = s;
	for (int i = 0; i < want; i++) {
		int p[2];
		if (pipe2(p, O_CLOEXEC)) {
			if (errno == EMFILE || errno == ENFILE)
				return snprintf(err, errlen, "cannot open %d pipes: %s", want,
						strerror(errno)), 1;
			return ERR("pipe: %s", strerror(errno));
		}
		s->fd[s->n++] = p[0];
		if (p[0] >= FD_SETSIZE) {
			close(p[1]);
			return snprintf(err, errlen, "descriptors beyond FD_SETSIZE"), 1;
		}
		char c = 's';
		int w = micro_write_all(p[1], &c, 1);
		close(p[1]);
		if (w)
			return ERR("pipe write: %s", strerror(errno));
	}
	return 0;
}

static int select_body(void *state, const void *arg, volatile sig_atomic_t *stop,
		       double *amount, char *err, size_t errlen)
{
	(void)arg;
	struct fds *s = state;
	int maxfd = -1;
	for (int i = 0; i < s->n; i++)
		if (s->fd[i] > maxfd)
			maxfd = s->fd[i];
	fd_set all;             /* built once; select() overwrites its copy */
	FD_ZERO(&all);
	for (int i = 0; i < s->n; i++)
		FD_SET(s->fd[i], &all);
	unsigned long n = 0;
	do {
		fd_set rd = all;
		struct timeval tv = { 0, 0 };
		int got = select(maxfd + 1, &rd, NULL, NULL, &tv);
		if (got < 0 && errno == EINTR)
			continue;
		if (got != s->n)
			return ERR("select: %d of %d ready (%s)", got, s->n,
				   got < 0 ? strerror(errno) : "no error");
		n++;
	} while (!*stop);
	*amount = (double)n;
	return 0;
}

const struct fixed_ops byte_select_ops = { select_setup, select_body, fds_cleanup };
