/* kbench - after a load run: remove what the run made, keep what was there
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The run owns DIR/clients/clientK for every client K: those trees go.
 * Everything else in DIR is compared with a note taken before the run:
 * its top-level names, and the whole contents of each directory that was
 * already there and that the loadfile's shared paths reach into (a shared
 * path can create files inside it).  Whatever the note does not list was
 * made by the run and is removed; whatever it lists stays.
 */
#include "config.h"
#include "load/cleanup.h"
#include "load/fsutil.h"

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

struct cleanup_plan {
	char **noted;          /* relative paths present before, sorted */
	size_t nnoted, cap;
	char **deep;           /* top-level directories noted in full */
	size_t ndeep;
	unsigned nclients;
	int inexact;           /* a tree was too big to note in full */
	struct fs_mount_note mounts;  /* told of mount points left alone */
	const char *dirname;   /* DIR as given, for those lines */
	unsigned nmounts;
};

/* A mount point under DIR: never entered, never removed; said once. */
static void mount_met(void *arg, const char *path)
{
	struct cleanup_plan *p = arg;
	p->nmounts++;
	fprintf(stderr, "kbench load: %s/%s is a mount point: left alone with all it holds\n",
		p->dirname ? p->dirname : ".", path);
}

static int add(char ***v, size_t *n, size_t *cap, const char *s)
{
	if (*n == *cap) {
		size_t ncap = *cap ? *cap * 2 : 64;
		char **nv = realloc(*v, ncap * sizeof(*nv));
		if (!nv)
			return -1;
		*v = nv;
		*cap = ncap;
	}
	char *d = strdup(s);
	if (!d)
		return -1;
	(*v)[(*n)++] = d;
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int noted(const struct cleanup_plan *p, const char *path)
{
	return p->nnoted && bsearch(&path, p->noted, p->nnoted, sizeof(char *), cmp_str) != NULL;
}

/* Is rel (below "clients") one of this run's client trees? */
static int client_tree(const struct cleanup_plan *p, const char *rel)
{
	unsigned k;
	char tail;
	return sscanf(rel, "clients/client%u%c", &k, &tail) == 1 && k < p->nclients;
}

/* Call fn for every entry below the directory top (relative to rootfd),
 * breadth first, never following links or entering other mounts. */
typedef int (*visit_fn)(struct cleanup_plan *p, int dfd, const char *rel, const char *name,
			const struct stat *st);

static int walk(struct cleanup_plan *p, int rootfd, const char *top, visit_fn fn)
{
	char **todo = NULL;
	size_t ntodo = 0, cap = 0;
	int rc = 0;
	struct stat topst;
	int mnt;
	if (fs_stat_entry(rootfd, top, &topst, &mnt) < 0 || !S_ISDIR(topst.st_mode))
		return 0;
	if (mnt) {
		if (p->mounts.fn)
			p->mounts.fn(p->mounts.arg, top);
		return p->mounts.fn ? -1 : 0;  /* another mount is never entered */
	}
	if (add(&todo, &ntodo, &cap, top) < 0)
		return -1;
	while (ntodo) {
		char *rel = todo[--ntodo];
		int dfd = fs_open_beneath(rootfd, rel, O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0);
		if (dfd < 0 && errno == EXDEV && p->mounts.fn) {
			p->mounts.fn(p->mounts.arg, rel);  /* a mount point: never entered */
			rc = -1;
		}
		DIR *d = dfd >= 0 ? fdopendir(dfd) : NULL;
		if (!d) {
			if (dfd >= 0)
				close(dfd);
			free(rel);
			continue;
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
			int r = fn(p, dirfd(d), child, de->d_name, &st);
			if (r < 0)
				rc = -1;
			if (r == 1 && S_ISDIR(st.st_mode) && !mnt && add(&todo, &ntodo, &cap, child) < 0)
				rc = -1;
		}
		closedir(d);
		free(rel);
	}
	for (size_t i = 0; i < ntodo; i++)
		free(todo[i]);
	free(todo);
	return rc;
}

/* before: note every entry (1 = descend) */
static int note(struct cleanup_plan *p, int dfd, const char *rel, const char *name,
		const struct stat *st)
{
	(void)dfd;
	(void)name;
	(void)st;
	if (client_tree(p, rel))
		return 0;  /* the run's own: removed whole, not compared */
	if (p->nnoted >= MAX_NOTED) {
		p->inexact = 1;
		return 0;
	}
	return add(&p->noted, &p->nnoted, &p->cap, rel) < 0 ? -1 : 1;
}

/* after: remove what is not noted (1 = descend into what is) */
static int sweep(struct cleanup_plan *p, int dfd, const char *rel, const char *name,
		 const struct stat *st)
{
	(void)st;
	if (client_tree(p, rel))
		return 0;
	if (noted(p, rel))
		return 1;
	return fs_remove_tree(dfd, name, 0, &p->mounts) ? -1 : 0;
}

/* First components of the program's shared paths. */
struct tops {
	const struct program *prog;
	char **v;
	size_t n, cap;
};

static int add_tops(void *arg, const struct op *op)
{
	struct tops *t = arg;
	uint32_t paths[2] = { (op->flags & OPF_SHARED1) ? op->path1 : NO_PATH,
			      (op->flags & OPF_SHARED2) ? op->path2 : NO_PATH };
	for (int j = 0; j < 2; j++) {
		char top[NAME_MAX + 1];
		if (paths[j] == NO_PATH)
			continue;
		const char *s = prog_path(t->prog, paths[j]);
		size_t len = strcspn(s, "/");
		if (len > NAME_MAX || !strcmp(s, "."))
			continue;
		memcpy(top, s, len);
		top[len] = '\0';
		size_t i;
		for (i = 0; i < t->n && strcmp(t->v[i], top); i++)
			;
		if (i == t->n && add(&t->v, &t->n, &t->cap, top) < 0)
			return -1;
	}
	return 0;
}

static int shared_tops(const struct program *prog, char ***tops, size_t *ntops, size_t *capp)
{
	struct tops t = { prog, *tops, *ntops, *capp };
	int rc = prog_for_each(prog, add_tops, &t);
	*tops = t.v;
	*ntops = t.n;
	*capp = t.cap;
	return rc;
}

struct cleanup_plan *cleanup_plan(int rootfd, const struct program *prog, unsigned nclients)
{
	struct cleanup_plan *p = calloc(1, sizeof(*p));
	char **tops = NULL;
	size_t ntops = 0, capd = 0;
	if (!p)
		return NULL;
	p->nclients = nclients;
	int fd = openat(rootfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);  /* own offset */
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	if (!d) {
		if (fd >= 0)
			close(fd);
		free(p);
		return NULL;
	}
	struct dirent *de;
	while ((de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
			add(&p->noted, &p->nnoted, &p->cap, de->d_name);
	closedir(d);

	/* directories that were there and that shared paths reach into */
	if (shared_tops(prog, &tops, &ntops, &capd) == 0) {
		int has_clients = 0;
		for (size_t i = 0; i < ntops; i++)
			has_clients |= !strcmp(tops[i], "clients");
		if (!has_clients)
			add(&tops, &ntops, &capd, "clients");  /* it may hold foreign trees */
		for (size_t i = 0; i < ntops; i++) {
			struct stat st;
			if (fstatat(rootfd, tops[i], &st, AT_SYMLINK_NOFOLLOW) == 0 &&
			    S_ISDIR(st.st_mode)) {
				walk(p, rootfd, tops[i], note);
				p->deep = realloc(p->deep, (p->ndeep + 1) * sizeof(char *));
				if (p->deep)
					p->deep[p->ndeep++] = tops[i];
				else
					free(tops[i]);
			} else {
				free(tops[i]);
			}
		}
	}
	free(tops);
	if (p->nnoted)
		qsort(p->noted, p->nnoted, sizeof(char *), cmp_str);
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

int cleanup_run(struct cleanup_plan *p, int rootfd, const char *dirname)
{
	int failed = 0;
	char name[32];
	p->dirname = dirname;
	p->mounts = (struct fs_mount_note){ mount_met, p };
	struct fs_mount_note in_clients = { client_mount_met, p };
	int clients = fs_open_beneath(rootfd, "clients", O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0);
	if (clients < 0 && errno == EXDEV) {
		mount_met(p, "clients");
		failed = 1;
	}
	if (clients >= 0) {
		for (unsigned c = 0; c < p->nclients; c++) {
			snprintf(name, sizeof(name), "client%u", c);
			if (fs_remove_tree(clients, name, 0, &in_clients))
				failed = 1;
		}
		close(clients);
	}
	/* inside the directories that were there: what is new goes */
	for (size_t i = 0; i < p->ndeep; i++)
		if (walk(p, rootfd, p->deep[i], sweep) < 0)
			failed = 1;
	/* at the top: what is new goes */
	int fd = openat(rootfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);  /* own offset */
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	if (!d) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	struct dirent *de;
	while ((de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (!noted(p, de->d_name) && fs_remove_tree(rootfd, de->d_name, 0, &p->mounts))
			failed = 1;
	}
	closedir(d);
	return failed ? -1 : 0;
}

void cleanup_free(struct cleanup_plan *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->nnoted; i++)
		free(p->noted[i]);
	for (size_t i = 0; i < p->ndeep; i++)
		free(p->deep[i]);
	free(p->noted);
	free(p->deep);
	free(p);
}
