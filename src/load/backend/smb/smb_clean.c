/* kbench - -B smb: what DIR held before the run, the client trees, and the
 * removal of a tree (Deltree and the cleanup, one walk)
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#ifdef HAVE_LIBSMBCLIENT

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/time.h>
#include <unistd.h>
#include "cli.h"
#include "load/backend/smb/smb_int.h"

/* -D: the names in DIR before the run, so that cleanup can name what
 * appeared there.  Returns 0, or an errno. */
int smb_note_dir(SMBCCTX *x, struct smb_target *t)
{
	errno = 0;
	SMBCFILE *d = libsmb.smbc_getFunctionOpendir(x)(x, t->root_url);
	if (!d)
		return errno ? errno : EIO;
	struct smbc_dirent *de;
	size_t cap = 0;
	int e = 0;
	while (!e && (de = libsmb.smbc_getFunctionReaddir(x)(x, d))) {
		if (!strcmp(de->name, ".") || !strcmp(de->name, ".."))
			continue;
		if (t->nnoted == cap) {
			size_t ncap = cap ? 2 * cap : 16;
			char **v = realloc(t->noted, ncap * sizeof(*v));
			if (!v) {
				e = ENOMEM;
				break;
			}
			t->noted = v;
			cap = ncap;
		}
		if (!(t->noted[t->nnoted] = strdup(de->name)))
			e = ENOMEM;
		else
			t->nnoted++;
	}
	libsmb.smbc_getFunctionClosedir(x)(x, d);
	return e;
}

/* After the run with -D: name what is in DIR now and was not before (the
 * loadfile's shared paths, or another writer): it stays. */
void smb_say_new_names(SMBCCTX *x, const struct smb_target *t, const char *cmd)
{
	errno = 0;
	SMBCFILE *d = libsmb.smbc_getFunctionOpendir(x)(x, t->root_url);
	if (!d)
		return;
	struct smbc_dirent *de;
	while ((de = libsmb.smbc_getFunctionReaddir(x)(x, d))) {
		if (!strcmp(de->name, ".") || !strcmp(de->name, ".."))
			continue;
		size_t i;
		for (i = 0; i < t->nnoted; i++)
			if (!strcmp(t->noted[i], de->name))
				break;
		if (i == t->nnoted)
			fprintf(stderr, "%s: -B smb: %s/%s was not there before the run and stays "
				"(shared paths are not cleaned up over SMB)\n", cmd, t->shown, de->name);
	}
	libsmb.smbc_getFunctionClosedir(x)(x, d);
}

/* FILE_ATTRIBUTE_DIRECTORY (MS-FSCC) */
#define SMB_ATTR_DIRECTORY 0x10

static int ts_before(const struct timespec *a, const struct timespec *b)
{
	return a->tv_sec < b->tv_sec || (a->tv_sec == b->tv_sec && a->tv_nsec < b->tv_nsec);
}

/* The creation time the server gives name in the directory at url (its
 * listing, no link of name followed), into *ts.  Returns 0 or an errno. */
static int btime_of(SMBCCTX *x, const char *url, const char *name, struct timespec *ts)
{
	errno = 0;
	SMBCFILE *d = libsmb.smbc_getFunctionOpendir(x)(x, url);
	if (!d)
		return errno ? errno : EIO;
	const struct libsmb_file_info *fi;
	int e = ENOENT;
	while (e && (fi = libsmb.smbc_getFunctionReaddirPlus(x)(x, d)))
		if (fi->name && !strcmp(fi->name, name)) {
			*ts = fi->btime_ts;
			e = 0;
		}
	libsmb.smbc_getFunctionClosedir(x)(x, d);
	return e;
}

/* Note when the run began on the server's clock: the creation time of the
 * first directory it made (DIR, DIR/clients or a client's tree). */
