/* kbench - compare: the old tools' own forms (see cmpforms.h)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Strings from results files go through escape.h, as in cmpprint.c.
 */
#include "config.h"
#include "micro/byte.h"
#include "micro/bytereport.h"
#include "micro/byteindex.h"
#include "compare/cmpcav.h"
#include "compare/cmpforms.h"
#include "suite/escape.h"
#include "suite/figures.h"
#include "stats/utest.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SCISSORS "--8<----8<----8<----8<----8<----8<----8<----8<----8<----8<----8<----8<----8<--"

/* The kbench BYTE test named name, or NULL. */
static const struct micro_test *byte_test(const char *name)
{
	for (const struct micro_test *t = micro_byte_tests; t->name; t++)
		if (!strcmp(t->name, name))
			return t;
	return NULL;
}

static const char *param_str(const struct sf_test *t, const char *key)
{
	return json_string_value(json_object_get(t->params, key));
}

void cmp_title(const struct cmp_row *r, char *buf, size_t n)
{
	const struct micro_test *bt = byte_test(r->name);
	const char *title = param_str(r->t[0], "title");
	const char *cmd = param_str(r->t[0], "command");
	if (bt)
		snprintf(buf, n, "%s", byte4_name(bt));
	else if (title && cmd && (!strcmp(cmd, "import") || !strcmp(cmd, "micro")))
		snprintf(buf, n, "%s", title);
	else
		snprintf(buf, n, "%s (%s%s)", r->name, r->unit,
			 r->higher_is_better ? "" : ", lower is better");
}

/* Is row r a BYTE figure (printed with one decimal, as BYTE does)? */
static bool is_byte(const struct cmp_row *r)
{
	const char *tool = param_str(r->t[0], "tool");
	return byte_test(r->name) || (tool && !strncmp(tool, "BYTE", 4));
}

/* "* Linux HOST RELEASE #BUILD DATE ARCH" and "* DATE" of file f. */
static void who(FILE *out, const struct suitefile *f)
{
	const char *build = suitefile_sys(f, "kernel_version");
	const char *date = suitefile_sys(f, "run_date");
	const char *started = json_string_value(json_object_get(f->doc, "started"));
	fputs("* Linux ", out);
	esc_put(out, suitefile_sys(f, "hostname"), 0);
	fputc(' ', out);
	esc_put(out, suitefile_sys(f, "kernel"), 0);
	if (*build) {
		fputc(' ', out);
		esc_put(out, build, 0);
	}
	fputc(' ', out);
	esc_put(out, suitefile_sys(f, "machine"), 0);
	fputs("\n* ", out);
	esc_put(out, *date ? date : started ? started : "?", 0);
	fputc('\n', out);
}

static const struct cmp *sort_c;
static size_t sort_k;

/* The gain of row i in file sort_k: the change in the better direction. */
static double gain(size_t i)
{
	const struct cmp_row *r = &sort_c->rows[i];
	double ch = r->change[sort_k];
	if (!isfinite(ch))
		return -INFINITY;    /* n/a (against 0) last */
	return r->higher_is_better ? ch : -ch;
}

static int by_gain(const void *x, const void *y)
{
	size_t a = *(const size_t *)x, b = *(const size_t *)y;
	double ga = gain(a), gb = gain(b);
	if (ga != gb)
		return ga > gb ? -1 : 1;
	return (a > b) - (a < b);
}

