/* kbench - suite results files: reading, checking, the Go benchmark form
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every check that can refuse a file is made here, before anything is
 * printed from it, so a bad file gives one line and status 2: the layout,
 * and figures no measurement can give (a negative throughput or time).
 * Names from the file in those lines are escaped (escape.h).
 */
#include "config.h"
#include "cli.h"
#include "stats/summary.h"
#include "resultsfile/escape.h"
#include "resultsfile/suitefile.h"
#include "resultsfile/sfmicro.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int refuse(FILE *errs, const char *cmd, const char *path, const char *why)
{
	if (errs) {
		fprintf(errs, "%s: ", cmd);
		esc_put(errs, path, 0);
		fprintf(errs, ": %s\n", why);
	}
	return KB_EXIT_USAGE;
}

bool suitefile_unit_nonnegative(const char *unit)
{
	static const char *const units[] = { "MB/s", "MiB/s", "KBps", "lps", "lpm", "MWIPS",
					     "ns", "us", "ms", "s", "seconds" };
	static const char *const ends[] = { "/s", "/op", "ps" };
	size_t n = strlen(unit);
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (!strcmp(unit, units[i]))
			return true;
	for (size_t i = 0; i < sizeof(ends) / sizeof(ends[0]); i++)
		if (n > strlen(ends[i]) && !strcmp(unit + n - strlen(ends[i]), ends[i]))
			return true;
	return false;
}

void suitefile_free(struct suitefile *sf)
{
	for (size_t i = 0; i < sf->nt; i++) {
		free(sf->t[i].v);
		free(sf->t[i].own_name);
	}
	free(sf->t);
	free(sf->path);
	json_decref(sf->doc);
	memset(sf, 0, sizeof(*sf));
}

int suitefile_test(const json_t *t, struct sf_test *out, char *why, size_t whylen)
{
	char name[120];
	json_t *jname = json_object_get(t, "name"), *junit = json_object_get(t, "unit");
	json_t *hib = json_object_get(t, "higher_is_better"), *runs = json_object_get(t, "runs");
	memset(out, 0, sizeof(*out));
	if (!json_is_object(t) || !json_is_string(jname) || !json_is_string(junit) ||
	    !json_is_boolean(hib) || !json_is_array(runs)) {
		snprintf(why, whylen, "a test without name, unit, higher_is_better or runs");
		return -1;
	}
	out->name = json_string_value(jname);
	out->unit = json_string_value(junit);
	out->higher_is_better = json_is_true(hib);
	out->params = json_object_get(t, "params");
	out->row = t;
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
			snprintf(why, whylen, "test '%s': run %zu has no numeric value",
				 esc_str(name, sizeof(name), out->name), i + 1);
			return -1;
		}
		out->v[out->n++] = json_number_value(v);
	}
	out->summarised = out->n && summary_of(out->v, out->n, &out->sum) == 0;
	return 0;
}

/* Is a micro document's test name doc_name the test of row row_name,
 * whose memory limit is mem (NULL: none): the same name, or row_name is
 * doc_name with " mem=MEM" added (kbench suite's jobs.c)? */
static bool micro_name_is(const char *doc_name, const char *row_name, const char *mem)
{
	size_t n = strlen(doc_name);
	return !strcmp(doc_name, row_name) ||
	       (mem && !strncmp(row_name, doc_name, n) && !strncmp(row_name + n, " mem=", 5) &&
		!strcmp(row_name + n + 5, mem));
}

int suitefile_run_steal(const json_t *doc, const json_t *row, double *pct, double *wall_s,
			char *why, size_t whylen)
{
	const char *kind = json_string_value(json_object_get(doc, "kind"));
	const json_t *results = json_object_get(doc, "results"), *src = NULL, *t;
	const char *wall_key = NULL;
	if (kind && !strcmp(kind, "load")) {
		src = results;
		wall_key = "measured_s";
	} else if (kind && !strcmp(kind, "micro")) {
		const char *name = json_string_value(json_object_get(row, "name"));
		const char *mem = json_string_value(json_object_get(json_object_get(row, "params"),
								     "mem_limit"));
		size_t i;
		json_array_foreach(json_object_get(results, "tests"), i, t) {
			const char *n = json_string_value(json_object_get(t, "name"));
			if (n && name && micro_name_is(n, name, mem)) {
				src = t;
				break;
			}
		}
		wall_key = "run_s";
	}
	if (!json_is_object(src))
		return 0;
	const json_t *p = json_object_get(src, "steal_pct"), *w = json_object_get(src, wall_key);
	if (!p || json_is_null(p))
		return 0;
	if (!json_is_number(p) || !(json_number_value(p) >= 0 && json_number_value(p) <= 100)) {
		char text[40] = "not a number";
		if (json_is_number(p))
			snprintf(text, sizeof(text), "%g", json_number_value(p));
		snprintf(why, whylen, "the steal_pct of its %s document is %s: a share of a CPU's "
			 "time is a number from 0 to 100", kind, text);
		return -1;
	}
	if (!w || json_is_null(w))
		return 0;
	if (!json_is_number(w) || !(json_number_value(w) >= 0)) {
		char text[40] = "not a number";
		if (json_is_number(w))
			snprintf(text, sizeof(text), "%g", json_number_value(w));
		snprintf(why, whylen, "the %s of its %s document is %s: seconds are a number of 0 "
			 "or more", wall_key, kind, text);
		return -1;
	}
	*pct = json_number_value(p);
	*wall_s = json_number_value(w);
	return 1;
}

