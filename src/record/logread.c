/* kbench - kbench record: reading an strace log into the model
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * An unfinished call is kept in its process's slot until its
 * resumption; the two are joined into one line and read again, with
 * the start's time (when the program made the call).  A resumption
 * whose start strace never printed (a vfork child's execve) is taken
 * for what it is when it is an execve, and otherwise counted.
 */
#include "config.h"
#include "record/logread.h"
#include "record/calls.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

struct pass {
	struct rec *r;
	int second;
};

static void clone_seen(struct rec *r, const struct st_line *l)
{
	if (!l->has_ret || l->ret <= 0 || !l->pid)
		return;
	if (strcmp(l->name, "clone") && strcmp(l->name, "clone3") && strcmp(l->name, "fork") &&
	    strcmp(l->name, "vfork"))
		return;
	struct proc *c = rec_proc(r, (long)l->ret);
	c->parent = l->pid;
	c->share_files = 0;
	for (int i = 0; i < l->nargs; i++)
		if (strstr(l->arg[i], "CLONE_FILES"))
			c->share_files = 1;
}

/* The first line of a process in pass two: its parent's descriptors and cwd. */
static void proc_start(struct rec *r, struct proc *p)
{
	struct proc *par = p->parent ? rec_proc(r, p->parent) : NULL;
	p->seen = 1;
	if (par == p)
		par = NULL;  /* a log whose pids say a process cloned itself */
	if (par && par->tab && p->share_files) {
		p->tab = par->tab;
		p->tab->refs++;
	} else {
		p->tab = par ? fdtab_copy(par->tab) : fdtab_new();
	}
	const char *cwd = par && par->cwd && par != p ? par->cwd : r->start_cwd;
	free(p->cwd);
	p->cwd = rec_must(strdup(cwd));
}

static void whole(struct pass *ps, struct proc *p, const struct st_line *l)
{
	if (!ps->second)
		clone_seen(ps->r, l);
	else
		rec_call(ps->r, p, l);
}

/* One line; returns 0, or -1 with *why. */
static int one_line(struct pass *ps, char *line, const char **why)
{
	struct rec *r = ps->r;
	struct st_line l;
	if (st_parse(line, &l, why) < 0)
		return -1;
	if (!r->have_t0) {
		r->t0 = l.t;
		r->have_t0 = 1;
	}
	if (l.t > r->t_last)
		r->t_last = l.t;
	struct proc *p = rec_proc(r, l.pid);
	if (ps->second && (!p->seen || !p->tab))
		proc_start(r, p);  /* its first line, or a pid used again after an exit */
	switch (l.kind) {
	case ST_SIGNAL:
		return 0;
	case ST_EXIT:
		if (ps->second)
			rec_exit(r, p, l.t);
		return 0;
	case ST_CALL:
		whole(ps, p, &l);
		return 0;
	case ST_UNFINISHED:
		free(p->pend_name);
		free(p->pend_start);
		p->pend_name = rec_must(strdup(l.name));
		p->pend_start = rec_must(strdup(l.rest));
		p->pend_t = l.t;
		return 0;
	case ST_RESUMED:
		break;
	}
	char *joined = NULL;
	int have = p->pend_name && !strcmp(p->pend_name, l.name);
	size_t need = strlen(l.rest) + (have ? strlen(p->pend_start) : 0) + 96;
	joined = rec_must(malloc(need));
	int rc = st_join(joined, need, l.pid ? l.pid : 1, have ? p->pend_t : l.t, l.name,
			 have ? p->pend_start : "", l.rest);
	struct st_line w;
	if (rc == 0 && st_parse(joined, &w, why) == 0 && w.kind == ST_CALL) {
		w.pid = l.pid;
		if (have || !strcmp(w.name, "execve"))
			whole(ps, p, &w);
		else if (ps->second)
			rec_left(r, "calls whose start strace did not print");
	} else if (ps->second) {
		rec_left(r, "calls whose start strace did not print");
	}
	free(joined);
	if (have) {
		free(p->pend_name);
		free(p->pend_start);
		p->pend_name = p->pend_start = NULL;
	}
	return 0;
}

static int read_pass(struct rec *r, const char *path, FILE *f, int second)
{
	struct pass ps = { r, second };
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	uint64_t lineno = 0;
	int rc = 0;
	while ((n = getline(&line, &cap, f)) > 0) {
		lineno++;
		if (line[n - 1] == '\n')
			line[--n] = '\0';
		if (!n || !strncmp(line, "strace: ", 8))
			continue;  /* strace's own messages, in a log of its stderr */
		if (strlen(line) != (size_t)n) {
			fprintf(stderr, "kbench record: %s:%llu: a NUL byte: not a text log of strace\n",
				path, (unsigned long long)lineno);
			rc = -1;
			break;
		}
		const char *why = "";
		if (one_line(&ps, line, &why) < 0) {
			fprintf(stderr, "kbench record: %s:%llu: not a line of strace -f -ttt -yy: %s\n",
				path, (unsigned long long)lineno, why);
			rc = -1;
			break;
		}
	}
	if (rc == 0 && ferror(f)) {
		fprintf(stderr, "kbench record: %s: %s\n", path, strerror(errno));
		rc = -1;
	}
	free(line);
	r->lines = lineno;
	return rc;
}

int rec_read_log(struct rec *r, const char *path)
{
	FILE *f1 = fopen(path, "r"), *f2 = f1 ? fopen(path, "r") : NULL;
	int rc = -1;
	if (!f1 || !f2)
		fprintf(stderr, "kbench record: %s: %s\n", path, strerror(errno));
	else
		rc = rec_read_files(r, path, f1, f2);
	if (f1)
		fclose(f1);
	if (f2)
		fclose(f2);
	return rc;
}

int rec_read_files(struct rec *r, const char *path, FILE *pass1, FILE *pass2)
{
	if (read_pass(r, path, pass1, 0) < 0)
		return -1;
	/* pass one's pending halves and times do not carry over */
	for (size_t i = 0; i < r->proccap; i++) {
		if (!r->procs[i])
			continue;
		free(r->procs[i]->pend_name);
		free(r->procs[i]->pend_start);
		r->procs[i]->pend_name = r->procs[i]->pend_start = NULL;
	}
	r->have_t0 = 0;
	r->t_last = 0;
	if (read_pass(r, path, pass2, 1) < 0)
		return -1;
	for (size_t i = 0; i < r->proccap; i++)
		if (r->procs[i])
			rec_exit(r, r->procs[i], r->t_last);
	if (!r->calls) {
		fprintf(stderr, "kbench record: %s: no system calls in it (an strace -f -ttt -yy log?)\n",
			path);
		return -1;
	}
	if (r->opens_no_path && !r->ops[R_NTCREATEX]) {
		fprintf(stderr, "kbench record: %s: opens without the path of what they opened: "
				"record with strace -yy\n", path);
		return -1;
	}
	return 0;
}
