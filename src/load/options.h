/* kbench - kbench load's command line: the options and their checks
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Two steps, so that the stop signals can be caught between them as
 * cmd_load needs (load/signals.h): load_opts_parse() reads the options
 * (and --check's FILE), load_opts_check() the run's NCLIENTS and the
 * values that need a parse of their own.  Each bad value is one line on
 * stderr and KB_EXIT_USAGE; nothing is touched.
 */
#ifndef KBENCH_LOAD_OPTIONS_H
#define KBENCH_LOAD_OPTIONS_H

#include <stdint.h>
#include <popt.h>
#include "load/backend.h"
#include "load/program.h"
#include "load/dbform.h"

struct load_opts {
	const char *cmd;             /* "kbench load", for messages */
	/* as given: popt's strings, owned (NULL when not given) */
	char *loadfile, *directory, *timelimit, *warmup, *json, *format, *mem_limit;
	char *backend_name;          /* -B NAME */
	char *server, *tcp_options;  /* --server, -T (sockio) */
	char *nfs_url;               /* --nfs (nfs) */
	char *smb_share, *smb_user;  /* --smb-share, --smb-user (smb) */
	char *smb_user_file;         /* --smb-user-file (smb) */
	int sync_open, sync_dirs, fsync_write, xattr, run_once, strict;
	int skip_cleanup, per_client, quiet, per_proc, drop_caches, check;
	int reuse_trees;  /* --reuse-trees: a client tree already there is used (trees.h) */
	int mpi, stonewall;          /* --mpi, --stonewall (load/mpi.h) */
	char *clients_total;         /* --clients-total N (with --mpi) */
	char *output_form;           /* --output-form WORD (load/dbform.h) */
	int pass_times;              /* --pass-times: a line per client per pass */
	enum load_form form;         /* parsed --output-form */
	double target_rate;          /* MB/s per client (MB = 10^6 bytes), 0: none */
	char *latency_from;          /* --latency-from start|due */
	int latency_from_due;        /* parsed by load_opts_check: 1 for due */
	/* parsed by load_opts_parse */
	enum lf_format lf_format;    /* --format, LF_AUTO when not given */
	const struct backend *backend; /* -B, fileio when not given */
	const char *check_file;      /* --check FILE (popt's, valid while its context is) */
	/* parsed by load_opts_check */
	uint64_t nclients;           /* at least 1, at most what this machine can fork */
	double timelimit_s;          /* seconds measured after warm-up (0: --run-once alone) */
	double warmup_s;             /* seconds of warm-up */
	uint64_t mem_limit_bytes;    /* --mem-limit, 0: no limit */
};

/* Set o to no options given (per_proc 1), for the command named cmd. */
void load_opts_init(struct load_opts *o, const char *cmd);

/* Read the options of argv (argv[0] is the command name) into o, and
 * --format and -B (a backend this kbench has, built in, given only the
 * target options it takes), and with --smb-user the password overwritten
 * in argv (the caller's strings must be writable: the process's own argv);
 * with --check, its one FILE into o->check_file.  Leaves popt's
 * context in *ctx for the caller to free (poptFreeContext, after
 * load_opts_free), also on an error.  Returns 0 or KB_EXIT_USAGE (said in
 * one line on stderr). */
int load_opts_parse(struct load_opts *o, int argc, const char **argv, poptContext *ctx);

/* For a run (not --check): the one NCLIENTS argument left in ctx, and
 * --clients-per-process, --timelimit, --warmup (default
 * timelimit/5, 0 with --run-once), --target-rate, --latency-from,
 * --mem-limit.  Returns 0 or
 * KB_EXIT_USAGE (said in one line on stderr). */
int load_opts_check(struct load_opts *o, poptContext ctx);

/* --mpi: this rank's clients, when --clients-total N spreads N over
 * nranks ranks (N / nranks each, one more for the first N % nranks), into
 * o->nclients; without --clients-total NCLIENTS stays.  Returns 0 or
 * KB_EXIT_USAGE (fewer clients than ranks, or more than this machine can
 * fork; said in one line on stderr). */
int load_opts_share(struct load_opts *o, int rank, int nranks);

/* --mpi: what this rank measures, as text every rank compares with rank
 * 0's before anything is made (load/mpi.h, kbmpi_same).  One line an
 * option that defines the measurement, "KEY\tSHOWN\n", SHOWN being how it
 * reads on a command line ("-t 60", "no -s"); the loadfile's line is
 * "-c\t-c PATH\tcrc32 HHHHHHHH, N bytes" when this rank can read it
 * (load_loadfile_path, loadfile_sum), without the sum when it cannot.
 * Control characters and backslashes in names are escaped (\xHH, \\).
 * Not in it: what only shows or keeps the results (-q, --json,
 * --skip-cleanup) and who logs in (--smb-user, --smb-user-file: each
 * rank's own, never sent).  Returns a malloc'd string, NULL when out of
 * memory. */
char *load_opts_measure(const struct load_opts *o);

/* Compares mine, this rank's load_opts_measure text, with rank 0's: a
 * line's SHOWN must be the same, except the loadfile's, whose sum alone
 * counts when both have one (the same bytes under another path agree).
 * Returns 0 when they agree, else 1 with the first option that differs
 * as this rank and rank 0 give it ("-t 4", "-t 1") in shown_mine and
 * shown_rank0 (size bytes each, cut to fit). */
int load_opts_differ(const char *mine, const char *rank0, char *shown_mine,
		     char *shown_rank0, size_t size);

/* 1 when --json - sends the JSON to standard output (the text then goes to
 * standard error), else 0. */
int load_opts_json_stdout(const struct load_opts *o);

/* Free popt's strings in o. */
void load_opts_free(struct load_opts *o);

#endif
