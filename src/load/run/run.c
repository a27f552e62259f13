/* kbench - the parent side of a load run: fork, barrier, watch, merge
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The parent never touches the clients' files.  It forks the client
 * processes, waits until they are set up, starts them together with the
 * other participants (the run's coordinator, load/run/coord.h) by closing a
 * pipe (the barrier), watches them (watch.c: the progress lines, the
 * stops), and when every client process has exited merges their slots
 * and hands the result to the coordinator's gather.
 */
#include "config.h"
#include "load/run/client.h"
#include "load/run/coord.h"
#include "load/record/latency.h"
#include "load/run/procs.h"
#include "load/record/merge.h"
#include "load/run/run.h"
#include "load/run/signals.h"
#include "load/run/watch.h"
#include "cli.h"
#include "sys/caches.h"
#include "sys/clock.h"
#include "sys/filepages.h"
#include "sys/memcg.h"
#include "sys/textgroup.h"

#include <errno.h>
#include <malloc.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <stddef.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

/* Empty merged histograms: a run cut short reports zeros, not garbage.
 * calloc's zeros (a fresh mapping at this size) are left untouched: only
 * the buckets the merge writes become resident in the parent, not all
 * 324 KiB. */
static int alloc_hists(struct run_result *res)
{
	res->hist = calloc(OP_COUNT, sizeof(*res->hist));
	if (!res->hist)
		return -1;
	for (unsigned i = 0; i < OP_COUNT; i++)
		hist_init_zeroed(&res->hist[i]);
	hist_init(&res->lag);
	return 0;
}

/* Every client's slot added into res (run_result_add), and the window's
 * throughput.  Returns 0, or -1 when out of memory. */
static int merge(const struct run_config *cfg, const struct run_shared *sh,
		 uint64_t window_end, struct run_result *res)
{
	struct run_result one;
	int rc = run_result_client_alloc(&one);
	res->measured_s = window_end > sh->warm_end_ns ?
			  (double)(window_end - sh->warm_end_ns) / 1e9 : 0;
	for (unsigned c = 0; !rc && c < cfg->nclients; c++) {
		res->client_bytes[c] = sh->client[c].bytes;
		rc = run_result_client_of(&one, &sh->client[c], res->measured_s);
		if (!rc)
			rc = run_result_add(res, &one);
	}
	run_result_free(&one);
	res->mbps = run_throughput_mbps(res->bytes, sh->warm_end_ns, window_end);
	if (!res->ops || res->oom_killed)
		res->mbps = NAN;  /* nothing completed, or a client's work was lost */
	return rc;
}

double run_throughput_mbps(uint64_t bytes, uint64_t start_ns, uint64_t end_ns)
{
	if (end_ns <= start_ns)
		return NAN;
	return (double)bytes / 1e6 / ((double)(end_ns - start_ns) / 1e9);
}

/* Fork one client process, which runs client_main for clients first to
 * first + count - 1 and exits.  It is placed with the client's code
 * (sys/textgroup.h), and not inlined, so the child, which comes back from
 * fork here, never runs (and never maps) the parent's pages of text.
 * Returns the child's pid to the parent, or -1 (errno set). */
KB_CLIENT_TEXT __attribute__((noinline))
static pid_t fork_client(const struct run_config *cfg, struct run_shared *sh, const struct procs *p,
			 unsigned first, unsigned count, const int barrier[2])
{
	pid_t pid = fork();
	if (pid != 0)
		return pid;
	close(barrier[1]);
	int e = p->cg ? memcg_join(p->cg, getpid()) : 0;
	if (e) {
		fprintf(stderr, "kbench load: client %u cannot join memory cgroup %s: %s\n",
			first, p->cg->name, strerror(e));
		_exit(3);
	}
	memcg_oom_first();  /* the kernel takes a client, and the parent cleans up */
	int st = client_main(cfg, sh, first, count, barrier[0]);
	fflush(NULL);
	_exit(st);
}

/* Fork the client processes; the first of their two barrier ends is theirs.
 * Stops forking at a stop signal.  Returns 0, 1 when a signal came, or -1
 * when a process could not be forked (said on stderr). */
static int fork_clients(const struct run_config *cfg, struct run_shared *sh, struct procs *p,
			const int barrier[2])
{
	unsigned n = cfg->nclients;
	for (unsigned i = 0; i < p->n; i++) {
		if (load_signal())
			return 1;
		unsigned first = i * cfg->per_proc;
		unsigned count = n - first < cfg->per_proc ? n - first : cfg->per_proc;
		pid_t pid = fork_client(cfg, sh, p, first, count, barrier);
		if (pid < 0) {
			fprintf(stderr, "kbench load: cannot start client %u: %s\n", first, strerror(errno));
			return -1;
		}
		p->pid[i] = pid;
		p->alive++;
	}
	return 0;
}

