/* kbench - compare: BYTE's INDEX VALUES side by side (see cmpbyte.h)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every form prints from one struct cmp_bx (cmpbytescore.h), so the
 * table, the JSON and the lkml line cannot disagree.  Strings from
 * results files go through escape.h.
 */
#include "config.h"
#include "micro/byte/byteindex.h"
#include "compare/forms/cmpbyte.h"
#include "compare/forms/cmpbytescore.h"
#include "compare/judge/cmpcav.h"
#include "result/caveat.h"
#include "resultsfile/escape.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

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
static void verdict_text(const struct cmp_bx *b, size_t k, bool lkml, char *buf, size_t n)
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
static void of_lines(FILE *out, const struct cmp *c, const struct cmp_bx *b)
{
	for (size_t k = 0; k < c->nf; k++) {
		char t[BX_MISSING + 64], u[BX_MISSING + 64];
		bool first = true;
		if (!isfinite(b->s[k].score) || !of_text(&b->s[k], t, sizeof(t))[0])
			continue;
		for (size_t j = 0; j < k && first; j++)
			first = !isfinite(b->s[j].score) ||
				strcmp(t, of_text(&b->s[j], u, sizeof(u))) != 0;
		if (!first)
			continue;
		fputs("  (", out);
		for (size_t j = k; j < c->nf; j++)
			if (isfinite(b->s[j].score) && !strcmp(t, of_text(&b->s[j], u, sizeof(u))))
				fprintf(out, "%s%c", j == k ? "" : ", ", (int)('A' + j));
		fprintf(out, ": the score of %s)\n", t);
	}
}

static void score_verdicts(FILE *out, const struct cmp *c, const struct cmp_bx *b)
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
static void tools_note(FILE *out, const struct cmp *c, const struct cmp_bx *b)
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
	struct cmp_bx b;
	size_t w = 4, scored = 0, all[CMP_MAX_FILES];
	json_t *scav[CMP_MAX_FILES];
	if (!cmp_bx_build(c, &b))
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
	cmp_bx_free(&b);
	return scored;
}

static json_t *num(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

json_t *cmp_byte_json(const struct cmp *c)
{
	struct cmp_bx b;
	if (!cmp_bx_build(c, &b))
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
	cmp_bx_free(&b);
	return doc;
}

void cmp_byte_lkml(FILE *out, const struct cmp *c, size_t k)
{
	struct cmp_bx b;
	char of[BX_MISSING + 64], words[200];
	size_t pair[2] = { 0, k };
	json_t *scav[CMP_MAX_FILES];
	if (!cmp_bx_build(c, &b))
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
	cmp_bx_free(&b);
}
