/* kbench - the suite command: repeated load, disk and micro runs into one file
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * usage: kbench suite [-D DIR] [--clients 1,5,10] [--runs 5] [-t SEC]
 *                     [--disk DEV] [--micro[=TESTS]] [--pause SEC]
 *                     [--drop-caches] [--mem-limit LIST] [--label NAME]
 *                     [-o FILE] [--format=text|benchstat]
 *                     [--until-stable PCT --max-runs N]
 *        kbench suite --resume FILE
 *
 * A kernel tester's series: every selected test run --runs times, each run
 * a fresh `kbench load|disk|micro --json` child (jobs.c builds their
 * command lines and reads their documents), with a sync, an optional
 * page-cache drop and a pause before it.  Every child's document is kept
 * whole in one results file (suitefile.h), rewritten atomically after
 * every run, so an interruption loses at most the run in progress and
 * --resume carries on from the file.  The end is a table of every test's
 * figures with min, median, mean, max and CoV (figures.c).
 *
 * Invariants: a figure is recorded only from a child that exited 0 and
 * whose document holds it; a failed run is recorded as a failure (which
 * run, its exit status, its last line) and makes the exit status 1.
 * Nothing is written outside DIR (by the children), the results file, its
 * lock FILE.lock and a temporary directory beside it (resfile.h), the
 * last two removed at the end.  One series writes a results file at a
 * time: it holds the lock from before its first read or write of the file
 * to after its last (lock.h).  Strings from a results file or a child are
 * printed escaped (escape.h).
 */
#include "config.h"
#include "commands.h"
#include "cli.h"
#include "result/result.h"
#include "result/sysinfo.h"
#include "sys/child.h"
#include "resultsfile/escape.h"
#include "resultsfile/figures.h"
#include "resultsfile/sfnew.h"
#include "suite/jobs.h"
#include "suite/lock.h"
#include "suite/opts.h"
#include "suite/passon.h"
#include "suite/plan.h"
#include "suite/precheck.h"
#include "suite/progress.h"
#include "suite/resfile.h"
#include "suite/runtrees.h"
#include "suite/sysdoc.h"
#include "resultsfile/suitefile.h"
#include "suite/autoruns.h"
#include "suite/untilstable.h"
#include "sys/caches.h"
#include "sys/settings.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <popt.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t stop_signal;

static void on_signal(int sig)
{
	stop_signal = sig;
}

static json_t *now_json(void)
{
	char when[RESULT_TIME_LEN];
	result_time_now(when, sizeof(when));
	return json_string(when);
}

