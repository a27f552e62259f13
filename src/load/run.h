/* kbench - running a loadfile with N clients: shared state and entry points
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The parent maps one MAP_SHARED region: a header it writes (start and end
 * times, the stop flag) and one cache-line-aligned slot per client that
 * only that client writes (counters, per-opcode latency histograms, the
 * errors it saw).  No locks: a slot has a single writer, and the parent
 * reads the few live counters with relaxed atomic loads.
 *
 * Time: every op is attributed by its completion time on CLOCK_MONOTONIC.
 * Ops completing in [warm_end_ns, end_ns) are measured; nothing else is.
 */
#ifndef KBENCH_RUN_H
#define KBENCH_RUN_H

#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>
#include "load/backend.h"
#include "load/client.h"       /* the clients' side: client_main(), sleep_until() */
#include "load/program.h"
#include "stats/hist.h"
#include "sys/clock.h"
#include "sys/memcg.h"

struct coord;

#define ERR_SLOTS 32      /* distinct (line, errno) errors kept per client */
#define SEC_SLOTS 8       /* per-second ring (max latency, bytes): a parent held
			   * up to 7 s still reports each second's own figures */

struct err_slot {
	uint32_t line;        /* loadfile line */
	uint8_t code;         /* enum opcode */
	uint8_t expect;       /* enum expect */
	uint16_t pad_;
	int32_t err;          /* errno of the failure, 0 if it unexpectedly succeeded */
	uint32_t pad2_;
	uint64_t count;
};

struct client_stats {
	/* live counters, read by the parent each second */
	uint64_t ops_all;                /* ops completed since the start */
	uint64_t bytes_all;              /* ReadX+WriteX bytes since the start */
	uint64_t sec_tag[SEC_SLOTS];     /* second (from t0) the slot describes */
	uint64_t sec_max[SEC_SLOTS];     /* largest latency in that second, ns */
	uint64_t sec_bytes[SEC_SLOTS];   /* bytes of the ops completed in it */
	uint64_t sec_ops[SEC_SLOTS];     /* ops completed in it */
	uint32_t sec_hist[SEC_SLOTS][HIST_COARSE_BUCKETS];  /* their latencies, ns,
					  * in hist.h's coarse scheme */
	/* measured window */
	uint64_t ops;                    /* ops completed in the window */
	uint64_t bytes;                  /* bytes moved in the window */
	/* whole run */
	uint64_t passes;                 /* complete passes over the loadfile */
	uint64_t errors;                 /* ops whose outcome was not the expected one */
	uint64_t errors_unlisted;        /* errors beyond ERR_SLOTS distinct ones */
	uint64_t late_ops;               /* timed ops that started after their time */
	uint64_t late_sum_ns;
	uint64_t late_max_ns;
	uint64_t last_op_ns;             /* completion time of the latest op */
	uint64_t unsupported[OP_COUNT];  /* ops the backend cannot express (BE_EUNSUPPORTED) */
	uint32_t nerr_slots;
	int32_t fatal;                   /* errno that stopped the client, 0 if none */
	struct err_slot errs[ERR_SLOTS];
	struct hist_rec hist[OP_COUNT];  /* latencies in the window, ns */
	struct hist_rec lag;             /* how late each op with a due time (a
					  * timestamp, -R) started, in the window, ns */
} __attribute__((aligned(64)));

struct run_shared {
	volatile int stop;               /* parent -> clients: stop now */
	volatile int strict_failed;      /* a client stopped the run (--strict) */
	uint64_t t0_ns;                  /* barrier release */
	uint64_t warm_end_ns;            /* measurement starts */
	uint64_t end_ns;                 /* measurement ends (UINT64_MAX: --run-once) */
	uint32_t ready;                  /* clients set up, waiting at the barrier */
	uint32_t finished;               /* client processes done */
	struct client_stats client[];    /* nclients slots */
} ;