/* suitefile_test, and the figures no measurement gives: a negative one in
 * a unit that cannot have one (the first such run, unless a run without
 * a figure comes first), figures whose sum or spread overflows a double
 * (they would print made-up means and intervals), a run whose document
 * records a steal no measurement gives (suitefile_run_steal); -1 with
 * why. */
static int read_test(const json_t *t, struct sf_test *out, char *why, size_t whylen)
{
	char name[120], unit[40];
	int rc = suitefile_test(t, out, why, whylen);
	if (!out->v)
		return -1;
	esc_str(name, sizeof(name), out->name);
	esc_str(unit, sizeof(unit), out->unit);
	for (size_t i = 0; suitefile_unit_nonnegative(out->unit) && i < out->n; i++)
		if (out->v[i] < 0) {
			snprintf(why, whylen, "test '%s': run %zu is %g %s, and a figure in %s cannot "
				 "be negative", name, i + 1, out->v[i], unit, unit);
			return -1;
		}
	if (rc < 0)
		return -1;
	size_t i;
	json_t *r;
	json_array_foreach(json_object_get(t, "runs"), i, r) {
		double pct, wall_s;
		char steal[200];
		if (suitefile_run_steal(json_object_get(r, "document"), t, &pct, &wall_s, steal,
					sizeof(steal)) < 0) {
			snprintf(why, whylen, "test '%s': run %zu: %s", name, i + 1, steal);
			return -1;
		}
	}
	if (out->n && (!out->summarised || !isfinite(out->sum.mean) ||
		       (out->n > 1 && !isfinite(out->sum.stddev)))) {
		snprintf(why, whylen, "test '%s': its figures are too large to average", name);
		return -1;
	}
	return 0;
}

/* The document's kind and schema; 0, or -1 with the reason in why. */
static int check_kind(json_t *doc, char *why, size_t whylen)
{
	json_t *kind = json_object_get(doc, "kind"), *schema = json_object_get(doc, "schema");
	char k[60];
	if (!json_is_object(doc) || !json_is_string(json_object_get(doc, "kbench_version"))) {
		snprintf(why, whylen, "not a kbench results file");
	} else if (!json_is_string(kind) || strcmp(json_string_value(kind), "suite")) {
		snprintf(why, whylen, "not a kbench suite results file (kind \"%s\"; "
			 "'kbench suite' writes them)", json_is_string(kind) ?
			 esc_str(k, sizeof(k), json_string_value(kind)) : "?");
	} else if (!json_is_integer(schema) || json_integer_value(schema) < 1) {
		snprintf(why, whylen, "no schema version: not a kbench suite results file");
	} else if (json_integer_value(schema) > SUITE_SCHEMA) {
		snprintf(why, whylen, "schema %lld is newer than this kbench reads (%d); "
			 "use a newer kbench", (long long)json_integer_value(schema), SUITE_SCHEMA);
	} else if (!json_is_array(json_object_get(doc, "tests"))) {
		snprintf(why, whylen, "no tests array: not a complete kbench suite results file");
	} else {
		return 0;
	}
	return -1;
}

/* Every test of the document into out->t; 0, or -1 with why. */
static int read_tests(struct suitefile *out, char *why, size_t whylen)
{
	json_t *tests = json_object_get(out->doc, "tests"), *t;
	size_t i;
	out->t = calloc(json_array_size(tests) + 1, sizeof(*out->t));
	if (!out->t) {
		snprintf(why, whylen, "out of memory");
		return -1;
	}
	json_array_foreach(tests, i, t) {
		struct sf_test *new = &out->t[out->nt];
		int rc = read_test(t, new, why, whylen);
		out->nt++;    /* so suitefile_free frees its figures */
		if (rc < 0)
			return -1;
		out->nruns += new->n;
		for (size_t j = 0; j + 1 < out->nt; j++)
			if (!strcmp(out->t[j].name, new->name) && !strcmp(out->t[j].unit, new->unit)) {
				char name[120], unit[40];
				snprintf(why, whylen, "test '%s' (%s) appears twice",
					 esc_str(name, sizeof(name), new->name),
					 esc_str(unit, sizeof(unit), new->unit));
				return -1;
			}
	}
	return 0;
}