static void lkml_pair(FILE *out, const struct cmp *c, size_t k, size_t *order)
{
	size_t n = 0;
	fprintf(out, "%s\n\nFrom:\n", SCISSORS);
	who(out, &c->f[0]);
	fputs("\nTo:\n", out);
	who(out, &c->f[k]);
	fputs("\n*******\nResults\n*******\n\n", out);
	for (size_t i = 0; i < c->nrows; i++)
		if (c->rows[i].t[0]->n && c->rows[i].t[k] && c->rows[i].t[k]->n)
			order[n++] = i;
	sort_c = c;
	sort_k = k;
	qsort(order, n, sizeof(*order), by_gain);
	for (size_t j = 0; j < n; j++) {
		const struct cmp_row *r = &c->rows[order[j]];
		char title[300], a[40], b[40];
		double x = cmp_center(c, r, 0), y = cmp_center(c, r, k);
		cmp_title(r, title, sizeof(title));
		if (is_byte(r)) {
			snprintf(a, sizeof(a), "%.1f", x);
			snprintf(b, sizeof(b), "%.1f", y);
		} else {
			fig_text(a, sizeof(a), x);
			fig_text(b, sizeof(b), y);
		}
		char change[32];
		if (isfinite(r->change[k]))
			snprintf(change, sizeof(change), "%+.2f%%", r->change[k]);
		else
			fig_change(change, sizeof(change), NAN);
		esc_put(out, title, 0);
		fprintf(out, " || %s -> %s %s", a, b, change);
		if (r->v[k] != T_TOO_FEW)
			fprintf(out, " %s", r->v[k] == T_SAME ? "~" : r->v[k] == T_REFUSED ?
				"not-comparable" : t_verdict_word(r->v[k]));
		fputc('\n', out);
	}
	fputc('\n', out);
}

void cmp_print_lkml(FILE *out, const struct cmp *c)
{
	size_t *order = calloc(c->nrows + 1, sizeof(*order));
	if (!order)
		return;
	for (size_t k = 1; k < c->nf; k++)
		lkml_pair(out, c, k, order);
	fprintf(out, "%s\n\n(%s of each; the verdict, when the runs allow one, by %s at %g%%: "
		"better, worse, ~ within the noise)\n", SCISSORS,
		c->method == CMP_UTEST ? "medians" : "means",
		c->method == CMP_UTEST ? "the Mann-Whitney U test" : "Welch's t-test", c->conf);
	if (cmp_any_refused(c))
		fprintf(out, "(not-comparable: a caveat of the runs makes a verdict unsound; "
			"kbench compare names it)\n");
	free(order);
}

/* ---- --style runs ---- */

/* The memory limit of a test name (" mem=X"), its length in *len; NULL. */
static const char *mem_of(const char *name, size_t *len)
{
	const char *m = strstr(name, " mem=");
	if (!m)
		return NULL;
	*len = strcspn(m + 5, " ");
	return m + 5;
}

/* The machine of file f: its description, else its host. */
static const char *machine_of(const struct suitefile *f)
{
	const char *d = suitefile_sys(f, "description");
	return *d ? d : suitefile_sys(f, "hostname");
}

/* The name of test t of file f as the old tool names it, without " mem=X"
 * (kbench suite's "load 5" is dbench's, or tbench's under -B sockio). */
static void old_name(const struct suitefile *f, const struct sf_test *t, char *buf, size_t n)
{
	const char *backend = json_string_value(json_object_get(json_object_get(f->doc, "params"),
								"backend"));
	size_t len = strlen(t->name), ml;
	const char *m = mem_of(t->name, &ml);
	if (m)
		len = (size_t)(m - 5 - t->name);
	if (!strncmp(t->name, "load ", 5) && len > 5)
		snprintf(buf, n, "%s %.*s", backend && !strcmp(backend, "sockio") ? "tbench" :
			 "dbench", (int)(len - 5), t->name + 5);
	else if (!strncmp(t->name, "disk ", 5) && len > 5)
		snprintf(buf, n, "hdparm %.*s", (int)(len - 5), t->name + 5);
	else
		snprintf(buf, n, "%.*s", (int)len, t->name);
}

/* Does test t belong to the block of machine and memory limit mem (NULL:
 * none)? */
static bool in_block(const struct sf_test *t, const char *mem, size_t mlen)
{
	size_t l;
	const char *m = mem_of(t->name, &l);
	if (!m || !strncmp(m, "none", 4))
		return !mem;
	return mem && l == mlen && !strncmp(m, mem, l);
}

