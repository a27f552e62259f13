/* kbench load - replay a dbench-style loadfile with N client processes
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * usage: kbench load [OPTIONS] NCLIENTS
 *        kbench load --check FILE [--format FORMAT]
 *
 * Order of work: check the command line (options.c), parse the whole
 * loadfile, check what --drop-caches and --mem-limit need (root, a memory
 * controller, a limit the clients can start under), check the directory
 * and the --json destination; only then fork (run.c), report (report.c)
 * and clean up.  Bad input never starts a client (exit 2).  After the run
 * everything the run created in the directory is removed (--skip-cleanup
 * keeps it); entries that were there before stay.
 */
#include "config.h"
#include "commands.h"
#include "cli.h"
#include "load/check.h"
#include "load/cleanup.h"
#include "load/trees.h"
#include "load/load.h"
#include "load/loadfile.h"
#include "load/mpi.h"
#include "load/options.h"
#include "load/report.h"
#include "load/run.h"
#include "load/signals.h"
#include "sys/fsutil.h"
#include "result/caveat.h"
#include "result/result.h"
#include "result/sysinfo.h"
#include "sys/caches.h"
#include "sys/memcg.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <malloc.h>
#include <popt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_PARSE_ERRORS 20
#define CHECK_MAX_ERRORS 100

/* What a run holds from the loadfile on, released by state_free. */
struct load_state {
	char *loadfile;              /* the path read (load_loadfile_path), owned */
	struct program prog;
	struct memcg_site site;      /* where the cgroup goes (with --mem-limit) */
	const char *directory;       /* -D, or tmpdir */
	char tmpdir[PATH_MAX];       /* the one made without -D */
	int made_tmpdir;
	int rootfd;                  /* DIR, -1 until opened */
	struct cleanup_plan *plan;   /* what DIR held before the run */
	struct backend_opts bopts;   /* -s -S -F -x and the backend's target */
	int prepared;                /* the backend's prepare() succeeded */
	char json_dest[PATH_MAX];    /* --json, checked (result_destination) */
	struct run_result res;
	/* --mpi */
	char cmd[KBMPI_HOST_MAX + 64];  /* "kbench load: rank R (HOST)", for messages */
	const char *base;            /* DIR itself (st->directory is DIR/rank<r>) */
	char rankdir[PATH_MAX];      /* DIR/rank<r> */
	int made_rankdir;            /* made by this run, removed after it */
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
	if (loadfile_load(st->loadfile, o->lf_format, &st->prog, stderr, MAX_PARSE_ERRORS))
		return KB_EXIT_USAGE;
	if (o->latency_from_due && !st->prog.timed && !(o->target_rate > 0))
		return cli_usage_error(o->cmd, "--latency-from due needs a schedule: -R or a "
				       "loadfile with timestamps (%s has none)", st->loadfile);
	return KB_EXIT_OK;
}

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

/* -D DIR: a directory kbench may write in. */
static int check_directory(const char *cmd, const char *dir)
{
	struct stat st;
	if (stat(dir, &st) < 0) {
		fprintf(stderr, "%s: %s: %s\n", cmd, dir, strerror(errno));
		return KB_EXIT_USAGE;
	}
	if (!S_ISDIR(st.st_mode)) {
		fprintf(stderr, "%s: %s: not a directory\n", cmd, dir);
		return KB_EXIT_USAGE;
	}
	if (access(dir, W_OK | X_OK) < 0) {
		fprintf(stderr, "%s: %s: not writable: %s\n", cmd, dir, strerror(errno));
		return KB_EXIT_USAGE;
	}
	return KB_EXIT_OK;
}

/* Without -D: a new directory under $TMPDIR (or /tmp), st->tmpdir. */
static int make_tmpdir(const char *cmd, struct load_state *st)
{
	if (cli_make_tmpdir(cmd, "kbench-load", st->tmpdir, sizeof(st->tmpdir)) < 0)
		return KB_EXIT_USAGE;
	st->directory = st->tmpdir;
	st->made_tmpdir = 1;
	return KB_EXIT_OK;
}

/* Each client process may hold every handle of the loadfile open, and
 * a fileio client its directory fds. */
