/* kbench - compare: the readers of the comparison's data (see cmprow.h)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * How a test of one file is found in another (cmp_find_test), whether a
 * file's test was compared at all (cmp_matched), and the figure a row's
 * change is of (cmp_center): what both compare.c, building the rows, and
 * the printers, reading them, need.
 */
#include "config.h"
#include "compare/judge/cmprow.h"

#include <ctype.h>
#include <string.h>

/* The length of name without a trailing " mem=none" (no memory limit is
 * what a name without the dimension says too). */
static size_t canon_len(const char *name)
{
	static const char none[] = " mem=none";
	size_t n = strlen(name), k = sizeof(none) - 1;
	return n > k && !strcmp(name + n - k, none) ? n - k : n;
}

bool cmp_same_name(const char *a, const char *b)
{
	size_t n = canon_len(a);
	return n == canon_len(b) && !strncmp(a, b, n);
}

static const struct sf_test *find_test_exact(const struct suitefile *f, const char *name,
					     const char *unit)
{
	for (size_t i = 0; i < f->nt; i++)
		if (!strcmp(f->t[i].name, name) && !strcmp(f->t[i].unit, unit))
			return &f->t[i];
	for (size_t i = 0; i < f->nt; i++)
		if (cmp_same_name(f->t[i].name, name) && !strcmp(f->t[i].unit, unit))
			return &f->t[i];
	return NULL;
}

/* The length of a test's name without its memory-limit dimension
 * (" mem=32M", added by kbench suite --mem-limit). */
static size_t base_len(const char *name)
{
	const char *m = strstr(name, " mem=");
	return m ? (size_t)(m - name) : strlen(name);
}

/* How many tests of f have the base name of name (see base_len) and unit;
 * the last one in *last. */
static size_t count_base(const struct suitefile *f, const char *name, const char *unit,
			 const struct sf_test **last)
{
	size_t n = 0, len = base_len(name);
	for (size_t i = 0; i < f->nt; i++)
		if (base_len(f->t[i].name) == len && !strncmp(f->t[i].name, name, len) &&
		    !strcmp(f->t[i].unit, unit)) {
			n++;
			*last = &f->t[i];
		}
	return n;
}

/* How many tests of f have name (cmp_same_name), in any unit; the last
 * one in *last. */
static size_t count_name(const struct suitefile *f, const char *name, const struct sf_test **last)
{
	size_t n = 0;
	for (size_t i = 0; i < f->nt; i++)
		if (cmp_same_name(f->t[i].name, name)) {
			n++;
			*last = &f->t[i];
		}
	return n;
}

/* cmprow.h: the same name and unit, or the one test differing only in
 * the memory limit */
const struct sf_test *cmp_find_test(const struct suitefile *f, const struct suitefile *from,
				    const char *name, const char *unit)
{
	const struct sf_test *t = find_test_exact(f, name, unit), *own = NULL;
	if (t)
		return t;
	if (count_base(f, name, unit, &t) == 1 && count_base(from, name, unit, &own) == 1 &&
	    !find_test_exact(from, t->name, unit))
		return t;
	/* the one test of that name in each file, in another unit: the same
	 * test recorded otherwise, which the row names as not comparable
	 * (cmp_test_caveats), rather than two tests each "only in" its file */
	if (count_name(f, name, &t) == 1 && count_name(from, name, &own) == 1)
		return t;
	return NULL;
}

double cmp_center(const struct cmp *c, const struct cmp_row *r, size_t k)
{
	return c->method == CMP_UTEST ? r->s[k].median : r->s[k].mean;
}

bool cmp_matched(const struct cmp *c, size_t k, const struct sf_test *t, size_t *where)
{
	*where = k;
	if (k == 0) {
		for (size_t j = 1; j < c->nf; j++)
			if (cmp_find_test(&c->f[j], &c->f[0], t->name, t->unit))
				return true;
		return false;
	}
	if (cmp_find_test(&c->f[0], &c->f[k], t->name, t->unit))
		return true;
	for (size_t j = 1; j < c->nf; j++)
		if (j != k && cmp_find_test(&c->f[j], &c->f[k], t->name, t->unit)) {
			*where = j;
			break;
		}
	return false;
}

const char *cmp_machine(const struct suitefile *f)
{
	const char *d = suitefile_sys(f, "description");
	return *d ? d : suitefile_sys(f, "hostname");
}

static const char *label_of(const struct suitefile *f)
{
	const char *l = json_string_value(json_object_get(f->doc, "label"));
	return l && *l ? l : NULL;
}

/* Does label hold kernel, letters and digits alone compared (kbench
 * import's names drop a release's blanks and brackets: "2.4.0-pre +
 * diff(153 bytes)" is in "2.4.0-pre_+_diff_153_bytes")? */
static bool holds(const char *label, const char *kernel)
{
	char a[512], b[512];
	size_t m = 0, n = 0;
	for (const char *p = label; *p && m + 1 < sizeof(a); p++)
		if (isalnum((unsigned char)*p))
			a[m++] = (char)tolower((unsigned char)*p);
	for (const char *p = kernel; *p && n + 1 < sizeof(b); p++)
		if (isalnum((unsigned char)*p))
			b[n++] = (char)tolower((unsigned char)*p);
	a[m] = b[n] = 0;
	return n && strstr(a, b);
}

const char *cmp_file_label(const struct suitefile *f, size_t nf, size_t k)
{
	const char *label = label_of(&f[k]), *kernel = suitefile_sys(&f[k], "kernel");
	bool shared = false;
	if (!label)
		return NULL;
	for (size_t j = 0; j < nf; j++)
		shared |= j != k && label_of(&f[j]) && !strcmp(label_of(&f[j]), label);
	if (!shared && (!*kernel || !holds(label, kernel)))
		return label;
	for (size_t j = 0; j < nf; j++) {
		const char *other = label_of(&f[j]);
		if (j != k && !strcmp(suitefile_sys(&f[j], "kernel"), kernel) &&
		    !strcmp(cmp_machine(&f[j]), cmp_machine(&f[k])) && (!other || strcmp(other, label)))
			return label;
	}
	return NULL;
}

const char *cmp_method_name(enum cmp_method m)
{
	return m == CMP_UTEST ? "utest" : "welch";
}
