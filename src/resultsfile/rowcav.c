/* kbench - the caveats of a results file's test rows
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What suite's progress lines and table notes and compare's verdicts
 * read: one place that turns a row's runs into its caveats.
 */
#include "config.h"
#include "resultsfile/rowcav.h"
#include "result/caveat.h"
#include "stats/modes.h"
#include "resultsfile/escape.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* The test a caveat is about, as the row names it (name less
 * " mem=VALUE"): does row_name name it?  A micro caveat names its test
 * as the row does; a disk caveat names hdparm's timing ("cached",
 * "buffered"), whose row is suite's "disk -T" or "disk -t". */
static bool same_test(const char *test, const char *row_name)
{
	if (!strcmp(test, "cached"))
		test = "disk -T";
	else if (!strcmp(test, "buffered"))
		test = "disk -t";
	size_t n = strlen(test);
	return !strncmp(test, row_name, n) && (row_name[n] == 0 || !strncmp(row_name + n, " mem=", 5));
}

json_t *rowcav_run(const json_t *run, const char *row_name, const struct rowcav_opts *o)
{
	json_t *all = caveat_derive(json_object_get(run, "document"), o->ticks_per_s, o->conf);
	json_t *mine = all ? json_array() : NULL;
	size_t i;
	json_t *c;
	if (!mine) {
		json_decref(all);
		return NULL;
	}
	json_array_foreach(all, i, c) {
		const char *test = json_string_value(json_object_get(json_object_get(c, "evidence"),
								     "test"));
		if (!test || !row_name || same_test(test, row_name))
			json_array_append(mine, c);
	}
	json_decref(all);
	return mine;
}

static json_t *find(json_t *list, const char *key)
{
	size_t i;
	json_t *c;
	json_array_foreach(list, i, c)
		if (!strcmp(json_string_value(json_object_get(c, "key")), key))
			return c;
	return NULL;
}

/* mixed_KEY when the runs' documents differ in the string at path
 * (a key of "system", or top-level when sys is false). */
static void mixed(json_t *out, const json_t *runs, const char *key, bool sys, const char *field,
		  const char *what)
{
	const char *first = NULL;
	size_t i;
	const json_t *r;
	json_array_foreach(runs, i, r) {
		const json_t *d = json_object_get(r, "document");
		const char *v = json_string_value(json_object_get(sys ? json_object_get(d, "system") : d,
								  field));
		if (!v)
			continue;
		if (!first) {
			first = v;
		} else if (strcmp(first, v)) {
			size_t no = rowcav_run_no(r, i);
			caveat_add(out, key, json_pack("{s:s, s:s, s:I}", "first", first, "other", v,
				   "run", (json_int_t)no), "the runs ran on different %s: %s, "
				   "and %s from run %zu", what, first, v, no);
			json_object_set_new(find(out, key), "runs", json_array());
			return;
		}
	}
}

/* bimodal when the runs' values form two clusters (stats/modes.h). */
static void bimodal(json_t *out, const json_t *runs)
{
	size_t i, n = 0;
	const json_t *r;
	struct modes m;
	double *v = malloc((json_array_size(runs) + 1) * sizeof(*v));
	if (!v)
		return;
	json_array_foreach(runs, i, r)
		if (json_is_number(json_object_get(r, "value")))
			v[n++] = json_number_value(json_object_get(r, "value"));
	if (modes_bimodal(v, n, &m) == 1) {
		caveat_add(out, "bimodal", json_pack("{s:f, s:I, s:f, s:I, s:f}", "low_center",
			   m.low_center, "low_runs", (json_int_t)m.low_n, "high_center",
			   m.high_center, "high_runs", (json_int_t)m.high_n, "gap", m.gap),
			   "the runs form two clusters: %.6g (%zu runs) and %.6g (%zu runs)",
			   m.low_center, m.low_n, m.high_center, m.high_n);
		json_object_set_new(find(out, "bimodal"), "runs", json_array());
	}
	free(v);
}

