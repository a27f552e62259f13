/* kbench - kbench record's model of the traced programs: the tables
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Names live in one open-addressing hash keyed by their absolute path;
 * processes in an array searched by pid (a build runs thousands, looked
 * up once per line: a linear search would be quadratic, so they are kept
 * in a hash too).  Running out of memory while recording ends kbench
 * with a message: a partial loadfile would be worse than none.
 */
#include "config.h"
#include "record/trace.h"
#include "cli.h"

#include <stdlib.h>
#include <string.h>

const char *const rec_op_name[R_NOPS] = {
	"NTCreateX", "Close", "Rename", "Unlink", "Rmdir", "Mkdir",
	"QUERY_PATH_INFORMATION", "QUERY_FILE_INFORMATION", "QUERY_FS_INFORMATION",
	"SET_FILE_INFORMATION",
	"FIND_FIRST", "WriteX", "ReadX", "LockX", "UnlockX", "Flush",
};

void *rec_must(void *p)
{
	if (!p) {
		fprintf(stderr, "kbench record: out of memory\n");
		exit(KB_EXIT_FAIL);
	}
	return p;
}

static uint64_t hash_str(const char *s)
{
	uint64_t h = 1469598103934665603ull;  /* FNV-1a */
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return h;
}

static void names_grow(struct rec *r)
{
	size_t cap = r->cap ? r->cap * 2 : 1024;
	struct name **n = rec_must(calloc(cap, sizeof(*n)));
	for (size_t i = 0; i < r->cap; i++) {
		if (!r->names[i])
			continue;
		size_t j = hash_str(r->names[i]->path) & (cap - 1);
		while (n[j])
			j = (j + 1) & (cap - 1);
		n[j] = r->names[i];
	}
	free(r->names);
	r->names = n;
	r->cap = cap;
}

struct name *rec_name(struct rec *r, const char *path)
{
	if ((r->nnames + 1) * 2 > r->cap)
		names_grow(r);
	size_t j = hash_str(path) & (r->cap - 1);
	while (r->names[j] && strcmp(r->names[j]->path, path))
		j = (j + 1) & (r->cap - 1);
	if (!r->names[j]) {
		struct name *n = rec_must(calloc(1, sizeof(*n)));
		n->path = rec_must(strdup(path));
		r->names[j] = n;
		r->nnames++;
	}
	return r->names[j];
}

struct inode *rec_inode(struct rec *r)
{
	if (r->ninodes == r->inocap) {
		r->inocap = r->inocap ? r->inocap * 2 : 256;
		r->inodes = rec_must(realloc(r->inodes, r->inocap * sizeof(*r->inodes)));
	}
	struct inode *i = rec_must(calloc(1, sizeof(*i)));
	r->inodes[r->ninodes++] = i;
	return i;
}

void rec_inode_read(struct inode *ino, uint64_t off, uint64_t n)
{
	if (!n)
		return;
	if (off + n > ino->read_end)
		ino->read_end = off + n;
	if (ino->nrd && ino->rd[ino->nrd - 1].b == off) {
		ino->rd[ino->nrd - 1].b = off + n;  /* a sequential read: one range */
		return;
	}
	if (ino->nrd == ino->caprd) {
		ino->caprd = ino->caprd ? ino->caprd * 2 : 4;
		ino->rd = rec_must(realloc(ino->rd, ino->caprd * sizeof(*ino->rd)));
	}
	ino->rd[ino->nrd++] = (struct range){ off, off + n };
}

static int by_start(const void *x, const void *y)
{
	const struct range *a = x, *b = y;
	return a->a < b->a ? -1 : a->a > b->a;
}

size_t rec_inode_ranges(struct inode *ino)
{
	if (!ino->nrd)
		return 0;
	qsort(ino->rd, ino->nrd, sizeof(*ino->rd), by_start);
	size_t k = 0;
	for (size_t i = 1; i < ino->nrd; i++) {
		if (ino->rd[i].a <= ino->rd[k].b) {
			if (ino->rd[i].b > ino->rd[k].b)
				ino->rd[k].b = ino->rd[i].b;
		} else {
			ino->rd[++k] = ino->rd[i];
		}
	}
	return ino->nrd = k + 1;
}

