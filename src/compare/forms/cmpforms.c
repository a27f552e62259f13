/* kbench - compare: the old tools' own forms (see cmpforms.h)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Strings from results files go through escape.h, as in cmpprint.c.
 */
#include "config.h"
#include "micro/byte/byte.h"
#include "micro/byte/bytereport.h"
#include "micro/byte/byteindex.h"
#include "compare/judge/cmpcav.h"
#include "compare/forms/cmpbyte.h"
#include "compare/forms/cmpbytescore.h"
#include "compare/forms/cmpforms.h"
#include "resultsfile/escape.h"
#include "resultsfile/figures.h"
#include "resultsfile/rowcav.h"
#include "compare/judge/cmpsettings.h"
#include "compare/judge/cmpsame.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SCISSORS "--8<----8<----8<----8<----8<----8<----8<----8<----8<----8<----8<----8<----8<--"

static const char *param_str(const struct sf_test *t, const char *key)
{
	return json_string_value(json_object_get(t->params, key));
}

void cmp_shown_name(const char *name, char *buf, size_t n)
{
	const struct micro_test *bt = cmp_byte_test(name);
	if (bt)
		snprintf(buf, n, "%s: %s", name, byte4_name(bt));
	else
		snprintf(buf, n, "%s", name);
}

void cmp_title(const struct cmp *c, const struct cmp_row *r, char *buf, size_t n)
{
	const struct micro_test *bt = cmp_byte_test(r->name);
	const char *title = param_str(r->t[0], "title");
	const char *cmd = param_str(r->t[0], "command");
	bool shared = false;
	for (size_t i = 0; title && i < c->nrows && !shared; i++) {
		const char *other = c->rows[i].t[0] ? param_str(c->rows[i].t[0], "title") : NULL;
		shared = &c->rows[i] != r && other && !strcmp(other, title);
	}
	if (bt)
		snprintf(buf, n, "%s", byte4_name(bt));
	else if (title && cmd && (!strcmp(cmd, "import") || !strcmp(cmd, "micro")) && shared)
		snprintf(buf, n, "%s (%s, %s%s)", title, r->name, r->unit,
			 r->higher_is_better ? "" : ", lower is better");
	else if (title && cmd && (!strcmp(cmd, "import") || !strcmp(cmd, "micro")) &&
		 !r->higher_is_better)
		snprintf(buf, n, "%s (%s, lower is better)", title, r->unit);
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
	return cmp_byte_test(r->name) || (tool && !strncmp(tool, "BYTE", 4));
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
	char line[512];
	bool disk = false;
	for (size_t i = 0; i < f->nt; i++)
		disk |= !strncmp(f->t[i].name, "disk ", 5);
	if (*cmp_machine_line(f, disk, NULL, line, sizeof(line))) {
		fputs("* ", out);   /* the machine, as the seeds' tables head theirs */
		esc_put(out, line, 0);
		fputc('\n', out);
	}
}

/* "From:" (or "To:") with the file's label when it names the build
 * (cmp_file_label), then who's lines. */
static void head(FILE *out, const struct cmp *c, size_t k, const char *word)
{
	const char *label = cmp_file_label(c->f, c->nf, k);
	fputs(word, out);
	if (label) {
		fputc(' ', out);
		esc_put(out, label, 0);
	}
	fputc('\n', out);
	who(out, &c->f[k]);
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

/* "  [caveats A: key*; B: key]" of row r's files 0 and k, * marking the
 * unsound keys; nothing when neither side's runs carry one. */
static void lkml_caveats(FILE *out, const struct cmp_row *r, size_t k)
{
	bool any = false;
	for (size_t s = 0; s <= k; s += k ? k : 1) {
		if (!json_array_size(r->cav[s]))
			continue;
		fprintf(out, "%s%c:", any ? "; " : "  [caveats ", (int)('A' + s));
		cmp_put_keys(out, r->cav[s]);
		any = true;
	}
	if (any)
		fputc(']', out);
}

static void lkml_pair(FILE *out, const struct cmp *c, size_t k, size_t *order)
{
	size_t n = 0;
	fprintf(out, "%s\n\n", SCISSORS);
	head(out, c, 0, "From:");
	fputc('\n', out);
	head(out, c, k, "To:");
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
		cmp_title(c, r, title, sizeof(title));
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
		char word[32], see[40];
		/* a machine setting that can move the row differs: not the kernel's alone */
		const char *ks = r->v[k] != T_REFUSED && cmp_settings_in(r->cav[k]) ?
				 " (kernel or settings)" : "";
		if (r->v[k] == T_SAME)
			fprintf(out, " %s (%s)%s", cmp_same_word(r, k, true, word, sizeof(word)),
				cmp_could_see(r, k, see, sizeof(see)), ks);
		else if (r->v[k] == T_TOO_FEW)
			fputs(" too-few-runs", out);  /* never a bare change */
		else
			fprintf(out, " %s%s", r->v[k] == T_REFUSED ? "not-comparable" :
				t_verdict_word(r->v[k]), ks);
		lkml_caveats(out, r, k);
		fputc('\n', out);
	}
	cmp_byte_lkml(out, c, k);     /* BYTE's FINAL SCOREs, when both have one */
	fputc('\n', out);
}

