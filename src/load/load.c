/* kbench load - replay a dbench-style loadfile with N client processes
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * usage: kbench load [OPTIONS] NCLIENTS
 *        kbench load --check FILE [--format FORMAT]
 *
 * Order of work: choose the run's coordinator (load/run/coord.h: alone, or
 * with --mpi a rank of a job), check the command line (options.c), agree
 * on the input through the coordinator (the whole loadfile parsed), check
 * what --drop-caches and --mem-limit need (root, a memory controller, a
 * limit the clients can start under), make the target ready (target.c:
 * the directory and the --json destination, or the server) and agree on
 * the statuses; only then fork (run.c), report (report.c) and clean up.
 * Bad input anywhere never starts a client (exit 2).  After the run
 * everything the run created in the directory is removed (--skip-cleanup
 * keeps it); entries that were there before stay.
 */
#include "config.h"
#include "commands.h"
#include "cli.h"
#include "load/load.h"
#include "load/loadfile/check.h"
#include "load/run/coord.h"
#include "load/mpi/coord_mpi.h"
#include "load/rules.h"
#include "load/loadfile/lfapart.h"
#include "load/loadfile/loadfile.h"
#include "load/options/options.h"
#include "load/report/report.h"
#include "load/record/merge.h"
#include "load/record/outcome.h"
#include "load/run/run.h"
#include "load/run/signals.h"
#include "load/dir/target.h"
#include "load/backend/trees.h"
#include "result/caveat.h"
#include "result/result.h"
#include "result/sysinfo.h"
#include "sys/caches.h"
#include "sys/filepages.h"
#include "sys/memcg.h"

#include <errno.h>
#include <limits.h>
#include <popt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAX_PARSE_ERRORS 20
#define CHECK_MAX_ERRORS 100

/* What a run holds from the loadfile on, released by state_free. */
struct load_state {
	const struct coord *co;      /* the run's participants, chosen once */
	char *loadfile;              /* the path read (load_loadfile_path), owned */
	struct program prog;
	uint64_t parse_peak_bytes;   /* the parse's process's peak RSS (lfapart.h) */
	struct memcg_site site;      /* where the cgroup goes (with --mem-limit) */
	struct load_target t;        /* the directory or the server */
	struct run_result res;
	char cmd[PATH_MAX];          /* "kbench load: WHO" when the coordinator
				      * names this participant, for messages */
	const struct load_opts *o;   /* for read_input */
};

/* kbench load --check FILE: every error, or the figures of one pass. */
static int check_loadfile(const char *path, enum lf_format format)
{
	struct program prog;
	struct lf_check c;
	int rc = loadfile_load(path, format, &prog, stderr, CHECK_MAX_ERRORS);
	if (rc)
		return KB_EXIT_USAGE;
	if (lf_check_compute(&prog, &c) < 0) {
		fprintf(stderr, "kbench load: %s: %s\n", path, strerror(errno));
		prog_free(&prog);
		return KB_EXIT_FAIL;
	}
	lf_check_print(stdout, &prog, &c);
	prog_free(&prog);
	return KB_EXIT_OK;
}

/* --check's FILE found as -c would be, then checked. */
static int check_command(const struct load_opts *o, struct load_state *st)
{
	st->loadfile = load_loadfile_path(o->check_file);
	return st->loadfile ? check_loadfile(st->loadfile, o->lf_format) : KB_EXIT_FAIL;
}

/* The loadfile, whole, before anything else happens. */
static int read_loadfile(const struct load_opts *o, struct load_state *st)
{
	if (o->loadfile && !*o->loadfile)
		return cli_usage_error(o->cmd, "--loadfile needs a file name");
	st->loadfile = load_loadfile_path(o->loadfile);
	if (!st->loadfile) {
		fprintf(stderr, "%s: out of memory\n", o->cmd);
		return KB_EXIT_FAIL;
	}
	if (loadfile_load_apart(st->loadfile, o->lf_format, &st->prog, stderr, MAX_PARSE_ERRORS,
				&st->parse_peak_bytes))
		return KB_EXIT_USAGE;
	if (o->latency_from_due && !st->prog.timed && !(o->target_rate > 0))
		return cli_usage_error(o->cmd, "--latency-from due needs a schedule: -R or a "
				       "loadfile with timestamps (%s has none)", st->loadfile);
	return KB_EXIT_OK;
}

