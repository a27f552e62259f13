/* kbench - import: the figures kept by system, test and run, and written
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * See impstore.h.  A system is told by its machine line, host, kernel
 * and build together; a test by its name and unit; a run by the string
 * the reader makes for it, so the same run printed twice (the "To" side
 * of several comparisons) is kept once.
 */
#include "config.h"
#include "cli.h"
#include "import/impstore.h"
#include "result/result.h"
#include "resultsfile/escape.h"
#include "resultsfile/sfnew.h"
#include "resultsfile/suitefile.h"

#include <ctype.h>
#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool same_sys(const struct imp_sys *a, const struct imp_sys *b)
{
	return !strcmp(a->desc, b->desc) && !strcmp(a->host, b->host) &&
	       !strcmp(a->kernel, b->kernel) && !strcmp(a->build, b->build);
}

static struct imp_group *group_of(struct imp *im, const struct imp_sys *sys)
{
	for (size_t i = 0; i < im->ngroups; i++)
		if (same_sys(&im->groups[i].sys, sys))
			return &im->groups[i];
	struct imp_group *g = realloc(im->groups, (im->ngroups + 1) * sizeof(*g));
	if (!g)
		return NULL;
	im->groups = g;
	g = &im->groups[im->ngroups++];
	memset(g, 0, sizeof(*g));
	g->sys = *sys;
	return g;
}

static struct imp_test *test_of(struct imp_group *g, const struct imp_fig *f)
{
	for (size_t i = 0; i < g->ntests; i++)
		if (!strcmp(g->tests[i].name, f->test) && !strcmp(g->tests[i].unit, f->unit) &&
		    !strcmp(g->tests[i].mem ? g->tests[i].mem : "", f->mem ? f->mem : ""))
			return &g->tests[i];
	struct imp_test *t = realloc(g->tests, (g->ntests + 1) * sizeof(*t));
	if (!t)
		return NULL;
	g->tests = t;
	t = &g->tests[g->ntests];
	memset(t, 0, sizeof(*t));
	t->name = strdup(f->test);
	t->title = strdup(f->title ? f->title : f->test);
	t->unit = strdup(f->unit);
	t->tool = strdup(f->tool);
	t->mem = f->mem ? strdup(f->mem) : NULL;
	t->mem_text = f->mem_text ? strdup(f->mem_text) : NULL;
	t->lm_name = f->lm_name ? strdup(f->lm_name) : NULL;
	t->higher_is_better = f->higher_is_better;
	t->baseline = f->baseline;
	g->ntests++;
	if (!t->name || !t->title || !t->unit || !t->tool || (f->mem && !t->mem))
		return NULL;
	return t;
}

/* The hash of a run: its group, test and run id (FNV-1a). */
static size_t run_hash(size_t g, size_t t, const char *run)
{
	size_t h = 1469598103934665603ULL ^ (g * 31 + t);
	for (const unsigned char *p = (const unsigned char *)run; *p; p++)
		h = (h ^ *p) * 1099511628211ULL;
	return h;
}

/* The slot of run id `run` of test t of group g: the one holding it, or
 * the empty one where it goes. */
static struct imp_slot *slot_of(struct imp *im, size_t g, size_t t, const char *run)
{
	size_t i = run_hash(g, t, run) & (im->nslot - 1);
	for (;; i = (i + 1) & (im->nslot - 1)) {
		struct imp_slot *s = &im->slot[i];
		if (!s->run || (s->group == g + 1 && s->test == t + 1 &&
				!strcmp(im->groups[g].tests[t].runs[s->run - 1].run, run)))
			return s;
	}
}

/* Room for one more run in the table (kept at most half full). */
static int slots_grow(struct imp *im)
{
	if (2 * (im->nslot_used + 1) <= im->nslot)
		return 0;
	size_t n = im->nslot ? 2 * im->nslot : 1024;
	struct imp_slot *old = im->slot;
	size_t nold = im->nslot;
	if (!(im->slot = calloc(n, sizeof(*im->slot)))) {
		im->slot = old;
		return -1;
	}
	im->nslot = n;
	for (size_t i = 0; i < nold; i++)
		if (old[i].run) {
			const struct imp_slot *o = &old[i];
			const char *id = im->groups[o->group - 1].tests[o->test - 1].runs[o->run - 1].run;
			*slot_of(im, o->group - 1, o->test - 1, id) = *o;
		}
	free(old);
	return 0;
}

