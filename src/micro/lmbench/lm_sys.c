/* kbench - micro: lmbench's processor and process tests
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * lat_syscall (null, read/write, stat, open), lat_select (100 files, 100
 * TCP sockets), lat_sig (install, catch, catch less send, prot) and
 * lat_proc (fork, exec, sh) as lmbench measures them; every figure in microseconds per
 * operation.  Files live in opts->tmpdir only.
 */
#include "config.h"
#include "micro/lmbench/lmbench.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

int lm_note(struct micro_result *r, int ret, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(r->skipped, sizeof(r->skipped), fmt, ap);
	va_end(ap);
	return ret;
}

int lm_resource_errno(int err)
{
	switch (err) {
	case EAGAIN: case EMFILE: case ENFILE: case ENOMEM: case EADDRNOTAVAIL:
	case ENETUNREACH: case ENETDOWN: case EAFNOSUPPORT: case EPROTONOSUPPORT:
	case ENOSPC: case EDQUOT: case EACCES: case EPERM: case ENOENT: case ENOSYS:
		return 1;
	}
	return 0;
}

/* ---- system calls ---- */

static int run_null(void *ctx, uint64_t n, char *why)
{
	(void)ctx;
	(void)why;
	for (uint64_t i = 0; i < n; i++)
		(void)getppid();
	return 0;
}

int lm_syscall_null(const struct micro_test *t, const struct micro_opts *o,
		    struct micro_result *r)
{
	(void)t;
	struct harness_bench b = { .run = run_null, .unit = HARNESS_US, .ops_per_iter = 1 };
	return harness_run(o, &b, r);
}

struct io_ctx { int rfd, wfd; };

static int run_io(void *ctx, uint64_t n, char *why)
{
	struct io_ctx *c = ctx;
	char ch = 0;
	for (uint64_t i = 0; i < n; i++)
		if (read(c->rfd, &ch, 1) != 1 || write(c->wfd, &ch, 1) != 1) {
			snprintf(why, 160, "1-byte read of /dev/zero or write to /dev/null: %s",
				 strerror(errno));
			return -1;
		}
	return 0;
}

int lm_syscall_io(const struct micro_test *t, const struct micro_opts *o,
		  struct micro_result *r)
{
	(void)t;
	struct io_ctx c = { open("/dev/zero", O_RDONLY), open("/dev/null", O_WRONLY) };
	int rc;
	if (c.rfd < 0 || c.wfd < 0)
		rc = lm_note(r, 0, "cannot open /dev/zero or /dev/null: %s", strerror(errno));
	else {
		/* one repetition is a read and a write: their mean, as lmbench's "null I/O" */
		struct harness_bench b = { .run = run_io, .ctx = &c, .unit = HARNESS_US,
					   .ops_per_iter = 2 };
		rc = harness_run(o, &b, r);
	}
	if (c.rfd >= 0)
		close(c.rfd);
	if (c.wfd >= 0)
		close(c.wfd);
	return rc;
}

struct path_ctx { char path[4096]; };

static int run_stat(void *ctx, uint64_t n, char *why)
{
	struct path_ctx *c = ctx;
	struct stat st;
	for (uint64_t i = 0; i < n; i++)
		if (stat(c->path, &st) < 0) {
			snprintf(why, 160, "stat: %s", strerror(errno));
			return -1;
		}
	return 0;
}

static int run_open(void *ctx, uint64_t n, char *why)
{
	struct path_ctx *c = ctx;
	for (uint64_t i = 0; i < n; i++) {
		int fd = open(c->path, O_RDONLY);
		if (fd < 0) {
			snprintf(why, 160, "open: %s", strerror(errno));
			return -1;
		}
		close(fd);
	}
	return 0;
}

/* A small file in the temporary directory; 0 or -1 (r->skipped set). */
static int make_file(const struct micro_opts *o, const char *name, size_t bytes, char *path,
		     size_t pathsz, struct micro_result *r)
{
	snprintf(path, pathsz, "%s/%s", o->tmpdir, name);
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (fd < 0)
		return lm_note(r, -1, "cannot create %s: %s", path, strerror(errno));
	char block[4096];
	memset(block, 0x5a, sizeof(block));
	for (size_t done = 0; done < bytes; done += sizeof(block))
		if (micro_write_all(fd, block, bytes - done < sizeof(block) ? bytes - done
							       : sizeof(block)) < 0) {
			int e = errno;
			close(fd);
			unlink(path);
			return lm_note(r, -1, "cannot write %s: %s", path, strerror(e));
		}
	close(fd);
	return 0;
}

