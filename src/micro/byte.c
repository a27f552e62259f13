/* kbench - micro: the BYTE UNIX Benchmarks family (UnixBench 4.1 and 5)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The tests, their methods and sources (for the manual):
 *
 * Every test counts loops over a fixed duration (harness_fixed.h): the
 * body runs until a SIGALRM timer ends the sample; the rate is whole
 * loops over the time they took.  Samples per test and durations are
 * UnixBench 5's (duration D = --duration, default 10 s):
 *   10 samples of D: Dhrystone, Whetstone, Pipe Throughput, Pipe-based
 *     Context Switching, System Call Overhead;
 *   3 samples of 3 D: Execl, Process Creation, File Copy/Read/Write;
 *   3 samples of 6 D: Shell Scripts;  3 of 2 D: Recursion;
 *   3 samples of D: Arithmetic, select.
 *   --quick: 3 samples of 0.2 s each for every test.
 * The samples combine as UnixBench 5's Run script does: the worst third
 * (int(n/3) lowest rates) is dropped and the figure is the geometric mean
 * of the rest; "(10.0 s, 7 samples)" gives the mean time and the count of
 * the kept samples, the spread (min, max, CoV) is of all samples.  With
 * --copies N, N copies run at once in separate processes; their loops
 * are added up and divided by the time from the first copy's start to
 * the last one's end (UnixBench's multi-copy score, without crediting
 * late starters as if each had run alone).
 *
 * Dhrystone 2 using register variables (byte_dhry2, lps): Dhrystone 2.1
 *   loops, kbench's own code from Weicker's description (dhry.h); the
 *   final state Dhrystone specifies is checked after every sample.
 * Double-Precision Whetstone (byte_whet, MWIPS): the Curnow & Wichmann
 *   modules with their weights in double precision, 10^7 Whetstone
 *   instructions per pass (whet.h); the module results are checked.
 * Execl Throughput (byte_execl, lps): BYTE's execl re-executes itself; a
 *   kbench process cannot, so each loop spawns the running kbench binary
 *   (/proc/self/exe) as `kbench --version`, output to /dev/null, with
 *   posix_spawn (vfork-style, so the copy's size does not matter) and
 *   waits for it; the loop is one exec of a small program plus process
 *   start and exit, like BYTE's.
 * File Copy|Read|Write B bufsize M maxblocks (byte_fcopy_B, byte_fread_B,
 *   byte_fwrite_B; KBps, KB = 1024 bytes): UnixBench's fstime method: a
 *   file of M x 1024 bytes in the temporary directory; write: write B-byte
 *   buffers, rewinding at M KB; read: read it back in B-byte buffers,
 *   rewinding at its end; copy: read B bytes from it and write them to a
 *   second file, rewinding both at the end.  The read and copy files are
 *   written and synced before the timer starts.  The files are unlinked
 *   as soon as they are open.  B/M: 1024/2000, 256/500, 4096/8000.
 * Pipe Throughput (byte_pipe, lps): one process writes 512 bytes to a
 *   pipe and reads them back; one loop = one write + one read (BYTE pipe.c).
 * Pipe-based Context Switching (byte_context, lps): two processes pass an
 *   increasing counter back and forth over two pipes, each checking it
 *   (BYTE context1.c); one loop = one round trip.
 * Process Creation (byte_spawn, lps): fork, the child exits at once, the
 *   parent waits (BYTE spawn.c).
 * Shell Scripts (N concurrent) (byte_shell1, byte_shell8, byte_shell16;
 *   lpm = loops per minute): one loop runs kbench's own /bin/sh script
 *   that starts N jobs at once and waits for them (BYTE looper + multi.sh);
 *   each job sorts a 20-times repeated text file, runs od on the result
 *   and sorts that numerically, greps "the" through tee into wc, and
 *   removes its files.  LC_ALL=C.  Needs /bin/sh, sort, od, grep, tee, wc,
 *   rm; skipped without them.  The script runs in a process group of its
 *   own and takes its jobs along when its copy dies; the jobs reach their
 *   directory through the copy's descriptor (/proc/PID/fd/N), so nothing
 *   they do after a stop can leave a file behind.
 * System Call Overhead (byte_syscall, lps): one loop = close(dup(0)),
 *   getppid(), getuid(), umask(022) (UnixBench 5 syscall.c "mix").
 * Arithmetic Test (short|int|long|float|double), Arithoh (byte_arith_*,
 *   byte_arithoh; lps): BYTE arith.c: one loop sums i*i/(i*i-1) for i = 2
 *   to 101 in the type; arithoh is the same loop without the arithmetic
 *   (its overhead).  A start value read from a volatile and the result fed
 *   to a volatile sink keep the compiler from folding the loop.
 * Recursion Test -- Tower of Hanoi (byte_hanoi, lps): one loop moves 10
 *   disks recursively (BYTE hanoi.c); the counts on the pegs are checked.
 * select() on N fds (byte_select_10, byte_select_100; lps): one loop is a
 *   select() for reading with zero timeout on N pipe read ends that all
 *   have data, which must report N ready (UnixBench's optional "select"
 *   test idea; kbench's own method).
 *
 * Baselines (byteindex.h): byte4 and unixbench5, both the SPARCstation
 * 20-61 figures; unixbench5 also indexes Shell Scripts (1 concurrent).
 */
