/* kbench - compare: the table and the lkml lines
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Everything here prints from struct cmp (cmprow.h) to the stream it is
 * given; every string that came from a results file, and every file name,
 * goes through escape.h.  A change against a mean of 0 has no percentage:
 * it is printed "n/a", never a made-up "+nan%" or "+inf%".
 */
#include "config.h"
#include "compare/judge/cmpcav.h"
#include "compare/forms/cmpprint.h"
#include "compare/judge/cmpruns.h"
#include "compare/forms/cmpforms.h"
#include "resultsfile/escape.h"
#include "resultsfile/figures.h"
#include "compare/judge/cmpsettings.h"
#include "compare/judge/cmpsame.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The tool of file k's figures: an imported test's params.tool, else
 * kbench's own ("kbench"). */
static const char *file_tool(const struct suitefile *f)
{
	for (size_t i = 0; i < f->nt; i++) {
		const char *cmd = json_string_value(json_object_get(f->t[i].params, "command"));
		const char *tool = json_string_value(json_object_get(f->t[i].params, "tool"));
		if (cmd && !strcmp(cmd, "import"))
			return tool ? tool : "an imported report";
	}
	return "kbench";
}

/* Whether another file than k holds figures of k's tool. */
static int tool_shared(const struct cmp *c, size_t k)
{
	const char *tk = file_tool(&c->f[k]);
	for (size_t j = 0; j < c->nf; j++)
		if (j != k && !strcmp(file_tool(&c->f[j]), tk))
			return 1;
	return 0;
}

/* What can be set against what, before the table, when the files hold
 * different tools' figures: a tool's tests keep its names, so a verdict
 * sets a file only against files of its own tool. */
static void print_tools(FILE *out, const struct cmp *c)
{
	size_t k;
	for (k = 1; k < c->nf && !strcmp(file_tool(&c->f[k]), file_tool(&c->f[0])); k++)
		;
	if (k == c->nf)
		return;
	fputs("tools:", out);
	for (k = 0; k < c->nf; k++) {
		fprintf(out, " %c ", (int)('A' + k));
		esc_put(out, file_tool(&c->f[k]), 0);
		fputs(k + 1 < c->nf ? "," : "", out);
	}
	fputs(": a verdict sets figures of one tool only (a tool's tests keep its names); "
	      "lmbench's tables and BYTE's index, below, set different tools' figures side "
	      "by side, without a verdict\n", out);
}

static void print_unmatched(FILE *out, const struct cmp *c)
{
	int header = 0;
	for (size_t k = 0; k < c->nf; k++) {
		if (!tool_shared(c, k)) {
			/* no other file holds this tool's figures: one line, not
			 * one a test */
			if (!c->f[k].nt)
				continue;
			if (!header)
				fprintf(out, "\nnot compared:\n");
			header = 1;
			fprintf(out, "  %c  %zu test%s of ", (int)('A' + k), c->f[k].nt,
				c->f[k].nt == 1 ? "" : "s");
			esc_put(out, file_tool(&c->f[k]), 0);
			fputs(": no other file holds this tool's figures\n", out);
			continue;
		}
		for (size_t i = 0; i < c->f[k].nt; i++) {
			const struct sf_test *t = &c->f[k].t[i];
			size_t where;
			if (cmp_matched(c, k, t, &where))
				continue;
			if (!header)
				fprintf(out, "\nnot compared:\n");
			header = 1;
			fprintf(out, "  %c  ", (int)('A' + k));
			esc_put(out, t->name, 0);
			fputs(" (", out);
			esc_put(out, t->unit, 0);
			fprintf(out, "), %zu run%s: ", t->n, t->n == 1 ? "" : "s");
			if (where == k)
				fprintf(out, "only in %c\n", (int)('A' + k));
			else
				fprintf(out, "in %c and %c, not in A (the baseline)\n",
					(int)('A' + (k < where ? k : where)),
					(int)('A' + (k < where ? where : k)));
		}
	}
}

