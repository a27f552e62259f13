/* kbench - suite: options, the jobs of a series, their children and figures
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A job is one kind of child command the suite repeats: "disk -T",
 * "disk -t", "load N" (or "load N mem=X" with --mem-limit), "micro".
 * Each job runs --runs times; each run of load and disk gives one figure
 * to the test row of the same name; a micro run gives one figure to each
 * micro test it reports (a row per test).  The results document counts
 * attempted runs per job in "done", so --resume knows where to carry on.
 */
#ifndef KBENCH_JOBS_H
#define KBENCH_JOBS_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <jansson.h>
#include <popt.h>

#define SUITE_MAX_CLIENTS 64     /* entries of --clients */
#define SUITE_MAX_MEMS 16        /* entries of --mem-limit */
#define SUITE_MAX_MICRO 256      /* micro tests named by --micro=TESTS */
#define SUITE_MAX_JOBS (2 + SUITE_MAX_CLIENTS * SUITE_MAX_MEMS + 1)

enum job_kind { JOB_DISK_CACHED, JOB_DISK_BUFFERED, JOB_LOAD, JOB_MICRO };

struct job {
	enum job_kind kind;
	unsigned clients;        /* load: client count */
	const char *mem;         /* load: --mem-limit item ("32M", "none"), or NULL */
	char name[96];           /* the job's and (but for micro) its test's name */
	double spent_s;          /* seconds its runs took in this process */
	unsigned timed;          /* runs behind spent_s */
};

struct suite {
	const char *cmd;
	/* options as given (popt's strings, owned) */
	char *dir, *loadfile, *timelimit, *warmup, *disk, *label, *out, *format, *resume;
	char *clients_arg, *runs_arg, *pause_arg, *mem_arg, *micro_arg;
	int drop_caches, micro, nopts;
	/* parsed */
	unsigned clients[SUITE_MAX_CLIENTS];
	size_t nclients;
	char *mems[SUITE_MAX_MEMS];    /* split copies of --mem-limit */
	size_t nmems;
	char *micro_tests[SUITE_MAX_MICRO];
	size_t nmicro;
	unsigned runs;
	double timelimit_s, warmup_s, pause_s;   /* warmup_s < 0: load's default */
	char *loadfile_path;           /* the loadfile kbench load reads (load.h), owned */
	bool load_mem_limit, load_drop_caches;   /* what this kbench load accepts */
	/* the series */
	const char *exe;               /* the kbench binary run as children */
	struct job jobs[SUITE_MAX_JOBS];
	size_t njobs;
	json_t *doc;                   /* the results document (suitefile.h) */
	char path[PATH_MAX];           /* the results file */
	char tmpdir[PATH_MAX + 48];    /* beside it, for the children's documents */
	char child_json[PATH_MAX + 80];    /* the child's --json document */
	char child_out[PATH_MAX + 80], child_log[PATH_MAX + 80];  /* its stdout, stderr */
};

/* Parse the suite's options (argv[0] is the command name) into s, leaving
 * popt's context in *ctx for the caller to free (with poptFreeContext,
 * after jobs_free).  Returns 0 or KB_EXIT_USAGE after one line. */
int jobs_parse(struct suite *s, int argc, const char **argv, poptContext *ctx);

/* Check the parsed options against the system: numbers and lists, DIR,
 * the disk, root for --drop-caches (caches_drop_check), and what this
 * kbench's load and micro accept (asked of the binary itself); build the
 * jobs.  Returns 0 or KB_EXIT_USAGE after one line. */
int jobs_check(struct suite *s);

/* The params object of the results document. */
json_t *jobs_params_json(const struct suite *s);

/* Make sure the document has a test row for every load and disk job, in
 * job order (micro rows appear with their first figures). */
void jobs_rows(struct suite *s);

/* The child's command line for one run of j, writing its document to
 * s->child_json. */
struct job_args {
	const char *argv[32 + SUITE_MAX_MICRO];
	char clients[16];
};
void jobs_args(const struct suite *s, const struct job *j, struct job_args *a);

/* Read the child's document after it exited 0 and record its figures (a
 * run {value, started, seconds, document} in each row).  Returns 0 with a
 * one-line description of the figure(s) in msg ("123.45 MB/s"), or -1
 * with the reason nothing was recorded in msg. */
int jobs_record(struct suite *s, const struct job *j, const char *started, double seconds,
		char *msg, size_t msglen);

/* Why a load child that exited non-zero failed, from the document it left
 * (its last line is then often the throughput summary): OOM-killed, or how
 * many operations did not end as the loadfile expects and the first of
 * them.  Returns 0 with the reason in msg, -1 (msg untouched) when the
 * document says neither or is missing. */
int jobs_failure_reason(const struct suite *s, const struct job *j, char *msg, size_t msglen);

/* --resume: does the document's progress agree with itself and with the
 * command line?  Every done count is a whole number from 0 to --runs and
 * names a job; a load or disk job's count is its test's runs plus its
 * failures; a micro job's count is at least its failures plus the runs of
 * each micro test; every test and failure belongs to a job.  Returns 0,
 * or -1 with a one-line reason naming the test in why (whylen bytes). */
int jobs_check_progress(const struct suite *s, char *why, size_t whylen);

/* Runs of j attempted so far (the document's done count). */
unsigned jobs_done(const struct suite *s, const struct job *j);
void jobs_set_done(struct suite *s, const struct job *j, unsigned n);

/* A first guess of one run's seconds before any has been timed (load:
 * warm-up + measured time + 3 s; disk: hdparm's pauses and timings);
 * NAN for micro (its length depends on the tests). */
double jobs_guess_s(const struct suite *s, const struct job *j);

/* Free what jobs_parse allocated and loadfile_path (not the document). */
void jobs_free(struct suite *s);

#endif