#include "config.h"
#include "micro/byte.h"
#include "micro/dhry.h"
#include "micro/harness.h"
#include "micro/harness_fixed.h"
#include "micro/micro.h"
#include "micro/whet.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <spawn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/select.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

/* one row's parameters */
struct byte_arg {
	const struct fixed_ops *ops;
	enum fixed_class cls;
	double per;             /* 1: per second, 60: per minute */
	long p1, p2, p3;        /* the test's own numbers */
};

static int byte_run(const struct micro_test *t, const struct micro_opts *o,
		    struct micro_result *r)
{
	const struct byte_arg *a = t->arg;
	return fixed_run(a->ops, a, o, a->cls, a->per, r);
}

#define ERR(...) (snprintf(err, errlen, __VA_ARGS__), -1)
/* a setup that finds the temporary directory's file system full: the test
 * cannot run here (a skip, as the lmbench file tests do), not a failure */
#define SETUP_ERR(e, ...) \
	(snprintf(err, errlen, __VA_ARGS__), (e) == ENOSPC || (e) == EDQUOT ? 1 : -1)

/* ---- Dhrystone ---- */

static int dhry_setup(const void *arg, const struct micro_opts *o, void **state, char *err,
		      size_t errlen)
{
	(void)arg, (void)o, (void)state, (void)err, (void)errlen;
	dhry_init();
	return 0;
}

static int dhry_body(void *state, const void *arg, volatile sig_atomic_t *stop, double *amount,
		     char *err, size_t errlen)
{
	(void)state, (void)arg;
	*amount = (double)dhry_run_until(stop);
	return dhry_check(err, errlen);
}

static const struct fixed_ops dhry_ops = { dhry_setup, dhry_body, NULL };

/* ---- Whetstone ---- */

static int whet_body(void *state, const void *arg, volatile sig_atomic_t *stop, double *amount,
		     char *err, size_t errlen)
{
	(void)state, (void)arg;
	struct whet_state s;
	whet_init(&s);
	unsigned long n = whet_run_until(&s, stop);
	if (s.cj != 1 || s.ij != 1 || s.ik != 2 || s.il != 3 || s.ar[0] != 3.0 ||
	    s.ar[1] != 2.0 || s.ar[2] != 3.0)
		return ERR("Whetstone check: module results are wrong");
	*amount = (double)n * WHET_MWI_PER_PASS;
	return 0;
}

static const struct fixed_ops whet_ops = { NULL, whet_body, NULL };

/* ---- Execl ---- */

static const char *execl_program = "/proc/self/exe";

void byte_set_execl_program(const char *path)
{
	execl_program = path;
}

static int execl_setup(const void *arg, const struct micro_opts *o, void **state, char *err,
		       size_t errlen)
{
	(void)arg, (void)o, (void)state;
	if (access(execl_program, X_OK))
		return snprintf(err, errlen, "%s is not executable here", execl_program), 1;
	return 0;
}

