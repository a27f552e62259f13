/* kbench - -B nfs: the export: DIR and the client trees checked and claimed
 * in prepare(), no symbolic link followed; the removal of a tree (Deltree
 * and the cleanup); the cleanup
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#ifdef HAVE_LIBNFS

#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>
#include "cli.h"
#include "sys/clock.h"
#include "load/backend/nfs/nfs_int.h"
#include "load/backend/tbproto.h"

/* At the cleanup: the link at buf is left, in one line. */
static int link_left(const struct rm_links *lk, const char *buf)
{
	fprintf(stderr, "%s: %s%s is a symbolic link the run did not make: left as it is, not "
		"followed (the run's operations may have gone through it)\n", lk->cmd, lk->shown,
		buf + lk->dirlen);
	return -EEXIST;
}

/* Remove the tree at buf (len bytes, a PATH_MAX buffer it extends and
 * restores) over the protocol: READDIRPLUS, REMOVE for what is not a
 * directory, RMDIR.  A symbolic link is never followed (lk says whether
 * it is removed or left).  Before it lists a directory, it asks what the
 * path names (LOOKUP, no link followed): a directory swapped for a link
 * since READDIRPLUS said its type is not entered.  With keep_top only the
 * contents go.  A missing path is not an error.  Returns 0 or a libnfs
 * result (< 0) of the first failure. */
int kbnfs_rm_tree(struct nfs_context *nfs, char *buf, size_t len, int keep_top,
		   const struct rm_links *lk)
{
	struct nfsdir *d;
	struct nfs_stat_64 st;
	int r = libnfs.nfs_lstat64(nfs, len ? buf : "/", &st);
	if (r == -ENOENT)
		return 0;
	if (r < 0)
		return r;
	if (S_ISLNK(st.nfs_mode) && lk->cmd)
		return link_left(lk, buf);
	if (!S_ISDIR(st.nfs_mode))
		return keep_top ? -ENOTDIR : libnfs.nfs_unlink(nfs, buf);
	r = libnfs.nfs_opendir(nfs, len ? buf : "/", &d);
	if (r < 0)
		return r;
	struct nfsdirent *de;
	int first = 0;
	while ((de = libnfs.nfs_readdir(nfs, d))) {
		if (!strcmp(de->name, ".") || !strcmp(de->name, ".."))
			continue;
		size_t nl = strlen(de->name);
		if (len + 1 + nl + 1 > PATH_MAX) {
			first = first ? first : -ENAMETOOLONG;
			continue;
		}
		buf[len] = '/';
		memcpy(buf + len + 1, de->name, nl + 1);
		if (de->type == NFS_TYPE_DIR)
			r = kbnfs_rm_tree(nfs, buf, len + 1 + nl, 0, lk);
		else if (de->type == NFS_TYPE_LNK && lk->cmd)
			r = link_left(lk, buf);
		else
			r = libnfs.nfs_unlink(nfs, buf);
		buf[len] = '\0';
		if (r < 0 && r != -ENOENT && !first)
			first = r;
		if (r == -EIO || r == -EINTR)
			break;  /* the server is gone: do not go on asking it */
	}
	libnfs.nfs_closedir(nfs, d);
	if (first)
		return first;
	if (!keep_top) {
		r = libnfs.nfs_rmdir(nfs, buf);
		if (r < 0 && r != -ENOENT)
			return r;
	}
	return 0;
}

/* ---- paths that go through no symbolic link ----
 * libnfs resolves a path one LOOKUP at a time from the export's root and
 * follows a symbolic link it meets on the way.  DIR and the client trees
 * are checked here instead, a LOOKUP of each prefix from the top with no
 * link followed (libnfs's lstat): each later LOOKUP then goes through
 * directories just seen to be directories.  Another NFS client can still
 * swap one for a link afterwards (kbench-load(1) says what that means). */

/* Check every component of path ("" or "/a/b", absolute in the export):
 * a directory, not a symbolic link.  Returns 0; -ELOOP with *bad set to
 * the length of the prefix that is a link; -ENOTDIR for one that is not a
 * directory (also *bad); or libnfs's error for the lookup that failed. */
int kbnfs_nolink_path(struct nfs_context *nfs, const char *path, size_t *bad)
{
	char pre[PATH_MAX];
	size_t len = strlen(path), i = 0;
	if (len >= sizeof(pre))
		return -ENAMETOOLONG;
	while (i < len) {
		i += 1 + strcspn(path + i + 1, "/");
		memcpy(pre, path, i);
		pre[i] = '\0';
		struct nfs_stat_64 st;
		int r = libnfs.nfs_lstat64(nfs, pre, &st);
		*bad = i;
		if (r < 0)
			return r;
		if (S_ISLNK(st.nfs_mode))
			return -ELOOP;
		if (!S_ISDIR(st.nfs_mode))
			return -ENOTDIR;
	}
	return 0;
}

