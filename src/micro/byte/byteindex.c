/* kbench - micro: the BYTE UNIX Benchmarks index (baselines, scores, report)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The baseline figures are the published ones of a SPARCstation 20-61:
 * BYTE UNIX Benchmarks 4.1's index set and UnixBench 5's pgms/index.base
 * (which adds Shell Scripts (1 concurrent) at 42.4 lpm).  The report's
 * line and table forms follow UnixBench 5's text report.
 */
#include "config.h"
#include "micro/byte/byteindex.h"
#include "micro/byte/dhry.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

struct baseline_row {
	const char *test;    /* micro_test name */
	double value;        /* in the test's unit */
};

/* BYTE UNIX Benchmarks 4.1 */
static const struct baseline_row base_byte4[] = {
	{ "byte_dhry2", 116700.0 },
	{ "byte_whet", 55.0 },
	{ "byte_execl", 43.0 },
	{ "byte_fcopy_1024", 3960.0 },
	{ "byte_fcopy_256", 1655.0 },
	{ "byte_fcopy_4096", 5800.0 },
	{ "byte_pipe_1cpu", 12440.0 },
	{ "byte_context_1cpu", 4000.0 },
	{ "byte_spawn", 126.0 },
	{ "byte_shell8", 6.0 },
	{ "byte_syscall", 15000.0 },
	{ NULL, 0 },
};

/* UnixBench 5 pgms/index.base */
static const struct baseline_row base_unixbench5[] = {
	{ "byte_dhry2", 116700.0 },
	{ "byte_whet", 55.0 },
	{ "byte_execl", 43.0 },
	{ "byte_fcopy_1024", 3960.0 },
	{ "byte_fcopy_256", 1655.0 },
	{ "byte_fcopy_4096", 5800.0 },
	{ "byte_pipe_1cpu", 12440.0 },
	{ "byte_context_1cpu", 4000.0 },
	{ "byte_spawn", 126.0 },
	{ "byte_shell1", 42.4 },
	{ "byte_shell8", 6.0 },
	{ "byte_syscall", 15000.0 },
	{ NULL, 0 },
};

static const struct {
	const char *name;
	const char *what;
	const struct baseline_row *rows;
} baselines[] = {
	{ "byte4", "BYTE UNIX Benchmarks 4.1, SPARCstation 20-61", base_byte4 },
	{ "unixbench5", "UnixBench 5 index.base, SPARCstation 20-61", base_unixbench5 },
};

static const struct baseline_row *baseline_rows(const char *name, const char **what)
{
	if (!name)
		return NULL;
	for (size_t i = 0; i < sizeof baselines / sizeof baselines[0]; i++)
		if (!strcmp(baselines[i].name, name)) {
			if (what)
				*what = baselines[i].what;
			return baselines[i].rows;
		}
	return NULL;
}

static size_t baseline_count(const struct baseline_row *rows)
{
	size_t n = 0;
	while (rows[n].test)
		n++;
	return n;
}

int byte_baseline_valid(const char *name)
{
	return baseline_rows(name, NULL) ? 0 : -1;
}

size_t byte_baseline_count(const char *baseline)
{
	const struct baseline_row *rows = baseline_rows(baseline, NULL);
	return rows ? baseline_count(rows) : 0;
}

double byte_baseline_value(const char *baseline, const char *test_name)
{
	const struct baseline_row *rows = baseline_rows(baseline, NULL);
	if (!rows || !test_name)
		return NAN;
	for (; rows->test; rows++)
		if (!strcmp(rows->test, test_name))
			return rows->value;
	return NAN;
}

double byte_index(double value, double baseline)
{
	if (!(baseline > 0) || !isfinite(baseline) || !isfinite(value) || value < 0)
		return NAN;
	return value / baseline * 10.0;
}