size_t rowcav_run_no(const json_t *run, size_t index)
{
	json_int_t no = json_integer_value(json_object_get(run, "run_no"));
	return no >= 1 && no <= 1000000 ? (size_t)no : index + 1;
}

json_t *rowcav_row(const json_t *row, const struct rowcav_opts *o)
{
	json_t *out = json_array();
	const json_t *runs = json_object_get(row, "runs");
	const char *name = json_string_value(json_object_get(row, "name"));
	size_t i, j;
	const json_t *r;
	json_t *c;
	if (!out)
		return NULL;
	json_array_foreach(runs, i, r) {
		json_t *rc = rowcav_run(r, name, o);
		json_array_foreach(rc, j, c) {
			const char *key = json_string_value(json_object_get(c, "key"));
			json_t *have = find(out, key);
			if (!have) {
				have = json_deep_copy(c);
				json_object_set_new(have, "runs", json_array());
				json_array_append_new(out, have);
			}
			json_array_append_new(json_object_get(have, "runs"),
					      json_integer((json_int_t)rowcav_run_no(r, i)));
		}
		json_decref(rc);
	}
	mixed(out, runs, "mixed_kernels", true, "kernel", "kernels");
	mixed(out, runs, "mixed_hosts", true, "hostname", "hosts");
	mixed(out, runs, "mixed_builds", false, "kbench_version", "kbench versions");
	bimodal(out, runs);
	return out;
}

/* "key* (runs 1, 2)" into f. */
static void put_caveat(FILE *f, const json_t *c)
{
	const char *key = json_string_value(json_object_get(c, "key"));
	const json_t *runs = json_object_get(c, "runs");
	size_t i;
	const json_t *n;
	esc_put(f, key, 0);
	if (caveat_unsound(key))
		fputc('*', f);
	if (json_array_size(runs))
		fprintf(f, " (run%s", json_array_size(runs) == 1 ? "" : "s");
	json_array_foreach(runs, i, n)
		fprintf(f, "%s%lld", i ? ", " : " ", (long long)json_integer_value(n));
	if (json_array_size(runs))
		fputc(')', f);
}

void rowcav_put_line(FILE *f, const char *head, const json_t *cav, json_t *seen)
{
	size_t j;
	const json_t *c;
	fputs("  ", f);
	esc_put(f, head, 0);
	fputs(": ", f);
	json_array_foreach(cav, j, c) {
		if (j)
			fputs(", ", f);
		put_caveat(f, c);
		if (seen && !find(seen, json_string_value(json_object_get(c, "key"))))
			json_array_append(seen, (json_t *)c);
	}
	fputc('\n', f);
}

void rowcav_put_meanings(FILE *f, const json_t *seen)
{
	size_t j;
	const json_t *c;
	json_array_foreach(seen, j, c) {
		fputs("  ", f);
		esc_put(f, json_string_value(json_object_get(c, "key")), 0);
		fputs(": ", f);
		const struct caveat_kind *k = caveat_kind(json_string_value(json_object_get(c, "key")));
		esc_put(f, k ? k->meaning : json_string_value(json_object_get(c, "text")), 0);
		fputs("; e.g. ", f);
		esc_put(f, json_string_value(json_object_get(c, "text")), 0);
		fputc('\n', f);
	}
}

void rowcav_print_table_notes(FILE *f, const json_t *doc, const struct rowcav_opts *o)
{
	size_t i;
	const json_t *t;
	json_t *seen = json_array();
	if (!seen)
		return;
	json_array_foreach(json_object_get(doc, "tests"), i, t) {
		json_t *cav = rowcav_row(t, o);
		if (!json_array_size(cav)) {
			json_decref(cav);
			continue;
		}
		if (!json_array_size(seen))
			fprintf(f, "\ncaveats (* : kbench compare gives no verdict on these runs):\n");
		rowcav_put_line(f, json_string_value(json_object_get(t, "name")), cav, seen);
		json_decref(cav);
	}
	rowcav_put_meanings(f, seen);
	json_decref(seen);
}