/* The client trees as trees.c sees them: rel below DIR, over the
 * protocol.  A LOOKUP of rel goes through DIR (checked) and clients/
 * (judged a directory before any clientK is made). */
struct nfs_tree_fs {
	struct nfs_context *nfs;
	const char *dir;
	char buf[PATH_MAX];
};

static const char *tree_path(struct nfs_tree_fs *f, const char *rel)
{
	snprintf(f->buf, sizeof(f->buf), "%s/%s", f->dir, rel);
	return f->buf;
}

static int tfs_mkdir(void *arg, const char *rel)
{
	struct nfs_tree_fs *f = arg;
	int r = libnfs.nfs_mkdir2(f->nfs, tree_path(f, rel), 0777);
	return r < 0 ? -r : 0;
}

static int tfs_kind(void *arg, const char *rel)
{
	struct nfs_tree_fs *f = arg;
	struct nfs_stat_64 st;
	int r = libnfs.nfs_lstat64(f->nfs, tree_path(f, rel), &st);
	if (r < 0)
		return r == -ENOENT ? TREE_MISSING : r;
	return S_ISLNK(st.nfs_mode) ? TREE_LINK : S_ISDIR(st.nfs_mode) ? TREE_DIR : TREE_OTHER;
}

static int tfs_empty(void *arg, const char *rel)
{
	struct nfs_tree_fs *f = arg;
	struct nfsdir *d;
	int r = libnfs.nfs_opendir(f->nfs, tree_path(f, rel), &d);
	if (r < 0)
		return r;
	struct nfsdirent *de;
	int empty = 1;
	while (empty && (de = libnfs.nfs_readdir(f->nfs, d)))
		if (strcmp(de->name, ".") && strcmp(de->name, ".."))
			empty = 0;
	libnfs.nfs_closedir(f->nfs, d);
	return empty;
}

static int tfs_rmdir(void *arg, const char *rel)
{
	struct nfs_tree_fs *f = arg;
	int r = libnfs.nfs_rmdir(f->nfs, tree_path(f, rel));
	return r < 0 ? -r : 0;
}

/* DIR (t->dir) goes through no link, and the client trees are the run's:
 * trees_claim() over the protocol.  Returns 0, or KB_EXIT_USAGE after one
 * line on stderr. */
int kbnfs_claim_trees(struct nfs_context *nfs, struct nfs_target *t, unsigned nclients,
		       const char *cmd)
{
	size_t bad = 0;
	int r = kbnfs_nolink_path(nfs, t->dir, &bad);
	if (r == -ELOOP) {
		char rel[PATH_MAX];
		snprintf(rel, sizeof(rel), "%.*s", (int)bad - 1, t->dir + 1);
		trees_say_link(cmd, t->export, rel);
		return KB_EXIT_USAGE;
	}
	if (r < 0) {
		fprintf(stderr, "%s: -D %s: %s on %s\n", cmd, t->dir + 1,
			r == -ENOTDIR ? "not a directory" : libnfs.nfs_get_error(nfs), t->url);
		return KB_EXIT_USAGE;
	}
	struct nfs_tree_fs *f = malloc(sizeof(*f));
	if (!f) {
		fprintf(stderr, "%s: out of memory\n", cmd);
		return KB_EXIT_USAGE;
	}
	f->nfs = nfs;
	f->dir = t->dir;
	struct tree_fs fs = { f, tfs_mkdir, tfs_kind, tfs_empty, tfs_rmdir };
	int status = trees_claim(&fs, nclients, t->shown, cmd, &t->trees);
	free(f);
	return status;
}

/* The version the URL asks for: 3 (libnfs's default, also when the URL
 * says none), 4, or 0 for any other value or for more than one version=
 * (libnfs takes the last, so a first version=3 would hide a version=4). */
static int url_version(const char *url)
{
	const char *q = strchr(url, '?');
	int v = 3, seen = 0;
	while (q) {
		q++;
		if (!strncmp(q, "version=", 8)) {
			q += 8;
			if (seen++ || !((q[0] == '3' || q[0] == '4') && (q[1] == '\0' || q[1] == '&')))
				return 0;
			v = q[0] - '0';
		}
		q = strchr(q, '&');
	}
	return v;
}

