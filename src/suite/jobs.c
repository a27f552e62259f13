/* kbench - suite: the jobs of a series, their children and figures
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Which figure of a child's document a run records:
 *   load:  results.throughput_MBps (MB = 10^6 bytes; kbench-load(1));
 *   disk:  results[0].cached|buffered.runs[0].MB_per_s (MB = 2^20 bytes,
 *          as hdparm; recorded as MiB/s);
 *   micro: results.tests[].value in each test's own unit; a test with
 *          "skipped" gives no figure and its row says why.
 */
#include "config.h"
#include "disk/devinfo.h"
#include "disk/disk.h"
#include "load/load.h"
#include "result/caveat.h"
#include "resultsfile/figures.h"
#include "suite/jobs.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void add_job(struct suite *s, enum job_kind k, unsigned clients, size_t m)
{
	struct job *j = &s->jobs[s->njobs++];
	const char *mem = s->nmems ? s->mems[m] : NULL;
	char dim[48] = "";
	memset(j, 0, sizeof(*j));
	j->kind = k;
	j->clients = clients;
	j->mem = mem;
	j->mem_bytes = s->nmems ? s->mem_bytes[m] : 0;
	if (mem)
		snprintf(dim, sizeof(dim), " mem=%s", mem);
	switch (k) {
	case JOB_DISK_CACHED: snprintf(j->name, sizeof(j->name), "disk -T%s", dim); break;
	case JOB_DISK_BUFFERED: snprintf(j->name, sizeof(j->name), "disk -t%s", dim); break;
	case JOB_MICRO: snprintf(j->name, sizeof(j->name), "micro%s", dim); break;
	case JOB_LOAD: snprintf(j->name, sizeof(j->name), "load %u%s", clients, dim); break;
	}
}

void jobs_build(struct suite *s)
{
	s->njobs = 0;
	for (size_t m = 0; m < (s->nmems ? s->nmems : 1); m++) {
		if (s->disk) {
			add_job(s, JOB_DISK_CACHED, 0, m);
			add_job(s, JOB_DISK_BUFFERED, 0, m);
		}
		for (size_t c = 0; c < s->nclients; c++)
			add_job(s, JOB_LOAD, s->clients[c], m);
		if (s->micro)
			add_job(s, JOB_MICRO, 0, m);
	}
}

static json_t *str_or_null(const char *v)
{
	return v ? json_string(v) : json_null();
}

json_t *jobs_params_json(const struct suite *s)
{
	json_t *clients = json_array(), *mems = json_array(), *micro = json_array();
	for (size_t i = 0; clients && i < s->nclients; i++)
		json_array_append_new(clients, json_integer(s->clients[i]));
	for (size_t i = 0; mems && i < s->nmems; i++)
		json_array_append_new(mems, json_string(s->mems[i]));
	for (size_t i = 0; micro && i < s->nmicro; i++)
		json_array_append_new(micro, json_string(s->micro_tests[i]));
	json_t *o = json_pack("{s:o, s:o, s:o, s:i, s:f, s:o, s:o, s:b, s:o, s:f, s:b, s:o}",
			 "directory", str_or_null(s->dir),
			 "loadfile", str_or_null(s->loadfile),
			 "clients", clients ? clients : json_array(),
			 "runs", (int)s->runs,
			 "timelimit_s", s->timelimit_s,
			 "warmup_s", s->warmup_s >= 0 ? json_real(s->warmup_s) : json_null(),
			 "disk", str_or_null(s->disk),
			 "micro", s->micro,
			 "micro_tests", micro ? micro : json_array(),
			 "pause_s", s->pause_s,
			 "drop_caches", s->drop_caches,
			 "mem_limits", mems ? mems : json_array());
	if (!o)
		return NULL;
	/* what was passed through to the load children, as load's table names
	 * it; the clients per process and the backend as the runs take them */
	const char *backend = load_opts_backend_given(&s->load);
	if (load_opts_through_json(&s->load, o) < 0) {
		json_decref(o);
		return NULL;
	}
	json_object_set_new(o, "clients_per_process", json_integer(s->per_proc ? s->per_proc : 1));
	json_object_set_new(o, "backend", json_string(backend ? backend : backends[0]->name));
	if (s->copies_arg)
		json_object_set_new(o, "micro_copies", json_string(s->copies_arg));
	/* --until-stable PCT --max-runs N (untilstable.h) */
	if (s->until_stable) {
		json_object_set_new(o, "until_stable_pct", json_real(s->until_pct));
		json_object_set_new(o, "max_runs", json_integer(s->max_runs));
	}
	json_object_set_new(o, "micro_quick", json_boolean(s->micro_quick));
	return o;
}

