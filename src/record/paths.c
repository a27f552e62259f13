/* kbench - kbench record: the calls on names
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The stat family and access -> QUERY_PATH_INFORMATION (or, on a
 * descriptor with AT_EMPTY_PATH, QUERY_FILE_INFORMATION), unlink ->
 * Unlink, rmdir and unlinkat(AT_REMOVEDIR) -> Rmdir, mkdir -> Mkdir,
 * rename -> Rename, getdents -> FIND_FIRST of the directory's "*",
 * statfs -> QUERY_FS_INFORMATION; chdir and fchdir are followed for
 * relative names.  A call that failed with ENOENT or ENOTDIR is kept
 * with the status it expects (the replay's tree lacks the same name); a
 * mkdir of a name that exists is kept unchecked ("*": kbench's Mkdir,
 * like dbench's, takes a directory that exists as a success).  Names are
 * made absolute and normalized lexically ('.' and '..' resolved without
 * looking at the tree: the recording reads nothing).
 */
#include "config.h"
#include "record/paths.h"

#include <stdlib.h>
#include <string.h>

static int path_line(struct rec *r, double t, enum rec_op op, const char *path, const char *tail,
		     const char *status)
{
	char lp[REC_PATH + 32];
	if (rec_loadpath(r, path, lp, sizeof(lp)) < 0) {
		rec_left(r, "names a loadfile cannot hold ('\"', '\\' or a line break)");
		return -1;
	}
	rec_emit(r, t, op, "\"%s\"%s %s", lp, tail, status);
	return 0;
}

/* A failure the replay's tree reproduces: ENOENT and ENOTDIR. */
static int reproducible(const char *err)
{
	return err && (!strcmp(err, "ENOENT") || !strcmp(err, "ENOTDIR"));
}

static void failed_name(struct rec *r, const struct st_line *l, const char *what)
{
	char kind[96];
	snprintf(kind, sizeof(kind), "failed %s (%s)", what, l->err ? l->err : "no result");
	rec_left(r, kind);
}

static int ok(const struct st_line *l)
{
	return l->has_ret && l->ret >= 0;
}

/* stat, lstat, newfstatat, statx, access, faccessat: the name's kind and size */
static void do_stat(struct rec *r, struct proc *p, const struct st_line *l, int at)
{
	char path[REC_PATH];
	const char *patharg = at && l->nargs > 1 ? l->arg[1] : l->nargs ? l->arg[0] : NULL;
	if (at && patharg && !strcmp(patharg, "\"\"")) {
		/* AT_EMPTY_PATH: the descriptor itself, as fstat */
		struct ofd *o = rec_fd(r, p, l->arg[0], l->t);
		if (!o || !o->handle) {
			if (o)
				rec_left(r, o->link ? LINK_KIND : o->path[0] == '/' ? "calls on files outside DIR"
						  : "calls on pipes, sockets and other non-files");
			return;
		}
		if (!ok(l))
			return failed_name(r, l, l->name);
		rec_emit(r, l->t, R_QFILEINFO, "%u 1005 NT_STATUS_OK", o->handle);
		for (int i = 2; i < l->nargs && o->ino; i++) {
			const char *sz = strstr(l->arg[i], "st_size=");
			if (!sz)
				sz = strstr(l->arg[i], "stx_size=");
			uint64_t v = sz ? strtoull(strchr(sz, '=') + 1, NULL, 10) : 0;
			if (sz && o->ino->original && !o->isdir && v > o->ino->init_size)
				o->ino->init_size = v;
		}
		return;
	}
	if (rec_resolve(r, p, at ? l->arg[0] : NULL, patharg, path) < 0)
		return rec_left(r, "calls strace printed without their arguments");
	if (!rec_under(r, path))
		return rec_left(r, "calls on files outside DIR");
	if (rec_name(r, path)->link_made)
		return rec_left(r, LINK_KIND);
	if (!ok(l)) {
		if (!reproducible(l->err))
			return failed_name(r, l, l->name);
		if (!strcmp(l->err, "ENOENT"))
			rec_saw_absent(r, path);
		path_line(r, l->t, R_QPATHINFO, path, " 1004", rec_status(l->err));
		return;
	}
	int isdir = 0, islnk = 0;
	uint64_t size = 0;
	for (int i = 1; i < l->nargs; i++) {
		const char *a = l->arg[i];
		if (strstr(a, "S_IFDIR"))
			isdir = 1;
		if (strstr(a, "S_IFLNK"))
			islnk = 1;
		const char *sz = strstr(a, "st_size=");
		if (!sz)
			sz = strstr(a, "stx_size=");
		if (sz)
			size = strtoull(strchr(sz, '=') + 1, NULL, 10);
	}
	if (islnk)
		return rec_left(r, "lstat of a symbolic link under DIR");
	rec_saw_old(r, path, isdir);
	struct name *n = rec_name(r, path);
	if (!n->ino) {
		n->ino = rec_inode(r);  /* made by a way not traced: taken as it is */
		n->ino->isdir = (uint8_t)isdir;
	}
	if (n->ino->original && !isdir && size > n->ino->init_size)
		n->ino->init_size = size;
	path_line(r, l->t, R_QPATHINFO, path, " 1004", "NT_STATUS_OK");
}