/* -D as a path inside the export: "" for its root, else "/a/b"; no ".."
 * component.  Returns 0 or -1. */
static int export_path(const char *d, char *out, size_t len)
{
	size_t n = 0;
	out[0] = '\0';
	while (*d) {
		while (*d == '/')
			d++;
		if (!*d)
			break;
		size_t cl = strcspn(d, "/");
		if (cl == 2 && !strncmp(d, "..", 2))
			return -1;
		if (!(cl == 1 && d[0] == '.')) {
			if (n + 1 + cl + 1 > len)
				return -1;
			out[n++] = '/';
			memcpy(out + n, d, cl);
			n += cl;
			out[n] = '\0';
		}
		d += cl;
	}
	return 0;
}

static void target_free(struct nfs_target *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->nnoted; i++)
		free(t->noted[i]);
	free(t->noted);
	trees_free(&t->trees);
	free(t);
}

/* -D: note DIR's top-level names (cleanup() removes the others). */
static int note_dir(struct nfs_context *nfs, struct nfs_target *t, const char *cmd)
{
	struct nfsdir *d;
	int r = libnfs.nfs_opendir(nfs, t->dir[0] ? t->dir : "/", &d);
	if (r < 0) {
		fprintf(stderr, "%s: -D %s: cannot list it on %s: %s\n", cmd, t->dir[0] ? t->dir : "/",
			t->url, libnfs.nfs_get_error(nfs));
		return -1;
	}
	struct nfsdirent *de;
	size_t cap = 0;
	int rc = 0;
	while ((de = libnfs.nfs_readdir(nfs, d))) {
		if (!strcmp(de->name, ".") || !strcmp(de->name, ".."))
			continue;
		if (t->nnoted == cap) {
			size_t ncap = cap ? 2 * cap : 64;
			char **nn = realloc(t->noted, ncap * sizeof(*nn));
			if (!nn) {
				rc = -1;
				break;
			}
			t->noted = nn;
			cap = ncap;
		}
		if (!(t->noted[t->nnoted] = strdup(de->name))) {
			rc = -1;
			break;
		}
		t->nnoted++;
	}
	libnfs.nfs_closedir(nfs, d);
	if (rc)
		fprintf(stderr, "%s: out of memory\n", cmd);
	return rc;
}

/* Mount url once in the parent: the target, and a context on it (the
 * caller destroys it), or NULL after a line on stderr. */
static struct nfs_context *mount_once(const char *url, const char *cmd)
{
	struct nfs_url *u = NULL;
	struct nfs_context *nfs = kbnfs_open_context(url, cmd, &u);
	if (!nfs)
		return NULL;
	int r = libnfs.nfs_mount(nfs, u->server, u->path);
	libnfs.nfs_destroy_url(u);
	if (r < 0) {
		const char *msg = libnfs.nfs_get_error(nfs);
		fprintf(stderr, "%s: --nfs %s: cannot mount the export: %s%s\n", cmd, url, msg,
			msg && !strcmp(msg, "nfs_service failed") ?
			" (no NFS server answers there, or it closed the connection)" : "");
		kbnfs_drop_context(nfs);
		return NULL;
	}
	return nfs;
}

/* --nfs's SERVER[:PORT] (a [V6] address too) and the NFS port: the URL's
 * nfsport= when it gives one, as libnfs connects there.  Returns 0, or -1
 * when the URL has no such parts. */
int nfs_endpoint(const struct backend_opts *o, char *host, size_t hostlen, char *port,
		 size_t portlen)
{
	char buf[1024], err[160];
	const char *h = nfs_url(o) + 6;
	size_t len = strcspn(h, "/?");
	if (strncmp(nfs_url(o), "nfs://", 6) || len >= sizeof(buf))
		return -1;
	memcpy(buf, h, len);
	buf[len] = '\0';
	if (tb_split_hostport(buf, NFS_PORT, host, hostlen, port, portlen, err, sizeof(err)) < 0)
		return -1;
	for (const char *q = strchr(nfs_url(o), '?'); q; q = strchr(q, '&')) {
		q++;
		if (strncmp(q, "nfsport=", 8))
			continue;
		size_t n = strcspn(q + 8, "&");
		if (!n || n >= portlen || strspn(q + 8, "0123456789") != n)
			return -1;
		memcpy(port, q + 8, n);
		port[n] = '\0';
	}
	return 0;
}