static int execl_body(void *state, const void *arg, volatile sig_atomic_t *stop, double *amount,
		      char *err, size_t errlen)
{
	(void)state, (void)arg;
	posix_spawn_file_actions_t fa;
	char *const argv[] = { (char *)"kbench", (char *)"--version", NULL };
	unsigned long n = 0;
	int rc = 0;

	if (posix_spawn_file_actions_init(&fa))
		return ERR("posix_spawn_file_actions_init failed");
	if (posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0) ||
	    posix_spawn_file_actions_adddup2(&fa, 1, 2)) {
		posix_spawn_file_actions_destroy(&fa);
		return ERR("posix_spawn_file_actions failed");
	}
	do {
		pid_t pid;
		int e = posix_spawn(&pid, execl_program, &fa, NULL, argv, environ);
		if (e) {
			rc = ERR("exec of %s: %s", execl_program, strerror(e));
			break;
		}
		int st;
		while (waitpid(pid, &st, 0) < 0)
			if (errno != EINTR) {
				st = -1;
				break;
			}
		if (st == -1 || !WIFEXITED(st) || WEXITSTATUS(st) != 0) {
			rc = ERR("%s --version did not exit 0", execl_program);
			break;
		}
		n++;
	} while (!*stop);
	posix_spawn_file_actions_destroy(&fa);
	*amount = (double)n;
	return rc;
}

static const struct fixed_ops execl_ops = { execl_setup, execl_body, NULL };

/* ---- File Copy / Read / Write ---- */

enum fs_mode { FS_COPY, FS_READ, FS_WRITE };

struct fs_state {
	int f, g;               /* source (or the written file), copy target */
	char *buf;
	size_t bufsize;
	off_t fsize;            /* maxblocks x 1024 bytes */
};

/* Open a new file in dir and unlink it at once: nothing is left behind
 * whatever happens to the process. */
static int anon_file(const char *dir, int idx, char *err, size_t errlen)
{
	char path[PATH_MAX];
	if (snprintf(path, sizeof path, "%s/byte-fs-%ld-%d", dir, (long)getpid(), idx) >=
	    (int)sizeof path)
		return ERR("temporary directory path too long");
	int fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0)
		return ERR("%s: %s", path, strerror(errno));
	unlink(path);
	return fd;
}

static void fs_cleanup(void *state)
{
	struct fs_state *s = state;
	if (!s)
		return;
	if (s->f >= 0)
		close(s->f);
	if (s->g >= 0)
		close(s->g);
	free(s->buf);
	free(s);
}

static int fs_setup(const void *arg, const struct micro_opts *o, void **state, char *err,
		    size_t errlen)
{
	const struct byte_arg *a = arg;
	enum fs_mode mode = (enum fs_mode)a->p1;
	struct fs_state *s = calloc(1, sizeof *s);
	if (!s)
		return ERR("out of memory");
	s->f = s->g = -1;
	s->bufsize = (size_t)a->p2;
	s->fsize = (off_t)a->p3 * 1024;
	*state = s;
	if (!o->tmpdir)
		return ERR("no temporary directory");
	s->buf = aligned_alloc(4096, 8192);
	if (!s->buf)
		return ERR("out of memory");
	for (size_t i = 0; i < s->bufsize; i++)
		s->buf[i] = (char)(i & 0xff);
	s->f = anon_file(o->tmpdir, 0, err, errlen);
	if (s->f < 0)
		return -1;
	if (mode == FS_COPY) {
		s->g = anon_file(o->tmpdir, 1, err, errlen);
		if (s->g < 0)
			return -1;
	}
	if (mode == FS_WRITE)
		return 0;
	/* the file to read: written once, synced, read once (fstime's priming) */
	for (off_t pos = 0; pos < s->fsize; pos += (off_t)s->bufsize)
		if (micro_write_all(s->f, s->buf, s->bufsize))
			return SETUP_ERR(errno, "writing the test file: %s",
					 strerror(errno));
	if (fsync(s->f))
		return ERR("fsync: %s", strerror(errno));
	if (lseek(s->f, 0, SEEK_SET) < 0)
		return ERR("lseek: %s", strerror(errno));
	for (;;) {
		ssize_t got = read(s->f, s->buf, s->bufsize);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0)
			return ERR("reading the test file: %s", strerror(errno));
		if (got == 0)
			break;
	}
	if (lseek(s->f, 0, SEEK_SET) < 0)
		return ERR("lseek: %s", strerror(errno));
	return 0;
}

