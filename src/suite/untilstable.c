/* kbench - suite --until-stable PCT --max-runs N: runs added to a test
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * untilstable.h says what is added and what the file records; the rule
 * itself is stats/stable.c's, over the figures suitefile_test reads.
 */
#include "config.h"
#include "cli.h"
#include "stats/stable.h"
#include "resultsfile/escape.h"
#include "suite/jobs.h"
#include "resultsfile/suitefile.h"
#include "suite/untilstable.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int ustable_parse(struct suite *s)
{
	uint64_t v;
	char *end;
	size_t need = stable_min_runs(STABLE_CONF);
	if (s->auto_runs)
		return 0;     /* --max-runs bounds the plan (autoruns.h) */
	s->max_runs = s->runs;
	if (!s->until_arg && !s->max_runs_arg)
		return 0;
	if (!s->until_arg)
		return cli_usage_error(s->cmd, "--max-runs is the limit of --until-stable: give "
				       "--until-stable PCT too");
	s->until_pct = strtod(s->until_arg, &end);
	if (end == s->until_arg || *end || !(s->until_pct > 0) || !isfinite(s->until_pct))
		return cli_usage_error(s->cmd, "--until-stable %s: give a percentage above 0 "
				       "(the median's interval within it, e.g. 2.5)", s->until_arg);
	if (!s->max_runs_arg)
		return cli_usage_error(s->cmd, "--until-stable needs --max-runs N (the most runs "
				       "of a test)");
	unsigned least = s->runs > need ? s->runs : (unsigned)need;
	if (cli_parse_uint(s->max_runs_arg, least, SUITE_MAX_RUNS, &v) < 0)
		return cli_usage_error(s->cmd, "--max-runs %s: give a whole number from %u (--runs "
				       "%u; the median's %g%% interval needs %zu runs) to %d",
				       s->max_runs_arg, least, s->runs, STABLE_CONF, need,
				       SUITE_MAX_RUNS);
	s->max_runs = (unsigned)v;
	s->until_stable = true;
	return 0;
}

bool ustable_row_of(const struct job *j, const json_t *t)
{
	const json_t *p = json_object_get(t, "params");
	const char *name = json_string_value(json_object_get(t, "name"));
	const char *command = json_string_value(json_object_get(p, "command"));
	const char *mem = json_string_value(json_object_get(p, "mem_limit"));
	if (j->kind != JOB_MICRO)
		return name && !strcmp(name, j->name);
	if (!command || strcmp(command, "micro") || json_object_get(t, "skipped"))
		return false;
	return j->mem ? mem && !strcmp(mem, j->mem) : !mem;
}

bool ustable_more(const struct suite *s, const struct job *j)
{
	unsigned attempts = jobs_done(s, j);
	size_t i, rows = 0;
	json_t *t;
	char why[200];
	if (!s->until_stable || attempts < s->runs || attempts >= s->max_runs)
		return false;
	json_array_foreach(json_object_get(s->doc, "tests"), i, t) {
		struct sf_test st;
		if (!ustable_row_of(j, t))
			continue;
		rows++;
		int bad = suitefile_test(t, &st, why, sizeof(why)) < 0;
		bool more = bad || stable_more(st.v, st.n, attempts, s->runs, s->until_pct,
					       s->max_runs);
		free(st.v);
		if (more)
			return true;
	}
	return rows == 0;   /* no figure yet (every run failed): another run */
}

void ustable_record(struct suite *s, const struct job *j)
{
	unsigned attempts = jobs_done(s, j);
	size_t i;
	json_t *t;
	char why[200];
	if (!s->until_stable)
		return;
	json_array_foreach(json_object_get(s->doc, "tests"), i, t) {
		struct sf_test st;
		double half = 0;
		if (!ustable_row_of(j, t))
			continue;
		int got = suitefile_test(t, &st, why, sizeof(why)) == 0 &&
			  stable_half_pct(st.v, st.n, STABLE_CONF, &half) == 0;
		bool within = got && half <= s->until_pct;
		json_t *o = json_pack("{s:f, s:i, s:f, s:i, s:i, s:o, s:b, s:b}",
				      "pct", s->until_pct, "max_runs", (int)s->max_runs,
				      "confidence", STABLE_CONF, "runs", (int)(st.v ? st.n : 0),
				      "attempts", (int)attempts,
				      "median_ci_half_pct", got && isfinite(half) ? json_real(half) :
				      json_null(), "within", within,
				      "hit_max_runs", !within && attempts >= s->max_runs);
		free(st.v);
		if (o)
			json_object_set_new(t, "until_stable", o);
	}
}

/* One test's line: "  NAME: R runs, +-H% (hit --max-runs)". */
static void print_row(FILE *f, const json_t *t, const json_t *u)
{
	char name[200];
	const json_t *h = json_object_get(u, "median_ci_half_pct");
	json_int_t runs = json_integer_value(json_object_get(u, "runs"));
	fprintf(f, "  %s: %lld run%s, ", esc_str(name, sizeof(name),
		json_string_value(json_object_get(t, "name"))), (long long)runs, runs == 1 ? "" : "s");
	if (json_is_number(h))
		fprintf(f, "median +-%.2f%%", json_number_value(h));
	else
		fprintf(f, "no interval of the median");
	fprintf(f, "%s\n", json_is_true(json_object_get(u, "hit_max_runs")) ?
		", hit --max-runs" : "");
}

void ustable_print(FILE *f, const json_t *doc)
{
	size_t i, rows = 0, hit = 0;
	json_t *t;
	char name[200];
	const json_t *first = NULL;
	json_array_foreach(json_object_get(doc, "tests"), i, t) {
		const json_t *u = json_object_get(t, "until_stable");
		if (!json_is_object(u))
			continue;
		if (!rows++) {
			first = u;
			fprintf(f, "Until stable (the median's %g%% interval within +-%g%% of it, at "
				"most %lld runs):\n",
				json_number_value(json_object_get(u, "confidence")),
				json_number_value(json_object_get(u, "pct")),
				(long long)json_integer_value(json_object_get(u, "max_runs")));
		}
		print_row(f, t, u);
		hit += json_is_true(json_object_get(u, "hit_max_runs"));
	}
	if (!rows)
		return;
	if (!hit) {
		fprintf(f, "no test hit --max-runs\n");
		return;
	}
	fprintf(f, "hit --max-runs %lld:",
		(long long)json_integer_value(json_object_get(first, "max_runs")));
	size_t k = 0;
	json_array_foreach(json_object_get(doc, "tests"), i, t)
		if (json_is_true(json_object_get(json_object_get(t, "until_stable"),
						 "hit_max_runs")))
			fprintf(f, "%s %s", k++ ? "," : "", esc_str(name, sizeof(name),
				json_string_value(json_object_get(t, "name"))));
	fprintf(f, "\n");
}
