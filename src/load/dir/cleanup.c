/* kbench - after a load run: remove what the run made, keep what was there
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The run owns DIR/clients/clientK for every client K, which it makes
 * itself before any client starts (cleanup_claim(), trees.c: a tree that
 * was there and holds anything refuses the run): those trees go, but for
 * an empty one that was there, which only loses what the run put in it.
 * Everything else in DIR is compared with a note taken before the run:
 * its top-level names, and the whole contents of each directory that was
 * already there and that the loadfile's shared paths reach into (a shared
 * path can create files inside it).  An entry the note does not list is
 * removed only if the run could have made it: its path is one the
 * program's shared ops create (NTCreateX that creates, Mkdir, the target
 * of a Rename), or DIR/clients; a directory it made loses what the run
 * made in it and goes when nothing else is left, and a Rename's target
 * goes whole (what is in it came with it).  So a file another
 * process puts in DIR while the run goes, under a name the loadfile does
 * not create, is not the run's and stays.
 *
 * Invariants: nothing the note lists is removed; a path that was a mount
 * point when the note was taken is never entered, even if it is no longer
 * one (what its mount hid was there before the run); when a tree holds
 * more than the note can take (MAX_NOTED entries), nothing inside the
 * noted directories is removed (what the run made there may be left, what
 * was there always stays).
 */
#include "config.h"
#include "load/loadfile/progread.h"
#include "load/dir/cleanup.h"
#include "load/backend/trees.h"
#include "sys/fsutil.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_NOTED 200000   /* entries noted before a tree is left inexact */

struct strset {            /* relative paths, sorted once filled */
	char **v;
	size_t n, cap;
};

struct cleanup_plan {
	struct strset noted;   /* present before */
	struct strset opaque;  /* mount points before: never entered */
	struct strset made;    /* what the program's shared ops can create */
	struct strset moved;   /* of those, Rename targets: the run's whole */
	struct strset named;   /* mount points already named */
	struct strset deep;    /* top-level directories noted in full */
	unsigned nclients;
	int inexact;           /* a tree was too big to note in full */
	struct tree_claim trees;  /* the client trees the run made or found empty */
	struct fs_mount_note mounts;  /* told of mount points left alone */
	const char *dirname;   /* DIR as given, for those lines */
	int rootfd;            /* DIR, while cleaning */
};

