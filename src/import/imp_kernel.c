/* kbench - import: what proves a kernel, and what is prose
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * See imp_kernel.h.  A figure pooled with another kernel's is worse than
 * a figure left out, so a version is a kernel only where the words
 * around it can say so, and a report's own wording of its kernel lines
 * is kept where it is the only thing that tells two systems apart.
 */
#include "config.h"
#include "import/imp_kernel.h"
#include "import/imp_util.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

/* The line's words without quote marks, blanks and a closing ':' or '-'. */
static void wording(const char *l, char *out, size_t n)
{
	size_t len = strlen(l);
	while (len && strchr(" \t:-", l[len - 1]))
		len--;
	imp_trim_copy(out, n, l, len);
}

void imp_kernels_scan(const struct imp_file *f, struct imp_kernels *k)
{
	char seen[2][8][160];
	memset(k, 0, sizeof(*k));
	for (size_t ln = 1; ln <= f->nlines; ln++) {
		const char *l = f->line[ln - 1];
		char copy[512], *w[64], kw[160];
		size_t q = (f->flag[ln - 1] & IMP_LINE_QUOTED) != 0;
		if (!strncmp(l, "Subject:", 8))
			continue;
		snprintf(copy, sizeof(copy), "%s", l);
		size_t n = imp_words(copy, w, 64);
		for (size_t i = 0; i < n; i++) {
			bool dup = false;
			if (!imp_kernel_word(w[i], kw, sizeof(kw)) || imp_version_owned(w, i))
				continue;
			for (size_t j = 0; j < k->n[q] && j < 8; j++)
				dup |= !strcmp(seen[q][j], kw);
			if (dup)
				continue;
			if (k->n[q] < 8)
				snprintf(seen[q][k->n[q]], sizeof(seen[0][0]), "%s", kw);
			if (!k->n[q])
				snprintf(k->first[q], sizeof(k->first[0]), "%s", kw);
			k->n[q]++;
		}
	}
}

void imp_kernels_heads(struct imp_kernels *k, const char *l)
{
	struct imp_sys s;
	if (k->nlines == IMP_KLINES || !strncmp(l, "Subject:", 8) || !imp_kernel_line(l, &s) ||
	    s.build[0])
		return;
	snprintf(k->line[k->nlines].kernel, sizeof(k->line[0].kernel), "%s", s.kernel);
	wording(l, k->line[k->nlines].words, sizeof(k->line[0].words));
	k->nlines++;
}

bool imp_kernel_worded(const struct imp_kernels *k, const char *kernel)
{
	const char *first = NULL;
	for (size_t i = 0; i < k->nlines; i++) {
		if (strcmp(k->line[i].kernel, kernel))
			continue;
		if (!first)
			first = k->line[i].words;
		else if (strcasecmp(first, k->line[i].words))
			return true;
	}
	return false;
}

/* A word of letters alone, a closing mark of punctuation allowed (':'
 * only at the line's end: "MemFree:" is a key, not a word). */
static bool letters_word(const char *w, bool last)
{
	size_t len = strlen(w), j = 0;
	if (len && strchr(".,;!?)", w[len - 1]))
		len--;
	else if (len && w[len - 1] == ':' && last)
		len--;
	while (j < len && (isalpha((unsigned char)w[j]) || (j && w[j] == '\'')))
		j++;
	return len && j == len;
}

bool imp_prose_line(const char *l)
{
	char copy[512], *w[64];
	snprintf(copy, sizeof(copy), "%s", l);
	size_t n = imp_words(copy, w, 64), alpha = 0;
	if (n < 3)
		return false;
	/* a command or the shell's time line: "dbench 16  11.72s user ..." */
	const char *cmd = strrchr(w[0], '/') ? strrchr(w[0], '/') + 1 : w[0];
	static const char *const tools[] = { "dbench", "tbench", "hdparm", "time", "lmbench" };
	for (size_t k = 0; k < sizeof(tools) / sizeof(tools[0]); k++)
		if (!strcmp(cmd, tools[k]))
			return false;
	for (size_t i = 0; i < n; i++)
		alpha += letters_word(w[i], i + 1 == n);
	return alpha >= 3 && 2 * alpha >= n;
}

bool imp_summary_heading(const char *l, char *out, size_t n)
{
	static const char *const means[] = { "average", "avg", "mean", "median" };
	const char *colon = strchr(l, ':');
	char copy[256], *w[8];
	double v;
	if (!colon || colon == l || strlen(colon) >= sizeof(copy))
		return false;
	snprintf(copy, sizeof(copy), "%s", colon + 1);
	size_t nw = imp_words(copy, w, 8), k = 0;
	if (nw < 2 || nw > 3 || !imp_number(w[1], &v))
		return false;
	while (k < sizeof(means) / sizeof(means[0]) && strcasecmp(w[0], means[k]))
		k++;
	if (k == sizeof(means) / sizeof(means[0]) || (nw == 3 && !strchr(w[2], '/')))
		return false;  /* "NAME: average 12.3 MB/sec": a rate's unit, or none */
	char name[160];
	imp_trim_copy(name, sizeof(name), l, (size_t)(colon - l));
	snprintf(copy, sizeof(copy), "%s", name);
	size_t words = imp_words(copy, w, 8);
	if (!name[0] || words > 6 || strlen(name) >= n)
		return false;
	for (size_t i = 0; i < words; i++)
		if (imp_number(w[i], &v))
			return false;
	snprintf(out, n, "%s", name);
	return true;
}