void smb_note_since(SMBCCTX *x, struct smb_target *t)
{
	char url[URL_MAX];
	const char *name = NULL;
	char tree[20];
	if (t->made_dir) {
		size_t n = (size_t)snprintf(url, sizeof(url), "smb://%s/", t->server);
		smb_url_append(url, &n, t->share);
		const char *slash = strrchr(t->dir, '/');
		if (slash) {
			url[n++] = '/';
			url[n] = '\0';
			smb_url_append(url, &n, t->dir);
			url[n - strlen(slash)] = '\0';
		}
		name = slash ? slash + 1 : t->dir;
	} else if (t->trees.made_clients) {
		snprintf(url, sizeof(url), "%s", t->root_url);
		name = "clients";
	} else {
		for (unsigned k = 0; k < t->trees.n && !name; k++)
			if (!t->trees.kept[k]) {
				trees_client_name(tree, k);
				name = tree;
			}
		size_t n = strlen(t->root_url);
		memcpy(url, t->root_url, n);
		if (n + 9 > sizeof(url))
			name = NULL;
		else
			memcpy(url + n, "/clients", 9);
	}
	if (name && btime_of(x, url, name, &t->since) != 0)
		memset(&t->since, 0, sizeof(t->since));
}

/* The client trees as trees.c sees them, over the protocol.  smbd
 * resolves symbolic links inside the share itself: kind() sees a link to
 * a directory as that directory, and only the rule (a tree that holds
 * anything is refused) protects what a link leads to. */
struct smb_tree_fs {
	SMBCCTX *x;
	const struct smb_target *t;
	char url[URL_MAX];
};

static const char *tree_url(struct smb_tree_fs *f, const char *rel)
{
	size_t n = (size_t)snprintf(f->url, sizeof(f->url), "%s/", f->t->root_url);
	if (n >= sizeof(f->url) || smb_url_append(f->url, &n, rel))
		f->url[0] = '\0';  /* too long: every call then fails */
	return f->url;
}

static int tfs_mkdir(void *arg, const char *rel)
{
	struct smb_tree_fs *f = arg;
	errno = 0;
	if (libsmb.smbc_getFunctionMkdir(f->x)(f->x, tree_url(f, rel), 0777) == 0)
		return 0;
	return errno ? errno : EIO;
}

static int tfs_kind(void *arg, const char *rel)
{
	struct smb_tree_fs *f = arg;
	struct stat st;
	errno = 0;
	if (libsmb.smbc_getFunctionStat(f->x)(f->x, tree_url(f, rel), &st) < 0)
		return errno == ENOENT ? TREE_MISSING : -(errno ? errno : EIO);
	return S_ISDIR(st.st_mode) ? TREE_DIR : TREE_OTHER;
}

static int tfs_empty(void *arg, const char *rel)
{
	struct smb_tree_fs *f = arg;
	errno = 0;
	SMBCFILE *d = libsmb.smbc_getFunctionOpendir(f->x)(f->x, tree_url(f, rel));
	if (!d)
		return -(errno ? errno : EIO);
	struct smbc_dirent *de;
	int empty = 1;
	while (empty && (de = libsmb.smbc_getFunctionReaddir(f->x)(f->x, d)))
		if (strcmp(de->name, ".") && strcmp(de->name, ".."))
			empty = 0;
	libsmb.smbc_getFunctionClosedir(f->x)(f->x, d);
	return empty;
}

static int tfs_rmdir(void *arg, const char *rel)
{
	struct smb_tree_fs *f = arg;
	errno = 0;
	if (libsmb.smbc_getFunctionRmdir(f->x)(f->x, tree_url(f, rel)) == 0)
		return 0;
	return errno ? errno : EIO;
}

int smb_claim_trees(SMBCCTX *x, struct smb_target *t, unsigned nclients, const char *cmd)
{
	struct smb_tree_fs *f = malloc(sizeof(*f));
	if (!f) {
		fprintf(stderr, "%s: out of memory\n", cmd);
		return KB_EXIT_USAGE;
	}
	f->x = x;
	f->t = t;
	struct tree_fs fs = { f, tfs_mkdir, tfs_kind, tfs_empty, tfs_rmdir };
	int status = trees_claim(&fs, nclients, t->shown, cmd, &t->trees);
	free(f);
	return status;
}

/* An entry of the directory smb_tree_rm walks: its name appended to url
 * (length len: restored by the caller), then entered, left or unlinked. */