/* Wait until every client is set up and waits at the barrier.  Returns 0,
 * 1 at a stop signal, -1 when a client process ended first. */
static int wait_ready(const struct run_config *cfg, struct run_shared *sh, struct procs *p,
		      struct run_result *res)
{
	for (;;) {
		/* the signal is looked at last, just before the start */
		int all = __atomic_load_n(&sh->ready, __ATOMIC_SEQ_CST) >= cfg->nclients;
		if (load_signal())
			return 1;
		if (all)
			return 0;
		if (procs_reap(p, cfg, res))
			return -1;
		usleep(1000);
	}
}

/* The run is called off before its start (a signal, a client that could
 * not start): nothing was measured.  On a signal the clients are killed at
 * once; otherwise they are told to stop, and killed if still there 10 s
 * later.  Returns once every client process has been reaped. */
static void call_off(const struct run_config *cfg, struct run_shared *sh, struct procs *p,
		     struct run_result *res, int barrier_fd)
{
	uint64_t stop_at = 0;
	int killed = 0;
	watch_stop_clients(sh, &stop_at);
	close(barrier_fd);
	while (p->alive) {
		if (load_signal() && !killed) {
			procs_kill_all(p);
			killed = 1;
		}
		procs_reap(p, cfg, res);
		procs_kill_stuck(p, cfg, stop_at, 0, &killed);
		if (p->alive)
			usleep(10000);
	}
}

/* The end of the measured window: the end time, the last op of a --run-once
 * pass, or the stop. */
static uint64_t window_end_of(const struct run_config *cfg, const struct run_shared *sh,
			      uint64_t stop_at)
{
	uint64_t window_end = sh->end_ns;
	if (cfg->run_once) {
		/* the run ends with the last op of the slowest client */
		uint64_t last = 0;
		for (unsigned c = 0; c < cfg->nclients; c++)
			if (sh->client[c].last_op_ns > last)
				last = sh->client[c].last_op_ns;
		if (last + 1 < window_end)
			window_end = last + 1;
	}
	if (stop_at && stop_at < window_end)
		window_end = stop_at;
	return window_end;
}

/* With drop_caches, sync and drop the caches; with mem_limit, make the
 * clients' cgroup (p->cg).  Returns 0 or -1 (said on stderr). */
static int prepare(const struct run_config *cfg, struct procs *p, struct memcg *cg,
		   struct run_result *res)
{
	char why[PATH_MAX + 160];
	if (cfg->drop_caches && caches_drop(why, sizeof(why)) < 0) {
		fprintf(stderr, "kbench load: --drop-caches: %s\n", why);
		return -1;
	}
	if (!cfg->mem_limit) {
		/* no cgroup of its own: a client's OOM kill is read in kbench's */
		p->own_oom = memcg_own_oom_kills(p->own_cg, sizeof(p->own_cg));
		return 0;
	}
	char name[32], note[PATH_MAX + 128];
	int swept = memcg_sweep(cfg->memcg_site, "kbench-", note, sizeof(note));
	if (swept > 0)
		fprintf(stderr, "kbench load: --mem-limit: removed %d empty cgroup%s left by "
			"killed kbench runs\n", swept, swept == 1 ? "" : "s");
	if (note[0])
		fprintf(stderr, "kbench load: --mem-limit: %s\n", note);
	snprintf(name, sizeof(name), "kbench-%ld", (long)getpid());
	if (memcg_create(cfg->memcg_site, name, cfg->mem_limit, cg, why, sizeof(why)) < 0) {
		fprintf(stderr, "kbench load: --mem-limit: %s\n", why);
		return -1;
	}
	p->cg = cg;
	res->mem_limited = 1;
	return 0;
}

/* What run_load holds from its start to its end. */
struct run_state {
	struct run_shared *sh;           /* the shared mapping, size bytes */
	size_t size;
	struct procs p;                  /* the client processes */
	struct memcg cg;                 /* their cgroup (p.cg points here with --mem-limit) */
	int barrier[2];                  /* the clients wait on [0]; closing [1] starts them */
};

/* res reset, its per-client bytes, the process table, the shared mapping
 * and the barrier pipe.  Returns 0, or -1 (said on stderr; only what res
 * holds is left for run_result_free). */
