/* kbench - micro: the tests by name and by family, for kbench micro
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The two tables (lmbench.h, byte.h) as one list: a test by its name, the
 * family words (lmbench, byte, all) that stand for every test of a family
 * on the command line, --list's table, and the tests a command line
 * chooses.
 */
#ifndef KBENCH_MICRO_SELECT_H
#define KBENCH_MICRO_SELECT_H

#include "micro/test.h"

#include <stdio.h>

/* what micro_family_word() returns for "all" */
#define MICRO_FAMILY_ALL (-1)
/* what it returns for a word that names no family */
#define MICRO_FAMILY_NONE (-2)

/* The family a word names: MICRO_LMBENCH for "lmbench", MICRO_BYTE for
 * "byte", MICRO_FAMILY_ALL for "all", MICRO_FAMILY_NONE for anything else
 * (NULL too). */
int micro_family_word(const char *word);

/* The family's name as the command line and the JSON say it: "lmbench"
 * or "byte". */
const char *micro_family_name(enum micro_family f);

/* The test called name, or NULL when no table has it. */
const struct micro_test *micro_find_test(const char *name);

/* --list's table to f: heading, then a line per test of family (an enum
 * micro_family, or MICRO_FAMILY_ALL for both): name, family, unit, what
 * (method). */
void micro_list_tests(FILE *f, int family);

/* "valid tests:" and every test's name, wrapped at 78 columns, to f;
 * then the family words. */
void micro_list_names(FILE *f);

/* The tests args names (NULL or NULL-ended), in order, into *sel (malloc'd,
 * NULL-ended; *n of them): a test's name gives its row, a placed test's
 * base name (lat_pipe) each of its placements' rows, a family word every
 * test of that family; a test named twice (itself and through its family)
 * runs once.  No args: every test of fam (an enum micro_family, or
 * MICRO_FAMILY_ALL).  fam_word is --family as given (NULL: none), named in
 * errors.  Returns 0; 2 (KB_EXIT_USAGE) after one line on stderr prefixed
 * with cmd for an unknown name (the valid names follow) or a test or
 * family outside fam; 1 when out of memory (said). */
int micro_choose(const char *cmd, int fam, const char *fam_word, const char **args,
		 const struct micro_test ***sel, size_t *n);

#endif
