/* kbench - suite: options, the jobs of a series, their children and figures
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
#include "cli.h"
#include "disk/disk.h"
#include "load/load.h"
#include "suite/child.h"
#include "suite/escape.h"
#include "suite/jobs.h"
#include "sys/caches.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define MAX_RUNS 1000

int jobs_parse(struct suite *s, int argc, const char **argv, poptContext *ctx)
{
	struct poptOption options[] = {
		{ "directory", 'D', POPT_ARG_STRING, &s->dir, 0,
		  "directory the load runs in (default: kbench load's own under $TMPDIR)", "DIR" },
		{ "loadfile", 'c', POPT_ARG_STRING, &s->loadfile, 0,
		  "loadfile for kbench load (default: its client.txt)", "FILE" },
		{ "clients", 0, POPT_ARG_STRING, &s->clients_arg, 0,
		  "client counts of the load runs (default 1,5,10)", "LIST" },
		{ "runs", 0, POPT_ARG_STRING, &s->runs_arg, 0,
		  "runs of every test (default 5)", "N" },
		{ "timelimit", 't', POPT_ARG_STRING, &s->timelimit, 0,
		  "measured seconds of each load run (default 60; 90, 1.5m)", "TIME" },
		{ "warmup", 0, POPT_ARG_STRING, &s->warmup, 0,
		  "warm-up of each load run (default: kbench load's, timelimit/5)", "TIME" },
		{ "disk", 0, POPT_ARG_STRING, &s->disk, 0,
		  "also time this device or file with kbench disk -T and -t", "DEV" },
		{ "micro", 0, POPT_ARG_STRING | POPT_ARGFLAG_OPTIONAL, NULL, 'm',
		  "also run kbench micro (all its tests, or these, comma-separated)", "TESTS" },
		{ "pause", 0, POPT_ARG_STRING, &s->pause_arg, 0,
		  "pause before every run, after the sync (default 10 s; 0 for none)", "TIME" },
		{ "drop-caches", 0, POPT_ARG_NONE, &s->drop_caches, 0,
		  "drop the page cache before every run (root; also passed to kbench load)", NULL },
		{ "mem-limit", 0, POPT_ARG_STRING, &s->mem_arg, 0,
		  "run every load under each of these memory limits (kbench load --mem-limit; "
		  "e.g. 32M,128M,none)", "LIST" },
		{ "label", 0, POPT_ARG_STRING, &s->label, 0,
		  "name of this series in the file and in comparisons (default: uname -r)", "NAME" },
		{ "output", 'o', POPT_ARG_STRING, &s->out, 0,
		  "results file (default kbench-RELEASE-HOST-YYYYmmdd-HHMMSS.json here)", "FILE" },
		{ "resume", 0, POPT_ARG_STRING, &s->resume, 0,
		  "carry on an interrupted series with the command line stored in FILE", "FILE" },
		{ "format", 0, POPT_ARG_STRING, &s->format, 0,
		  "the summary at the end: text (a table, default) or benchstat (Go benchmark "
		  "lines)", "FORMAT" },
		POPT_AUTOHELP
		POPT_TABLEEND
	};
	*ctx = poptGetContext(s->cmd, argc, argv, options, 0);
	poptSetOtherOptionHelp(*ctx, "[OPTIONS]    or    --resume FILE");
	int rc, other = 0;
	while ((rc = cli_popt_next(*ctx, options)) > 0) {
		if (rc == 'm') {
			s->micro = 1;
			free(s->micro_arg);
			s->micro_arg = poptGetOptArg(*ctx);
		}
	}
	int status = cli_popt_done(*ctx, s->cmd, rc);
	if (status)
		return status;
	if (poptPeekArg(*ctx))
		return cli_usage_error(s->cmd, "unexpected argument '%s'", poptPeekArg(*ctx));
	other = s->dir || s->loadfile || s->clients_arg || s->runs_arg || s->timelimit ||
		s->warmup || s->disk || s->micro || s->pause_arg || s->drop_caches || s->mem_arg ||
		s->label || s->out;
	if (s->resume && other)
		return cli_usage_error(s->cmd, "--resume takes no other options but --format: "
				       "the file holds the command line");
	return 0;
}

void jobs_free(struct suite *s)
{
	char **strs[] = { &s->dir, &s->loadfile, &s->timelimit, &s->warmup, &s->disk, &s->label,
			  &s->out, &s->format, &s->resume, &s->clients_arg, &s->runs_arg,
			  &s->pause_arg, &s->mem_arg, &s->micro_arg };
	for (size_t i = 0; i < sizeof(strs) / sizeof(strs[0]); i++) {
		free(*strs[i]);
		*strs[i] = NULL;
	}
	for (size_t i = 0; i < s->nmems; i++)
		free(s->mems[i]);
	for (size_t i = 0; i < s->nmicro; i++)
		free(s->micro_tests[i]);
	s->nmems = s->nmicro = 0;
	free(s->loadfile_path);
	s->loadfile_path = NULL;
}

/* Split a comma-separated list into at most max strdup'd items; -1 on an
 * empty item or too many. */
