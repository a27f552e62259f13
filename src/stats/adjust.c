/* kbench - adjusted p-values (methods and sources in adjust.h)
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"
#include "stats/adjust.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

struct ranked {
	double p;
	size_t at;     /* its place in the caller's array */
};

static int by_p(const void *x, const void *y)
{
	const struct ranked *a = x, *b = y;
	if (a->p != b->p)
		return (a->p > b->p) - (a->p < b->p);
	return (a->at > b->at) - (a->at < b->at);
}

int p_adjust(const double *p, size_t m, enum p_adjust how, double *q)
{
	if (!m)
		return 0;
	struct ranked *s = malloc(m * sizeof(*s));
	if (!s)
		return -1;
	for (size_t i = 0; i < m; i++)
		s[i] = (struct ranked){ p[i], i };
	if (how == P_ADJ_NONE) {
		for (size_t i = 0; i < m; i++)
			q[i] = s[i].p;
		free(s);
		return 0;
	}
	qsort(s, m, sizeof(*s), by_p);
	double dm = (double)m;
	if (how == P_ADJ_BH) {
		/* from the largest down: the running minimum of m p(j) / j */
		double run = 1;
		for (size_t i = m; i-- > 0;) {
			run = fmin(run, dm * s[i].p / (double)(i + 1));
			s[i].p = run;
		}
	} else {
		/* from the smallest up: the running maximum of (m - j + 1) p(j) */
		double run = 0;
		for (size_t i = 0; i < m; i++) {
			run = fmax(run, fmin(1, (dm - (double)i) * s[i].p));
			s[i].p = run;
		}
	}
	for (size_t i = 0; i < m; i++)
		q[s[i].at] = s[i].p;
	free(s);
	return 0;
}

static const char *const names[] = { "bh", "holm", "none" };
static const char *const titles[] = { "Benjamini-Hochberg", "Holm", "none" };

const char *p_adjust_name(enum p_adjust how)
{
	return (unsigned)how < 3 ? names[how] : "?";
}

const char *p_adjust_title(enum p_adjust how)
{
	return (unsigned)how < 3 ? titles[how] : "?";
}

int p_adjust_parse(const char *word, enum p_adjust *how)
{
	for (unsigned i = 0; i < 3; i++)
		if (!strcmp(word, names[i])) {
			*how = (enum p_adjust)i;
			return 0;
		}
	return -1;
}
