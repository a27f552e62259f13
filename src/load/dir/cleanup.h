/* kbench - after a load run: remove what the run made, keep what was there
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#ifndef KBENCH_CLEANUP_H
#define KBENCH_CLEANUP_H

#include "load/loadfile/program.h"

struct cleanup_plan;

/* Before the run: note what the run directory (rootfd) holds: its
 * top-level names and the full contents of each directory there that the
 * program's shared paths reach into, or "clients".  Returns a plan, or
 * NULL when out of memory or rootfd cannot be read (errno set). */
struct cleanup_plan *cleanup_plan(int rootfd, const struct program *prog, unsigned nclients);

/* Before any client starts, after cleanup_plan(): make DIR/clients
 * unless it is there, and each client's tree DIR/clients/clientK
 * exclusively (trees_claim(), trees.h: a tree already there is used only
 * when it is an empty directory, which the cleanup then keeps).  dirname
 * is DIR as given, cmd starts the messages.  Returns 0, or KB_EXIT_USAGE
 * after one line on stderr naming the path. */
int cleanup_claim(struct cleanup_plan *p, int rootfd, const char *dirname, const char *cmd);

/* 1 if a noted tree was too large (more than 200,000 entries) to note in
 * full: files the run makes there may be left behind. */
int cleanup_inexact(const struct cleanup_plan *p);

/* After the run: remove DIR/clients/clientK for every client (the
 * contents only of one cleanup_claim() found there, empty), then every
 * entry the note does not list.  Never follows a symbolic link, and never
 * enters or removes another mount (bind mounts of the same filesystem
 * included): each mount point met is named on stderr in one line, as
 * dirname/PATH, and left as it is.  Returns 0, or -1 if something could
 * not be removed or a mount point was met. */
int cleanup_run(struct cleanup_plan *p, int rootfd, const char *dirname);

/* Free the plan.  Takes NULL. */
void cleanup_free(struct cleanup_plan *p);

#endif