static int split(const char *list, char **out, size_t max, size_t *n)
{
	const char *p = list;
	*n = 0;
	for (;;) {
		size_t len = strcspn(p, ",");
		if (!len || *n == max)
			return -1;
		out[*n] = strndup(p, len);
		if (!out[*n])
			return -1;
		(*n)++;
		if (!p[len])
			return 0;
		p += len + 1;
	}
}

/* Does `kbench ARGS` exit 0, and does its output hold want (if not NULL)?
 * 1 yes, 0 no, -1 could not run it. */
static int ask_kbench(const struct suite *s, const char *const *args, const char *want,
		      char *last, size_t lastlen)
{
	struct child_result r;
	volatile sig_atomic_t never = 0;
	if (child_run(s->exe, args, s->child_log, s->child_log, &never, &r) < 0)
		return -1;
	if (last)
		snprintf(last, lastlen, "%s", r.last_line);
	if (r.status != 0)
		return 0;
	if (!want)
		return 1;
	FILE *f = fopen(s->child_log, "re");
	char line[512];
	int found = 0;
	while (f && !found && fgets(line, sizeof(line), f))
		found = strstr(line, want) != NULL;
	if (f)
		fclose(f);
	return found;
}

static int parse_lists(struct suite *s)
{
	uint64_t v;
	char *items[SUITE_MAX_CLIENTS];
	size_t n;
	s->runs = 5;
	if (s->runs_arg) {
		if (cli_parse_uint(s->runs_arg, 1, MAX_RUNS, &v) < 0)
			return cli_usage_error(s->cmd, "--runs %s: give a whole number from 1 to %d",
					       s->runs_arg, MAX_RUNS);
		s->runs = (unsigned)v;
	}
	s->timelimit_s = 60;
	if (s->timelimit && (cli_parse_duration(s->timelimit, &s->timelimit_s) < 0 ||
			     !(s->timelimit_s > 0)))
		return cli_usage_error(s->cmd, "-t %s: give a duration above 0 (90, 1.5m)",
				       s->timelimit);
	s->warmup_s = -1;
	if (s->warmup && cli_parse_duration(s->warmup, &s->warmup_s) < 0)
		return cli_usage_error(s->cmd, "--warmup %s: give a duration (0, 10, 1m)", s->warmup);
	s->pause_s = 10;
	if (s->pause_arg && cli_parse_duration(s->pause_arg, &s->pause_s) < 0)
		return cli_usage_error(s->cmd, "--pause %s: give a duration (0, 10, 1m)",
				       s->pause_arg);
	if (s->format && strcmp(s->format, "text") && strcmp(s->format, "benchstat"))
		return cli_usage_error(s->cmd, "--format %s: give text or benchstat", s->format);
	const char *clients = s->clients_arg ? s->clients_arg : "1,5,10";
	if (split(clients, items, SUITE_MAX_CLIENTS, &n) < 0) {
		for (size_t i = 0; i < n; i++)
			free(items[i]);
		return cli_usage_error(s->cmd, "--clients %s: give up to %d client counts, "
				       "comma-separated (1,5,10)", clients, SUITE_MAX_CLIENTS);
	}
	int bad = 0;
	for (size_t i = 0; i < n; i++) {
		if (!bad && cli_parse_uint(items[i], 1, LOAD_MAX_CLIENTS, &v) < 0)
			bad = cli_usage_error(s->cmd, "--clients %s: '%s' is not a client count "
					      "from 1 to %u", clients, items[i], LOAD_MAX_CLIENTS);
		s->clients[i] = (unsigned)v;
		for (size_t k = 0; !bad && k < i; k++)
			if (s->clients[k] == s->clients[i])
				bad = cli_usage_error(s->cmd, "--clients %s: %u is given twice", clients,
						      s->clients[i]);
		free(items[i]);
	}
	s->nclients = n;
	if (bad)
		return bad;
	if (s->mem_arg) {
		if (split(s->mem_arg, s->mems, SUITE_MAX_MEMS, &s->nmems) < 0)
			return cli_usage_error(s->cmd, "--mem-limit %s: give up to %d sizes or 'none', "
					       "comma-separated (32M,128M,none)", s->mem_arg,
					       SUITE_MAX_MEMS);
		for (size_t i = 0; i < s->nmems; i++) {
			/* it becomes part of a test's name (struct job) */
			if (strlen(s->mems[i]) > 32)
				return cli_usage_error(s->cmd, "--mem-limit: '%.40s...' is too long for "
						       "a size", s->mems[i]);
			int mem = load_mem_limit_parse(s->mems[i], &v);
			if (mem == LOAD_MEM_LIMIT_BAD)
				return cli_usage_error(s->cmd, "--mem-limit: '%s' is neither a size "
						       "(32M, 1G) nor 'none'", s->mems[i]);
			if (mem == LOAD_MEM_LIMIT_ZERO)
				return cli_usage_error(s->cmd, "--mem-limit: '%s' would let no load "
						       "run; give a size (32M, 1G) or 'none'",
						       s->mems[i]);
			for (size_t k = 0; k < i; k++)
				if (!strcmp(s->mems[k], s->mems[i]))
					return cli_usage_error(s->cmd, "--mem-limit: '%s' is given "
							       "twice", s->mems[i]);
		}
	}
	if (s->micro_arg && split(s->micro_arg, s->micro_tests, SUITE_MAX_MICRO, &s->nmicro) < 0)
		return cli_usage_error(s->cmd, "--micro=%s: give test names, comma-separated",
				       s->micro_arg);
	return 0;
}

