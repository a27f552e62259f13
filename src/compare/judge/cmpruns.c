/* kbench - compare: how many runs a row has, and how many it would need
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * "too few runs" should say how many would do: printed after the table
 * (one line a row and file) and given in --json.  What the runs of the
 * other rows could see is worked out in cmpsame.c and shown in the
 * verdict itself.
 */
#include "config.h"
#include "stats/ttest.h"
#include "stats/utest.h"
#include "compare/judge/cmpruns.h"
#include "resultsfile/escape.h"

#include <math.h>

double cmp_detectable_pct(const struct cmp *c, const struct cmp_row *r, size_t k)
{
	(void)c;
	if (k == 0 || !r->t[k] || r->v[k] == T_BETTER || r->v[k] == T_WORSE)
		return NAN;
	return r->detect[k];
}

size_t cmp_runs_needed(const struct cmp *c, const struct cmp_row *r, size_t k)
{
	if (k == 0 || r->v[k] != T_TOO_FEW || !r->t[k] || !r->t[k]->n || !r->t[0]->n)
		return 0;
	if (r->need[k])
		return r->need[k];
	return c->method == CMP_UTEST ? u_runs_needed(c->conf) : T_MIN_RUNS;
}

/* Does row i, file k give the same "too few runs" line as row i0, file k0
 * (the same file, runs needed and runs a side)? */
static bool same_few(const struct cmp *c, size_t i, size_t k, size_t i0, size_t k0)
{
	const struct cmp_row *r = &c->rows[i], *r0 = &c->rows[i0];
	size_t need = cmp_runs_needed(c, r, k);
	return need && k == k0 && need == cmp_runs_needed(c, r0, k0) && r->t[0]->n == r0->t[0]->n &&
	       r->t[k]->n == r0->t[k0]->n;
}

/* The "too few runs" line of row i, file k, with every later row that
 * gives the same one (their names, at most three, then how many more);
 * false when an earlier row gave it. */
static bool print_few(FILE *out, const struct cmp *c, size_t i, size_t k, bool *first)
{
	const struct cmp_row *r = &c->rows[i];
	size_t need = cmp_runs_needed(c, r, k), same = 0, shown = 0;
	for (size_t j = 0; j < i; j++)
		if (same_few(c, j, k, i, k))
			return false;
	for (size_t j = i; j < c->nrows; j++)
		same += same_few(c, j, k, i, k);
	fputs(*first ? "\nruns: " : "runs: ", out);
	*first = false;
	if (same > 1)
		fprintf(out, "%zu tests ", same);
	else
		esc_put(out, r->name, 0);
	bool adj = c->method == CMP_UTEST && c->adjust != P_ADJ_NONE &&
		   need != u_runs_needed(c->conf);
	fprintf(out, "%s%c: too few runs: %s needs %zu runs a side at %g%%%s%s (A has %zu, %c %zu%s)",
		same > 1 ? "" : " ", (int)('A' + k), c->method == CMP_UTEST ? "the U test" :
		"Welch's t-test", need, c->conf, adj ? " under " : "",
		adj ? p_adjust_title(c->adjust) : "", r->t[0]->n, (int)('A' + k), r->t[k]->n,
		same > 1 ? ", each" : "");
	for (size_t j = i; same > 1 && j < c->nrows; j++) {
		if (!same_few(c, j, k, i, k))
			continue;
		if (shown++ == 3) {
			fprintf(out, " and %zu more", same - 3);
			break;
		}
		fputs(shown == 1 ? ": " : ", ", out);
		esc_put(out, c->rows[j].name, 0);
	}
	fputc('\n', out);
	return true;
}

void cmp_print_runs_needed(FILE *out, const struct cmp *c)
{
	bool first = true;
	for (size_t i = 0; i < c->nrows; i++) {
		const struct cmp_row *r = &c->rows[i];
		for (size_t k = 1; k < c->nf; k++) {
			if (cmp_runs_needed(c, r, k))
				print_few(out, c, i, k, &first);
		}
	}
}
