/* kbench - caveats: the key table, and each document's caveats from its fields
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * One rule for every place that says what could make a figure wrong: the
 * command making a run's document (caveat_attach), kbench suite's
 * progress lines and table, and kbench compare's verdicts all read the
 * list made here.
 */
#include "config.h"
#include "result/caveat.h"
#include "stats/trend.h"
#include "sys/cpubusy.h"
#include "sys/steal.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

const struct caveat_kind caveat_kinds[] = {
	{ "cache_timed", true, "pages of the data read were still in the page cache after "
	  "the flush: a memory figure, not the disk's" },
	{ "flush_failed", true, "the page cache could not be flushed before a device read "
	  "(not permitted, or the step failed): the figure may be memory's" },
	{ "sparse_file", true, "the data read has holes (a sparse file or loop backing "
	  "file): holes are zeros from no disk; mkfs and discards leave them (on a loop "
	  "device, holes in its image): cp --sparse=never IMAGE COPY fills them" },
	{ "errors", true, "operations did not end as expected, a client died, or a test "
	  "failed: the work timed is not the work asked for" },
	{ "mismatches", false, "operations of a trace whose own tool never checked a reply "
	  "(dbench 1) did not end as the trace recorded: replayed on as that tool did, "
	  "their work partly other than the trace's" },
	{ "interrupted", true, "a signal stopped the run before its end" },
	{ "mixed_kernels", true, "the runs of one series ran on different kernels" },
	{ "mixed_hosts", true, "the runs of one series ran on different hosts" },
	{ "drift", true, "the baseline run again after the others (kbench compare "
	  "--control) differs from it: the machine drifted between the series" },
	{ "control_runs", true, "the control (kbench compare --control) has too few runs "
	  "of the test, or none, to check a change against: no drift can be ruled out" },
	{ "test_differs", true, "the results files disagree on what the test is (its "
	  "unit, direction or the work it names; kbench compare): not one test" },
	{ "other_backend", true, "the load ran through another backend than the baseline's "
	  "(kbench compare): another kind of work" },
	{ "params_differ", false, "a setting recorded in the results file differs from the "
	  "baseline's (kbench compare): the two did different work" },
	{ "settings_differ", false, "a machine setting that can move this test (the governor, "
	  "mitigations, THP, the disk's scheduler, ...) differs from the baseline's (kbench "
	  "compare): the verdict is the kernel's and the setting's together" },
	{ "settings_changed", false, "a machine setting that can move this test changed "
	  "during the series (a run's own record against the series' start; kbench "
	  "compare): its runs were not all measured alike" },
	{ "mixed_builds", false, "the runs of one series were made by different kbench "
	  "versions" },
	{ "stuck_clients", false, "clients were killed as stuck: fewer clients did the "
	  "work for part of the run" },
	{ "oom", false, "the OOM killer ended a process under the memory limit" },
	{ "steal", false, "the hypervisor took at least 1% of a CPU's time" },
	{ "busy", false, "other processes took at least a quarter of a CPU's time during "
	  "the run: not a quiet machine's figure" },
	{ "bimodal", false, "the runs form two clusters (states the test lands in from run "
	  "to run): one median describes neither; both centres are given" },
	{ "unsteady", false, "the throughput was still trending over the measured "
	  "window (a warm-up too short for it to settle)" },
	{ "printed_differs", false, "an imported report's printed score is kept as printed; "
	  "kbench's own working from the lines it read gives another figure" },
};
const size_t caveat_nkinds = sizeof(caveat_kinds) / sizeof(caveat_kinds[0]);

const struct caveat_kind *caveat_kind(const char *key)
{
	for (size_t i = 0; key && i < caveat_nkinds; i++)
		if (!strcmp(caveat_kinds[i].key, key))
			return &caveat_kinds[i];
	return NULL;
}

bool caveat_unsound(const char *key)
{
	const struct caveat_kind *k = caveat_kind(key);
	return k && k->unsound;
}