static json_t *find_row(json_t *doc, const char *name)
{
	size_t i;
	json_t *t;
	json_array_foreach(json_object_get(doc, "tests"), i, t)
		if (!strcmp(json_string_value(json_object_get(t, "name")), name))
			return t;
	return NULL;
}

/* The row named name, made (with params, unit, direction) if missing;
 * takes the reference to params. */
static json_t *row(json_t *doc, const char *name, json_t *params, const char *unit, bool hib)
{
	json_t *t = find_row(doc, name);
	if (t) {
		json_decref(params);
		return t;
	}
	t = json_pack("{s:s, s:o, s:s, s:b, s:[]}", "name", name, "params",
		      params ? params : json_object(), "unit", unit, "higher_is_better", hib, "runs");
	json_array_append_new(json_object_get(doc, "tests"), t);
	return t;
}

static json_t *job_row(struct suite *s, const struct job *j)
{
	switch (j->kind) {
	case JOB_LOAD: {
		json_t *p = json_pack("{s:s, s:i}", "command", "load", "clients", (int)j->clients);
		if (p && j->mem)
			json_object_set_new(p, "mem_limit", json_string(j->mem));
		return row(s->doc, j->name, p, "MB/s", true);
	}
	case JOB_DISK_CACHED:
	case JOB_DISK_BUFFERED: {
		json_t *p = json_pack("{s:s, s:s, s:s}", "command", "disk", "test",
				      j->kind == JOB_DISK_CACHED ? "cached" : "buffered", "device",
				      s->disk);
		if (p && j->mem)
			json_object_set_new(p, "mem_limit", json_string(j->mem));
		/* the device's settings when the row is made (each run's
		 * document has them as they were for that run) */
		struct dev_info di;
		char why[200];
		if (p && !find_row(s->doc, j->name) &&
		    devinfo_collect(s->disk, &di, why, sizeof(why)) == 0)
			json_object_set_new(p, "device_info", devinfo_json(s->disk, &di));
		return row(s->doc, j->name, p, "MiB/s", true);
	}
	case JOB_MICRO:
		break;
	}
	return NULL;
}

void jobs_rows(struct suite *s)
{
	for (size_t i = 0; i < s->njobs; i++)
		job_row(s, &s->jobs[i]);
}

void jobs_args(const struct suite *s, const struct job *j, struct job_args *a)
{
	size_t n = 0;
	const char **v = a->argv;
	switch (j->kind) {
	case JOB_LOAD:
		v[n++] = "load";
		v[n++] = "-q";
		snprintf(a->timelimit, sizeof(a->timelimit), "%d", SUITE_DEFAULT_TIMELIMIT_S);
		v[n++] = "-t";
		v[n++] = s->timelimit ? s->timelimit : a->timelimit;
		if (s->warmup) {
			v[n++] = "--warmup";
			v[n++] = s->warmup;
		}
		if (s->dir) {
			v[n++] = "-D";
			v[n++] = s->dir;
		}
		if (s->loadfile_path) {
			/* the file the suite checked, not a name looked up again */
			v[n++] = "-c";
			v[n++] = s->loadfile_path;
		}
		if (j->mem && strcmp(j->mem, "none")) {
			v[n++] = "--mem-limit";
			v[n++] = j->mem;
		}
		if (s->drop_caches && s->load_drop_caches)
			v[n++] = "--drop-caches";
		/* load's through table, as given */
		n = load_opts_through_argv(&s->load, v, n);
		v[n++] = "--json";
		v[n++] = s->child_json;
		snprintf(a->clients, sizeof(a->clients), "%u", j->clients);
		v[n++] = a->clients;
		break;
	case JOB_DISK_CACHED:
	case JOB_DISK_BUFFERED:
		v[n++] = "disk";
		v[n++] = j->kind == JOB_DISK_CACHED ? "-T" : "-t";
		v[n++] = "--json";
		v[n++] = s->child_json;
		v[n++] = s->disk;
		break;
	case JOB_MICRO:
		v[n++] = "micro";
		if (s->micro_quick)
			v[n++] = "--quick";
		if (s->copies_arg) {
			v[n++] = "--copies";
			v[n++] = s->copies_arg;
		}
		v[n++] = "--json";
		v[n++] = s->child_json;
		for (size_t i = 0; i < s->nmicro; i++)
			v[n++] = s->micro_tests[i];
		break;
	}
	v[n] = NULL;
}

/* Run run_no (from 1) of its job, value, into row t: a micro run whose
 * test gave no figure leaves a gap, so each run says which it is. */
