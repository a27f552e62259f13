/* kbench - load's options as kbench suite sees them: passed through, checked
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * kbench suite declares none of the options it passes through to its
 * load children: its table includes load's (struct load_opts' through[],
 * with the backends' own), it writes them back as a child's arguments and
 * as the record in its results file from that table alone, and it asks
 * load's own parser and checks about each child's command line before a
 * series starts.  A new option in load's through table (or a backend's)
 * therefore reaches suite with no change there.  Every row is walked the
 * same way, included tables too: a string (given when not NULL) or a
 * flag (given when not 0), named by its long name.
 */
#include "config.h"
#include "cli.h"
#include "load/options/options.h"
#include "load/options/optrows.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void load_opts_backend(const struct load_opts *o, struct backend_opts *b)
{
	*b = (struct backend_opts){
		.sync_open = o->sync_open, .sync_dirs = o->sync_dirs,
		.fsync_write = o->fsync_write, .xattr = o->xattr,
		.directory = o->directory,
	};
	for (size_t i = 0; backends[i]; i++)
		if (backends[i] == o->backend && backends[i]->options)
			b->own = o->own[i];
}

/* The arguments being written: v[n...]; k counts the rows walked, whose
 * "--NAME" texts are o->through_names[k] (optrows_names). */
struct args {
	const struct load_opts *o;
	const char **v;
	size_t n, k;
	const char *backend;   /* -B's NAME, given or meant */
};

static void put_arg(const struct poptOption *r, void *data)
{
	struct args *a = data;
	const char *name = a->o->through_names[a->k++];
	if (r->arg == &a->o->backend_name) {
		if (a->backend) {
			a->v[a->n++] = name;
			a->v[a->n++] = a->backend;
		}
		return;
	}
	if (!optrows_given(r))
		return;
	a->v[a->n++] = name;
	if ((r->argInfo & POPT_ARG_MASK) == POPT_ARG_STRING)
		a->v[a->n++] = *(char **)r->arg;
}

size_t load_opts_through_argv(const struct load_opts *o, const char **v, size_t n)
{
	struct args a = { o, v, n, 0, load_opts_backend_given(o) };
	optrows_walk(o->through, put_arg, &a);
	return a.n;
}

/* the first row given: its "--NAME" into a->backend */
static void first_given(const struct poptOption *r, void *data)
{
	struct args *a = data;
	if (a->backend == NULL && optrows_given(r))
		a->backend = a->o->through_names[a->k];
	a->k++;
}

const char *load_opts_through_first(const struct load_opts *o)
{
	struct args a = { o, NULL, 0, 0, NULL };
	optrows_walk(o->through, first_given, &a);
	return a.backend;
}

struct json_args {
	json_t *params;
	int failed;
};

static void put_json(const struct poptOption *r, void *data)
{
	struct json_args *j = data;
	char key[80];
	size_t i;
	snprintf(key, sizeof(key), "%s%s", r->longName, optrows_secret(r) ? "_given" : "");
	for (i = 0; key[i]; i++)
		key[i] = key[i] == '-' ? '_' : key[i];
	json_t *v = NULL;
	if ((r->argInfo & POPT_ARG_MASK) == POPT_ARG_NONE)
		v = json_boolean(*(int *)r->arg);
	else if (optrows_given(r))
		v = optrows_secret(r) ? json_true() : json_string(*(char **)r->arg);
	else
		return;
	if (!v || json_object_set_new(j->params, key, v) < 0)
		j->failed = 1;
}

int load_opts_through_json(const struct load_opts *o, json_t *params)
{
	struct json_args j = { params, 0 };
	optrows_walk(o->through, put_json, &j);
	return j.failed ? -1 : 0;
}

int load_args_check(const char *cmd, const char *const *argv, struct load_child_info *ep)
{
	int argc = 0;
	while (argv[argc])
		argc++;
	/* load_opts_parse hides a password in its argv: a copy's, not ours */
	char **copy = calloc((size_t)argc + 1, sizeof(*copy));
	int status = copy ? KB_EXIT_OK : KB_EXIT_FAIL;
	for (int i = 0; !status && i < argc; i++)
		if (!(copy[i] = strdup(argv[i])))
			status = KB_EXIT_FAIL;
	if (status) {
		fprintf(stderr, "%s: out of memory\n", cmd);
	} else {
		struct load_opts o;
		struct backend_opts b;
		poptContext ctx;
		load_opts_init(&o, cmd);
		status = load_opts_parse(&o, argc, (const char **)copy, &ctx);
		if (!status)
			status = load_opts_check(&o, ctx);
		load_opts_backend(&o, &b);
		if (!status && o.backend->check)
			status = o.backend->check(&b, cmd);
		ep->host[0] = '\0';
		ep->per_proc = (unsigned)o.per_proc;
		if (!status && o.backend->endpoint &&
		    o.backend->endpoint(&b, ep->host, sizeof(ep->host), ep->port,
					sizeof(ep->port)) < 0)
			status = cli_usage_error(cmd, "-B %s: its server's name or port is too long",
						 o.backend->name);
		load_opts_free(&o);
		poptFreeContext(ctx);
	}
	for (int i = 0; copy && i < argc; i++)
		free(copy[i]);
	free(copy);
	return status;
}
