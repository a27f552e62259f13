/* kbench - unit tests: the backend table's contract (backend.h): every
 * backend built in has a function for every opcode but Sleep, its own or
 * backend_refuse, so a new opcode cannot be left out of a backend and
 * silently counted as unsupported; Sleep has none (the client loop waits).
 * Each backend's own options: its table fits, is included by kbench
 * load's (so it is parsed into that backend's struct alone), and names no
 * option another backend or load itself has.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "load/backend/backend.h"
#include "load/options/options.h"

static void test_every_opcode(void **state)
{
	(void)state;
	unsigned built = 0;
	for (size_t b = 0; backends[b]; b++) {
		const struct backend *be = backends[b];
		if (be->missing)
			continue;  /* not built here: no table to check */
		built++;
		for (unsigned i = 0; i < OP_COUNT; i++) {
			if (i == OP_SLEEP) {
				assert_null(be->op[i]);
				continue;
			}
			if (!be->op[i])
				fail_msg("-B %s has no function for %s: give it one, or "
					 "backend_refuse", be->name, op_file_name(i));
		}
	}
	assert_true(built >= 2);  /* fileio and sockio are always built */
}

/* smb refuses the three ops libsmbclient cannot express, and only those */
static void test_smb_refuses(void **state)
{
	(void)state;
	const struct backend *be = backend_find("smb");
	assert_non_null(be);
	if (be->missing)
		skip();
	unsigned refused = 0;
	for (unsigned i = 0; i < OP_COUNT; i++)
		refused += be->op[i] == backend_refuse;
	assert_int_equal(refused, 3);
	assert_ptr_equal(be->op[OP_LOCKX], backend_refuse);
	assert_ptr_equal(be->op[OP_UNLOCKX], backend_refuse);
	assert_ptr_equal(be->op[OP_FLUSH], backend_refuse);
	assert_int_equal(backend_refuse(NULL, NULL, NULL), BE_EUNSUPPORTED);
}

/* Every long name of rows and of the tables they include, into names. */
static size_t long_names(const struct poptOption *rows, const char **names, size_t n, size_t max)
{
	for (const struct poptOption *r = rows; r->longName || r->shortName || r->arg; r++) {
		if ((r->argInfo & POPT_ARG_MASK) == POPT_ARG_INCLUDE_TABLE)
			n = long_names(r->arg, names, n, max);
		else if (r->longName && n < max)
			names[n++] = r->longName;
	}
	return n;
}

static void test_backend_options(void **state)
{
	(void)state;
	struct load_opts o;
	const char *names[128];
	load_opts_init(&o, "kbench load");
	size_t n = long_names(o.through, names, 0, 128);
	unsigned with = 0;
	for (size_t b = 0; backends[b]; b++) {
		const struct backend *be = backends[b];
		assert_true(b < BACKENDS_MAX);
		if (!be->options)
			continue;
		with++;
		assert_true(be->opts_size > 0 && be->opts_size <= BACKEND_OPTS_MAX);
		assert_non_null(be->opts_heading);
		/* its rows are in load's through table, and point into its own
		 * struct in o: given on load's command line, they fill it */
		size_t rows = 0;
		for (const struct poptOption *r = o.own_rows[b]; r->longName; r++, rows++) {
			unsigned type = r->argInfo & POPT_ARG_MASK;
			assert_true(type == POPT_ARG_STRING || type == POPT_ARG_NONE);
			assert_true((const unsigned char *)r->arg >= o.own[b] &&
				    (const unsigned char *)r->arg < o.own[b] + be->opts_size);
		}
		assert_true(rows > 0 && rows < BACKEND_OPT_ROWS);
		int included = 0;
		for (const struct poptOption *r = o.through; r->longName || r->arg; r++)
			included |= r->arg == o.own_rows[b];
		assert_true(included);
	}
	assert_int_equal(with, 3);   /* sockio, nfs, smb (fileio has none of its own) */
	/* one name, one option, across load and every backend */
	for (size_t i = 0; i < n; i++)
		for (size_t k = i + 1; k < n; k++)
			if (!strcmp(names[i], names[k]))
				fail_msg("--%s is declared twice", names[i]);
	/* a backend's option on load's command line reaches its struct */
	const char *argv[] = { "kbench load", "-B", "sockio", "--server", "h:1", "1", NULL };
	poptContext ctx;
	assert_int_equal(load_opts_parse(&o, 6, argv, &ctx), 0);
	struct backend_opts bo;
	load_opts_backend(&o, &bo);
	assert_ptr_equal(bo.own, o.own[1]);
	assert_string_equal(*(char *const *)bo.own, "h:1");
	load_opts_free(&o);
	poptFreeContext(ctx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_opcode),
		cmocka_unit_test(test_smb_refuses),
		cmocka_unit_test(test_backend_options),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