/* unlink, unlinkat, rmdir */
static void do_remove(struct rec *r, struct proc *p, const struct st_line *l, int at)
{
	char path[REC_PATH];
	int dir = !strcmp(l->name, "rmdir") || (at && l->nargs > 2 && strstr(l->arg[2], "AT_REMOVEDIR"));
	if (rec_resolve(r, p, at ? l->arg[0] : NULL, l->nargs > at ? l->arg[at] : NULL, path) < 0)
		return rec_left(r, "calls strace printed without their arguments");
	if (!rec_under(r, path))
		return rec_left(r, "calls on files outside DIR");
	enum rec_op op = dir ? R_RMDIR : R_UNLINK;
	if (rec_name(r, path)->link_made) {
		if (ok(l))
			rec_name(r, path)->link_made = 0;  /* gone: the name is free again */
		return rec_left(r, LINK_KIND);
	}
	if (!ok(l)) {
		if (!reproducible(l->err) && !(l->err && !dir && !strcmp(l->err, "EISDIR")))
			return failed_name(r, l, l->name);
		if (!strcmp(l->err, "ENOENT"))
			rec_saw_absent(r, path);
		path_line(r, l->t, op, path, dir ? "" : " 0x6", rec_status(l->err));
		return;
	}
	rec_saw_old(r, path, dir);
	rec_name(r, path)->ino = NULL;
	path_line(r, l->t, op, path, dir ? "" : " 0x6", "NT_STATUS_OK");
}

static void do_mkdir(struct rec *r, struct proc *p, const struct st_line *l, int at)
{
	char path[REC_PATH];
	if (rec_resolve(r, p, at ? l->arg[0] : NULL, l->nargs > at ? l->arg[at] : NULL, path) < 0)
		return rec_left(r, "calls strace printed without their arguments");
	if (!rec_under(r, path))
		return rec_left(r, "calls on files outside DIR");
	if (ok(l)) {
		rec_saw_new(r, path);
		struct name *n = rec_name(r, path);
		n->ino = rec_inode(r);
		n->ino->isdir = 1;
		path_line(r, l->t, R_MKDIR, path, "", "NT_STATUS_OK");
	} else if (l->err && !strcmp(l->err, "EEXIST")) {
		rec_saw_old(r, path, 1);
		path_line(r, l->t, R_MKDIR, path, "", "*");
	} else if (reproducible(l->err)) {
		path_line(r, l->t, R_MKDIR, path, "", rec_status(l->err));
	} else {
		failed_name(r, l, l->name);
	}
}

/* A rename moves what a name holds, and for a directory every name below it. */
static void move_names(struct rec *r, const char *from, const char *to)
{
	struct name *a = rec_name(r, from), *b = rec_name(r, to);
	if (b->state == NAME_UNSEEN)
		b->state = NAME_NEW;
	b->ino = a->ino;
	a->ino = NULL;
	if (!b->ino || !b->ino->isdir)
		return;
	size_t fl = strlen(from);
	char buf[REC_PATH];
	for (size_t i = 0; i < r->cap; i++) {
		struct name *n = r->names[i];
		if (!n || strncmp(n->path, from, fl) || n->path[fl] != '/' || !n->ino)
			continue;
		if (snprintf(buf, sizeof(buf), "%s%s", to, n->path + fl) >= (int)sizeof(buf))
			continue;
		struct inode *ino = n->ino;
		n->ino = NULL;
		struct name *m = rec_name(r, buf);  /* may grow the table: i's row is done */
		if (m->state == NAME_UNSEEN)
			m->state = NAME_NEW;
		m->ino = ino;
	}
}