/* coord_read_fn: the loadfile read on participant 0 (load/run/coord.h). */
static int read_input(void *arg)
{
	struct load_state *st = arg;
	return read_loadfile(st->o, st);
}

/* What needs root, before any directory is made: --drop-caches, and
 * --mem-limit's floor and memory controller (into st->site). */
/* What needs root, before any directory is made: --drop-caches, and
 * --mem-limit's floor and memory controller (into st->site). */
static int check_system(const struct load_opts *o, struct load_state *st)
{
	char why[PATH_MAX + 256];
	if (o->drop_caches && caches_drop_check(why, sizeof(why)) < 0) {
		fprintf(stderr, "%s: --drop-caches: %s\n", o->cmd, why);
		return KB_EXIT_USAGE;
	}
	if (!o->mem_limit_bytes)
		return KB_EXIT_OK;
	uint64_t floor = load_mem_floor(o->nclients, (unsigned)o->per_proc, st->prog.max_io);
	if (o->mem_limit_bytes < floor) {
		fprintf(stderr, "%s: --mem-limit %s is below the %.2f MiB (2^20 bytes) "
			"%llu client%s to start (%llu KiB a client process, plus each "
			"client's %u-byte I/O buffer)\n", o->cmd, o->mem_limit,
			(double)floor / 1048576.0, (unsigned long long)o->nclients,
			o->nclients == 1 ? " needs" : "s need",
			(unsigned long long)(LOAD_MEM_FLOOR_PER_PROC >> 10), st->prog.max_io);
		return KB_EXIT_USAGE;
	}
	if (memcg_detect(&st->site, why, sizeof(why)) < 0) {
		fprintf(stderr, "%s: --mem-limit: %s\n", o->cmd, why);
		return KB_EXIT_USAGE;
	}
	return KB_EXIT_OK;
}

static struct run_config run_config_of(const struct load_opts *o, struct load_state *st)
{
	unsigned per_proc = (unsigned)o->per_proc;
	return (struct run_config){
		.prog = &st->prog,
		.parse_peak_bytes = st->parse_peak_bytes,
		.backend = o->backend,
		.bopts = st->t.bopts,
		.rootfd = st->t.rootfd,
		.nclients = (unsigned)o->nclients,
		.per_proc = per_proc > o->nclients ? (unsigned)o->nclients : per_proc,
		.warmup_s = o->warmup_s,
		.timelimit_s = o->timelimit_s,
		.run_once = o->run_once,
		.strict = o->strict,
		.target_rate = o->target_rate,
		.latency_from_due = o->latency_from_due,
		.quiet = o->quiet || st->co->rank != 0,  /* participant 0 speaks for the run */
		.drop_caches = o->drop_caches,
		.mem_limit = o->mem_limit_bytes,
		.memcg_site = o->mem_limit_bytes ? &st->site : NULL,
		/* with --json -, standard output carries the JSON alone */
		.out = result_json_stdout(o->json) ? stderr : stdout,
		.coord = st->co,
		.stonewall = o->stonewall,
		.clients_total = o->clients_total ?
			(unsigned)strtoull(o->clients_total, NULL, 10) :
			(unsigned)o->nclients * (unsigned)st->co->nparts,
		.form = (int)o->form,
		.pass_times = o->pass_times,
	};
}