static int fs_body(void *state, const void *arg, volatile sig_atomic_t *stop, double *amount,
		   char *err, size_t errlen)
{
	const struct byte_arg *a = arg;
	struct fs_state *s = state;
	enum fs_mode mode = (enum fs_mode)a->p1;
	unsigned long long bytes = 0;
	off_t pos = 0;

	do {
		if (mode == FS_WRITE) {
			if (micro_write_all(s->f, s->buf, s->bufsize))
				return ERR("write: %s", strerror(errno));
			bytes += s->bufsize;
			pos += (off_t)s->bufsize;
			if (pos >= s->fsize) {
				if (lseek(s->f, 0, SEEK_SET) < 0)
					return ERR("lseek: %s", strerror(errno));
				pos = 0;
			}
			continue;
		}
		ssize_t got = read(s->f, s->buf, s->bufsize);
		if (got < 0) {
			if (errno == EINTR)
				continue;
			return ERR("read: %s", strerror(errno));
		}
		if ((size_t)got < s->bufsize) {         /* end of the file: rewind */
			if (mode == FS_READ)
				bytes += (unsigned long long)got;
			if (lseek(s->f, 0, SEEK_SET) < 0 ||
			    (mode == FS_COPY && lseek(s->g, 0, SEEK_SET) < 0))
				return ERR("lseek: %s", strerror(errno));
			continue;
		}
		if (mode == FS_COPY && micro_write_all(s->g, s->buf, s->bufsize))
			return ERR("write: %s", strerror(errno));
		bytes += s->bufsize;
	} while (!*stop);
	*amount = (double)bytes / 1024.0;
	return 0;
}

static const struct fixed_ops fs_ops = { fs_setup, fs_body, fs_cleanup };

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

static const struct fixed_ops pipe_ops = { pipe_setup, pipe_body, fds_cleanup };

/* ---- Pipe-based Context Switching ---- */

/* fd[0]: read replies, fd[1]: write the counter */
static int context_setup(const void *arg, const struct micro_opts *o, void **state, char *err,
			 size_t errlen)
{
	(void)arg, (void)o;
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

static const struct fixed_ops context_ops = { context_setup, context_body, fds_cleanup };

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

static const struct fixed_ops spawn_ops = { NULL, spawn_body, NULL };

/* ---- Shell Scripts ---- */

static const char shell_script[] =
	"#!/bin/sh\n"
	"# kbench micro byte_shell: one loop = $2 jobs at once in directory $1\n"
	"dir=$1\n"
	"n=$2\n"
	"# stopped (kbench's copy gone): take every job of the group along\n"
	"trap 'trap - TERM; kill -KILL 0' TERM\n"
	"i=1\n"
	"pids=\n"
	"while [ \"$i\" -le \"$n\" ]; do\n"
	"\tjob=\"$dir/job.$i\"\n"
	"\t( sort \"$dir/input\" >\"$job.sorted\" &&\n"
	"\t  od \"$job.sorted\" | sort -n -k 1 >\"$job.od\" &&\n"
	"\t  grep the \"$job.sorted\" | tee \"$job.grep\" | wc >\"$job.wc\" &&\n"
	"\t  rm -f \"$job.sorted\" \"$job.od\" \"$job.grep\" \"$job.wc\" ) &\n"
	"\tpids=\"$pids $!\"\n"
	"\ti=$((i + 1))\n"
	"done\n"
	"rc=0\n"
	"for p in $pids; do wait \"$p\" || rc=1; done\n"
	"exit $rc\n";

static const char *const shell_words[] = {
	"the", "kernel", "file", "system", "of", "a", "page", "cache", "and", "disk",
	"process", "to", "write", "read", "block", "in", "inode", "the", "queue", "lock",
};

struct shell_state {
	char dir[PATH_MAX];
	char script[PATH_MAX + 16];
	char nstr[16];
	bool made;
	int dirfd;              /* the directory, held by the copy */
	char jobdir[64];        /* what the script works in: the copy's /proc fd link */
};

static bool in_path(const char *prog)
{
	const char *path = getenv("PATH");
	if (!path || !*path)
		path = "/usr/bin:/bin";
	while (*path) {
		size_t len = strcspn(path, ":");
		char buf[PATH_MAX];
		if (len > 0 && len + strlen(prog) + 2 <= sizeof buf) {
			memcpy(buf, path, len);
			buf[len] = '/';
			strcpy(buf + len + 1, prog);
			if (access(buf, X_OK) == 0)
				return true;
		}
		path += len;
		if (*path == ':')
			path++;
	}
	return false;
}

static void shell_cleanup(void *state)
{
	struct shell_state *s = state;
	if (!s)
		return;
	if (s->dirfd >= 0)
		close(s->dirfd);
	if (s->made) {
		DIR *d = opendir(s->dir);
		if (d) {
			struct dirent *de;
			while ((de = readdir(d)))
				if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
					unlinkat(dirfd(d), de->d_name, 0);
			closedir(d);
		}
		rmdir(s->dir);
	}
	free(s);
}

static int write_file(const char *path, const char *text, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0)
		return -1;
	int rc = micro_write_all(fd, text, len);
	if (close(fd))
		rc = -1;
	return rc;
}