static void do_rename(struct rec *r, struct proc *p, const struct st_line *l)
{
	char from[REC_PATH], to[REC_PATH];
	int at = strcmp(l->name, "rename") != 0;
	if (l->nargs < (at ? 4 : 2) ||
	    rec_resolve(r, p, at ? l->arg[0] : NULL, l->arg[at], from) < 0 ||
	    rec_resolve(r, p, at ? l->arg[2] : NULL, l->arg[at ? 3 : 1], to) < 0)
		return rec_left(r, "calls strace printed without their arguments");
	if (!rec_under(r, from) || !rec_under(r, to))
		return rec_left(r, "calls on files outside DIR");
	if (rec_name(r, from)->link_made) {
		if (ok(l)) {
			rec_name(r, from)->link_made = 0;
			rec_name(r, to)->link_made = 1;
		}
		return rec_left(r, LINK_KIND);
	}
	if (l->nargs > 4 && strstr(l->arg[4], "RENAME_EXCHANGE"))
		return rec_left(r, "renameat2 RENAME_EXCHANGE (no NetBench operation)");
	char lf[REC_PATH + 32], lt[REC_PATH + 32];
	if (rec_loadpath(r, from, lf, sizeof(lf)) < 0 || rec_loadpath(r, to, lt, sizeof(lt)) < 0)
		return rec_left(r, "names a loadfile cannot hold ('\"', '\\' or a line break)");
	if (!ok(l)) {
		if (!reproducible(l->err))
			return failed_name(r, l, l->name);
		rec_emit(r, l->t, R_RENAME, "\"%s\" \"%s\" %s", lf, lt, rec_status(l->err));
		return;
	}
	rec_saw_old(r, from, 0);
	rec_saw_new(r, to);
	move_names(r, from, to);
	rec_emit(r, l->t, R_RENAME, "\"%s\" \"%s\" NT_STATUS_OK", lf, lt);
}

static void do_getdents(struct rec *r, struct proc *p, const struct st_line *l)
{
	struct ofd *o = rec_fd(r, p, l->nargs ? l->arg[0] : NULL, l->t);
	if (!o)
		return rec_left(r, "calls strace printed without their arguments");
	if (!o->handle)
		return rec_left(r, "calls on files outside DIR");
	if (!ok(l))
		return failed_name(r, l, l->name);
	if (o->ino && o->ino->original)
		o->ino->isdir = 1;
	if (l->ret == 0)
		return rec_folded(r, "getdents at a directory's end (FIND_FIRST reads to the end)");
	unsigned long entries = 0;
	for (int i = 1; i < l->nargs; i++) {
		const char *e = strstr(l->arg[i], "/* ");
		if (e && strstr(e, " entries */"))
			entries = strtoul(e + 3, NULL, 10);
	}
	if (entries > UINT32_MAX)
		entries = UINT32_MAX;  /* the loadfile's count is 32 bits */
	if (strpbrk(o->path, "*?<>"))
		return rec_left(r, "getdents of a directory with a wildcard in its name (no FIND_FIRST)");
	char pat[REC_PATH + 2], lp[REC_PATH + 40];
	snprintf(pat, sizeof(pat), "%s/*", strcmp(o->path, "/") ? o->path : "");
	if (rec_loadpath(r, pat, lp, sizeof(lp)) < 0)
		return rec_left(r, "names a loadfile cannot hold ('\"', '\\' or a line break)");
	/* level 260 (find-file-both-directory-info, as dbench's), maxcnt 0
	 * (every entry), count: the entries this call returned */
	rec_emit(r, l->t, R_FIND_FIRST, "\"%s\" 260 0 %lu NT_STATUS_OK", lp, entries);
}

/* statfs, fstatfs: QUERY_FS_INFORMATION (kbench's is of the client's tree) */
static void do_statfs(struct rec *r, struct proc *p, const struct st_line *l)
{
	char path[REC_PATH];
	if (l->name[0] == 'f') {
		struct ofd *o = rec_fd(r, p, l->nargs ? l->arg[0] : NULL, l->t);
		snprintf(path, sizeof(path), "%s", o ? o->path : "");
	} else if (rec_resolve(r, p, NULL, l->nargs ? l->arg[0] : NULL, path) < 0) {
		path[0] = '\0';
	}
	if (!rec_under(r, path))
		return path[0] ? rec_left(r, "calls on files outside DIR") : (void)r->not_fs++;
	if (!ok(l))
		return failed_name(r, l, l->name);
	rec_emit(r, l->t, R_QFSINFO, "1007 NT_STATUS_OK");
}

static void do_chdir(struct rec *r, struct proc *p, const struct st_line *l, int byfd)
{
	char path[REC_PATH];
	if (!ok(l))
		return;
	if (byfd) {
		struct ofd *o = rec_fd(r, p, l->nargs ? l->arg[0] : NULL, l->t);
		if (!o)
			return;
		snprintf(path, sizeof(path), "%s", o->path);
	} else if (rec_resolve(r, p, NULL, l->nargs ? l->arg[0] : NULL, path) < 0) {
		return;
	}
	free(p->cwd);
	p->cwd = rec_must(strdup(path));
	if (rec_under(r, path))
		rec_folded(r, "chdir and fchdir (followed for relative names)");
}

/* A name-only call with no NetBench operation: left out when under DIR.
 * The name is argument pathix, relative to the descriptor argument
 * dirix (-1: the cwd). */
