/* kbench - compare: "same", "not proven", the detectable change, spread (see cmpsame.h)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Everything here reads verdicts cmp_adjust and the drift check made and
 * adds to them; it never turns a better or worse into anything else.
 * Two families are adjusted here, each as a whole: the equivalence tests
 * of the rows with no proven change, and the spread tests of every row.
 */
#include "config.h"
#include "compare/judge/cmpsame.h"
#include "stats/equiv.h"
#include "stats/modes.h"
#include "stats/spread.h"
#include "resultsfile/escape.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

double cmp_same_default(const struct cmp_row *r)
{
	const char *cmd = json_string_value(json_object_get(r->t[0]->params, "command"));
	return cmd && !strcmp(cmd, "micro") && !r->higher_is_better ? CMP_SAME_LATENCY :
	       CMP_SAME_THROUGHPUT;
}

static bool both_ran(const struct cmp_row *r, size_t k)
{
	return r->t[k] && r->t[k]->summarised && r->t[k]->n && r->t[0]->summarised && r->t[0]->n;
}

static bool proven(enum t_verdict v)
{
	return v == T_BETTER || v == T_WORSE;
}

/* The study's threshold for one more proven change (cmpsame.h). */
static double row_alpha(const struct cmp *c, size_t proven_n, bool in_family)
{
	double alpha = 1 - c->conf / 100;
	size_t m = c->ntested + !in_family;
	if (c->adjust == P_ADJ_NONE || m <= 1)
		return alpha;
	if (c->adjust == P_ADJ_HOLM)
		return alpha / (double)(m - proven_n);
	return (double)(proven_n + 1) * alpha / (double)m;
}

/* Row r, file k's smallest provable change at alpha, percent of A's center. */
static double detect_of(const struct cmp *c, const struct cmp_row *r, size_t k, double alpha)
{
	double x0 = fabs(cmp_center(c, r, 0)), half;
	if (!(x0 > 0))
		return NAN;
	if (c->method == CMP_UTEST)
		half = eq_detect_u(r->t[0]->v, r->t[0]->n, r->t[k]->v, r->t[k]->n, alpha);
	else
		half = eq_detect_welch(&r->s[0], &r->s[k], alpha);
	return 100 * half / x0;
}

static double same_p(const struct cmp *c, const struct cmp_row *r, size_t k, double margin_pct)
{
	double x0 = fabs(cmp_center(c, r, 0)), p = NAN, margin = margin_pct / 100 * x0;
	if (!(x0 > 0))
		return NAN;
	int rc = c->method == CMP_UTEST ?
		 eq_tost_u(r->t[0]->v, r->t[0]->n, r->t[k]->v, r->t[k]->n, margin, &p) :
		 eq_tost_welch(&r->s[0], &r->s[k], margin, &p);
	return rc == 0 ? p : NAN;
}

static void spread_of(struct cmp_row *r, size_t k)
{
	struct cmp_spread *s = &r->sp[k];
	struct spread_test bf;
	struct modes md;
	memset(s, 0, sizeof(*s));
	s->p = s->q = NAN;
	if (r->t[0]->n < 3 || r->t[k]->n < 3 ||
	    spread_bf(r->t[0]->v, r->t[0]->n, r->t[k]->v, r->t[k]->n, &bf) < 0)
		return;
	s->tested = true;
	s->p = bf.p;
	s->cov_a = r->s[0].cov_pct;
	s->cov = r->s[k].cov_pct;
	s->modes_a = modes_bimodal(r->t[0]->v, r->t[0]->n, &md) == 1;
	s->modes = modes_bimodal(r->t[k]->v, r->t[k]->n, &md) == 1;
}

/* Adjust the n values of v (pointers into the rows) together; q into qv. */
static int adjust_family(const struct cmp *c, double **v, double **qv, size_t n)
{
	double *p = calloc(n + 1, sizeof(double));
	if (!p)
		return -1;
	for (size_t j = 0; j < n; j++)
		p[j] = *v[j];
	int rc = p_adjust(p, n, c->adjust, p);
	for (size_t j = 0; !rc && j < n; j++)
		*qv[j] = p[j];
	free(p);
	return rc;
}