static bool has_key(const json_t *list, const char *key)
{
	size_t i;
	const json_t *c;
	json_array_foreach(list, i, c) {
		const char *k = json_string_value(json_object_get(c, "key"));
		if (k && !strcmp(k, key))
			return true;
	}
	return false;
}

int caveat_add(json_t *list, const char *key, json_t *evidence, const char *fmt, ...)
{
	if (has_key(list, key)) {
		json_decref(evidence);
		return 0;
	}
	char text[400];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	json_t *c = json_pack("{s:s, s:s, s:o}", "key", key, "text", text,
			      "evidence", evidence ? evidence : json_object());
	if (!c || json_array_append_new(list, c) < 0)
		return -1;
	return 1;
}

/* ---- steal and busy: the rules of a measured window, every kind's ---- */

static void steal_caveat(json_t *list, const json_t *o, const char *wall_key,
			 const char *test, long ticks_per_s)
{
	const json_t *p = json_object_get(o, "steal_pct"), *w = json_object_get(o, wall_key);
	if (!json_is_number(p) || !json_is_number(w) ||
	    !steal_notable(json_number_value(p), json_number_value(w), ticks_per_s))
		return;
	caveat_add(list, "steal", json_pack("{s:f, s:f, s:s?}", "steal_pct",
		   json_number_value(p), "seconds", json_number_value(w), "test", test),
		   "%s%sthe hypervisor took up to %.1f%% of a CPU's time over %.*f s",
		   test ? test : "", test ? ": " : "", json_number_value(p),
		   json_number_value(w) < 0.1 ? 2 : 1, json_number_value(w));
}

/* other processes' CPU time in the window of o (sys/cpubusy.h): its
 * other_cpu_pct over the wall seconds of its wall_key.  The one rule of
 * every kind: what (NULL: none) heads the text, where's keys (stolen;
 * NULL: none) join the evidence. */
static void busy_caveat(json_t *list, const json_t *o, const char *wall_key, const char *what,
			json_t *where, long ticks_per_s)
{
	const json_t *p = json_object_get(o, "other_cpu_pct"), *w = json_object_get(o, wall_key);
	if (!json_is_number(p) || !json_is_number(w) ||
	    !cpubusy_notable(json_number_value(p), json_number_value(w), ticks_per_s)) {
		json_decref(where);
		return;
	}
	json_t *ev = json_pack("{s:f, s:f}", "other_cpu_pct", json_number_value(p), "seconds",
			       json_number_value(w));
	if (ev && where)
		json_object_update_new(ev, where);
	else
		json_decref(where);
	/* a window under 0.1 s (a short micro test) with its hundredths */
	caveat_add(list, "busy", ev, "%s%sother processes took %.0f%% of a CPU's time over %.*f s "
		   "(/proc/stat less the run's own)", what ? what : "", what ? ": " : "",
		   json_number_value(p), json_number_value(w) < 0.1 ? 2 : 1, json_number_value(w));
}

/* ---- disk: each device's -T and -t runs ---- */

/* The caveats of run i (from 0) of test k (0: cached -T, 1: buffered -t)
 * on the device path. */