/* processes: an open-addressing hash of pid -> proc, rebuilt on growth;
 * a proc never moves, so a pointer to one stays good */
struct proc *rec_proc(struct rec *r, long pid)
{
	if ((r->nprocs + 1) * 2 > r->proccap) {
		size_t cap = r->proccap ? r->proccap * 2 : 256;
		struct proc **p = rec_must(calloc(cap, sizeof(*p)));
		for (size_t i = 0; i < r->proccap; i++) {
			if (!r->procs[i])
				continue;
			size_t j = (size_t)r->procs[i]->pid & (cap - 1);
			while (p[j])
				j = (j + 1) & (cap - 1);
			p[j] = r->procs[i];
		}
		free(r->procs);
		r->procs = p;
		r->proccap = cap;
	}
	long key = pid ? pid : -1;  /* a log without pids: one process, -1 */
	size_t j = (size_t)key & (r->proccap - 1);
	while (r->procs[j] && r->procs[j]->pid != key)
		j = (j + 1) & (r->proccap - 1);
	if (!r->procs[j]) {
		r->procs[j] = rec_must(calloc(1, sizeof(struct proc)));
		r->procs[j]->pid = key;
		r->nprocs++;
	}
	return r->procs[j];
}

int rec_under(const struct rec *r, const char *path)
{
	if (strncmp(path, r->dir, r->dirlen))
		return 0;
	return path[r->dirlen] == '\0' || path[r->dirlen] == '/' || r->dirlen == 1;
}

int rec_loadpath(const struct rec *r, const char *path, char *out, size_t outsz)
{
	const char *rest = path + (r->dirlen == 1 ? 0 : r->dirlen);
	size_t k = (size_t)snprintf(out, outsz, "\\clients\\client1");
	for (; *rest; rest++) {
		/* '"' would end the token, '\\' split the name, a line break end the line */
		if (*rest == '"' || *rest == '\\' || *rest == '\n' || *rest == '\r' || k + 2 >= outsz)
			return -1;
		out[k++] = *rest == '/' ? '\\' : *rest;
	}
	out[k] = '\0';
	return 0;
}

struct fdtab *fdtab_new(void)
{
	struct fdtab *t = rec_must(calloc(1, sizeof(*t)));
	t->refs = 1;
	return t;
}

static void fdtab_fit(struct fdtab *t, int fd)
{
	if (fd < t->n)
		return;
	int n = t->n ? t->n : 16;
	while (n <= fd)
		n *= 2;
	t->fd = rec_must(realloc(t->fd, (size_t)n * sizeof(*t->fd)));
	t->cloexec = rec_must(realloc(t->cloexec, (size_t)n));
	memset(t->fd + t->n, 0, (size_t)(n - t->n) * sizeof(*t->fd));
	memset(t->cloexec + t->n, 0, (size_t)(n - t->n));
	t->n = n;
}

struct fdtab *fdtab_copy(const struct fdtab *t)
{
	struct fdtab *c = fdtab_new();
	if (!t || !t->n)
		return c;
	fdtab_fit(c, t->n - 1);
	for (int i = 0; i < t->n; i++) {
		c->fd[i] = t->fd[i];
		c->cloexec[i] = t->cloexec[i];
		if (c->fd[i])
			c->fd[i]->refs++;
	}
	return c;
}

struct ofd *fdtab_get(const struct fdtab *t, int fd)
{
	return fd >= 0 && fd < t->n ? t->fd[fd] : NULL;
}

struct ofd *fdtab_drop(struct fdtab *t, int fd)
{
	struct ofd *o = fdtab_get(t, fd);
	if (!o)
		return NULL;
	t->fd[fd] = NULL;
	return --o->refs == 0 ? o : NULL;
}

struct ofd *fdtab_set(struct fdtab *t, int fd, struct ofd *o, int cloexec)
{
	struct ofd *old = fdtab_drop(t, fd);
	fdtab_fit(t, fd);
	t->fd[fd] = o;
	t->cloexec[fd] = (uint8_t)cloexec;
	o->refs++;
	return old;
}