int nfs_check(const struct backend_opts *o, const char *cmd)
{
	char host[256], port[16], dir[PATH_MAX];
	if (!nfs_url(o))
		return cli_usage_error(cmd, "-B nfs needs --nfs nfs://SERVER/EXPORT");
	if (strncmp(nfs_url(o), "nfs://", 6))
		return cli_usage_error(cmd, "--nfs '%s': not an nfs://SERVER/EXPORT URL", nfs_url(o));
	if (nfs_endpoint(o, host, sizeof(host), port, sizeof(port)) < 0)
		return cli_usage_error(cmd, "--nfs '%s': not nfs://SERVER[:PORT]/EXPORT (a "
				       "host, a port from 1 to 65535, nfsport= a number)", nfs_url(o));
	if (o->xattr)
		return cli_usage_error(cmd, "-x: NFS has no extended attributes for the DOS "
				       "attributes (not with -B nfs)");
	if (o->sync_dirs)
		return cli_usage_error(cmd, "-S: an NFS server commits a namespace change before "
				       "it replies; there is no directory fsync to send (not with -B nfs)");
	int version = url_version(nfs_url(o));
	if (!version)
		return cli_usage_error(cmd, "--nfs %s: version= takes 3 (or 4, which is refused), once",
				       nfs_url(o));
	if (version == 4)
		return cli_usage_error(cmd, "--nfs %s: version=4: libnfs's NFSv4 client is not "
				       "usable (its own documentation says so; against nfs-ganesha its "
				       "OPEN, WRITE, SETATTR and LOCK fail): use version=3", nfs_url(o));
	if (o->directory && export_path(o->directory, dir, sizeof(dir)) < 0)
		return cli_usage_error(cmd, "-D %s: not a path inside the export (no '..', "
				       "shorter than %d bytes)", o->directory, PATH_MAX - 64);
	return 0;
}

int nfs_prepare(struct backend_opts *o, unsigned nclients, const char *cmd)
{
	int status = nfs_check(o, cmd);
	if (status)
		return status;
	struct nfs_target *t = calloc(1, sizeof(*t));
	if (!t) {
		fprintf(stderr, "%s: out of memory\n", cmd);
		return KB_EXIT_USAGE;
	}
	/* nfs_check found them good */
	t->url = nfs_url(o);
	t->version = url_version(nfs_url(o));
	if (o->directory)
		export_path(o->directory, t->dir, sizeof(t->dir));
	/* the options are good: now the library, before anything is sent */
	if (libnfs_load(cmd) < 0) {
		target_free(t);
		return KB_EXIT_USAGE;
	}
	struct nfs_context *nfs = mount_once(nfs_url(o), cmd);
	if (!nfs) {
		target_free(t);
		return KB_EXIT_USAGE;
	}
	/* the export's path, as the URL gives it: DIR's name in messages */
	const char *ep = strchr(nfs_url(o) + 6, '/');
	snprintf(t->export, sizeof(t->export), "%.*s", ep ? (int)strcspn(ep, "?") : 0, ep ? ep : "");
	snprintf(t->shown, sizeof(t->shown), "%s%s", t->export, t->dir);
	if (o->directory) {
		struct nfs_stat_64 st;
		int r = libnfs.nfs_stat64(nfs, t->dir[0] ? t->dir : "/", &st);
		if (r < 0 || !S_ISDIR(st.nfs_mode)) {
			fprintf(stderr, "%s: -D %s: %s on %s\n", cmd, o->directory,
				r < 0 ? libnfs.nfs_get_error(nfs) : "not a directory", nfs_url(o));
			status = KB_EXIT_USAGE;
		} else if (note_dir(nfs, t, cmd) < 0) {
			status = KB_EXIT_USAGE;
		}
	} else {
		snprintf(t->dir, sizeof(t->dir), "/kbench-%ld", (long)getpid());
		int r = libnfs.nfs_mkdir2(nfs, t->dir, 0777);
		if (r < 0) {
			fprintf(stderr, "%s: --nfs %s: cannot make %s in the export: %s\n", cmd,
				nfs_url(o), t->dir + 1, libnfs.nfs_get_error(nfs));
			status = KB_EXIT_USAGE;
		} else {
			t->made_dir = 1;
			snprintf(t->shown, sizeof(t->shown), "%s%s", t->export, t->dir);
		}
	}
	if (!status)
		status = kbnfs_claim_trees(nfs, t, nclients, cmd);
	/* the clients make their own connections: none is shared across fork */
	kbnfs_drop_context(nfs);
	if (status) {
		target_free(t);
		return status;
	}
	o->target = t;
	return 0;
}

static int noted(const struct nfs_target *t, const char *name)
{
	for (size_t i = 0; i < t->nnoted; i++)
		if (!strcmp(t->noted[i], name))
			return 1;
	return 0;
}