static int check_paths(struct suite *s)
{
	struct stat st;
	char why[200];
	if (s->dir && (stat(s->dir, &st) < 0 || !S_ISDIR(st.st_mode))) {
		fprintf(stderr, "%s: -D %s: %s\n", s->cmd, s->dir,
			errno && stat(s->dir, &st) < 0 ? strerror(errno) : "not a directory");
		return KB_EXIT_USAGE;
	}
	if (s->disk && (stat(s->disk, &st) < 0 || !(S_ISBLK(st.st_mode) || S_ISREG(st.st_mode)))) {
		fprintf(stderr, "%s: --disk %s: %s\n", s->cmd, s->disk,
			stat(s->disk, &st) < 0 ? strerror(errno) :
			"neither a block device nor a regular file");
		return KB_EXIT_USAGE;
	}
	if (s->drop_caches && caches_drop_check(why, sizeof(why)) < 0) {
		fprintf(stderr, "%s: --drop-caches: %s\n", s->cmd, why);
		return KB_EXIT_USAGE;
	}
	return 0;
}

/* What the kbench binary that runs the children accepts. */
static int check_kbench(struct suite *s)
{
	char last[256];
	const char *help_load[] = { "help", "load", NULL };
	const char *help_micro[] = { "help", "micro", NULL };
	if (s->nmems || s->drop_caches) {
		int has_mem = ask_kbench(s, help_load, "--mem-limit", NULL, 0);
		int has_drop = ask_kbench(s, help_load, "--drop-caches", NULL, 0);
		if (has_mem < 0 || has_drop < 0) {
			fprintf(stderr, "%s: cannot run %s: %s\n", s->cmd, s->exe, strerror(errno));
			return KB_EXIT_USAGE;
		}
		s->load_mem_limit = has_mem == 1;
		s->load_drop_caches = has_drop == 1;
		if (s->nmems && !s->load_mem_limit) {
			fprintf(stderr, "%s: --mem-limit: this kbench's load command has no "
				"--mem-limit option\n", s->cmd);
			return KB_EXIT_USAGE;
		}
	}
	if (s->micro && ask_kbench(s, help_micro, NULL, NULL, 0) != 1) {
		fprintf(stderr, "%s: --micro: this kbench has no micro command\n", s->cmd);
		return KB_EXIT_USAGE;
	}
	if (s->loadfile) {
		const char *chk[] = { "load", "--check",
				      s->loadfile_path ? s->loadfile_path : s->loadfile, NULL };
		if (ask_kbench(s, chk, NULL, last, sizeof(last)) != 1) {
			char shown[300];
			fprintf(stderr, "%s: -c %s: kbench load --check refuses it: %s\n", s->cmd,
				s->loadfile, last[0] ? esc_str(shown, sizeof(shown), last) :
				"(no message)");
			return KB_EXIT_USAGE;
		}
	}
	return 0;
}

static void add_job(struct suite *s, enum job_kind k, unsigned clients, const char *mem)
{
	struct job *j = &s->jobs[s->njobs++];
	memset(j, 0, sizeof(*j));
	j->kind = k;
	j->clients = clients;
	j->mem = mem;
	switch (k) {
	case JOB_DISK_CACHED: snprintf(j->name, sizeof(j->name), "disk -T"); break;
	case JOB_DISK_BUFFERED: snprintf(j->name, sizeof(j->name), "disk -t"); break;
	case JOB_MICRO: snprintf(j->name, sizeof(j->name), "micro"); break;
	case JOB_LOAD:
		snprintf(j->name, sizeof(j->name), "load %u%s%s", clients, mem ? " mem=" : "",
			 mem ? mem : "");
		break;
	}
}