/* The block of file k's test i: print it (every file of that machine and
 * limit) unless an earlier test or file had it. */
static bool block_seen(const struct cmp *c, size_t k, size_t i, const char *mem, size_t mlen)
{
	const char *mach = machine_of(&c->f[k]);
	for (size_t kk = 0; kk <= k; kk++) {
		if (strcmp(machine_of(&c->f[kk]), mach))
			continue;
		for (size_t ii = 0; ii < (kk == k ? i : c->f[kk].nt); ii++)
			if (in_block(&c->f[kk].t[ii], mem, mlen))
				return true;
	}
	return false;
}

static void runs_block(FILE *out, const struct cmp *c, const char *mach, const char *mem,
		       size_t mlen, const char *memtext)
{
	fputs("======================================================================\n", out);
	esc_put(out, mach, 0);
	if (mem) {
		fputs(", ", out);
		if (memtext && *memtext)
			esc_put(out, memtext, 0);
		else
			fprintf(out, "%.*s", (int)mlen, mem);
	}
	fputc('\n', out);
	for (size_t k = 0; k < c->nf; k++) {
		const struct suitefile *f = &c->f[k];
		bool head = false;
		if (strcmp(machine_of(f), mach))
			continue;
		for (size_t i = 0; i < f->nt; i++) {
			const struct sf_test *t = &f->t[i];
			char name[200];
			if (!in_block(t, mem, mlen) || !t->n)
				continue;
			if (!head) {
				esc_put(out, suitefile_sys(f, "kernel"), 0);
				fputs(":\n", out);
				head = true;
			}
			old_name(f, t, name, sizeof(name));
			esc_put(out, name, 0);
			for (size_t j = 0; j < t->n; j++)
				fprintf(out, strcmp(t->unit, "MiB/s") ? " %.6g" : " %.2f", t->v[j]);
			fputc('\n', out);
		}
	}
}

void cmp_print_runs(FILE *out, const struct cmp *c)
{
	fputs("[MB/s: 10^6 bytes a second (dbench, tbench, kbench load); MiB/s: 2^20 "
	      "(hdparm, kbench disk); every run's figure, bigger is better but for times]\n", out);
	for (size_t k = 0; k < c->nf; k++)
		for (size_t i = 0; i < c->f[k].nt; i++) {
			const struct sf_test *t = &c->f[k].t[i];
			size_t mlen = 0;
			const char *mem = mem_of(t->name, &mlen);
			if (mem && !strncmp(mem, "none", 4))
				mem = NULL;
			if (block_seen(c, k, i, mem, mlen))
				continue;
			runs_block(out, c, machine_of(&c->f[k]), mem, mlen,
				   param_str(t, "mem_text"));
		}
}

/* ---- BYTE's index ---- */

/* The baseline of row r: an imported BYTE test's, or BYTE 4.1's of a
 * kbench BYTE test; 0 when it is not indexed. */
static double baseline_of(const struct cmp_row *r)
{
	double b = json_number_value(json_object_get(r->t[0]->params, "baseline"));
	if (b > 0)
		return b;
	b = byte_baseline_value("byte4", r->name);
	return isfinite(b) && b > 0 ? b : 0;
}

/* The score of run j of file k over the indexed rows idx[0..n-1]; NAN
 * when a row lacks run j. */
static double run_score(const struct cmp *c, const size_t *idx, const double *base, size_t n,
			size_t k, size_t j)
{
	double *v = malloc((n + 1) * sizeof(double));
	double s = NAN;
	size_t m = 0;
	for (size_t i = 0; v && i < n; i++) {
		const struct sf_test *t = c->rows[idx[i]].t[k];
		if (!t || t->n <= j)
			break;
		v[m++] = byte_index(t->v[j], base[i]);
	}
	if (v && m == n)
		s = byte_geomean(v, m);
	free(v);
	return s;
}

