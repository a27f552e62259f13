/* kbench - load: walking popt option tables, given rows, their names and
 * the backends' secret options (optrows.h)
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"
#include "cli.h"
#include "load/backend/backend.h"
#include "load/options/optrows.h"

#include <stdio.h>
#include <string.h>

void optrows_walk(const struct poptOption *rows, optrows_fn fn, void *data)
{
	for (const struct poptOption *r = rows; r->longName || r->shortName || r->arg; r++) {
		unsigned type = r->argInfo & POPT_ARG_MASK;
		if (type == POPT_ARG_INCLUDE_TABLE)
			optrows_walk(r->arg, fn, data);
		else if ((type == POPT_ARG_STRING || type == POPT_ARG_NONE) && r->arg && r->longName)
			fn(r, data);
	}
}

int optrows_given(const struct poptOption *r)
{
	if ((r->argInfo & POPT_ARG_MASK) == POPT_ARG_STRING)
		return *(char **)r->arg != NULL;
	return *(int *)r->arg != 0;
}

/* the first row given, into *data */
static void first_row(const struct poptOption *r, void *data)
{
	const struct poptOption **first = data;
	if (!*first && optrows_given(r))
		*first = r;
}

const struct poptOption *optrows_first_given(const struct poptOption *rows)
{
	const struct poptOption *first = NULL;
	optrows_walk(rows, first_row, &first);
	return first;
}

struct names {
	char (*names)[40];
	size_t max, k;
};

static void put_name(const struct poptOption *r, void *data)
{
	struct names *n = data;
	if (n->k < n->max)
		snprintf(n->names[n->k], sizeof(n->names[n->k]), "--%s", r->longName);
	n->k++;
}

void optrows_names(const struct poptOption *rows, char (*names)[40], size_t max)
{
	struct names n = { names, max, 0 };
	optrows_walk(rows, put_name, &n);
}

int optrows_secret(const struct poptOption *r)
{
	for (size_t i = 0; backends[i]; i++)
		if (backends[i]->secret && !strncmp(backends[i]->secret, "--", 2) &&
		    !strcmp(backends[i]->secret + 2, r->longName))
			return 1;
	return 0;
}

void optrows_hide_secrets(int argc, const char **argv)
{
	for (size_t i = 0; backends[i]; i++)
		if (backends[i]->secret)
			cli_hide_password(argc, argv, backends[i]->secret);
}
