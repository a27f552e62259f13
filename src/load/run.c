/* kbench - the parent side of a load run: fork, barrier, progress, merge
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The parent never touches the clients' files.  It forks the client
 * processes, releases them at once through a pipe it closes (the barrier),
 * prints a progress line each second from the clients' live counters,
 * and when every client process has exited merges their slots.
 */
#include "config.h"
#include "load/latency.h"
#include "load/dbform.h"
#include "load/procs.h"
#include "load/merge.h"
#include "load/run.h"
#include "load/signals.h"
#include "sys/caches.h"
#include "sys/memcg.h"
#include "sys/steal.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* Stop the clients now: nothing that completes after this is measured. */
static void stop_clients(struct run_shared *sh, uint64_t *stop_at)
{
	uint64_t now = kb_now_ns();
	if (!*stop_at)
		*stop_at = now;
	if (sh->end_ns > now)
		sh->end_ns = now;
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	sh->stop = 1;
}

static uint64_t sum_live(const struct run_shared *sh, unsigned n, int bytes)
{
	uint64_t s = 0;
	for (unsigned i = 0; i < n; i++)
		s += __atomic_load_n(bytes ? &sh->client[i].bytes_all : &sh->client[i].ops_all,
				     __ATOMIC_RELAXED);
	return s;
}

/* Second sec (from t0) over all clients: the largest latency and the
 * bytes moved.  Returns 0, or -1 when a client's slot already holds a
 * later second (the parent was held up longer than the ring lasts): the
 * bytes are then unknown. */
static int in_second(const struct run_shared *sh, unsigned n, uint64_t sec, uint64_t *max,
		     uint64_t *bytes, uint64_t *ops)
{
	unsigned s = (unsigned)(sec % SEC_SLOTS);
	int lost = 0;
	*max = *bytes = *ops = 0;
	for (unsigned i = 0; i < n; i++) {
		const struct client_stats *st = &sh->client[i];
		uint64_t tag = __atomic_load_n(&st->sec_tag[s], __ATOMIC_ACQUIRE);
		if (tag == sec) {
			uint64_t v = __atomic_load_n(&st->sec_max[s], __ATOMIC_RELAXED);
			if (v > *max)
				*max = v;
			*bytes += __atomic_load_n(&st->sec_bytes[s], __ATOMIC_RELAXED);
			*ops += __atomic_load_n(&st->sec_ops[s], __ATOMIC_RELAXED);
		} else if (tag > sec) {
			lost = 1;
		}
	}
	return lost ? -1 : 0;
}

