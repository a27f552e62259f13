/* kbench load - replay a dbench-style loadfile with N client processes
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * usage: kbench load [OPTIONS] NCLIENTS
 *
 * Order of work: check the command line, parse the whole loadfile, check
 * what --drop-caches and --mem-limit need (root, a memory controller, a
 * limit the clients can start under), check the directory; only then
 * fork.  Bad input never starts a client (exit 2).  After the run everything the run created in the directory is
 * removed (--skip-cleanup keeps it); entries that were there before stay.
 */
#include "config.h"
#include "commands.h"
#include "cli.h"
#include "load/check.h"
#include "load/cleanup.h"
#include "load/load.h"
#include "load/loadfile.h"
#include "load/report.h"
#include "load/run.h"
#include "load/signals.h"
#include "load/fsutil.h"
#include "result/result.h"
#include "result/sysinfo.h"
#include "sys/caches.h"
#include "sys/memcg.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <malloc.h>
#include <math.h>
#include <popt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_CLIENTS 100000u
#define MAX_PARSE_ERRORS 20
#define CHECK_MAX_ERRORS 100
/* --mem-limit floor: what a client process needs to start and run at all
 * (stack, the pages of the heap and data it writes, its slot of the
 * shared region; measured well under this), plus each client's I/O
 * buffer of the loadfile's largest read or write */
#define MEM_FLOOR_PER_PROC (4ull << 20)

/* --mem-limit SIZE: bytes in *out (0 for "none").  Returns 0 or usage. */
static int parse_mem_limit(const char *cmd, const char *text, uint64_t *out)
{
	if (strcmp(text, "none") == 0) {
		*out = 0;
		return 0;
	}
	if (cli_parse_size(text, out) < 0)
		return cli_usage_error(cmd, "bad --mem-limit '%s' (a size in bytes with k, M, G "
				       "or T for 2^10, 2^20, 2^30, 2^40, e.g. 64M; or none)", text);
	if (*out == 0)
		return cli_usage_error(cmd, "--mem-limit 0 would let no client run "
				       "(give a size such as 64M, or none for no limit)");
	return 0;
}

/* The smallest --mem-limit the clients can start under, bytes. */
static uint64_t mem_floor(const struct program *prog, uint64_t nclients, unsigned per_proc)
{
	uint64_t nprocs = (nclients + per_proc - 1) / per_proc;
	return nprocs * MEM_FLOOR_PER_PROC + nclients * prog->max_io;
}