int imp_add(struct imp *im, const struct imp_file *file, const struct imp_sys *sys,
	    const struct imp_fig *f)
{
	struct imp_sys s = *sys;
	if (!s.kernel[0] && im->kernel)
		snprintf(s.kernel, sizeof(s.kernel), "%s", im->kernel);
	imp_used(im, f->line);
	if (!(fabs(f->value) < IMP_MAX_FIGURE) ||
	    (suitefile_unit_nonnegative(f->unit) && signbit(f->value))) {
		im->last = NULL;
		imp_skip(im, file, f->line, "%s: %.17g %s is a figure no measurement gives (%s)",
			 f->title ? f->title : f->test, f->value, f->unit,
			 signbit(f->value) ? "negative" : "too large to average");
		return 0;
	}
	struct imp_group *g = group_of(im, &s);
	if (g && !g->sys.mhz[0] && s.mhz[0])
		snprintf(g->sys.mhz, sizeof(g->sys.mhz), "%s", s.mhz);
	struct imp_test *t = g ? test_of(g, f) : NULL;
	if (!t || slots_grow(im) < 0)
		return -1;
	size_t gi = (size_t)(g - im->groups), ti = (size_t)(t - g->tests);
	struct imp_slot *slot = slot_of(im, gi, ti, f->run);
	if (slot->run) {  /* the same run printed twice */
		const struct imp_run *o = &t->runs[slot->run - 1];
		if (o->value != f->value)
			imp_skip(im, file, f->line, "%s is %g here but %g at %s:%zu for the same run",
				 f->title ? f->title : f->test, f->value, o->value, o->file,
				 o->line);
		im->last = NULL;
		return 0;
	}
	if (t->nruns == t->cap) {  /* doubling: linear however many runs */
		size_t cap = t->cap ? 2 * t->cap : 8;
		struct imp_run *nr = realloc(t->runs, cap * sizeof(*nr));
		if (!nr)
			return -1;
		t->runs = nr;
		t->cap = cap;
	}
	struct imp_run *r = &t->runs[t->nruns++];
	memset(r, 0, sizeof(*r));
	im->last = r;
	r->value = f->value;
	r->line = f->line;
	r->run_no = f->run_no;
	r->file = strdup(file->path);
	r->run = strdup(f->run);
	r->run_date = f->run_date ? strdup(f->run_date) : NULL;
	if (!g->run_date && f->run_date)
		g->run_date = strdup(f->run_date);
	im->nfigs++;
	if (!r->file || !r->run)
		return -1;
	*slot = (struct imp_slot){ gi + 1, ti + 1, t->nruns };
	im->nslot_used++;
	return 0;
}

void imp_free(struct imp *im)
{
	for (size_t i = 0; i < im->ngroups; i++) {
		struct imp_group *g = &im->groups[i];
		for (size_t j = 0; j < g->ntests; j++) {
			struct imp_test *t = &g->tests[j];
			for (size_t k = 0; k < t->nruns; k++) {
				free(t->runs[k].file);
				free(t->runs[k].run);
				free(t->runs[k].run_date);
				free(t->runs[k].cav_key);
				free(t->runs[k].cav_text);
			}
			free(t->runs);
			free(t->name);
			free(t->title);
			free(t->unit);
			free(t->tool);
			free(t->mem);
			free(t->mem_text);
			free(t->lm_name);
		}
		free(g->tests);
		free(g->run_date);
		free(g->slug);
	}
	free(im->groups);
	im->groups = NULL;
	im->ngroups = 0;
	free(im->slot);
	im->slot = NULL;
	im->nslot = im->nslot_used = 0;
}

/* ---- names: each system's %k ---- */

/* s made safe for a file name: letters, digits, '.', '+', '-', '_'; any
 * run of other characters one '_', appended to dst (n bytes). */
static void slug_add(char *dst, size_t n, const char *s)
{
	size_t i = strlen(dst);
	if (i && i + 1 < n && *s)
		dst[i++] = '-';
	for (int gap = 0; *s && i + 1 < n; s++) {
		unsigned char c = (unsigned char)*s;
		if (isalnum(c) || c == '.' || c == '+' || c == '-') {
			dst[i++] = (char)c;
			gap = 0;
		} else if (!gap) {
			dst[i++] = '_';
			gap = 1;
		}
	}
	while (i && dst[i - 1] == '_')
		i--;
	dst[i] = '\0';
}