double byte_geomean(const double *v, size_t n)
{
	if (n == 0)
		return NAN;
	double sum = 0;
	for (size_t i = 0; i < n; i++) {
		if (!isfinite(v[i]) || !(v[i] > 0))
			return NAN;
		sum += log(v[i]);
	}
	return exp(sum / (double)n);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

double byte_combine_samples(const double *v, size_t n, unsigned *kept)
{
	if (n == 0)
		return NAN;
	double *s = malloc(n * sizeof *s);
	if (!s)
		return NAN;
	memcpy(s, v, n * sizeof *s);
	qsort(s, n, sizeof *s, cmp_double);
	size_t drop = n / 3;
	double g = byte_geomean(s + drop, n - drop);
	free(s);
	if (kept && !isnan(g))
		*kept = (unsigned)(n - drop);
	return g;
}

static bool is_byte(const struct micro_test *t)
{
	return t && t->family == MICRO_BYTE && t->name;
}

static bool has_figure(const struct micro_result *r)
{
	return r->skipped[0] == '\0' && isfinite(r->value) && r->value > 0;
}

/* The indexes of the indexed tests that gave a figure; returns how many,
 * and whether all the baseline's tests are among them. */
static size_t collect_indexes(const struct micro_test *const *tests, const struct micro_result *res,
			      size_t n, const struct baseline_row *rows, double *idx, bool *full)
{
	size_t k = 0, nrows = baseline_count(rows);
	size_t found = 0;
	for (size_t r = 0; r < nrows; r++) {
		for (size_t i = 0; i < n; i++) {
			if (!is_byte(tests[i]) || strcmp(tests[i]->name, rows[r].test) || !has_figure(&res[i]))
				continue;
			idx[k++] = byte_index(res[i].value, rows[r].value);
			found++;
			break;
		}
	}
	*full = found == nrows;
	return k;
}

/* What kbench's tests still do otherwise than UnixBench 5.1.3's, by test
 * name prefix (the man page's "BYTE TESTS" says the same). */
static const struct { const char *prefix, *title, *what; } differences[] = {
	{ "byte_execl", "Execl Throughput",
	  "its image, kbench-execl, lacks the 8 KiB of data and unused code BYTE's carries" },
	{ "byte_shell", "Shell Scripts",
	  "the input is kbench's own text of 8546 bytes, the size of BYTE's sort.src" },
	{ NULL, NULL, NULL },
};

void byte_report_differences(FILE *out, const char *indent,
			     const struct micro_test *const *tests, size_t n)
{
	bool cpu = false;
	for (size_t d = 0; differences[d].prefix; d++)
		for (size_t i = 0; i < n; i++)
			if (is_byte(tests[i]) && !strncmp(tests[i]->name, differences[d].prefix,
							  strlen(differences[d].prefix))) {
				fprintf(out, "%s(against UnixBench 5.1.3, %s: %s)\n", indent,
					differences[d].title, differences[d].what);
				break;
			}
	for (size_t i = 0; i < n; i++)
		cpu |= is_byte(tests[i]) && (!strcmp(tests[i]->name, "byte_dhry2") ||
					     !strcmp(tests[i]->name, "byte_whet"));
	if (cpu && !strstr(dhry_build_cflags(), "-march="))
		fprintf(out, "%s(against UnixBench 5.1.3, Dhrystone and Whetstone: built without its "
			"-march=native; configure --enable-native adds it)\n", indent);
}

void byte_report_text(FILE *out, const struct micro_test *const *tests,
		      const struct micro_result *res, size_t n, const char *baseline)
{
	bool any = false, kb = false;
	for (size_t i = 0; i < n; i++) {
		const struct micro_test *t = tests[i];
		const struct micro_result *r = &res[i];
		if (!is_byte(t))
			continue;
		any = true;
		kb |= !strcmp(t->unit, "KBps");
		if (r->skipped[0]) {
			fprintf(out, "%-40s %12s %-5s (%s)\n", t->title, "-", t->unit, r->skipped);
			continue;
		}
		fprintf(out, "%-40s %12.1f %-5s (%.1f s, %u samples)", t->title, r->value, t->unit,
			r->sample_s, r->samples);
		if (isnan(r->cov_pct))
			fprintf(out, "  [min %.1f, max %.1f %s]\n", r->min, r->max, t->unit);
		else
			fprintf(out, "  [min %.1f, max %.1f %s, CoV %.1f%%]\n", r->min, r->max, t->unit,
				r->cov_pct);
	}
	if (!any)
		return;
	for (size_t i = 0; i < n; i++)
		if (is_byte(tests[i]) && (!strcmp(tests[i]->name, "byte_dhry2") ||
					  !strcmp(tests[i]->name, "byte_whet"))) {
			fprintf(out, "(Dhrystone and Whetstone built by %s, %s, with %s)\n",
				dhry_build_cc(), dhry_build_cc_version(), dhry_build_cflags());
			break;
		}
	byte_report_differences(out, "", tests, n);
	fprintf(out, "(lps: loops per second, lpm: loops per minute%s; the figure combines the\n"
		" kept samples, the worst third dropped; min, max, CoV of all samples)\n",
		kb ? ", KBps: KB (1024 bytes) per second" : "");

	const char *what = NULL;
	const struct baseline_row *rows = baseline_rows(baseline, &what);
	if (!rows)
		return;
	size_t nrows = baseline_count(rows);
	double *idx = calloc(nrows ? nrows : 1, sizeof *idx);
	if (!idx)
		return;
	bool full;
	size_t k = collect_indexes(tests, res, n, rows, idx, &full);
	if (k == 0) {
		free(idx);
		return;
	}
	double score = byte_geomean(idx, k);
	free(idx);

	fprintf(out, "\nIndex baseline: %s (%s)\n", baseline, what);
	fprintf(out, "%-40s %12s %12s %8s\n",
		full ? "System Benchmarks Index Values" : "System Benchmarks Partial Index",
		"BASELINE", "RESULT", "INDEX");
	for (size_t r = 0; r < nrows; r++) {
		for (size_t i = 0; i < n; i++) {
			if (!is_byte(tests[i]) || strcmp(tests[i]->name, rows[r].test) || !has_figure(&res[i]))
				continue;
			fprintf(out, "%-40s %12.1f %12.1f %8.1f\n", tests[i]->title, rows[r].value,
				res[i].value, byte_index(res[i].value, rows[r].value));
			break;
		}
	}
	fprintf(out, "%-40s %12s %12s %8s\n", "", "", "", "========");
	fprintf(out, "%-66s %8.1f\n",
		full ? "System Benchmarks Index Score" : "System Benchmarks Index Score (Partial Only)",
		score);
}

json_t *byte_index_json(const struct micro_test *const *tests, const struct micro_result *res,
			size_t n, const char *baseline)
{
	const struct baseline_row *rows = baseline_rows(baseline, NULL);
	if (!rows)
		return NULL;
	size_t nrows = baseline_count(rows);
	double *idx = calloc(nrows ? nrows : 1, sizeof *idx);
	if (!idx)
		return NULL;
	bool full;
	size_t k = collect_indexes(tests, res, n, rows, idx, &full);
	if (k == 0) {
		free(idx);
		return NULL;
	}
	double score = byte_geomean(idx, k);
	free(idx);

	json_t *arr = json_array();
	json_t *doc = json_object();
	if (!arr || !doc)
		goto fail;
	for (size_t r = 0; r < nrows; r++) {
		for (size_t i = 0; i < n; i++) {
			if (!is_byte(tests[i]) || strcmp(tests[i]->name, rows[r].test) || !has_figure(&res[i]))
				continue;
			json_t *o = json_pack("{s:s, s:s, s:s, s:f, s:f, s:f}",
					      "name", tests[i]->name, "title", tests[i]->title,
					      "unit", tests[i]->unit,
					      "baseline_value", rows[r].value, "value", res[i].value,
					      "index", byte_index(res[i].value, rows[r].value));
			if (!o || json_array_append_new(arr, o))
				goto fail;
			break;
		}
	}
	int bad = json_object_set_new(doc, "tests", arr);
	arr = NULL;      /* the document owns it now, or it is gone */
	if (bad || json_object_set_new(doc, "baseline", json_string(baseline)) ||
	    json_object_set_new(doc, "partial", json_boolean(!full)) ||
	    json_object_set_new(doc, "final_score", json_real(score)))
		goto fail;
	return doc;
fail:
	json_decref(arr);
	json_decref(doc);
	return NULL;
}