static void raise_nofile(const struct program *prog, unsigned per_proc)
{
	struct rlimit rl;
	uint64_t dirs = prog->ndirs < FILEIO_DIRCACHE_MAX ? prog->ndirs : FILEIO_DIRCACHE_MAX;
	uint64_t need = ((uint64_t)prog->nhandles + dirs) * per_proc + 64;
	if (getrlimit(RLIMIT_NOFILE, &rl) < 0 || rl.rlim_cur >= need)
		return;
	rl.rlim_cur = rl.rlim_max == RLIM_INFINITY || rl.rlim_max > need ? need : rl.rlim_max;
	setrlimit(RLIMIT_NOFILE, &rl);
}

/* --mpi: this rank's DIR/rank<r>, made unless it is there (a directory,
 * not a symbolic link); from here on it is the run's directory. */
static int make_rankdir(const char *cmd, struct load_state *st)
{
	struct stat rst;
	st->base = st->directory;
	if ((size_t)snprintf(st->rankdir, sizeof(st->rankdir), "%s/rank%d", st->directory,
			     kbmpi_rank()) >= sizeof(st->rankdir)) {
		fprintf(stderr, "%s: %s: name too long\n", cmd, st->directory);
		return KB_EXIT_USAGE;
	}
	if (mkdir(st->rankdir, 0777) == 0)
		st->made_rankdir = 1;
	else if (errno != EEXIST || lstat(st->rankdir, &rst) < 0 || !S_ISDIR(rst.st_mode)) {
		fprintf(stderr, "%s: %s: %s\n", cmd, st->rankdir, errno == EEXIST ?
			"there, and not a directory" : strerror(errno));
		return KB_EXIT_USAGE;
	}
	st->directory = st->rankdir;
	return KB_EXIT_OK;
}

/* The directory (-D, or made; --mpi: its rank<r>), DIR/clients, the
 * --json destination (rank 0's alone under --mpi), and the note of what
 * DIR holds (st->plan, through st->rootfd). */