/* Everything a run needs, fixed before the first fork. */
struct run_config {
	const struct program *prog;
	const struct backend *backend;
	struct backend_opts bopts;
	int rootfd;                      /* DIR */
	unsigned nclients;
	unsigned per_proc;               /* clients per process */
	double warmup_s;                 /* seconds */
	double timelimit_s;              /* seconds after warm-up */
	int run_once;                    /* each client makes one pass */
	int strict;                      /* stop at the first error */
	double target_rate;              /* MB/s per client, 0 = unlimited */
	int quiet;                       /* no per-second lines */
	int drop_caches;                 /* sync and drop the caches before the start */
	uint64_t mem_limit;              /* bytes of memory + page cache for the
					    clients' cgroup (0: no cgroup) */
	const struct memcg_site *memcg_site;  /* where to make it (with mem_limit) */
	FILE *out;                       /* where text goes (stderr with --json -) */
	const struct coord *coord;       /* the run's participants (load/coord.h) */
	int stonewall;                   /* --mpi: every rank ends when the first does */
	unsigned clients_total;          /* clients of every participant (--mpi: of
					  * every rank; else nclients) */
	int latency_from_due;            /* --latency-from due: open loop (a latency
					  * runs from when the op was due) */
	int form;                        /* enum load_form: whose lines are printed */
	int pass_times;                  /* a line per client per pass (dbform.h) */
};

#define RUN_HOST_MAX 64

/* One rank's figures at the end (--mpi: results.per_rank[]). */
struct run_rank {
	char host[RUN_HOST_MAX];
	uint32_t clients;
	uint32_t nprocs;
	uint64_t ops, bytes, errors, passes;
	double measured_s;             /* its window, s */
	double mbps;                   /* bytes / 10^6 / its window; NAN: none */
	int32_t died, interrupted, strict_stop, setup_failed;
	uint32_t stuck, nfatal;
	char why[160];                 /* the died message, or "" */
};

/* What a run measured, merged over all clients. */
struct run_error {
	uint32_t line;
	uint8_t code;
	uint8_t expect;
	int32_t err;
	uint64_t count;
};

/* One client's figures over the measured window. */
struct run_client {
	uint64_t ops, bytes, errors;
	uint64_t lag_p99_ns;      /* p99 of its lag (ops with a due time; 0: none) */
	uint64_t lag_n;           /* ops with a due time it started, in the window */
	unsigned nb;              /* non-empty buckets of its latency histogram */
	uint32_t *idx;            /* their indexes (hist.h's scheme), ops of every kind */
	uint64_t *cnt;            /* their counts */
	double window_s;          /* its run's measured window, s (its MB/sec's divisor) */
};

/* One second of the run (the second ending t s after the start). */
struct run_point {
	uint64_t bytes, ops;      /* of the ops that completed in it */
	uint64_t max_ns, p99_ns;  /* their largest latency and p99 (coarse scheme) */
	int warmup;               /* the second began before the warm-up's end */
	int lost;                 /* its figures are unknown (the parent fell behind) */
	uint32_t coff, cnb;       /* its latencies' coarse counts: run_series's
				   * cidx[] and ccnt[] from coff, cnb of them */
};

struct run_series {
	struct run_point *pts;    /* pts[k] is the second ending k+1 s after the start */
	size_t n, cap;
	uint32_t *cidx;           /* every second's non-empty coarse buckets (hist.h) */
	uint64_t *ccnt;           /* and their counts */
	size_t cn, ccap;
};

