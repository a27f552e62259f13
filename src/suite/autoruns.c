/* kbench - suite --runs auto --detect PCT: the plan (see autoruns.h)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The plan lives in the results document (each row's "plan", the doc's
 * runs_auto, outside params: the params are sealed with the series'
 * digest before the pilots, plan.h): what a job still needs is read back
 * from there, so a resumed series goes on with the plan it made.
 */
#include "config.h"
#include "cli.h"
#include "stats/power.h"
#include "stats/summary.h"
#include "suite/autoruns.h"
#include "resultsfile/escape.h"
#include "suite/jobs.h"
#include "resultsfile/suitefile.h"
#include "suite/untilstable.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int autoruns_parse(struct suite *s)
{
	uint64_t v;
	char *end;
	bool is_auto = s->runs_arg && !strcmp(s->runs_arg, "auto");
	if (!is_auto && (s->detect_arg || s->budget_arg))
		return cli_usage_error(s->cmd, "%s plans the runs: give --runs auto too",
				       s->detect_arg ? "--detect" : "--budget");
	if (!is_auto)
		return 0;
	if (!s->detect_arg)
		return cli_usage_error(s->cmd, "--runs auto needs --detect PCT (the change in "
				       "percent each test's runs should be able to prove)");
	if (s->until_arg)
		return cli_usage_error(s->cmd, "--runs auto plans the runs; --until-stable adds "
				       "them by another rule: give one of them");
	s->detect_pct = strtod(s->detect_arg, &end);
	if (end == s->detect_arg || *end || !(s->detect_pct > 0 && s->detect_pct < 100))
		return cli_usage_error(s->cmd, "--detect %s: give a percentage above 0 and below "
				       "100 (e.g. 5)", s->detect_arg);
	s->max_runs = AUTO_MAX_RUNS;
	if (s->max_runs_arg && cli_parse_uint(s->max_runs_arg, AUTO_PILOT, SUITE_MAX_RUNS, &v) < 0)
		return cli_usage_error(s->cmd, "--max-runs %s: give a whole number from %d (the "
				       "pilot runs) to %d", s->max_runs_arg, AUTO_PILOT,
				       SUITE_MAX_RUNS);
	if (s->max_runs_arg)
		s->max_runs = (unsigned)v;
	s->budget_s = 0;
	if (s->budget_arg && (cli_parse_duration(s->budget_arg, &s->budget_s) < 0 ||
			      !(s->budget_s > 0)))
		return cli_usage_error(s->cmd, "--budget %s: give a duration above 0 (90m, 2h)",
				       s->budget_arg);
	s->runs = AUTO_PILOT;
	s->auto_runs = true;
	return 0;
}

/* The rows holding a figure: the tests a compare of the study adjusts. */
static size_t tests_of(const struct suite *s)
{
	size_t i, m = 0;
	json_t *t;
	json_array_foreach(json_object_get(s->doc, "tests"), i, t)
		m += !json_object_get(t, "skipped") && json_array_size(json_object_get(t, "runs"));
	return m;
}

/* The runs the budget allows job j: its pilots and its share of what is
 * left, at its mean run time so far; UINT_MAX without --budget. */
static unsigned budget_runs(const struct suite *s, const struct job *j)
{
	double spent = 0;
	if (!(s->budget_s > 0))
		return UINT_MAX;
	for (size_t k = 0; k < s->njobs; k++)
		spent += s->jobs[k].spent_s;
	double share = (s->budget_s - spent) / (double)s->njobs;
	double per = j->timed ? j->spent_s / j->timed : 0;
	if (!(per > 0))
		return UINT_MAX;
	double more = share > 0 ? floor(share / per) : 0;
	return more > (double)SUITE_MAX_RUNS ? UINT_MAX : jobs_done(s, j) + (unsigned)more;
}

/* Plan row t of job j: its record, and the runs it asks for. */
static unsigned plan_row(const struct suite *s, const struct job *j, json_t *t, double alpha,
			 FILE *err)
{
	struct sf_test st;
	struct summary sum;
	char why[200], name[200];
	double cov = NAN;
	if (suitefile_test(t, &st, why, sizeof(why)) == 0 && st.n >= 2 &&
	    summary_of(st.v, st.n, &sum) == 0)
		cov = fabs(sum.cov_pct);
	free(st.v);
	size_t needs = isfinite(cov) ? power_runs(cov, s->detect_pct, alpha, AUTO_POWER, true) : 0;
	unsigned cap = s->max_runs, by_budget = budget_runs(s, j);
	unsigned want = needs && needs < cap ? (unsigned)needs : cap;
	bool cut = by_budget < want;
	unsigned runs = !cut ? want : by_budget > AUTO_PILOT ? by_budget : AUTO_PILOT;
	const char *short_by = needs && runs < needs ? (cut ? "budget" : "max_runs") : NULL;
	json_object_set_new(t, "plan", json_pack("{s:o, s:i, s:o, s:i, s:o}", "cov_pct",
			    isfinite(cov) ? json_real(cov) : json_null(), "pilot_runs", AUTO_PILOT,
			    "needs", needs ? json_integer((json_int_t)needs) : json_null(),
			    "runs", (int)runs, "short_by", short_by ? json_string(short_by) :
			    json_null()));
	esc_str(name, sizeof(name), json_string_value(json_object_get(t, "name")));
	if (!needs)
		fprintf(err, "%s: plan: %s: no spread from its pilots; %u runs (--max-runs)\n",
			s->cmd, name, runs);
	else if (short_by && !strcmp(short_by, "max_runs"))
		fprintf(err, "%s: plan: %s needs %zu runs for %g%% (CoV %.2f%%); --max-runs %u\n",
			s->cmd, name, needs, s->detect_pct, cov, cap);
	else if (short_by)
		fprintf(err, "%s: plan: %s needs %zu runs for %g%% (CoV %.2f%%); --budget %s "
			"leaves %u\n", s->cmd, name, needs, s->detect_pct, cov, s->budget_arg, runs);
	return runs;
}