static void print_files(FILE *out, const struct cmp *c)
{
	for (size_t k = 0; k < c->nf; k++) {
		const struct suitefile *f = &c->f[k];
		const char *label = json_string_value(json_object_get(f->doc, "label"));
		const char *started = json_string_value(json_object_get(f->doc, "started"));
		const char *date = suitefile_sys(f, "run_date");   /* an imported report's */
		fprintf(out, "%c  ", (int)('A' + k));
		esc_put(out, f->path, 0);
		fputs(": label ", out);
		esc_put(out, label ? label : "-", 0);
		fputs(", kernel ", out);
		esc_put(out, suitefile_sys(f, "kernel"), 0);
		fputs(", host ", out);
		esc_put(out, suitefile_sys(f, "hostname"), 0);
		fputs(started || !*date ? ", started " : ", run ", out);
		esc_put(out, started ? started : *date ? date : "?", 0);
		fprintf(out, "%s\n", json_is_true(json_object_get(f->doc, "finished")) ? "" :
			" (not finished)");
	}
}

/* A params value as JSON text, escaped (json_dumps escapes the C0
 * controls but not DEL or the C1 controls). */
static void put_json(FILE *out, const json_t *v)
{
	char *s = json_dumps(v, JSON_ENCODE_ANY);
	esc_put(out, s ? s : "?", 0);
	free(s);
}

/* The device settings of a disk test (kbench suite records them in its
 * params) that differ between A and file k: read-ahead, scheduler and the
 * rest decide a disk figure as much as the kernel does. */
static void print_device_notes(FILE *out, const struct cmp *c, size_t k)
{
	static const char *const keys[] = { "model", "read_ahead_kb", "scheduler", "rotational",
					    "nr_requests", "queue_depth", "write_cache" };
	for (size_t i = 0; i < c->nrows; i++) {
		const struct cmp_row *r = &c->rows[i];
		if (!r->t[k])
			continue;
		json_t *x = json_object_get(r->t[0]->params, "device_info");
		json_t *y = json_object_get(r->t[k]->params, "device_info");
		for (size_t j = 0; x && y && j < sizeof(keys) / sizeof(keys[0]); j++) {
			json_t *vx = json_object_get(x, keys[j]), *vy = json_object_get(y, keys[j]);
			if (!vx || !vy || json_equal(vx, vy))
				continue;
			fputs("note: ", out);
			esc_put(out, r->name, 0);
			fprintf(out, ": the device's %s differs: A ", keys[j]);
			put_json(out, vx);
			fprintf(out, ", %c ", (int)('A' + k));
			put_json(out, vy);
			fputc('\n', out);
		}
	}
}

/* Settings that make figures incomparable, said once. */
static void print_notes(FILE *out, const struct cmp *c)
{
	static const char *const keys[] = { "timelimit_s", "warmup_s", "loadfile", "directory" };
	json_t *pa = json_object_get(c->f[0].doc, "params");
	for (size_t k = 1; k < c->nf; k++) {
		json_t *pk = json_object_get(c->f[k].doc, "params");
		for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
			json_t *x = json_object_get(pa, keys[i]), *y = json_object_get(pk, keys[i]);
			if (x && y && !json_equal(x, y)) {
				fprintf(out, "note: %s differs: A ", keys[i]);
				put_json(out, x);
				fprintf(out, ", %c ", (int)('A' + k));
				put_json(out, y);
				fputc('\n', out);
			}
		}
		const char *fa = suitefile_sys(&c->f[0], "fs_type"), *fk = suitefile_sys(&c->f[k], "fs_type");
		if (*fa && *fk && strcmp(fa, fk)) {
			fputs("note: filesystem differs: A ", out);
			esc_put(out, fa, 0);
			fprintf(out, ", %c ", (int)('A' + k));
			esc_put(out, fk, 0);
			fputc('\n', out);
		}
		print_device_notes(out, c, k);
		for (size_t i = 0; i < c->nrows; i++)
			if (c->rows[i].t[k] && !cmp_same_name(c->rows[i].t[k]->name, c->rows[i].name)) {
				fputs("note: ", out);
				esc_put(out, c->rows[i].name, 0);
				fputs(" of A compared with ", out);
				esc_put(out, c->rows[i].t[k]->name, 0);
				fprintf(out, " of %c (memory limits differ)\n", (int)('A' + k));
			}
	}
}

