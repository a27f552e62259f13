/* kbench - personalities: which one argv[0] names, and the translated argv
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * main() asks compat_find() first: under the name of a peer tool kbench
 * is that tool's drop-in (compat.h); under any other name it is kbench.
 */
#include "config.h"
#include "compat/compat.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct {
	const char *name;
	compat_fn fn;
} personalities[] = {
	{ "dbench", compat_dbench },
	{ "tbench", compat_tbench },
	{ "tbench_srv", compat_tbench_srv },
	{ "hdparm", compat_hdparm },
};

compat_fn compat_find(const char *argv0)
{
	if (!argv0)
		return NULL;
	const char *base = strrchr(argv0, '/');
	base = base ? base + 1 : argv0;
	for (size_t i = 0; i < sizeof(personalities) / sizeof(personalities[0]); i++)
		if (!strcmp(base, personalities[i].name))
			return personalities[i].fn;
	return NULL;
}

static int av_add(struct argvec *a, char *s)
{
	if (!s) {
		a->failed = 1;
		return -1;
	}
	if (a->n + 2 > a->cap) {
		int cap = a->cap ? a->cap * 2 : 16;
		char **v = realloc(a->v, (size_t)cap * sizeof(*v));
		if (!v) {
			free(s);
			a->failed = 1;
			return -1;
		}
		a->v = v;
		a->cap = cap;
	}
	a->v[a->n++] = s;
	a->v[a->n] = NULL;
	return 0;
}

int av_push(struct argvec *a, const char *s)
{
	return av_add(a, strdup(s));
}

int av_pushf(struct argvec *a, const char *fmt, ...)
{
	va_list ap;
	char *s = NULL;
	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		s = NULL;
	va_end(ap);
	return av_add(a, s);
}

void av_free(struct argvec *a)
{
	for (int i = 0; i < a->n; i++)
		free(a->v[i]);
	free(a->v);
	memset(a, 0, sizeof(*a));
}

int compat_run(const char *tool, int (*cmd)(int, const char **), struct argvec *a)
{
	if (a->failed || !a->v) {
		fprintf(stderr, "%s: out of memory\n", tool);
		return 1;
	}
	/* the command may reorder or overwrite argv (popt, a password): a
	 * copy of the pointers, the strings are a's */
	char **v = malloc(((size_t)a->n + 1) * sizeof(*v));
	if (!v) {
		fprintf(stderr, "%s: out of memory\n", tool);
		return 1;
	}
	memcpy(v, a->v, ((size_t)a->n + 1) * sizeof(*v));
	int status = cmd(a->n, (const char **)v);
	free(v);
	return status;
}
