/* kbench - micro: BYTE's Shell Scripts test
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Shell Scripts (N concurrent) (byte_shell1, byte_shell8, byte_shell16;
 *   lpm = loops per minute): one loop runs kbench's own /bin/sh script
 *   that starts N jobs at once and waits for them (BYTE looper + multi.sh);
 *   each job is a /bin/sh of its own running BYTE's pipeline (tst.sh) on
 *   an 8546-byte text, the size of BYTE's sort.src (kbench's own words,
 *   not BYTE's file): sort it once, run od on the result and sort that
 *   numerically, grep "the" through tee into wc, remove its files.  LC_ALL=C.  Needs /bin/sh, sort, od, grep, tee, wc,
 *   rm; skipped without them.  The script runs in a process group of its
 *   own and takes its jobs along when its copy dies; the jobs reach their
 *   directory through the copy's descriptor (/proc/PID/fd/N), so nothing
 *   they do after a stop can leave a file behind.
 *
 * The script, its input, the jobs' files and what they write to standard
 * error (the file "stderr": its first line names a failed loop; nothing of
 * theirs reaches kbench's own standard error) live in one directory of
 * opts->tmpdir that the copy made and its cleanup removes.
 */
#include "config.h"
#include "micro/byte/byte_tests.h"
#include "micro/harness.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

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
	"\t/bin/sh \"$dir/job\" \"$dir/input\" \"$dir/job.$i\" &\n"
	"\tpids=\"$pids $!\"\n"
	"\ti=$((i + 1))\n"
	"done\n"
	"rc=0\n"
	"for p in $pids; do wait \"$p\" || rc=1; done\n"
	"exit $rc\n";

/* one job, a shell of its own as BYTE's tst.sh: $1 the input, $2 the
 * prefix of its files */
static const char job_script[] =
	"#!/bin/sh\n"
	"# kbench micro byte_shell: one job\n"
	"job=$2\n"
	"sort <\"$1\" >\"$job.sorted\" &&\n"
	"od \"$job.sorted\" | sort -n -k 1 >\"$job.od\" &&\n"
	"grep the \"$job.sorted\" | tee \"$job.grep\" | wc >\"$job.wc\" &&\n"
	"rm -f \"$job.sorted\" \"$job.od\" \"$job.grep\" \"$job.wc\"\n";

/* the input's size: BYTE's sort.src, 8546 bytes */
#define SHELL_INPUT_BYTES 8546

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

bool byte_in_path(const char *prog)
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

/* the most one job writes: its sorted copy of the input, od's lines of
 * it (about four times its size), grep's lines and wc's */
#define SHELL_JOB_ROOM (64 * 1024)

/* Write bytes of zeros to a new file at path (left for the caller to
 * remove).  Returns 0, or -1 with errno set. */
static int room_for(const char *path, size_t bytes)
{
	static const char zeros[4096];
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0)
		return -1;
	int rc = 0;
	for (size_t done = 0; rc == 0 && done < bytes; done += sizeof zeros)
		rc = micro_write_all(fd, zeros, sizeof zeros);
	int e = errno;
	if (close(fd) && rc == 0) {
		rc = -1;
		e = errno;
	}
	errno = e;
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
		if (!byte_in_path(tools[i]))
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

	snprintf(s->script, sizeof s->script, "%s/job", s->dir);
	if (write_file(s->script, job_script, sizeof job_script - 1))
		return SETUP_ERR(errno, "%s: %s", s->script, strerror(errno));
	snprintf(s->script, sizeof s->script, "%s/script", s->dir);

	/* the input: lines of words, SHELL_INPUT_BYTES long (BYTE's job
	 * sorts its 8546-byte sort.src once) */
	char text[SHELL_INPUT_BYTES + 128];
	size_t len = 0;
	unsigned seed = 12345;
	for (int line = 0; len < SHELL_INPUT_BYTES; line++) {
		char one[128];
		size_t olen = 0;
		int words = 4 + (int)(seed % 7);
		for (int w = 0; w < words; w++) {
			seed = seed * 1103515245u + 12345u;
			const char *wd = shell_words[(seed >> 16) % (sizeof shell_words / sizeof shell_words[0])];
			olen += (size_t)snprintf(one + olen, sizeof one - olen, "%s%s", w ? " " : "", wd);
		}
		olen += (size_t)snprintf(one + olen, sizeof one - olen, " %d\n", line);
		if (len + olen > SHELL_INPUT_BYTES) {
			/* the last line cut to the size, still a line */
			olen = SHELL_INPUT_BYTES - len;
			one[olen - 1] = '\n';
		}
		memcpy(text + len, one, olen);
		len += olen;
	}
	char path[PATH_MAX + 16];
	snprintf(path, sizeof path, "%s/input", s->dir);
	int rc = write_file(path, text, len);
	int e = errno;
	if (rc)
		return SETUP_ERR(e, "%s: %s", path, strerror(e));
	/* the room the jobs write in, tried once here: a file system too
	 * small for them skips the test instead of failing a job */
	snprintf(path, sizeof path, "%s/room", s->dir);
	if (room_for(path, (size_t)a->p1 * SHELL_JOB_ROOM) < 0) {
		e = errno;
		unlink(path);
		return SETUP_ERR(e, "room for the jobs' files: %s", strerror(e));
	}
	unlink(path);
	return 0;
}

/* The first line of file name in directory dirfd, without its newline, in
 * buf ("" when the file is missing or empty). */
static void first_line(int dirfd, const char *name, char *buf, size_t n)
{
	buf[0] = 0;
	int fd = openat(dirfd, name, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	ssize_t got = read(fd, buf, n - 1);
	close(fd);
	buf[got > 0 ? got : 0] = 0;
	buf[strcspn(buf, "\n")] = 0;
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
			/* what the script and its jobs say goes to a file of the
			 * directory, not kbench's standard error: a job cut short
			 * by a stop complains there, not into kbench's last line */
			int efd = openat(s->dirfd, "stderr", O_WRONLY | O_CREAT | O_TRUNC, 0600);
			if (efd < 0 || dup2(efd, STDERR_FILENO) < 0)
				_exit(126);
			execl("/bin/sh", "sh", s->script, s->jobdir[0] ? s->jobdir : s->dir, s->nstr,
			      (char *)NULL);
			_exit(127);
		}
		setpgid(p, p);
		int st = micro_reap(p);
		if (st == -1)
			return ERR("waitpid: %s", strerror(errno));
		if (!WIFEXITED(st) || WEXITSTATUS(st)) {
			char said[160];
			first_line(s->dirfd, "stderr", said, sizeof said);
			return ERR("shell script failed (status %d)%s%s",
				   WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st),
				   said[0] ? ": " : "", said);
		}
		n++;
	} while (!*stop);
	*amount = (double)n;
	return 0;
}

const struct fixed_ops byte_shell_ops = { shell_setup, shell_body, shell_cleanup };