/* What is about to run, before the first progress line. */
static void print_banner(const struct run_config *cfg, const struct load_state *st)
{
	FILE *out = cfg->out;
	if (cfg->form) {  /* dbench's opening lines */
		dbform_banner(out, cfg->run_once && !cfg->timelimit_s ? 0 :
				     cfg->timelimit_s, cfg->warmup_s, st->loadfile);
		return;
	}
	if (cfg->backend->flags & BACKEND_LOCAL)
		fprintf(out, "kbench %s load: %u clients, loadfile %s (%zu ops a pass), directory %s\n",
			PACKAGE_VERSION, cfg->nclients, st->loadfile, st->prog.nops,
			st->t.base);
	else
		fprintf(out, "kbench %s load: %u clients, loadfile %s (%zu ops a pass), -B %s %s\n",
			PACKAGE_VERSION, cfg->nclients, st->loadfile, st->prog.nops,
			cfg->backend->name, cfg->backend->describe ?
			cfg->backend->describe(&cfg->bopts) : "");
	cfg->coord->describe(out, cfg->clients_total, cfg->stonewall);
	if (cfg->run_once)
		fprintf(out, "one pass per client, warm-up %.1f s; MB = 10^6 bytes\n", cfg->warmup_s);
	else
		fprintf(out, "warm-up %.1f s, then %.1f s measured; MB = 10^6 bytes\n",
			cfg->warmup_s, cfg->timelimit_s);
	if (cfg->mem_limit)
		fprintf(out, "clients in a memory cgroup (v%d, under %s) limited to %.2f MiB "
			"(2^20 bytes)\n", st->site.version, st->site.dir,
			(double)cfg->mem_limit / 1048576.0);
	if (cfg->drop_caches)
		fprintf(out, "sync and drop caches before the start\n");
	fflush(out);
}

/* Why nothing was measured, when the report does not say it. */
static void say_unmeasured(const char *cmd, const struct run_result *res)
{
	if (res->setup_failed)
		fprintf(stderr, "%s: clients could not start\n", cmd);
	if (res->setup_failed || (res->interrupted && !res->ops))
		;  /* the report says why nothing was measured */
	else if (res->measured_s <= 0)
		fprintf(stderr, "%s: no measurement: the run stopped before warm-up ended\n", cmd);
	else if (!res->ops)
		fprintf(stderr, "%s: no measurement: no operation completed in the measured %.2f s\n",
			cmd, res->measured_s);
}

/* The run's document with its caveats (caveat_attach), made with or
 * without --json: the text's warnings are printed from its list.  NULL
 * when out of memory. */
static json_t *run_document(const struct run_config *cfg, const struct load_params *lp,
			    const struct load_state *st)
{
	struct kb_sysinfo si;
	sysinfo_collect(&si, st->t.directory);
	json_t *doc = load_report_json(cfg, lp, &st->res, &si);
	if (doc && !caveat_attach(doc)) {
		json_decref(doc);
		return NULL;
	}
	return doc;
}

/* The report of a run that started (run_load returned r >= 0) and the
 * status it ends with: 128 + the signal when interrupted, 1 when it failed
 * or measured nothing, else 0. */
static int report(const struct load_opts *o, const struct run_config *cfg,
		  const struct load_state *st, int r)
{
	const struct run_result *res = &st->res;
	struct load_params lp = { st->loadfile, st->t.base, o->per_client,
				  o->mem_limit_bytes, o->drop_caches };
	int status = KB_EXIT_OK;
	char why[256];
	if (res->job_broken) {
		/* a rank is gone: what is left would be a made-up total */
		if (st->co->rank == 0)
			fprintf(cfg->out, "\nno results: the job lost a rank (said above)\n");
		return res->interrupted ? 128 + res->interrupted : KB_EXIT_FAIL;
	}
	if (st->co->rank != 0) {
		/* participant 0 reports the run; another's status is its own */
		if (res->interrupted)
			return 128 + res->interrupted;
		return r || run_failure(res, why, sizeof(why)) ? KB_EXIT_FAIL : KB_EXIT_OK;
	}
	json_t *doc = run_document(cfg, &lp, st);
	/* the document first: a run whose --json is lost exits 1, and a run
	 * that exits non-zero prints no figure line (run_failure) */
	struct run_result shown = *res;
	if (o->json && result_write_json(o->cmd, doc, st->t.json_dest) < 0) {
		status = KB_EXIT_FAIL;
		shown.report_failed = "the JSON document could not be written";
	}
	load_report_text(cfg->out, cfg, &lp, &shown, json_object_get(doc, "caveats"));
	fflush(cfg->out);
	say_unmeasured(o->cmd, res);
	json_decref(doc);
	if (res->mem_left && !status)
		status = KB_EXIT_FAIL;
	if (res->interrupted)
		status = 128 + res->interrupted;
	else if (r || run_failure(res, why, sizeof(why)))
		status = status ? status : KB_EXIT_FAIL;
	return status;
}