static void no_op_name(struct rec *r, struct proc *p, const struct st_line *l, int dirix, int pathix,
		       const char *why)
{
	char path[REC_PATH], kind[96];
	if (pathix >= l->nargs || rec_resolve(r, p, dirix >= 0 && dirix < l->nargs ? l->arg[dirix] : NULL,
						 l->arg[pathix], path) < 0)
		return (void)r->not_fs++;
	if (!rec_under(r, path))
		return rec_left(r, "calls on files outside DIR");
	if (rec_name(r, path)->link_made)
		return rec_left(r, LINK_KIND);
	snprintf(kind, sizeof(kind), "%s under DIR (%s)", l->name, why);
	rec_left(r, kind);
}

/* symlink, link, mknod and their *at forms: the name they make is one
 * the replay cannot make, so every later call on it is left out too */
static void do_link(struct rec *r, struct proc *p, const struct st_line *l, int dirix, int pathix)
{
	char path[REC_PATH];
	if (pathix >= l->nargs || rec_resolve(r, p, dirix >= 0 && dirix < l->nargs ? l->arg[dirix] : NULL,
						 l->arg[pathix], path) < 0)
		return rec_left(r, "calls strace printed without their arguments");
	if (!rec_under(r, path))
		return rec_left(r, "calls on files outside DIR");
	if (ok(l)) {
		struct name *n = rec_name(r, path);
		rec_saw_new(r, path);
		n->link_made = 1;
		n->ino = NULL;
	}
	rec_left(r, LINK_KIND);
}

int rec_path_call(struct rec *r, struct proc *p, const struct st_line *l)
{
	const char *n = l->name;
	if (!strcmp(n, "stat") || !strcmp(n, "lstat") || !strcmp(n, "stat64") ||
	    !strcmp(n, "lstat64") || !strcmp(n, "access"))
		do_stat(r, p, l, 0);
	else if (!strcmp(n, "newfstatat") || !strcmp(n, "fstatat64") || !strcmp(n, "statx") ||
		 !strncmp(n, "faccessat", 9))
		do_stat(r, p, l, 1);
	else if (!strcmp(n, "unlink") || !strcmp(n, "rmdir"))
		do_remove(r, p, l, 0);
	else if (!strcmp(n, "unlinkat"))
		do_remove(r, p, l, 1);
	else if (!strcmp(n, "mkdir"))
		do_mkdir(r, p, l, 0);
	else if (!strcmp(n, "mkdirat"))
		do_mkdir(r, p, l, 1);
	else if (!strncmp(n, "rename", 6))
		do_rename(r, p, l);
	else if (!strncmp(n, "getdents", 8))
		do_getdents(r, p, l);
	else if (!strcmp(n, "chdir"))
		do_chdir(r, p, l, 0);
	else if (!strcmp(n, "fchdir"))
		do_chdir(r, p, l, 1);
	else if (!strcmp(n, "statfs") || !strcmp(n, "fstatfs") || !strcmp(n, "statfs64") ||
		 !strcmp(n, "fstatfs64"))
		do_statfs(r, p, l);
	else if (!strcmp(n, "chmod") || !strcmp(n, "chown") || !strcmp(n, "lchown") ||
		 !strcmp(n, "truncate") || !strcmp(n, "utime") || !strcmp(n, "utimes"))
		no_op_name(r, p, l, -1, 0, "SET_FILE_INFORMATION needs a handle");
	else if (!strcmp(n, "fchmodat") || !strcmp(n, "fchownat") || !strcmp(n, "utimensat") ||
		 !strcmp(n, "futimesat"))
		no_op_name(r, p, l, 0, 1, "SET_FILE_INFORMATION needs a handle");
	else if (!strcmp(n, "readlink") || !strcmp(n, "getxattr") || !strcmp(n, "lgetxattr") ||
		 !strcmp(n, "setxattr") || !strcmp(n, "lsetxattr") || !strcmp(n, "listxattr") ||
		 !strcmp(n, "llistxattr") || !strcmp(n, "removexattr") || !strcmp(n, "lremovexattr"))
		no_op_name(r, p, l, -1, 0, "no NetBench operation");
	else if (!strcmp(n, "readlinkat"))
		no_op_name(r, p, l, 0, 1, "no NetBench operation");
	else if (!strcmp(n, "symlink") || !strcmp(n, "link"))
		do_link(r, p, l, -1, 1);
	else if (!strcmp(n, "symlinkat"))
		do_link(r, p, l, 1, 2);
	else if (!strcmp(n, "linkat"))
		do_link(r, p, l, 2, 3);
	else if (!strcmp(n, "mknod"))
		do_link(r, p, l, -1, 0);
	else if (!strcmp(n, "mknodat"))
		do_link(r, p, l, 0, 1);
	else
		return 0;
	return 1;
}