static void disk_run_caveats(json_t *list, const char *path, size_t k, size_t i,
			     const json_t *run, bool direct, long ticks_per_s)
{
	static const char *const tests[] = { "cached", "buffered" };
	char what[300];
	snprintf(what, sizeof(what), "%s: %s run %zu", path, k ? "-t" : "-T", i + 1);
	json_t *where = json_pack("{s:s, s:s, s:I}", "device", path, "test", tests[k], "run",
				  (json_int_t)i + 1);
	if (!k) {   /* the flush and the holes are -t's (-T reads the cache on purpose) */
		busy_caveat(list, run, "window_s", what, where, ticks_per_s);
		return;
	}
	const json_t *nf = json_object_get(run, "not_flushed");
	const char *why = json_string_value(json_object_get(nf, "why"));
	json_t *hole = json_object_get(run, "first_hole_byte");
	if (json_is_false(json_object_get(run, "cache_flushed")) && !direct) {
		bool failed = json_is_true(json_object_get(nf, "flush_failed"));
		caveat_add(list, failed ? "flush_failed" : "cache_timed",
			   json_pack("{s:s, s:I, s:s?, s:O?, s:O?}", "device", path,
				     "run", (json_int_t)i + 1, "why", why,
				     "cached_pct_after_flush",
				     json_object_get(run, "cached_pct_after_flush"),
				     "backing_cached_pct_after_flush",
				     json_object_get(run, "backing_cached_pct_after_flush")),
			   "%s: buffer cache not flushed before -t run %zu: %s; its figure "
			   "may be memory's", path,
			   i + 1, why ? why : "(no reason recorded)");
	}
	if (json_is_integer(hole))
		caveat_add(list, "sparse_file", json_pack("{s:s, s:I, s:O}", "device",
			   path, "run", (json_int_t)i + 1, "first_hole_byte", hole),
			   "%s: the data -t reads has a hole at byte %lld (read as "
			   "zeros from no disk, at memory speed; mkfs and discards leave "
			   "holes: cp --sparse=never IMAGE COPY gives an image without them)", path,
			   (long long)json_integer_value(hole));
	busy_caveat(list, run, "window_s", what, where, ticks_per_s);
}

static void disk_caveats(const json_t *doc, json_t *list, long ticks_per_s)
{
	size_t d, i;
	const json_t *dev, *run;
	bool direct = json_is_true(json_object_get(json_object_get(doc, "params"), "direct"));
	json_array_foreach(json_object_get(doc, "results"), d, dev) {
		const char *path = json_string_value(json_object_get(dev, "device"));
		path = path ? path : "?";
		for (size_t k = 0; k < 2; k++) {
			const json_t *runs = json_object_get(json_object_get(dev, k ? "buffered" :
									     "cached"), "runs");
			json_array_foreach(runs, i, run)
				disk_run_caveats(list, path, k, i, run, direct, ticks_per_s);
		}
	}
}

/* ---- load: one run's results ---- */

static json_int_t int_of(const json_t *o, const char *key)
{
	const json_t *v = json_object_get(o, key);
	return json_is_integer(v) ? json_integer_value(v) : 0;
}

static void load_caveats(const json_t *doc, json_t *list, long ticks_per_s, double conf)
{
	const json_t *r = json_object_get(doc, "results");
	json_int_t errs = int_of(r, "errors"), stuck = int_of(r, "stuck_killed");
	json_int_t sig = int_of(r, "interrupted_signal"), mism = int_of(r, "mismatches");
	json_int_t ooms = int_of(json_object_get(r, "memory"), "oom_kills");
	if (errs > 0)
		caveat_add(list, "errors", json_pack("{s:I}", "errors", errs),
			   "%lld operations did not end as the loadfile expects", (long long)errs);
	if (mism > 0)
		caveat_add(list, "mismatches", json_pack("{s:I}", "mismatches", mism),
			   "%lld operations did not end as the trace recorded (its tool never "
			   "checked a reply)", (long long)mism);
	if (json_is_true(json_object_get(r, "died")))
		caveat_add(list, "errors", json_pack("{s:b}", "died", 1),
			   "a client died before the end of the run");
	if (json_is_true(json_object_get(r, "strict_stop")))
		caveat_add(list, "errors", json_pack("{s:b}", "strict_stop", 1),
			   "the run stopped at its first unexpected outcome (--strict)");
	if (sig > 0)
		caveat_add(list, "interrupted", json_pack("{s:I}", "signal", sig),
			   "signal %lld stopped the run before its end", (long long)sig);
	if (json_is_true(json_object_get(r, "oom_killed")) || ooms > 0)
		caveat_add(list, "oom", json_pack("{s:I}", "oom_kills", ooms),
			   "the OOM killer ended %lld process%s under the memory limit",
			   (long long)ooms, ooms == 1 ? "" : "es");
	if (stuck > 0)
		caveat_add(list, "stuck_clients", json_pack("{s:I}", "stuck_killed", stuck),
			   "%lld client%s killed as stuck", (long long)stuck, stuck == 1 ? "" : "s");
	steal_caveat(list, r, "measured_s", NULL, ticks_per_s);
	busy_caveat(list, r, "measured_s", NULL, NULL, ticks_per_s);
	struct trend tr;
	if (trend_of_series(json_object_get(r, "series"), conf, &tr) == 1 && tr.trending)
		caveat_add(list, "unsteady", trend_evidence(&tr),
			   "the throughput was still trending over the measured window: %+.2f%% "
			   "a second (p=%.3g over %u seconds)", tr.slope_pct, tr.p, tr.n);
}

