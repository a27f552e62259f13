/* kbench - the client processes of a load run: reaping and killing them
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Nothing here touches the clients' files or their slots: the parent
 * learns how each process ended, and kills those that do not end (a
 * stopped process too: SIGKILL then SIGCONT).
 */
#include "config.h"
#include "load/run/procs.h"
#include "load/run/signals.h"
#include "sys/clock.h"

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#define STOP_GRACE_NS (10 * 1000000000ull)  /* then stuck clients are killed */
#define STUCK_LINES 8                       /* stuck processes named one by one */

/* A size as "64 MiB" when it is whole, else "64.50 MiB" (MiB = 2^20). */
static void mib_text(uint64_t bytes, char *buf, size_t len)
{
	if (bytes % (1024 * 1024) == 0)
		snprintf(buf, len, "%llu MiB", (unsigned long long)(bytes / (1024 * 1024)));
	else
		snprintf(buf, len, "%.2f MiB", (double)bytes / (1024.0 * 1024.0));
}

/* 1 if a client that died of SIGKILL was killed by the OOM killer of its
 * cgroup: the cgroup's OOM-kill count rose past the kills already told. */
static int oom_killed(struct procs *p)
{
	struct memcg_stats st;
	char dir[PATH_MAX];
	uint64_t kills = p->cg ? (memcg_read(p->cg, &st) < 0 ? MEMCG_UNKNOWN : st.oom_kills) :
			 p->own_oom == MEMCG_UNKNOWN ? MEMCG_UNKNOWN :
			 memcg_own_oom_kills(dir, sizeof(dir));
	/* kbench's own cgroup counted kills before the run: those are not ours */
	uint64_t before = p->cg ? 0 : p->own_oom;
	if (kills == MEMCG_UNKNOWN || kills <= before || kills - before <= p->oom_seen)
		return 0;
	p->oom_seen++;
	return 1;
}

/* The clients of process i and its pid: "client 3 (pid 1234)", or
 * "clients 4-7 (pid 1234)" with --clients-per-process. */
static void proc_name(const struct run_config *cfg, unsigned i, pid_t pid, char *buf, size_t len)
{
	unsigned first = i * cfg->per_proc;
	unsigned last = first + cfg->per_proc - 1;
	if (last >= cfg->nclients)
		last = cfg->nclients - 1;
	if (last == first)
		snprintf(buf, len, "client %u (pid %ld)", first, (long)pid);
	else
		snprintf(buf, len, "clients %u-%u (pid %ld)", first, last, (long)pid);
}

static void kill_proc(struct procs *p, unsigned i, int why)
{
	p->killed[i] = (unsigned char)why;
	kill(p->pid[i], SIGKILL);  /* works on a stopped process too */
	kill(p->pid[i], SIGCONT);
}

/* Clients that do not stop (SIGSTOP, a hung file system): the run then
 * fails, res->stuck counts them once reaped. */
void procs_kill_stuck(struct procs *p, const struct run_config *cfg, uint64_t from,
		      int limit, int *killed)
{
	int second = load_signal_count() >= 2;
	if (*killed || !p->alive || (!from && !second))
		return;
	if (!second && kb_now_ns() - from < STOP_GRACE_NS)
		return;
	*killed = 1;
	const char *why = second ? " (second signal)" :
			  limit ? " within 10 s of the time limit" : " within 10 s";
	unsigned told = 0;
	for (unsigned i = 0; i < p->n; i++) {
		if (p->pid[i] <= 0)
			continue;
		if (told++ < STUCK_LINES) {
			char name[64];
			proc_name(cfg, i, p->pid[i], name, sizeof(name));
			fprintf(stderr, "kbench load: %s did not stop%s; killing it\n", name, why);
		}
		kill_proc(p, i, KILLED_STUCK);
	}
	if (told > STUCK_LINES)
		fprintf(stderr, "kbench load: and %u more client processes did not stop%s; "
			"killing them\n", told - STUCK_LINES, why);
}

/* Before the start nothing is measured and nothing is worth waiting for. */
void procs_kill_all(struct procs *p)
{
	for (unsigned i = 0; i < p->n; i++)
		if (p->pid[i] > 0)
			kill_proc(p, i, KILLED_ABORT);
}

/* A reaped client process's peak RSS into own (ru_maxrss is in KiB). */
static void own_peak(struct run_ownmem *own, const struct rusage *ru)
{
	uint64_t b = (uint64_t)ru->ru_maxrss * 1024;
	if (b > own->client_peak_bytes)
		own->client_peak_bytes = b;
	own->client_peak_sum += b;
	own->client_procs++;
}

int procs_reap(struct procs *p, const struct run_config *cfg, struct run_result *res)
{
	int bad = 0;
	while (p->alive) {
		int status;
		struct rusage ru;
		pid_t pid = wait4(-1, &status, WNOHANG, &ru);
		if (pid <= 0)
			break;
		own_peak(&res->own, &ru);
		for (unsigned i = 0; i < p->n; i++) {
			if (p->pid[i] != pid)
				continue;
			p->pid[i] = 0;
			p->alive--;
			unsigned client = i * cfg->per_proc;
			int by_us = WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL && p->killed[i];
			if (by_us && p->killed[i] == KILLED_STUCK) {
				/* named when it was killed */
				if (!res->stuck++)
					proc_name(cfg, i, pid, res->stuck_msg, sizeof(res->stuck_msg));
				bad = 1;
			} else if (by_us) {
				/* killed as the run was called off before its start */
			} else if (WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL && oom_killed(p)) {
				if (!res->oom_killed && p->cg) {
					char lim[32];
					mib_text(p->cg->limit_bytes, lim, sizeof(lim));
					snprintf(res->died_msg, sizeof(res->died_msg),
						 "client %u (pid %ld) was killed by the OOM killer at the %s memory limit",
						 client, (long)pid, lim);
				} else if (!res->oom_killed) {
					snprintf(res->died_msg, sizeof(res->died_msg),
						 "client %u (pid %ld) was killed by the OOM killer (memory "
						 "cgroup %.64s)", client, (long)pid, p->own_cg);
				}
				res->died = 1;
				res->oom_killed = 1;
				bad = 1;
			} else if (WIFSIGNALED(status)) {
				if (!res->died)
					snprintf(res->died_msg, sizeof(res->died_msg),
						 "client %u (pid %ld) was killed by signal %d (%s)",
						 client, (long)pid, WTERMSIG(status),
						 strsignal(WTERMSIG(status)));
				res->died = 1;
				bad = 1;
			} else if (WIFEXITED(status) && WEXITSTATUS(status) == 3) {
				res->setup_failed = 1;
				bad = 1;
			} else if (WIFEXITED(status) && WEXITSTATUS(status) != 0) {
				if (!res->died)
					snprintf(res->died_msg, sizeof(res->died_msg),
						 "client %u (pid %ld) exited with status %d",
						 client, (long)pid, WEXITSTATUS(status));
				res->died = 1;
				bad = 1;
			}
			break;
		}
	}
	return bad;
}

