/* kbench - the client trees DIR/clients/clientK: made by the run, or refused
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * One rule for every backend (fileio, nfs, smb): the run removes only what
 * it made.  The cleanup removes each client's tree whole, so the tree must
 * be the run's: the parent makes it with an exclusive mkdir before any
 * client starts.  A name already there is looked at once: an empty
 * directory is used and kept (nothing of anyone's is inside), anything
 * else refuses the run with one line, status 2, before anything is
 * written.  The backends give their view of DIR (struct tree_fs); the
 * decisions and the words are here.
 */
#include "config.h"
#include "load/backend/trees.h"
#include "cli.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void trees_client_name(char *buf, unsigned k)
{
	snprintf(buf, 20, "client%u", k);
}

void trees_say_link(const char *cmd, const char *shown, const char *rel)
{
	fprintf(stderr, "%s: %s%s%s is a symbolic link, which kbench does not follow (remove it, "
		"or use another -D)\n", cmd, shown, rel[0] ? "/" : "", rel);
}

/* A name that is there already: say why it cannot be used (one line)
 * and return KB_EXIT_USAGE, or return 0 for an empty directory. */
static int reuse;  /* --reuse-trees */

void trees_reuse(int on)
{
	reuse = on;
}

static int judge(const struct tree_fs *fs, const char *rel, const char *shown, const char *cmd,
		 int want_empty)
{
	int k = fs->kind(fs->arg, rel);
	const char *why = NULL, *fix = "remove it";
	if (k < 0) {
		fprintf(stderr, "%s: %s/%s: %s\n", cmd, shown, rel, strerror(-k));
		return KB_EXIT_USAGE;
	}
	switch (k) {
	case TREE_DIR:
		break;
	case TREE_LINK:
		trees_say_link(cmd, shown, rel);
		return KB_EXIT_USAGE;
	case TREE_MOUNT:
		why = "is a mount point; the client trees go in the run's own directories";
		break;
	case TREE_MISSING:  /* mkdir said EEXIST: it came and went */
		why = "changed while kbench made it";
		break;
	default:
		why = "is there and not a directory; the client trees go there";
	}
	if (!why && want_empty && !reuse) {
		int e = fs->empty(fs->arg, rel);
		if (e < 0) {
			fprintf(stderr, "%s: %s/%s: %s\n", cmd, shown, rel, strerror(-e));
			return KB_EXIT_USAGE;
		}
		if (e == 0) {
			why = "was there before the run and is not empty; the run removes only what "
			      "it made, and it removes its client trees whole";
			fix = "empty or remove it yourself";
		}
	}
	if (why) {
		fprintf(stderr, "%s: %s/%s %s (%s, or use another -D)\n", cmd, shown, rel, why, fix);
		return KB_EXIT_USAGE;
	}
	return 0;
}

/* Take back the trees made before a refusal (they are empty: no client
 * has started), and clients/ if the claim made it. */
static void undo(const struct tree_fs *fs, struct tree_claim *out, unsigned upto)
{
	char rel[40];
	for (unsigned k = 0; k < upto; k++) {
		if (out->kept[k])
			continue;
		memcpy(rel, "clients/", 8);
		trees_client_name(rel + 8, k);
		fs->rmdir(fs->arg, rel);
	}
	if (out->made_clients)
		fs->rmdir(fs->arg, "clients");
}

int trees_claim(const struct tree_fs *fs, unsigned nclients, const char *shown,
		const char *cmd, struct tree_claim *out)
{
	char rel[40];
	memset(out, 0, sizeof(*out));
	out->kept = calloc(nclients ? nclients : 1, 1);
	if (!out->kept) {
		fprintf(stderr, "%s: out of memory\n", cmd);
		return KB_EXIT_USAGE;
	}
	int e = fs->mkdir(fs->arg, "clients");
	if (e == 0) {
		out->made_clients = 1;
	} else if (e != EEXIST) {
		fprintf(stderr, "%s: %s/clients: cannot make it: %s\n", cmd, shown, strerror(e));
		trees_free(out);
		return KB_EXIT_USAGE;
	} else if (judge(fs, "clients", shown, cmd, 0)) {
		trees_free(out);
		return KB_EXIT_USAGE;
	}
	for (unsigned k = 0; k < nclients; k++) {
		memcpy(rel, "clients/", 8);
		trees_client_name(rel + 8, k);
		e = fs->mkdir(fs->arg, rel);
		if (e == EEXIST && judge(fs, rel, shown, cmd, 1) == 0) {
			out->kept[k] = 1;
			e = 0;
		} else if (e && e != EEXIST) {
			fprintf(stderr, "%s: %s/%s: cannot make it: %s\n", cmd, shown, rel, strerror(e));
		}
		if (e) {
			undo(fs, out, k);
			trees_free(out);
			return KB_EXIT_USAGE;
		}
	}
	out->n = nclients;
	return 0;
}

void trees_free(struct tree_claim *c)
{
	free(c->kept);
	memset(c, 0, sizeof(*c));
}