/* ---- micro: each test ---- */

static void micro_caveats(const json_t *doc, json_t *list, long ticks_per_s)
{
	size_t i;
	const json_t *t;
	json_array_foreach(json_object_get(json_object_get(doc, "results"), "tests"), i, t) {
		const char *name = json_string_value(json_object_get(t, "name"));
		const char *err = json_string_value(json_object_get(t, "error"));
		if (err)
			caveat_add(list, "errors", json_pack("{s:s?, s:s}", "test", name, "error", err),
				   "%s: %s", name ? name : "?", err);
		steal_caveat(list, t, "run_s", name, ticks_per_s);
		busy_caveat(list, t, "run_s", name, json_pack("{s:s?}", "test", name), ticks_per_s);
	}
}

json_t *caveat_derive(const json_t *doc, long ticks_per_s, double conf)
{
	json_t *list = json_array();
	if (!list)
		return NULL;
	size_t i;
	const json_t *c;
	json_array_foreach(json_object_get(doc, "caveats"), i, c)
		if (json_is_string(json_object_get(c, "key")) &&
		    !has_key(list, json_string_value(json_object_get(c, "key"))))
			json_array_append(list, (json_t *)c);
	const char *kind = json_string_value(json_object_get(doc, "kind"));
	if (!kind)
		return list;
	if (!strcmp(kind, "disk"))
		disk_caveats(doc, list, ticks_per_s);
	else if (!strcmp(kind, "load"))
		load_caveats(doc, list, ticks_per_s, conf);
	else if (!strcmp(kind, "micro"))
		micro_caveats(doc, list, ticks_per_s);
	return list;
}

json_t *caveat_attach(json_t *doc)
{
	json_t *cav = caveat_derive(doc, sysconf(_SC_CLK_TCK), CAVEAT_CONF);
	if (!cav || json_object_set_new(doc, "caveats", cav) < 0)
		return NULL;
	return cav;
}

void caveat_print(FILE *f, const json_t *list)
{
	size_t i;
	const json_t *c;
	json_array_foreach(list, i, c) {
		const char *k = json_string_value(json_object_get(c, "key"));
		const char *t = json_string_value(json_object_get(c, "text"));
		fprintf(f, "%swarning: %s: %s\n", i ? "" : "\n", k ? k : "?", t ? t : "");
	}
}

const char *caveat_first_unsound(const json_t *list)
{
	size_t i;
	const json_t *c;
	json_array_foreach(list, i, c) {
		const char *k = json_string_value(json_object_get(c, "key"));
		if (caveat_unsound(k))
			return k;
	}
	return NULL;
}

char *caveat_keys(const json_t *list, char *buf, size_t n)
{
	size_t i, used = 0;
	const json_t *c;
	if (n)
		buf[0] = 0;
	json_array_foreach(list, i, c) {
		const char *k = json_string_value(json_object_get(c, "key"));
		int w = snprintf(buf + used, n - used, "%s%s", used ? ", " : "", k ? k : "?");
		if (w < 0 || (size_t)w >= n - used)
			break;
		used += (size_t)w;
	}
	return buf;
}
