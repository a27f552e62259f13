/* kbench - the parent side of a load run: fork, barrier, progress, merge
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The parent never touches the clients' files.  It forks the client
 * processes, releases them at once through a pipe it closes (the barrier),
 * prints a progress line each second from the clients' live counters,
 * and when every client process has exited merges their slots.
 */
#include "config.h"
#include "load/run.h"
#include "sys/caches.h"
#include "sys/memcg.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

struct procs {
	pid_t *pid;          /* nprocs; 0 once reaped */
	unsigned n, alive;
	struct memcg *cg;    /* the clients' memory cgroup, NULL if none */
	uint64_t oom_seen;   /* OOM kills already put down to a client */
};

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
	if (!p->cg || memcg_read(p->cg, &st) < 0 || st.oom_kills == MEMCG_UNKNOWN ||
	    st.oom_kills <= p->oom_seen)
		return 0;
	p->oom_seen++;
	return 1;
}

static volatile sig_atomic_t got_signal;   /* the first SIGINT/SIGTERM */
static volatile sig_atomic_t signal_count;

static void on_signal(int sig)
{
	if (!got_signal)
		got_signal = sig;
	signal_count++;
}

#define STOP_GRACE_NS (10 * 1000000000ull)  /* then stuck clients are killed */

/* Stop the clients now: nothing that completes after this is measured. */
static void stop_clients(struct run_shared *sh, uint64_t *stop_at)
{
	uint64_t now = now_ns();
	if (!*stop_at)
		*stop_at = now;
	if (sh->end_ns > now)
		sh->end_ns = now;
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	sh->stop = 1;
}

/* Clients that do not stop (SIGSTOP, a hung file system) are killed after
 * a grace period, or at once on a second signal. */
static void kill_stuck(struct procs *p, uint64_t stop_at, int *killed)
{
	if (*killed || !stop_at || !p->alive)
		return;
	if (now_ns() - stop_at < STOP_GRACE_NS && signal_count < 2)
		return;
	*killed = 1;
	fprintf(stderr, "kbench load: %u client process%s did not stop%s; killing %s\n", p->alive,
		p->alive == 1 ? "" : "es", signal_count >= 2 ? " (second signal)" : " within 10 s",
		p->alive == 1 ? "it" : "them");
	for (unsigned i = 0; i < p->n; i++)
		if (p->pid[i] > 0) {
			kill(p->pid[i], SIGKILL);
			kill(p->pid[i], SIGCONT);
		}
}

static void install_handlers(struct sigaction *old_int, struct sigaction *old_term)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, old_int);
	sigaction(SIGTERM, &sa, old_term);
}



/* Reap exited children.  Returns 1 if one ended abnormally (described in
 * res->died_msg), else 0. */
