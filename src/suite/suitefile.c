/* kbench - suite results files: reading, checking, the Go benchmark form
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every check that can refuse a file is made here, before anything is
 * printed from it, so a bad file gives one line and status 2.
 */
#include "config.h"
#include "cli.h"
#include "stats/summary.h"
#include "suite/suitefile.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static int refuse(const char *cmd, const char *path, const char *why)
{
	fprintf(stderr, "%s: %s: %s\n", cmd, path, why);
	return KB_EXIT_USAGE;
}

void suitefile_free(struct suitefile *sf)
{
	for (size_t i = 0; i < sf->nt; i++)
		free(sf->t[i].v);
	free(sf->t);
	free(sf->path);
	json_decref(sf->doc);
	memset(sf, 0, sizeof(*sf));
}

/* Fill one sf_test from a tests[] entry; -1 if malformed (why says how). */
static int read_test(json_t *t, struct sf_test *out, char *why, size_t whylen)
{
	json_t *name = json_object_get(t, "name"), *unit = json_object_get(t, "unit");
	json_t *hib = json_object_get(t, "higher_is_better"), *runs = json_object_get(t, "runs");
	if (!json_is_object(t) || !json_is_string(name) || !json_is_string(unit) ||
	    !json_is_boolean(hib) || !json_is_array(runs)) {
		snprintf(why, whylen, "a test without name, unit, higher_is_better or runs");
		return -1;
	}
	out->name = json_string_value(name);
	out->unit = json_string_value(unit);
	out->higher_is_better = json_is_true(hib);
	out->params = json_object_get(t, "params");
	out->n = 0;
	out->v = malloc((json_array_size(runs) + 1) * sizeof(double));
	if (!out->v) {
		snprintf(why, whylen, "out of memory");
		return -1;
	}
	size_t i;
	json_t *r;
	json_array_foreach(runs, i, r) {
		json_t *v = json_object_get(r, "value");
		if (!json_is_number(v) || !isfinite(json_number_value(v))) {
			snprintf(why, whylen, "test '%s': run %zu has no numeric value", out->name,
				 i + 1);
			return -1;
		}
		out->v[out->n++] = json_number_value(v);
	}
	/* figures whose sum or spread overflows a double would print made-up
	 * means and intervals */
	struct summary sm;
	if (out->n && (summary_of(out->v, out->n, &sm) < 0 || !isfinite(sm.mean) ||
		       (out->n > 1 && !isfinite(sm.stddev)))) {
		snprintf(why, whylen, "test '%s': its figures are too large to average", out->name);
		return -1;
	}
	return 0;
}

int suitefile_load(const char *cmd, const char *path, bool need_runs, struct suitefile *out)
{
	json_error_t jerr;
	char why[300];
	memset(out, 0, sizeof(*out));
	FILE *f = fopen(path, "re");
	if (!f)
		return refuse(cmd, path, strerror(errno));
	struct stat st;
	if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
		fclose(f);
		return refuse(cmd, path, strerror(EISDIR));
	}
	json_t *doc = json_loadf(f, JSON_REJECT_DUPLICATES, &jerr);
	fclose(f);
	if (!doc) {
		snprintf(why, sizeof(why), "not a kbench results file: not JSON (line %d: %s)",
			 jerr.line, jerr.text);
		return refuse(cmd, path, why);
	}
	out->doc = doc;
	out->path = strdup(path);
	json_t *kind = json_object_get(doc, "kind"), *schema = json_object_get(doc, "schema");
	json_t *tests = json_object_get(doc, "tests");
	int rc = KB_EXIT_USAGE;
	if (!out->path) {
		refuse(cmd, path, "out of memory");
	} else if (!json_is_object(doc) || !json_is_string(json_object_get(doc, "kbench_version"))) {
		refuse(cmd, path, "not a kbench results file");
	} else if (!json_is_string(kind) || strcmp(json_string_value(kind), "suite")) {
		snprintf(why, sizeof(why), "not a kbench suite results file (kind \"%s\"; "
			 "'kbench suite' writes them)", json_is_string(kind) ?
			 json_string_value(kind) : "?");
		refuse(cmd, path, why);
	} else if (!json_is_integer(schema) || json_integer_value(schema) < 1) {
		refuse(cmd, path, "no schema version: not a kbench suite results file");
	} else if (json_integer_value(schema) > SUITE_SCHEMA) {
		snprintf(why, sizeof(why), "schema %lld is newer than this kbench reads (%d); "
			 "use a newer kbench", (long long)json_integer_value(schema), SUITE_SCHEMA);
		refuse(cmd, path, why);
	} else if (!json_is_array(tests)) {
		refuse(cmd, path, "no tests array: not a complete kbench suite results file");
	} else {
		rc = 0;
	}
	if (rc) {
		suitefile_free(out);
		return rc;
	}
	out->t = calloc(json_array_size(tests) + 1, sizeof(*out->t));
	if (!out->t) {
		suitefile_free(out);
		return refuse(cmd, path, "out of memory");
	}
	size_t i;
	json_t *t;
	json_array_foreach(tests, i, t) {
		if (read_test(t, &out->t[out->nt], why, sizeof(why)) < 0) {
			out->nt++;
			suitefile_free(out);
			return refuse(cmd, path, why);
		}
		out->nruns += out->t[out->nt].n;
		for (size_t j = 0; j < out->nt; j++)
			if (!strcmp(out->t[j].name, out->t[out->nt].name) &&
			    !strcmp(out->t[j].unit, out->t[out->nt].unit)) {
				snprintf(why, sizeof(why), "test '%s' (%s) appears twice",
					 out->t[j].name, out->t[j].unit);
				out->nt++;
				suitefile_free(out);
				return refuse(cmd, path, why);
			}
		out->nt++;
	}
	if (need_runs && out->nruns == 0) {
		suitefile_free(out);
		return refuse(cmd, path, "no runs recorded: nothing to compare");
	}
	return 0;
}