/* Empty merged histograms: a run cut short reports zeros, not garbage. */
static int alloc_hists(struct run_result *res)
{
	res->hist = malloc(OP_COUNT * sizeof(*res->hist));
	if (!res->hist)
		return -1;
	for (unsigned i = 0; i < OP_COUNT; i++)
		hist_init(&res->hist[i]);
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

/* What a progress line shows: this machine's clients, or (--mpi) the
 * job's, summed over the ranks. */
struct live {
	uint64_t ops, bytes;       /* since the start */
	uint64_t sec_bytes;        /* completed in the second the line is for */
	uint64_t sec_ops;          /* ops completed in it */
	uint64_t lat;              /* the largest latency in it, ns */
	int lost;                  /* sec_bytes unknown */
	unsigned clients;
};

static void live_local(const struct run_config *cfg, const struct run_shared *sh, uint64_t sec,
		       struct live *l)
{
	l->bytes = sum_live(sh, cfg->nclients, 1);
	l->ops = sum_live(sh, cfg->nclients, 0);
	l->lost = in_second(sh, cfg->nclients, sec - 1, &l->lat, &l->sec_bytes, &l->sec_ops) < 0;
	l->clients = cfg->nclients;
}

/* --output-form dbench: dbench's line, its seconds counted from the
 * start of the phase (warm-up, or the measured window) as dbench does. */
static void form_progress(const struct run_config *cfg, const struct run_shared *sh,
			    const struct live *l, uint64_t tick, double avg)
{
	int phase = tick > sh->end_ns ? 2 : tick > sh->warm_end_ns ? 1 : 0;
	uint64_t from = phase ? sh->warm_end_ns : sh->t0_ns;
	uint64_t sec = tick > from ? (tick - from + 500000000ull) / 1000000000ull : 0;
	unsigned clients = l->clients, done = sh->finished * cfg->per_proc;
	if (phase == 2 && !cfg->mpi)
		clients = done < clients ? clients - done : 0;
	dbform_progress(cfg->out, (enum load_form)cfg->form, phase, clients,
			       l->clients ? l->ops / l->clients : 0, avg, sec, (double)l->lat / 1e6);
}

/* The line for second sec (it ended at the tick now): the bytes of the ops
 * that completed in it, from the clients' rings, however late this is
 * printed; the average since warm-up from the live totals over the real
 * time (a parent held up does not inflate it). */
static void progress(const struct run_config *cfg, const struct run_shared *sh,
		     const struct live *l, uint64_t sec, uint64_t tick, uint64_t *warm_bytes,
		     uint64_t *warm_t, int *warm_seen)
{
	uint64_t bytes = l->bytes, ops = l->ops, now = kb_now_ns();
	char this_sec[32];
	if (l->lost)
		snprintf(this_sec, sizeof(this_sec), "%9s", "-");
	else
		snprintf(this_sec, sizeof(this_sec), "%9.2f", (double)l->sec_bytes / 1e6);
	const char *phase = "warmup";
	double avg;
	if (tick > sh->end_ns) {
		phase = "cleanup";
		avg = NAN;
	} else if (tick > sh->warm_end_ns) {
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
	if (cfg->form) {
		form_progress(cfg, sh, l, tick, avg);
		return;
	}
	if (isnan(avg))
		fprintf(cfg->out, "%4u  %10llu  %s MB/sec  avg       -   %-7s %4llu sec  latency %.3f ms\n",
		       l->clients, (unsigned long long)ops, this_sec, phase,
		       (unsigned long long)sec, (double)l->lat / 1e6);
	else
		fprintf(cfg->out, "%4u  %10llu  %s MB/sec  avg %9.2f  %-7s %4llu sec  latency %.3f ms\n",
		       l->clients, (unsigned long long)ops, this_sec, avg, phase,
		       (unsigned long long)sec, (double)l->lat / 1e6);
	fflush(cfg->out);
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
		pid_t pid = fork();
		if (pid < 0) {
			fprintf(stderr, "kbench load: cannot start client %u: %s\n", first, strerror(errno));
			return -1;
		}
		if (pid == 0) {
			close(barrier[1]);
			int e = p->cg ? memcg_join(p->cg, getpid()) : 0;
			if (e) {
				fprintf(stderr, "kbench load: client %u cannot join memory cgroup %s: %s\n",
					first, p->cg->name, strerror(e));
				_exit(3);
			}
			int st = client_main(cfg, sh, first, count, barrier[0]);
			fflush(NULL);
			_exit(st);
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
	stop_clients(sh, &stop_at);
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

/* From the start until every client process has exited: a progress line a
 * second; a stop on a signal, a client's death or --strict; stuck clients
 * killed 10 s after the stop or the time limit.  Returns the moment of the
 * stop (0 if the run was not stopped). */
/* One look at the clients: the dead reaped, a signal, --strict, the stuck
 * killed; each may stop the run (*stop_at).  Returns 1 when this look
 * stopped it, else 0. */
static int watch_step(const struct run_config *cfg, struct run_shared *sh, struct procs *p,
		      struct run_result *res, uint64_t *stop_at, int *killed)
{
	uint64_t before = *stop_at;
	if (procs_reap(p, cfg, res) && !sh->stop)
		stop_clients(sh, stop_at);
	if (load_signal() && !res->interrupted) {
		res->interrupted = load_signal();
		stop_clients(sh, stop_at);
	}
	if (sh->strict_failed && !*stop_at)
		stop_clients(sh, stop_at);
	uint64_t now = kb_now_ns();
	/* the time limit counts as a stop for a client that does not end */
	int limit = !*stop_at && sh->end_ns != UINT64_MAX && now >= sh->end_ns;
	procs_kill_stuck(p, cfg, limit ? sh->end_ns : *stop_at, limit, killed);
	return !before && *stop_at;
}

static uint64_t watch(const struct run_config *cfg, struct run_shared *sh, struct procs *p,
		      struct run_result *res)
{
	uint64_t t0 = sh->t0_ns, stop_at = 0, warm_bytes = 0, warm_t = 0, sec = 1;
	int warm_seen = 0, killed = 0;
	/* steal from the warm-up's end (seen within 20 ms) to the stop; none
	 * when the run stopped first (clients still going after the stop
	 * are no measured window) */
	struct steal_snap st0 = { 0 }, st1 = { 0 };
	uint64_t st0_at = 0, st1_at = 0;
	while (p->alive) {
		uint64_t tick = t0 + sec * 1000000000ull;
		while (kb_now_ns() < tick && p->alive) {
			if (!st0_at && !stop_at && !sh->stop && kb_now_ns() >= sh->warm_end_ns) {
				steal_take(&st0, NULL);
				st0_at = kb_now_ns();
			}
			watch_step(cfg, sh, p, res, &stop_at, &killed);
			if (st0_at && !st1_at && (stop_at || kb_now_ns() >= sh->end_ns)) {
				steal_take(&st1, NULL);
				st1_at = kb_now_ns();
			}
			uint64_t wake = kb_now_ns() + 20000000ull;
			sleep_until(wake < tick ? wake : tick, NULL);
		}
		if (!p->alive)
			break;
		if (p->cg)
			memcg_sample(p->cg);
		if (!cfg->quiet && !sh->stop) {
			struct live l;
			live_local(cfg, sh, sec, &l);
			progress(cfg, sh, &l, sec, tick, &warm_bytes, &warm_t, &warm_seen);
		}
		/* the series, a second behind: ops that end in a second are in it */
		lat_series_collect(cfg, sh, sec - 1, &res->series);
		sec++;
	}
	if (load_signal() && !res->interrupted) {
		res->interrupted = load_signal();
		if (!stop_at)
			stop_at = kb_now_ns();
	}
	/* every client ended before the time limit (each stopped by an
	 * error): the window ends with them, not at a time nothing ran in */
	uint64_t now = kb_now_ns();
	if (!stop_at && sh->end_ns != UINT64_MAX && now < sh->end_ns)
		stop_at = now;
	if (st0_at && !st1_at) {
		steal_take(&st1, NULL);
		st1_at = kb_now_ns();
	}
	if (st1_at > st0_at) {
		double wall = (double)(st1_at - st0_at) / 1e9;
		long hz = sysconf(_SC_CLK_TCK);
		res->steal_pct = steal_max_pct(&st0, &st1, NULL, 0, wall, hz, NULL);
		res->steal_notable = steal_notable(res->steal_pct, wall, hz);
	}
	steal_free(&st0);
	steal_free(&st1);
	return stop_at;
}

/* This rank's figures for round k (a round every KBMPI_ROUND_NS; the
 * one that ends second s is k = 10 s). */
static void round_of(const struct run_config *cfg, const struct run_shared *sh,
		     const struct procs *p, uint64_t k, uint64_t end_at, int own_stop,
		     struct kbmpi_round *r)
{
	const uint64_t per_sec = 1000000000ull / KBMPI_ROUND_NS;
	struct live l;
	memset(r, 0, sizeof(*r));
	r->sec = k / per_sec;
	live_local(cfg, sh, r->sec ? r->sec : 1, &l);
	r->ops_all = l.ops;
	r->bytes_all = l.bytes;
	if (k % per_sec == 0) {
		r->sec_bytes = l.sec_bytes;
		r->sec_ops = l.sec_ops;
		r->sec_max_ns = l.lat;
		r->lost = (uint32_t)l.lost;
	}
	r->end_at = end_at;
	r->done = !p->alive;
	r->stopped = (uint32_t)own_stop;
	r->stop_rank = r->dead_rank = -1;
}

/* watch() for one rank of a job under MPI: the same looks at this rank's
 * clients, and a round with the others every KBMPI_ROUND_NS until every
 * rank's clients have gone: a stop anywhere stops every rank, with
 * --stonewall so does the first rank's end; rank 0 prints the job's line
 * each second.  A rank that does not answer ends the watch at once
 * (res->job_broken); this rank's clients are stopped and reaped first. */
static uint64_t watch_job(const struct run_config *cfg, struct run_shared *sh, struct procs *p,
			  struct run_result *res)
{
	const uint64_t per_sec = 1000000000ull / KBMPI_ROUND_NS;
	uint64_t stop_at = 0, end_at = UINT64_MAX, warm_bytes = 0, warm_t = 0;
	int warm_seen = 0, killed = 0, own_stop = 0;
	res->stop_rank = -1;
	for (;;) {
		uint64_t now = kb_now_ns();
		if (p->alive && watch_step(cfg, sh, p, res, &stop_at, &killed))
			own_stop = 1;
		now = kb_now_ns();
		if (end_at == UINT64_MAX) {
			/* this rank's end: a stop, the time limit, or its clients' own end */
			if (stop_at)
				end_at = stop_at;
			else if (now >= sh->end_ns)
				end_at = sh->end_ns;
			else if (!p->alive)
				end_at = now;
		}
		struct kbmpi_round mine, job;
		uint64_t k = kbmpi_due(now);
		if (k)
			round_of(cfg, sh, p, k, end_at, own_stop, &mine);
		int r = kbmpi_poll(k ? &mine : NULL, &job, now, load_signal() != 0);
		if (r < 0) {
			res->job_broken = 1;
			if (!sh->stop)
				stop_clients(sh, &stop_at);
			while (p->alive) {
				watch_step(cfg, sh, p, res, &stop_at, &killed);
				sleep_until(kb_now_ns() + 10000000ull, NULL);
			}
			break;
		}
		if (r > 0) {
			if (job.stopped && !sh->stop) {
				res->stop_rank = job.stop_rank;
				stop_clients(sh, &stop_at);
			} else if (job.stopped && res->stop_rank < 0) {
				res->stop_rank = job.stop_rank;
			}
			if (cfg->stonewall && job.end_at != UINT64_MAX && !sh->stop)
				stop_clients(sh, &stop_at);
			if (kbmpi_round_no() % per_sec == 0) {
				uint64_t sec = kbmpi_round_no() / per_sec;
				if (p->cg)
					memcg_sample(p->cg);
				/* this rank's seconds, a second behind as watch() reads
				 * them; rank 0 adds the ranks' at the end */
				lat_series_collect(cfg, sh, sec - 1, &res->series);
				if (!cfg->quiet && !sh->stop) {
					struct live l = { job.ops_all, job.bytes_all, job.sec_bytes,
							  job.sec_ops, job.sec_max_ns, job.lost != 0,
							  cfg->clients_total };
					progress(cfg, sh, &l, sec, sh->t0_ns + sec * 1000000000ull,
						 &warm_bytes, &warm_t, &warm_seen);
				}
			}
			if (job.done == (uint32_t)kbmpi_size())
				break;
		}
		sleep_until(now + 5000000ull, NULL);
	}
	if (load_signal() && !res->interrupted) {
		res->interrupted = load_signal();
		if (!stop_at)
			stop_at = kb_now_ns();
	}
	return stop_at;
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
	if (!cfg->mem_limit)
		return 0;
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
	memset(res, 0, sizeof(*res));
	res->nprocs = nprocs;
	res->mbps = NAN;
	res->steal_pct = NAN;
	/* the merged histograms (324 KiB) are made after the clients have gone:
	 * allocated before the fork, every client would carry their pages */
	res->hist = NULL;
	res->client_bytes = calloc(n, sizeof(*res->client_bytes));
	rs->p = (struct procs){ calloc(nprocs, sizeof(pid_t)), calloc(nprocs, 1), nprocs, 0, NULL, 0 };
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
	*t0 = kb_now_ns();
	if (cfg->mpi) {
		int j = kbmpi_start(start == 0, t0);
		if (j < 0)
			res->job_broken = 1;
		if (!start && j) {
			if (j > 0 && kbmpi_rank() == 0)
				fprintf(stderr, "kbench load: a rank could not start its clients: "
					"the start is called off\n");
			start = -1;
		}
		res->clock_bound_ms = (double)kbmpi_offset_bound_ns() / 1e6;
	}
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
	uint64_t stop_at = cfg->mpi ? watch_job(cfg, rs->sh, &rs->p, res) :
			   watch(cfg, rs->sh, &rs->p, res);
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
	if (res->died && cfg->mpi)
		fprintf(stderr, "kbench load: rank %d (%s): %s\n", kbmpi_rank(),
			kbmpi_host(kbmpi_rank()), res->died_msg);
	else if (res->died)
		fprintf(stderr, "kbench load: %s\n", res->died_msg);
	if (cfg->mpi && !res->job_broken && kbmpi_gather(res, cfg->nclients, load_signal() != 0) < 0)
		res->job_broken = 1;
	if (res->job_broken)
		return 1;
	if (res->died || res->interrupted || res->strict_stop || res->setup_failed || res->nfatal ||
	    res->stuck)
		return 1;
	return 0;
}

/* Once every client process has gone: what the cgroup did read and the
 * cgroup removed, the mapping and the process table released. */
static void run_teardown(struct run_state *rs, struct run_result *res)
{
	if (rs->p.cg) {
		char why[PATH_MAX + 160];
		memcg_read(rs->p.cg, &res->mem);
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
	int rc;
	/* the stop signals only set a note (load_signals_arm), so the cgroup
	 * made here is removed in run_teardown whatever happens */
	if (load_signal() || prepare(cfg, &rs.p, &rs.cg, res) < 0 || load_signal()) {
		uint64_t t0;
		if (cfg->mpi && kbmpi_start(0, &t0) < 0)  /* the others call it off too */
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
	run_teardown(&rs, res);
	return rc;
}

void run_result_free(struct run_result *res)
{
	lat_result_free(res);
	free(res->hist);
	free(res->client_bytes);
	free(res->errs);
	free(res->ranks);
	memset(res, 0, sizeof(*res));
}