/* The report's text flushed to out: a write that failed (a full disk,
 * /dev/full, a reader gone) is said and is the status if none was. */
static int flush_report(const struct load_opts *o, FILE *out, int status)
{
	if (fflush(out) == EOF || ferror(out)) {
		fprintf(stderr, "%s: cannot write the report: %s\n", o->cmd, strerror(errno));
		if (!status)
			status = KB_EXIT_FAIL;
	}
	return status;
}

/* The report written; a stop signal that came after the run, during the
 * cleanup or the report, is the exit status all the same (128 + N), as at
 * any other moment, with a line saying the figures above were whole. */
static int finish(const struct load_opts *o, FILE *out, int status)
{
	status = flush_report(o, out, status);
	int sig = load_signal();
	if (sig && (status == KB_EXIT_OK || status == KB_EXIT_FAIL) && status != 128 + sig) {
		char name[CLI_SIGNAME_LEN];
		fprintf(stderr, "%s: %s after the run: the figures above are the whole run's; "
			"the cleanup was finished\n", o->cmd, cli_signal_name(sig, name));
		status = 128 + sig;
	}
	return status;
}

/* report() in a short-lived child, kbench-report: the document, the text
 * and the JSON file take some 0.9 MiB (jansson's objects, the code of
 * the report, the system facts) that would otherwise stay in the parent's
 * peak RSS; every client has exited by now.  The child's exit status is
 * report's.  When the child cannot be made, the report is built here. */
static int report_apart(const struct load_opts *o, const struct run_config *cfg,
			const struct load_state *st, int r)
{
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0)
		return report(o, cfg, st, r);
	if (pid == 0) {
		prctl(PR_SET_NAME, "kbench-report");
		memcg_oom_first();  /* not the parent, which has the cleanup to do */
		/* the text is written here, so its failure is found here */
		int status = flush_report(o, cfg->out, report(o, cfg, st, r));
		fflush(NULL);
		_exit(status & 0xff);
	}
	int ws;
	pid_t w;
	do
		w = waitpid(pid, &ws, 0);
	while (w < 0 && errno == EINTR);
	if (w == pid && WIFEXITED(ws)) {
		/* the child judged the stream, with the error flag of any write
		 * made here before the fork (the banner, the progress lines),
		 * and said what failed: said once, not again by finish() */
		clearerr(cfg->out);
		return WEXITSTATUS(ws);
	}
	fprintf(stderr, "%s: the report process ended by signal %d\n", o->cmd,
		w == pid && WIFSIGNALED(ws) ? WTERMSIG(ws) : 0);
	return KB_EXIT_FAIL;
}

/* The run itself, once everything is checked: banner, run_load, cleanup,
 * report. */
static int run_and_report(const struct load_opts *o, struct load_state *st)
{
	struct run_config cfg = run_config_of(o, st);
	if (!cfg.quiet)
		print_banner(&cfg, st);
	int r = run_load(&cfg, &st->res);
	/* the cleanup before the report (a stop signal does not cut it short:
	 * what the run made still goes): a run that could not remove all it
	 * made exits 1, and a run that exits non-zero prints no figure line */
	int cleaned = load_target_cleanup(o, cfg.out, &st->t, KB_EXIT_OK);
	if (cleaned)
		st->res.report_failed = "what the run made could not all be removed (said above)";
	int status = r < 0 ? KB_EXIT_FAIL : report_apart(o, &cfg, st, r);
	if (cleaned && !status)
		status = cleaned;
	return finish(o, cfg.out, status);
}

