/* kbench - kbench record: what the calls on descriptors and on names share
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The floor under calls.c and paths.c (see calls.h): a loadfile line
 * written, a failure's NT status, a name made absolute, and the open
 * files of a process's descriptors (made, given a handle, gone).  It
 * asks nothing of either.
 */
#include "config.h"
#include "record/lines.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

void rec_emit(struct rec *r, double t, enum rec_op op, const char *fmt, ...)
{
	va_list ap;
	double rel = t - r->t0;
	if (!r->untimed)  /* a loadfile's times lie in [0, 10^9] s */
		fprintf(r->body, "%.6f ", rel > 0 ? (rel < 1e9 ? rel : 1e9) : 0.0);
	fprintf(r->body, "%s ", rec_op_name[op]);
	va_start(ap, fmt);
	vfprintf(r->body, fmt, ap);
	va_end(ap);
	fputc('\n', r->body);
	r->ops[op]++;
}

const char *rec_status(const char *err)
{
	static const struct { const char *err, *nt; } map[] = {
		{ "ENOENT", "NT_STATUS_OBJECT_NAME_NOT_FOUND" },
		{ "ENOTDIR", "NT_STATUS_OBJECT_PATH_NOT_FOUND" },
		{ "EEXIST", "NT_STATUS_OBJECT_NAME_COLLISION" },
		{ "EISDIR", "NT_STATUS_FILE_IS_A_DIRECTORY" },
		{ "ENOTEMPTY", "NT_STATUS_DIRECTORY_NOT_EMPTY" },
		{ "EACCES", "NT_STATUS_ACCESS_DENIED" },
		{ "EPERM", "NT_STATUS_ACCESS_DENIED" },
	};
	for (size_t i = 0; err && i < sizeof(map) / sizeof(map[0]); i++)
		if (!strcmp(map[i].err, err))
			return map[i].nt;
	return "NT_STATUS_UNSUCCESSFUL";
}

void rec_outside(struct rec *r, const char *path)
{
	if (r->cur_link)
		rec_left(r, LINK_KIND);
	else if (rec_is_file(path))
		rec_left(r, "calls on files outside DIR");
	else
		rec_left(r, "calls on pipes, sockets and other non-files");
}

struct ofd *rec_ofd_new(const char *path)
{
	struct ofd *o = rec_must(calloc(1, sizeof(*o)));
	o->path = rec_must(strdup(path));
	return o;
}

/* The last descriptor of o went: its Close, if it has a handle. */
void rec_ofd_gone(struct rec *r, struct ofd *o, double t)
{
	if (!o)
		return;
	if (o->handle) {
		rec_emit(r, t, R_CLOSE, "%u NT_STATUS_OK", o->handle);
		rec_handle_free(r, o->handle);
	}
	free(o->path);
	free(o);
}

/* An NTCreateX for o (under DIR), which takes a new handle. */
void rec_open_line(struct rec *r, struct ofd *o, double t, int disp)
{
	char lp[REC_PATH + 32];
	if (rec_loadpath(r, o->path, lp, sizeof(lp)) < 0) {
		rec_left(r, "names a loadfile cannot hold ('\"', '\\' or a line break)");
		return;
	}
	o->handle = rec_handle_new(r);
	rec_emit(r, t, R_NTCREATEX, "\"%s\" 0x%x %d %u NT_STATUS_OK", lp, o->isdir ? 1 : 0,
		 o->isdir ? 1 : disp, o->handle);
}

struct ofd *rec_fd(struct rec *r, struct proc *p, const char *arg, double t)
{
	char path[REC_PATH];
	int fd;
	if (!arg || st_fd(arg, &fd, path, sizeof(path)) < 0 || fd < 0)
		return NULL;
	struct ofd *o = fdtab_get(p->tab, fd);
	if (o) {
		r->cur_link = o->link;
		return o;
	}
	/* had before the trace began (or by a way not traced) */
	o = rec_ofd_new(path[0] ? path : "?");
	fdtab_set(p->tab, fd, o, 0);
	if (rec_under(r, o->path)) {
		rec_saw_old(r, o->path, 0);
		struct name *n = rec_name(r, o->path);
		o->ino = n->ino ? n->ino : (n->ino = rec_inode(r));
		o->isdir = o->ino->isdir;
		rec_folded(r, "descriptors open before the trace (opened at first use)");
		rec_open_line(r, o, t, 1);
	}
	return o;
}

/* Resolve '.', '..' and repeated '/' of an absolute path in place. */
static void normalize(char *p)
{
	char *w = p, *r = p;
	while (*r) {
		while (*r == '/')
			r++;
		char *s = r;
		while (*r && *r != '/')
			r++;
		size_t n = (size_t)(r - s);
		if (n == 0 || (n == 1 && s[0] == '.'))
			continue;
		if (n == 2 && s[0] == '.' && s[1] == '.') {
			while (w > p && *--w != '/')
				;
			continue;
		}
		*w++ = '/';
		memmove(w, s, n);
		w += n;
	}
	if (w == p)
		*w++ = '/';
	*w = '\0';
}

int rec_resolve(struct rec *r, struct proc *p, const char *dirarg, const char *patharg,
		char *out)
{
	char name[REC_PATH], base[REC_PATH];
	if (!patharg || st_string(patharg, name, sizeof(name)) < 0)
		return -1;
	base[0] = '\0';
	if (dirarg) {
		int fd;
		if (st_fd(dirarg, &fd, base, sizeof(base)) < 0)
			return -1;
		if (fd != -100 && !base[0]) {
			struct ofd *o = fdtab_get(p->tab, fd);
			snprintf(base, sizeof(base), "%s", o ? o->path : "");
		}
	}
	if (!base[0])
		snprintf(base, sizeof(base), "%s", p->cwd ? p->cwd : r->start_cwd);
	if (name[0] == '/')
		snprintf(out, REC_PATH, "%s", name);
	else if (base[0] != '/' || snprintf(out, REC_PATH, "%s/%s", base, name) >= REC_PATH)
		return -1;  /* relative to no directory (a pipe, a socket), or too long */
	if (strlen(out) + 2 > REC_PATH)
		return -1;  /* normalize() may add a '/' */
	normalize(out);
	return 0;
}