static int shell_setup(const void *arg, const struct micro_opts *o, void **state, char *err,
		       size_t errlen)
{
	const struct byte_arg *a = arg;
	static const char *const tools[] = { "sort", "od", "grep", "tee", "wc", "rm" };
	if (access("/bin/sh", X_OK))
		return snprintf(err, errlen, "no /bin/sh"), 1;
	for (size_t i = 0; i < sizeof tools / sizeof tools[0]; i++)
		if (!in_path(tools[i]))
			return snprintf(err, errlen, "no %s in PATH", tools[i]), 1;
	if (!o->tmpdir)
		return ERR("no temporary directory");
	struct shell_state *s = calloc(1, sizeof *s);
	if (!s)
		return ERR("out of memory");
	s->dirfd = -1;
	*state = s;
	snprintf(s->nstr, sizeof s->nstr, "%ld", a->p1);
	if (snprintf(s->dir, sizeof s->dir, "%s/byte-sh-%ld", o->tmpdir, (long)getpid()) >=
	    (int)sizeof s->dir)
		return ERR("temporary directory path too long");
	if (mkdir(s->dir, 0700))
		return SETUP_ERR(errno, "%s: %s", s->dir, strerror(errno));
	s->made = true;
	/* The jobs reach the directory only through this copy's descriptor
	 * (/proc/PID/fd/N): once the copy is gone (killed with kbench micro)
	 * a job still running can no longer make a file in it. */
	s->dirfd = open(s->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (s->dirfd < 0)
		return ERR("%s: %s", s->dir, strerror(errno));
	snprintf(s->jobdir, sizeof s->jobdir, "/proc/%ld/fd/%d", (long)getpid(), s->dirfd);
	struct stat sa, sb;
	if (stat(s->jobdir, &sa) || fstat(s->dirfd, &sb) || sa.st_ino != sb.st_ino ||
	    sa.st_dev != sb.st_dev)
		snprintf(s->jobdir, sizeof s->jobdir, "%s", "");     /* no /proc: the path */
	snprintf(s->script, sizeof s->script, "%s/script", s->dir);
	if (write_file(s->script, shell_script, sizeof shell_script - 1))
		return SETUP_ERR(errno, "%s: %s", s->script, strerror(errno));

	/* the input: 300 lines of words, repeated 20 times (as BYTE's tst.sh
	 * repeats its sort.src) */
	size_t cap = 20 * 300 * 80, len = 0;
	char *text = malloc(cap);
	if (!text)
		return ERR("out of memory");
	unsigned seed = 12345;
	char one[300 * 80];
	size_t olen = 0;
	for (int line = 0; line < 300; line++) {
		int words = 4 + (int)(seed % 7);
		for (int w = 0; w < words; w++) {
			seed = seed * 1103515245u + 12345u;
			const char *wd = shell_words[(seed >> 16) % (sizeof shell_words / sizeof shell_words[0])];
			olen += (size_t)snprintf(one + olen, sizeof one - olen, "%s%s", w ? " " : "", wd);
		}
		olen += (size_t)snprintf(one + olen, sizeof one - olen, " %d\n", line);
	}
	for (int r = 0; r < 20; r++) {
		memcpy(text + len, one, olen);
		len += olen;
	}
	char path[PATH_MAX + 16];
	snprintf(path, sizeof path, "%s/input", s->dir);
	int rc = write_file(path, text, len);
	int e = errno;
	free(text);
	if (rc)
		return SETUP_ERR(e, "%s: %s", path, strerror(e));
	return 0;
}

static int shell_body(void *state, const void *arg, volatile sig_atomic_t *stop, double *amount,
		      char *err, size_t errlen)
{
	(void)arg;
	struct shell_state *s = state;
	unsigned long n = 0;
	do {
		pid_t copy = getpid();
		pid_t p = micro_fork();
		if (p < 0)
			return ERR("fork: %s", strerror(errno));
		if (p == 0) {
			/* the script and its jobs in a group of their own; when the
			 * copy dies, SIGTERM makes the script kill the whole group */
			if (setpgid(0, 0))      /* never kill kbench's own group */
				_exit(126);
			prctl(PR_SET_PDEATHSIG, SIGTERM);
			if (getppid() != copy)
				_exit(1);
			setenv("LC_ALL", "C", 1);
			signal(SIGPIPE, SIG_DFL);
			execl("/bin/sh", "sh", s->script, s->jobdir[0] ? s->jobdir : s->dir, s->nstr,
			      (char *)NULL);
			_exit(127);
		}
		setpgid(p, p);
		int st = micro_reap(p);
		if (st == -1)
			return ERR("waitpid: %s", strerror(errno));
		if (!WIFEXITED(st) || WEXITSTATUS(st))
			return ERR("shell script failed (status %d)",
				   WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st));
		n++;
	} while (!*stop);
	*amount = (double)n;
	return 0;
}