static int path_test(const struct micro_opts *o, struct micro_result *r,
		     int (*fn)(void *, uint64_t, char *))
{
	struct path_ctx c;
	if (make_file(o, "lat_syscall", 1, c.path, sizeof(c.path), r) < 0)
		return -1;
	struct harness_bench b = { .run = fn, .ctx = &c, .unit = HARNESS_US, .ops_per_iter = 1 };
	int rc = harness_run(o, &b, r);
	unlink(c.path);
	return rc;
}

int lm_syscall_stat(const struct micro_test *t, const struct micro_opts *o,
		    struct micro_result *r)
{
	(void)t;
	return path_test(o, r, run_stat);
}

int lm_syscall_open(const struct micro_test *t, const struct micro_opts *o,
		    struct micro_result *r)
{
	(void)t;
	return path_test(o, r, run_open);
}

/* ---- select on 100 descriptors ---- */

#define SELECT_FDS 100

struct sel_ctx { int fd[SELECT_FDS]; int maxfd; int nfds; int want_write; };

static int run_select(void *ctx, uint64_t n, char *why)
{
	struct sel_ctx *c = ctx;
	fd_set set, work;
	FD_ZERO(&set);
	for (int i = 0; i < c->nfds; i++)
		FD_SET(c->fd[i], &set);
	for (uint64_t i = 0; i < n; i++) {
		struct timeval tv = { 0, 0 };
		work = set;
		if (select(c->maxfd + 1, c->want_write ? NULL : &work,
			   c->want_write ? &work : NULL, NULL, &tv) < 0) {
			snprintf(why, 160, "select: %s", strerror(errno));
			return -1;
		}
	}
	return 0;
}

static void sel_close(struct sel_ctx *c)
{
	for (int i = 0; i < c->nfds; i++)
		close(c->fd[i]);
	c->nfds = 0;
}

static int sel_measure(const struct micro_opts *o, struct sel_ctx *c, struct micro_result *r)
{
	if (c->maxfd >= FD_SETSIZE)
		return lm_note(r, 0, "descriptor %d is past FD_SETSIZE (%d)", c->maxfd, FD_SETSIZE);
	struct harness_bench b = { .run = run_select, .ctx = c, .unit = HARNESS_US,
				   .ops_per_iter = 1 };
	return harness_run(o, &b, r);
}

int lm_select_file(const struct micro_test *t, const struct micro_opts *o,
		   struct micro_result *r)
{
	(void)t;
	struct sel_ctx c = { .maxfd = -1, .want_write = 1 };
	char path[4096];
	if (make_file(o, "lat_select", 0, path, sizeof(path), r) < 0)
		return -1;
	int rc = 0;
	for (int i = 0; i < SELECT_FDS; i++) {
		int fd = open(path, O_RDWR);
		if (fd < 0) {
			rc = lm_note(r, lm_resource_errno(errno) ? 0 : -1,
				     "cannot open %d descriptors: %s", SELECT_FDS, strerror(errno));
			break;
		}
		c.fd[c.nfds++] = fd;
		if (fd > c.maxfd)
			c.maxfd = fd;
	}
	unlink(path);
	if (!r->skipped[0])
		rc = sel_measure(o, &c, r);
	sel_close(&c);
	return rc;
}

int lm_select_tcp(const struct micro_test *t, const struct micro_opts *o,
		  struct micro_result *r)
{
	(void)t;
	struct sel_ctx c = { .maxfd = -1 };
	struct sockaddr_in sa = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t len = sizeof(sa);
	int rc = 0;
	int ls = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (ls < 0 || bind(ls, (struct sockaddr *)&sa, sizeof(sa)) < 0 ||
	    listen(ls, SELECT_FDS + 8) < 0 || getsockname(ls, (struct sockaddr *)&sa, &len) < 0) {
		rc = lm_note(r, 0, "no TCP on 127.0.0.1: %s", strerror(errno));
		goto out;
	}
	/* 100 connected sockets; the kernel completes the handshakes into the
	 * listen queue, so no server process is needed for select to see them */
	for (int i = 0; i < SELECT_FDS; i++) {
		int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
		if (fd < 0 || connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
			int e = errno;
			if (fd >= 0)
				close(fd);
			rc = lm_note(r, lm_resource_errno(e) ? 0 : -1,
				     "cannot connect %d TCP sockets on 127.0.0.1: %s", SELECT_FDS,
				     strerror(e));
			goto out;
		}
		c.fd[c.nfds++] = fd;
		if (fd > c.maxfd)
			c.maxfd = fd;
	}
	rc = sel_measure(o, &c, r);
out:
	sel_close(&c);
	if (ls >= 0)
		close(ls);
	return rc;
}

