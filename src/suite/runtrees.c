/* kbench - suite: remove the client trees a failed load run left behind
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Only what the note before the run did not find goes: a tree that was
 * there before the run (an earlier --skip-cleanup's, the tester's) is
 * never touched, so the series refuses it as kbench load would.
 */
#include "config.h"
#include "suite/runtrees.h"
#include "load/load.h"
#include "resultsfile/escape.h"
#include "sys/fsutil.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* 1 if name is in dirfd (as anything), 0 if not, -1 with errno. */
static int there(int dirfd, const char *name)
{
	struct stat st;
	int mnt;
	if (fs_stat_entry(dirfd, name, &st, &mnt) == 0)
		return 1;
	return errno == ENOENT ? 0 : -1;
}

/* DIR/clients as a directory, or -1 (errno ENOENT when it is not there). */
static int open_clients(int dirfd)
{
	return fs_open_beneath(dirfd, "clients", O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0);
}

int runtrees_note(struct run_trees *t, const char *dir, unsigned n)
{
	char name[32];
	memset(t, 0, sizeof(*t));
	t->dirfd = -1;
	int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0)
		return -1;
	t->had = calloc(n ? n : 1, 1);
	int c = t->had ? there(dfd, "clients") : -1;
	if (c < 0) {
		int e = t->had ? errno : ENOMEM;
		free(t->had);
		t->had = NULL;
		close(dfd);
		errno = e;
		return -1;
	}
	t->had_clients = c == 1;
	t->n = n;
	int cfd = c == 1 ? open_clients(dfd) : -1;
	for (unsigned k = 0; k < n; k++) {
		trees_client_name(name, k);
		/* a clients/ that cannot be read as a directory: count every
		 * tree as there, so none is ever removed */
		t->had[k] = c == 1 && (cfd < 0 || there(cfd, name) != 0);
	}
	if (cfd >= 0)
		close(cfd);
	t->dirfd = dfd;
	return 0;
}

/* Remove the trees the run made below clients (cfd); their count, or -1. */
static int remove_made(struct run_trees *t, int cfd, const char *shown, const char *cmd,
		       unsigned *first)
{
	char name[32], esc[600];
	int removed = 0, failed = 0;
	for (unsigned k = 0; k < t->n; k++) {
		trees_client_name(name, k);
		if (t->had[k] || there(cfd, name) != 1)
			continue;
		int e = fs_remove_tree(cfd, name, 0, NULL);
		/* the run's clients die with it (SIGKILL at their parent's
		 * death), but one may finish the call it was in: try again */
		for (int i = 0; (e == ENOTEMPTY || e == EBUSY) && i < 40; i++) {
			struct timespec ts = { 0, 50 * 1000 * 1000 };
			nanosleep(&ts, NULL);
			e = fs_remove_tree(cfd, name, 0, NULL);
		}
		if (e) {
			fprintf(stderr, "%s: cannot remove %s/clients/%s, which the failed run "
				"made: %s\n", cmd, esc_str(esc, sizeof(esc), shown), name,
				strerror(e));
			failed = 1;
			continue;
		}
		if (!removed++)
			*first = k;
	}
	return failed ? -1 : removed;
}

int runtrees_sweep(struct run_trees *t, const char *shown, const char *cmd)
{
	char esc[600];
	unsigned first = 0;
	if (t->dirfd < 0)
		return 0;
	int cfd = open_clients(t->dirfd);
	if (cfd < 0)
		return 0;  /* no clients/ (or not one to enter): nothing the run left */
	int removed = remove_made(t, cfd, shown, cmd, &first);
	close(cfd);
	int clients_gone = 0;
	if (!t->had_clients && unlinkat(t->dirfd, "clients", AT_REMOVEDIR) == 0)
		clients_gone = 1;
	if (removed > 0)
		fprintf(stderr, "%s: removed the client trees the failed run left in %s: %d "
			"(clients/client%u%s)%s\n", cmd, esc_str(esc, sizeof(esc), shown), removed,
			first, removed > 1 ? " and more" : "",
			clients_gone ? ", and clients/ it made" : "");
	return removed;
}

void runtrees_free(struct run_trees *t)
{
	if (t->dirfd >= 0)
		close(t->dirfd);
	free(t->had);
	t->had = NULL;
	t->dirfd = -1;
}
