/* kbench - compare: BYTE's INDEX VALUES side by side (see cmpbyte.h)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The rows are BYTE's titles, gathered from every file's tests in the
 * order first seen; a file's tool is its tests' params.tool (imported) or
 * kbench's own.  Strings from results files go through escape.h.
 */
#include "config.h"
#include "micro/byte/byte.h"
#include "micro/byte/bytereport.h"
#include "micro/byte/byteindex.h"
#include "compare/forms/cmpbyte.h"
#include "compare/forms/cmpforms.h"
#include "resultsfile/escape.h"
#include "compare/judge/cmpcav.h"
#include "compare/judge/cmpsame.h"
#include "result/caveat.h"
#include "resultsfile/rowcav.h"
#include "stats/equiv.h"
#include "stats/summary.h"
#include "stats/ttest.h"
#include "stats/utest.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define KBENCH_BYTE "kbench micro (BYTE's tests)"

struct bx_row {
	char title[160];
	double base;
	const struct sf_test *t[CMP_MAX_FILES];
	json_t *cav[CMP_MAX_FILES];     /* the caveats of t[k]'s runs (rowcav_row), owned */
};

#define BX_MAX_RUNS 256
#define BX_MISSING 400

/* One file's FINAL SCORE and, for B, C, ..., its verdict against A's. */
struct bx_score {
	const char *tool;               /* whose figures: an import's params.tool, or kbench's */
	double score;                   /* the one shown: printed (every file has one) or worked */
	double worked, printed;         /* from the medians' indexes; the report's own */
	double runs[BX_MAX_RUNS];       /* the score of each run (the runs every row has) */
	size_t nruns;
	size_t ntests;                  /* indexed tests in the score */
	size_t of;                      /* kbench's figures: BYTE 4.1's indexed tests (11); 0 */
	char missing[BX_MISSING];       /* "byte_execl skipped, ..." */
	json_t *left;                   /* [{test, as, why}] of missing, owned */
	json_t *cav;                    /* [{key, tests: [title...]}] over the score's tests */
	const char *unsound;            /* the first unsound key in cav, or NULL */
	/* k >= 1 */
	double change, p, p_min, p_same, detect, same_pct;
	const char *verdict;            /* as cmp_verdict_key's, or "different_tools", "no_score" */
	const char *refused;            /* not_comparable: the key, in file refused_in */
	size_t refused_in;
};