static int add(struct strset *s, const char *str)
{
	if (s->n == s->cap) {
		size_t ncap = s->cap ? s->cap * 2 : 64;
		char **nv = realloc(s->v, ncap * sizeof(*nv));
		if (!nv)
			return -1;
		s->v = nv;
		s->cap = ncap;
	}
	char *d = strdup(str);
	if (!d)
		return -1;
	s->v[s->n++] = d;
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void sort(struct strset *s)
{
	if (s->n)
		qsort(s->v, s->n, sizeof(char *), cmp_str);
}

static int has(const struct strset *s, const char *path)
{
	return s->n && bsearch(&path, s->v, s->n, sizeof(char *), cmp_str) != NULL;
}

/* Does a path of s lie below dir (dir + "/...")?  s is sorted. */
static int has_below(const struct strset *s, const char *dir)
{
	size_t len = strlen(dir), lo = 0, hi = s->n;
	while (lo < hi) {  /* the first entry not before dir + "/" */
		size_t mid = (lo + hi) / 2;
		int c = strncmp(s->v[mid], dir, len);
		if (c < 0 || (c == 0 && (unsigned char)s->v[mid][len] < '/'))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < s->n && !strncmp(s->v[lo], dir, len) && s->v[lo][len] == '/';
}

static void free_set(struct strset *s)
{
	for (size_t i = 0; i < s->n; i++)
		free(s->v[i]);
	free(s->v);
}

/* A mount point under DIR: never entered, never removed; said once. */
static void mount_met(void *arg, const char *path)
{
	struct cleanup_plan *p = arg;
	for (size_t i = 0; i < p->named.n; i++)
		if (!strcmp(p->named.v[i], path))
			return;
	add(&p->named, path);
	fprintf(stderr, "kbench load: %s/%s is a mount point: left alone with all it holds\n",
		p->dirname ? p->dirname : ".", path);
}

/* Is rel exactly one of this run's client trees, clients/clientK with K
 * written as the run writes it (no sign, no leading zero) below nclients? */
static int client_tree(const struct cleanup_plan *p, const char *rel)
{
	static const char pre[] = "clients/client";
	if (strncmp(rel, pre, sizeof(pre) - 1))
		return 0;
	const char *d = rel + sizeof(pre) - 1;
	size_t n = strspn(d, "0123456789");
	if (n == 0 || d[n] || (n > 1 && d[0] == '0') || n > 9)
		return 0;
	return strtoul(d, NULL, 10) < p->nclients;
}

/* Call fn for every entry below the directory top (relative to rootfd),
 * breadth first, never following links or entering other mounts; mnt
 * says the entry is a mount point.  fn returns 1 to go into a directory,
 * 0 not to, -1 for a failure (the walk goes on). */
typedef int (*visit_fn)(struct cleanup_plan *p, int dfd, const char *rel, const char *name,
			const struct stat *st, int mnt);

static int walk_dir(struct cleanup_plan *p, int rootfd, const char *rel, visit_fn fn,
		    struct strset *todo)
{
	int rc = 0, mnt;
	int dfd = fs_open_beneath(rootfd, rel, O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0);
	if (dfd < 0 && errno == EXDEV && p->mounts.fn) {
		p->mounts.fn(p->mounts.arg, rel);  /* mounted since: never entered */
		return -1;
	}
	DIR *d = dfd >= 0 ? fdopendir(dfd) : NULL;
	if (!d) {
		if (dfd >= 0)
			close(dfd);
		return 0;
	}
	struct dirent *de;
	while ((de = readdir(d))) {
		struct stat st;
		char child[PATH_MAX];
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (fs_stat_entry(dirfd(d), de->d_name, &st, &mnt) < 0)
			continue;
		if ((size_t)snprintf(child, sizeof(child), "%s/%s", rel, de->d_name) >= sizeof(child))
			continue;  /* beyond any loadfile path */
		int r = fn(p, dirfd(d), child, de->d_name, &st, mnt);
		if (r < 0)
			rc = -1;
		if (r == 1 && S_ISDIR(st.st_mode) && !mnt && add(todo, child) < 0)
			rc = -1;
	}
	closedir(d);
	return rc;
}

static int walk(struct cleanup_plan *p, int rootfd, const char *top, visit_fn fn)
{
	struct strset todo = { 0 };
	struct stat topst;
	int rc = 0, mnt;
	if (fs_stat_entry(rootfd, top, &topst, &mnt) < 0 || !S_ISDIR(topst.st_mode))
		return 0;
	/* opaque is sorted, and asked, only once the note is taken */
	if (mnt || (p->mounts.fn && has(&p->opaque, top))) {
		if (p->mounts.fn)
			p->mounts.fn(p->mounts.arg, top);
		return p->mounts.fn ? -1 : 0;  /* another mount is never entered */
	}
	if (add(&todo, top) < 0)
		return -1;
	while (todo.n) {
		char *rel = todo.v[--todo.n];
		if (walk_dir(p, rootfd, rel, fn, &todo) < 0)
			rc = -1;
		free(rel);
	}
	free_set(&todo);
	return rc;
}

/* before: note every entry (1 = descend); a mount point is noted, not
 * entered, and stays opaque */
static int note(struct cleanup_plan *p, int dfd, const char *rel, const char *name,
		const struct stat *st, int mnt)
{
	(void)dfd;
	(void)name;
	(void)st;
	if (client_tree(p, rel))
		return 0;  /* the run's own: removed whole, not compared */
	if (p->noted.n >= MAX_NOTED) {
		p->inexact = 1;
		return 0;
	}
	if (add(&p->noted, rel) < 0 || (mnt && add(&p->opaque, rel) < 0))
		return -1;
	return mnt ? 0 : 1;
}

static int sweep(struct cleanup_plan *p, int dfd, const char *rel, const char *name,
		 const struct stat *st, int mnt);

/* A path the run made: a file goes; a directory loses what the run made
 * in it, then goes if nothing else is left (another process may have put
 * something there meanwhile: that stays, and so does the directory). */
static int remove_made(struct cleanup_plan *p, int dfd, const char *rel, const char *name,
		       const struct stat *st)
{
	if (!S_ISDIR(st->st_mode))
		return unlinkat(dfd, name, 0) < 0 && errno != ENOENT ? -1 : 0;
	if (has(&p->moved, rel))  /* what a Rename put there came with it */
		return fs_remove_tree(dfd, name, 0, &p->mounts) ? -1 : 0;
	int rc = walk(p, p->rootfd, rel, sweep);
	if (unlinkat(dfd, name, AT_REMOVEDIR) < 0 && errno != ENOENT && errno != ENOTEMPTY &&
	    errno != EEXIST)
		rc = -1;
	return rc;
}

/* after: remove what is not noted and the run could have made; go into
 * what is noted, and into new directories the run's paths lie below */
static int sweep(struct cleanup_plan *p, int dfd, const char *rel, const char *name,
		 const struct stat *st, int mnt)
{
	if (client_tree(p, rel))
		return 0;
	if (mnt || has(&p->opaque, rel)) {
		mount_met(p, rel);
		return -1;
	}
	if (has(&p->noted, rel))
		return 1;
	if (has(&p->made, rel))
		return remove_made(p, dfd, rel, name, st);
	return S_ISDIR(st->st_mode) && has_below(&p->made, rel);
}

/* What the program reads: the first components of its shared paths (the
 * directories to note in full) and the shared paths it can create. */
struct scan {
	const struct program *prog;
	struct strset *tops, *made, *moved;
};

static int add_top(struct strset *tops, const char *s)
{
	char top[NAME_MAX + 1];
	size_t len = strcspn(s, "/");
	if (len > NAME_MAX || !strcmp(s, "."))
		return 0;
	memcpy(top, s, len);
	top[len] = '\0';
	for (size_t i = 0; i < tops->n; i++)
		if (!strcmp(tops->v[i], top))
			return 0;
	return add(tops, top);
}

static int scan_op(void *arg, const struct op *op)
{
	struct scan *sc = arg;
	const char *p1 = (op->flags & OPF_SHARED1) ? prog_path(sc->prog, op->path1) : NULL;
	const char *p2 = (op->flags & OPF_SHARED2) ? prog_path(sc->prog, op->path2) : NULL;
	if ((p1 && add_top(sc->tops, p1) < 0) || (p2 && add_top(sc->tops, p2) < 0))
		return -1;
	int creates = (op->code == OP_NTCREATEX &&
		       (op->open & OPEN_CREAT)) || op->code == OP_MKDIR;
	if (creates && p1 && strcmp(p1, ".") && add(sc->made, p1) < 0)
		return -1;
	if (op->code == OP_RENAME && p2 && strcmp(p2, ".") &&
	    (add(sc->made, p2) < 0 || add(sc->moved, p2) < 0))
		return -1;
	return 0;
}

/* DIR's top level as a stream of its own (its own offset, not rootfd's). */
static DIR *open_top(int rootfd)
{
	int fd = openat(rootfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	if (!d && fd >= 0)
		close(fd);
	return d;
}

/* Note DIR's top level; a mount point there is opaque. */
static int note_top(struct cleanup_plan *p, int rootfd)
{
	DIR *d = open_top(rootfd);
	if (!d)
		return -1;
	struct dirent *de;
	while ((de = readdir(d))) {
		struct stat st;
		int mnt = 0;
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		add(&p->noted, de->d_name);
		if (fs_stat_entry(rootfd, de->d_name, &st, &mnt) == 0 && mnt)
			add(&p->opaque, de->d_name);
	}
	closedir(d);
	return 0;
}

struct cleanup_plan *cleanup_plan(int rootfd, const struct program *prog, unsigned nclients)
{
	struct cleanup_plan *p = calloc(1, sizeof(*p));
	struct strset tops = { 0 };
	if (!p)
		return NULL;
	p->nclients = nclients;
	if (note_top(p, rootfd) < 0) {
		cleanup_free(p);
		return NULL;
	}
	add(&p->made, "clients");  /* each client makes it if it is missing */
	struct scan sc = { prog, &tops, &p->made, &p->moved };
	if (prog_for_each(prog, scan_op, &sc) < 0)
		p->inexact = 1;  /* unread: sweep nothing inside */
	sort(&p->made);
	sort(&p->moved);
	sort(&p->opaque);
	/* directories that were there and that shared paths reach into, and
	 * DIR/clients, which may hold foreign trees */
	add_top(&tops, "clients");
	for (size_t i = 0; i < tops.n; i++) {
		struct stat st;
		if (fstatat(rootfd, tops.v[i], &st, AT_SYMLINK_NOFOLLOW) == 0 &&
		    S_ISDIR(st.st_mode)) {
			walk(p, rootfd, tops.v[i], note);  /* not into a mount */
			add(&p->deep, tops.v[i]);
		}
	}
	free_set(&tops);
	sort(&p->noted);
	sort(&p->opaque);
	return p;
}

int cleanup_inexact(const struct cleanup_plan *p)
{
	return p->inexact;
}

/* Mount points in the client trees, named by their path from DIR. */
static void client_mount_met(void *arg, const char *path)
{
	char full[PATH_MAX + 16];
	snprintf(full, sizeof(full), "clients/%s", path);
	mount_met(arg, full);
}

static int remove_client_trees(struct cleanup_plan *p, int rootfd)
{
	int failed = 0;
	char name[32];
	struct fs_mount_note in_clients = { client_mount_met, p };
	int clients = fs_open_beneath(rootfd, "clients", O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0);
	if (clients < 0 && errno == EXDEV) {
		mount_met(p, "clients");
		return -1;
	}
	if (clients < 0)
		return 0;
	for (unsigned c = 0; c < p->nclients; c++) {
		trees_client_name(name, c);
		/* one that was there (empty) stays, and loses what the run made */
		int kept = c < p->trees.n && p->trees.kept[c];
		if (fs_remove_tree(clients, name, kept, &in_clients))
			failed = 1;
	}
	close(clients);
	return failed ? -1 : 0;
}

/* At the top of DIR: what is new and the run's goes. */
static int sweep_top(struct cleanup_plan *p, int rootfd)
{
	int failed = 0;
	DIR *d = open_top(rootfd);
	if (!d)
		return -1;
	struct dirent *de;
	while ((de = readdir(d))) {
		struct stat st;
		int mnt = 0;
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, "..") ||
		    has(&p->noted, de->d_name))
			continue;
		if (fs_stat_entry(rootfd, de->d_name, &st, &mnt) < 0)
			continue;
		if (mnt) {
			mount_met(p, de->d_name);
			failed = 1;
		} else if (has(&p->made, de->d_name)) {
			if (remove_made(p, rootfd, de->d_name, de->d_name, &st) < 0)
				failed = 1;
		} else if (S_ISDIR(st.st_mode) && has_below(&p->made, de->d_name) && !p->inexact) {
			if (walk(p, rootfd, de->d_name, sweep) < 0)
				failed = 1;
		}
	}
	closedir(d);
	return failed ? -1 : 0;
}

/* DIR as struct tree_fs sees it: every path opened beneath rootfd, no
 * symbolic link followed, no mount crossed. */
static int local_mkdir(void *arg, const char *rel)
{
	const char *leaf;
	int owned, rootfd = *(int *)arg;
	int pfd = fs_parent_beneath(rootfd, rel, &leaf, &owned);
	if (pfd < 0)
		return errno;
	int e = mkdirat(pfd, leaf, 0777) < 0 ? errno : 0;
	if (owned)
		close(pfd);
	return e;
}

static int local_kind(void *arg, const char *rel)
{
	const char *leaf;
	int owned, mnt = 0, rootfd = *(int *)arg;
	struct stat st;
	int pfd = fs_parent_beneath(rootfd, rel, &leaf, &owned);
	if (pfd < 0)
		return errno == ELOOP ? TREE_LINK : errno == EXDEV ? TREE_MOUNT : -errno;
	int r = fs_stat_entry(pfd, leaf, &st, &mnt), e = errno;
	if (owned)
		close(pfd);
	if (r < 0)
		return e == ENOENT ? TREE_MISSING : -e;
	return S_ISLNK(st.st_mode) ? TREE_LINK : mnt ? TREE_MOUNT :
	       S_ISDIR(st.st_mode) ? TREE_DIR : TREE_OTHER;
}

static int local_empty(void *arg, const char *rel)
{
	int fd = fs_open_beneath(*(int *)arg, rel, O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	if (!d) {
		int e = errno;
		if (fd >= 0)
			close(fd);
		return -e;
	}
	struct dirent *de;
	int empty = 1;
	while (empty && (de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
			empty = 0;
	closedir(d);
	return empty;
}

static int local_rmdir(void *arg, const char *rel)
{
	const char *leaf;
	int owned, rootfd = *(int *)arg;
	int pfd = fs_parent_beneath(rootfd, rel, &leaf, &owned);
	if (pfd < 0)
		return errno;
	int e = unlinkat(pfd, leaf, AT_REMOVEDIR) < 0 ? errno : 0;
	if (owned)
		close(pfd);
	return e;
}

int cleanup_claim(struct cleanup_plan *p, int rootfd, const char *dirname, const char *cmd)
{
	struct tree_fs fs = { &rootfd, local_mkdir, local_kind, local_empty, local_rmdir };
	return trees_claim(&fs, p->nclients, dirname, cmd, &p->trees);
}

int cleanup_run(struct cleanup_plan *p, int rootfd, const char *dirname)
{
	int failed = 0;
	p->dirname = dirname;
	p->rootfd = rootfd;
	p->mounts = (struct fs_mount_note){ mount_met, p };
	if (remove_client_trees(p, rootfd) < 0)
		failed = 1;
	/* inside the directories that were there: what is new and the run's
	 * goes; nothing when the note could not take them in full */
	for (size_t i = 0; i < p->deep.n && !p->inexact; i++)
		if (walk(p, rootfd, p->deep.v[i], sweep) < 0)
			failed = 1;
	if (sweep_top(p, rootfd) < 0)
		failed = 1;
	return failed ? -1 : 0;
}

void cleanup_free(struct cleanup_plan *p)
{
	if (!p)
		return;
	free_set(&p->noted);
	free_set(&p->opaque);
	free_set(&p->made);
	free_set(&p->moved);
	free_set(&p->named);
	free_set(&p->deep);
	trees_free(&p->trees);
	free(p);
}
