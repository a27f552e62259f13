/* kbench - compare --base: the named file made A (see cmpbase.h)
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"
#include "compare/judge/cmpbase.h"

#include <string.h>

/* 0 path, 1 label, 2 kernel: how file f is named by base, or -1 */
static int named(const struct suitefile *f, const char *base)
{
	const char *label = json_string_value(json_object_get(f->doc, "label"));
	if (!strcmp(f->path, base))
		return 0;
	if (label && !strcmp(label, base))
		return 1;
	return strcmp(suitefile_sys(f, "kernel"), base) ? -1 : 2;
}

long cmp_rebase(struct suitefile *f, size_t nf, const char *base)
{
	for (int how = 0; how < 3; how++)
		for (size_t k = 0; k < nf; k++) {
			if (named(&f[k], base) != how)
				continue;
			struct suitefile x = f[k];
			memmove(f + 1, f, k * sizeof(*f));
			f[0] = x;
			return (long)k;
		}
	return -1;
}