/* ", q=0.011" (Benjamini-Hochberg) or ", p_holm=0.040" after a row's
 * own p when the verdict was adjusted over more than one test; "" else. */
static const char *adjusted_text(const struct cmp *c, const struct cmp_row *r, size_t k,
				 char *buf, size_t n)
{
	buf[0] = 0;
	if (c->adjust != P_ADJ_NONE && c->ntested > 1 && isfinite(r->q[k]))
		snprintf(buf, n, ", %s=%.3g", c->adjust == P_ADJ_BH ? "q" : "p_holm", r->q[k]);
	return buf;
}

/* A system string of A and file k that differs: a note, the field's
 * words first ("machine", "CPU model", ...). */
static void sys_note(FILE *out, const struct cmp *c, size_t k, const char *key, const char *what)
{
	const char *a = suitefile_sys(&c->f[0], key), *b = suitefile_sys(&c->f[k], key);
	if (!*a || !*b || !strcmp(a, b))
		return;
	fprintf(out, "note: %s differs: A ", what);
	esc_put(out, a, 0);
	fprintf(out, ", %c ", (int)('A' + k));
	esc_put(out, b, 0);
	fputc('\n', out);
}

/* Whether file f ran its micro tests with --micro-quick: 1, 0, or -1 when
 * it does not say (imported, a plain micro document, an older kbench). */
static int quick_of(const struct suitefile *f)
{
	const json_t *q = json_object_get(json_object_get(f->doc, "params"), "micro_quick");
	if (!json_is_boolean(q))
		q = json_object_get(json_object_get(f->doc, "params"), "quick");
	return json_is_boolean(q) ? json_is_true(q) : -1;
}

/* Notes on the machines (an imported report's machine line, the CPU model,
 * the clock rate) and on --micro-quick against a full run: figures of
 * different machines or methods differ for more than the kernel. */
static void print_setup_notes(FILE *out, const struct cmp *c)
{
	int qa = quick_of(&c->f[0]);
	for (size_t k = 1; k < c->nf; k++) {
		int qk = quick_of(&c->f[k]);
		sys_note(out, c, k, "description", "the machine");
		sys_note(out, c, k, "cpu_model", "the CPU model");
		json_t *ma = json_object_get(json_object_get(c->f[0].doc, "system"), "mhz");
		json_t *mk = json_object_get(json_object_get(c->f[k].doc, "system"), "mhz");
		if (ma && mk && !json_equal(ma, mk)) {
			fputs("note: the clock rate (MHz) differs: A ", out);
			put_json(out, ma);
			fprintf(out, ", %c ", (int)('A' + k));
			put_json(out, mk);
			fputc('\n', out);
		}
		if (qa >= 0 && qk >= 0 && qa != qk)
			fprintf(out, "note: %c's micro tests ran with --micro-quick (shorter intervals, "
				"fewer samples), %c's in full: their figures differ by method too\n",
				(int)('A' + (qa ? 0 : k)), (int)('A' + (qa ? k : 0)));
	}
}

/* p as the verdicts print it, into buf (n bytes): three decimals, and
 * below 0.001 two significant digits (a U test's p is never 0: "p=0.000"
 * would say it was). */
static const char *p_text(double p, char *buf, size_t n)
{
	snprintf(buf, n, p > 0 && p < 0.001 ? "%.2g" : "%.3f", p);
	return buf;
}

