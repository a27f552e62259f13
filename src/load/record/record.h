/* kbench - the run's record: what a run is given and what it measured
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The types every room of kbench load passes around, in one header that
 * declares no function: the shared mapping the clients write and the
 * parent reads (struct run_shared, a struct client_stats a client: one
 * writer a slot, no locks), what a run is given before the first fork
 * (struct run_config) and what the report records of the command line
 * (struct load_params), and what a run measured, merged over its clients
 * and, under --mpi, its ranks (struct run_result).  run.c fills them,
 * merge.c and latency.c build the result, report.c and dbench_form.c
 * print it.
 *
 * Time: every op is attributed by its completion time on CLOCK_MONOTONIC.
 * Ops completing in [warm_end_ns, end_ns) are measured; nothing else is.
 */
#ifndef KBENCH_LOAD_RECORD_H
#define KBENCH_LOAD_RECORD_H

#include <stdint.h>
#include <stdio.h>
#include "load/backend/backend.h"
#include "load/loadfile/program.h"
#include "stats/hist.h"
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

/* every recorder of a slot can use every group: the pool never runs out */
#define CLIENT_CHUNKS ((OP_COUNT + 1) * HIST_GROUPS)

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
	uint32_t nchunks;                /* chunks of chunk[] handed out */
	/* the buckets of hist[] and lag, 64 at a time as values land in them
	 * (hist.h): a client touches the pages of the groups it uses */
	struct hist_chunk chunk[CLIENT_CHUNKS] __attribute__((aligned(4096)));
} __attribute__((aligned(64)));

/* Record ns into r, one of st's recorders (its hist[] or lag). */
static inline void client_hist_add(struct client_stats *st, struct hist_rec *r, uint64_t ns)
{
	const struct hist_pool pool = { st->chunk, CLIENT_CHUNKS, &st->nchunks };
	hist_rec_add(r, &pool, ns);
}

/* dst += r, one of st's recorders. */
static inline void client_hist_merge(struct hist *dst, const struct client_stats *st,
				     const struct hist_rec *r)
{
	hist_merge_rec(dst, r, st->chunk, st->nchunks < CLIENT_CHUNKS ? st->nchunks : CLIENT_CHUNKS);
}

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
	uint64_t parse_peak_bytes;       /* peak RSS of the process that parsed
					  * prog (loadfile_load_apart), bytes;
					  * 0: it came from another rank */
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
	const struct coord *coord;       /* the run's participants (load/run/coord.h) */
	int stonewall;                   /* --mpi: every rank ends when the first does */
	unsigned clients_total;          /* clients of every participant (--mpi: of
					  * every rank; else nclients) */
	int latency_from_due;            /* --latency-from due: open loop (a latency
					  * runs from when the op was due) */
	int form;                        /* enum load_form: whose lines are printed */
	int pass_times;                  /* a line per client per pass (dbench_form.h) */
};

/* What the report records of the command line beside the run's figures. */
struct load_params {
	const char *loadfile;
	const char *directory;
	int per_client_results;
	uint64_t mem_limit;       /* --mem-limit, bytes (0: none) */
	int drop_caches;          /* --drop-caches */
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

/* What kbench itself held during a run, apart from what it measured: in a
 * low-memory study that memory is the kernel's no longer (results.own_memory,
 * ownmem.c).  This participant's figures (--mpi: each rank its own). */
struct run_ownmem {
	uint64_t program_bytes;     /* the program's memfd (packed ops), bytes:
				     * shmem, in no process's RSS */
	uint64_t arena_bytes;       /* its paths and directory table, bytes (the
				     * parent's heap, shared with the clients
				     * copy-on-write) */
	uint64_t parent_peak_bytes; /* the parent's peak RSS up to the merge
				     * (getrusage ru_maxrss), bytes */
	uint64_t parse_peak_bytes;  /* the peak RSS of the short-lived process
				     * that parsed the loadfile (kbench-parse,
				     * wait4's ru_maxrss), bytes; 0 on a rank
				     * that got the program from rank 0 */
	uint64_t client_peak_bytes; /* the largest peak RSS of one client process
				     * (wait4's ru_maxrss), bytes; 0: none reaped */
	uint64_t client_peak_sum;   /* the sum of those peaks, bytes (pages
				     * several share count in each) */
	unsigned client_procs;      /* client processes the two cover */
	uint64_t shared_bytes;      /* pages of the shared region (the clients'
				     * slots) in memory at the end, bytes */
	uint64_t charged_bytes;     /* --mem-limit: what of the cgroup's charge was
				     * kbench's own: its processes' memory at the
				     * highest sample (memcg_stats.proc_peak_bytes)
				     * plus shared_bytes; MEMCG_UNKNOWN otherwise */
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
	double other_cpu_pct;     /* CPU time other processes than the run's took
				   * in the measured window (sys/cpubusy.h), percent
				   * of one CPU; NAN when not known */
	uint64_t ops;             /* ops in the window */
	uint64_t bytes;           /* ReadX+WriteX bytes in the window */
	double mbps;              /* bytes / 10^6 / measured_s, NAN if none */
	uint64_t max_latency_ns;  /* largest single op latency in the window */
	uint64_t errors;          /* all ops whose outcome was not expected */
	int unchecked;            /* the loadfile's format never had its statuses
				   * checked (lf_statuses_checked): errors are
				   * mismatches, named and a caveat, not failures */
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
	const char *report_failed; /* what failed after the run (the cleanup, the
				    * --json file not written), or NULL: the
				    * run then exits 1 */
	struct run_ownmem own;    /* kbench's own memory */
	/* --mpi (rank 0 holds the job's figures, the others their own) */
	struct run_rank *ranks;   /* rank 0: nranks, every rank's figures; else NULL */
	unsigned nranks;
	int job_broken;           /* a rank died or stopped answering: no figures */
	int stop_rank;            /* the rank whose stop stopped the job, or -1 */
	double clock_bound_ms;    /* the ranks' clocks agree with rank 0's within this */
};

#endif