int jobs_check(struct suite *s)
{
	int rc = parse_lists(s);
	if (!rc)
		rc = check_paths(s);
	if (rc)
		return rc;
	s->exe = child_self();
	rc = check_kbench(s);
	if (rc)
		return rc;
	s->njobs = 0;
	if (s->disk) {
		add_job(s, JOB_DISK_CACHED, 0, NULL);
		add_job(s, JOB_DISK_BUFFERED, 0, NULL);
	}
	for (size_t m = 0; m < (s->nmems ? s->nmems : 1); m++)
		for (size_t c = 0; c < s->nclients; c++)
			add_job(s, JOB_LOAD, s->clients[c], s->nmems ? s->mems[m] : NULL);
	if (s->micro)
		add_job(s, JOB_MICRO, 0, NULL);
	return 0;
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
	return json_pack("{s:o, s:o, s:o, s:i, s:f, s:o, s:o, s:b, s:o, s:f, s:b, s:o}",
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
	case JOB_DISK_BUFFERED:
		return row(s->doc, j->name, json_pack("{s:s, s:s, s:s}", "command", "disk", "test",
			   j->kind == JOB_DISK_CACHED ? "cached" : "buffered", "device", s->disk),
			   "MiB/s", true);
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
		v[n++] = "-t";
		v[n++] = s->timelimit ? s->timelimit : "60";
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
		v[n++] = "--json";
		v[n++] = s->child_json;
		for (size_t i = 0; i < s->nmicro; i++)
			v[n++] = s->micro_tests[i];
		break;
	}
	v[n] = NULL;
}

static void add_run(json_t *t, double value, const char *started, double seconds, json_t *doc)
{
	json_array_append_new(json_object_get(t, "runs"),
			      json_pack("{s:f, s:s, s:f, s:O}", "value", value, "started", started,
					"seconds", seconds, "document", doc));
}

static int record_micro(struct suite *s, json_t *doc, const char *started, double seconds,
			char *msg, size_t msglen)
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
		json_t *r = row(s->doc, name, p, unit ? unit : "",
				json_is_true(json_object_get(t, "higher_is_better")));
		if (!r)
			continue;
		if (json_is_string(json_object_get(t, "skipped"))) {
			json_object_set(r, "skipped", json_object_get(t, "skipped"));
			skipped++;
		} else if (json_is_number(v) && isfinite(json_number_value(v)) && unit) {
			add_run(r, json_number_value(v), started, seconds, doc);
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
	json_t *results = json_object_get(doc, "results"), *v = NULL;
	switch (j->kind) {
	case JOB_LOAD:
		v = json_object_get(results, LOAD_JSON_THROUGHPUT);
		if (!json_is_number(v) || !isfinite(json_number_value(v))) {
			snprintf(msg, msglen, "its document has no throughput figure");
			break;
		}
		add_run(job_row(s, j), json_number_value(v), started, seconds, doc);
		snprintf(msg, msglen, "%.2f MB/s (MB = 10^6 bytes)", json_number_value(v));
		rc = 0;
		break;
	case JOB_DISK_CACHED:
	case JOB_DISK_BUFFERED: {
		json_t *test = json_object_get(json_array_get(results, 0), j->kind == JOB_DISK_CACHED ?
					       DISK_JSON_CACHED : DISK_JSON_BUFFERED);
		v = json_object_get(json_array_get(json_object_get(test, DISK_JSON_RUNS), 0),
				    DISK_JSON_MBPS);
		if (!json_is_number(v) || !isfinite(json_number_value(v))) {
			snprintf(msg, msglen, "its document has no " DISK_JSON_MBPS " figure");
			break;
		}
		add_run(job_row(s, j), json_number_value(v), started, seconds, doc);
		snprintf(msg, msglen, "%.2f MiB/s (MiB = 2^20 bytes)", json_number_value(v));
		rc = 0;
		break;
	}
	case JOB_MICRO:
		rc = record_micro(s, doc, started, seconds, msg, msglen);
		break;
	}
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

unsigned jobs_done(const struct suite *s, const struct job *j)
{
	json_t *v = json_object_get(json_object_get(s->doc, "done"), j->name);
	json_int_t n = json_is_integer(v) ? json_integer_value(v) : 0;
	return n < 0 ? 0 : n > MAX_RUNS ? MAX_RUNS : (unsigned)n;
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
