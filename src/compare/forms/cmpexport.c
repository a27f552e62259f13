/* kbench - a results file in the forms LKP and mmtests keep their results in
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * kbench compare --export lkp FILE: LKP's flat stats ("key: value" lines,
 * as its programs/dbench/parse prints them) of each load test:
 *   throughput_MB/s: the mean of the runs' MB/sec (MB = 10^6 bytes)
 *   throughput_MB/s_harmonic_mean: their harmonic mean
 *   max_latency: the largest of the runs' max_latency_ms (ms), when
 *     their documents record it
 * With more than one load test each key is prefixed by the test's name
 * with its blanks as '_' and a dot ("load_4.throughput_MB/s").
 * kbench compare --export mmtests FILE: mmtests' tab-separated rows
 * "metric factorA factorB interval value extra", one a run:
 *   throughput CLIENTS MB/s RUN VALUE LABEL        (a load test)
 *   max_latency CLIENTS ms RUN VALUE LABEL         (a load run's document)
 *   NAME - UNIT RUN VALUE LABEL                    (any other test)
 * RUN counts from 1; NAME is the test's with blanks as '_'; LABEL is the
 * file's label ('-' when it has none, blanks as '_').
 */
#include "config.h"
#include "compare/forms/cmpexport.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* s with every blank (and tab) as '_', into buf. */
static const char *word(const char *s, char *buf, size_t len)
{
	size_t i = 0;
	for (; s && s[i] && i + 1 < len; i++)
		buf[i] = (s[i] == ' ' || s[i] == '\t' || s[i] == '\n') ? '_' : s[i];
	buf[i] = 0;
	return i ? buf : "-";
}

static int is_load(const struct sf_test *t)
{
	const char *cmd = json_string_value(json_object_get(t->params, "command"));
	return cmd && !strcmp(cmd, "load");
}

/* The max_latency_ms of run i's document (its results), or NAN. */
static double run_max_latency(const struct sf_test *t, size_t i)
{
	const json_t *run = json_array_get(json_object_get(t->row, "runs"), i);
	const json_t *res = json_object_get(json_object_get(run, "document"), "results");
	const json_t *v = json_object_get(res, "max_latency_ms");
	return json_is_number(v) ? json_number_value(v) : NAN;
}

static void lkp_test(FILE *f, const struct sf_test *t, const char *prefix)
{
	double sum = 0, inv = 0, maxlat = NAN;
	int hm = 1;
	for (size_t i = 0; i < t->n; i++) {
		sum += t->v[i];
		if (t->v[i] > 0)
			inv += 1 / t->v[i];
		else
			hm = 0;  /* a zero rate has no harmonic mean */
		double m = run_max_latency(t, i);
		if (isfinite(m) && !(m <= maxlat))
			maxlat = m;
	}
	fprintf(f, "%sthroughput_MB/s: %.10g\n", prefix, sum / (double)t->n);
	if (hm)
		fprintf(f, "%sthroughput_MB/s_harmonic_mean: %.10g\n", prefix, (double)t->n / inv);
	if (isfinite(maxlat))
		fprintf(f, "%smax_latency: %.10g\n", prefix, maxlat);
}

static int export_lkp(FILE *f, const struct suitefile *sf)
{
	size_t nload = 0;
	for (size_t i = 0; i < sf->nt; i++)
		nload += is_load(&sf->t[i]) && sf->t[i].n;
	for (size_t i = 0; i < sf->nt; i++) {
		const struct sf_test *t = &sf->t[i];
		char name[128], prefix[136] = "";
		if (!is_load(t) || !t->n)
			continue;
		if (nload > 1)
			snprintf(prefix, sizeof(prefix), "%s.", word(t->name, name, sizeof(name)));
		lkp_test(f, t, prefix);
	}
	return nload ? 0 : -1;
}

static void export_mmtests(FILE *f, const struct suitefile *sf)
{
	char label[128], name[128];
	word(json_string_value(json_object_get(sf->doc, "label")), label, sizeof(label));
	for (size_t i = 0; i < sf->nt; i++) {
		const struct sf_test *t = &sf->t[i];
		const json_t *jc = json_object_get(t->params, "clients");
		for (size_t r = 0; r < t->n; r++) {
			if (is_load(t) && json_is_integer(jc)) {
				long long c = (long long)json_integer_value(jc);
				double m = run_max_latency(t, r);
				fprintf(f, "throughput\t%lld\t%s\t%zu\t%.10g\t%s\n", c, t->unit, r + 1,
					t->v[r], label);
				if (isfinite(m))
					fprintf(f, "max_latency\t%lld\tms\t%zu\t%.10g\t%s\n", c, r + 1, m,
						label);
			} else {
				fprintf(f, "%s\t-\t%s\t%zu\t%.10g\t%s\n", word(t->name, name, sizeof(name)),
					t->unit, r + 1, t->v[r], label);
			}
		}
	}
}

int cmp_export_format(const char *w)
{
	if (!strcmp(w, "go"))
		return EXPORT_GO;
	if (!strcmp(w, "lkp"))
		return EXPORT_LKP;
	if (!strcmp(w, "mmtests"))
		return EXPORT_MMTESTS;
	return -1;
}

int cmp_export(FILE *f, const struct suitefile *sf, enum export_format fmt)
{
	if (fmt == EXPORT_LKP)
		return export_lkp(f, sf);
	export_mmtests(f, sf);
	return 0;
}