static void verdict_core(const struct cmp *c, const struct cmp_row *r, size_t k, char *buf,
			 size_t n)
{
	char d[32], h[32], pct[64], adj[40], word[32], see[40], pt[32];
	if (r->v[k] == T_REFUSED) {
		cmp_refused_text(r, k, buf, n);
		return;
	}
	if (c->method == CMP_UTEST) {
		if (!r->t[0]->summarised || !r->t[k] || !r->t[k]->summarised)
			snprintf(buf, n, "no verdict: %s has no runs", r->t[0]->summarised ? "it" : "A");
		else if (r->v[k] == T_TOO_FEW && r->adj_floor[k])
			snprintf(buf, n, "too few runs for %s over %zu tests at %g%% (%zu and %zu: "
				 "p >= %.2g, %s >= %.2g)", p_adjust_title(c->adjust), c->ntested,
				 c->conf, r->t[0]->n, r->t[k]->n, r->u[k].p_min,
				 c->adjust == P_ADJ_BH ? "q" : "p_holm", r->q_floor[k]);
		else if (r->v[k] == T_TOO_FEW)
			snprintf(buf, n, "too few runs for the U test at %g%% (%zu and %zu: p >= %.2g)",
				 c->conf, r->t[0]->n, r->t[k]->n, r->u[k].p_min);
		else if (r->v[k] == T_SAME)
			snprintf(buf, n, "%s (p=%s%s; %s)", cmp_same_word(r, k, false, word,
				 sizeof(word)), p_text(r->u[k].p, pt, sizeof(pt)), adjusted_text(c, r, k, adj, sizeof(adj)),
				 cmp_could_see(r, k, see, sizeof(see)));
		else
			snprintf(buf, n, "%s (p=%s%s)", t_verdict_word(r->v[k]),
				 p_text(r->u[k].p, pt, sizeof(pt)),
				 adjusted_text(c, r, k, adj, sizeof(adj)));
		return;
	}
	adjusted_text(c, r, k, adj, sizeof(adj));
	switch (r->v[k]) {
	case T_TOO_FEW:
		snprintf(buf, n, "too few runs (%d a side needed)", T_MIN_RUNS);
		break;
	case T_SAME:
		snprintf(buf, n, "%s (p=%.2f%s; %s)", cmp_same_word(r, k, false, word, sizeof(word)),
			 r->d[k].p, adj, cmp_could_see(r, k, see, sizeof(see)));
		break;
	case T_REFUSED:
		break;
	case T_BETTER:
	case T_WORSE:
		fig_text(d, sizeof(d), r->d[k].diff);
		fig_text(h, sizeof(h), r->d[k].half);
		if (isfinite(r->d[k].pct) && isfinite(r->d[k].pct_half))
			snprintf(pct, sizeof(pct), "%+.2f%% +- %.2f%%", r->d[k].pct, r->d[k].pct_half);
		else
			fig_change(pct, sizeof(pct), NAN);
		snprintf(buf, n, "%s: %s%s +- %s (%s, p=%s%s)", t_verdict_word(r->v[k]),
			 r->d[k].diff > 0 ? "+" : "", d, h, pct, p_text(r->d[k].p, pt, sizeof(pt)),
			 adj);
		break;
	}
}

void cmp_verdict_text(const struct cmp *c, const struct cmp_row *r, size_t k, char *buf,
		      size_t n)
{
	verdict_core(c, r, k, buf, n);
	size_t used = strlen(buf);
	/* a machine setting that moves this row differs: not the kernel's alone */
	if ((r->v[k] == T_SAME || r->v[k] == T_BETTER || r->v[k] == T_WORSE) &&
	    cmp_settings_in(r->cav[k]) && used < n)
		snprintf(buf + used, n - used, ", kernel or settings");
}

