/* kbench - the dbench and tbench personalities: their command lines as kbench load's
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * usage: dbench [OPTIONS] NPROCS
 *        tbench [OPTIONS] NPROCS [SERVER]
 *
 * Debian's dbench 4.0 options, dbench 5's -B backends with their target
 * options (--server, --export, --protocol for nfs; --smb-share, --smb-user
 * for smb), mmtests' --run-once, --show-execute-time and
 * --machine-readable, and kbench's --json, all turned into kbench load's
 * options with --output-form dbench.  dbench's defaults are kept where
 * they change what runs: -D . (the current directory), -t 600, a warm-up
 * of timelimit/5 whole seconds, /usr/share/dbench/client.txt when it is
 * there, NPROCS processes of --clients-per-process clients each.
 * tbench is dbench with -B sockio: SERVER (default localhost, port 7003).
 * As dbench, the run stops at the first op that does not end as the
 * loadfile expects (kbench load --strict), prints no table then, and
 * mmtests' options (--run-once, --show-execute-time, --warmup) name the
 * ops as mmtests' dbench does (--output-form dbench-mmtests).  No NPROCS
 * is dbench's "You need to specify NPROCS" and status 1; NPROCS 0 runs
 * nothing, with dbench's words and status 0.
 * Options that only steer dbench's own shortcuts are accepted and change
 * nothing here: --no-resolve (kbench keeps loadfile paths in lower case,
 * so no name needs resolving), --one-byte-write-fix, --stat-check.
 * --fake-io, which would time no I/O at all, is refused.
 */
#include "config.h"
#include "cli.h"
#include "commands.h"
#include "compat/compat.h"

#include <popt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define DBENCH_CLIENT_TXT "/usr/share/dbench/client.txt"

struct dbench_args {
	char *timelimit, *loadfile, *directory, *tcp_options, *backend, *server, *export_;
	char *protocol, *nfs_url, *smb_share, *smb_user, *warmup, *json, *cpp;
	double target_rate;
	int sync_open, sync_dirs, fsync_write, xattr, no_resolve, one_byte, stat_check;
	int fake_io, skip_cleanup, per_client, run_once, show_exec, machine;
};

static void args_free(struct dbench_args *d)
{
	char **s[] = { &d->timelimit, &d->loadfile, &d->directory, &d->tcp_options,
		       &d->backend, &d->server, &d->export_, &d->protocol, &d->nfs_url,
		       &d->smb_share, &d->smb_user, &d->warmup, &d->json, &d->cpp };
	for (size_t i = 0; i < sizeof(s) / sizeof(s[0]); i++)
		free(*s[i]);
}

/* A whole number of at least min, as dbench's integer options. */
static int whole(const char *s, uint64_t min, uint64_t *out)
{
	return cli_parse_uint(s, min, 1000000000ull, out);
}

/* The backend's options: -B NAME and its target. */
static int push_backend(const char *tool, struct dbench_args *d, const char *server,
			struct argvec *a)
{
	const char *b = d->backend;
	if (!strcmp(b, "fileio")) {
		av_push(a, "-D");
		av_push(a, d->directory ? d->directory : ".");
		return 0;
	}
	av_push(a, "-B");
	av_push(a, b);
	if (!strcmp(b, "sockio")) {
		av_push(a, "--server");
		av_push(a, server ? server : "localhost");
		if (d->tcp_options) {
			av_push(a, "-T");
			av_push(a, d->tcp_options);
		}
	} else if (!strcmp(b, "nfs")) {
		if (d->protocol && strcmp(d->protocol, "tcp"))
			return cli_usage_error(tool, "--protocol %s: kbench's -B nfs speaks NFS over "
					       "tcp only", d->protocol);
		av_push(a, "--nfs");
		if (d->nfs_url) {
			av_push(a, d->nfs_url);
		} else {
			const char *exp = d->export_ ? d->export_ : "/tmp";
			av_pushf(a, "nfs://%s%s%s", server ? server : "localhost",
				 exp[0] == '/' ? "" : "/", exp);
		}
	} else if (!strcmp(b, "smb")) {
		if (d->smb_share) {
			av_push(a, "--smb-share");
			av_push(a, d->smb_share);
		}
		if (d->smb_user) {
			av_push(a, "--smb-user");
			av_push(a, d->smb_user);
		}
	} else {
		return cli_usage_error(tool, "-B %s: kbench has fileio, sockio, nfs and smb", b);
	}
	if (d->directory) {  /* the tree's place on the server */
		av_push(a, "-D");
		av_push(a, d->directory);
	}
	return 0;
}

/* The time options: dbench's -t (default 600) and its warm-up of
 * timelimit/5 whole seconds; --run-once alone runs one pass. */
