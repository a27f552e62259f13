/* kbench - suite: the client trees a failed load run left in DIR
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A load child removes the trees it made (load/cleanup.h), unless it
 * cannot: SIGKILL, the OOM killer, a crash.  Its trees would then refuse
 * every later run of the series ("was there before the run and is not
 * empty").  The suite notes which trees were in DIR before each run, and
 * after a failed run removes those that were not: the trees its own run
 * made, and nothing else.
 */
#ifndef KBENCH_RUNTREES_H
#define KBENCH_RUNTREES_H

#include <stdbool.h>

struct run_trees {
	int dirfd;                /* DIR; -1: nothing noted */
	bool had_clients;         /* DIR/clients was there before the run */
	unsigned n;               /* the run's clients */
	unsigned char *had;       /* had[K]: DIR/clients/clientK was there (malloc'd) */
};

/* Before a run of n clients in dir: note which of dir/clients and
 * dir/clients/clientK (K < n) exist, as anything (a link, a file, a
 * directory), looking through no symbolic link.  Returns 0, or -1 with
 * errno (dir cannot be opened, out of memory); t is then empty (dirfd
 * -1) and runtrees_sweep does nothing. */
int runtrees_note(struct run_trees *t, const char *dir, unsigned n);

/* After a run that failed: remove each dir/clients/clientK that the note
 * did not find and that is now there (fs_remove_tree, sys/fsutil.h: no
 * link followed, no other mount entered), then dir/clients if the note
 * did not find it and it is now empty.  Says so on stderr in one line,
 * "CMD: removed the client trees the failed run left in DIR: N of
 * clients/client0..." (shown is DIR as the user gave it), and names each
 * tree it could not remove with the reason.  Returns how many trees it
 * removed, or -1 if one could not be removed. */
int runtrees_sweep(struct run_trees *t, const char *shown, const char *cmd);

/* Close and free what the note holds; t is then empty.  Takes an empty t. */
void runtrees_free(struct run_trees *t);

#endif