uint32_t rec_handle_new(struct rec *r)
{
	for (uint32_t h = 1; h < r->hcap; h++)
		if (!r->hused[h]) {
			r->hused[h] = 1;
			return h;
		}
	uint32_t cap = r->hcap ? r->hcap * 2 : 64;
	r->hused = rec_must(realloc(r->hused, cap));
	memset(r->hused + r->hcap, 0, cap - r->hcap);
	uint32_t h = r->hcap ? r->hcap : 1;
	r->hcap = cap;
	r->hused[h] = 1;
	return h;
}

void rec_handle_free(struct rec *r, uint32_t h)
{
	if (h && h < r->hcap)
		r->hused[h] = 0;
}

static void count_kind(struct rec_kind *k, int *n, const char *kind)
{
	int i;
	for (i = 0; i < *n; i++)
		if (!strcmp(k[i].name, kind))
			break;
	if (i == *n) {
		if (*n == REC_KINDS)
			i = REC_KINDS - 1;  /* the last row takes what does not fit */
		else
			snprintf(k[(*n)++].name, sizeof(k[0].name), "%s", kind);
	}
	k[i].count++;
}

void rec_left(struct rec *r, const char *kind)
{
	count_kind(r->left, &r->nleft, kind);
}

void rec_folded(struct rec *r, const char *kind)
{
	count_kind(r->folded, &r->nfolded, kind);
}

/* Every directory above path (under DIR) that the program did not make
 * was there before it. */
static void parents_old(struct rec *r, const char *path)
{
	char buf[4096];
	snprintf(buf, sizeof(buf), "%s", path);
	for (char *s = strrchr(buf, '/'); s && s > buf; s = strrchr(buf, '/')) {
		*s = '\0';
		if (!rec_under(r, buf) || strlen(buf) <= r->dirlen)
			return;
		struct name *n = rec_name(r, buf);
		if (n->state != NAME_UNSEEN) {
			/* first seen as a file (an open or access that did not
			 * say): what holds a name is a directory */
			if (n->ino && n->ino->original)
				n->ino->isdir = 1;
			return;
		}
		n->state = NAME_OLD;
		n->ino = rec_inode(r);
		n->ino->isdir = 1;
		n->ino->original = 1;
		n->ino->setup_name = n->path;
	}
}

void rec_saw_old(struct rec *r, const char *path, int isdir)
{
	struct name *n = rec_name(r, path);
	if (n->state != NAME_UNSEEN) {
		if (isdir && n->ino && n->ino->original)
			n->ino->isdir = 1;  /* a later call told what an earlier did not */
		return;
	}
	n->state = NAME_OLD;
	n->ino = rec_inode(r);
	n->ino->isdir = (uint8_t)isdir;
	n->ino->original = 1;
	n->ino->setup_name = n->path;
	parents_old(r, path);
}

void rec_saw_new(struct rec *r, const char *path)
{
	struct name *n = rec_name(r, path);
	if (n->state == NAME_UNSEEN)
		n->state = NAME_NEW;
	parents_old(r, path);
}

void rec_saw_absent(struct rec *r, const char *path)
{
	struct name *n = rec_name(r, path);
	if (n->state == NAME_UNSEEN)
		n->state = NAME_NEW;
}

void rec_free(struct rec *r)
{
	for (size_t i = 0; i < r->cap; i++)
		if (r->names[i]) {
			free(r->names[i]->path);
			free(r->names[i]);
		}
	free(r->names);
	for (size_t i = 0; i < r->ninodes; i++) {
		free(r->inodes[i]->rd);
		free(r->inodes[i]);
	}
	free(r->inodes);
	for (size_t i = 0; i < r->proccap; i++)
		if (r->procs[i]) {
			free(r->procs[i]->cwd);  /* fd tables and ofds went with rec_exit() */
			free(r->procs[i]->pend_name);
			free(r->procs[i]->pend_start);
			free(r->procs[i]);
		}
	free(r->procs);
	free(r->hused);
}