static int push_times(const char *tool, struct dbench_args *d, struct argvec *a)
{
	uint64_t t = 600, w;
	if (d->timelimit && whole(d->timelimit, 1, &t) < 0)
		return cli_usage_error(tool, "-t must be a whole number of seconds of at least 1, "
				       "not '%s'", d->timelimit);
	if (d->run_once)
		av_push(a, "--run-once");
	if (d->run_once && !d->timelimit) {
		if (d->warmup) {
			av_push(a, "--warmup");
			av_push(a, d->warmup);
		}
		return 0;
	}
	av_pushf(a, "--timelimit=%llu", (unsigned long long)t);
	if (d->warmup) {
		if (whole(d->warmup, 0, &w) < 0)
			return cli_usage_error(tool, "--warmup must be a whole number of seconds, "
					       "not '%s'", d->warmup);
	} else {
		w = t / 5;
	}
	av_pushf(a, "--warmup=%llu", (unsigned long long)w);
	return 0;
}

/* Everything but the backend, the times and NCLIENTS. */
static void push_flags(struct dbench_args *d, struct argvec *a)
{
	const struct { int on; const char *opt; } flags[] = {
		{ d->sync_open, "-s" }, { d->sync_dirs, "-S" }, { d->fsync_write, "-F" },
		{ d->xattr, "-x" }, { d->skip_cleanup, "--skip-cleanup" },
		{ 1, "--reuse-trees" },  /* dbench replays on the trees it finds */
		{ d->per_client, "--per-client-results" },
		{ d->show_exec || d->machine, "--pass-times" },
		{ 1, "--strict" },  /* dbench stops at the first failed op */
	};
	for (size_t i = 0; i < sizeof(flags) / sizeof(flags[0]); i++)
		if (flags[i].on)
			av_push(a, flags[i].opt);
	/* mmtests' own options say mmtests' dbench runs: its op names */
	int mmtests = d->run_once || d->show_exec || d->warmup;
	av_push(a, "--output-form");
	av_push(a, d->machine ? "dbench-machine" : mmtests ? "dbench-mmtests" : "dbench");
	if (d->loadfile) {
		av_push(a, "-c");
		av_push(a, d->loadfile);
	} else if (access(DBENCH_CLIENT_TXT, R_OK) == 0) {
		av_push(a, "-c");
		av_push(a, DBENCH_CLIENT_TXT);
	}
	if (d->target_rate != 0)  /* kbench load refuses a negative one */
		av_pushf(a, "--target-rate=%.17g", d->target_rate);
	if (d->json) {
		av_push(a, "--json");
		av_push(a, d->json);
	}
}

/* kbench load's argv from dbench's positional arguments and d.  Returns
 * 0, DB_NOTHING when dbench would run nothing, or an exit status. */
#define DB_NOTHING (-1)
static int translate(const char *tool, struct dbench_args *d, poptContext ctx, struct argvec *a)
{
	const char *nprocs = poptGetArg(ctx), *server = poptGetArg(ctx);
	uint64_t n, cpp = 1;
	if (!nprocs) {  /* dbench's words and status, its help on stdout */
		printf("You need to specify NPROCS\n");
		poptPrintHelp(ctx, stdout, 0);
		return KB_EXIT_FAIL;
	}
	if (!strcmp(nprocs, "0")) {  /* dbench starts no process and says so, status 0 */
		fprintf(stderr, "create 0 procs?  you must be kidding.\n");
		return DB_NOTHING;
	}
	if (poptPeekArg(ctx))
		return cli_usage_error(tool, "unexpected argument '%s'", poptPeekArg(ctx));
	if (whole(nprocs, 1, &n) < 0)
		return cli_usage_error(tool, "NPROCS must be a whole number of at least 1, not '%s'",
				       nprocs);
	if (d->cpp && whole(d->cpp, 1, &cpp) < 0)
		return cli_usage_error(tool, "--clients-per-process must be a whole number of at "
				       "least 1, not '%s'", d->cpp);
	if (d->fake_io)
		return cli_usage_error(tool, "--fake-io would time no I/O; kbench always does the "
				       "I/O it reports");
	if (d->server && !server)
		server = d->server;
	av_push(a, tool);
	int status = push_backend(tool, d, server, a);
	if (!status)
		status = push_times(tool, d, a);
	if (status)
		return status;
	push_flags(d, a);
	if (cpp > 1)
		av_pushf(a, "--clients-per-process=%llu", (unsigned long long)cpp);
	av_pushf(a, "%llu", (unsigned long long)(n * cpp));
	return 0;
}