/* The build's number ("#30 SMP Wed ..." -> "30"), or "". */
static void build_number(char *dst, size_t n, const char *build)
{
	size_t len = 0;
	if (*build == '#')
		build++;
	while (build[len] && !isspace((unsigned char)build[len]))
		len++;
	snprintf(dst, n, "%.*s", (int)len, build);
}

/* Is s the name of one of the first n groups? */
static bool slug_taken(const struct imp *im, size_t n, const char *s)
{
	for (size_t j = 0; j < n; j++)
		if (!strcmp(im->groups[j].slug, s))
			return true;
	return false;
}

/* Each group's name: its kernel, and whichever of machine line, host and
 * build differ between the groups. */
static int make_slugs(struct imp *im)
{
	bool desc = false, host = false, build = false;
	for (size_t i = 1; i < im->ngroups; i++) {
		desc |= strcmp(im->groups[i].sys.desc, im->groups[0].sys.desc) != 0;
		host |= strcmp(im->groups[i].sys.host, im->groups[0].sys.host) != 0;
		build |= strcmp(im->groups[i].sys.build, im->groups[0].sys.build) != 0;
	}
	for (size_t i = 0; i < im->ngroups; i++) {
		struct imp_group *g = &im->groups[i];
		char s[420] = "", num[64];
		if (desc)
			slug_add(s, sizeof(s), g->sys.desc);
		if (host)
			slug_add(s, sizeof(s), g->sys.host);
		slug_add(s, sizeof(s), g->sys.kernel[0] ? g->sys.kernel : "unknown");
		build_number(num, sizeof(num), g->sys.build);
		if (build && num[0])
			slug_add(s, sizeof(s), num);
		if (s[0] == '.') {  /* never ".", "..", nor a hidden file */
			memmove(s + 1, s, strlen(s) + 1);
			s[0] = '_';
		}
		size_t base = strlen(s);
		for (size_t n = 2; slug_taken(im, i, s); n++)
			snprintf(s + base, sizeof(s) - base, "-%zu", n);
		if (!(g->slug = strdup(s)))
			return -1;
	}
	return 0;
}

/* ---- the documents ---- */

static json_t *run_json(const struct imp_test *t, const struct imp_run *r)
{
	json_t *j = json_pack("{s:f, s:n, s:n, s:{s:s, s:I}, s:s, s:s?}", "value", r->value,
			      "started", "seconds", "source", "file", r->file, "line",
			      (json_int_t)r->line, "tool", t->tool, "run_date", r->run_date);
	if (j && r->run_no)
		json_object_set_new(j, "run_no", json_integer((json_int_t)r->run_no));
	if (j && r->cav_key)
		json_object_set_new(j, "document", json_pack("{s:s, s:[{s:s, s:s, s:{s:f, s:f}}]}",
							      "kind", "import", "caveats", "key",
							      r->cav_key, "text", r->cav_text,
							      "evidence", "printed",
							      r->cav_printed, "worked_out",
							      r->cav_worked));
	return j;
}

static json_t *test_json(const struct imp_group *g, const struct imp_test *t)
{
	char name[400];
	if (t->mem)
		snprintf(name, sizeof(name), "%s mem=%s", t->name, t->mem);
	else
		snprintf(name, sizeof(name), "%s", t->name);
	json_t *params = json_pack("{s:s, s:s, s:s}", "command", "import", "tool", t->tool, "title",
				   t->title);
	if (params && t->mem)
		json_object_set_new(params, "mem_limit", json_string(t->mem));
	if (params && t->lm_name)
		json_object_set_new(params, "lm_name", json_string(t->lm_name));
	if (params && t->mem_text)
		json_object_set_new(params, "mem_text", json_string(t->mem_text));
	if (params && t->baseline > 0)
		json_object_set_new(params, "baseline", json_real(t->baseline));
	json_t *row = json_pack("{s:s, s:o, s:s, s:b, s:[]}", "name", name, "params", params,
				"unit", t->unit, "higher_is_better", t->higher_is_better, "runs");
	for (size_t k = 0; row && k < t->nruns; k++)
		if (json_array_append_new(json_object_get(row, "runs"), run_json(t, &t->runs[k]))) {
			json_decref(row);
			return NULL;
		}
	(void)g;
	return row;
}

