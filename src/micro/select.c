/* kbench - micro: the tests by name and by family (select.h)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Both tables walked as one list, in their order (lmbench's, then
 * BYTE's): lookup by name, the family words, --list, and the tests a
 * command line chooses, each once.
 */
#include "config.h"
#include "micro/place.h"
#include "micro/select.h"
#include "cli.h"
#include "micro/byte/byte.h"
#include "micro/lmbench/lmbench.h"

#include <stdlib.h>
#include <string.h>

static const struct micro_test *const tables[] = { micro_lmbench_tests, micro_byte_tests };
#define NTABLES (sizeof(tables) / sizeof(tables[0]))

int micro_family_word(const char *word)
{
	if (!word)
		return MICRO_FAMILY_NONE;
	if (!strcmp(word, "lmbench"))
		return MICRO_LMBENCH;
	if (!strcmp(word, "byte"))
		return MICRO_BYTE;
	if (!strcmp(word, "all"))
		return MICRO_FAMILY_ALL;
	return MICRO_FAMILY_NONE;
}

const char *micro_family_name(enum micro_family f)
{
	return f == MICRO_BYTE ? "byte" : "lmbench";
}

const struct micro_test *micro_find_test(const char *name)
{
	for (size_t k = 0; k < NTABLES; k++)
		for (const struct micro_test *t = tables[k]; t->name; t++)
			if (!strcmp(t->name, name))
				return t;
	return NULL;
}

/* Whether t is a placed row of the test called base (base + "_" + its
 * placement's suffix). */
static int placed_row_of(const struct micro_test *t, const char *base)
{
	size_t n = strlen(base);
	return t->place != MICRO_PLACE_NONE && !strncmp(t->name, base, n) && t->name[n] == '_' &&
	       !strcmp(t->name + n + 1, place_suffix(t->place));
}

static int in_family(const struct micro_test *t, int fam)
{
	return fam == MICRO_FAMILY_ALL || (int)t->family == fam;
}

void micro_list_tests(FILE *f, int family)
{
	fprintf(f, "%-20s %-7s %-5s %s\n", "TEST", "FAMILY", "UNIT", "WHAT (METHOD)");
	for (size_t k = 0; k < NTABLES; k++)
		for (const struct micro_test *t = tables[k]; t->name; t++)
			if (in_family(t, family))
				fprintf(f, "%-20s %-7s %-5s %s (%s)\n", t->name,
					micro_family_name(t->family), t->unit, t->what, t->method);
}

void micro_list_names(FILE *f)
{
	fprintf(f, "valid tests:\n");
	for (size_t k = 0; k < NTABLES; k++) {
		int col = 0;
		for (const struct micro_test *t = tables[k]; t->name; t++) {
			int len = (int)strlen(t->name) + 1;
			if (col && col + len > 78) {
				fputc('\n', f);
				col = 0;
			}
			col += fprintf(f, "%s%s", col ? " " : "  ", t->name);
		}
		if (col)
			fputc('\n', f);
	}
	fprintf(f, "and the families: lmbench byte all\n");
}

/* t onto sel unless it is there already. */
static void add_once(const struct micro_test **sel, size_t *n, const struct micro_test *t)
{
	for (size_t i = 0; i < *n; i++)
		if (sel[i] == t)
			return;
	sel[(*n)++] = t;
}

static int other_family(const char *cmd, const char *name, const char *its, const char *fam_word)
{
	return cli_usage_error(cmd, "test '%s' is in the %s family, not %s", name, its, fam_word);
}

/* One command-line word onto sel.  Returns 0, or KB_EXIT_USAGE (said). */
static int choose_word(const char *cmd, int fam, const char *fam_word, const char *w,
		       const struct micro_test **sel, size_t *n)
{
	int wf = micro_family_word(w);
	if (wf != MICRO_FAMILY_NONE) {
		if (fam != MICRO_FAMILY_ALL && wf != fam)
			return cli_usage_error(cmd, "family '%s' is not within --family %s", w,
					       fam_word);
		for (size_t k = 0; k < NTABLES; k++)
			for (const struct micro_test *t = tables[k]; t->name; t++)
				if (in_family(t, wf))
					add_once(sel, n, t);
		return 0;
	}
	const struct micro_test *t = micro_find_test(w);
	size_t rows = 0;
	/* a placed test's own name: every placement's row */
	for (size_t k = 0; !t && k < NTABLES; k++)
		for (const struct micro_test *u = tables[k]; u->name; u++)
			if (placed_row_of(u, w)) {
				if (!in_family(u, fam))
					return other_family(cmd, w, micro_family_name(u->family),
							    fam_word);
				add_once(sel, n, u);
				rows++;
			}
	if (rows)
		return 0;
	for (size_t k = 0; !t && lm_absent_tests[k]; k++)
		if (!strcmp(lm_absent_tests[k], w))
			return cli_usage_error(cmd, "test '%s': %s", w, lm_absent_why);
	if (!t) {
		fprintf(stderr, "%s: unknown test '%s'\n", cmd, w);
		micro_list_names(stderr);
		return KB_EXIT_USAGE;
	}
	if (!in_family(t, fam))
		return other_family(cmd, t->name, micro_family_name(t->family), fam_word);
	add_once(sel, n, t);
	return 0;
}

int micro_choose(const char *cmd, int fam, const char *fam_word, const char **args,
		 const struct micro_test ***sel, size_t *n)
{
	size_t total = 0;
	for (size_t k = 0; k < NTABLES; k++)
		for (const struct micro_test *t = tables[k]; t->name; t++)
			total++;
	/* each test at most once */
	const struct micro_test **s = calloc(total + 1, sizeof(*s));
	*sel = s;
	*n = 0;
	if (!s) {
		fprintf(stderr, "%s: out of memory\n", cmd);
		return KB_EXIT_FAIL;
	}
	if (!args || !args[0])
		return choose_word(cmd, fam, fam_word, fam == MICRO_BYTE ? "byte" :
				   fam == MICRO_LMBENCH ? "lmbench" : "all", s, n);
	for (size_t i = 0; args[i]; i++) {
		int rc = choose_word(cmd, fam, fam_word, args[i], s, n);
		if (rc)
			return rc;
	}
	return 0;
}