const char *suitefile_sys(const struct suitefile *sf, const char *key)
{
	const char *s = json_string_value(json_object_get(json_object_get(sf->doc, "system"), key));
	return s ? s : "";
}

/* a name part without blanks */
static void word(char *dst, size_t n, const char *src)
{
	size_t i = 0;
	for (; src && *src && i + 1 < n; src++)
		dst[i++] = isspace((unsigned char)*src) ? '_' : *src;
	/* cut short inside a UTF-8 character: leave out its first bytes too */
	if (src && ((unsigned char)*src & 0xc0) == 0x80) {
		while (i > 0 && ((unsigned char)dst[i - 1] & 0xc0) == 0x80)
			i--;
		if (i > 0)
			i--;
	}
	dst[i] = '\0';
}

void suitefile_go_name(const json_t *test, char *buf, size_t n)
{
	const json_t *p = json_object_get(test, "params");
	const char *command = json_string_value(json_object_get(p, "command"));
	char w[128];
	if (command && !strcmp(command, "load")) {
		const char *mem = json_string_value(json_object_get(p, "mem_limit"));
		word(w, sizeof(w), mem);
		snprintf(buf, n, "Load/clients=%lld%s%s",
			 (long long)json_integer_value(json_object_get(p, "clients")),
			 mem ? "/mem=" : "", mem ? w : "");
	} else if (command && !strcmp(command, "disk")) {
		word(w, sizeof(w), json_string_value(json_object_get(p, "test")));
		snprintf(buf, n, "Disk/test=%s", w);
	} else if (command && !strcmp(command, "micro")) {
		word(w, sizeof(w), json_string_value(json_object_get(test, "name")));
		snprintf(buf, n, "Micro/test=%s", w);
	} else {
		word(w, sizeof(w), json_string_value(json_object_get(test, "name")));
		snprintf(buf, n, "%s", w);
		if (islower((unsigned char)buf[0]))
			buf[0] = (char)toupper((unsigned char)buf[0]);
	}
}

/* The unit as a Go benchmark unit: no blanks; a bare time unit is per
 * operation ("us" -> "us/op"), as Go writes ns/op. */
static void go_unit(char *dst, size_t n, const char *unit)
{
	word(dst, n, unit);
	if (!strcmp(dst, "ns") || !strcmp(dst, "us") || !strcmp(dst, "ms") || !strcmp(dst, "s"))
		snprintf(dst + strlen(dst), n - strlen(dst), "/op");
}

static void config_line(FILE *f, const char *key, const char *value)
{
	if (!value || !*value)
		return;
	fprintf(f, "%s: ", key);
	for (; *value; value++)
		fputc(*value == '\n' ? ' ' : *value, f);
	fputc('\n', f);
}

void suitefile_benchstat(FILE *f, const json_t *doc)
{
	const json_t *sys = json_object_get(doc, "system");
	const char *machine = json_string_value(json_object_get(sys, "machine"));
	const char *arch = machine;
	if (machine && !strcmp(machine, "x86_64"))
		arch = "amd64";
	else if (machine && !strcmp(machine, "aarch64"))
		arch = "arm64";
	config_line(f, "goos", "linux");
	config_line(f, "goarch", arch);
	config_line(f, "kernel", json_string_value(json_object_get(sys, "kernel")));
	config_line(f, "host", json_string_value(json_object_get(sys, "hostname")));
	config_line(f, "cpu", json_string_value(json_object_get(sys, "cpu_model")));
	config_line(f, "label", json_string_value(json_object_get(doc, "label")));
	config_line(f, "kbench", json_string_value(json_object_get(doc, "kbench_version")));
	size_t i, j;
	json_t *t, *r;
	const json_t *tests = json_object_get(doc, "tests");
	char unit[64], name[256];
	/* each unit's direction once, before the lines that use it */
	json_t *seen = json_object();
	json_array_foreach(tests, i, t) {
		go_unit(unit, sizeof(unit), json_string_value(json_object_get(t, "unit")));
		if (!seen || json_object_get(seen, unit))
			continue;
		json_object_set_new(seen, unit, json_true());
		fprintf(f, "Unit %s better=%s\n", unit,
			json_is_true(json_object_get(t, "higher_is_better")) ? "higher" : "lower");
	}
	json_decref(seen);
	fputc('\n', f);
	json_array_foreach(tests, i, t) {
		suitefile_go_name(t, name, sizeof(name));
		go_unit(unit, sizeof(unit), json_string_value(json_object_get(t, "unit")));
		json_array_foreach(json_object_get(t, "runs"), j, r) {
			json_t *v = json_object_get(r, "value");
			if (json_is_number(v))
				fprintf(f, "Benchmark%s 1 %.10g %s\n", name, json_number_value(v), unit);
		}
	}
}
