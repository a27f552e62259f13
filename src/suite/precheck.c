/* kbench - suite: what every job needs, checked before the first run
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Each check uses the rule the child itself applies, from its header
 * (load/rules.h's memory floor, disk.h's), so the suite refuses exactly what
 * the child would refuse, only before the series instead of after hours
 * of it.  The load floor needs the loadfile's largest ReadX or WriteX: the
 * loadfile is read here once (loadfile.h), as kbench load reads it.  A
 * load job's command line is checked by load itself (load_args_check:
 * its parser, its checks and its backend's, which also names the server
 * to reach), so nothing here knows a backend's options or their forms.
 */
#include "config.h"
#include "cli.h"
#include "disk/disk.h"
#include "load/load.h"
#include "resultsfile/escape.h"
#include "suite/jobs.h"
#include "suite/precheck.h"

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

/* what one kbench micro process needs to start under a limit: its own
 * pages and the smallest buffers of its tests (a guess with room; a test
 * that needs more meets the OOM killer, which the run reports) */
#define MICRO_MEM_FLOOR (4ull << 20)

#define CONNECT_TIMEOUT_MS 5000

/* "CMD: JOB: reason; nothing was run", status 2. */
static int refuse(const struct suite *s, const struct job *j, const char *fmt, ...)
{
	char why[600], shown[700];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	fprintf(stderr, "%s: %s: %s; nothing was run\n", s->cmd, j->name,
		esc_str(shown, sizeof(shown), why));
	return KB_EXIT_USAGE;
}

/* A TCP connection to host:port within CONNECT_TIMEOUT_MS, closed at
 * once.  Returns 0, or -1 with the reason in why. */
static int tcp_reach(const char *host, const char *port, char *why, size_t whylen)
{
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM }, *res, *ai;
	int e = getaddrinfo(host, port, &hints, &res);
	if (e) {
		snprintf(why, whylen, "%s", gai_strerror(e));
		return -1;
	}
	int err = ETIMEDOUT;
	for (ai = res; ai; ai = ai->ai_next) {
		int fd = socket(ai->ai_family, ai->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC,
				ai->ai_protocol);
		if (fd < 0) {
			err = errno;
			continue;
		}
		int rc = connect(fd, ai->ai_addr, ai->ai_addrlen);
		if (rc < 0 && errno == EINPROGRESS) {
			struct pollfd p = { .fd = fd, .events = POLLOUT };
			socklen_t l = sizeof(err);
			err = ETIMEDOUT;
			if (poll(&p, 1, CONNECT_TIMEOUT_MS) == 1 &&
			    getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &l) == 0)
				rc = err ? -1 : 0;
			else
				rc = -1;
		} else if (rc < 0) {
			err = errno;
		}
		close(fd);
		if (rc == 0) {
			freeaddrinfo(res);
			return 0;
		}
	}
	freeaddrinfo(res);
	snprintf(why, whylen, "%s", err == ETIMEDOUT ? "no answer in 5 s" : strerror(err));
	return -1;
}

/* The tools of BYTE's shell tests (byte_shell.c runs them). */
static int micro_tools(const struct suite *s, const struct job *j)
{
	static const char *const tools[] = { "sort", "od", "grep", "tee", "wc", "rm" };
	int shell = 0;
	/* BYTE's family (or all) holds them too */
	for (size_t i = 0; i < s->nmicro; i++)
		shell |= !strncmp(s->micro_tests[i], "byte_shell", 10) ||
			 !strcmp(s->micro_tests[i], "byte") || !strcmp(s->micro_tests[i], "all");
	if (!shell)
		return 0;
	if (access("/bin/sh", X_OK))
		return refuse(s, j, "the byte_shell tests need /bin/sh");
	const char *path = getenv("PATH");
	for (size_t t = 0; t < sizeof(tools) / sizeof(tools[0]); t++) {
		int found = 0;
		for (const char *d = path ? path : ""; *d && !found; d += strcspn(d, ":"),
		     d += *d == ':') {
			char f[PATH_MAX];
			snprintf(f, sizeof(f), "%.*s/%s", (int)strcspn(d, ":"), d, tools[t]);
			found = access(f, X_OK) == 0;
		}
		if (!found)
			return refuse(s, j, "the byte_shell tests need %s, which is not in PATH",
				      tools[t]);
	}
	return 0;
}

