/* kbench - the parent's watch over a load run: looks, rounds, progress
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What watch.h promises.  The loop looks at this participant's clients
 * as often as the coordinator's wake() says (alone every 20 ms and at
 * each second's end; under MPI every 5 ms); at each round due it reads
 * this participant's live counters and the clients' rings of the second
 * just ended (in_second) and hands them to the coordinator, whose poll
 * gives back the run's: sums over the participants, or this one's own
 * when it is alone.  The progress line of a second is printed from the
 * run's figures by participant 0.
 */
#include "config.h"
#include "load/run/client.h"
#include "load/run/coord.h"
#include "load/report/dbench_form.h"
#include "load/record/latency.h"
#include "load/run/signals.h"
#include "load/run/watch.h"
#include "sys/clock.h"
#include "sys/cpubusy.h"
#include "sys/memcg.h"
#include "sys/steal.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

void watch_stop_clients(struct run_shared *sh, uint64_t *stop_at)
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

/* What a progress line shows: the run's figures (load/run/coord.h). */
struct live {
	uint64_t ops, bytes;       /* since the start */
	uint64_t sec_bytes;        /* completed in the second the line is for */
	uint64_t sec_ops;          /* ops completed in it */
	uint64_t lat;              /* the largest latency in it, ns */
	int lost;                  /* sec_bytes unknown */
	unsigned clients;          /* every participant's clients */
	uint32_t left;             /* those still running (UINT32_MAX: not counted) */
};

/* --output-form dbench: dbench's line, its seconds counted from the
 * start of the phase (warm-up, or the measured window) as dbench does;
 * the second the time limit ends is a cleanup line, as dbench's (no
 * execute line for it: -t 3 gives seconds 1 and 2). */
static void form_progress(const struct run_config *cfg, const struct run_shared *sh,
			    const struct live *l, uint64_t tick, double avg)
{
	int phase = tick >= sh->end_ns ? 2 : tick > sh->warm_end_ns ? 1 : 0;
	uint64_t from = phase ? sh->warm_end_ns : sh->t0_ns;
	uint64_t sec = tick > from ? (tick - from + 500000000ull) / 1000000000ull : 0;
	unsigned clients = l->clients;
	if (phase == 2 && l->left < clients)
		clients = l->left;
	dbform_progress(cfg->out, (enum load_form)cfg->form, phase, clients,
			       l->clients ? l->ops / l->clients : 0, avg, sec, (double)l->lat / 1e6);
}

/* Where the average of the execute phase counts from. */
struct warm {
	uint64_t bytes, t;
	int seen;
};

/* The line for second sec (it ended at the tick now): the bytes of the ops
 * that completed in it, from the clients' rings, however late this is
 * printed; the average since warm-up from the live totals over the real
 * time (a parent held up does not inflate it). */