/* One file's line of a row: N, median, mean +- CI, change, verdict. */
static void print_cells(FILE *out, const struct cmp *c, const struct cmp_row *r, size_t k)
{
	char med[32], mean[32], ci[32], both[80], change[32], verdict[200];
	if (!r->t[k]) {
		fprintf(out, "%4s %10s %21s %9s  %s\n", "-", "-", "-", "-", "not in this file");
		return;
	}
	if (!r->t[k]->n) {
		/* a test the suite skipped says why (a tool missing, ...) */
		const char *why = r->t[k]->row ?
			json_string_value(json_object_get(r->t[k]->row, "skipped")) : NULL;
		fprintf(out, "%4d %10s %21s %9s  %s%s\n", 0, "-", "-", "-", why ? "skipped: " : "no runs",
			why ? why : "");
		return;
	}
	fig_text(med, sizeof(med), r->s[k].median);
	fig_text(mean, sizeof(mean), r->s[k].mean);
	fig_text(ci, sizeof(ci), r->ci[k]);
	snprintf(both, sizeof(both), "%s +- %s", mean, ci);
	if (!k) {
		fprintf(out, "%4zu %10s %21s", r->s[k].n, med, both);
		cmp_put_caveats(out, r, k);
		fputc('\n', out);
		return;
	}
	if (r->t[0]->n)
		fig_change(change, sizeof(change), r->change[k]);
	else
		snprintf(change, sizeof(change), "-");
	cmp_verdict_text(c, r, k, verdict, sizeof(verdict));
	fprintf(out, "%4zu %10s %21s %9s  %s", r->s[k].n, med, both, change, verdict);
	cmp_put_caveats(out, r, k);
	fputc('\n', out);
}

/* The words of "too few runs ... (p >= X, q >= Y)", once, when a row says
 * it: what the two floors mean for the tester. */
static void print_too_few_key(FILE *out, const struct cmp *c)
{
	bool floor = false;
	for (size_t i = 0; i < c->nrows; i++)
		for (size_t k = 1; k < c->nf; k++)
			floor |= c->rows[i].v[k] == T_TOO_FEW && c->rows[i].t[k] &&
				 c->rows[i].t[k]->n && c->method == CMP_UTEST;
	if (!floor)
		return;
	fprintf(out, "\ntoo few runs: p >= X is the smallest p-value the U test can give so "
		"few runs, however far apart they lie; %s >= Y is that p adjusted over the study's "
		"tests.  Above %g, no change these runs show could be proven: their change is "
		"printed, with no verdict (kbench suite --runs auto plans enough runs)\n",
		c->adjust == P_ADJ_BH ? "q" : "p_holm", 1 - c->conf / 100);
}

void cmp_print_table(FILE *out, const struct cmp *c)
{
	size_t namew = 4, unitw = 4;
	char shown[300];
	for (size_t i = 0; i < c->nrows; i++) {
		cmp_shown_name(c->rows[i].name, shown, sizeof(shown));
		size_t a = esc_len(shown), b = esc_len(c->rows[i].unit);
		namew = a > namew ? a : namew;
		unitw = b > unitw ? b : unitw;
	}
	print_files(out, c);
	print_tools(out, c);
	if (c->method == CMP_UTEST)
		fprintf(out, "%g%% confidence: the change of the median against A; verdict by the "
			"Mann-Whitney U test on the runs (--test utest); the mean +- the half-width "
			"of its interval (Student's t) for reference\n", c->conf);
	else
		fprintf(out, "%g%% confidence: the mean +- the half-width of its interval "
			"(Student's t); the change of the mean against A; verdict by Welch's t-test "
			"(--test welch)\n", c->conf);
	cmp_print_adjust_line(out, c);
	cmp_print_same_line(out, c);
	print_notes(out, c);
	print_setup_notes(out, c);
	cmp_print_settings(out, c, "");
	fprintf(out, "\n%-*s  %-*s  %-4s %4s %10s %21s %9s  %s\n", (int)namew, "test", (int)unitw,
		"unit", "file", "N", "median", "mean +- CI", "change", "verdict");
	for (size_t i = 0; i < c->nrows; i++) {
		const struct cmp_row *r = &c->rows[i];
		cmp_shown_name(r->name, shown, sizeof(shown));
		for (size_t k = 0; k < c->nf; k++) {
			esc_put(out, k ? "" : shown, namew);
			fputs("  ", out);
			esc_put(out, k ? "" : r->unit, unitw);
			fprintf(out, "  %-4c ", (int)('A' + k));
			print_cells(out, c, r, k);
		}
	}
	cmp_print_runs_needed(out, c);
	cmp_print_spread(out, c);
	print_too_few_key(out, c);
	print_unmatched(out, c);
	fprintf(out, "\n" FIG_UNITS_NOTE "\n");
}

