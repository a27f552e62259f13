/* kbench - compare: how many runs a row has, and how many it would need
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A "~" says no change was proven, not that there is none: how large a
 * change these runs could have shown depends on their spread and count.
 * And "too few runs" should say how many would do.  Both are printed
 * after the table (one line a row and file) and given in --json.
 */
#include "config.h"
#include "stats/ttest.h"
#include "stats/utest.h"
#include "compare/cmpruns.h"
#include "suite/escape.h"

#include <math.h>

double cmp_detectable_pct(const struct cmp *c, const struct cmp_row *r, size_t k)
{
	struct t_diff d;
	if (k == 0 || r->v[k] != T_SAME || !r->t[k] ||
	    t_welch(&r->s[0], &r->s[k], c->conf, &d) < 0)
		return NAN;
	return d.pct_half;
}

size_t cmp_runs_needed(const struct cmp *c, const struct cmp_row *r, size_t k)
{
	if (k == 0 || r->v[k] != T_TOO_FEW || !r->t[k] || !r->t[k]->n || !r->t[0]->n)
		return 0;
	return c->method == CMP_UTEST ? u_runs_needed(c->conf) : T_MIN_RUNS;
}

void cmp_print_runs_needed(FILE *out, const struct cmp *c)
{
	bool first = true;
	for (size_t i = 0; i < c->nrows; i++) {
		const struct cmp_row *r = &c->rows[i];
		for (size_t k = 1; k < c->nf; k++) {
			double pct = cmp_detectable_pct(c, r, k);
			size_t need = cmp_runs_needed(c, r, k);
			if (isnan(pct) && !need)
				continue;
			fputs(first ? "\nruns: " : "runs: ", out);
			first = false;
			esc_put(out, r->name, 0);
			if (need)
				fprintf(out, " %c: too few runs: %s needs %zu runs a side at %g%% "
					"(A has %zu, %c %zu)\n", (int)('A' + k),
					c->method == CMP_UTEST ? "the U test" : "Welch's t-test", need,
					c->conf, r->t[0]->n, (int)('A' + k), r->t[k]->n);
			else
				fprintf(out, " %c: ~: the smallest change these %zu and %zu runs could "
					"show at %g%% is +-%.2f%% of A's mean (the half-width of the "
					"difference's interval)\n", (int)('A' + k), r->t[0]->n,
					r->t[k]->n, c->conf, pct);
		}
	}
}