static void progress(const struct run_config *cfg, const struct run_shared *sh,
		     const struct live *l, uint64_t sec, uint64_t tick, struct warm *w)
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
		if (!w->seen) {  /* no tick fell in warm-up: count from t0 */
			w->seen = 1;
			w->bytes = 0;
			w->t = sh->t0_ns;
		}
		double t = (double)(now - w->t) / 1e9;
		avg = t > 0 ? (double)(bytes - w->bytes) / 1e6 / t : NAN;
	} else {
		w->seen = 1;
		w->bytes = bytes;
		w->t = now;
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

/* What the watch holds from the start to its end. */
struct watch {
	uint64_t stop_at;          /* this participant's stop, or 0 */
	uint64_t end_at;           /* its end (coord_round's), or UINT64_MAX */
	int killed;                /* procs_kill_stuck's note */
	int own_stop;              /* the stop began here */
	struct warm warm;
	/* steal from the warm-up's end (seen within a look) to the stop; none
	 * when the run stopped first (clients still going after the stop are
	 * no measured window) */
	struct steal_snap st0, st1;
	struct cpubusy_snap cb0, cb1;   /* other processes' CPU time, the same window */
	uint64_t st0_at, st1_at;
};

/* One look at the clients: the dead reaped, a signal, --strict, the stuck
 * killed; each may stop the run (w->stop_at).  Returns 1 when this look
 * stopped it, else 0. */
static int watch_step(const struct run_config *cfg, struct run_shared *sh, struct procs *p,
		      struct run_result *res, struct watch *w)
{
	uint64_t before = w->stop_at;
	if (procs_reap(p, cfg, res) && !sh->stop)
		watch_stop_clients(sh, &w->stop_at);
	if (load_signal() && !res->interrupted) {
		res->interrupted = load_signal();
		watch_stop_clients(sh, &w->stop_at);
	}
	if (sh->strict_failed && !w->stop_at)
		watch_stop_clients(sh, &w->stop_at);
	uint64_t now = kb_now_ns();
	/* the time limit counts as a stop for a client that does not end */
	int limit = !w->stop_at && sh->end_ns != UINT64_MAX && now >= sh->end_ns;
	procs_kill_stuck(p, cfg, limit ? sh->end_ns : w->stop_at, limit, &w->killed);
	return !before && w->stop_at;
}

/* A look with the steal's snapshots around it, and this participant's
 * end noted. */
static void look(const struct run_config *cfg, struct run_shared *sh, struct procs *p,
		 struct run_result *res, struct watch *w)
{
	if (!w->st0_at && !w->stop_at && !sh->stop && kb_now_ns() >= sh->warm_end_ns) {
		steal_take(&w->st0, NULL);
		cpubusy_take(&w->cb0, p->pid, p->n);
		w->st0_at = kb_now_ns();
	}
	if (p->alive && watch_step(cfg, sh, p, res, w))
		w->own_stop = 1;
	uint64_t now = kb_now_ns();
	if (w->st0_at && !w->st1_at && (w->stop_at || now >= sh->end_ns)) {
		steal_take(&w->st1, NULL);
		cpubusy_take(&w->cb1, p->pid, p->n);
		w->st1_at = kb_now_ns();
	}
	if (w->end_at == UINT64_MAX) {
		/* this participant's end: a stop, the time limit, or its clients' own end */
		if (w->stop_at)
			w->end_at = w->stop_at;
		else if (now >= sh->end_ns)
			w->end_at = sh->end_ns;
		else if (!p->alive)
			w->end_at = now;
	}
}

/* This participant's figures for round k (a round every cfg->coord's
 * round_ns; the one that ends second s is k = s * rounds a second). */
static void round_of(const struct run_config *cfg, const struct run_shared *sh,
		     const struct procs *p, uint64_t k, const struct watch *w,
		     struct coord_round *r)
{
	const uint64_t per_sec = 1000000000ull / cfg->coord->round_ns;
	uint64_t done = (uint64_t)sh->finished * cfg->per_proc;
	memset(r, 0, sizeof(*r));
	r->sec = k / per_sec;
	uint64_t sec = r->sec ? r->sec : 1;
	r->ops_all = sum_live(sh, cfg->nclients, 0);
	r->bytes_all = sum_live(sh, cfg->nclients, 1);
	if (k % per_sec == 0) {
		r->lost = in_second(sh, cfg->nclients, sec - 1, &r->sec_max_ns, &r->sec_bytes,
				    &r->sec_ops) < 0;
	}
	r->left = done < cfg->nclients ? (uint32_t)(cfg->nclients - done) : 0;
	r->end_at = w->end_at;
	r->done = !p->alive;
	r->stopped = (uint32_t)w->own_stop;
	r->stop_rank = -1;
}

/* The run's figures of a round: a stop anywhere stops this participant,
 * with --stonewall so does the first participant's end; at a second's
 * end the cgroup sampled, the series read and the progress line printed.
 * Returns 1 when every participant's clients have exited, else 0. */
static int on_round(const struct run_config *cfg, struct run_shared *sh, struct procs *p,
		    struct run_result *res, const struct coord_round *run, struct watch *w)
{
	if (run->stopped && !sh->stop) {
		res->stop_rank = run->stop_rank;
		watch_stop_clients(sh, &w->stop_at);
	} else if (run->stopped && res->stop_rank < 0) {
		res->stop_rank = run->stop_rank;
	}
	if (cfg->stonewall && run->end_at != UINT64_MAX && !sh->stop)
		watch_stop_clients(sh, &w->stop_at);
	if (run->sec) {
		if (p->cg)
			memcg_sample(p->cg);
		/* the series, a second behind: ops that end in a second are in
		 * it (this participant's; participant 0 adds the others' at the
		 * end) */
		lat_series_collect(cfg, sh, run->sec - 1, &res->series);
		if (!cfg->quiet && !sh->stop) {
			struct live l = { run->ops_all, run->bytes_all, run->sec_bytes, run->sec_ops,
					  run->sec_max_ns, run->lost != 0, cfg->clients_total,
					  run->left };
			progress(cfg, sh, &l, run->sec, sh->t0_ns + run->sec * 1000000000ull,
				 &w->warm);
		}
	}
	return run->done == (uint32_t)cfg->coord->nparts;
}

/* After the watch: a late signal, the window's end when every client
 * ended before the time limit, and the steal over the window. */
static void watch_close(struct run_shared *sh, struct run_result *res, struct watch *w)
{
	if (load_signal() && !res->interrupted) {
		res->interrupted = load_signal();
		if (!w->stop_at)
			w->stop_at = kb_now_ns();
	}
	/* every client ended before the time limit (each stopped by an
	 * error): the window ends with them, not at a time nothing ran in */
	uint64_t now = kb_now_ns();
	if (!w->stop_at && sh->end_ns != UINT64_MAX && now < sh->end_ns)
		w->stop_at = now;
	if (w->st0_at && !w->st1_at) {
		steal_take(&w->st1, NULL);
		cpubusy_take(&w->cb1, NULL, 0);   /* the clients are reaped: in our cutime */
		w->st1_at = kb_now_ns();
	}
	if (w->st1_at > w->st0_at) {
		double wall = (double)(w->st1_at - w->st0_at) / 1e9;
		long hz = sysconf(_SC_CLK_TCK);
		res->steal_pct = steal_max_pct(&w->st0, &w->st1, NULL, 0, wall, hz, NULL);
		res->steal_notable = steal_notable(res->steal_pct, wall, hz);
		res->other_cpu_pct = cpubusy_other_pct(&w->cb0, &w->cb1, wall, hz);
	}
	steal_free(&w->st0);
	steal_free(&w->st1);
}

uint64_t watch_run(const struct run_config *cfg, struct run_shared *sh, struct procs *p,
		   struct run_result *res)
{
	const struct coord *co = cfg->coord;
	struct watch w;
	memset(&w, 0, sizeof(w));
	w.end_at = UINT64_MAX;
	res->stop_rank = -1;
	for (;;) {
		look(cfg, sh, p, res, &w);
		uint64_t now = kb_now_ns();
		struct coord_round mine, run;
		uint64_t k = co->due(now, !p->alive);
		if (k)
			round_of(cfg, sh, p, k, &w, &mine);
		int r = co->poll(k ? &mine : NULL, &run, now, load_signal() != 0);
		if (r < 0) {
			/* a participant is lost: this one's clients stopped and reaped */
			res->job_broken = 1;
			if (!sh->stop)
				watch_stop_clients(sh, &w.stop_at);
			while (p->alive) {
				watch_step(cfg, sh, p, res, &w);
				sleep_until(kb_now_ns() + 10000000ull, NULL);
			}
			break;
		}
		if (r > 0 && on_round(cfg, sh, p, res, &run, &w))
			break;
		sleep_until(co->wake(kb_now_ns()), NULL);
	}
	watch_close(sh, res, &w);
	return w.stop_at;
}