static int run_personality(int argc, char **argv, const char *tool, const char *backend)
{
	struct dbench_args d = { 0 };
	struct poptOption options[] = {
		{ "timelimit", 't', POPT_ARG_STRING, &d.timelimit, 0, "timelimit", "integer" },
		{ "loadfile", 'c', POPT_ARG_STRING, &d.loadfile, 0, "loadfile", "filename" },
		{ "directory", 'D', POPT_ARG_STRING, &d.directory, 0, "working directory", NULL },
		{ "tcp-options", 'T', POPT_ARG_STRING, &d.tcp_options, 0, "TCP socket options", NULL },
		{ "target-rate", 'R', POPT_ARG_DOUBLE, &d.target_rate, 0,
		  "target throughput (MB/sec)", NULL },
		{ "sync", 's', POPT_ARG_NONE, &d.sync_open, 0, "use O_SYNC", NULL },
		{ "sync-dir", 'S', POPT_ARG_NONE, &d.sync_dirs, 0, "sync directory changes", NULL },
		{ "fsync", 'F', POPT_ARG_NONE, &d.fsync_write, 0, "fsync on write", NULL },
		{ "xattr", 'x', POPT_ARG_NONE, &d.xattr, 0, "use xattrs", NULL },
		{ "no-resolve", 0, POPT_ARG_NONE, &d.no_resolve, 0,
		  "disable name resolution simulation (kbench: no effect)", NULL },
		{ "clients-per-process", 0, POPT_ARG_STRING, &d.cpp, 0,
		  "number of clients per process", NULL },
		{ "one-byte-write-fix", 0, POPT_ARG_NONE, &d.one_byte, 0,
		  "try to fix 1 byte writes (kbench: no effect)", NULL },
		{ "stat-check", 0, POPT_ARG_NONE, &d.stat_check, 0,
		  "check for pointless calls with stat (kbench: no effect)", NULL },
		{ "fake-io", 0, POPT_ARG_NONE, &d.fake_io, 0, "refused: kbench does the I/O", NULL },
		{ "skip-cleanup", 0, POPT_ARG_NONE, &d.skip_cleanup, 0, "skip cleanup operations", NULL },
		{ "per-client-results", 0, POPT_ARG_NONE, &d.per_client, 0,
		  "show results per client", NULL },
		{ "backend", 'B', POPT_ARG_STRING, &d.backend, 0,
		  "dbench backend (fileio, sockio, nfs, smb)", "string" },
		{ "server", 0, POPT_ARG_STRING, &d.server, 0, "server (sockio, nfs)", NULL },
		{ "export", 0, POPT_ARG_STRING, &d.export_, 0, "export (nfs)", NULL },
		{ "protocol", 0, POPT_ARG_STRING, &d.protocol, 0, "protocol (nfs: tcp)", NULL },
		{ "nfs", 0, POPT_ARG_STRING, &d.nfs_url, 0, "nfs://SERVER/EXPORT (nfs)", NULL },
		{ "smb-share", 0, POPT_ARG_STRING, &d.smb_share, 0, "//SERVER/SHARE (smb)", NULL },
		{ "smb-user", 0, POPT_ARG_STRING, &d.smb_user, 0, "[DOMAIN/]USER%PASS (smb)", NULL },
		{ "run-once", 0, POPT_ARG_NONE, &d.run_once, 0,
		  "Stop once reaching the end of the loadfile", NULL },
		{ "warmup", 0, POPT_ARG_STRING, &d.warmup, 0, "warmup seconds", "integer" },
		{ "show-execute-time", 0, POPT_ARG_NONE, &d.show_exec, 0,
		  "a line per client at the end of each loadfile pass", NULL },
		{ "machine-readable", 0, POPT_ARG_NONE, &d.machine, 0,
		  "@-separated records instead of the lines a second", NULL },
		{ "json", 0, POPT_ARG_STRING, &d.json, 0,
		  "also write kbench's JSON document to FILE ('-': standard output)", "FILE" },
		POPT_AUTOHELP
		POPT_TABLEEND
	};
	poptContext ctx = poptGetContext(tool, argc, (const char **)argv, options, 0);
	poptSetOtherOptionHelp(ctx, !strcmp(backend, "sockio") ? "[OPTIONS] NPROCS [SERVER]" :
			       "[OPTIONS] NPROCS");
	struct argvec a = { 0 };
	int status = cli_popt_done(ctx, tool, cli_popt_next_last(ctx, options));
	if (d.smb_user)
		cli_hide_password(argc, (const char **)argv, "--smb-user");
	if (!status && !d.backend && !(d.backend = strdup(backend)))
		status = 1;
	if (!status)
		status = translate(tool, &d, ctx, &a);
	if (!status)
		status = compat_run(tool, cmd_load, &a);
	if (status == DB_NOTHING)
		status = KB_EXIT_OK;
	av_free(&a);
	args_free(&d);
	poptFreeContext(ctx);
	return status;
}

int compat_dbench(int argc, char **argv)
{
	return run_personality(argc, argv, "dbench", "fileio");
}

int compat_tbench(int argc, char **argv)
{
	return run_personality(argc, argv, "tbench", "sockio");
}
