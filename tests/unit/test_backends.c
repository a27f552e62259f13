/* kbench - unit tests: the backend table's contract (backend.h): every
 * backend built in has a function for every opcode but Sleep, its own or
 * backend_refuse, so a new opcode cannot be left out of a backend and
 * silently counted as unsupported; Sleep has none (the client loop waits)
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <cmocka.h>

#include "load/backend.h"

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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_opcode),
		cmocka_unit_test(test_smb_refuses),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