/* Has the series recorded its plan (a resumed one)? */
static bool planned_before(const struct suite *s)
{
	return json_object_get(s->doc, "runs_auto") != NULL;
}

int autoruns_plan(struct suite *s, FILE *err)
{
	size_t i, m = tests_of(s), most_at = 0, short_n = 0;
	unsigned most = 0;
	json_t *t;
	if (!s->auto_runs || planned_before(s))
		return 0;
	double alpha = (1 - AUTO_CONF / 100) / (double)(m ? m : 1);
	for (size_t k = 0; k < s->njobs; k++) {
		unsigned job_runs = AUTO_PILOT;
		json_array_foreach(json_object_get(s->doc, "tests"), i, t) {
			if (!ustable_row_of(&s->jobs[k], t))
				continue;
			unsigned r = plan_row(s, &s->jobs[k], t, alpha, err);
			short_n += !json_is_null(json_object_get(json_object_get(t, "plan"),
								 "short_by"));
			job_runs = r > job_runs ? r : job_runs;
		}
		if (job_runs > most) {
			most = job_runs;
			most_at = k;
		}
	}
	json_t *ra = json_pack("{s:f, s:f, s:f, s:s, s:i, s:f, s:i, s:i, s:o}", "detect_pct",
			       s->detect_pct, "power", AUTO_POWER, "confidence", AUTO_CONF,
			       "adjust", "bh", "tests", (int)m, "alpha", alpha, "pilot_runs",
			       AUTO_PILOT, "max_runs", (int)s->max_runs, "budget_s",
			       s->budget_s > 0 ? json_real(s->budget_s) : json_null());
	if (!ra || json_object_set_new(s->doc, "runs_auto", ra) < 0)
		return -1;
	fprintf(err, "%s: plan: %zu tests; runs to find a %g%% change in any one of them with "
		"%.0f%% power (U test, p below %.2g: Benjamini-Hochberg at %g%%); %zu short of "
		"their need; the most: %u runs of %s\n", s->cmd, m, s->detect_pct, 100 * AUTO_POWER,
		alpha, AUTO_CONF, short_n, most, s->njobs ? s->jobs[most_at].name : "-");
	return 0;
}

unsigned autoruns_planned(const struct suite *s, const struct job *j)
{
	size_t i;
	json_t *t;
	unsigned most = s->runs;
	json_array_foreach(json_object_get(s->doc, "tests"), i, t) {
		const json_t *r = json_object_get(json_object_get(t, "plan"), "runs");
		if (ustable_row_of(j, t) && json_is_integer(r) && json_integer_value(r) > most)
			most = (unsigned)json_integer_value(r);
	}
	return most;
}

bool autoruns_more(const struct suite *s, const struct job *j)
{
	unsigned done = jobs_done(s, j);
	return s->auto_runs && done >= s->runs && done < autoruns_planned(s, j) &&
	       done < s->max_runs;
}

void autoruns_print(FILE *f, const json_t *doc)
{
	const json_t *ra = json_object_get(doc, "runs_auto");
	size_t i, shorts = 0;
	json_t *t;
	char name[200];
	if (!json_is_object(ra))
		return;
	fprintf(f, "Runs planned to find a %g%% change in any one of %lld tests (%.0f%% power, "
		"p below %.2g), from %lld pilot runs:\n",
		json_number_value(json_object_get(ra, "detect_pct")),
		(long long)json_integer_value(json_object_get(ra, "tests")),
		100 * json_number_value(json_object_get(ra, "power")),
		json_number_value(json_object_get(ra, "alpha")),
		(long long)json_integer_value(json_object_get(ra, "pilot_runs")));
	json_array_foreach(json_object_get(doc, "tests"), i, t) {
		const json_t *p = json_object_get(t, "plan"), *sb = json_object_get(p, "short_by");
		if (!json_is_string(sb))
			continue;
		shorts++;
		fprintf(f, "  %s: needs %lld runs, planned %lld (%s)\n",
			esc_str(name, sizeof(name), json_string_value(json_object_get(t, "name"))),
			(long long)json_integer_value(json_object_get(p, "needs")),
			(long long)json_integer_value(json_object_get(p, "runs")),
			!strcmp(json_string_value(sb), "max_runs") ? "--max-runs" : "--budget");
	}
	if (!shorts)
		fprintf(f, "  every test got the runs it needs\n");
}