void cmp_print_lkml(FILE *out, const struct cmp *c)
{
	size_t *order = calloc(c->nrows + 1, sizeof(*order));
	if (!order)
		return;
	cmp_print_settings(out, c, "");
	for (size_t k = 1; k < c->nf; k++)
		lkml_pair(out, c, k, order);
	fprintf(out, "%s\n\n(%s of each; the verdict, when the runs allow one, by %s at %g%%: "
		"better, worse, same +-PCT (proven within it), not-proven; could see: the smallest "
		"change the runs could have proven)\n", SCISSORS,
		c->method == CMP_UTEST ? "medians" : "means",
		c->method == CMP_UTEST ? "the Mann-Whitney U test" : "Welch's t-test", c->conf);
	if (cmp_any_refused(c))
		fprintf(out, "(not-comparable: a caveat of the runs makes a verdict unsound; "
			"kbench compare names it)\n");
	bool few = false;
	for (size_t i = 0; i < c->nrows; i++)
		for (size_t k = 1; k < c->nf; k++)
			few |= c->rows[i].v[k] == T_TOO_FEW && c->rows[i].t[k] && c->rows[i].t[k]->n;
	if (few)
		fprintf(out, "(too-few-runs: with so few runs even the clearest difference could "
			"not be proven at the study's threshold; the change is shown, not a verdict; "
			"kbench suite --runs auto plans enough)\n");
	bool cav = false;
	for (size_t i = 0; i < c->nrows; i++)
		for (size_t k = 0; k < c->nf; k++)
			cav |= json_array_size(c->rows[i].cav[k]) > 0;
	if (cav)
		fprintf(out, "([caveats A: KEY]: what could make the runs' figures wrong, * where "
			"it makes them unsound; kbench compare's table says which runs)\n");
	bool set = false;
	for (size_t i = 0; i < c->nrows; i++)
		for (size_t k = 1; k < c->nf; k++)
			set |= cmp_settings_in(c->rows[i].cav[k]);
	if (set)
		fprintf(out, "(kernel or settings: a machine setting that can move the test differs "
			"between the two, settings_differ names it)\n");
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

/* Does any file of c hold a test imported from another tool's report? */
static bool any_imported(const struct cmp *c)
{
	for (size_t k = 0; k < c->nf; k++)
		for (size_t i = 0; i < c->f[k].nt; i++) {
			const char *cmd = param_str(&c->f[k].t[i], "command");
			if (cmd && !strcmp(cmd, "import"))
				return true;
		}
	return false;
}

/* The name of test t of file f as the old tool names it, without " mem=X"
 * (kbench suite's "load 5" is dbench's, or tbench's under -B sockio);
 * beside another tool's imported figures (mixed), kbench's own name with
 * "kbench " before it, so no row of kbench's shares a name with one of
 * the tool it replaces. */
static void old_name(const struct suitefile *f, const struct sf_test *t, bool mixed, char *buf,
		     size_t n)
{
	const char *cmd = param_str(t, "command");
	if (mixed && !(cmd && !strcmp(cmd, "import"))) {
		size_t ml, len = strlen(t->name);
		const char *m = mem_of(t->name, &ml);
		snprintf(buf, n, "kbench %.*s", (int)(m ? (size_t)(m - 5 - t->name) : len), t->name);
		return;
	}
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
	else if (cmp_byte_test(t->name))
		cmp_shown_name(t->name, buf, n);
	else
		snprintf(buf, n, "%.*s", (int)len, t->name);
}

/* The caveats of file k's test t as the runs form marks them: its row's
 * (rowcav_row), and for k >= 1 the machine settings that differ from A's
 * and can move it (cmpsettings.h).  A new array, or NULL. */
static json_t *test_caveats(const struct cmp *c, size_t k, const struct sf_test *t,
			    const struct rowcav_opts *o)
{
	json_t *cav = rowcav_row(t->row, o);
	const struct sf_test *ta = k ? cmp_find_test(&c->f[0], &c->f[k], t->name, t->unit) : NULL;
	if (cav && k)
		cmp_settings_caveats(c, k, ta, t, cav);
	if (cav)
		cmp_settings_run_caveats(c, k, t, cav);
	return cav;
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
	const char *mach = cmp_machine(&c->f[k]);
	for (size_t kk = 0; kk <= k; kk++) {
		if (strcmp(cmp_machine(&c->f[kk]), mach))
			continue;
		for (size_t ii = 0; ii < (kk == k ? i : c->f[kk].nt); ii++)
			if (in_block(&c->f[kk].t[ii], mem, mlen))
				return true;
	}
	return false;
}

/* The mark of run run_no's figure: '*' when one of its caveats (cav,
 * rowcav_row's) makes it unsound, '+' for another, 0 for none. */
static char run_mark(const json_t *cav, size_t run_no)
{
	static const char marks[] = { 0, '+', '*' };
	return marks[cmp_cav_run(cav, run_no)];
}

/* A run's figure as recorded, never in exponent form: MiB/s with two
 * decimals (hdparm's), else six significant digits. */
static void run_figure(FILE *out, const struct sf_test *t, double v, char mark)
{
	char buf[64];
	if (!strcmp(t->unit, "MiB/s"))
		snprintf(buf, sizeof(buf), "%.2f", v);
	else
		fig_plain(buf, sizeof(buf), v, 6);
	fprintf(out, " %s", buf);
	if (mark)
		fputc(mark, out);
}

/* The head of file k's rows: its label when that names the build
 * (cmp_file_label), then its kernel. */
static void runs_head(FILE *out, const struct cmp *c, size_t k)
{
	const char *label = cmp_file_label(c->f, c->nf, k);
	if (label) {
		esc_put(out, label, 0);
		fputs(" (kernel ", out);
	}
	esc_put(out, suitefile_sys(&c->f[k], "kernel"), 0);
	fputs(label ? ")" : "", out);
}

/* ": 2096 MHz CPU, DMA, 80M" after the block's machine (the first file
 * of it), cmp_machine_line's; false when it gives nothing. */
static bool block_machine(FILE *out, const struct cmp *c, const char *mach, const char *mem,
			  size_t mlen, const char *memtext)
{
	char line[512], m[128];
	for (size_t k = 0; k < c->nf; k++) {
		const struct suitefile *f = &c->f[k];
		bool disk = false;
		if (strcmp(cmp_machine(f), mach))
			continue;
		for (size_t i = 0; i < f->nt; i++)
			disk |= in_block(&f->t[i], mem, mlen) && !strncmp(f->t[i].name, "disk ", 5);
		snprintf(m, sizeof(m), "%.*s", mem ? (int)mlen : 0, mem ? mem : "");
		cmp_machine_line(f, disk, memtext && *memtext ? memtext : m, line, sizeof(line));
		if (!*line)
			return false;
		fputs(": ", out);
		esc_put(out, line, 0);
		return true;
	}
	return false;
}

/* The most runs any micro test of file f made (its last run's number):
 * the runs of the one job that makes them all, so that a test's last runs
 * without a figure show too (a load or disk job's runs are its own). */
static size_t micro_runs(const struct suitefile *f)
{
	size_t most = 0;
	for (size_t i = 0; i < f->nt; i++) {
		const char *cmd = param_str(&f->t[i], "command");
		if (!cmd || strcmp(cmd, "micro"))
			continue;
		const json_t *runs = json_object_get(f->t[i].row, "runs");
		size_t n = json_array_size(runs);
		size_t no = n ? rowcav_run_no(json_array_get(runs, n - 1), n - 1) : 0;
		most = no > most && no < 100000 ? no : most;
	}
	return most;
}

static void runs_block(FILE *out, const struct cmp *c, const char *mach, const char *mem,
		       size_t mlen, const char *memtext)
{
	struct rowcav_opts o = { c->conf, c->ticks_per_s };
	bool mixed = any_imported(c);
	fputs("======================================================================\n", out);
	esc_put(out, mach, 0);
	if (block_machine(out, c, mach, mem, mlen, memtext))
		;   /* the seeds' machine line: clock, CPU, the disk's DMA, memory */
	else if (mem) {
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
		if (strcmp(cmp_machine(f), mach))
			continue;
		for (size_t i = 0; i < f->nt; i++) {
			const struct sf_test *t = &f->t[i];
			char name[200];
			if (!in_block(t, mem, mlen) || !t->n)
				continue;
			if (!head) {
				runs_head(out, c, k);
				fputs(":\n", out);
				head = true;
			}
			old_name(f, t, mixed, name, sizeof(name));
			esc_put(out, name, 0);
			/* a test of no seed's form: its unit, so that a figure
			 * in ns is not read beside one in us */
			if (strncmp(name, "dbench ", 7) && strncmp(name, "tbench ", 7) &&
			    strncmp(name, "hdparm ", 7) && strncmp(name, "kbench ", 7) && *t->unit) {
				fputs(" (", out);
				esc_put(out, t->unit, 0);
				fputc(')', out);
			}
			json_t *cav = test_caveats(c, k, t, &o);
			const json_t *runs = json_object_get(t->row, "runs");
			size_t next = 1;
			for (size_t j = 0; j < t->n; j++) {
				size_t no = rowcav_run_no(json_array_get(runs, j), j);
				/* a run in which the test gave no figure: "-" in its place */
				for (; next < no && next < 100000; next++)
					fputs(" -", out);
				run_figure(out, t, t->v[j], run_mark(cav, no));
				next = no + 1;
			}
			const char *cmd = param_str(t, "command");
			for (size_t last = cmd && !strcmp(cmd, "micro") ? micro_runs(f) : 0;
			     next <= last; next++)
				fputs(" -", out);
			json_decref(cav);
			fputc('\n', out);
		}
	}
}

/* The caveats of row's runs that mark a figure (rowcav_row's with runs:
 * not the series' own, such as bimodal, which no one run carries). */
static json_t *run_caveats(const struct cmp *c, size_t k, const struct sf_test *t,
			   const struct rowcav_opts *o)
{
	json_t *all = test_caveats(c, k, t, o), *out = json_array();
	size_t i;
	json_t *cv;
	json_array_foreach(all, i, cv)
		if (out && json_array_size(json_object_get(cv, "runs")))
			json_array_append(out, cv);
	json_decref(all);
	return out;
}

/* Under the table: a line per file and test whose runs carry caveats
 * ("  KERNEL NAME: key* (runs 2)"), then what each key means; nothing
 * when no run carries one (the series' own caveats, bimodal, mixed_*,
 * mark no figure: the default table gives them). */
static void runs_caveats(FILE *out, const struct cmp *c)
{
	struct rowcav_opts o = { c->conf, c->ticks_per_s };
	json_t *seen = json_array();
	bool mixed = any_imported(c);
	for (size_t k = 0; seen && k < c->nf; k++)
		for (size_t i = 0; i < c->f[k].nt; i++) {
			const struct sf_test *t = &c->f[k].t[i];
			json_t *cav = run_caveats(c, k, t, &o);
			if (json_array_size(cav) && t->n) {
				char head[400], name[200], who[200];
				const char *label = cmp_file_label(c->f, c->nf, k);
				size_t ml;
				const char *m = mem_of(t->name, &ml);
				if (!json_array_size(seen))
					fputs("\ncaveats (a figure marked * carries one that makes it "
					      "unsound, + another; kbench compare gives no verdict on "
					      "the runs of a *):\n", out);
				old_name(&c->f[k], t, mixed, name, sizeof(name));
				snprintf(who, sizeof(who), "%s", label ? label :
					 suitefile_sys(&c->f[k], "kernel"));
				if (snprintf(head, sizeof(head), "%s %s%s%.*s", who, name,
					     m ? " mem=" : "", m ? (int)ml : 0, m ? m : "") < 0)
					head[0] = 0;
				rowcav_put_line(out, head, cav, seen);
			}
			json_decref(cav);
		}
	rowcav_put_meanings(out, seen);
	json_decref(seen);
}

void cmp_print_runs(FILE *out, const struct cmp *c)
{
	fputs("[MB/s: 10^6 bytes a second (dbench, tbench, kbench load, lmbench's bandwidths); "
	      "MiB/s: 2^20 (hdparm, kbench disk); KBps: 1024 bytes a second (BYTE); every run's "
	      "figure, bigger is better but for times]\n", out);
	cmp_print_settings(out, c, "");
	for (size_t k = 0; k < c->nf; k++)
		for (size_t i = 0; i < c->f[k].nt; i++) {
			const struct sf_test *t = &c->f[k].t[i];
			size_t mlen = 0;
			const char *mem = mem_of(t->name, &mlen);
			if (mem && !strncmp(mem, "none", 4))
				mem = NULL;
			if (block_seen(c, k, i, mem, mlen))
				continue;
			runs_block(out, c, cmp_machine(&c->f[k]), mem, mlen,
				   param_str(t, "mem_text"));
		}
	runs_caveats(out, c);
}