int cmp_same(struct cmp *c)
{
	size_t cap = c->nrows * c->nf + 1, ne = 0, ns = 0, np = 0;
	double **ep = malloc(cap * sizeof(double *)), **eq = malloc(cap * sizeof(double *));
	double **sp = malloc(cap * sizeof(double *)), **sq = malloc(cap * sizeof(double *));
	double alpha = 1 - c->conf / 100;
	int rc = ep && eq && sp && sq ? 0 : -1;
	for (size_t i = 0; i < c->nrows; i++)
		for (size_t k = 1; k < c->nf; k++)
			np += c->rows[i].t[k] && proven(c->rows[i].test_v[k]);
	for (size_t i = 0; !rc && i < c->nrows; i++)
		for (size_t k = 1; k < c->nf; k++) {
			struct cmp_row *r = &c->rows[i];
			r->same[k] = false;
			r->p_same[k] = r->q_same[k] = r->detect[k] = r->alpha_row[k] = NAN;
			r->sp[k] = (struct cmp_spread){ .p = NAN, .q = NAN };
			if (!both_ran(r, k))
				continue;
			r->same_pct[k] = c->same_within > 0 ? c->same_within : cmp_same_default(r);
			spread_of(r, k);
			if (r->sp[k].tested) {
				sp[ns] = &r->sp[k].p;
				sq[ns++] = &r->sp[k].q;
			}
			if (proven(r->test_v[k]))
				continue;
			r->alpha_row[k] = row_alpha(c, np, r->test_v[k] != T_TOO_FEW);
			/* too few runs for the test, or for it under the adjustment:
			 * these runs could prove no change */
			if (r->test_v[k] == T_TOO_FEW && (c->method == CMP_WELCH || r->adj_floor[k]))
				continue;
			r->detect[k] = detect_of(c, r, k, r->alpha_row[k]);
			if (r->test_v[k] != T_SAME)
				continue;
			r->p_same[k] = same_p(c, r, k, r->same_pct[k]);
			if (isnan(r->p_same[k]))
				continue;
			ep[ne] = &r->p_same[k];
			eq[ne++] = &r->q_same[k];
		}
	c->nsame = ne;
	c->nspread = ns;
	if (!rc)
		rc = adjust_family(c, ep, eq, ne);
	if (!rc)
		rc = adjust_family(c, sp, sq, ns);
	for (size_t i = 0; !rc && i < c->nrows; i++)
		for (size_t k = 1; k < c->nf; k++) {
			struct cmp_row *r = &c->rows[i];
			r->same[k] = r->v[k] == T_SAME && r->q_same[k] < alpha;
			r->sp[k].changed = r->sp[k].tested && r->sp[k].q < alpha;
		}
	free(ep);
	free(eq);
	free(sp);
	free(sq);
	return rc;
}

const char *cmp_verdict_key(const struct cmp_row *r, size_t k)
{
	switch (r->v[k]) {
	case T_TOO_FEW: return "too_few_runs";
	case T_SAME: return r->same[k] ? "same" : "not_proven";
	case T_BETTER: return "better";
	case T_WORSE: return "worse";
	case T_REFUSED: return "not_comparable";
	}
	return "?";
}

const char *cmp_same_word(const struct cmp_row *r, size_t k, bool lkml, char *buf, size_t n)
{
	if (r->same[k])
		snprintf(buf, n, "same +-%g%%", r->same_pct[k]);
	else
		snprintf(buf, n, "%s", lkml ? "not-proven" : "not proven");
	return buf;
}

const char *cmp_could_see(const struct cmp_row *r, size_t k, char *buf, size_t n)
{
	if (isfinite(r->detect[k]))
		snprintf(buf, n, "could see +-%.2f%%", r->detect[k]);
	else if (!isfinite(r->change[k]))
		snprintf(buf, n, "could see n/a");     /* A's figure is 0: no percentage */
	else
		snprintf(buf, n, "could see no change");
	return buf;
}

void cmp_print_same_line(FILE *out, const struct cmp *c)
{
	fprintf(out, "same: the change proven within +-PCT of A's %s by two one-sided tests "
		"(Schuirmann 1987, %s), %zu adjusted together the same way; PCT ", c->method ==
		CMP_UTEST ? "median" : "mean", c->method == CMP_UTEST ? "U tests on the runs" :
		"Welch's t", c->nsame);
	if (c->same_within > 0)
		fprintf(out, "%g%% (--same-within)", c->same_within);
	else
		fprintf(out, "%g%% (micro latencies) or %g%% (the rest; --same-within)",
			CMP_SAME_LATENCY, CMP_SAME_THROUGHPUT);
	fputs("; else not proven.  could see: the smallest change the runs could have proven "
	      "at the study's threshold for one more change\n", out);
}

void cmp_print_spread(FILE *out, const struct cmp *c)
{
	bool first = true;
	for (size_t i = 0; i < c->nrows; i++)
		for (size_t k = 1; k < c->nf; k++) {
			const struct cmp_row *r = &c->rows[i];
			const struct cmp_spread *s = &r->sp[k];
			if (!s->tested || (!s->changed && s->modes == s->modes_a))
				continue;
			fputs(first ? "\nspread: " : "spread: ", out);
			first = false;
			esc_put(out, r->name, 0);
			fprintf(out, " %c: CoV %.2f%% -> %.2f%%", (int)('A' + k), s->cov_a, s->cov);
			if (s->cov_a > 0)
				fprintf(out, " (x%.2f)", s->cov / s->cov_a);
			fprintf(out, ", Brown-Forsythe p=%.3g", s->p);
			if (c->adjust != P_ADJ_NONE && c->nspread > 1)
				fprintf(out, ", %s=%.3g", c->adjust == P_ADJ_BH ? "q" : "p_holm", s->q);
			fprintf(out, ": %s", s->changed ? (s->cov > s->cov_a ? "wider" : "narrower") :
				"not proven");
			if (s->modes != s->modes_a)
				fprintf(out, "; two clusters %s", s->modes ? "appeared" : "went");
			fputc('\n', out);
		}
}
