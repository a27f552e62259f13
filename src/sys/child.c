/* kbench - running kbench itself as a child for one measured run
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"
#include "cli.h"
#include "sys/child.h"
#include "sys/memcg.h"
#include "sys/clock.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define STOP_GRACE_S 15

const char *child_self(void)
{
	static char self[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n <= 0)   /* no /proc: main's argv[0] (glibc keeps it), else PATH */
		return program_invocation_name && *program_invocation_name ?
		       program_invocation_name : "kbench";
	self[n] = '\0';
	return self;
}

static void last_line(const char *log, char *dst, size_t n)
{
	FILE *f = fopen(log, "re");
	char line[1024];
	dst[0] = '\0';
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		size_t len = strcspn(line, "\r\n");
		line[len] = '\0';
		if (line[strspn(line, " \t")] && n > 0) {
			/* keep what fits: a long line is cut, not lost */
			size_t m = len < n - 1 ? len : n - 1;
			memcpy(dst, line, m);
			dst[m] = '\0';
		}
	}
	fclose(f);
}

static int decode(int ws)
{
	if (WIFEXITED(ws))
		return WEXITSTATUS(ws);
	if (WIFSIGNALED(ws))
		return 128 + WTERMSIG(ws);
	return 1;
}

int child_run(const char *exe, const char *const *args, const char *out, const char *err,
	      volatile sig_atomic_t *stop, struct child_result *r)
{
	return child_run_in(exe, args, out, err, NULL, stop, r);
}

int child_run_in(const char *exe, const char *const *args, const char *out, const char *err,
		 const struct memcg *cg, volatile sig_atomic_t *stop, struct child_result *r)
{
	size_t n = 0;
	while (args[n])
		n++;
	const char **argv = calloc(n + 2, sizeof(*argv));
	if (!argv)
		return -1;
	argv[0] = exe;
	memcpy(argv + 1, args, n * sizeof(*argv));
	memset(r, 0, sizeof(*r));
	fflush(NULL);
	double t0 = kb_now_s();
	pid_t parent = getpid();
	pid_t pid = fork();
	if (pid < 0) {
		free(argv);
		return -1;
	}
	if (pid == 0) {
		/* a parent killed outright (SIGKILL) cannot stop its child: the
		 * kernel sends it SIGTERM then, so no orphaned run goes on */
		if (prctl(PR_SET_PDEATHSIG, SIGTERM) < 0 || getppid() != parent)
			_exit(127);
		/* into its memory cgroup before it runs anything */
		if (cg && memcg_join(cg, 0) != 0)
			_exit(127);
		int in = open("/dev/null", O_RDONLY | O_CLOEXEC);
		int ofd = open(out, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
		int efd = strcmp(out, err) ? open(err, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600)
					   : ofd;
		if (in < 0 || ofd < 0 || efd < 0 || dup2(in, 0) < 0 || dup2(ofd, 1) < 0 ||
		    dup2(efd, 2) < 0)
			_exit(127);
		cli_start_sigpipe();  /* the child gets SIGPIPE as kbench did */
		if (strchr(exe, '/'))
			execv(exe, (char *const *)argv);
		else
			execvp(exe, (char *const *)argv);
		fprintf(stderr, "cannot execute %s: %s\n", exe, strerror(errno));
		_exit(127);
	}
	free(argv);
	int ws = 0, signalled = 0;
	double kill_at = 0;
	for (;;) {
		pid_t w = waitpid(pid, &ws, signalled ? WNOHANG : 0);
		if (w == pid)
			break;
		if (w < 0 && errno != EINTR) {
			ws = 0;
			break;
		}
		if (*stop && !signalled) {
			kill(pid, SIGTERM);
			signalled = 1;
			kill_at = kb_now_s() + STOP_GRACE_S;
		}
		if (signalled) {
			if (kb_now_s() >= kill_at) {
				kill(pid, SIGKILL);
				kill_at = kb_now_s() + 3600;
			}
			struct timespec ts = { 0, 50 * 1000 * 1000 };
			nanosleep(&ts, NULL);
		}
	}
	r->seconds = kb_now_s() - t0;
	r->status = decode(ws);
	last_line(err, r->last_line, sizeof(r->last_line));
	if (!r->last_line[0] && strcmp(out, err))
		last_line(out, r->last_line, sizeof(r->last_line));
	return 0;
}
