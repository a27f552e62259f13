/* kbench - kbench load's command line: the options and their checks
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Two steps, so that the stop signals can be caught between them as
 * cmd_load needs (load/run/signals.h): load_opts_parse() reads the options
 * (and --check's FILE), load_opts_check() the run's NCLIENTS and the
 * values that need a parse of their own.  Each bad value is one line on
 * stderr and KB_EXIT_USAGE; nothing is touched.
 */
#ifndef KBENCH_LOAD_OPTIONS_H
#define KBENCH_LOAD_OPTIONS_H

#include <stddef.h>
#include <stdint.h>
#include <popt.h>
#include <jansson.h>
#include "load/backend/backend.h"
#include "load/loadfile/program.h"
#include "load/report/dbench_form.h"

#define LOAD_THROUGH_ROWS 24

/* The options kbench suite takes as well and gives each load child its
 * own way (-c the path it checked, -t its own default, --mem-limit one of
 * its list, --drop-caches also before its disk and micro runs): the first
 * three fields of their popt rows, name, letter and kind, written here
 * once and used by both tables, "{ LOAD_OPT_TIMELIMIT, &var, 0, help,
 * "TIME" }"; each command words its own help. */
#define LOAD_OPT_LOADFILE "loadfile", 'c', POPT_ARG_STRING
#define LOAD_OPT_DIRECTORY "directory", 'D', POPT_ARG_STRING
#define LOAD_OPT_TIMELIMIT "timelimit", 't', POPT_ARG_STRING
#define LOAD_OPT_WARMUP "warmup", 0, POPT_ARG_STRING
#define LOAD_OPT_MEM_LIMIT "mem-limit", 0, POPT_ARG_STRING
#define LOAD_OPT_DROP_CACHES "drop-caches", 0, POPT_ARG_NONE

struct load_opts {
	const char *cmd;             /* "kbench load", for messages */
	/* as given: popt's strings, owned (NULL when not given) */
	char *loadfile, *directory, *timelimit, *warmup, *json, *format, *mem_limit;
	char *backend_name;          /* -B NAME */
	char *per_proc_arg;          /* --clients-per-process N, as given */
	char *target_rate_arg;       /* -R MBPS, as given */
	int sync_open, sync_dirs, fsync_write, xattr, run_once, strict;
	int skip_cleanup, per_client, quiet, drop_caches, check;
	int reuse_trees;  /* --reuse-trees: a client tree already there is used (trees.h) */
	int mpi, stonewall;          /* --mpi, --stonewall (load/mpi/mpi.h) */
	char *clients_total;         /* --clients-total N (with --mpi) */
	char *output_form;           /* --output-form WORD (load/report/dbench_form.h) */
	int pass_times;              /* --pass-times: a line per client per pass */
	enum load_form form;         /* parsed --output-form */
	char *latency_from;          /* --latency-from start|due */
	int latency_from_due;        /* parsed by load_opts_check: 1 for due */
	/* parsed by load_opts_parse */
	int per_proc;                /* --clients-per-process, 1 when not given */
	double target_rate;          /* -R: MB/s per client (MB = 10^6 bytes), 0: none */
	enum lf_format lf_format;    /* --format, LF_AUTO when not given */
	const struct backend *backend; /* -B, fileio when not given */
	const char *check_file;      /* --check FILE (popt's, valid while its context is) */
	/* parsed by load_opts_check */
	uint64_t nclients;           /* at least 1, at most what this machine can fork */
	double timelimit_s;          /* seconds measured after warm-up (0: --run-once alone) */
	double warmup_s;             /* seconds of warm-up */
	uint64_t mem_limit_bytes;    /* --mem-limit, 0: no limit */
	/* The options kbench suite passes through to its load children as
	 * given (load's table includes them; so does suite's): every row a
	 * string or a flag with a long name.  load_opts_init fills it with
	 * pointers into this struct, which is therefore never copied. */
	struct poptOption through[LOAD_THROUGH_ROWS];
	char through_names[LOAD_THROUGH_ROWS][40];  /* their "--NAME"s, walked in order */
	/* each backend's own options (backend.h): backends[i]'s struct in
	 * own[i], its rows in own_rows[i], which through[] includes */
	_Alignas(max_align_t) unsigned char own[BACKENDS_MAX][BACKEND_OPTS_MAX];
	struct poptOption own_rows[BACKENDS_MAX][BACKEND_OPT_ROWS];
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
 * 0's before anything is made (load/mpi/mpi.h, kbmpi_same).  One line an
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

/* The backend the options name: -B's NAME, else the first backend one of
 * whose own options was given (--server: sockio), else NULL. */
const char *load_opts_backend_given(const struct load_opts *o);

/* The backend's options of o (-s -S -F -x, -D, and its own: o->own of
 * the chosen backend) into b, target NULL. */
void load_opts_backend(const struct load_opts *o, struct backend_opts *b);

/* The long name ("--sync") of the first of o->through's options that was
 * given, or NULL when none was. */
const char *load_opts_through_first(const struct load_opts *o);

/* o->through's options that were given, as a load child's arguments
 * (v[n], v[n + 1], ...: "--NAME" for a flag, "--NAME" VALUE for a string;
 * the values are o's strings), and "--backend NAME" when -B was not given
 * but a backend's target option was (load_opts_backend_given).  v must
 * have room for 2 * LOAD_THROUGH_ROWS + 2 more.  Returns the new n. */
size_t load_opts_through_argv(const struct load_opts *o, const char **v, size_t n);

/* o->through's options into the object params as a record of what was
 * passed: a flag as KEY: true/false, a string given as KEY: "VALUE" (KEY
 * the long name with '_' for '-'), a backend's secret option only as
 * KEY_given: true.  Returns 0, or -1 when out of memory. */
int load_opts_through_json(const struct load_opts *o, json_t *params);

/* What load_args_check learns of a load command line: the server it
 * reaches, host and port as TCP reaches them (host[0] is '\0' when it
 * reaches none), and its clients per process. */
struct load_child_info {
	char host[256];
	char port[16];
	unsigned per_proc;
};

/* Check a load child's command line as kbench load would before its run
 * (argv[0] is "load", NULL-terminated; the strings are not changed):
 * load_opts_parse, load_opts_check, and the chosen backend's check of
 * its options (backend.h: forms only, nothing reached); then what ep
 * holds.  Messages start with cmd.  Returns 0, or
 * KB_EXIT_USAGE after one line on stderr. */
int load_args_check(const char *cmd, const char *const *argv, struct load_child_info *ep);

/* Free popt's strings in o. */
void load_opts_free(struct load_opts *o);

#endif