static json_t *sys_json(const struct imp_group *g)
{
	json_t *s = json_pack("{s:s, s:s, s:s}", "hostname", g->sys.host, "kernel", g->sys.kernel,
			      "machine", g->sys.machine);
	if (s && g->sys.build[0])
		json_object_set_new(s, "kernel_version", json_string(g->sys.build));
	if (s && g->sys.desc[0])
		json_object_set_new(s, "description", json_string(g->sys.desc));
	if (s && g->sys.mhz[0])
		json_object_set_new(s, "mhz", json_string(g->sys.mhz));
	if (s && g->run_date)
		json_object_set_new(s, "run_date", json_string(g->run_date));
	return s;
}

static json_t *group_json(const struct imp_group *g, const char *label, const char **files)
{
	json_t *tests = json_array(), *mems = json_array();
	json_t *cmd = json_pack("[s]", "import");
	for (size_t i = 0; cmd && files[i]; i++)
		json_array_append_new(cmd, json_string(files[i]));
	for (size_t i = 0; mems && i < g->ntests; i++) {
		bool seen = !g->tests[i].mem;
		for (size_t j = 0; !seen && j < json_array_size(mems); j++)
			seen = !strcmp(json_string_value(json_array_get(mems, j)), g->tests[i].mem);
		if (!seen)
			json_array_append_new(mems, json_string(g->tests[i].mem));
	}
	for (size_t i = 0; tests && i < g->ntests; i++)
		if (json_array_append_new(tests, test_json(g, &g->tests[i])))
			goto fail;
	if (!tests || !mems || !cmd)
		goto fail;
	struct sf_head h = {
		.label = label ? label : g->slug, .command = cmd,
		.params = json_pack("{s:b, s:o}", "imported", 1, "mem_limits", mems),
		.system = sys_json(g), .started = json_null(), .ended = json_null(),
		.finished = true,
	};
	json_t *doc = sf_new(&h);
	if (!doc || json_object_set_new(doc, "tests", tests)) {
		json_decref(doc);
		return NULL;
	}
	return doc;
fail:
	json_decref(tests);
	json_decref(mems);
	json_decref(cmd);
	return NULL;
}

/* out with each "%k" replaced by slug, into dst (n bytes). */
static void path_for(char *dst, size_t n, const char *out, const char *slug)
{
	size_t i = 0;
	for (const char *p = out; *p && i + 1 < n; p++) {
		if (p[0] == '%' && p[1] == 'k') {
			i += (size_t)snprintf(dst + i, n - i, "%s", slug);
			p++;
		} else {
			dst[i++] = *p;
		}
		if (i >= n)
			i = n - 1;
	}
	dst[i] = '\0';
}

/* Every file -o names, checked before any is written (result.h's rules:
 * a new or regular file, not a link, none of the inputs, in a directory
 * that takes a file); each group's path into g->path.  0, or
 * KB_EXIT_USAGE after a line. */
static int check_paths(struct imp *im, const char *out, const char **files)
{
	size_t nfiles = 0;
	while (files[nfiles])
		nfiles++;
	for (size_t i = 0; i < im->ngroups; i++) {
		char path[4096];
		struct imp_group *g = &im->groups[i];
		path_for(path, sizeof(path), out, g->slug);
		if (result_destination(im->cmd, "-o", path, files, nfiles, NULL, g->path,
				       sizeof(g->path)))
			return KB_EXIT_USAGE;
		if (strcmp(g->path, "-") && !result_replaceable(g->path)) {
			char shown[300];
			fprintf(stderr, "%s: -o %s: a file that is no kbench results file; kbench "
				"import replaces only those\n", im->cmd,
				esc_str(shown, sizeof(shown), g->path));
			return KB_EXIT_USAGE;
		}
		for (size_t j = 0; j < i; j++)
			if (!strcmp(im->groups[j].path, g->path)) {
				fprintf(stderr, "%s: -o %s: two systems (%s, %s) would share one "
					"file\n", im->cmd, out, im->groups[j].slug, g->slug);
				return KB_EXIT_USAGE;
			}
	}
	return 0;
}