/* The scores of file k's runs into out (at most max); how many. */
static size_t run_scores(const struct cmp *c, const size_t *idx, const double *base, size_t n,
			 size_t k, double *out, size_t max)
{
	size_t m = 0;
	for (size_t j = 0; j < max; j++) {
		double s = run_score(c, idx, base, n, k, j);
		if (!isfinite(s))
			break;
		out[m++] = s;
	}
	return m;
}

static void score_verdicts(FILE *out, const struct cmp *c, const size_t *idx, const double *base,
			   size_t n, const double *score)
{
	double a[256], b[256];
	size_t na = run_scores(c, idx, base, n, 0, a, 256);
	for (size_t k = 1; k < c->nf; k++) {
		size_t nb = run_scores(c, idx, base, n, k, b, 256);
		struct u_result u;
		double alpha = 1 - c->conf / 100;
		fprintf(out, "  %c against A: ", (int)('A' + k));
		if (!isfinite(score[k]) || !isfinite(score[0])) {
			fputs("no score\n", out);
			continue;
		}
		fprintf(out, "%+.2f%%  ", 100 * (score[k] - score[0]) / score[0]);
		if (!na || !nb || u_test(a, na, b, nb, &u) < 0 || u.p_min > alpha)
			fprintf(out, "too few runs for the U test at %g%% (%zu and %zu scores)\n",
				c->conf, na, nb);
		else if (!(u.p < alpha))
			fprintf(out, "~ (p=%.3f, %zu and %zu runs)\n", u.p, na, nb);
		else
			fprintf(out, "%s (p=%.3f, %zu and %zu runs)\n", u.b_larger ? "better" : "worse",
				u.p, na, nb);
	}
}

void cmp_print_byte_index(FILE *out, const struct cmp *c)
{
	size_t *idx = calloc(c->nrows + 1, sizeof(*idx)), n = 0, w = 4;
	double *base = calloc(c->nrows + 1, sizeof(double));
	double score[CMP_MAX_FILES];
	char title[300];
	for (size_t i = 0; idx && base && i < c->nrows; i++)
		if ((base[n] = baseline_of(&c->rows[i])) > 0) {
			cmp_title(&c->rows[i], title, sizeof(title));
			w = strlen(title) > w ? strlen(title) : w;
			idx[n++] = i;
		}
	if (!n)
		goto done;
	fprintf(out, "\nINDEX VALUES (BYTE: result / baseline x 10, the median of each file's "
		"runs)\n%-*s %10s", (int)w, "TEST", "BASELINE");
	for (size_t k = 0; k < c->nf; k++)
		fprintf(out, " %9c", (int)('A' + k));
	fputc('\n', out);
	for (size_t i = 0; i < n; i++) {
		const struct cmp_row *r = &c->rows[idx[i]];
		cmp_title(r, title, sizeof(title));
		esc_put(out, title, w);
		fprintf(out, " %10.1f", base[i]);
		for (size_t k = 0; k < c->nf; k++) {
			if (r->t[k] && r->t[k]->summarised)
				fprintf(out, " %9.1f", byte_index(r->s[k].median, base[i]));
			else
				fprintf(out, " %9s", "-");
		}
		fputc('\n', out);
	}
	fprintf(out, "=========\n%-*s %10s", (int)w, "FINAL SCORE", "");
	for (size_t k = 0; k < c->nf; k++) {
		double *v = malloc(n * sizeof(double));
		size_t m = 0;
		for (size_t i = 0; v && i < n; i++) {
			const struct cmp_row *r = &c->rows[idx[i]];
			if (r->t[k] && r->t[k]->summarised)
				v[m++] = byte_index(r->s[k].median, base[i]);
		}
		score[k] = v && m == n ? byte_geomean(v, m) : NAN;
		free(v);
		if (isfinite(score[k]))
			fprintf(out, " %9.1f", score[k]);
		else
			fprintf(out, " %9s", "-");
	}
	fputc('\n', out);
	score_verdicts(out, c, idx, base, n, score);
done:
	free(idx);
	free(base);
}