static int run_setup(const struct run_config *cfg, struct run_state *rs, struct run_result *res)
{
	unsigned n = cfg->nclients;
	unsigned nprocs = (n + cfg->per_proc - 1) / cfg->per_proc;
	rs->size = sizeof(struct run_shared) + (size_t)n * sizeof(struct client_stats);
	/* all but the lag histogram (17.5 KiB), which alloc_hists empties
	 * after the clients have gone: written now, its pages would be
	 * resident in the parent and in every client it forks */
	size_t lag_at = offsetof(struct run_result, lag), lag_end = lag_at + sizeof(res->lag);
	memset(res, 0, lag_at);
	memset((char *)res + lag_end, 0, sizeof(*res) - lag_end);
	res->nprocs = nprocs;
	res->mbps = NAN;
	res->steal_pct = NAN;
	res->other_cpu_pct = NAN;
	/* the merged histograms (324 KiB) are made after the clients have gone:
	 * allocated before the fork, every client would carry their pages */
	res->hist = NULL;
	res->client_bytes = calloc(n, sizeof(*res->client_bytes));
	rs->p = (struct procs){ calloc(nprocs, sizeof(pid_t)), calloc(nprocs, 1), nprocs, 0, NULL, 0,
				 MEMCG_UNKNOWN, "" };
	memcg_init(&rs->cg);
	if (!res->client_bytes || !rs->p.pid || !rs->p.killed) {
		fprintf(stderr, "kbench load: out of memory\n");
		goto fail;
	}
	rs->sh = mmap(NULL, rs->size, PROT_READ | PROT_WRITE,
		      MAP_SHARED | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (rs->sh == MAP_FAILED) {
		fprintf(stderr, "kbench load: cannot map %zu bytes of shared memory for %u clients: %s\n",
			rs->size, n, strerror(errno));
		goto fail;
	}
	rs->sh->end_ns = UINT64_MAX;
	rs->sh->warm_end_ns = UINT64_MAX;
	if (pipe(rs->barrier) < 0) {
		fprintf(stderr, "kbench load: pipe: %s\n", strerror(errno));
		munmap(rs->sh, rs->size);
		goto fail;
	}
	return 0;
fail:
	free(rs->p.pid);
	free(rs->p.killed);
	return -1;
}

/* Every client is ready: set the clock of the run from t0 (now, or under
 * MPI the job's start on this clock) and open the barrier at t0. */
static void start_clients(const struct run_config *cfg, struct run_shared *sh, int barrier_fd,
			  uint64_t t0)
{
	sh->t0_ns = t0;
	sh->warm_end_ns = t0 + (uint64_t)(cfg->warmup_s * 1e9);
	if (cfg->run_once && cfg->timelimit_s <= 0)
		sh->end_ns = UINT64_MAX;
	else
		sh->end_ns = sh->warm_end_ns + (uint64_t)(cfg->timelimit_s * 1e9);
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	sleep_until(t0, NULL);
	close(barrier_fd);  /* go */
}

/* Fork the clients and wait for all of them to be ready (under MPI, the
 * clients of every rank: then *t0 is the job's start on this clock); a
 * signal or a client that ends first calls the run off (everywhere).
 * Returns 0 when they are ready, or what run_load returns for a run
 * called off (1 after a signal, -1 otherwise). */
static int launch(const struct run_config *cfg, struct run_state *rs, struct run_result *res,
		  uint64_t *t0)
{
	int start = fork_clients(cfg, rs->sh, &rs->p, rs->barrier);
	close(rs->barrier[0]);
	if (!start)
		start = wait_ready(cfg, rs->sh, &rs->p, res);
	if (!start && rs->p.cg)
		memcg_sample(rs->p.cg);  /* the clients' memory as they start */
	*t0 = kb_now_ns();
	int j = cfg->coord->start(start == 0, t0, &res->clock_bound_ms);
	if (j < 0)
		res->job_broken = 1;
	if (!start && j)
		start = -1;  /* another participant's clients could not start (said) */
	if (!start)
		return 0;
	call_off(cfg, rs->sh, &rs->p, res, rs->barrier[1]);
	res->interrupted = load_signal();
	int rc = res->interrupted ? 1 : -1;
	if (alloc_hists(res) < 0)
		rc = -1;
	if (res->died)
		fprintf(stderr, "kbench load: %s\n", res->died_msg);
	return rc;
}

/* From the start until the clients have gone, then their slots merged
 * into res.  Returns 0, 1 when the run was cut short, -1 when out of
 * memory. */
static int measure(const struct run_config *cfg, struct run_state *rs, struct run_result *res)
{
	uint64_t stop_at = watch_run(cfg, rs->sh, &rs->p, res);
	res->strict_stop = rs->sh->strict_failed;
	if (alloc_hists(res) < 0) {
		fprintf(stderr, "kbench load: out of memory merging the results\n");
		return -1;
	}
	uint64_t window_end = window_end_of(cfg, rs->sh, stop_at);
	if (merge(cfg, rs->sh, window_end, res) < 0) {
		fprintf(stderr, "kbench load: out of memory merging the results\n");
		return -1;
	}
	/* the seconds the watch has not read yet, up to the window's end */
	if (window_end > rs->sh->t0_ns && window_end != UINT64_MAX) {
		uint64_t upto = (window_end - 1 - rs->sh->t0_ns) / 1000000000ull + 1;
		lat_series_collect(cfg, rs->sh, upto, &res->series);
		if (res->series.n > upto)  /* seconds after the end, read while clients ended */
			res->series.n = upto;
	}
	res->unchecked = !lf_statuses_checked(cfg->prog->format);
	if (res->died)
		fprintf(stderr, "kbench load: %s%s%s\n", cfg->coord->who, *cfg->coord->who ? ": " : "",
			res->died_msg);
	if (!res->job_broken && cfg->coord->gather(res, cfg->nclients, load_signal() != 0) < 0)
		res->job_broken = 1;
	if (res->job_broken)
		return 1;
	if (res->died || res->interrupted || res->strict_stop || res->setup_failed || res->nfatal ||
	    res->stuck)
		return 1;
	return 0;
}

/* Bytes of the mapping at p (len bytes, page aligned) in memory. */
static uint64_t resident_bytes(void *p, size_t len)
{
	long page = sysconf(_SC_PAGESIZE);
	unsigned char vec[4096];
	uint64_t n = 0;
	if (page <= 0)
		return 0;
	size_t step = sizeof(vec) * (size_t)page;
	for (size_t at = 0; at < len; at += step) {
		size_t part = len - at < step ? len - at : step;
		if (mincore((char *)p + at, part, vec) < 0)
			return 0;
		for (size_t i = 0; i < (part + (size_t)page - 1) / (size_t)page; i++)
			n += vec[i] & 1;
	}
	return n * (uint64_t)page;
}

/* kbench's own memory (struct run_ownmem) but the clients' peaks, which
 * procs_reap() noted: read once every client has gone. */
static void own_memory(const struct run_config *cfg, const struct run_state *rs,
		       struct run_result *res)
{
	struct run_ownmem *o = &res->own;
	struct rusage ru;
	if (getrusage(RUSAGE_SELF, &ru) == 0)
		o->parent_peak_bytes = (uint64_t)ru.ru_maxrss * 1024;
	o->parse_peak_bytes = cfg->parse_peak_bytes;
	o->program_bytes = cfg->prog->code_bytes;
	o->arena_bytes = cfg->prog->arena_len + (uint64_t)cfg->prog->ndirs * sizeof(*cfg->prog->dirs);
	o->shared_bytes = resident_bytes(rs->sh, rs->size);
	o->charged_bytes = MEMCG_UNKNOWN;
	if (rs->p.cg && res->mem.proc_peak_bytes != MEMCG_UNKNOWN)
		o->charged_bytes = res->mem.proc_peak_bytes + o->shared_bytes;
}

/* Once every client process has gone: what the cgroup did read and the
 * cgroup removed, kbench's own memory noted, the mapping and the process
 * table released. */
static void run_teardown(const struct run_config *cfg, struct run_state *rs,
			 struct run_result *res)
{
	if (rs->p.cg)
		memcg_read(rs->p.cg, &res->mem);
	own_memory(cfg, rs, res);
	if (rs->p.cg) {
		char why[PATH_MAX + 160];
		if (memcg_remove(rs->p.cg, why, sizeof(why)) < 0) {
			fprintf(stderr, "kbench load: --mem-limit: %s\n", why);
			res->mem_left = 1;
		}
	}
	munmap(rs->sh, rs->size);
	free(rs->p.pid);
	free(rs->p.killed);
}

int run_load(const struct run_config *cfg, struct run_result *res)
{
	struct run_state rs;
	if (run_setup(cfg, &rs, res) < 0)
		return -1;
	fflush(NULL);
	/* what start-up, the options and the input left resident and the run
	 * does not need: the heap's free top, read-only file pages */
	malloc_trim(0);
	filepages_drop(NULL);
	int rc;
	/* the stop signals only set a note (load_signals_arm), so the cgroup
	 * made here is removed in run_teardown whatever happens */
	if (load_signal() || prepare(cfg, &rs.p, &rs.cg, res) < 0 || load_signal()) {
		uint64_t t0;
		double bound;
		t0 = kb_now_ns();
		if (cfg->coord->start(0, &t0, &bound) < 0)  /* the others call it off too */
			res->job_broken = 1;
		close(rs.barrier[0]);
		close(rs.barrier[1]);
		res->interrupted = load_signal();
		rc = !res->interrupted ? -1 : alloc_hists(res) < 0 ? -1 : 1;
	} else {
		uint64_t t0;
		rc = launch(cfg, &rs, res, &t0);
		if (!rc) {
			start_clients(cfg, rs.sh, rs.barrier[1], t0);
			rc = measure(cfg, &rs, res);
		}
	}
	run_teardown(cfg, &rs, res);
	return rc;
}