/* Sleep s seconds unless a signal stops the suite first. */
static void pause_s(double s)
{
	struct timespec ts = { (time_t)s, (long)((s - floor(s)) * 1e9) };
	while (!stop_signal && nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

static int save(const struct suite *s)
{
	char err[512];
	json_object_set_new(s->doc, "updated", now_json());
	if (result_write(s->doc, s->path, err, sizeof(err)) < 0) {
		char shown[600];
		fprintf(stderr, "%s: %s\n", s->cmd, esc_str(shown, sizeof(shown), err));
		return -1;
	}
	return 0;
}

/* ---- the runs ---- */

static double estimate(const struct suite *s, const struct job *j)
{
	if (j->timed)
		return j->spent_s / j->timed;
	/* untimed: as long as the timed runs of the same kind, else a guess */
	double spent = 0;
	unsigned timed = 0;
	for (size_t k = 0; k < s->njobs; k++)
		if (s->jobs[k].kind == j->kind) {
			spent += s->jobs[k].spent_s;
			timed += s->jobs[k].timed;
		}
	return timed ? spent / timed : jobs_guess_s(s, j);
}

/* Seconds left after the run (ji, ri), or NAN when some job has no guess. */
static double time_left(const struct suite *s, size_t ji, unsigned ri)
{
	double left = 0;
	for (size_t j = ji; j < s->njobs; j++) {
		unsigned done = jobs_done(s, &s->jobs[j]);
		unsigned first = j == ji ? ri + 1 : done;
		/* --runs auto: the planned runs once there is a plan */
		unsigned want = s->auto_runs ? autoruns_planned(s, &s->jobs[j]) : s->runs;
		if (first < done)
			first = done;
		if (first >= want)
			continue;
		double e = estimate(s, &s->jobs[j]);
		if (isnan(e))
			return NAN;
		left += (want - first) * (e + s->pause_s);
	}
	return left;
}

static void record_failure(struct suite *s, const struct job *j, unsigned run, int status,
			   const char *message, const char *started)
{
	json_t *fails = json_object_get(s->doc, "failures");
	json_array_append_new(fails, json_pack("{s:s, s:i, s:i, s:s, s:s}", "test", j->name,
					       "run", (int)run, "exit_status", status,
					       "message", message, "started", started));
}

/* Where a run stands in the series, for its progress line. */
struct run_pos {
	unsigned run;      /* of its job, 1-based */
	unsigned pos;      /* of the series, 1-based */
	unsigned total;    /* runs of the series */
};

/* The progress line of a run on stderr: "CMD: [POS/TOTAL] JOB, run R of
 * RUNS: " (a run --until-stable added: "run R of at most N, until stable: ")
 * then head, what (escaped) and "; left" unless left is NULL. */
static void say(const struct suite *s, const struct job *j, const struct run_pos *p,
		const char *head, const char *what, const char *left)
{
	char shown[700];
	bool added = p->run > s->runs && !s->auto_runs;
	unsigned of = s->auto_runs ? autoruns_planned(s, j) : added ? s->max_runs : s->runs;
	fprintf(stderr, "%s: [%u/%u] %s, run %u of %s%u%s: %s%s%s%s\n", s->cmd, p->pos, p->total,
		j->name, p->run, added ? "at most " : "", of, added ? ", until stable" :
		s->auto_runs && p->run <= s->runs ? " (pilot)" : s->auto_runs ? " (planned)" : "",
		head, esc_str(shown, sizeof(shown), what), left ? "; " : "", left ? left : "");
}

/* "about 3m07s left" after run p->run of j, or "time left unknown". */
static void left_text(const struct suite *s, const struct job *j, unsigned run, char *buf,
		      size_t n)
{
	double tl = time_left(s, (size_t)(j - s->jobs), run - 1);
	if (isnan(tl)) {
		snprintf(buf, n, "time left unknown");
	} else {
		char d[40];
		fig_duration(d, sizeof(d), tl);
		snprintf(buf, n, "about %s left", d);
	}
}

/* The child of one run of j, its outcome in *cr (127 when it could not be
 * started) and its time counted for the estimates.  Returns 0, or -1 when
 * a signal stopped it. */
static int run_child(struct suite *s, struct job *j, struct child_result *cr)
{
	struct job_args a;
	struct memcg cg;
	char why[PATH_MAX + 160], name[32];
	memcg_init(&cg);
	s->child_peak = 0;
	jobs_args(s, j, &a);
	unlink(s->child_json);
	/* disk and micro under --mem-limit: the child in a cgroup of its own
	 * (kbench load makes its clients' own from its --mem-limit) */
	if (j->kind != JOB_LOAD && j->mem_bytes) {
		snprintf(name, sizeof(name), "kbench-%ld", (long)getpid());
		if (!s->have_memcg_site || memcg_create(&s->memcg_site, name, j->mem_bytes, &cg, why,
							  sizeof(why)) < 0) {
			cr->status = 127;
			snprintf(cr->last_line, sizeof(cr->last_line), "--mem-limit: %.200s",
				 s->have_memcg_site ? why : "no memory controller found");
			return 0;
		}
	}
	/* --mpi "mpirun ...": that command line, then this kbench load --mpi */
	const char *argv[64 + sizeof(a.argv) / sizeof(a.argv[0])], *exe = s->exe;
	const char *const *args = a.argv;
	char words[1024];
	if (s->mpi && j->kind == JOB_LOAD) {
		size_t n = 0;
		snprintf(words, sizeof(words), "%s", s->mpi);
		for (char *w = strtok(words, " \t"); w && n < 60; w = strtok(NULL, " \t"))
			argv[n++] = w;
		argv[n++] = s->exe;
		argv[n++] = a.argv[0];
		argv[n++] = "--mpi";
		for (size_t i = 1; a.argv[i - 1]; i++)
			argv[n++] = a.argv[i];
		exe = argv[0];
		args = argv + 1;
	}
	/* a local load: the trees in DIR before it, so that those a killed
	 * run leaves (and only those) go before the next run */
	struct run_trees rt = { .dirfd = -1 };
	const char *be = load_opts_backend_given(&s->load);
	if (j->kind == JOB_LOAD && !s->mpi && (!be || !strcmp(be, "fileio")) &&
	    runtrees_note(&rt, s->dir ? s->dir : ".", j->clients) < 0)
		fprintf(stderr, "%s: cannot note the client trees in %s: %s\n", s->cmd,
			s->dir ? s->dir : ".", strerror(errno));
	int rc = child_run_in(exe, args, s->child_out, s->child_log,
			      j->mem_bytes && j->kind != JOB_LOAD ? &cg : NULL, &stop_signal, cr);
	int e = errno;
	if (rc == 0 && cr->status != 0)
		runtrees_sweep(&rt, s->dir ? s->dir : ".", s->cmd);
	runtrees_free(&rt);
	if (cg.dirfd >= 0) {
		struct memcg_stats ms;
		int got = rc == 0 && memcg_read(&cg, &ms) == 0;
		if (got && ms.peak_bytes != MEMCG_UNKNOWN)
			s->child_peak = ms.peak_bytes;
		if (got && ms.oom_kills != MEMCG_UNKNOWN && ms.oom_kills > 0 && cr->status != 0)
			snprintf(cr->last_line, sizeof(cr->last_line), "OOM-killed under the memory "
				 "limit of %s (%llu kill%s)", j->mem, (unsigned long long)ms.oom_kills,
				 ms.oom_kills == 1 ? "" : "s");
		if (memcg_remove(&cg, why, sizeof(why)) < 0)
			fprintf(stderr, "%s: --mem-limit: %s\n", s->cmd, why);
	}
	if (rc < 0) {
		cr->status = 127;
		snprintf(cr->last_line, sizeof(cr->last_line), "cannot start %.150s: %.80s", s->exe,
			 strerror(e));
		return 0;
	}
	if (stop_signal)
		return -1;
	j->spent_s += cr->seconds + (s->drop_caches ? 1 : 0);
	j->timed++;
	return 0;
}

/* One run of job j.  Returns 0 when it ran (a figure or a recorded
 * failure), -1 when a signal stopped it (nothing recorded). */
static int one_run(struct suite *s, struct job *j, const struct run_pos *p)
{
	char why[300], started[RESULT_TIME_LEN], line[600], left[64], head[64];
	struct child_result cr;
	sync();
	if (s->drop_caches && caches_drop(why, sizeof(why)) < 0) {
		result_time_now(started, sizeof(started));
		record_failure(s, j, p->run, KB_EXIT_FAIL, why, started);
		say(s, j, p, "FAILED: ", why, NULL);
		return 0;
	}
	pause_s(s->pause_s);
	if (stop_signal)
		return -1;
	result_time_now(started, sizeof(started));
	if (run_child(s, j, &cr) < 0)
		return -1;
	if (!s->notes_seen)
		s->notes_seen = json_array();
	if (s->notes_seen)
		passon_notes(stderr, s->child_log, s->notes_seen);
	left_text(s, j, p->run, left, sizeof(left));
	if (cr.status != 0 && jobs_micro_errors(s, j, line, sizeof(line)) == 0) {
		/* a micro run where some tests gave no figure: the figures the
		 * others gave are kept, the failure names the rest */
		char got[600];
		if (jobs_record(s, j, started, cr.seconds, got, sizeof(got)) == 0)
			say(s, j, p, "", got, NULL);
		record_failure(s, j, p->run, cr.status, line, started);
		snprintf(head, sizeof(head), "FAILED, exit status %d: ", cr.status);
		say(s, j, p, head, line, left);
	} else if (cr.status != 0) {
		if (jobs_failure_reason(s, j, line, sizeof(line)) < 0)
			snprintf(line, sizeof(line), "%s", cr.last_line[0] ? cr.last_line :
				 "(no output)");
		record_failure(s, j, p->run, cr.status, line, started);
		snprintf(head, sizeof(head), "FAILED, exit status %d: ", cr.status);
		say(s, j, p, head, line, left);
	} else if (jobs_record(s, j, started, cr.seconds, line, sizeof(line)) < 0) {
		record_failure(s, j, p->run, cr.status, line, started);
		say(s, j, p, "FAILED: ", line, left);
	} else {
		say(s, j, p, "", line, left);
	}
	return 0;
}

/* Runs made so far over every job, and the series' total: the planned
 * runs and those --until-stable added. */
static unsigned runs_made(const struct suite *s, unsigned *total)
{
	unsigned done = 0;
	*total = 0;
	for (size_t k = 0; k < s->njobs; k++) {
		unsigned d = jobs_done(s, &s->jobs[k]);
		done += d;
		*total += d > s->runs ? d : s->runs;
	}
	return done;
}

/* Job j's runs: its --runs (the pilots under --runs auto), then unless
 * pilot, the runs --until-stable or the plan (autoruns.h) add. */
static int run_job(struct suite *s, struct job *j, struct run_pos *p, bool pilot)
{
	for (unsigned r = jobs_done(s, j);
	     r < s->runs || (!pilot && (ustable_more(s, j) || autoruns_more(s, j))); r++) {
		p->run = r + 1;
		p->pos++;
		p->total += r >= s->runs && !s->auto_runs;
		if (one_run(s, j, p) < 0)
			return -1;
		jobs_set_done(s, j, r + 1);
		ustable_record(s, j);
		if (save(s) < 0)
			return -2;
		if (stop_signal)
			return -1;
	}
	/* a resumed series whose job had all its runs: its rows say so */
	ustable_record(s, j);
	return 0;
}

static int run_all(struct suite *s)
{
	struct run_pos p;
	int rc = 0;
	p.pos = runs_made(s, &p.total);
	/* --runs auto: every job's pilots first, then the plan, said up front */
	for (size_t k = 0; s->auto_runs && !rc && k < s->njobs; k++)
		rc = run_job(s, &s->jobs[k], &p, true);
	if (!rc && autoruns_plan(s, stderr) < 0)
		rc = -2;
	if (!rc && s->auto_runs && save(s) < 0)
		rc = -2;
	if (!rc && s->auto_runs) {
		/* the series' total as planned: the progress lines count to it */
		p.total = 0;
		for (size_t k = 0; k < s->njobs; k++) {
			unsigned d = jobs_done(s, &s->jobs[k]), want = autoruns_planned(s, &s->jobs[k]);
			p.total += d > want ? d : want;
		}
	}
	for (size_t k = 0; !rc && k < s->njobs; k++)
		rc = run_job(s, &s->jobs[k], &p, false);
	return rc;
}

/* ---- setting up ---- */

static json_t *new_document(struct suite *s, int argc, const char **argv)
{
	json_t *cmdline = json_array();
	char cwd[PATH_MAX];
	if (!cmdline || !getcwd(cwd, sizeof(cwd))) {
		json_decref(cmdline);
		return NULL;
	}
	json_array_append_new(cmdline, json_string("kbench"));
	json_array_append_new(cmdline, json_string("suite"));
	for (int i = 1; i < argc; i++)
		json_array_append_new(cmdline, json_string(argv[i]));
	struct kb_sysinfo si;
	sysinfo_collect(&si, NULL);
	struct sf_head h = {
		.label = s->label ? s->label : si.kernel, .command = cmdline,
		.cwd = json_string(cwd),
		.units = json_pack("{s:s, s:s, s:s}",
				   "MB/s", "10^6 bytes per second (kbench load)",
				   "MiB/s", "2^20 bytes per second (kbench disk)",
				   "seconds", "wall-clock seconds of the child run"),
		.params = jobs_params_json(s), .system = suite_system_json(s),
		.started = now_json(), .ended = json_null(), .finished = false,
	};
	return sf_new(&h);
}

/* The document of the series: new, or the resumed one marked so. */
static int start_document(struct suite *s, int argc, const char **argv)
{
	if (!s->doc) {
		s->doc = new_document(s, argc, argv);
		if (!s->doc) {
			fprintf(stderr, "%s: out of memory\n", s->cmd);
			return KB_EXIT_FAIL;
		}
		/* what --resume checks it carries on with (plan.h) */
		return plan_seal(s->cmd, s->doc, s->dir ? s->dir : ".") < 0 ? KB_EXIT_FAIL : 0;
	}
	json_t *res = json_object_get(s->doc, "resumed");
	if (!json_is_array(res)) {
		res = json_array();
		json_object_set_new(s->doc, "resumed", res);
	}
	json_array_append_new(res, now_json());
	json_object_set_new(s->doc, "interrupted", json_false());
	return 0;
}

/* What a series holds from its options to its end (cleanup() frees it). */
struct series {
	struct suite s;
	struct suitefile sf;          /* --resume: the file as read */
	struct results_lock lock;
	const char **rargv;           /* --resume: its stored command line */
	poptContext ctx, rctx;        /* popt's of this and of that command line */
};

/* Where the series writes (the file --resume names, read and its command
 * line parsed again; -o FILE; or the default name), every check before a
 * run, the jobs, and for --resume its progress.  Returns 0 or an exit
 * status after one line. */
static int check_series(struct series *x)
{
	struct suite *s = &x->s;
	char shown[300], why[300];
	int resuming = s->resume != NULL, status = 0;
	if (resuming)
		status = resfile_resume(s, &x->lock, &x->sf, &x->rargv, &x->rctx);
	else if (s->out)
		snprintf(s->path, sizeof(s->path), "%s", s->out);
	else
		resfile_default_path(s);
	if (!status)
		status = resfile_prepare(s, &x->lock);
	if (!status)
		status = opts_check(s);
	if (!status)
		jobs_build(s);
	if (!status)
		status = precheck_jobs(s);
	if (!status && resuming && progress_check(s, why, sizeof(why)) < 0) {
		fprintf(stderr, "%s: %s: %s; cannot resume it\n", s->cmd,
			esc_str(shown, sizeof(shown), s->path), why);
		status = KB_EXIT_USAGE;
	}
	return status;
}

/* The document with a row for every load and disk job, saved before the
 * first run.  Returns 0 or an exit status after one line. */
/* Seconds the machine is watched for other processes' CPU time before
 * the first run (settings_warn_noisy). */
#define SUITE_BUSY_CHECK_S 0.5

static int open_series(struct suite *s, int argc, const char **argv)
{
	int status = start_document(s, argc, argv);
	if (status)
		return status;
	jobs_rows(s);
	if (save(s) < 0)
		return KB_EXIT_USAGE;
	/* once, before the first run: what would make every figure noisy */
	settings_warn_noisy(stderr, s->cmd, NULL, SUITE_BUSY_CHECK_S);
	return 0;
}

/* A signal stopped the series: the file says so, and how to carry on.
 * Returns 128 + the signal. */
static int interrupted(struct suite *s)
{
	char shown[300];
	unsigned total, done = runs_made(s, &total);
	esc_str(shown, sizeof(shown), s->path);
	json_object_set_new(s->doc, "interrupted", json_true());
	save(s);
	fprintf(stderr, "%s: interrupted by signal %d after %u of %u runs; %s holds them; "
		"continue with: kbench suite --resume %s\n", s->cmd, (int)stop_signal, done,
		total, shown, shown);
	return 128 + (int)stop_signal;
}

/* The end of a series after run_all() returned rc: interrupted, failed
 * to save, or finished, saved, its lock and temporary directory gone
 * before the table or the benchstat lines are printed.  Returns the exit
 * status: 1 when a run failed. */
static int finish_series(struct series *x, int rc)
{
	struct suite *s = &x->s;
	cli_default_stop_signals();
	if (rc == -1)
		return interrupted(s);
	if (rc == -2)
		return KB_EXIT_FAIL;
	json_object_set_new(s->doc, "ended", now_json());
	json_object_set_new(s->doc, "finished", json_true());
	if (save(s) < 0)
		return KB_EXIT_FAIL;
	/* the series is over: nothing is left behind if printing dies (SIGPIPE) */
	resfile_remove_tmp(s);
	results_unlock(&x->lock);
	if (s->format && !strcmp(s->format, "benchstat")) {
		suitefile_benchstat(stdout, s->doc);
		ustable_print(stderr, s->doc);     /* not a benchmark line */
		autoruns_print(stderr, s->doc);
	} else {
		fig_table(stdout, s->doc, s->path);
		ustable_print(stdout, s->doc);
		autoruns_print(stdout, s->doc);
	}
	fflush(stdout);
	return json_array_size(json_object_get(s->doc, "failures")) ? KB_EXIT_FAIL : KB_EXIT_OK;
}

static void cleanup(struct series *x)
{
	cli_default_stop_signals();
	resfile_remove_tmp(&x->s);
	results_unlock(&x->lock);
	json_decref(x->s.doc);
	json_decref(x->s.notes_seen);
	opts_free(&x->s);
	suitefile_free(&x->sf);
	free(x->rargv);
	if (x->rctx)
		poptFreeContext(x->rctx);
	if (x->ctx)
		poptFreeContext(x->ctx);
}

int cmd_suite(int argc, const char **argv)
{
	struct series x;
	memset(&x, 0, sizeof(x));
	x.lock.fd = -1;
	x.s.cmd = argv[0];
	stop_signal = 0;

	int status = opts_parse(&x.s, argc, argv, &x.ctx);
	if (!status) {
		/* from the lock on, a signal stops the series cleanly (SIGHUP too:
		 * a lost ssh session; not under nohup), so the lock and temporary
		 * directory are removed */
		cli_catch_stop_signals(on_signal);
		status = check_series(&x);
	}
	if (!status)
		status = open_series(&x.s, argc, argv);
	if (!status)
		status = finish_series(&x, run_all(&x.s));
	cleanup(&x);
	return status;
}
