/* kbench - suite: the types of a series of runs, its jobs, options and files
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A job is one kind of child command the suite repeats: "disk -T",
 * "disk -t", "load N" (or "load N mem=X" with --mem-limit), "micro".
 * Each job runs --runs times; each run of load and disk gives one figure
 * to the test row of the same name; a micro run gives one figure to each
 * micro test it reports (a row per test).  The results document counts
 * attempted runs per job in "done", so --resume knows where to carry on.
 *
 * struct suite is the whole series: the options as given and parsed
 * (opts.h), where it writes (resfile.h), its jobs in run order (jobs.h)
 * and the results document (suitefile.h gives its layout).
 */
#ifndef KBENCH_SUITE_SERIES_H
#define KBENCH_SUITE_SERIES_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <jansson.h>

#include "load/load.h"
#include "sys/memcg.h"

/* -t's default for each load run of a series: a tenth of kbench load's
 * own (LOAD_DEFAULT_TIMELIMIT_S, load/rules.h), since a series repeats
 * each run --runs times for every client count and memory limit. */
#define SUITE_DEFAULT_TIMELIMIT_S (LOAD_DEFAULT_TIMELIMIT_S / 10)

#define SUITE_MAX_RUNS 1000      /* --runs */
/* --runs' default: 8 a side is the fewest whose U-test floor, 2 / C(16, 8)
 * = 0.000155, lets one change among up to 322 tests pass
 * Benjamini-Hochberg at 95% (0.05 / m); 5 a side (0.0079) could prove
 * nothing in a study of 7 tests or more */
#define SUITE_DEFAULT_RUNS 8
#define SUITE_MAX_CLIENTS 64     /* entries of --clients */
#define SUITE_MAX_MEMS 16        /* entries of --mem-limit */
#define SUITE_MAX_MICRO 256      /* micro tests named by --micro=TESTS */
#define SUITE_MAX_JOBS ((2 + SUITE_MAX_CLIENTS + 1) * SUITE_MAX_MEMS)

enum job_kind { JOB_DISK_CACHED, JOB_DISK_BUFFERED, JOB_LOAD, JOB_MICRO };

struct job {
	enum job_kind kind;
	unsigned clients;        /* load: client count */
	const char *mem;         /* --mem-limit item ("32M", "none") it runs under, or NULL */
	uint64_t mem_bytes;      /* that limit in bytes; 0: none */
	char name[96];           /* the job's and (but for micro) its test's name */
	double spent_s;          /* seconds its runs took in this process */
	unsigned timed;          /* runs behind spent_s */
};

struct suite {
	const char *cmd;
	/* options as given (popt's strings, owned) */
	char *dir, *loadfile, *timelimit, *warmup, *disk, *label, *out, *format, *resume;
	char *clients_arg, *runs_arg, *pause_arg, *mem_arg, *micro_arg;
	char *until_arg, *max_runs_arg;   /* --until-stable PCT, --max-runs N */
	char *detect_arg, *budget_arg;    /* --runs auto's --detect PCT, --budget TIME */
	char *mpi;                     /* --mpi "mpirun ...": the load children's prefix */
	int drop_caches, micro;
	/* passed through to kbench load as given: load's own through table
	 * (load/options/options.h) fills it; load_opts_init'ed, never copied */
	struct load_opts load;
	/* passed to kbench micro */
	char *copies_arg;
	int micro_quick;
	/* parsed */
	unsigned clients[SUITE_MAX_CLIENTS];
	size_t nclients;               /* 0 with --clients none: no load job */
	unsigned per_proc;             /* --clients-per-process (1), as load parsed it */
	char *mems[SUITE_MAX_MEMS];    /* split copies of --mem-limit */
	uint64_t mem_bytes[SUITE_MAX_MEMS];   /* their bytes; 0: none */
	size_t nmems;
	char *micro_tests[SUITE_MAX_MICRO];
	size_t nmicro;
	unsigned runs;
	bool until_stable;             /* --until-stable given (untilstable.h) */
	double until_pct;              /* its PCT */
	unsigned max_runs;             /* --max-runs; runs without --until-stable */
	bool auto_runs;                /* --runs auto: runs as planned (autoruns.h) */
	double detect_pct;             /* its --detect */
	double budget_s;               /* its --budget; 0: none */
	double timelimit_s, warmup_s, pause_s;   /* warmup_s < 0: load's default */
	char *loadfile_path;           /* the loadfile kbench load reads (load/rules.h), owned */
	bool load_mem_limit, load_drop_caches;   /* what this kbench load accepts */
	struct memcg_site memcg_site;  /* where disk and micro children's cgroups go */
	bool have_memcg_site;
	uint64_t child_peak;           /* the last disk or micro child's cgroup peak, bytes; 0: none */
	/* the series */
	const char *exe;               /* the kbench binary run as children */
	struct job jobs[SUITE_MAX_JOBS];
	size_t njobs;
	json_t *doc;                   /* the results document (suitefile.h) */
	char path[PATH_MAX];           /* the results file */
	char tmpdir[PATH_MAX + 48];    /* beside it, for the children's documents */
	char child_json[PATH_MAX + 80];    /* the child's --json document */
	char child_out[PATH_MAX + 80], child_log[PATH_MAX + 80];  /* its stdout, stderr */
	json_t *notes_seen;            /* the children's setup notes passed on (passon.h) */
};

#endif