/* kbench load NCLIENTS: checks, then the run.  Every participant checks
 * its own command line and system and makes its own target; the
 * coordinator agrees on the input first and on the statuses before any
 * client starts, so that bad input anywhere stops every participant. */
static int run_command(struct load_opts *o, poptContext ctx, struct load_state *st)
{
	const struct coord *co = st->co;
	/* a stop signal from here on ends the command cleanly: at once while
	 * nothing has been made, then through the run (load/run/signals.h) */
	load_signals_catch(result_json_stdout(o->json) ? STDERR_FILENO : STDOUT_FILENO);
	int status = load_opts_check(o, ctx);
	st->o = o;
	status = co->input(o, status, read_input, st, &st->prog);
	if (!status && !st->loadfile && !(st->loadfile = strdup(st->prog.source)))
		status = KB_EXIT_FAIL;  /* the program came from participant 0 */
	if (!status)
		status = check_system(o, st);
	/* the directory, or the server: from here on there may be something
	 * to clean up */
	load_signals_arm();
	if (!status)
		status = load_target_prepare(o, co, st->loadfile, &st->prog, &st->t);
	int mine = status;
	/* bad input on any participant stops every one before a client starts */
	status = co->agree(status);
	if (status && !mine)
		load_target_undo(o, &st->t);
	return status ? status : run_and_report(o, st);
}

/* Release what st holds; a directory made for a run that never started
 * (bad input, status 2) is removed. */
static void state_free(const struct load_opts *o, struct load_state *st, int status)
{
	load_target_free(o, &st->t, status);
	run_result_free(&st->res);  /* takes a result that was never filled */
	prog_free(&st->prog);
	free(st->loadfile);
}

int cmd_load(int argc, const char **argv)
{
	struct load_opts o;
	/* The run's state is static, in pages the kernel hands out zeroed
	 * (bss), not in this frame.  In the frame, ~40 KiB that memset
	 * writes (the paths' buffers, the result) would be resident in the
	 * parent and, shared copy-on-write, in every client's RSS; here only
	 * the pages written are, and most of it is written after the clients
	 * exit or never.  cmd_load runs once a process. */
	static struct load_state st;
	poptContext ctx;
	/* start-up's pages (every library's symbol tables, libm's IFUNC
	 * resolvers) are no part of a run's memory (sys/filepages.h) */
	filepages_drop(NULL);
	load_opts_init(&o, argv[0]);
	st.prog.fd = -1;
	load_target_init(&st.t);
	/* the coordinator, chosen here once: alone, or a rank of an MPI job */
	st.co = coord_local();
	int status = load_opts_parse(&o, argc, argv, &ctx);
	if (!status && o.mpi && o.check)
		status = cli_usage_error(o.cmd, "--check does not go with --mpi");
	if (!status && o.mpi)  /* kbench --with-mpi: kbench-mpi from here on */
		status = coord_mpi_exec(o.cmd, argc, argv);
	if (!status && o.mpi)
		status = coord_mpi_open(o.cmd, &st.co);
	if (!status && *st.co->who) {
		/* every message of a participant names it */
		snprintf(st.cmd, sizeof(st.cmd), "%s: %s", o.cmd, st.co->who);
		o.cmd = st.cmd;
	}
	trees_reuse(o.reuse_trees);
	if (!status)
		status = o.check ? check_command(&o, &st) : run_command(&o, ctx, &st);
	load_signals_release();
	state_free(&o, &st, status);
	load_opts_free(&o);
	poptFreeContext(ctx);
	st.co->end(status);  /* --mpi: the job ends (or is ended, when a rank is lost) */
	return status;
}

int load_loadfile_max_io(const char *path, uint32_t *max_io)
{
	char *shipped = path ? NULL : load_loadfile_path(NULL);
	const char *p = path ? path : shipped;
	struct program prog;
	int rc = p ? loadfile_load(p, LF_AUTO, &prog, NULL, 1) : -1;
	free(shipped);
	if (rc)
		return -1;
	*max_io = prog.max_io;
	prog_free(&prog);
	return 0;
}