static int rm_entry(SMBCCTX *x, const struct smb_target *t, char *url, size_t len,
		    const struct libsmb_file_info *fi, int *dead, const char *cmd)
{
	size_t n = len;
	url[n++] = '/';
	url[n] = '\0';
	int e = smb_url_append(url, &n, fi->name);
	if (e)
		return e;
	if (t && t->since.tv_sec && ts_before(&fi->btime_ts, &t->since)) {
		fprintf(stderr, "%s: -B smb: %s%s was made before the run began (a symbolic "
			"link on the server may lead there): left as it is\n", cmd, t->shown,
			url + strlen(t->root_url));
		return EEXIST;
	}
	if (fi->attrs & SMB_ATTR_DIRECTORY)
		return smb_tree_rm(x, t, url, n, 0, dead, cmd);
	errno = 0;
	if (libsmb.smbc_getFunctionUnlink(x)(x, url) < 0 && errno != ENOENT)
		return errno ? errno : EIO;
	return 0;
}

int smb_tree_rm(SMBCCTX *x, const struct smb_target *t, char *url, size_t len, int keep_top,
		int *dead, const char *cmd)
{
	errno = 0;
	SMBCFILE *d = libsmb.smbc_getFunctionOpendir(x)(x, url);
	if (!d) {
		int e = errno ? errno : EIO;
		if (e == ENOENT)
			return 0;
		if (e == ENOTDIR && !t) {  /* Deltree of a file */
			errno = 0;
			return libsmb.smbc_getFunctionUnlink(x)(x, url) < 0 ? (errno ? errno : EIO) : 0;
		}
		if (smb_lost(e))
			*dead = 1;
		return e;
	}
	int rc = 0;
	const struct libsmb_file_info *fi;
	/* the cleanup goes on past an error, Deltree stops at the first */
	while ((t || !rc) && !*dead && (fi = libsmb.smbc_getFunctionReaddirPlus(x)(x, d))) {
		if (!fi->name || !strcmp(fi->name, ".") || !strcmp(fi->name, ".."))
			continue;
		int e = rm_entry(x, t, url, len, fi, dead, cmd);
		url[len] = '\0';
		if (e && smb_lost(e))
			*dead = 1;
		if (e && !rc)
			rc = e;
	}
	libsmb.smbc_getFunctionClosedir(x)(x, d);
	if (rc || keep_top)
		return rc;
	errno = 0;
	if (libsmb.smbc_getFunctionRmdir(x)(x, url) < 0 && errno != ENOENT) {
		rc = errno ? errno : EIO;
		if (smb_lost(rc))
			*dead = 1;
	}
	return rc;
}

int smb_cleanup(struct backend_opts *o, unsigned nclients, const char *cmd)
{
	(void)nclients;  /* the trees prepare() claimed */
	struct smb_target *t = o->target;
	SMBCCTX *x = smb_new_context(t);
	if (!x) {
		fprintf(stderr, "%s: -B smb: cannot clean up %s: %s\n", cmd, t->shown, strerror(errno));
		return -1;
	}
	static char url[URL_MAX];
	int dead = 0, e = 0;
	if (t->made_dir) {
		snprintf(url, sizeof(url), "%s", t->root_url);
		e = smb_tree_rm(x, t, url, strlen(url), 0, &dead, cmd);
	} else {
		/* only the clients' trees (the contents of one that was there,
		 * empty), and clients/ if the run made it */
		for (unsigned k = 0; k < t->trees.n && !dead; k++) {
			int n = snprintf(url, sizeof(url), "%s/clients/client%u", t->root_url, k);
			int r = smb_tree_rm(x, t, url, (size_t)n, t->trees.kept[k], &dead, cmd);
			e = e ? e : r;
		}
		if (!e && t->trees.made_clients &&
		    (size_t)snprintf(url, sizeof(url), "%s/clients", t->root_url) < sizeof(url)) {
			errno = 0;
			if (libsmb.smbc_getFunctionRmdir(x)(x, url) < 0 && errno != ENOENT)
				e = errno ? errno : EIO;
		}
		if (!e && !dead)
			smb_say_new_names(x, t, cmd);
	}
	libsmb.smbc_free_context(x, 1);
	if (e) {
		fprintf(stderr, "%s: -B smb: could not remove everything the run made in %s: %s\n",
			cmd, t->shown, strerror(e));
		return -1;
	}
	return 0;
}

#endif /* HAVE_LIBSMBCLIENT */
