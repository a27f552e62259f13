/* kbench - compare: BYTE's INDEX VALUES side by side (see cmpbyte.h)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The rows are BYTE's titles, gathered from every file's tests in the
 * order first seen; a file's tool is its tests' params.tool (imported) or
 * kbench's own.  Strings from results files go through escape.h.
 */
#include "config.h"
#include "micro/byte/bytereport.h"
#include "micro/byte/byteindex.h"
#include "compare/forms/cmpbyte.h"
#include "compare/forms/cmpforms.h"
#include "resultsfile/escape.h"
#include "stats/utest.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define KBENCH_BYTE "kbench micro (BYTE's tests)"

struct bx_row {
	char title[160];
	double base;
	const struct sf_test *t[CMP_MAX_FILES];
};

static const char *param_str(const struct sf_test *t, const char *key)
{
	return json_string_value(json_object_get(t->params, key));
}

/* Test t's BYTE title and baseline, or 0 when it is not indexed. */
static double indexed(const struct sf_test *t, char *title, size_t n)
{
	const struct micro_test *bt = cmp_byte_test(t->name);
	double b = json_number_value(json_object_get(t->params, "baseline"));
	const char *own = param_str(t, "title");
	if (bt) {
		b = byte_baseline_value("byte4", t->name);
		snprintf(title, n, "%s", byte4_name(bt));
	} else if (b > 0 && own) {
		snprintf(title, n, "%s", own);
	} else {
		return 0;
	}
	return isfinite(b) && b > 0 ? b : 0;
}

/* The tool whose figures file k's indexed tests are. */
static const char *tool_of(const struct bx_row *rows, size_t n, size_t k)
{
	for (size_t i = 0; i < n; i++)
		if (rows[i].t[k]) {
			const char *tool = param_str(rows[i].t[k], "tool");
			return tool ? tool : KBENCH_BYTE;
		}
	return NULL;
}

/* The rows of every file's indexed tests into *out; how many (0 when out
 * of memory too). */
static size_t gather(const struct cmp *c, struct bx_row **out)
{
	size_t n = 0, cap = 0;
	struct bx_row *rows = NULL;
	for (size_t k = 0; k < c->nf; k++)
		for (size_t i = 0; i < c->f[k].nt; i++) {
			char title[160];
			const struct sf_test *t = &c->f[k].t[i];
			double b = indexed(t, title, sizeof(title));
			size_t j = 0;
			if (!b || !t->summarised)
				continue;
			while (j < n && (strcmp(rows[j].title, title) || rows[j].base != b))
				j++;
			if (j == n) {
				if (n == cap) {
					struct bx_row *m = realloc(rows, (cap = cap * 2 + 16) * sizeof(*m));
					if (!m) {
						free(rows);
						return 0;
					}
					rows = m;
				}
				memset(&rows[n], 0, sizeof(rows[n]));
				snprintf(rows[n].title, sizeof(rows[n].title), "%s", title);
				rows[n++].base = b;
			}
			if (!rows[j].t[k])
				rows[j].t[k] = t;
		}
	*out = rows;
	return n;
}

/* The score of run j of file k over every row; NAN when a row lacks it. */
static double run_score(const struct bx_row *rows, size_t n, size_t k, size_t j)
{
	double *v = malloc((n + 1) * sizeof(double));
	double s = NAN;
	size_t m = 0;
	for (size_t i = 0; v && i < n; i++) {
		const struct sf_test *t = rows[i].t[k];
		if (!t || t->n <= j)
			break;
		v[m++] = byte_index(t->v[j], rows[i].base);
	}
	if (v && m == n)
		s = byte_geomean(v, m);
	free(v);
	return s;
}

static size_t run_scores(const struct bx_row *rows, size_t n, size_t k, double *out, size_t max)
{
	size_t m = 0;
	for (size_t j = 0; j < max; j++) {
		double s = run_score(rows, n, k, j);
		if (!isfinite(s))
			break;
		out[m++] = s;
	}
	return m;
}

/* The score of file k from the medians; NAN unless it has every row. */
static double file_score(const struct bx_row *rows, size_t n, size_t k)
{
	double *v = malloc((n + 1) * sizeof(double));
	double s = NAN;
	size_t m = 0;
	for (size_t i = 0; v && i < n; i++)
		if (rows[i].t[k])
			v[m++] = byte_index(rows[i].t[k]->sum.median, rows[i].base);
	if (v && m == n)
		s = byte_geomean(v, m);
	free(v);
	return s;
}

/* The score file k's report printed ("FINAL SCORE", BYTE 3's "AVERAGE":
 * an imported row of unit "index"), its median; NAN when it has none.
 * Where every file's report printed its score, those are the figures set
 * against each other (the table's row of them says the same change):
 * kbench's working from the index values is shown beside them, not
 * compared a second time. */
static double printed_score(const struct cmp *c, size_t k)
{
	for (size_t i = 0; i < c->f[k].nt; i++) {
		const struct sf_test *t = &c->f[k].t[i];
		const char *title = param_str(t, "title");
		if (t->summarised && t->unit && !strcmp(t->unit, "index") && title &&
		    (!strcmp(title, "FINAL SCORE") || !strcmp(title, "AVERAGE")))
			return t->sum.median;
	}
	return NAN;
}