/* ---- signals ---- */

static volatile sig_atomic_t caught;
static sigjmp_buf prot_env;

static void on_usr1(int sig)
{
	(void)sig;
	caught++;
}

static void on_segv(int sig)
{
	(void)sig;
	caught++;
	siglongjmp(prot_env, 1);
}

static int run_install(void *ctx, uint64_t n, char *why)
{
	(void)ctx;
	struct sigaction sa = { .sa_handler = on_usr1 }, old;
	sigemptyset(&sa.sa_mask);
	for (uint64_t i = 0; i < n; i++)
		if (sigaction(SIGUSR1, &sa, &old) < 0) {
			snprintf(why, 160, "sigaction: %s", strerror(errno));
			return -1;
		}
	return 0;
}

static int run_catch(void *ctx, uint64_t n, char *why)
{
	pid_t me = *(pid_t *)ctx;
	sig_atomic_t before = caught;
	for (uint64_t i = 0; i < n; i++)
		kill(me, SIGUSR1);
	if ((uint64_t)(caught - before) != n) {
		snprintf(why, 160, "%llu SIGUSR1 sent, %ld caught", (unsigned long long)n,
			 (long)(caught - before));
		return -1;
	}
	return 0;
}

static int run_send(void *ctx, uint64_t n, char *why)
{
	pid_t me = *(pid_t *)ctx;
	for (uint64_t i = 0; i < n; i++)
		if (kill(me, 0) < 0) {
			snprintf(why, 160, "kill(self, 0): %s", strerror(errno));
			return -1;
		}
	return 0;
}

int lm_sig_send(const struct micro_test *t, const struct micro_opts *o, struct micro_result *r)
{
	(void)t;
	pid_t me = getpid();
	struct harness_bench b = { .run = run_send, .ctx = &me, .unit = HARNESS_US,
				   .ops_per_iter = 1 };
	return harness_run(o, &b, r);
}

int lm_sig_install(const struct micro_test *t, const struct micro_opts *o,
		   struct micro_result *r)
{
	(void)t;
	struct sigaction old;
	sigaction(SIGUSR1, NULL, &old);
	struct harness_bench b = { .run = run_install, .unit = HARNESS_US, .ops_per_iter = 1 };
	int rc = harness_run(o, &b, r);
	sigaction(SIGUSR1, &old, NULL);
	return rc;
}

int lm_sig_catch(const struct micro_test *t, const struct micro_opts *o,
		 struct micro_result *r)
{
	(void)t;
	struct sigaction sa = { .sa_handler = on_usr1 }, old;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGUSR1, &sa, &old);
	pid_t me = getpid();
	struct harness_bench b = { .run = run_catch, .ctx = &me, .unit = HARNESS_US,
				   .ops_per_iter = 1 };
	int rc = harness_run(o, &b, r);
	sigaction(SIGUSR1, &old, NULL);
	return rc;
}

/* lmbench's "Signal handler overhead" (lat_sig catch): the round of
 * kill(self, SIGUSR1) and the handler, less the send alone (kill(self, 0))
 * measured just before it.  lmbench takes its medians and subtracts
 * them; here the send's median is taken from every interval of the
 * round, so the median is lmbench's difference and the spread that of
 * the round. */
int lm_sig_hndl(const struct micro_test *t, const struct micro_opts *o, struct micro_result *r)
{
	(void)t;
	pid_t me = getpid();
	struct harness_samples send_s, catch_s;
	struct micro_result send_r;
	char why[160];
	struct harness_bench send_b = { .run = run_send, .ctx = &me, .unit = HARNESS_US,
					.ops_per_iter = 1 };
	struct harness_bench catch_b = { .run = run_catch, .ctx = &me, .unit = HARNESS_US,
					 .ops_per_iter = 1 };
	if (harness_measure(o, &send_b, &send_s, why) < 0 ||
	    harness_summarize(send_s.v, send_s.n, &send_r) < 0)
		return lm_note(r, -1, "the send: %s", why[0] ? why : "no samples");
	struct sigaction sa = { .sa_handler = on_usr1 }, old;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGUSR1, &sa, &old);
	int rc = harness_measure(o, &catch_b, &catch_s, why);
	sigaction(SIGUSR1, &old, NULL);
	if (rc < 0)
		return lm_note(r, -1, "%s", why);
	for (unsigned i = 0; i < catch_s.n; i++) {
		catch_s.v[i] -= send_r.value;
		if (!(catch_s.v[i] > 0))
			return lm_note(r, -1, "the send (%.3f us) is not smaller than the send and "
				       "the handler (%.3f us); no figure", send_r.value,
				       catch_s.v[i] + send_r.value);
	}
	if (harness_summarize(catch_s.v, catch_s.n, r) < 0)
		return lm_note(r, -1, "no samples");
	return 0;
}