int suitefile_read(const char *cmd, const char *name, FILE *in, FILE *errs, bool need_runs,
		   struct suitefile *out)
{
	json_error_t jerr;
	char why[400];
	memset(out, 0, sizeof(*out));
	json_t *doc = json_loadf(in, JSON_REJECT_DUPLICATES, &jerr);
	if (!doc) {
		char text[200];
		snprintf(why, sizeof(why), "not a kbench results file: not JSON (line %d: %s)",
			 jerr.line, esc_str(text, sizeof(text), jerr.text));
		return refuse(errs, cmd, name, why);
	}
	if (sfmicro_is_micro(doc)) {
		/* a plain kbench micro --json document: one run of each test */
		json_t *as = sfmicro_as_suite(doc);
		json_decref(doc);
		if (!as)
			return refuse(errs, cmd, name, "a kbench micro document without "
				      "results.tests (or out of memory)");
		doc = as;
	}
	out->doc = doc;
	out->path = strdup(name);
	int rc = 0;
	if (!out->path) {
		snprintf(why, sizeof(why), "out of memory");
		rc = -1;
	}
	if (!rc)
		rc = check_kind(doc, why, sizeof(why));
	if (!rc)
		rc = read_tests(out, why, sizeof(why));
	if (!rc && need_runs && out->nruns == 0) {
		snprintf(why, sizeof(why), "no runs recorded: nothing to compare");
		rc = -1;
	}
	if (rc) {
		suitefile_free(out);
		return refuse(errs, cmd, name, why);
	}
	return 0;
}

int suitefile_load(const char *cmd, const char *path, bool need_runs, struct suitefile *out)
{
	struct stat st;
	memset(out, 0, sizeof(*out));
	/* O_NONBLOCK: a FIFO named as a results file does not hang the command */
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return refuse(stderr, cmd, path, strerror(errno));
	if (fstat(fd, &st) < 0) {
		int e = errno;
		close(fd);
		return refuse(stderr, cmd, path, strerror(e));
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		return refuse(stderr, cmd, path, S_ISDIR(st.st_mode) ? strerror(EISDIR) :
			      "not a regular file");
	}
	FILE *f = fdopen(fd, "r");
	if (!f) {
		close(fd);
		return refuse(stderr, cmd, path, strerror(errno));
	}
	int rc = suitefile_read(cmd, path, f, stderr, need_runs, out);
	fclose(f);
	return rc;
}

const char *suitefile_sys(const struct suitefile *sf, const char *key)
{
	const char *s = json_string_value(json_object_get(json_object_get(sf->doc, "system"), key));
	return s ? s : "";
}

/* a name part without blanks, escaped (escape.h), cut short at a whole
 * character or escape */
static void word(char *dst, size_t n, const char *src)
{
	size_t i = 0, used, k;
	char out[8];
	for (; src && *src && i + (k = esc_next(src, out, &used)) < n; src += used)
		for (size_t b = 0; b < k; b++)
			dst[i++] = out[b] == ' ' ? '_' : out[b];
	dst[i] = '\0';
}

void suitefile_go_name(const json_t *test, char *buf, size_t n)
{
	const json_t *p = json_object_get(test, "params");
	const char *command = json_string_value(json_object_get(p, "command"));
	const char *mem = json_string_value(json_object_get(p, "mem_limit"));
	char w[128], m[64];
	word(m, sizeof(m), mem);
	if (command && !strcmp(command, "load")) {
		snprintf(buf, n, "Load/clients=%lld%s%s",
			 (long long)json_integer_value(json_object_get(p, "clients")),
			 mem ? "/mem=" : "", mem ? m : "");
	} else if (command && !strcmp(command, "disk")) {
		word(w, sizeof(w), json_string_value(json_object_get(p, "test")));
		snprintf(buf, n, "Disk/test=%s%s%s", w, mem ? "/mem=" : "", mem ? m : "");
	} else if (command && !strcmp(command, "micro")) {
		/* the row's name is the test's with " mem=X" added (jobs.c) */
		const char *name = json_string_value(json_object_get(test, "name"));
		char base[256];
		snprintf(base, sizeof(base), "%s", name ? name : "");
		size_t bl = strlen(base), ml = mem ? strlen(mem) + 5 : 0;
		if (mem && bl > ml && !strncmp(base + bl - ml, " mem=", 5) &&
		    !strcmp(base + bl - ml + 5, mem))
			base[bl - ml] = '\0';
		word(w, sizeof(w), base);
		snprintf(buf, n, "Micro/test=%s%s%s", w, mem ? "/mem=" : "", mem ? m : "");
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
	esc_put(f, value, 0);
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
	size_t i;
	json_t *t;
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
		struct sf_test st;
		char why[200];
		suitefile_test(t, &st, why, sizeof(why));
		suitefile_go_name(t, name, sizeof(name));
		go_unit(unit, sizeof(unit), st.unit);
		for (size_t j = 0; j < st.n; j++)
			fprintf(f, "Benchmark%s 1 %.10g %s\n", name, st.v[j], unit);
		free(st.v);
	}
}
