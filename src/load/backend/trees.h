/* kbench - the client trees DIR/clients/clientK: made by the run, or refused
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The rule every backend keeps: the run removes only what the run made.
 * The parent makes each client's tree before any client starts, with an
 * exclusive mkdir, so that nothing can already be inside a tree the
 * cleanup removes whole.  What a backend needs to see of DIR is given
 * through struct tree_fs; the decisions and their messages are here, once.
 */
#ifndef KBENCH_TREES_H
#define KBENCH_TREES_H

/* What a name in DIR is, as tree_fs.kind() tells it. */
enum tree_kind {
	TREE_MISSING,    /* nothing by that name */
	TREE_DIR,        /* a directory (through a link the server resolves
			  * itself, where it does: SMB) */
	TREE_LINK,       /* a symbolic link, seen as one */
	TREE_MOUNT,      /* the root of another mount (local only) */
	TREE_OTHER,      /* anything else: a file, a device */
};

/* A backend's view of DIR.  Each rel is relative to DIR ("clients",
 * "clients/client3"); no function may resolve a symbolic link it can see
 * in rel (fileio: openat2 beneath DIR; NFS: every prefix checked first). */
struct tree_fs {
	void *arg;
	/* make the directory rel: 0, or a positive errno (EEXIST when
	 * something is there already) */
	int (*mkdir)(void *arg, const char *rel);
	/* what rel is: a tree_kind, or a negative errno */
	int (*kind)(void *arg, const char *rel);
	/* the directory rel: 1 if it holds nothing, 0 if it holds anything,
	 * or a negative errno */
	int (*empty)(void *arg, const char *rel);
	/* remove the empty directory rel the claim made: 0 or a positive
	 * errno (a refused claim takes back what it made) */
	int (*rmdir)(void *arg, const char *rel);
};

/* --reuse-trees: from now on, trees_claim uses a client tree that is
 * there already and holds something (as dbench does, and mmtests' warm-up
 * then timed run on one -D needs) instead of refusing the run; it is then
 * kept like an empty one (its contents go after the run).  A link, a mount
 * point or a non-directory is refused still.  Set in the parent before
 * any claim. */
void trees_reuse(int on);

/* What the claim found, for the cleanup. */
struct tree_claim {
	unsigned n;              /* the client trees claimed */
	unsigned char *kept;     /* kept[K]: clientK was there, empty, before
				  * the run: its contents go after it, the
				  * directory stays (malloc'd, n bytes) */
	int made_clients;        /* the run made DIR/clients */
};

/* Make DIR/clients unless it is a directory already, then each
 * DIR/clients/clientK for K < nclients with an exclusive mkdir.  A clientK
 * that is there already is used only if it is an empty directory (one
 * dbench or an earlier --skip-cleanup left, say): it is noted in
 * out->kept.  Anything else refuses the run: a symbolic link ("which
 * kbench does not follow"), a mount point, something not a directory, a
 * directory that holds anything (the run never empties what it did not
 * make).  shown is DIR as the user knows it (messages name
 * shown/clients/clientK); cmd starts each message.  Returns 0 with *out
 * filled (trees_free it), or KB_EXIT_USAGE after one line on stderr
 * naming the path and what to do (out is then empty).  The trees made
 * before a refusal are removed again. */
int trees_claim(const struct tree_fs *fs, unsigned nclients, const char *shown,
		const char *cmd, struct tree_claim *out);

/* One line on stderr: cmd: shown/rel is a symbolic link, which kbench
 * does not follow, and what to do.  For a link found anywhere on the
 * path to a tree, by any backend. */
void trees_say_link(const char *cmd, const char *shown, const char *rel);

/* The name of client K's tree below DIR/clients: "clientK" into buf
 * (at least 20 bytes). */
void trees_client_name(char *buf, unsigned k);

/* Free what a claim holds.  Takes an empty claim. */
void trees_free(struct tree_claim *c);

#endif