static unsigned max_clients(unsigned per_proc)
{
	struct rlimit rl;
	uint64_t max = MAX_CLIENTS;
	if (getrlimit(RLIMIT_NPROC, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY) {
		uint64_t by_procs = (uint64_t)rl.rlim_cur * per_proc;
		if (by_procs < max)
			max = by_procs;
	}
	FILE *f = fopen("/proc/sys/kernel/pid_max", "re");
	unsigned long pid_max;
	if (f) {
		if (fscanf(f, "%lu", &pid_max) == 1 && (uint64_t)pid_max / 2 * per_proc < max)
			max = (uint64_t)pid_max / 2 * per_proc;
		fclose(f);
	}
	return (unsigned)max;
}

/* Each client process may hold every handle of the loadfile open. */
static void raise_nofile(const struct program *prog, unsigned per_proc)
{
	struct rlimit rl;
	uint64_t need = (uint64_t)prog->nhandles * per_proc + 64;
	if (getrlimit(RLIMIT_NOFILE, &rl) < 0 || rl.rlim_cur >= need)
		return;
	rl.rlim_cur = rl.rlim_max == RLIM_INFINITY || rl.rlim_max > need ? need : rl.rlim_max;
	setrlimit(RLIMIT_NOFILE, &rl);
}

/* kbench load --check FILE: every error, or the figures of one pass. */
static int check_loadfile(const char *path, enum lf_format format)
{
	struct program prog;
	struct lf_check c;
	int rc = loadfile_load(path, format, &prog, stderr, CHECK_MAX_ERRORS);
	if (rc)
		return 2;
	if (lf_check_compute(&prog, &c) < 0) {
		fprintf(stderr, "kbench load: %s: %s\n", path, strerror(errno));
		prog_free(&prog);
		return 1;
	}
	lf_check_print(stdout, &prog, &c);
	prog_free(&prog);
	return 0;
}

int cmd_load(int argc, const char **argv)
{
	const char *cmd = argv[0];
	char *format_arg = NULL;
	int check = 0;
	char *loadfile = NULL, *opt_loadfile = NULL, *opt_directory = NULL, *directory = NULL, *timelimit = NULL, *warmup = NULL, *json = NULL;
	int sync_open = 0, sync_dirs = 0, fsync_write = 0, xattr = 0, run_once = 0, strict = 0;
	int skip_cleanup = 0, per_client = 0, quiet = 0, per_proc = 1, drop_caches = 0;
	char *mem_limit_arg = NULL;
	double target_rate = 0;

	struct poptOption options[] = {
		{ "loadfile", 'c', POPT_ARG_STRING, &opt_loadfile, 0,
		  "loadfile to replay (default: the shipped client.txt)", "FILE" },
		{ "directory", 'D', POPT_ARG_STRING, &opt_directory, 0,
		  "directory to run in (default: a new one under $TMPDIR, removed after)", "DIR" },
		{ "timelimit", 't', POPT_ARG_STRING, &timelimit, 0,
		  "seconds measured after warm-up (default 600; 90, 1.5m, 2h)", "TIME" },
		{ "warmup", 0, POPT_ARG_STRING, &warmup, 0,
		  "warm-up before measuring (default timelimit/5)", "TIME" },
		{ "sync", 's', POPT_ARG_NONE, &sync_open, 0, "open files with O_SYNC", NULL },
		{ "sync-dirs", 'S', POPT_ARG_NONE, &sync_dirs, 0,
		  "fsync the directory after every create, rename, unlink, mkdir, rmdir", NULL },
		{ "fsync", 'F', POPT_ARG_NONE, &fsync_write, 0, "fsync after every WriteX", NULL },
		{ "xattr", 'x', POPT_ARG_NONE, &xattr, 0,
		  "keep DOS attributes in the user.DosAttrib xattr (as dbench -x)", NULL },
		{ "target-rate", 'R', POPT_ARG_DOUBLE, &target_rate, 0,
		  "hold each client to this rate (MB/sec, MB = 10^6 bytes)", "MBPS" },
		{ "clients-per-process", 0, POPT_ARG_INT, &per_proc, 0,
		  "clients interleaved in each process (default 1)", "N" },
		{ "run-once", 0, POPT_ARG_NONE, &run_once, 0,
		  "each client replays the loadfile once, then stops", NULL },
		{ "strict", 0, POPT_ARG_NONE, &strict, 0,
		  "stop the run at the first op that does not end as expected", NULL },
		{ "skip-cleanup", 0, POPT_ARG_NONE, &skip_cleanup, 0,
		  "leave the files of the run in the directory", NULL },
		{ "per-client-results", 0, POPT_ARG_NONE, &per_client, 0,
		  "show each client's MB/sec", NULL },
		{ "json", 0, POPT_ARG_STRING, &json, 0,
		  "also write the results as JSON to FILE ('-': standard output)", "FILE" },
		{ "quiet", 'q', POPT_ARG_NONE, &quiet, 0, "no line a second", NULL },
		{ "mem-limit", 0, POPT_ARG_STRING, &mem_limit_arg, 0,
		  "run the clients in a memory cgroup holding their memory and page cache "
		  "to SIZE (k, M, G: 2^10, 2^20, 2^30; none: no limit); root only", "SIZE" },
		{ "drop-caches", 0, POPT_ARG_NONE, &drop_caches, 0,
		  "sync and drop the page cache, dentries and inodes before the run; root only",
		  NULL },
		{ "format", 0, POPT_ARG_STRING, &format_arg, 0,
		  "loadfile format: auto (default), dbench4, dbench2, dbench1", "FORMAT" },
		{ "check", 0, POPT_ARG_NONE, &check, 0,
		  "parse FILE without running it and show what one pass of one client does",
		  NULL },
		POPT_AUTOHELP
		POPT_TABLEEND
	};

	poptContext ctx = poptGetContext(cmd, argc, argv, options, 0);
	poptSetOtherOptionHelp(ctx, "[OPTIONS] NCLIENTS\n       kbench load --check FILE [--format FORMAT]");
	int rc = cli_popt_next(ctx, options);
	int status = cli_popt_done(ctx, cmd, rc);
	struct program prog = { .fd = -1 };
	struct cleanup_plan *plan = NULL;
	char tmpdir_buf[PATH_MAX], json_dest[PATH_MAX];
	int made_tmpdir = 0, rootfd = -1;
	uint64_t mem_limit = 0;
	struct memcg_site site;
	struct run_result res;
	memset(&res, 0, sizeof(res));
	enum lf_format format = LF_AUTO;
	if (status)
		goto out;
	if (format_arg && lf_format_parse(format_arg, &format) < 0) {
		status = cli_usage_error(cmd, "unknown --format '%s' (auto, dbench4, dbench2, dbench1)",
					 format_arg);
		goto out;
	}
	if (check) {
		const char *file = poptGetArg(ctx);
		if (!file) {
			status = cli_usage_error(cmd, "--check needs a FILE");
			goto out;
		}
		if (poptPeekArg(ctx)) {
			status = cli_usage_error(cmd, "--check takes one FILE, not '%s' too",
						 poptPeekArg(ctx));
			goto out;
		}
		loadfile = load_loadfile_path(file);
		status = loadfile ? check_loadfile(loadfile, format) : 1;
		goto out;
	}

	/* a stop signal from here on ends the command cleanly: at once while
	 * nothing has been made, then through the run (load/signals.h) */
	load_signals_catch(json && !strcmp(json, "-") ? STDERR_FILENO : STDOUT_FILENO);

	const char *nclients_arg = poptGetArg(ctx);
	if (!nclients_arg) {
		status = cli_usage_error(cmd, "missing NCLIENTS (the number of clients)");
		goto out;
	}
	if (poptPeekArg(ctx)) {
		status = cli_usage_error(cmd, "unexpected argument '%s'", poptPeekArg(ctx));
		goto out;
	}
	if (per_proc < 1) {
		status = cli_usage_error(cmd, "--clients-per-process must be at least 1");
		goto out;
	}
	uint64_t nclients;
	unsigned limit = max_clients((unsigned)per_proc);
	if (cli_parse_uint(nclients_arg, 1, UINT64_MAX, &nclients) < 0) {
		status = cli_usage_error(cmd, "NCLIENTS must be a whole number of at least 1, not '%s'",
					 nclients_arg);
		goto out;
	}
	if (nclients > limit) {
		status = cli_usage_error(cmd, "NCLIENTS %s is more than this machine can fork (at most %u)",
					 nclients_arg, limit);
		goto out;
	}
	double tl = 600, wu = -1;
	if (timelimit && (cli_parse_duration(timelimit, &tl) < 0 || (tl <= 0 && !run_once))) {
		status = cli_usage_error(cmd, "bad --timelimit '%s' (seconds above 0, e.g. 60, 1.5m)",
					 timelimit);
		goto out;
	}
	if (run_once && !timelimit)
		tl = 0;
	if (warmup && cli_parse_duration(warmup, &wu) < 0) {
		status = cli_usage_error(cmd, "bad --warmup '%s' (seconds, e.g. 10, 0, 1m)", warmup);
		goto out;
	}
	if (wu < 0)
		wu = run_once ? 0 : tl / 5;
	if (!(target_rate >= 0) || !isfinite(target_rate)) {
		status = cli_usage_error(cmd, "--target-rate must be a positive MB/sec figure");
		goto out;
	}
	if (mem_limit_arg && (status = parse_mem_limit(cmd, mem_limit_arg, &mem_limit)))
		goto out;

	/* the loadfile, whole, before anything else happens */
	if (opt_loadfile && !*opt_loadfile) {
		status = cli_usage_error(cmd, "--loadfile needs a file name");
		goto out;
	}
	loadfile = load_loadfile_path(opt_loadfile);
	if (!loadfile) {
		fprintf(stderr, "%s: out of memory\n", cmd);
		status = 1;
		goto out;
	}
	int perr = loadfile_load(loadfile, format, &prog, stderr, MAX_PARSE_ERRORS);
	if (perr) {
		status = 2;
		goto out;
	}

	/* what needs root, before any directory is made */
	char why[PATH_MAX + 256];
	if (drop_caches && caches_drop_check(why, sizeof(why)) < 0) {
		fprintf(stderr, "%s: --drop-caches: %s\n", cmd, why);
		status = 2;
		goto out;
	}
	if (mem_limit) {
		uint64_t floor = mem_floor(&prog, nclients, (unsigned)per_proc);
		if (mem_limit < floor) {
			fprintf(stderr, "%s: --mem-limit %s is below the %.2f MiB (2^20 bytes) "
				"%llu client%s to start (4 MiB a client process, plus each "
				"client's %u-byte I/O buffer)\n", cmd, mem_limit_arg,
				(double)floor / 1048576.0, (unsigned long long)nclients,
				nclients == 1 ? " needs" : "s need", prog.max_io);
			status = 2;
			goto out;
		}
		if (memcg_detect(&site, why, sizeof(why)) < 0) {
			fprintf(stderr, "%s: --mem-limit: %s\n", cmd, why);
			status = 2;
			goto out;
		}
	}

	/* the directory: from here on there is something to clean up */
	load_signals_arm();
	directory = opt_directory;
	if (directory) {
		struct stat st;
		if (stat(directory, &st) < 0) {
			fprintf(stderr, "%s: %s: %s\n", cmd, directory, strerror(errno));
			status = 2;
			goto out;
		}
		if (!S_ISDIR(st.st_mode)) {
			fprintf(stderr, "%s: %s: not a directory\n", cmd, directory);
			status = 2;
			goto out;
		}
		if (access(directory, W_OK | X_OK) < 0) {
			fprintf(stderr, "%s: %s: not writable: %s\n", cmd, directory, strerror(errno));
			status = 2;
			goto out;
		}
	} else {
		const char *t = getenv("TMPDIR");
		snprintf(tmpdir_buf, sizeof(tmpdir_buf), "%s/kbench-load.XXXXXX", t && *t ? t : "/tmp");
		if (!mkdtemp(tmpdir_buf)) {
			fprintf(stderr, "%s: cannot create a directory under %s: %s\n", cmd,
				t && *t ? t : "/tmp", strerror(errno));
			status = 2;
			goto out;
		}
		directory = tmpdir_buf;
		made_tmpdir = 1;
	}
	struct stat cst;
	char cpath[PATH_MAX + 16];
	snprintf(cpath, sizeof(cpath), "%s/clients", directory);
	if (lstat(cpath, &cst) == 0 && !S_ISDIR(cst.st_mode)) {
		fprintf(stderr, "%s: %s is %s; the client trees go there (remove it, or "
			"use another -D)\n", cmd, cpath,
			S_ISLNK(cst.st_mode) ? "a symbolic link, which kbench does not follow" :
			"not a directory");
		status = 2;
		goto out;
	}
	if (json) {
		const char *keep[] = { loadfile };
		if ((status = result_destination(cmd, "--json", json, keep, 1, directory, json_dest,
						 sizeof(json_dest))))
			goto out;
	}
	rootfd = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (rootfd < 0 || !(plan = cleanup_plan(rootfd, &prog, (unsigned)nclients))) {
		fprintf(stderr, "%s: %s: %s\n", cmd, directory, strerror(errno));
		status = 2;
		goto out;
	}
	if (cleanup_inexact(plan))
		fprintf(stderr, "%s: warning: %s holds too much to note in full; files the run "
			"makes inside existing directories may be left\n", cmd, directory);
	raise_nofile(&prog, (unsigned)per_proc);
	malloc_trim(0);  /* clients inherit the heap: give back what parsing used */

	struct run_config cfg = {
		.prog = &prog,
		.backend = &fileio_backend,
		.bopts = { sync_open, sync_dirs, fsync_write, xattr },
		.rootfd = rootfd,
		.nclients = (unsigned)nclients,
		.per_proc = (unsigned)per_proc > nclients ? (unsigned)nclients : (unsigned)per_proc,
		.warmup_s = wu,
		.timelimit_s = tl,
		.run_once = run_once,
		.strict = strict,
		.target_rate = target_rate,
		.quiet = quiet,
		.drop_caches = drop_caches,
		.mem_limit = mem_limit,
		.memcg_site = mem_limit ? &site : NULL,
		/* with --json -, standard output carries the JSON alone */
		.out = json && !strcmp(json, "-") ? stderr : stdout,
	};
	FILE *out = cfg.out;
	struct load_params lp = { loadfile, directory, per_client, mem_limit, drop_caches };

	if (!quiet) {
		fprintf(out, "kbench %s load: %u clients, loadfile %s (%zu ops a pass), directory %s\n",
		       PACKAGE_VERSION, cfg.nclients, loadfile, prog.nops, directory);
		if (run_once)
			fprintf(out, "one pass per client, warm-up %.1f s; MB = 10^6 bytes\n", wu);
		else
			fprintf(out, "warm-up %.1f s, then %.1f s measured; MB = 10^6 bytes\n", wu, tl);
		if (mem_limit)
			fprintf(out, "clients in a memory cgroup (v%d, under %s) limited to %.2f MiB "
				"(2^20 bytes)\n", site.version, site.dir, (double)mem_limit / 1048576.0);
		if (drop_caches)
			fprintf(out, "sync and drop caches before the start\n");
		fflush(out);
	}

	int r = run_load(&cfg, &res);

	if (r < 0) {
		status = 1;
	} else {
		load_report_text(out, &cfg, &lp, &res);
		fflush(out);
		if (res.setup_failed)
			fprintf(stderr, "%s: clients could not start\n", cmd);
		if (res.setup_failed || (res.interrupted && !res.ops))
			;  /* the report says why nothing was measured */
		else if (res.measured_s <= 0)
			fprintf(stderr, "%s: no measurement: the run stopped before warm-up ended\n", cmd);
		else if (!res.ops)
			fprintf(stderr, "%s: no measurement: no operation completed in the measured %.2f s\n",
				cmd, res.measured_s);
		if (json) {
			struct kb_sysinfo si;
			char err[512];
			sysinfo_collect(&si, directory);
			json_t *doc = load_report_json(&cfg, &lp, &res, &si);
			if (!doc || result_write(doc, json_dest, err, sizeof(err)) < 0) {
				fprintf(stderr, "%s: %s\n", cmd, doc ? err : "out of memory building JSON");
				status = 1;
			}
			json_decref(doc);
		}
		if (res.mem_left && !status)
			status = 1;
		if (res.interrupted)
			status = 128 + res.interrupted;
		else if (r || res.errors || res.measured_s <= 0 || !res.ops)
			status = status ? status : 1;
	}

	if (fflush(out) == EOF || ferror(out)) {
		fprintf(stderr, "%s: cannot write the report: %s\n", cmd, strerror(errno));
		if (!status)
			status = 1;
	}
	if (skip_cleanup) {
		if (!quiet)
			fprintf(out, "files left in %s (--skip-cleanup)\n", directory);
	} else if (cleanup_run(plan, rootfd, directory) < 0) {
		fprintf(stderr, "%s: could not remove everything the run created in %s\n", cmd,
			directory);
		if (!status)
			status = 1;
	}
	if (made_tmpdir && !skip_cleanup) {
		close(rootfd);
		rootfd = -1;
		if (rmdir(directory) < 0)
			fprintf(stderr, "%s: cannot remove %s: %s\n", cmd, directory, strerror(errno));
	}

out:
	load_signals_release();
	run_result_free(&res);  /* takes a result that was never filled */
	if (rootfd >= 0)
		close(rootfd);
	if (made_tmpdir && status == 2)
		rmdir(tmpdir_buf);
	cleanup_free(plan);
	prog_free(&prog);
	free(loadfile);
	free(opt_loadfile);
	free(opt_directory);
	free(timelimit);
	free(warmup);
	free(json);
	free(format_arg);
	free(mem_limit_arg);
	poptFreeContext(ctx);
	return status;
}