static void score_verdicts(FILE *out, const struct cmp *c, const struct bx_row *rows, size_t n,
			   const double *score)
{
	double a[256], b[256];
	size_t na = run_scores(rows, n, 0, a, 256), few = 0;
	char fewer[CMP_MAX_FILES * 4] = "";
	const char *ta = tool_of(rows, n, 0);
	for (size_t k = 1; k < c->nf; k++) {
		size_t nb = run_scores(rows, n, k, b, 256);
		const char *tk = tool_of(rows, n, k);
		struct u_result u;
		double alpha = 1 - c->conf / 100;
		fprintf(out, "  %c against A: ", (int)('A' + k));
		if (!isfinite(score[k]) || !isfinite(score[0])) {
			fputs("no score\n", out);
			continue;
		}
		fprintf(out, "%+.2f%%  ", 100 * (score[k] - score[0]) / score[0]);
		if (ta && tk && strcmp(ta, tk)) {
			fputs("different tools: no verdict\n", out);
		} else if (!na || !nb || u_test(a, na, b, nb, &u) < 0 || u.p_min > alpha) {
			fprintf(out, "too few runs\n");
			snprintf(fewer + strlen(fewer), sizeof(fewer) - strlen(fewer), "%s%c",
				 few++ ? ", " : "", (int)('A' + k));
		} else if (!(u.p < alpha)) {
			fprintf(out, "~ (p=%.3f, %zu and %zu runs)\n", u.p, na, nb);
		} else {
			fprintf(out, "%s (p=%.3f, %zu and %zu runs)\n", u.b_larger ? "better" : "worse",
				u.p, na, nb);
		}
	}
	if (few)
		fprintf(out, "  (too few runs for the U test at %g%% against A: %s; %zu score%s of "
			"A's runs)\n", c->conf, fewer, na, na == 1 ? "" : "s");
}

/* The tools of the files, when they are not all one: a line each. */
static void tools_note(FILE *out, const struct cmp *c, const struct bx_row *rows, size_t n)
{
	const char *ta = tool_of(rows, n, 0);
	bool mixed = false;
	for (size_t k = 1; k < c->nf; k++) {
		const char *tk = tool_of(rows, n, k);
		mixed |= ta && tk && strcmp(ta, tk);
	}
	if (!mixed)
		return;
	fputs("(from different tools: the index sets them side by side by BYTE's baselines, as "
	      "BYTE meant for machines; a change between tools is no kernel's alone)\n", out);
	for (size_t k = 0; k < c->nf; k++) {
		const char *tk = tool_of(rows, n, k);
		fprintf(out, "  %c: ", (int)('A' + k));
		esc_put(out, tk ? tk : "no indexed test", 0);
		fputc('\n', out);
	}
}

size_t cmp_print_byte_index(FILE *out, const struct cmp *c)
{
	struct bx_row *rows = NULL;
	size_t n = gather(c, &rows), w = 4, scored = 0;
	double score[CMP_MAX_FILES];
	if (!n)
		return 0;
	for (size_t i = 0; i < n; i++)
		w = esc_len(rows[i].title) > w ? esc_len(rows[i].title) : w;
	fprintf(out, "\nINDEX VALUES (BYTE: INDEX = RESULT / BASELINE x 10, RESULT the median of "
		"each file's runs)\n");
	tools_note(out, c, rows, n);
	fprintf(out, "%-*s %10s", (int)w, "TEST", "BASELINE");
	for (size_t k = 0; k < c->nf; k++) {
		char res[16], idx[16];
		snprintf(res, sizeof(res), "%c RESULT", (int)('A' + k));
		snprintf(idx, sizeof(idx), "%c INDEX", (int)('A' + k));
		fprintf(out, "  %12s %7s", res, idx);
	}
	fputc('\n', out);
	for (size_t i = 0; i < n; i++) {
		esc_put(out, rows[i].title, w);
		fprintf(out, " %10.1f", rows[i].base);
		for (size_t k = 0; k < c->nf; k++) {
			const struct sf_test *t = rows[i].t[k];
			if (t)
				fprintf(out, "  %12.1f %7.1f", t->sum.median,
					byte_index(t->sum.median, rows[i].base));
			else
				fprintf(out, "  %12s %7s", "-", "-");
		}
		fputc('\n', out);
	}
	fprintf(out, "=========\n%-*s %10s", (int)w, "FINAL SCORE", "");
	/* the printed scores when every file has one (the table's row of
	 * them then says the same change), else kbench's working for all:
	 * one method across the line */
	double worked[CMP_MAX_FILES], printed[CMP_MAX_FILES];
	size_t nprinted = 0;
	for (size_t k = 0; k < c->nf; k++) {
		printed[k] = printed_score(c, k);
		worked[k] = file_score(rows, n, k);
		nprinted += isfinite(printed[k]);
	}
	if (nprinted < c->nf)
		nprinted = 0;
	for (size_t k = 0; k < c->nf; k++) {
		score[k] = nprinted ? printed[k] : worked[k];
		scored += isfinite(score[k]);
		if (isfinite(score[k]))
			fprintf(out, "  %12s %7.1f%s", "", score[k], nprinted ? "*" : "");
		else
			fprintf(out, "  %12s %7s", "", "-");
	}
	fputc('\n', out);
	if (nprinted) {
		fputs("  (* as the report printed it; kbench's working from the index values above:", out);
		for (size_t k = 0; k < c->nf; k++) {
			if (isfinite(worked[k]))
				fprintf(out, " %c %.1f", (int)('A' + k), worked[k]);
			else
				fprintf(out, " %c -", (int)('A' + k));
		}
		fputs(")\n", out);
	}
	score_verdicts(out, c, rows, n, score);
	free(rows);
	return scored;
}