static int reap(struct procs *p, const struct run_config *cfg, struct run_result *res, int block)
{
	int bad = 0;
	while (p->alive) {
		int status;
		pid_t pid = waitpid(-1, &status, block ? 0 : WNOHANG);
		if (pid <= 0) {
			if (pid < 0 && errno == EINTR && block)
				continue;
			break;
		}
		for (unsigned i = 0; i < p->n; i++) {
			if (p->pid[i] != pid)
				continue;
			p->pid[i] = 0;
			p->alive--;
			unsigned client = i * cfg->per_proc;
			if (WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL && oom_killed(p)) {
				if (!res->oom_killed) {
					char lim[32];
					mib_text(p->cg->limit_bytes, lim, sizeof(lim));
					snprintf(res->died_msg, sizeof(res->died_msg),
						 "client %u (pid %ld) was killed by the OOM killer at the %s memory limit",
						 client, (long)pid, lim);
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
		if (block)
			break;
	}
	return bad;
}

static uint64_t sum_live(const struct run_shared *sh, unsigned n, int bytes)
{
	uint64_t s = 0;
	for (unsigned i = 0; i < n; i++)
		s += __atomic_load_n(bytes ? &sh->client[i].bytes_all : &sh->client[i].ops_all,
				     __ATOMIC_RELAXED);
	return s;
}

static uint64_t max_in_second(const struct run_shared *sh, unsigned n, uint64_t sec)
{
	uint64_t m = 0;
	unsigned s = (unsigned)(sec % SEC_SLOTS);
	for (unsigned i = 0; i < n; i++) {
		const struct client_stats *st = &sh->client[i];
		if (__atomic_load_n(&st->sec_tag[s], __ATOMIC_RELAXED) == sec) {
			uint64_t v = __atomic_load_n(&st->sec_max[s], __ATOMIC_RELAXED);
			if (v > m)
				m = v;
		}
	}
	return m;
}

static int cmp_err(const void *a, const void *b)
{
	const struct run_error *x = a, *y = b;
	if (x->count != y->count)
		return x->count < y->count ? 1 : -1;
	return x->line < y->line ? -1 : x->line > y->line;
}

/* Empty merged histograms: a run cut short reports zeros, not garbage. */
static int alloc_hists(struct run_result *res)
{
	res->hist = malloc(OP_COUNT * sizeof(*res->hist));
	if (!res->hist)
		return -1;
	for (unsigned i = 0; i < OP_COUNT; i++)
		hist_init(&res->hist[i]);
	return 0;
}

static void merge(const struct run_config *cfg, const struct run_shared *sh,
		  uint64_t window_end, struct run_result *res)
{
	unsigned n = cfg->nclients;
	size_t cap = 0;
	for (unsigned c = 0; c < n; c++) {
		const struct client_stats *st = &sh->client[c];
		for (unsigned i = 0; i < OP_COUNT; i++)
			hist_merge_rec(&res->hist[i], &st->hist[i]);
		res->ops += st->ops;
		res->bytes += st->bytes;
		res->client_bytes[c] = st->bytes;
		res->errors += st->errors;
		res->errors_unlisted += st->errors_unlisted;
		res->passes += st->passes;
		if (st->fatal) {
			if (!res->nfatal++) {
				res->fatal_client = c;
				res->fatal_err = st->fatal;
			}
		}
		res->late_ops += st->late_ops;
		res->late_sum_ns += st->late_sum_ns;
		if (st->late_max_ns > res->late_max_ns)
			res->late_max_ns = st->late_max_ns;
		cap += st->nerr_slots;
	}
	/* a Sleep is the loadfile's pause, not a file-system latency */
	for (unsigned i = 0; i < OP_COUNT; i++)
		if (i != OP_SLEEP && res->hist[i].max_ns > res->max_latency_ns)
			res->max_latency_ns = res->hist[i].max_ns;

	res->errs = cap ? calloc(cap, sizeof(*res->errs)) : NULL;
	for (unsigned c = 0; c < n && res->errs; c++) {
		const struct client_stats *st = &sh->client[c];
		for (uint32_t k = 0; k < st->nerr_slots; k++) {
			const struct err_slot *e = &st->errs[k];
			size_t j;
			for (j = 0; j < res->nerrs; j++)
				if (res->errs[j].line == e->line && res->errs[j].err == e->err)
					break;
			if (j == res->nerrs) {
				res->errs[j].line = e->line;
				res->errs[j].code = e->code;
				res->errs[j].expect = e->expect;
				res->errs[j].err = e->err;
				res->nerrs++;
			}
			res->errs[j].count += e->count;
		}
	}
	if (res->nerrs)
		qsort(res->errs, res->nerrs, sizeof(*res->errs), cmp_err);

	res->mbps = run_throughput_mbps(res->bytes, sh->warm_end_ns, window_end);
	res->measured_s = isnan(res->mbps) ? 0 : (double)(window_end - sh->warm_end_ns) / 1e9;
	if (!res->ops || res->oom_killed)
		res->mbps = NAN;  /* nothing completed, or a client's work was lost */
}

double run_throughput_mbps(uint64_t bytes, uint64_t start_ns, uint64_t end_ns)
{
	if (end_ns <= start_ns)
		return NAN;
	return (double)bytes / 1e6 / ((double)(end_ns - start_ns) / 1e9);
}

static void progress(const struct run_config *cfg, const struct run_shared *sh,
		     uint64_t sec, uint64_t now, uint64_t *prev_bytes,
		     uint64_t *warm_bytes, uint64_t *warm_t, int *warm_seen)
{
	uint64_t bytes = sum_live(sh, cfg->nclients, 1);
	uint64_t ops = sum_live(sh, cfg->nclients, 0);
	double this_sec = (double)(bytes - *prev_bytes) / 1e6;
	*prev_bytes = bytes;
	const char *phase = "warmup";
	double avg;
	if (now > sh->end_ns) {
		phase = "cleanup";
		avg = NAN;
	} else if (now > sh->warm_end_ns) {
		phase = "execute";
		if (!*warm_seen) {  /* no tick fell in warm-up: count from t0 */
			*warm_seen = 1;
			*warm_bytes = 0;
			*warm_t = sh->t0_ns;
		}
		double t = (double)(now - *warm_t) / 1e9;
		avg = t > 0 ? (double)(bytes - *warm_bytes) / 1e6 / t : NAN;
	} else {
		*warm_seen = 1;
		*warm_bytes = bytes;
		*warm_t = now;
		double t = (double)(now - sh->t0_ns) / 1e9;
		avg = t > 0 ? (double)bytes / 1e6 / t : NAN;
	}
	uint64_t lat = max_in_second(sh, cfg->nclients, sec - 1);
	if (isnan(avg))
		fprintf(cfg->out, "%4u  %10llu  %9.2f MB/sec  avg       -   %-7s %4llu sec  latency %.3f ms\n",
		       cfg->nclients, (unsigned long long)ops, this_sec, phase,
		       (unsigned long long)sec, (double)lat / 1e6);
	else
		fprintf(cfg->out, "%4u  %10llu  %9.2f MB/sec  avg %9.2f  %-7s %4llu sec  latency %.3f ms\n",
		       cfg->nclients, (unsigned long long)ops, this_sec, avg, phase,
		       (unsigned long long)sec, (double)lat / 1e6);
	fflush(cfg->out);
}

int run_load(const struct run_config *cfg, struct run_result *res)
{
	unsigned n = cfg->nclients;
	unsigned nprocs = (n + cfg->per_proc - 1) / cfg->per_proc;
	size_t size = sizeof(struct run_shared) + (size_t)n * sizeof(struct client_stats);
	struct sigaction old_int, old_term;
	int rc = 0;

	memset(res, 0, sizeof(*res));
	res->nprocs = nprocs;
	res->mbps = NAN;
	/* the merged histograms (324 KiB) are made after the clients have gone:
	 * allocated before the fork, every client would carry their pages */
	res->hist = NULL;
	res->client_bytes = calloc(n, sizeof(*res->client_bytes));
	struct procs p = { calloc(nprocs, sizeof(pid_t)), nprocs, 0, NULL, 0 };
	struct memcg cg;
	memcg_init(&cg);
	if (!res->client_bytes || !p.pid) {
		fprintf(stderr, "kbench load: out of memory\n");
		free(p.pid);
		return -1;
	}

	struct run_shared *sh = mmap(NULL, size, PROT_READ | PROT_WRITE,
				     MAP_SHARED | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (sh == MAP_FAILED) {
		fprintf(stderr, "kbench load: cannot map %zu bytes of shared memory for %u clients: %s\n",
			size, n, strerror(errno));
		free(p.pid);
		return -1;
	}
	sh->end_ns = UINT64_MAX;
	sh->warm_end_ns = UINT64_MAX;

	int barrier[2];
	if (pipe(barrier) < 0) {
		fprintf(stderr, "kbench load: pipe: %s\n", strerror(errno));
		munmap(sh, size);
		free(p.pid);
		return -1;
	}

	got_signal = 0;
	signal_count = 0;
	install_handlers(&old_int, &old_term);
	fflush(NULL);

	/* from here on a signal only sets got_signal, so the cgroup made
	 * below is removed at out: whatever happens */
	char why[PATH_MAX + 160];
	if (cfg->drop_caches && caches_drop(why, sizeof(why)) < 0) {
		fprintf(stderr, "kbench load: --drop-caches: %s\n", why);
		rc = -1;
	} else if (cfg->mem_limit) {
		char name[32], note[PATH_MAX + 128];
		int swept = memcg_sweep(cfg->memcg_site, "kbench-", note, sizeof(note));
		if (swept > 0)
			fprintf(stderr, "kbench load: --mem-limit: removed %d empty cgroup%s left by "
				"killed kbench runs\n", swept, swept == 1 ? "" : "s");
		if (note[0])
			fprintf(stderr, "kbench load: --mem-limit: %s\n", note);
		snprintf(name, sizeof(name), "kbench-%ld", (long)getpid());
		if (memcg_create(cfg->memcg_site, name, cfg->mem_limit, &cg, why, sizeof(why)) < 0) {
			fprintf(stderr, "kbench load: --mem-limit: %s\n", why);
			rc = -1;
		} else {
			p.cg = &cg;
			res->mem_limited = 1;
		}
	}
	if (!rc && got_signal) {
		res->interrupted = got_signal;
		rc = alloc_hists(res) < 0 ? -1 : 1;
	}
	if (rc) {
		close(barrier[0]);
		close(barrier[1]);
		goto out;
	}

	int start_failed = 0;
	for (unsigned i = 0; i < nprocs; i++) {
		unsigned first = i * cfg->per_proc;
		unsigned count = n - first < cfg->per_proc ? n - first : cfg->per_proc;
		pid_t pid = fork();
		if (pid < 0) {
			fprintf(stderr, "kbench load: cannot start client %u: %s\n", first, strerror(errno));
			start_failed = 1;
			break;
		}
		if (pid == 0) {
			close(barrier[1]);
			int e = p.cg ? memcg_join(p.cg, getpid()) : 0;
			if (e) {
				fprintf(stderr, "kbench load: client %u cannot join memory cgroup %s: %s\n",
					first, p.cg->name, strerror(e));
				_exit(3);
			}
			int st = client_main(cfg, sh, first, count, barrier[0]);
			fflush(NULL);
			_exit(st);
		}
		p.pid[i] = pid;
		p.alive++;
	}
	close(barrier[0]);

	/* wait for every client to be ready */
	while (!start_failed && __atomic_load_n(&sh->ready, __ATOMIC_SEQ_CST) < n) {
		if (got_signal || reap(&p, cfg, res, 0)) {
			start_failed = 1;
			break;
		}
		usleep(1000);
	}
	if (start_failed) {
		uint64_t stop_at = 0;
		int killed = 0;
		stop_clients(sh, &stop_at);
		close(barrier[1]);
		while (p.alive) {
			reap(&p, cfg, res, 0);
			kill_stuck(&p, stop_at, &killed);
			if (p.alive)
				usleep(10000);
		}
		rc = got_signal ? 1 : -1;
		res->interrupted = got_signal;
		if (alloc_hists(res) < 0)
			rc = -1;
		if (res->died)
			fprintf(stderr, "kbench load: %s\n", res->died_msg);
		goto out;
	}

	uint64_t t0 = now_ns();
	sh->t0_ns = t0;
	sh->warm_end_ns = t0 + (uint64_t)(cfg->warmup_s * 1e9);
	if (cfg->run_once && cfg->timelimit_s <= 0)
		sh->end_ns = UINT64_MAX;
	else
		sh->end_ns = sh->warm_end_ns + (uint64_t)(cfg->timelimit_s * 1e9);
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	close(barrier[1]);  /* go */

	uint64_t stop_at = 0, prev_bytes = 0, warm_bytes = 0, warm_t = 0, sec = 1;
	int warm_seen = 0, killed = 0;
	while (p.alive) {
		uint64_t tick = t0 + sec * 1000000000ull;
		while (now_ns() < tick && p.alive) {
			if (reap(&p, cfg, res, 0) && !sh->stop)
				stop_clients(sh, &stop_at);
			if (got_signal && !res->interrupted) {
				res->interrupted = got_signal;
				stop_clients(sh, &stop_at);
			}
			if (sh->strict_failed && !stop_at)
				stop_clients(sh, &stop_at);
			kill_stuck(&p, stop_at, &killed);
			uint64_t now = now_ns(), wake = now + 20000000ull;
			sleep_until(wake < tick ? wake : tick, NULL);
		}
		if (!p.alive)
			break;
		if (p.cg)
			memcg_sample(p.cg);
		if (!cfg->quiet && !sh->stop)
			progress(cfg, sh, sec, tick, &prev_bytes, &warm_bytes, &warm_t, &warm_seen);
		sec++;
	}
	if (got_signal && !res->interrupted) {
		res->interrupted = got_signal;
		if (!stop_at)
			stop_at = now_ns();
	}
	res->strict_stop = sh->strict_failed;

	uint64_t window_end = sh->end_ns;
	if (cfg->run_once) {
		/* the run ends with the last op of the slowest client */
		uint64_t last = 0;
		for (unsigned c = 0; c < n; c++)
			if (sh->client[c].last_op_ns > last)
				last = sh->client[c].last_op_ns;
		if (last + 1 < window_end)
			window_end = last + 1;
	}
	if (stop_at && stop_at < window_end)
		window_end = stop_at;
	if (alloc_hists(res) < 0) {
		fprintf(stderr, "kbench load: out of memory merging the results\n");
		rc = -1;
		goto out;
	}
	merge(cfg, sh, window_end, res);
	if (res->died)
		fprintf(stderr, "kbench load: %s\n", res->died_msg);
	if (res->died || res->interrupted || res->strict_stop || res->setup_failed || res->nfatal)
		rc = 1;
out:
	if (p.cg) {
		/* every client has gone: read what the cgroup did, then remove it */
		memcg_read(p.cg, &res->mem);
		if (memcg_remove(p.cg, why, sizeof(why)) < 0) {
			fprintf(stderr, "kbench load: --mem-limit: %s\n", why);
			res->mem_left = 1;
		}
	}
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	munmap(sh, size);
	free(p.pid);
	return rc;
}

void run_result_free(struct run_result *res)
{
	free(res->hist);
	free(res->client_bytes);
	free(res->errs);
	memset(res, 0, sizeof(*res));
}