/* The client trees: each goes whole (an empty one that was there before
 * the run only loses its contents), unless a symbolic link now stands on
 * its way (named, left). */
static int remove_trees(struct nfs_context *nfs, const struct nfs_target *t,
			const struct rm_links *lk, char *buf)
{
	int first = 0;
	for (unsigned k = 0; k < t->trees.n; k++) {
		size_t n = (size_t)snprintf(buf, PATH_MAX, "%s/clients/client%u", t->dir, k), bad = 0;
		int r = kbnfs_nolink_path(nfs, buf, &bad);
		if (r == -ELOOP) {
			buf[bad] = '\0';
			r = link_left(lk, buf);
		} else if (r != -ENOENT) {
			r = kbnfs_rm_tree(nfs, buf, n, t->trees.kept[k], lk);
		}
		if (r < 0 && r != -ENOENT && !first)
			first = r;
		if (r == -EIO || r == -EINTR || r == -ETIMEDOUT)
			break;  /* the server is gone */
	}
	return first;
}

int nfs_cleanup(struct backend_opts *o, unsigned nclients, const char *cmd)
{
	struct nfs_target *t = o->target;
	char buf[PATH_MAX];
	(void)nclients;  /* the trees prepare() claimed */
	if (!t)
		return 0;
	t->cleaned = 1;
	struct nfs_context *nfs = mount_once(t->url, cmd);
	if (!nfs) {
		fprintf(stderr, "%s: the run's files are left in %s on %s\n", cmd,
			t->dir[0] ? t->dir + 1 : "the export's root", t->url);
		return -1;
	}
	struct rm_links lk = { cmd, t->export, 0 };
	size_t dl = strlen(t->dir), bad = 0;
	/* nothing is removed through a link on the way to DIR */
	int r = kbnfs_nolink_path(nfs, t->dir, &bad);
	if (r == -ELOOP) {
		memcpy(buf, t->dir, bad);
		buf[bad] = '\0';
		link_left(&lk, buf);
	}
	if (r >= 0)
		r = remove_trees(nfs, t, &lk, buf);
	memcpy(buf, t->dir, dl + 1);
	if (r >= 0 && t->made_dir) {
		r = kbnfs_rm_tree(nfs, buf, dl, 0, &lk);
	} else if (r >= 0) {
		/* -D: what was not there before */
		struct nfsdir *d;
		if ((r = libnfs.nfs_opendir(nfs, dl ? buf : "/", &d)) >= 0) {
			struct nfsdirent *de;
			while ((de = libnfs.nfs_readdir(nfs, d)) && (r >= 0 || r == -EEXIST)) {
				if (!strcmp(de->name, ".") || !strcmp(de->name, "..") || noted(t, de->name))
					continue;
				size_t n = (size_t)snprintf(buf, sizeof(buf), "%s/%s", t->dir, de->name);
				int e = n < sizeof(buf) ? kbnfs_rm_tree(nfs, buf, n, 0, &lk) : -ENAMETOOLONG;
				if (e < 0 && r >= 0)
					r = e;  /* the first failure; a link left does not stop the rest */
			}
			libnfs.nfs_closedir(nfs, d);
		}
	}
	if (r < 0)
		fprintf(stderr, "%s: cannot remove the run's files from %s on %s: %s\n", cmd,
			t->dir[0] ? t->dir + 1 : "the export's root", t->url,
			r == -EEXIST || r == -ELOOP ? "a symbolic link is on the way (above)" :
			libnfs.nfs_get_error(nfs));
	kbnfs_drop_context(nfs);
	return r < 0 ? -1 : 0;
}

void nfs_release(struct backend_opts *o)
{
	struct nfs_target *t = o->target;
	if (t && t->made_dir && !t->cleaned) {
		/* no run, or --skip-cleanup: a DIR the run never used goes (an
		 * RMDIR, which leaves one that holds anything) */
		struct nfs_url *u = NULL;
		struct nfs_context *nfs = kbnfs_open_context(t->url, "kbench load", &u);
		if (nfs && libnfs.nfs_mount(nfs, u->server, u->path) == 0)
			libnfs.nfs_rmdir(nfs, t->dir);
		if (u)
			libnfs.nfs_destroy_url(u);
		if (nfs)
			kbnfs_drop_context(nfs);
	}
	target_free(o->target);
	o->target = NULL;
}

const char *nfs_describe(const struct backend_opts *o)
{
	return nfs_url(o);
}

#endif /* HAVE_LIBNFS */