static const struct fixed_ops shell_ops = { shell_setup, shell_body, shell_cleanup };

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

static const struct fixed_ops syscall_ops = { NULL, syscall_body, NULL };

/* ---- Arithmetic ---- */

static volatile int arith_seed;       /* always 0; the compiler cannot know */
static volatile double arith_sink;

#define ARITH_FN(name, T) \
	__attribute__((noinline)) static double name(int start) \
	{ \
		T x = 0, y = 0, z = 0; \
		for (int i = 2 + start; i <= 101 + start; i++) { \
			x = (T)i; \
			y = (T)(x * x); \
			z = (T)(z + y / (y - 1)); \
		} \
		return (double)x + (double)y + (double)z; \
	}
ARITH_FN(arith_short, short)
ARITH_FN(arith_int, int)
ARITH_FN(arith_long, long)
ARITH_FN(arith_float, float)
ARITH_FN(arith_double, double)

__attribute__((noinline)) static double arith_oh(int start)
{
	int x = 0;
	for (int i = 2 + start; i <= 101 + start; i++) {
		x = i;
		__asm__ volatile("" : : "r"(x));     /* keep the empty loop */
	}
	return x;
}

static double (*const arith_fns[])(int) = {
	arith_oh, arith_short, arith_int, arith_long, arith_float, arith_double,
};

/* the sum each function returns for start 0 */
static double arith_expect(int type)
{
	if (type == 0)
		return 101;
	double z = 0;
	for (int i = 2; i <= 101; i++) {
		double y = (double)i * i;
		switch (type) {
		case 1: case 2: case 3: z += (double)((long)y / ((long)y - 1)); break;
		case 4: z = (double)(float)(z + (float)y / ((float)y - 1)); break;
		default: z += y / (y - 1); break;
		}
	}
	return 101.0 + 101.0 * 101.0 + z;
}

static int arith_body(void *state, const void *arg, volatile sig_atomic_t *stop, double *amount,
		      char *err, size_t errlen)
{
	(void)state;
	const struct byte_arg *a = arg;
	double (*fn)(int) = arith_fns[a->p1];
	unsigned long n = 0;
	double last = 0;
	do {
		last = fn(arith_seed);
		arith_sink = last;
		n++;
	} while (!*stop);
	double want = arith_expect((int)a->p1);
	if (a->p1 == 4 ? (last - want > 1e-3 || want - last > 1e-3) : last != want)
		return ERR("arithmetic check: got %.6f, expected %.6f", last, want);
	*amount = (double)n;
	return 0;
}

static const struct fixed_ops arith_ops = { NULL, arith_body, NULL };

/* ---- Recursion (Tower of Hanoi) ---- */

#define HANOI_DISKS 10
static int hanoi_peg[4];

__attribute__((noinline)) static void hanoi_move(int n, int from, int to)
{
	if (n == 1) {
		hanoi_peg[from]--;
		hanoi_peg[to]++;
		return;
	}
	int other = 6 - from - to;
	hanoi_move(n - 1, from, other);
	hanoi_move(1, from, to);
	hanoi_move(n - 1, other, to);
}

static int hanoi_body(void *state, const void *arg, volatile sig_atomic_t *stop, double *amount,
		      char *err, size_t errlen)
{
	(void)state, (void)arg;
	unsigned long n = 0;
	hanoi_peg[1] = HANOI_DISKS;
	hanoi_peg[2] = hanoi_peg[3] = 0;
	do {
		int from = (n & 1) ? 3 : 1, to = 4 - from;
		hanoi_move(HANOI_DISKS, from, to);
		if (hanoi_peg[to] != HANOI_DISKS || hanoi_peg[from] != 0 || hanoi_peg[2] != 0)
			return ERR("Tower of Hanoi check: disks lost");
		n++;
	} while (!*stop);
	*amount = (double)n;
	return 0;
}

