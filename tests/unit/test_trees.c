/* kbench - unit tests: the client trees' rule (trees.c) over a fake DIR:
 * made exclusively, an empty one kept, anything else refused with the
 * trees made before taken back
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "cli.h"
#include "load/backend/trees.h"

/* A fake DIR: up to 8 names, each with a kind and whether it is empty. */
struct fake {
	struct {
		char rel[40];
		int kind, empty;
	} e[8];
	int n;
	int mkdirs, rmdirs;
};

static int find(struct fake *f, const char *rel)
{
	for (int i = 0; i < f->n; i++)
		if (!strcmp(f->e[i].rel, rel))
			return i;
	return -1;
}

static void put(struct fake *f, const char *rel, int kind, int empty)
{
	snprintf(f->e[f->n].rel, sizeof(f->e[f->n].rel), "%s", rel);
	f->e[f->n].kind = kind;
	f->e[f->n].empty = empty;
	f->n++;
}

static int f_mkdir(void *arg, const char *rel)
{
	struct fake *f = arg;
	if (find(f, rel) >= 0)
		return EEXIST;
	f->mkdirs++;
	put(f, rel, TREE_DIR, 1);
	return 0;
}

static int f_kind(void *arg, const char *rel)
{
	int i = find(arg, rel);
	return i < 0 ? TREE_MISSING : ((struct fake *)arg)->e[i].kind;
}

static int f_empty(void *arg, const char *rel)
{
	int i = find(arg, rel);
	return i < 0 ? -ENOENT : ((struct fake *)arg)->e[i].empty;
}

static int f_rmdir(void *arg, const char *rel)
{
	struct fake *f = arg;
	int i = find(f, rel);
	if (i < 0)
		return ENOENT;
	f->e[i] = f->e[--f->n];
	f->rmdirs++;
	return 0;
}

static int claim(struct fake *f, unsigned n, struct tree_claim *c)
{
	struct tree_fs fs = { f, f_mkdir, f_kind, f_empty, f_rmdir };
	return trees_claim(&fs, n, "D", "test", c);
}

static void test_fresh(void **state)
{
	(void)state;
	struct fake f = { 0 };
	struct tree_claim c;
	assert_int_equal(claim(&f, 3, &c), 0);
	assert_int_equal(c.n, 3);
	assert_true(c.made_clients);
	assert_int_equal(f.mkdirs, 4);  /* clients and three trees */
	for (unsigned k = 0; k < 3; k++)
		assert_int_equal(c.kept[k], 0);
	trees_free(&c);
}

static void test_empty_kept(void **state)
{
	(void)state;
	struct fake f = { 0 };
	struct tree_claim c;
	put(&f, "clients", TREE_DIR, 0);
	put(&f, "clients/client1", TREE_DIR, 1);
	assert_int_equal(claim(&f, 2, &c), 0);
	assert_false(c.made_clients);
	assert_int_equal(c.kept[0], 0);
	assert_int_equal(c.kept[1], 1);
	trees_free(&c);
}

/* each refusal: exit 2, and what the claim made is taken back */
static void refused(int kind, int empty, int clients_kind)
{
	struct fake f = { 0 };
	struct tree_claim c;
	put(&f, "clients", clients_kind, 0);
	put(&f, "clients/client2", kind, empty);
	assert_int_equal(claim(&f, 4, &c), KB_EXIT_USAGE);
	assert_null(c.kept);
	assert_int_equal(c.n, 0);
	assert_int_equal(f.rmdirs, f.mkdirs);
	assert_int_equal(f.n, 2);  /* only what was there */
}

static void test_refusals(void **state)
{
	(void)state;
	refused(TREE_DIR, 0, TREE_DIR);     /* a tree that holds anything */
	refused(TREE_LINK, 1, TREE_DIR);    /* a symbolic link */
	refused(TREE_MOUNT, 1, TREE_DIR);   /* a mount point */
	refused(TREE_OTHER, 1, TREE_DIR);   /* a file */
	refused(TREE_DIR, 1, TREE_LINK);    /* DIR/clients a link */
	refused(TREE_DIR, 1, TREE_OTHER);   /* DIR/clients a file */
}

static void test_name(void **state)
{
	(void)state;
	char b[20];
	trees_client_name(b, 0);
	assert_string_equal(b, "client0");
	trees_client_name(b, 99999);
	assert_string_equal(b, "client99999");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fresh),
		cmocka_unit_test(test_empty_kept),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_name),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