void cmp_print_adjust_line(FILE *out, const struct cmp *c)
{
	double alpha = 1 - c->conf / 100;
	if (c->adjust == P_ADJ_NONE)
		fprintf(out, "%zu test%s, each on its own at %g%% (--adjust none): about 1 in %.0f "
			"unchanged rows reads better or worse\n", c->ntested,
			c->ntested == 1 ? "" : "s", c->conf, 1 / alpha);
	else
		fprintf(out, "%zu test%s (every row and file against A) adjusted together by %s "
			"(--adjust %s): a verdict needs %s < %g%s\n", c->ntested,
			c->ntested == 1 ? "" : "s", p_adjust_title(c->adjust),
			p_adjust_name(c->adjust), c->adjust == P_ADJ_BH ? "q" : "p_holm", alpha,
			c->adjust == P_ADJ_BH ? ", the expected share of false changes among them "
			"at most that" : ", the chance of any false change at most that");
	if (!c->control) {
		fputs("no control (--control FILE, A run again after the others): a drift of the "
		      "machine between the series would read as a change\n", out);
		return;
	}
	fputs("control: ", out);
	esc_put(out, c->control->path, 0);
	fputs(" (A run again): a row where it differs from A carries drift and gets no "
	      "verdict\n", out);
}

void cmp_print_no_match(FILE *out, const struct cmp *c)
{
	const char *ta = file_tool(&c->f[0]);
	size_t other = 0;
	fprintf(out, "%s: no test of A (", c->cmd);
	esc_put(out, c->f[0].path, 0);
	fprintf(out, ") is in %s: nothing to compare: ", c->nf == 2 ? "B" : "any other file");
	for (size_t k = 1; k < c->nf && !other; k++)
		if (strcmp(file_tool(&c->f[k]), ta))
			other = k;
	if (other) {
		fputs("A holds ", out);
		esc_put(out, ta, 0);
		fprintf(out, "'s figures, %c ", (int)('A' + other));
		esc_put(out, file_tool(&c->f[other]), 0);
		fputs("'s; a tool's tests keep its names (", out);
		esc_put(out, c->f[0].nt ? c->f[0].t[0].name : "-", 0);
		fputs(", ", out);
		esc_put(out, c->f[other].nt ? c->f[other].t[0].name : "-", 0);
		fputs("), so no figure is set against another tool's (BYTE's index, when both have "
		      "BYTE tests, and lmbench's tables set them side by side)\n", out);
		return;
	}
	fputs("their tests differ in name or unit (A: ", out);
	esc_put(out, c->f[0].nt ? c->f[0].t[0].name : "-", 0);
	fputs(", B: ", out);
	esc_put(out, c->nf > 1 && c->f[1].nt ? c->f[1].t[0].name : "-", 0);
	fputs(", ...)\n", out);
}

void cmp_print_steal(FILE *out, const struct cmp *c)
{
	int first = 1;
	for (size_t k = 0; k < c->nf; k++) {
		const struct cmp_steal *s = &c->steal[k];
		if (!s->notable)
			continue;
		fputs(first ? "\nsteal: " : "steal: ", out);
		first = 0;
		esc_put(out, c->f[k].path, 0);
		fprintf(out, ": the hypervisor took up to %.1f%% of a CPU's time in run %zu of ",
			s->pct, s->run);
		esc_put(out, s->test, 0);
		fputs(" (steal in /proc/stat): its figures are not a quiet machine's\n", out);
	}
}