static int run_prot(void *ctx, uint64_t n, char *why)
{
	volatile char *page = ctx;
	sig_atomic_t before = caught;
	for (volatile uint64_t i = 0; i < n; i++) {
		if (sigsetjmp(prot_env, 0) == 0)
			page[0] = 1;        /* faults: the page is read-only */
	}
	if ((uint64_t)(caught - before) != n) {
		snprintf(why, 160, "%llu writes to a read-only page, %ld faults caught",
			 (unsigned long long)n, (long)(caught - before));
		return -1;
	}
	return 0;
}

int lm_sig_prot(const struct micro_test *t, const struct micro_opts *o,
		struct micro_result *r)
{
	(void)t;
	char path[4096];
	if (make_file(o, "lat_sig", 4096, path, sizeof(path), r) < 0)
		return -1;
	int fd = open(path, O_RDONLY);
	unlink(path);
	if (fd < 0)
		return lm_note(r, -1, "cannot open %s: %s", path, strerror(errno));
	void *page = mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, 0);
	close(fd);
	if (page == MAP_FAILED)
		return lm_note(r, -1, "mmap of a file page: %s", strerror(errno));
	/* SA_NODEFER: the handler leaves by siglongjmp without restoring a mask */
	struct sigaction sa = { .sa_handler = on_segv, .sa_flags = SA_NODEFER }, old;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGSEGV, &sa, &old);
	struct harness_bench b = { .run = run_prot, .ctx = page, .unit = HARNESS_US,
				   .ops_per_iter = 1 };
	int rc = harness_run(o, &b, r);
	sigaction(SIGSEGV, &old, NULL);
	munmap(page, 4096);
	return rc;
}

/* ---- processes ---- */

static int run_proc(void *ctx, uint64_t n, char *why)
{
	int kind = *(const int *)ctx;
	static char *const exec_argv[] = { "true", NULL };
	static char *const sh_argv[] = { "sh", "-c", "/bin/true", NULL };
	for (uint64_t i = 0; i < n; i++) {
		pid_t pid = fork();
		if (pid < 0) {
			snprintf(why, 160, "fork: %s", strerror(errno));
			return -1;
		}
		if (pid == 0) {
			if (kind == LM_PROC_EXEC)
				execve("/bin/true", exec_argv, environ);
			else if (kind == LM_PROC_SH)
				execve("/bin/sh", sh_argv, environ);
			_exit(kind == LM_PROC_FORK ? 0 : 127);
		}
		micro_child_add(pid);
		int st = micro_reap(pid);
		if (st < 0 || !WIFEXITED(st) || WEXITSTATUS(st) != 0) {
			snprintf(why, 160, "child %ld ended with status %#x", (long)pid, st);
			return -1;
		}
	}
	return 0;
}

int lm_proc(const struct micro_test *t, const struct micro_opts *o, struct micro_result *r)
{
	const int *kind = t->arg;
	if (*kind != LM_PROC_FORK && access("/bin/true", X_OK) < 0)
		return lm_note(r, 0, "no /bin/true to execute: %s", strerror(errno));
	if (*kind == LM_PROC_SH && access("/bin/sh", X_OK) < 0)
		return lm_note(r, 0, "no /bin/sh: %s", strerror(errno));
	pid_t pid = fork();    /* can we fork at all? */
	if (pid < 0)
		return lm_note(r, 0, "cannot fork: %s", strerror(errno));
	if (pid == 0)
		_exit(0);
	micro_child_add(pid);
	micro_reap(pid);
	struct harness_bench b = { .run = run_proc, .ctx = (void *)kind, .unit = HARNESS_US,
				   .ops_per_iter = 1 };
	return harness_run(o, &b, r);
}