/* The disk opens for reading, as kbench disk opens it. */
static int disk_opens(const struct suite *s, const struct job *j)
{
	int fd = open(s->disk, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return refuse(s, j, "--disk %s: %s", s->disk, strerror(errno));
	close(fd);
	return 0;
}

static int check_job(struct suite *s, const struct job *j, uint32_t max_io, bool *reached)
{
	char why[300];
	uint64_t floor = 0;
	switch (j->kind) {
	case JOB_LOAD: {
		/* the child's command line, as kbench load itself checks it */
		struct job_args a;
		struct load_child_info info;
		jobs_args(s, j, &a);
		if (load_args_check(s->cmd, a.argv, &info))
			return KB_EXIT_USAGE;
		s->per_proc = info.per_proc;
		/* one connection for the series: every load job has the same server */
		if (info.host[0] && !*reached &&
		    tcp_reach(info.host, info.port, why, sizeof(why)) < 0)
			return refuse(s, j, "its server %s port %s cannot be reached: %s", info.host,
				      info.port, why);
		*reached |= info.host[0] != '\0';
		floor = load_mem_floor(j->clients, s->per_proc, max_io);
		if (j->mem_bytes && j->mem_bytes < floor)
			return refuse(s, j, "--mem-limit %s is below the %.2f MiB (2^20 bytes) %u "
				      "client%s to start (%llu KiB a client process, plus each "
				      "client's %u-byte I/O buffer)", j->mem, (double)floor / 1048576.0,
				      j->clients, j->clients == 1 ? " needs" : "s need",
				      (unsigned long long)(LOAD_MEM_FLOOR_PER_PROC >> 10), max_io);
		return 0;
	}
	case JOB_DISK_CACHED:
	case JOB_DISK_BUFFERED:
		if (disk_opens(s, j))
			return KB_EXIT_USAGE;
		floor = DISK_MEM_FLOOR;
		break;
	case JOB_MICRO:
		if (micro_tools(s, j))
			return KB_EXIT_USAGE;
		floor = MICRO_MEM_FLOOR;
		break;
	}
	if (j->mem_bytes && j->mem_bytes < floor)
		return refuse(s, j, "--mem-limit %s is below the %.2f MiB (2^20 bytes) one %s "
			      "process needs to start", j->mem, (double)floor / 1048576.0,
			      j->kind == JOB_MICRO ? "kbench micro" : "kbench disk");
	return 0;
}

int precheck_jobs(struct suite *s)
{
	uint32_t max_io = 0;
	const struct job *sized = NULL;
	bool loads = false;
	for (size_t i = 0; i < s->njobs; i++) {
		if (s->jobs[i].mem_bytes && !sized)
			sized = &s->jobs[i];
		loads |= s->jobs[i].kind == JOB_LOAD && s->jobs[i].mem_bytes;
	}
	bool any_load = false;
	for (size_t i = 0; i < s->njobs; i++)
		any_load |= s->jobs[i].kind == JOB_LOAD;
	/* (the path is resfile_prepare's: a caller without one asks no more) */
	if (any_load && !s->loadfile && s->loadfile_path && access(s->loadfile_path, R_OK) < 0) {
		/* the default one (-c is checked with the options): every load
		 * run would fail on it; said once, before any run */
		char shown[300];
		int e = errno;
		fprintf(stderr, "%s: the loadfile %s cannot be read: %s (the default one: give "
			"-c FILE, or set KBENCH_LOADFILE_DIR to the directory of kbench's "
			"loadfiles); nothing was run\n", s->cmd,
			esc_str(shown, sizeof(shown), s->loadfile_path), strerror(e));
		return KB_EXIT_USAGE;
	}
	if (loads && load_loadfile_max_io(s->loadfile_path, &max_io) < 0) {
		fprintf(stderr, "%s: the loadfile cannot be read for its largest I/O; "
			"kbench load would refuse it too; nothing was run\n", s->cmd);
		return KB_EXIT_USAGE;
	}
	/* what no system can give first, then what this one lacks */
	bool reached = false;
	for (size_t i = 0; i < s->njobs; i++) {
		int rc = check_job(s, &s->jobs[i], max_io, &reached);
		if (rc)
			return rc;
	}
	if (sized) {
		char why[PATH_MAX + 256];
		if (memcg_detect(&s->memcg_site, why, sizeof(why)) < 0)
			return refuse(s, sized, "--mem-limit: %s", why);
		s->have_memcg_site = true;
	}
	return 0;
}
