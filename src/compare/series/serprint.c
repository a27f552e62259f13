/* kbench - compare --series: the table, lkml lines, JSON, the gate and bisect lines
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every form prints from struct series (sertypes.h) and only reads it, so
 * the table, the lines and the JSON cannot disagree.  A step is named by
 * the labels of the two points either side of it: those are what a tester
 * hands to `git bisect start NEW OLD`.
 */
#include "config.h"
#include "compare/series/serprint.h"
#include "resultsfile/escape.h"
#include "resultsfile/figures.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *label(const struct series *s, size_t k, char *buf, size_t n)
{
	return esc_str(buf, n, s->k[k].label);
}

static void q_text(char *buf, size_t n, double q)
{
	snprintf(buf, n, q >= 0.001 || q == 0 ? "%.3f" : "%.1e", q);
}

static size_t total_steps(const struct series *s)
{
	size_t n = 0;
	for (size_t i = 0; i < s->nt; i++)
		n += s->t[i].nsteps;
	return n;
}

/* "TEST: -18.2% between K1 and K2 (q=0.004)" with what doubts it */
static void step_line(FILE *out, const struct series *s, const struct ser_test *t,
		      const struct ser_step *st, bool detail)
{
	char name[300], from[300], to[300], ch[32], q[32], lo[32], hi[32];
	const struct cp_cand *c = &t->cand[st->cand];
	fig_change(ch, sizeof(ch), st->size.change_pct);
	q_text(q, sizeof(q), c->q);
	fprintf(out, "%s: %s between %s and %s (q=%s)", esc_str(name, sizeof(name), t->name), ch,
		label(s, st->from, from, sizeof(from)), label(s, st->to, to, sizeof(to)), q);
	if (detail) {
		fig_change(lo, sizeof(lo), st->size.lo_pct);
		fig_change(hi, sizeof(hi), st->size.hi_pct);
		fprintf(out, " %s, %.0f%% interval %s to %s, p=%.2g, %zu and %zu runs", st->worse ?
			"worse" : "better", s->conf, lo, hi, c->p, st->size.nl, st->size.nr);
	}
	for (size_t k = st->from + 1; k < st->to; k++)
		if (t->kept_out[k])
			fprintf(out, " [%s kept out: %s]", label(s, k, from, sizeof(from)),
				t->kept_out[k]);
	if (t->drift_of >= 0)
		fprintf(out, " [drift: not proven]");
	if (t->single)
		fprintf(out, " [one run a kernel]");
	fputc('\n', out);
}

struct ref {
	const struct ser_test *t;
	const struct ser_step *st;
};

static int by_size(const void *x, const void *y)
{
	double a = fabs(((const struct ref *)x)->st->size.change_pct);
	double b = fabs(((const struct ref *)y)->st->size.change_pct);
	if (isnan(a))
		a = INFINITY;
	if (isnan(b))
		b = INFINITY;
	return (a < b) - (a > b);
}

void ser_print_lkml(FILE *out, const struct series *s)
{
	size_t n = total_steps(s), j = 0, stepping = 0;
	struct ref *r = malloc((n ? n : 1) * sizeof(*r));
	for (size_t i = 0; r && i < s->nt; i++) {
		stepping += s->t[i].nsteps > 0;
		for (size_t k = 0; k < s->t[i].nsteps; k++)
			r[j++] = (struct ref){ &s->t[i], &s->t[i].steps[k] };
	}
	if (r)
		qsort(r, n, sizeof(*r), by_size);
	for (size_t i = 0; r && i < n; i++)
		step_line(out, s, r[i].t, r[i].st, false);
	free(r);
	if (!n)
		fprintf(out, "no step: %zu test%s over %zu kernels\n", s->nt, s->nt == 1 ? "" : "s",
			s->npoints);
	else if (stepping < s->nt)
		fprintf(out, "no step in the other %zu test%s\n", s->nt - stepping,
			s->nt - stepping == 1 ? "" : "s");
}

static size_t col_width(const struct series *s, size_t k)
{
	size_t w = esc_len(s->k[k].label) + (s->k[k].control_of >= 0);
	return w < 9 ? 9 : w;
}