static void add_run(const struct suite *s, json_t *t, unsigned run_no, double value,
		    const char *started, double seconds, json_t *doc)
{
	json_t *r = json_pack("{s:f, s:s, s:f, s:O, s:I}", "value", value, "started", started,
			      "seconds", seconds, "document", doc, "run_no", (json_int_t)run_no);
	/* a disk or micro child in the suite's own cgroup: its peak */
	if (r && s->child_peak)
		json_object_set_new(r, "mem_peak_bytes", json_integer((json_int_t)s->child_peak));
	json_array_append_new(json_object_get(t, "runs"), r);
}

/* The micro run's document as test t's run keeps it: every member but
 * results.tests, which holds t alone (the other tests' entries are their
 * own rows' runs; written whole under every row, a study of 85 tests
 * kept each run 85 times).  NULL when memory runs out. */
static json_t *own_document(const json_t *doc, json_t *t)
{
	json_t *own = json_copy((json_t *)doc);
	json_t *results = json_copy(json_object_get(doc, "results"));
	if (!own || !results || json_object_set_new(results, "tests", json_pack("[O]", t))) {
		json_decref(own);
		json_decref(results);
		return NULL;
	}
	if (json_object_set_new(own, "results", results)) {   /* results freed */
		json_decref(own);
		return NULL;
	}
	return own;
}

static int record_micro(struct suite *s, const struct job *j, json_t *doc, const char *started,
			double seconds, char *msg, size_t msglen)
{
	json_t *tests = json_object_get(json_object_get(doc, "results"), "tests");
	size_t i, got = 0, skipped = 0;
	json_t *t;
	if (!json_is_array(tests)) {
		snprintf(msg, msglen, "its document has no results.tests");
		return -1;
	}
	json_array_foreach(tests, i, t) {
		const char *name = json_string_value(json_object_get(t, "name"));
		json_t *v = json_object_get(t, "value");
		const char *unit = json_string_value(json_object_get(t, "unit"));
		if (!name)
			continue;
		json_t *p = json_pack("{s:s, s:o, s:o}", "command", "micro",
				      "family", json_incref(json_object_get(t, "family") ?
					      json_object_get(t, "family") : json_null()),
				      "title", json_incref(json_object_get(t, "title") ?
					      json_object_get(t, "title") : json_null()));
		char rname[256];
		snprintf(rname, sizeof(rname), "%.200s%s%s", name, j->mem ? " mem=" : "",
			 j->mem ? j->mem : "");
		if (p && j->mem)
			json_object_set_new(p, "mem_limit", json_string(j->mem));
		json_t *r = row(s->doc, rname, p, unit ? unit : "",
				json_is_true(json_object_get(t, "higher_is_better")));
		if (!r)
			continue;
		if (json_is_string(json_object_get(t, "skipped"))) {
			json_object_set(r, "skipped", json_object_get(t, "skipped"));
			skipped++;
		} else if (json_is_number(v) && isfinite(json_number_value(v)) && unit) {
			json_t *own = own_document(doc, t);
			add_run(s, r, jobs_done(s, j) + 1, json_number_value(v), started, seconds,
				own ? own : doc);
			json_decref(own);
			got++;
		}
	}
	if (!got && !skipped) {
		snprintf(msg, msglen, "its document reports no micro test");
		return -1;
	}
	snprintf(msg, msglen, "%zu micro figures, %zu skipped", got, skipped);
	return 0;
}

/* The one figure of a load or disk job's document (NULL when missing);
 * what names it in a refusal and unit describes it in the message. */
static json_t *figure_of(const struct job *j, json_t *doc, const char **what, const char **unit)
{
	json_t *results = json_object_get(doc, "results");
	if (j->kind == JOB_LOAD) {
		*what = "throughput";
		*unit = "MB/s (MB = 10^6 bytes)";
		return json_object_get(results, LOAD_JSON_THROUGHPUT);
	}
	json_t *test = json_object_get(json_array_get(results, 0),
				       j->kind == JOB_DISK_CACHED ? DISK_JSON_CACHED : DISK_JSON_BUFFERED);
	*what = DISK_JSON_MBPS;
	*unit = "MiB/s (MiB = 2^20 bytes)";
	return json_object_get(json_array_get(json_object_get(test, DISK_JSON_RUNS), 0), DISK_JSON_MBPS);
}

/* " [caveats: key, key]" after msg when the run's document has any. */
static void note_caveats(const json_t *doc, char *msg, size_t msglen)
{
	char keys[300];
	json_t *cav = caveat_derive(doc, sysconf(_SC_CLK_TCK), FIG_CAVEAT_CONF);
	size_t used = strlen(msg);
	if (json_array_size(cav) && used < msglen)
		snprintf(msg + used, msglen - used, " [caveats: %s]",
			 caveat_keys(cav, keys, sizeof(keys)));
	json_decref(cav);
}