int imp_write_all(struct imp *im, const char *out, const char *label, const char **files)
{
	if (!im->nfigs) {
		fprintf(stderr, "%s: no figure read from the inputs: nothing written\n", im->cmd);
		return KB_EXIT_FAIL;
	}
	if (make_slugs(im) < 0) {
		fprintf(stderr, "%s: out of memory\n", im->cmd);
		return KB_EXIT_FAIL;
	}
	if (im->ngroups > 1 && !strstr(out, "%k")) {
		fprintf(stderr, "%s: -o %s: the inputs hold %zu systems (", im->cmd, out,
			im->ngroups);
		for (size_t i = 0; i < im->ngroups; i++)
			fprintf(stderr, "%s%s", i ? ", " : "", im->groups[i].slug);
		fprintf(stderr, "); give a name holding %%k, one file each\n");
		return KB_EXIT_USAGE;
	}
	int rc = check_paths(im, out, files);
	if (rc)
		return rc;
	/* with -o -, standard output is the JSON alone */
	FILE *say = strcmp(out, "-") ? stdout : stderr;
	for (size_t i = 0; i < im->ngroups; i++) {
		char err[300];
		struct imp_group *g = &im->groups[i];
		json_t *doc = group_json(g, label, files);
		size_t nruns = 0;
		for (size_t j = 0; j < g->ntests; j++)
			nruns += g->tests[j].nruns;
		if (!doc || result_write(doc, g->path, err, sizeof(err)) < 0) {
			fprintf(stderr, "%s: -o ", im->cmd);
			esc_put(stderr, g->path, 0);
			fprintf(stderr, ": %s\n", doc ? err : "out of memory");
			json_decref(doc);
			return KB_EXIT_FAIL;
		}
		json_decref(doc);
		esc_put(say, g->path, 0);
		fprintf(say, ": %zu tests, %zu figures (", g->ntests, nruns);
		esc_put(say, g->sys.kernel[0] ? g->sys.kernel : "kernel unknown", 0);
		fputs(g->sys.desc[0] ? ", " : "", say);
		esc_put(say, g->sys.desc, 0);
		fputs(")\n", say);
	}
	if (im->nskipped)
		fprintf(say, "%zu lines skipped (named above on stderr)\n", im->nskipped);
	return 0;
}

/* What the readers say of the input: a line skipped (always, with its
 * reason), a note (--verbose), a line used. */
/* "CMD: FILE:LINE: " and the message, escaped (escape.h): the file's own
 * words reach a terminal as text, never as its control sequences. */
static void say(const struct imp *im, const struct imp_file *file, size_t line,
		const char *what, const char *fmt, va_list ap)
{
	char msg[1024], *text = NULL;
	size_t len = 0;
	vsnprintf(msg, sizeof(msg), fmt, ap);
	/* the line made whole first: standard error is unbuffered, and an
	 * input of many skipped lines would cost a write a byte */
	FILE *m = open_memstream(&text, &len);
	FILE *out = m ? m : stderr;
	esc_put(out, im->cmd, 0);
	fputs(": ", out);
	esc_put(out, file->path, 0);
	fprintf(out, ":%zu: %s", line, what);
	esc_put(out, msg, 0);
	fputc('\n', out);
	if (m && fclose(m) == 0)
		fwrite(text, 1, len, stderr);
	free(text);
}

void imp_skip(struct imp *im, const struct imp_file *file, size_t line, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	say(im, file, line, "skipped: ", fmt, ap);
	va_end(ap);
	im->nskipped++;
	imp_used(im, line);
}

void imp_note(struct imp *im, const struct imp_file *file, size_t line, const char *fmt, ...)
{
	va_list ap;
	if (!im->verbose)
		return;
	va_start(ap, fmt);
	say(im, file, line, "", fmt, ap);
	va_end(ap);
}

int imp_caveat(struct imp *im, const char *key, double printed, double worked,
	       const char *fmt, ...)
{
	char text[400];
	va_list ap;
	struct imp_run *r = im->last;
	if (!r)
		return 0;
	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	free(r->cav_key);
	free(r->cav_text);
	r->cav_key = strdup(key);
	r->cav_text = strdup(text);
	r->cav_printed = printed;
	r->cav_worked = worked;
	return r->cav_key && r->cav_text ? 0 : -1;
}

void imp_warn(struct imp *im, const struct imp_file *file, size_t line, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	say(im, file, line, "", fmt, ap);
	va_end(ap);
	imp_used(im, line);
}

void imp_used(struct imp *im, size_t line)
{
	if (im->used && line >= 1 && line <= im->nused)
		im->used[line - 1] = 1;
}

const char *imp_default_kernel(const struct imp *im)
{
	return im->kernel ? im->kernel : "";
}

int imp_rows_group(struct imp *im, size_t k, size_t *first, size_t *last)
{
	size_t end = 0;
	im->rows_used |= im->nrows > 0;
	for (size_t g = 0; g < im->nrows; g++) {
		*first = end + 1;
		end += im->rows[g];
		*last = end;
		if (k <= end)
			return (int)g;
	}
	return -1;
}