static void table_rows(FILE *out, const struct series *s, size_t wname)
{
	char buf[64], head[300];
	fprintf(out, "%-*s %-7s", (int)wname, "test", "unit");
	for (size_t k = 0; k < s->nk; k++) {
		label(s, k, head, sizeof(head));
		if (s->k[k].control_of >= 0)
			strncat(head, "'", sizeof(head) - strlen(head) - 1);
		fprintf(out, "   %*s", (int)col_width(s, k), head);
	}
	fputc('\n', out);
	for (size_t i = 0; i < s->nt; i++) {
		const struct ser_test *t = &s->t[i];
		esc_put(out, t->name, wname);
		fputc(' ', out);
		esc_put(out, t->unit, 7);
		bool small = true;
		for (size_t k = 0; k < s->nk; k++)
			if (t->t[k] && t->t[k]->summarised && fabs(t->t[k]->sum.median) >= 1)
				small = false;
		for (size_t k = 0; k < s->nk; k++) {
			bool step = false;
			for (size_t j = 0; j < t->nsteps; j++)
				step |= t->steps[j].to == k;
			if (!t->t[k] || !t->t[k]->summarised)
				snprintf(buf, sizeof(buf), "-");
			else
				fig_fixed(buf, sizeof(buf), t->t[k]->sum.median, small);
			char cell[80];
			snprintf(cell, sizeof(cell), t->t[k] && t->kept_out[k] ? "(%s)" : "%s", buf);
			fprintf(out, " %s %*s", step ? "|" : " ", (int)col_width(s, k), cell);
		}
		fputc('\n', out);
	}
}

static void notes(FILE *out, const struct series *s)
{
	char name[300], a[300], b[300], ch[32], q[32];
	for (size_t i = 0; i < s->nt; i++) {
		const struct ser_test *t = &s->t[i];
		esc_str(name, sizeof(name), t->name);
		for (size_t k = 0; k < s->nk; k++)
			if (t->kept_out[k])
				fprintf(out, "kept out: %s on %s (%s): its runs make no step\n", name,
					label(s, k, a, sizeof(a)), t->kept_out[k]);
		if (t->drift_of >= 0) {
			long of = s->k[t->drift_of].control_of;
			fig_change(ch, sizeof(ch), t->drift_pct);
			q_text(q, sizeof(q), t->drift_q);
			fprintf(out, "drift: %s: %s run again differs from itself by %s (q=%s): its "
				"steps are not proven\n", name, label(s, (size_t)of, a, sizeof(a)), ch, q);
		}
		if (t->single && !t->nsteps)
			fprintf(out, "one run a kernel: %s: a single run cannot tell a kernel's change "
				"from its run-to-run noise; no step proven over %zu kernels\n", name,
				t->positions + 1);
		else if (t->single)
			fprintf(out, "one run a kernel: %s: its steps rest on the kernels' spread alone; "
				"the run-to-run noise is unknown\n", name);
	}
	for (size_t k = 0; k < s->nk; k++)
		if (s->k[k].control_of >= 0)
			fprintf(out, "control: %s' is %s run again: no point of the series, checked "
				"against it (%zu tests)\n", label(s, k, a, sizeof(a)),
				label(s, (size_t)s->k[k].control_of, b, sizeof(b)), s->ndrift_tested);
}

void ser_print_table(FILE *out, const struct series *s)
{
	char a[300], b[300];
	size_t wname = 4;
	for (size_t k = 0; k < s->nk; k++)
		fprintf(out, "K%-3zu %s: label %s, kernel %s\n", k + 1, esc_str(a, sizeof(a),
			s->k[k].path), label(s, k, b, sizeof(b)), s->k[k].kernel);
	fprintf(out, "steps by binary segmentation with a Mann-Whitney U test per split on the runs; "
		"%zu candidate splits (tests x kernels - 1) adjusted together by Benjamini-Hochberg: "
		"a step needs q < %.2f\n\n", s->m, 1 - s->conf / 100);
	for (size_t i = 0; i < s->nt; i++)
		if (esc_len(s->t[i].name) > wname)
			wname = esc_len(s->t[i].name);
	table_rows(out, s, wname);
	fputc('\n', out);
	size_t stepping = 0;
	for (size_t i = 0; i < s->nt; i++) {
		const struct ser_test *t = &s->t[i];
		stepping += t->nsteps > 0;
		for (size_t j = 0; j < t->nsteps; j++) {
			step_line(out, s, t, &t->steps[j], true);
			fprintf(out, "  bisect: git bisect start %s %s\n",
				label(s, t->steps[j].to, a, sizeof(a)),
				label(s, t->steps[j].from, b, sizeof(b)));
		}
	}
	if (stepping < s->nt) {
		fprintf(out, "no step:");
		for (size_t i = 0, n = 0; i < s->nt; i++)
			if (!s->t[i].nsteps)
				fprintf(out, "%s %s", n++ ? "," : "", esc_str(a, sizeof(a), s->t[i].name));
		fputc('\n', out);
	}
	notes(out, s);
	fprintf(out, "\n%s\n", FIG_UNITS_NOTE);
}

