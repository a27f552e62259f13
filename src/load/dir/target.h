/* kbench - the target of a load run: its directory, or the server
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Before the run: DIR checked or made (a new directory under $TMPDIR
 * without -D), the participant's own directory in it when the
 * coordinator gives one (--mpi: DIR/rank<r>, on a server too), the note
 * of what DIR held and the clients' trees claimed (cleanup.h), or the
 * backend's prepare() for a backend that works on a server; the --json
 * destination (participant 0's).  After it: what the run made removed,
 * the directories made for it too.
 */
#ifndef KBENCH_LOAD_TARGET_H
#define KBENCH_LOAD_TARGET_H

#include <limits.h>
#include <stdio.h>
#include "load/backend/backend.h"
#include "load/dir/cleanup.h"

struct coord;
struct load_opts;
struct program;

struct load_target {
	const char *directory;       /* the run's directory: -D, tmpdir, or
				      * the participant's own in it */
	const char *base;            /* DIR itself (-D or tmpdir) */
	char tmpdir[PATH_MAX];       /* the one made without -D */
	int made_tmpdir;
	char own[PATH_MAX];          /* DIR/SUBDIR, the participant's own (coord) */
	int made_own;                /* made by this run, removed after it */
	int rootfd;                  /* the run's directory, -1 until opened */
	struct cleanup_plan *plan;   /* what it held before the run */
	struct backend_opts bopts;   /* -s -S -F -x and the backend's target */
	int prepared;                /* the backend's prepare() succeeded */
	char json_dest[PATH_MAX];    /* --json, checked (result_destination) */
};

/* An empty target: nothing opened or made.  t must be zero-filled
 * already (static, calloc'd or = {0}); only its fields that are not zero
 * when empty are written, so the pages of its path buffers stay untouched
 * (not resident, nor in the clients forked after) until a path is put in
 * them. */
void load_target_init(struct load_target *t);

/* The target made ready for the run of o's options, co's participant:
 * the directory (or the server's prepare()), the --json destination on
 * participant 0 (loadfile: the path it must not overwrite), the open
 * files the clients need (prog's handles, RLIMIT_NOFILE).  Returns 0, or
 * KB_EXIT_USAGE for bad input (a directory that is missing, not
 * writable, in use by another run, holding what the clients' trees
 * would be), or the backend's status (said on stderr). */
int load_target_prepare(const struct load_opts *o, const struct coord *co, const char *loadfile,
		   const struct program *prog, struct load_target *t);

/* Another participant's input was bad: what this one made for the run
 * (its clients' trees, its own directory) goes; a made DIR goes in
 * load_target_free. */
void load_target_undo(const struct load_opts *o, struct load_target *t);

/* After the run and its report (written to out): what the run made
 * removed (the backend's cleanup on a server), and the directories made
 * for it, unless --skip-cleanup (then a line says where the files are).
 * Returns status, or KB_EXIT_FAIL for a failure here when status was 0
 * (said on stderr). */
int load_target_cleanup(const struct load_opts *o, FILE *out, struct load_target *t, int status);

/* Release what t holds; a directory made for a run that never started
 * (bad input, status KB_EXIT_USAGE) is removed. */
void load_target_free(const struct load_opts *o, struct load_target *t, int status);

#endif