struct run_result {
	int interrupted;          /* signal number that interrupted the run, or 0 */
	int strict_stop;          /* --strict stopped the run at an error */
	int died;                 /* a client process died */
	char died_msg[160];       /* "client 3 (pid 1234) killed by signal 9" */
	int setup_failed;         /* clients could not start */
	unsigned stuck;           /* client processes killed because they did not stop */
	char stuck_msg[64];       /* the first of them: "client 3 (pid 1234)" */
	unsigned nprocs;
	double measured_s;        /* length of the measured window, s (0: none) */
	double steal_pct;         /* the largest share of one CPU's time the
				   * hypervisor took during the measured window
				   * (sys/steal.h), percent; NAN when not known */
	int steal_notable;        /* steal_notable() of it: worth a line */
	uint64_t ops;             /* ops in the window */
	uint64_t bytes;           /* ReadX+WriteX bytes in the window */
	double mbps;              /* bytes / 10^6 / measured_s, NAN if none */
	uint64_t max_latency_ns;  /* largest single op latency in the window */
	uint64_t errors;          /* all ops whose outcome was not expected */
	uint64_t unsupported[OP_COUNT]; /* ops not carried out: the backend's
				   * protocol cannot express them */
	uint64_t passes;          /* complete passes, all clients */
	uint64_t late_ops, late_sum_ns, late_max_ns;
	struct hist *hist;        /* OP_COUNT merged histograms */
	struct run_client *clients; /* nclients_kept: each client's own figures */
	unsigned nclients_kept;
	struct run_series series; /* the per-second figures, from the start */
	struct hist lag;          /* how late ops with a due time started (merged) */
	uint64_t *client_bytes;   /* nclients: bytes each moved in the window */
	struct run_error *errs;   /* distinct errors, most frequent first */
	size_t nerrs;
	uint64_t errors_unlisted; /* errors not in errs */
	unsigned nfatal;          /* clients stopped early by an error */
	unsigned fatal_client;    /* the first of them */
	int fatal_err;            /* and its errno */
	int mem_limited;          /* the clients ran in a memory cgroup */
	struct memcg_stats mem;   /* what it did (with mem_limited) */
	int oom_killed;           /* the OOM killer killed a client: no throughput */
	int mem_left;             /* the cgroup could not be removed (said on stderr) */
	/* --mpi (rank 0 holds the job's figures, the others their own) */
	struct run_rank *ranks;   /* rank 0: nranks, every rank's figures; else NULL */
	unsigned nranks;
	int job_broken;           /* a rank died or stopped answering: no figures */
	int stop_rank;            /* the rank whose stop stopped the job, or -1 */
	double clock_bound_ms;    /* the ranks' clocks agree with rank 0's within this */
};

/* Fork the clients, release them together, print a line a second, stop
 * them at the end (or on a stop signal noted by load/signals.h, a client's
 * death, --strict), and merge what they measured into res.  A signal
 * before the start (while forking or waiting for the clients to set up)
 * forks no more clients, kills those there and measures nothing
 * (res->interrupted, return 1).  A client process that is still there 10 s
 * after the stop or the time limit (stopped, hung) is named on stderr and
 * killed (res->stuck; return 1); what it did until then counts.  First, with drop_caches, sync and
 * drop the caches; with mem_limit, make the cgroup kbench-PID under
 * memcg_site, which each client process joins right after fork (before
 * its setup and the barrier), sample its usage each second, read what it
 * did into res->mem once the clients are gone and remove it, also after
 * an error or a signal.  A client killed by SIGKILL while the cgroup's
 * OOM-kill count rose is reported as killed by the OOM killer, and the
 * run then has no throughput (res->mbps NAN).  Returns 0 if the run completed, 1
 * if it was cut short (res says why), -1 if it could not start (message
 * printed). */
int run_load(const struct run_config *cfg, struct run_result *res);

/* Throughput as dbench defines it: bytes / 10^6 / seconds of the window
 * [start_ns, end_ns).  Returns MB/s (MB = 10^6 bytes), or NAN when the
 * window is empty (end_ns <= start_ns): no window, no figure. */
double run_throughput_mbps(uint64_t bytes, uint64_t start_ns, uint64_t end_ns);

/* The run's outcome, the one rule every output form follows: whether
 * its figure is a result.  Returns NULL for a run that went its whole
 * course (no stop signal, --strict stop, lost client, rank or stuck
 * process), in which every operation ended as its line expects and
 * something was measured; otherwise buf (len bytes, a phrase such as
 * "12 operations did not end as the loadfile expects") saying why its
 * figure, if any, is not a result.  Such a run prints no line that starts
 * with "Throughput" in any form, and exits non-zero. */
const char *run_failure(const struct run_result *res, char *buf, size_t len);

/* Release what run_load allocated in res. */
void run_result_free(struct run_result *res);


#endif