static const struct fixed_ops hanoi_ops = { NULL, hanoi_body, NULL };

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

static const struct fixed_ops select_ops = { select_setup, select_body, fds_cleanup };

/* ---- the table ---- */

#define A(ops, cls, per, p1, p2, p3) \
	(&(const struct byte_arg){ &(ops), (cls), (per), (p1), (p2), (p3) })
#define ROW(name, title, unit, what, method, arg) \
	{ name, title, MICRO_BYTE, unit, true, what, method, byte_run, arg }

const struct micro_test micro_byte_tests[] = {
	ROW("byte_dhry2", "Dhrystone 2 using register variables", "lps",
	    "one Dhrystone 2.1 loop", "BYTE/UnixBench dhry2reg; Weicker's Dhrystone 2.1",
	    A(dhry_ops, FIXED_SHORT, 1, 0, 0, 0)),
	ROW("byte_whet", "Double-Precision Whetstone", "MWIPS",
	    "Curnow & Wichmann's modules, double precision, 10^7 Whetstone instructions a pass",
	    "BYTE/UnixBench whetstone-double", A(whet_ops, FIXED_SHORT, 1, 0, 0, 0)),
	ROW("byte_execl", "Execl Throughput", "lps",
	    "posix_spawn of kbench --version and wait", "BYTE/UnixBench execl (kbench variant)",
	    A(execl_ops, FIXED_LONG, 1, 0, 0, 0)),
	ROW("byte_fcopy_1024", "File Copy 1024 bufsize 2000 maxblocks", "KBps",
	    "read and write 1024 bytes, 2000 KiB file (KB = 1024 bytes)", "UnixBench fstime -c",
	    A(fs_ops, FIXED_LONG, 1, FS_COPY, 1024, 2000)),
	ROW("byte_fcopy_256", "File Copy 256 bufsize 500 maxblocks", "KBps",
	    "read and write 256 bytes, 500 KiB file (KB = 1024 bytes)", "UnixBench fstime -c",
	    A(fs_ops, FIXED_LONG, 1, FS_COPY, 256, 500)),
	ROW("byte_fcopy_4096", "File Copy 4096 bufsize 8000 maxblocks", "KBps",
	    "read and write 4096 bytes, 8000 KiB file (KB = 1024 bytes)", "UnixBench fstime -c",
	    A(fs_ops, FIXED_LONG, 1, FS_COPY, 4096, 8000)),
	ROW("byte_fread_1024", "File Read 1024 bufsize 2000 maxblocks", "KBps",
	    "read 1024 bytes, 2000 KiB file (KB = 1024 bytes)", "UnixBench fstime -r",
	    A(fs_ops, FIXED_LONG, 1, FS_READ, 1024, 2000)),
	ROW("byte_fread_256", "File Read 256 bufsize 500 maxblocks", "KBps",
	    "read 256 bytes, 500 KiB file (KB = 1024 bytes)", "UnixBench fstime -r",
	    A(fs_ops, FIXED_LONG, 1, FS_READ, 256, 500)),
	ROW("byte_fread_4096", "File Read 4096 bufsize 8000 maxblocks", "KBps",
	    "read 4096 bytes, 8000 KiB file (KB = 1024 bytes)", "UnixBench fstime -r",
	    A(fs_ops, FIXED_LONG, 1, FS_READ, 4096, 8000)),
	ROW("byte_fwrite_1024", "File Write 1024 bufsize 2000 maxblocks", "KBps",
	    "write 1024 bytes, 2000 KiB file (KB = 1024 bytes)", "UnixBench fstime -w",
	    A(fs_ops, FIXED_LONG, 1, FS_WRITE, 1024, 2000)),
	ROW("byte_fwrite_256", "File Write 256 bufsize 500 maxblocks", "KBps",
	    "write 256 bytes, 500 KiB file (KB = 1024 bytes)", "UnixBench fstime -w",
	    A(fs_ops, FIXED_LONG, 1, FS_WRITE, 256, 500)),
	ROW("byte_fwrite_4096", "File Write 4096 bufsize 8000 maxblocks", "KBps",
	    "write 4096 bytes, 8000 KiB file (KB = 1024 bytes)", "UnixBench fstime -w",
	    A(fs_ops, FIXED_LONG, 1, FS_WRITE, 4096, 8000)),
	ROW("byte_pipe", "Pipe Throughput", "lps", "write and read 512 bytes on one pipe",
	    "BYTE/UnixBench pipe", A(pipe_ops, FIXED_SHORT, 1, 0, 0, 0)),
	ROW("byte_context", "Pipe-based Context Switching", "lps",
	    "one round trip of a counter between two processes over two pipes",
	    "BYTE/UnixBench context1", A(context_ops, FIXED_SHORT, 1, 0, 0, 0)),
	ROW("byte_spawn", "Process Creation", "lps", "fork, child exits, wait",
	    "BYTE/UnixBench spawn", A(spawn_ops, FIXED_LONG, 1, 0, 0, 0)),
	ROW("byte_shell1", "Shell Scripts (1 concurrent)", "lpm",
	    "one sort/od/grep/tee/wc shell job", "BYTE/UnixBench shell1 (looper, multi.sh)",
	    A(shell_ops, FIXED_SHELL, 60, 1, 0, 0)),
	ROW("byte_shell8", "Shell Scripts (8 concurrent)", "lpm",
	    "8 sort/od/grep/tee/wc shell jobs at once", "BYTE/UnixBench shell8 (looper, multi.sh)",
	    A(shell_ops, FIXED_SHELL, 60, 8, 0, 0)),
	ROW("byte_shell16", "Shell Scripts (16 concurrent)", "lpm",
	    "16 sort/od/grep/tee/wc shell jobs at once", "UnixBench shell16 (looper, multi.sh)",
	    A(shell_ops, FIXED_SHELL, 60, 16, 0, 0)),
	ROW("byte_syscall", "System Call Overhead", "lps",
	    "close(dup(0)), getppid(), getuid(), umask()", "UnixBench 5 syscall mix",
	    A(syscall_ops, FIXED_SHORT, 1, 0, 0, 0)),
	ROW("byte_arithoh", "Arithoh", "lps", "the arithmetic loop without arithmetic",
	    "BYTE/UnixBench arithoh", A(arith_ops, FIXED_SHORT3, 1, 0, 0, 0)),
	ROW("byte_arith_short", "Arithmetic Test (short)", "lps",
	    "sum of i*i/(i*i-1), i = 2..101, in short", "BYTE/UnixBench arith short",
	    A(arith_ops, FIXED_SHORT3, 1, 1, 0, 0)),
	ROW("byte_arith_int", "Arithmetic Test (int)", "lps",
	    "sum of i*i/(i*i-1), i = 2..101, in int", "BYTE/UnixBench arith int",
	    A(arith_ops, FIXED_SHORT3, 1, 2, 0, 0)),
	ROW("byte_arith_long", "Arithmetic Test (long)", "lps",
	    "sum of i*i/(i*i-1), i = 2..101, in long", "BYTE/UnixBench arith long",
	    A(arith_ops, FIXED_SHORT3, 1, 3, 0, 0)),
	ROW("byte_arith_float", "Arithmetic Test (float)", "lps",
	    "sum of i*i/(i*i-1), i = 2..101, in float", "BYTE/UnixBench arith float",
	    A(arith_ops, FIXED_SHORT3, 1, 4, 0, 0)),
	ROW("byte_arith_double", "Arithmetic Test (double)", "lps",
	    "sum of i*i/(i*i-1), i = 2..101, in double", "BYTE/UnixBench arith double",
	    A(arith_ops, FIXED_SHORT3, 1, 5, 0, 0)),
	ROW("byte_hanoi", "Recursion Test -- Tower of Hanoi", "lps",
	    "move 10 disks recursively", "BYTE/UnixBench hanoi",
	    A(hanoi_ops, FIXED_HANOI, 1, 0, 0, 0)),
	ROW("byte_select_10", "select() on 10 fds", "lps",
	    "select() with zero timeout on 10 ready pipes", "kbench, after UnixBench's select",
	    A(select_ops, FIXED_SHORT3, 1, 10, 0, 0)),
	ROW("byte_select_100", "select() on 100 fds", "lps",
	    "select() with zero timeout on 100 ready pipes", "kbench, after UnixBench's select",
	    A(select_ops, FIXED_SHORT3, 1, 100, 0, 0)),
	{ NULL, NULL, MICRO_BYTE, NULL, false, NULL, NULL, NULL, NULL },
};