static int prepare_directory(const struct load_opts *o, struct load_state *st)
{
	st->directory = o->directory;
	int status = st->directory ? check_directory(o->cmd, st->directory) : make_tmpdir(o->cmd, st);
	st->base = st->directory;
	if (!status && o->mpi)
		status = make_rankdir(o->cmd, st);
	if (!status && o->json && kbmpi_rank() == 0) {
		const char *keep[] = { st->loadfile };
		status = result_destination(o->cmd, "--json", o->json, keep, 1, st->base,
					    st->json_dest, sizeof(st->json_dest));
	}
	if (status)
		return status;
	st->rootfd = open(st->directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (st->rootfd < 0) {
		fprintf(stderr, "%s: %s: %s\n", o->cmd, st->directory, strerror(errno));
		return KB_EXIT_USAGE;
	}
	/* one run a directory: two would share clients/client0 and each
	 * clean up the other's live trees (the lock goes with the fd) */
	if (flock(st->rootfd, LOCK_EX | LOCK_NB) < 0) {
		fprintf(stderr, "%s: %s: %s\n", o->cmd, st->directory, errno == EWOULDBLOCK ?
			"in use by another kbench load; give each run its own directory" :
			strerror(errno));
		return KB_EXIT_USAGE;
	}
	if (!(st->plan = cleanup_plan(st->rootfd, &st->prog, (unsigned)o->nclients))) {
		fprintf(stderr, "%s: %s: %s\n", o->cmd, st->directory, strerror(errno));
		return KB_EXIT_USAGE;
	}
	/* the clients' trees, DIR/clients/clientK, made here before any client
	 * starts, each by an exclusive mkdir: one that was there and holds
	 * anything (or is a link, a mount point) is bad input; a directory
	 * where they cannot be made (/proc, say) too.  Made after the note,
	 * they are the run's and go with the cleanup */
	if ((status = cleanup_claim(st->plan, st->rootfd, st->directory, o->cmd)))
		return status;
	if (cleanup_inexact(st->plan))
		fprintf(stderr, "%s: warning: %s holds too much to note in full; files the run "
			"makes inside existing directories may be left\n", o->cmd, st->directory);
	raise_nofile(&st->prog, (unsigned)o->per_proc);
	malloc_trim(0);  /* clients inherit the heap: give back what parsing used */
	return KB_EXIT_OK;
}

static struct run_config run_config_of(const struct load_opts *o, struct load_state *st)
{
	unsigned per_proc = (unsigned)o->per_proc;
	return (struct run_config){
		.prog = &st->prog,
		.backend = o->backend,
		.bopts = st->bopts,
		.rootfd = st->rootfd,
		.nclients = (unsigned)o->nclients,
		.per_proc = per_proc > o->nclients ? (unsigned)o->nclients : per_proc,
		.warmup_s = o->warmup_s,
		.timelimit_s = o->timelimit_s,
		.run_once = o->run_once,
		.strict = o->strict,
		.target_rate = o->target_rate,
		.latency_from_due = o->latency_from_due,
		.quiet = o->quiet || kbmpi_rank() != 0,  /* --mpi: rank 0 speaks for the job */
		.drop_caches = o->drop_caches,
		.mem_limit = o->mem_limit_bytes,
		.memcg_site = o->mem_limit_bytes ? &st->site : NULL,
		/* with --json -, standard output carries the JSON alone */
		.out = load_opts_json_stdout(o) ? stderr : stdout,
		.mpi = o->mpi,
		.stonewall = o->stonewall,
		.clients_total = !o->mpi ? (unsigned)o->nclients : o->clients_total ?
			(unsigned)strtoull(o->clients_total, NULL, 10) :
			(unsigned)o->nclients * (unsigned)kbmpi_size(),
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
			cfg->mpi ? st->base : st->directory);
	else
		fprintf(out, "kbench %s load: %u clients, loadfile %s (%zu ops a pass), -B %s %s\n",
			PACKAGE_VERSION, cfg->nclients, st->loadfile, st->prog.nops,
			cfg->backend->name, cfg->backend->describe ?
			cfg->backend->describe(&cfg->bopts) : "");
	if (cfg->mpi)
		fprintf(out, "under MPI: %d ranks, %u clients in all (the figure above is rank "
			"0's); each rank in its own rank<r>/%s\n", kbmpi_size(), cfg->clients_total,
			cfg->stonewall ? "; --stonewall: all end when the first does" : "");
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
	sysinfo_collect(&si, st->directory);
	json_t *doc = load_report_json(cfg, lp, &st->res, &si);
	if (doc && !caveat_attach(doc)) {
		json_decref(doc);
		return NULL;
	}
	return doc;
}

/* --json: the document, written atomically to st->json_dest. */
static int write_json(const char *cmd, json_t *doc, const struct load_state *st)
{
	char err[512];
	if (!doc || result_write(doc, st->json_dest, err, sizeof(err)) < 0) {
		fprintf(stderr, "%s: %s\n", cmd, doc ? err : "out of memory building JSON");
		return KB_EXIT_FAIL;
	}
	return KB_EXIT_OK;
}

/* The report of a run that started (run_load returned r >= 0) and the
 * status it ends with: 128 + the signal when interrupted, 1 when it failed
 * or measured nothing, else 0. */
static int report(const struct load_opts *o, const struct run_config *cfg,
		  const struct load_state *st, int r)
{
	const struct run_result *res = &st->res;
	struct load_params lp = { st->loadfile, o->mpi ? st->base : st->directory, o->per_client,
				  o->mem_limit_bytes, o->drop_caches };
	int status = KB_EXIT_OK;
	if (res->job_broken) {
		/* a rank is gone: what is left would be a made-up total */
		if (kbmpi_rank() == 0)
			fprintf(cfg->out, "\nno results: the job lost a rank (said above)\n");
		return res->interrupted ? 128 + res->interrupted : KB_EXIT_FAIL;
	}
	if (o->mpi && kbmpi_rank() != 0) {
		/* rank 0 reports the job; a rank's status is its own */
		if (res->interrupted)
			return 128 + res->interrupted;
		return r || res->errors || res->measured_s <= 0 || !res->ops ? KB_EXIT_FAIL :
		       KB_EXIT_OK;
	}
	json_t *doc = run_document(cfg, &lp, st);
	load_report_text(cfg->out, cfg, &lp, res, json_object_get(doc, "caveats"));
	fflush(cfg->out);
	say_unmeasured(o->cmd, res);
	if (o->json)
		status = write_json(o->cmd, doc, st);
	json_decref(doc);
	if (res->mem_left && !status)
		status = KB_EXIT_FAIL;
	if (res->interrupted)
		status = 128 + res->interrupted;
	else if (r || res->errors || res->measured_s <= 0 || !res->ops)
		status = status ? status : KB_EXIT_FAIL;
	return status;
}

/* After the run: the report written out, what the run made removed (and
 * the directory made for it).  Returns status, or 1 for a failure here
 * when status was 0. */
static int finish_cleanup(const struct load_opts *o, FILE *out, struct load_state *st, int status)
{
	if (fflush(out) == EOF || ferror(out)) {
		fprintf(stderr, "%s: cannot write the report: %s\n", o->cmd, strerror(errno));
		if (!status)
			status = KB_EXIT_FAIL;
	}
	if (!(o->backend->flags & BACKEND_LOCAL)) {
		if (o->skip_cleanup || !o->backend->cleanup) {
			if (o->skip_cleanup && !o->quiet)
				fprintf(out, "files left on the server (--skip-cleanup)\n");
		} else if (o->backend->cleanup(&st->bopts, (unsigned)o->nclients, o->cmd) < 0 &&
			   !status) {
			status = KB_EXIT_FAIL;
		}
		return status;
	}
	if (o->skip_cleanup) {
		if (!o->quiet)
			fprintf(out, "files left in %s (--skip-cleanup)\n", st->directory);
	} else if (cleanup_run(st->plan, st->rootfd, st->directory) < 0) {
		fprintf(stderr, "%s: could not remove everything the run created in %s\n", o->cmd,
			st->directory);
		if (!status)
			status = KB_EXIT_FAIL;
	}
	if ((st->made_tmpdir || st->made_rankdir) && !o->skip_cleanup) {
		close(st->rootfd);
		st->rootfd = -1;
		if (st->made_rankdir && rmdir(st->rankdir) < 0)
			fprintf(stderr, "%s: cannot remove %s: %s\n", o->cmd, st->rankdir,
				strerror(errno));
		st->made_rankdir = 0;
		if (st->made_tmpdir && rmdir(st->tmpdir) < 0)
			fprintf(stderr, "%s: cannot remove %s: %s\n", o->cmd, st->tmpdir,
				strerror(errno));
	}
	return status;
}

/* The report written, the cleanup (which a stop signal does not cut
 * short: what the run made still goes); a stop signal that came after
 * the run, during the report or the cleanup, is the exit status all the
 * same (128 + N), as at any other moment, with a line saying the figures
 * above were whole. */
static int finish(const struct load_opts *o, FILE *out, struct load_state *st, int status)
{
	status = finish_cleanup(o, out, st, status);
	int sig = load_signal();
	if (sig && (status == KB_EXIT_OK || status == KB_EXIT_FAIL) && status != 128 + sig) {
		char name[CLI_SIGNAME_LEN];
		fprintf(stderr, "%s: %s after the run: the figures above are the whole run's; "
			"the cleanup was finished\n", o->cmd, cli_signal_name(sig, name));
		status = 128 + sig;
	}
	return status;
}

/* The run itself, once everything is checked: banner, run_load, report,
 * cleanup. */
static int run_and_report(const struct load_opts *o, struct load_state *st)
{
	struct run_config cfg = run_config_of(o, st);
	if (!cfg.quiet)
		print_banner(&cfg, st);
	int r = run_load(&cfg, &st->res);
	int status = r < 0 ? KB_EXIT_FAIL : report(o, &cfg, st, r);
	return finish(o, cfg.out, st, status);
}

/* --mpi, another rank's input was bad: what this rank made for the run
 * (DIR/rank<r>/clients, DIR/rank<r>) goes; the made DIR goes in
 * state_free. */
static void undo_directory(const struct load_opts *o, struct load_state *st)
{
	if (!(o->backend->flags & BACKEND_LOCAL) || st->rootfd < 0)
		return;
	if (st->plan)
		cleanup_run(st->plan, st->rootfd, st->directory);
	close(st->rootfd);
	st->rootfd = -1;
	if (st->made_rankdir)
		rmdir(st->rankdir);
	st->made_rankdir = 0;
}

/* --mpi: every rank measures what rank 0 does (the options that define
 * it, the loadfile's bytes), before anything is read or made. */
static int same_measurement(const struct load_opts *o)
{
	char *mine = load_opts_measure(o);
	if (!mine)
		fprintf(stderr, "%s: out of memory\n", o->cmd);
	int status = kbmpi_same(mine, load_opts_differ);
	free(mine);
	return status;
}

/* kbench load NCLIENTS: checks, then the run. */
static int run_command(struct load_opts *o, poptContext ctx, struct load_state *st)
{
	/* a stop signal from here on ends the command cleanly: at once while
	 * nothing has been made, then through the run (load/signals.h) */
	load_signals_catch(load_opts_json_stdout(o) ? STDERR_FILENO : STDOUT_FILENO);
	int status = load_opts_check(o, ctx);
	if (o->mpi) {
		/* every rank checks its own input; rank 0 alone reads the loadfile */
		if (!status)
			status = load_opts_share(o, kbmpi_rank(), kbmpi_size());
		status = kbmpi_agree(status);
		if (!status)
			status = same_measurement(o);
		if (status)
			return status;
		if (kbmpi_rank() == 0)
			status = read_loadfile(o, st);
		status = kbmpi_share_program(status, &st->prog);
		if (!status && kbmpi_rank() != 0 && !(st->loadfile = strdup(st->prog.source)))
			status = KB_EXIT_FAIL;
	} else if (!status) {
		status = read_loadfile(o, st);
	}
	if (!status)
		status = check_system(o, st);
	if (status && !o->mpi)
		return status;
	load_opts_backend(o, &st->bopts);
	/* the directory, or the server: from here on there may be something
	 * to clean up */
	load_signals_arm();
	if (status) {
		;  /* --mpi: this rank's input is bad; the others learn it below */
	} else if (o->backend->flags & BACKEND_LOCAL) {
		status = prepare_directory(o, st);
	} else if (o->mpi && ((size_t)snprintf(st->rankdir, sizeof(st->rankdir), "%s%srank%d",
				o->directory ? o->directory : "", o->directory ? "/" : "",
				kbmpi_rank()) >= sizeof(st->rankdir))) {
		status = cli_usage_error(o->cmd, "-D %s: name too long", o->directory);
	} else if (o->backend->prepare) {
		if (o->mpi)  /* each rank's own tree on the server */
			st->bopts.directory = st->rankdir;
		status = o->backend->prepare(&st->bopts, (unsigned)o->nclients, o->cmd);
		st->prepared = !status;
	}
	if (!status && !(o->backend->flags & BACKEND_LOCAL) && o->json && kbmpi_rank() == 0) {
		const char *keep[] = { st->loadfile };
		status = result_destination(o->cmd, "--json", o->json, keep, 1, NULL,
					    st->json_dest, sizeof(st->json_dest));
	}
	if (o->mpi) {
		int mine = status;
		/* bad input on any rank stops every rank before a client starts */
		status = kbmpi_agree(status);
		if (status && !mine)
			undo_directory(o, st);
	}
	return status ? status : run_and_report(o, st);
}

/* Release what st holds; a directory made for a run that never started
 * (bad input, status 2) is removed. */
static void state_free(const struct load_opts *o, struct load_state *st, int status)
{
	if (st->prepared && o->backend->release)
		o->backend->release(&st->bopts);
	run_result_free(&st->res);  /* takes a result that was never filled */
	if (st->rootfd >= 0)
		close(st->rootfd);
	if (st->made_rankdir && status == KB_EXIT_USAGE)
		rmdir(st->rankdir);
	if (st->made_tmpdir && status == KB_EXIT_USAGE)
		rmdir(st->tmpdir);
	cleanup_free(st->plan);
	prog_free(&st->prog);
	free(st->loadfile);
}

int cmd_load(int argc, const char **argv)
{
	struct load_opts o;
	struct load_state st;
	poptContext ctx;
	load_opts_init(&o, argv[0]);
	memset(&st, 0, sizeof(st));
	st.prog.fd = -1;
	st.rootfd = -1;
	int status = load_opts_parse(&o, argc, argv, &ctx);
	if (!status && o.mpi && o.check)
		status = cli_usage_error(o.cmd, "--check does not go with --mpi");
	if (!status && o.mpi && !(status = kbmpi_init(o.cmd))) {
		/* every message of a rank names it */
		snprintf(st.cmd, sizeof(st.cmd), "%s: rank %d (%s)", o.cmd, kbmpi_rank(),
			 kbmpi_host(kbmpi_rank()));
		o.cmd = st.cmd;
	}
	trees_reuse(o.reuse_trees);
	if (!status)
		status = o.check ? check_command(&o, &st) : run_command(&o, ctx, &st);
	load_signals_release();
	state_free(&o, &st, status);
	load_opts_free(&o);
	poptFreeContext(ctx);
	kbmpi_end(status);  /* --mpi: the job ends (or is ended, when a rank is lost) */
	return status;
}