struct bx {
	struct bx_row *rows;
	size_t n;
	bool printed;                   /* every file's report printed its score */
	struct bx_score s[CMP_MAX_FILES];
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

/* The caveats of test t's runs (rowcav_row), a new array. */
static json_t *cell_caveats(const struct cmp *c, const struct sf_test *t)
{
	struct rowcav_opts o = { c->conf, c->ticks_per_s };
	json_t *cav = t && t->row ? rowcav_row(t->row, &o) : NULL;
	return cav ? cav : json_array();
}

/* Add the keys of cav to sc's caveats, each once with the tests (BYTE's
 * titles) whose runs carry it; the first unsound key into refused. */
static void score_caveats(struct bx_score *sc, const json_t *cav, const char *title)
{
	size_t i, j;
	const json_t *e, *have;
	json_array_foreach(cav, i, e) {
		const char *key = json_string_value(json_object_get(e, "key"));
		json_t *found = NULL;
		if (!key)
			continue;
		json_array_foreach(sc->cav, j, have)
			if (!strcmp(key, json_string_value(json_object_get(have, "key"))))
				found = (json_t *)have;
		if (!found) {
			found = json_pack("{s:s, s:[]}", "key", key, "tests");
			json_array_append_new(sc->cav, found);
		}
		json_array_append_new(json_object_get(found, "tests"), json_string(title));
		if (caveat_unsound(key) && !sc->unsound)
			sc->unsound = json_string_value(json_object_get(found, "key"));
	}
}

/* BYTE 4.1's indexed tests file k lacks, when its figures are kbench's:
 * "byte_execl skipped" (its reason into why), "failed" (a row with no
 * run) or "not run" (no row); how many BYTE indexes into *of. */
static void left_out(const struct cmp *c, size_t k, struct bx_score *sc)
{
	size_t used = 0;
	sc->of = 0;
	for (const struct micro_test *m = micro_byte_tests; m->name; m++) {
		if (!isfinite(byte_baseline_value("byte4", m->name)))
			continue;
		sc->of++;
		const struct sf_test *t = NULL;
		for (size_t i = 0; i < c->f[k].nt && !t; i++)
			if (!strcmp(c->f[k].t[i].name, m->name))
				t = &c->f[k].t[i];
		if (t && t->summarised)
			continue;
		const char *why = t && t->row ?
				  json_string_value(json_object_get(t->row, "skipped")) : NULL;
		const char *what = why ? "skipped" : t ? "failed" : "not run";
		snprintf(sc->missing + used, sizeof(sc->missing) - used, "%s%s %s",
			 used ? ", " : "", m->name, what);
		used = strlen(sc->missing);
		json_array_append_new(sc->left, json_pack("{s:s, s:s, s:s?}", "test", m->name, "as",
							  what, "why", why));
	}
}

/* The score's verdict for file k against A, as a row's (cmpsame.h): the
 * study's test on the runs' scores at its confidence, then "same" by
 * two one-sided tests within the row margin, else "not proven" with
 * what the runs could see.  The score restates rows already tested, so
 * its test is its own, not adjusted with theirs. */
static void verdict(const struct cmp *c, struct bx *b, size_t k)
{
	struct bx_score *a = &b->s[0], *s = &b->s[k];
	double alpha = 1 - c->conf / 100;
	s->change = 100 * (s->score - a->score) / a->score;
	s->same_pct = c->same_within > 0 ? c->same_within : CMP_SAME_THROUGHPUT;
	s->p = s->p_min = s->p_same = s->detect = NAN;
	if (!isfinite(s->score) || !isfinite(a->score)) {
		s->verdict = "no_score";
		return;
	}
	if (a->tool && s->tool && strcmp(a->tool, s->tool)) {
		s->verdict = "different_tools";
		return;
	}
	struct summary sa, sb;
	struct u_result u;
	struct t_diff d;
	bool tested = false, proven = false, larger = false;
	double center = NAN, half = NAN, margin;
	if (summary_of(a->runs, a->nruns, &sa) == 0 && summary_of(s->runs, s->nruns, &sb) == 0) {
		if (c->method == CMP_UTEST && u_test(a->runs, a->nruns, s->runs, s->nruns, &u) == 0) {
			s->p = u.p;
			s->p_min = u.p_min;
			tested = u.p_min <= alpha;
			proven = u.p < alpha;
			larger = u.b_larger;
			center = sa.median;
		} else if (c->method == CMP_WELCH && a->nruns >= T_MIN_RUNS &&
			   s->nruns >= T_MIN_RUNS && t_welch(&sa, &sb, c->conf, &d) == 0) {
			s->p = d.p;
			tested = true;
			proven = d.p < alpha;
			larger = d.diff > 0;
			center = sa.mean;
		}
	}
	s->refused = a->unsound ? a->unsound : s->unsound;
	s->refused_in = a->unsound ? 0 : k;
	if (s->refused) {
		s->verdict = "not_comparable";
		return;
	}
	if (!tested) {
		s->verdict = "too_few_runs";
		return;
	}
	if (proven) {
		s->verdict = larger ? "better" : "worse";
		return;
	}
	margin = s->same_pct / 100 * fabs(center);
	if (c->method == CMP_UTEST) {
		eq_tost_u(a->runs, a->nruns, s->runs, s->nruns, margin, &s->p_same);
		half = eq_detect_u(a->runs, a->nruns, s->runs, s->nruns, alpha);
	} else {
		eq_tost_welch(&sa, &sb, margin, &s->p_same);
		half = eq_detect_welch(&sa, &sb, alpha);
	}
	s->detect = fabs(center) > 0 ? 100 * half / fabs(center) : NAN;
	s->verdict = s->p_same < alpha ? "same" : "not_proven";
}

static void bx_free(struct bx *b)
{
	for (size_t k = 0; k < CMP_MAX_FILES; k++) {
		json_decref(b->s[k].cav);
		json_decref(b->s[k].left);
		for (size_t i = 0; i < b->n; i++)
			json_decref(b->rows[i].cav[k]);
	}
	free(b->rows);
}

/* The index of c's files into b; false when no test is indexed (or
 * memory ran out), with nothing to free. */
static bool bx_build(const struct cmp *c, struct bx *b)
{
	size_t nprinted = 0;
	memset(b, 0, sizeof(*b));
	b->n = gather(c, &b->rows);
	if (!b->n)
		return false;
	for (size_t k = 0; k < c->nf; k++) {
		struct bx_score *s = &b->s[k];
		s->cav = json_array();
		s->left = json_array();
		s->tool = tool_of(b->rows, b->n, k);
		for (size_t i = 0; i < b->n; i++) {
			if (!b->rows[i].t[k])
				continue;
			b->rows[i].cav[k] = cell_caveats(c, b->rows[i].t[k]);
			score_caveats(s, b->rows[i].cav[k], b->rows[i].title);
			s->ntests++;
		}
		if (s->tool && !strcmp(s->tool, KBENCH_BYTE))
			left_out(c, k, s);
		s->nruns = run_scores(b->rows, b->n, k, s->runs, BX_MAX_RUNS);
		s->printed = printed_score(c, k);
		s->worked = file_score(b->rows, b->n, k);
		nprinted += isfinite(s->printed);
	}
	/* the printed scores when every file has one (the table's row of
	 * them then says the same change), else kbench's working for all:
	 * one method across the line */
	b->printed = nprinted == c->nf;
	for (size_t k = 0; k < c->nf; k++)
		b->s[k].score = b->printed ? b->s[k].printed : b->s[k].worked;
	for (size_t k = 1; k < c->nf; k++)
		verdict(c, b, k);
	return true;
}

/* "10 of BYTE's 11 indexed tests; byte_execl skipped" of file k into buf,
 * or "" when its score has all of them (or its figures are a report's). */
static const char *of_text(const struct bx_score *s, char *buf, size_t n)
{
	buf[0] = 0;
	if (s->of && s->missing[0])
		snprintf(buf, n, "%zu of BYTE's %zu indexed tests; %s", s->ntests, s->of, s->missing);
	return buf;
}

/* The verdict's words of file k, as a row's in the table (lkml: one word
 * each, with what the runs could see). */
static void verdict_text(const struct bx *b, size_t k, bool lkml, char *buf, size_t n)
{
	const struct bx_score *s = &b->s[k];
	size_t na = b->s[0].nruns;
	char see[48], word[32];
	if (isfinite(s->detect))
		snprintf(see, sizeof(see), "could see +-%.2f%%", s->detect);
	else
		snprintf(see, sizeof(see), "could see no change");
	if (!strcmp(s->verdict, "same"))
		snprintf(word, sizeof(word), "same +-%g%%", s->same_pct);
	else if (!strcmp(s->verdict, "not_proven"))
		snprintf(word, sizeof(word), "%s", lkml ? "not-proven" : "not proven");
	else
		word[0] = 0;
	if (word[0] && lkml)
		snprintf(buf, n, "%s (%s)", word, see);
	else if (word[0])
		snprintf(buf, n, "%s (p=%.3f, %zu and %zu runs; %s)", word, s->p, na, s->nruns, see);
	else if (!strcmp(s->verdict, "better") || !strcmp(s->verdict, "worse")) {
		if (lkml)
			snprintf(buf, n, "%s", s->verdict);
		else
			snprintf(buf, n, "%s (p=%.3f, %zu and %zu runs)", s->verdict, s->p, na,
				 s->nruns);
	} else if (!strcmp(s->verdict, "not_comparable") && lkml)
		snprintf(buf, n, "not-comparable");
	else if (!strcmp(s->verdict, "not_comparable"))
		snprintf(buf, n, "not comparable: %s (in %c's tests)", s->refused,
			 (int)('A' + s->refused_in));
	else if (!strcmp(s->verdict, "too_few_runs"))
		snprintf(buf, n, "%s", lkml ? "too-few-runs" : "too few runs");
	else if (!strcmp(s->verdict, "different_tools"))
		snprintf(buf, n, "%s", lkml ? "different-tools" : "different tools: no verdict");
	else
		snprintf(buf, n, "%s", lkml ? "no-score" : "no score");
}

/* "  [caveats A: key*; B: key]" of the given files' arrays (a row's:
 * cmp_put_keys; a score's, keys alone, * after an unsound one); nothing
 * when none carries one. */
static void put_caveats(FILE *out, json_t *const *cav, const size_t *files, size_t nfiles,
			bool score)
{
	bool any = false;
	for (size_t j = 0; j < nfiles; j++) {
		size_t i;
		const json_t *e;
		if (!json_array_size(cav[files[j]]))
			continue;
		fprintf(out, "%s%c:", any ? "; " : "  [caveats ", (int)('A' + files[j]));
		if (!score)
			cmp_put_keys(out, cav[files[j]]);
		else
			json_array_foreach(cav[files[j]], i, e) {
				const char *key = json_string_value(json_object_get(e, "key"));
				fputs(i ? ", " : " ", out);
				esc_put(out, key, 0);
				if (caveat_unsound(key))
					fputc('*', out);
			}
		any = true;
	}
	if (any)
		fputc(']', out);
}

/* What each score is of, a line per different text: "(A, B: the score of
 * 10 of BYTE's 11 indexed tests; byte_execl skipped)". */
static void of_lines(FILE *out, const struct cmp *c, const struct bx *b)
{
	for (size_t k = 0; k < c->nf; k++) {
		char t[BX_MISSING + 64], u[BX_MISSING + 64];
		bool first = true;
		if (!of_text(&b->s[k], t, sizeof(t))[0])
			continue;
		for (size_t j = 0; j < k && first; j++)
			first = strcmp(t, of_text(&b->s[j], u, sizeof(u))) != 0;
		if (!first)
			continue;
		fputs("  (", out);
		for (size_t j = k; j < c->nf; j++)
			if (!strcmp(t, of_text(&b->s[j], u, sizeof(u))))
				fprintf(out, "%s%c", j == k ? "" : ", ", (int)('A' + j));
		fprintf(out, ": the score of %s)\n", t);
	}
}

static void score_verdicts(FILE *out, const struct cmp *c, const struct bx *b)
{
	size_t few = 0;
	char fewer[CMP_MAX_FILES * 4] = "";
	for (size_t k = 1; k < c->nf; k++) {
		const struct bx_score *s = &b->s[k];
		char words[200];
		fprintf(out, "  %c against A: ", (int)('A' + k));
		if (!strcmp(s->verdict, "no_score")) {
			fputs("no score\n", out);
			continue;
		}
		verdict_text(b, k, false, words, sizeof(words));
		fprintf(out, "%+.2f%%  %s\n", s->change, words);
		if (!strcmp(s->verdict, "too_few_runs"))
			snprintf(fewer + strlen(fewer), sizeof(fewer) - strlen(fewer), "%s%c",
				 few++ ? ", " : "", (int)('A' + k));
	}
	if (few)
		fprintf(out, "  (too few runs for the %s at %g%% against A: %s; %zu score%s of "
			"A's runs)\n", c->method == CMP_UTEST ? "U test" : "Welch's t-test", c->conf,
			fewer, b->s[0].nruns, b->s[0].nruns == 1 ? "" : "s");
	if (c->nf > 1)
		fprintf(out, "  (the score's verdict as a row's, on the scores of the runs, at %g%% "
			"on its own: better, worse, same +-PCT, not proven)\n", c->conf);
}

/* The tools of the files, when they are not all one: a line each. */
static void tools_note(FILE *out, const struct cmp *c, const struct bx *b)
{
	bool mixed = false;
	for (size_t k = 1; k < c->nf; k++)
		mixed |= b->s[0].tool && b->s[k].tool && strcmp(b->s[0].tool, b->s[k].tool);
	if (!mixed)
		return;
	fputs("(from different tools: the index sets them side by side by BYTE's baselines, as "
	      "BYTE meant for machines; a change between tools is no kernel's alone)\n", out);
	for (size_t k = 0; k < c->nf; k++) {
		fprintf(out, "  %c: ", (int)('A' + k));
		esc_put(out, b->s[k].tool ? b->s[k].tool : "no indexed test", 0);
		fputc('\n', out);
	}
}

size_t cmp_print_byte_index(FILE *out, const struct cmp *c)
{
	struct bx b;
	size_t w = 4, scored = 0, all[CMP_MAX_FILES];
	json_t *scav[CMP_MAX_FILES];
	if (!bx_build(c, &b))
		return 0;
	for (size_t i = 0; i < b.n; i++)
		w = esc_len(b.rows[i].title) > w ? esc_len(b.rows[i].title) : w;
	fprintf(out, "\nINDEX VALUES (BYTE: INDEX = RESULT / BASELINE x 10, RESULT the median of "
		"each file's runs)\n");
	tools_note(out, c, &b);
	fprintf(out, "%-*s %10s", (int)w, "TEST", "BASELINE");
	for (size_t k = 0; k < c->nf; k++) {
		char res[16], idx[16];
		all[k] = k;
		scav[k] = b.s[k].cav;
		snprintf(res, sizeof(res), "%c RESULT", (int)('A' + k));
		snprintf(idx, sizeof(idx), "%c INDEX", (int)('A' + k));
		fprintf(out, "  %12s %7s", res, idx);
	}
	fputc('\n', out);
	for (size_t i = 0; i < b.n; i++) {
		esc_put(out, b.rows[i].title, w);
		fprintf(out, " %10.1f", b.rows[i].base);
		for (size_t k = 0; k < c->nf; k++) {
			const struct sf_test *t = b.rows[i].t[k];
			if (t)
				fprintf(out, "  %12.1f %7.1f", t->sum.median,
					byte_index(t->sum.median, b.rows[i].base));
			else
				fprintf(out, "  %12s %7s", "-", "-");
		}
		put_caveats(out, b.rows[i].cav, all, c->nf, false);
		fputc('\n', out);
	}
	fprintf(out, "=========\n%-*s %10s", (int)w, "FINAL SCORE", "");
	for (size_t k = 0; k < c->nf; k++) {
		double s = b.s[k].score;
		scored += isfinite(s);
		if (isfinite(s))
			fprintf(out, "  %12s %7.1f%s", "", s, b.printed ? "*" : "");
		else
			fprintf(out, "  %12s %7s", "", "-");
	}
	put_caveats(out, scav, all, c->nf, true);
	fputc('\n', out);
	of_lines(out, c, &b);
	if (b.printed) {
		fputs("  (* as the report printed it; kbench's working from the index values above:", out);
		for (size_t k = 0; k < c->nf; k++) {
			if (isfinite(b.s[k].worked))
				fprintf(out, " %c %.1f", (int)('A' + k), b.s[k].worked);
			else
				fprintf(out, " %c -", (int)('A' + k));
		}
		fputs(")\n", out);
	}
	for (size_t k = 0; k < c->nf; k++)
		if (json_array_size(b.s[k].cav)) {
			fputs("  (a score's caveats are those of the runs of the tests in it)\n", out);
			break;
		}
	score_verdicts(out, c, &b);
	bx_free(&b);
	return scored;
}

static json_t *num(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

json_t *cmp_byte_json(const struct cmp *c)
{
	struct bx b;
	if (!bx_build(c, &b))
		return json_null();
	json_t *tests = json_array(), *scores = json_array();
	for (size_t i = 0; i < b.n; i++) {
		json_t *files = json_array();
		for (size_t k = 0; k < c->nf; k++) {
			const struct sf_test *t = b.rows[i].t[k];
			char letter[2] = { (char)('A' + k), 0 };
			json_array_append_new(files, t ?
				json_pack("{s:s, s:s, s:o, s:o, s:O}", "file", letter, "test", t->name,
					  "result", num(t->sum.median), "index",
					  num(byte_index(t->sum.median, b.rows[i].base)), "caveats",
					  b.rows[i].cav[k]) :
				json_pack("{s:s, s:n}", "file", letter, "test"));
		}
		json_array_append_new(tests, json_pack("{s:s, s:f, s:o}", "title", b.rows[i].title,
						       "baseline", b.rows[i].base, "files", files));
	}
	for (size_t k = 0; k < c->nf; k++) {
		const struct bx_score *s = &b.s[k];
		char letter[2] = { (char)('A' + k), 0 };
		json_t *runs = json_array();
		for (size_t j = 0; j < s->nruns; j++)
			json_array_append_new(runs, json_real(s->runs[j]));
		json_t *o = json_pack("{s:s, s:s?, s:o, s:o, s:o, s:o, s:i, s:o, s:O, s:O}", "file",
				      letter, "tool", s->tool, "score", num(s->score), "worked_out",
				      num(s->worked), "printed", num(s->printed), "run_scores", runs,
				      "tests_in_score", (int)s->ntests, "indexed_tests_of_byte",
				      s->of ? json_integer((json_int_t)s->of) : json_null(),
				      "left_out", s->left, "caveats", s->cav);
		if (k) {
			json_object_set_new(o, "change_pct", num(s->change));
			json_object_set_new(o, "verdict", json_string(s->verdict));
			json_object_set_new(o, "p", num(s->p));
			if (isfinite(s->p_same))
				json_object_set_new(o, "same", json_pack("{s:f, s:o}", "within_pct",
						    s->same_pct, "p", num(s->p_same)));
			if (strcmp(s->verdict, "better") && strcmp(s->verdict, "worse"))
				json_object_set_new(o, "detectable_change_pct", num(s->detect));
			if (s->refused)
				json_object_set_new(o, "not_comparable", json_pack("{s:s, s:s}",
						    "caveat", s->refused, "in",
						    (char[2]){ (char)('A' + s->refused_in), 0 }));
		}
		json_array_append_new(scores, o);
	}
	json_t *doc = json_pack("{s:s, s:b, s:s, s:b, s:o, s:o}", "score_is",
				b.printed ? "printed" : "worked_out", "geometric_mean", 1,
				"verdict_test", c->method == CMP_UTEST ? "utest" : "welch",
				"verdict_adjusted", 0, "tests", tests, "scores", scores);
	bx_free(&b);
	return doc;
}

void cmp_byte_lkml(FILE *out, const struct cmp *c, size_t k)
{
	struct bx b;
	char of[BX_MISSING + 64], words[200];
	size_t pair[2] = { 0, k };
	json_t *scav[CMP_MAX_FILES];
	if (!bx_build(c, &b))
		return;
	if (isfinite(b.s[0].score) && isfinite(b.s[k].score)) {
		for (size_t j = 0; j < c->nf; j++)
			scav[j] = b.s[j].cav;
		char ofk[BX_MISSING + 64];
		fputs("FINAL SCORE", out);
		of_text(&b.s[0], of, sizeof(of));
		of_text(&b.s[k], ofk, sizeof(ofk));
		if (of[0] && !strcmp(of, ofk))
			fprintf(out, " (%s)", of);
		else if (of[0] || ofk[0])
			fprintf(out, " (A: %s; %c: %s)", of[0] ? of : "all", (int)('A' + k),
				ofk[0] ? ofk : "all");
		verdict_text(&b, k, true, words, sizeof(words));
		fprintf(out, " || %.1f -> %.1f %+.2f%% %s", b.s[0].score, b.s[k].score, b.s[k].change,
			words);
		put_caveats(out, scav, pair, 2, true);
		fputc('\n', out);
	}
	bx_free(&b);
}