static json_t *num(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static json_t *step_json(const struct series *s, const struct ser_test *t,
			 const struct ser_step *st)
{
	const struct cp_cand *c = &t->cand[st->cand];
	json_t *kept = json_array();
	for (size_t k = st->from + 1; k < st->to; k++)
		if (t->kept_out[k])
			json_array_append_new(kept, json_pack("{s:s, s:s}", "kernel", s->k[k].label,
							      "caveat", t->kept_out[k]));
	json_t *o = json_pack("{s:s, s:s, s:s, s:s, s:o, s:o, s:o, s:f, s:f, s:f, s:s, s:o, "
			      "s:o, s:I, s:I, s:o, s:b, s:b}",
			      "test", t->name, "unit", t->unit, "from", s->k[st->from].label,
			      "to", s->k[st->to].label, "change_pct", num(st->size.change_pct),
			      "ci_lo_pct", num(st->size.lo_pct), "ci_hi_pct", num(st->size.hi_pct),
			      "confidence", s->conf, "p", c->p, "q", c->q,
			      "direction", st->worse ? "worse" : "better",
			      "left_median", num(st->size.left), "right_median", num(st->size.right),
			      "left_runs", (json_int_t)st->size.nl, "right_runs", (json_int_t)st->size.nr,
			      "kept_out_between", kept, "drift", t->drift_of >= 0,
			      "one_run_a_kernel", t->single);
	json_object_set_new(o, "bisect", json_pack("[s, s]", s->k[st->to].label,
						   s->k[st->from].label));
	return o;
}

static json_t *test_json(const struct series *s, const struct ser_test *t, json_t *all)
{
	json_t *med = json_array(), *kept = json_array(), *steps = json_array();
	for (size_t k = 0; k < s->nk; k++) {
		json_array_append_new(med, t->t[k] && t->t[k]->summarised ?
				      num(t->t[k]->sum.median) : json_null());
		if (t->kept_out[k])
			json_array_append_new(kept, json_pack("{s:s, s:s}", "kernel", s->k[k].label,
							      "caveat", t->kept_out[k]));
	}
	for (size_t j = 0; j < t->nsteps; j++) {
		json_t *st = step_json(s, t, &t->steps[j]);
		json_array_append(steps, st);
		json_array_append_new(all, st);
	}
	json_t *o = json_pack("{s:s, s:s, s:b, s:o, s:o, s:I, s:o, s:b}", "name", t->name,
			      "unit", t->unit, "higher_is_better", t->higher_is_better,
			      "medians", med, "kept_out", kept, "positions", (json_int_t)t->positions,
			      "steps", steps, "one_run_a_kernel", t->single);
	json_object_set_new(o, "drift", t->drift_of < 0 ? json_null() :
			    json_pack("{s:s, s:o, s:f, s:f}", "control",
				      s->k[t->drift_of].label, "change_pct", num(t->drift_pct),
				      "p", t->drift_p, "q", t->drift_q));
	return o;
}

void ser_print_json(FILE *out, const struct series *s)
{
	json_t *kernels = json_array(), *tests = json_array(), *steps = json_array();
	for (size_t k = 0; k < s->nk; k++) {
		long of = s->k[k].control_of;
		json_array_append_new(kernels, json_pack("{s:s, s:s, s:s, s:o}", "label",
			s->k[k].label, "path", s->k[k].path, "kernel", s->k[k].kernel, "control_of",
			of < 0 ? json_null() : json_string(s->k[of].label)));
	}
	for (size_t i = 0; i < s->nt; i++)
		json_array_append_new(tests, test_json(s, &s->t[i], steps));
	json_t *doc = json_pack("{s:s, s:s, s:f, s:s, s:I, s:o, s:o, s:o}", "kind", "series",
				"method", "binary segmentation, Mann-Whitney U per split",
				"confidence", s->conf, "adjust", "bh", "candidates", (json_int_t)s->m,
				"kernels", kernels, "tests", tests, "steps", steps);
	if (doc) {
		json_dumpf(doc, out, JSON_INDENT(2) | JSON_ENSURE_ASCII);
		fputc('\n', out);
	}
	json_decref(doc);
}

int ser_gate(FILE *out, const struct series *s)
{
	char name[300], a[300], b[300], c[300], ch[32], q[32];
	size_t tripped = 0, doubted = 0;
	for (size_t i = 0; i < s->nt; i++) {
		const struct ser_test *t = &s->t[i];
		if (!t->nsteps || !t->steps[t->nsteps - 1].worse)
			continue;
		const struct ser_step *st = &t->steps[t->nsteps - 1];
		if (t->drift_of >= 0) {
			doubted++;
			continue;
		}
		tripped++;
		fig_change(ch, sizeof(ch), st->size.change_pct);
		q_text(q, sizeof(q), t->cand[st->cand].q);
		fprintf(out, "gate: %s: %s sits in a segment %s worse than before %s (q=%s); "
			"git bisect start %s %s\n", esc_str(name, sizeof(name), t->name),
			label(s, (size_t)s->newest, a, sizeof(a)), ch, label(s, st->to, b, sizeof(b)),
			q, b, label(s, st->from, c, sizeof(c)));
	}
	fprintf(out, "gate: %s: %zu of %zu tests proven worse at the newest kernel%s\n",
		tripped ? "failed" : "passed", tripped, s->nt,
		doubted ? " (more, doubted by drift, not counted)" : "");
	return tripped ? 4 : 0;
}