int jobs_record(struct suite *s, const struct job *j, const char *started, double seconds,
		char *msg, size_t msglen)
{
	json_error_t err;
	json_t *doc = json_load_file(s->child_json, 0, &err);
	int rc = -1;
	if (!doc) {
		snprintf(msg, msglen, "no readable JSON document from the child: %s", err.text);
		return -1;
	}
	if (j->kind == JOB_MICRO) {
		rc = record_micro(s, j, doc, started, seconds, msg, msglen);
	} else {
		const char *what, *unit;
		json_t *v = figure_of(j, doc, &what, &unit);
		if (json_is_number(v) && isfinite(json_number_value(v))) {
			add_run(s, job_row(s, j), jobs_done(s, j) + 1, json_number_value(v), started, seconds,
				doc);
			snprintf(msg, msglen, "%.2f %s", json_number_value(v), unit);
			rc = 0;
		} else {
			snprintf(msg, msglen, "its document has no %s figure", what);
		}
	}
	if (rc == 0)
		note_caveats(doc, msg, msglen);
	json_decref(doc);
	return rc;
}

int jobs_failure_reason(const struct suite *s, const struct job *j, char *msg, size_t msglen)
{
	if (j->kind != JOB_LOAD)
		return -1;
	json_t *doc = json_load_file(s->child_json, 0, NULL);
	json_t *res = json_object_get(doc, "results");
	json_t *errors = json_object_get(res, LOAD_JSON_ERRORS);
	json_t *first = json_array_get(json_object_get(res, LOAD_JSON_ERROR_LINES), 0);
	int rc = -1;
	if (json_is_true(json_object_get(res, LOAD_JSON_OOM_KILLED))) {
		snprintf(msg, msglen, "OOM-killed under the memory limit: no throughput figure");
		rc = 0;
	} else if (json_is_integer(errors) && json_integer_value(errors) > 0) {
		const char *op = json_string_value(json_object_get(first, LOAD_JSON_ERR_OP));
		const char *want = json_string_value(json_object_get(first, LOAD_JSON_ERR_EXPECTED));
		const char *got = json_string_value(json_object_get(first, LOAD_JSON_ERR_GOT));
		int n = snprintf(msg, msglen, "%lld operations did not end as the loadfile expects",
				 (long long)json_integer_value(errors));
		if (op && want && got && n >= 0 && (size_t)n < msglen)
			snprintf(msg + n, msglen - (size_t)n, " (first: line %lld, %s expected %s, "
				 "got %s)", (long long)json_integer_value(json_object_get(first,
				 LOAD_JSON_ERR_LINE)), op, want, got);
		rc = 0;
	}
	json_decref(doc);
	return rc;
}

int jobs_micro_errors(const struct suite *s, const struct job *j, char *msg, size_t msglen)
{
	if (j->kind != JOB_MICRO || !msglen)
		return -1;
	json_t *doc = json_load_file(s->child_json, 0, NULL);
	json_t *tests = json_object_get(json_object_get(doc, "results"), "tests"), *t;
	size_t i, used = 0, n = 0;
	char text[600] = "";
	json_array_foreach(tests, i, t) {
		const char *name = json_string_value(json_object_get(t, "name"));
		const char *why = json_string_value(json_object_get(t, "error"));
		if (!name || !why || used >= sizeof(text))
			continue;
		int w = snprintf(text + used, sizeof(text) - used, "%s%s: %s", n ? "; " : "",
				 name, why);
		used += w > 0 ? (size_t)w : 0;
		n++;
	}
	json_decref(doc);
	if (n)
		snprintf(msg, msglen, "%s", text);
	return n ? 0 : -1;
}

unsigned jobs_done(const struct suite *s, const struct job *j)
{
	json_t *v = json_object_get(json_object_get(s->doc, "done"), j->name);
	json_int_t n = json_is_integer(v) ? json_integer_value(v) : 0;
	return n < 0 ? 0 : n > SUITE_MAX_RUNS ? SUITE_MAX_RUNS : (unsigned)n;
}

void jobs_set_done(struct suite *s, const struct job *j, unsigned n)
{
	json_object_set_new(json_object_get(s->doc, "done"), j->name, json_integer(n));
}

double jobs_guess_s(const struct suite *s, const struct job *j)
{
	switch (j->kind) {
	case JOB_LOAD:
		return (s->warmup_s >= 0 ? s->warmup_s : load_default_warmup_s(s->timelimit_s)) +
		       s->timelimit_s + 3;
	case JOB_DISK_CACHED:
		return DISK_CACHED_GUESS_S;
	case JOB_DISK_BUFFERED:
		return DISK_BUFFERED_GUESS_S;
	case JOB_MICRO:
		break;
	}
	return NAN;
}
