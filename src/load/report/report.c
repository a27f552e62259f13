/* kbench - the load report: text table and JSON document
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Both forms are printed from the same merged run_result.  The text keeps
 * dbench 4's table and its last line to the character, so scripts that
 * parse dbench's "Throughput" line read kbench's unchanged.  A run cut
 * short (a signal, --strict, a client that died, was killed as stuck or
 * stopped early, an MPI rank that stopped the job) prints its partial
 * figure on a line of another form ("Interrupted after ...", "Stopped
 * early after ..."): a "Throughput" line is a whole run's.
 */
#include "config.h"
#include "load/report/report.h"
#include "load/report/dbench_form.h"
#include "load/backend/backend.h"
#include "load/record/latency.h"
#include "load/record/outcome.h"
#include "load/rules.h"
#include "load/record/ownmem.h"
#include "cli.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "result/caveat.h"
#include "result/result.h"
#include "stats/summary.h"

#define MAX_ERR_LINES 20

static double ms(uint64_t ns)
{
	return (double)ns / 1e6;
}


static void mib(FILE *f, const char *what, uint64_t bytes)
{
	if (bytes == MEMCG_UNKNOWN)
		fprintf(f, "%s unknown", what);
	else
		fprintf(f, "%s %.2f MiB", what, (double)bytes / 1048576.0);
}

void load_report_memory(FILE *f, const struct memcg_stats *m)
{
	mib(f, "Memory limit", m->limit_bytes);
	fprintf(f, " (2^20): ");
	mib(f, "peak", m->peak_bytes);
	if (m->peak_sampled)
		fprintf(f, " (sampled each second)");
	if (m->limit_hits == MEMCG_UNKNOWN)
		fprintf(f, ", limit hits unknown");
	else
		fprintf(f, ", limit hit %llu time%s", (unsigned long long)m->limit_hits,
			m->limit_hits == 1 ? "" : "s");
	if (m->oom_kills == MEMCG_UNKNOWN)
		fprintf(f, ", OOM kills unknown");
	else
		fprintf(f, ", %llu OOM kill%s", (unsigned long long)m->oom_kills,
			m->oom_kills == 1 ? "" : "s");
	mib(f, ", page cache", m->cache_bytes);
	fprintf(f, "%s\n", m->cache_bytes == MEMCG_UNKNOWN ? "" : " at end");
}

static const char *expect_word(uint8_t e)
{
	return e == EXPECT_FAIL ? "failure" : "success";
}

/* Client processes killed because they did not stop: the run failed. */
/* Whether the run did not go its whole course: a stop signal, --strict,
 * a rank that stopped an MPI job, a client that died, was killed as stuck
 * or stopped early.  Such a run's figure is partial: it never gets
 * dbench's Throughput line, which harnesses record as a result. */
static int cut_short(const struct run_result *res)
{
	return res->interrupted || res->strict_stop || res->died || res->stuck || res->nfatal ||
	       (res->nranks && res->stop_rank >= 0 && (unsigned)res->stop_rank < res->nranks);
}

static void stuck_line(FILE *f, const struct run_result *res, const char *tail)
{
	if (res->stuck == 1)
		fprintf(f, "\n%s did not stop and was killed%s\n", res->stuck_msg, tail);
	else if (res->stuck)
		fprintf(f, "\n%u client processes did not stop and were killed, %s first%s\n",
			res->stuck, res->stuck_msg, tail);
}

/* --mpi: each rank's MB/sec and their spread, and how well the clocks
 * agreed. */
static void ranks_text(FILE *f, const struct run_result *res)
{
	double *v = malloc(res->nranks * sizeof(*v));
	size_t n = 0;
	fprintf(f, "\n %-5s %-24s %7s %10s %12s %8s\n", "Rank", "Host", "Clients", "MB/sec",
		"Ops", "Errors");
	for (unsigned r = 0; r < res->nranks; r++) {
		const struct run_rank *x = &res->ranks[r];
		char mb[32];
		if (isfinite(x->mbps))
			snprintf(mb, sizeof(mb), "%.2f", x->mbps);
		else
			snprintf(mb, sizeof(mb), "-");
		fprintf(f, " %-5u %-24.24s %7u %10s %12llu %8llu\n", r, x->host, x->clients, mb,
			(unsigned long long)x->ops, (unsigned long long)x->errors);
		if (v && isfinite(x->mbps))
			v[n++] = x->mbps;
	}
	struct summary s;
	if (v && n == res->nranks && summary_of(v, n, &s) == 0)
		fprintf(f, " ranks' MB/sec: min %.2f  median %.2f  max %.2f (MB = 10^6 bytes)\n",
			s.min, s.median, s.max);
	fprintf(f, " clocks: every rank's offset to rank 0 known within %.1f us "
		"(half the shortest of 8 round trips at the start)\n", res->clock_bound_ms * 1e3);
	free(v);
}

/* The lines of the ops that did not end as their line expects (the first
 * MAX_ERR_LINES, then how many more) and of those the backend's protocol
 * cannot express; nothing when there are none. */
static void errors_text(FILE *f, const struct run_config *cfg, const struct load_params *lp,
			const struct run_result *res)
{
	if (res->errors) {
		if (res->unchecked)
			fprintf(f, "\n%llu operations did not end as the trace recorded (its tool "
				"never checked a reply; replayed on as it did, not failures):\n",
				(unsigned long long)res->errors);
		else
			fprintf(f, "\n%llu operations did not end as the loadfile expects:\n",
				(unsigned long long)res->errors);
		size_t shown = res->nerrs < MAX_ERR_LINES ? res->nerrs : MAX_ERR_LINES;
		for (size_t i = 0; i < shown; i++) {
			const struct run_error *e = &res->errs[i];
			fprintf(f, "  %s:%u: %s expected %s, %s%s%s (%llu times)\n", lp->loadfile,
				e->line, op_file_name(e->code), expect_word(e->expect),
				e->err ? "failed: " : "succeeded", e->err ? backend_strerror(e->err) : "",
				"", (unsigned long long)e->count);
		}
		uint64_t rest = res->errors_unlisted;
		for (size_t i = shown; i < res->nerrs; i++)
			rest += res->errs[i].count;
		if (rest)
			fprintf(f, "  ... and %llu more\n", (unsigned long long)rest);
	}

	int said = 0;
	for (unsigned i = 0; i < OP_COUNT; i++) {
		if (!res->unsupported[i])
			continue;
		if (!said++)
			fprintf(f, "\nnot carried out (-B %s's protocol cannot express them; "
				"in no figure above):\n", cfg->backend->name);
		fprintf(f, "  %s %llu times\n", op_file_name(i),
			(unsigned long long)res->unsupported[i]);
	}
}

void load_report_text(FILE *f, const struct run_config *cfg, const struct load_params *lp,
		      const struct run_result *res, const json_t *caveats)
{
	char sig[CLI_SIGNAME_LEN];
	if (cfg->form) {  /* dbench's table and line (load/report/dbench_form.c) */
		dbform_report(f, cfg, lp, res);
		return;
	}
	if (!res->ops && !res->errors) {
		/* nothing was measured: no table of zeros */
		if (res->mem_limited) {
			fprintf(f, "\n");
			load_report_memory(f, &res->mem);
			ownmem_text(f, cfg, res);
		}
		if (res->interrupted)
			fprintf(f, "\ninterrupted by %s before anything was measured\n",
				cli_signal_name(res->interrupted, sig));
		if (res->died)
			fprintf(f, "\nstopped because %s\n", res->died_msg);
		stuck_line(f, res, "");
		/* no figure for a caveat to qualify: the lines above say why */
		return;
	}
	fprintf(f, "\n %-12s %10s %10s %10s %10s %10s\n", "Operation", "Count", "AvgLat",
		"P50", "P99", "MaxLat");
	fprintf(f, " %.67s\n", "-------------------------------------------------------------------");
	for (unsigned i = 0; i < OP_COUNT; i++) {
		const struct hist *h = &res->hist[i];
		if (!cfg->prog->count[i])
			continue;
		fprintf(f, " %-12s %10llu %10.3f %10.3f %10.3f %10.3f\n", op_report_name(i),
			(unsigned long long)h->count, hist_mean(h) / 1e6,
			ms(hist_percentile(h, 50)), ms(hist_percentile(h, 99)), ms(h->max_ns));
	}
	fprintf(f, " (latencies in ms, over the %.2f s measured; MB = 10^6 bytes)\n",
		res->measured_s);

	lat_report_schedule(f, cfg, res);

	if (lp->per_client_results && res->measured_s > 0) {
		fprintf(f, "\n");
		for (unsigned c = 0; c < cfg->nclients; c++)
			fprintf(f, " client %-5u %10.2f MB/sec\n", c,
				(double)res->client_bytes[c] / 1e6 / res->measured_s);
	}

	if (res->nranks)
		ranks_text(f, res);

	errors_text(f, cfg, lp, res);

	if (res->mem_limited) {
		fprintf(f, "\n");
		load_report_memory(f, &res->mem);
		ownmem_text(f, cfg, res);
	}
	if (res->interrupted)
		fprintf(f, "\ninterrupted by %s: partial results over %.2f s measured\n",
			cli_signal_name(res->interrupted, sig), res->measured_s);
	if (res->strict_stop)
		fprintf(f, "\nstopped at the first error (--strict): partial results\n");
	if (res->nranks && res->stop_rank >= 0 && (unsigned)res->stop_rank < res->nranks)
		fprintf(f, "\nrank %d (%s) stopped the job early: partial results\n", res->stop_rank,
			res->ranks[res->stop_rank].host);
	if (res->died)
		fprintf(f, "\nstopped because %s: %s\n", res->died_msg,
			res->oom_killed ? "no throughput figure (its work was cut short)" :
			"partial results");
	stuck_line(f, res, ": partial results");
	if (res->nfatal)
		fprintf(f, "\n%u client%s stopped early (client %u: %s): partial results\n",
			res->nfatal, res->nfatal == 1 ? "" : "s", res->fatal_client,
			backend_strerror(res->fatal_err));
	/* every doubt about the figure, as the document lists it */
	caveat_print(f, caveats);

	if (!isfinite(res->mbps))
		return;
	char why[256];
	const char *failed = run_failure(res, why, sizeof(why));
	if (failed && cut_short(res))
		/* not dbench's line: the harnesses that read dbench take every
		 * line that starts with "Throughput" as a result */
		fprintf(f, "\n%s after %.2f s measured: %g MB/sec (partial, not a result)",
			res->interrupted ? "Interrupted" : "Stopped early", res->measured_s,
			res->mbps);
	else if (failed)
		/* a whole run that failed (its ops did not end as expected) */
		fprintf(f, "\nFailed after %.2f s measured: %g MB/sec (not a result: %s)",
			res->measured_s, res->mbps, why);
	else
		/* dbench's line, to the character, sync notes included */
		fprintf(f, "\nThroughput %g MB/sec", res->mbps);
	dbform_line_tail(f, cfg, res);
}

static json_t *num_or_null(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static json_t *bytes_or_null(uint64_t v)
{
	return v == MEMCG_UNKNOWN ? json_null() : json_integer((json_int_t)v);
}

/* results.memory: what the clients' cgroup did, null without --mem-limit */
static json_t *memory_json(const struct run_result *res)
{
	const struct memcg_stats *m = &res->mem;
	if (!res->mem_limited)
		return json_null();
	return json_pack("{s:o, s:o, s:b, s:o, s:o, s:o, s:i}",
		"limit_bytes", bytes_or_null(m->limit_bytes),
		"peak_bytes", bytes_or_null(m->peak_bytes),
		"peak_sampled", m->peak_sampled,
		"limit_hits", bytes_or_null(m->limit_hits),
		"oom_kills", bytes_or_null(m->oom_kills),
		"cache_bytes", bytes_or_null(m->cache_bytes),
		"cgroup_version", (int)m->version);
}

/* results.per_rank: one object a rank */
static json_t *ranks_json(const struct run_result *res)
{
	json_t *a = json_array();
	for (unsigned r = 0; a && r < res->nranks; r++) {
		const struct run_rank *x = &res->ranks[r];
		json_array_append_new(a, json_pack("{s:i, s:s, s:i, s:i, s:o, s:f, s:I, s:I, s:I, s:I, s:b, s:s}",
			"rank", (int)r, "host", x->host, "clients", (int)x->clients,
			"procs", (int)x->nprocs, "MBps", num_or_null(x->mbps),
			"measured_s", x->measured_s, "ops", (json_int_t)x->ops,
			"bytes", (json_int_t)x->bytes, "errors", (json_int_t)x->errors,
			"passes", (json_int_t)x->passes, "died", x->died || x->nfatal, "why", x->why));
	}
	return a ? a : json_null();
}

/* The document's "params": the run's options as it used them; NULL when
 * out of memory. */
static json_t *params_json(const struct run_config *cfg, const struct load_params *lp,
			   const struct run_result *res)
{
	json_t *params = json_pack("{s:i, s:i, s:f, s:f, s:s, s:s?, s:b, s:b, s:b, s:b, s:f, s:b, s:b, s:s, s:s?}",
				   "clients", (int)(res->nranks ? cfg->clients_total : cfg->nclients),
				   "procs", (int)res->nprocs,
				   "timelimit_s", cfg->timelimit_s,
				   "warmup_s", cfg->warmup_s,
				   "loadfile", lp->loadfile,
				   "directory", lp->directory,
				   "sync_open", cfg->bopts.sync_open,
				   "sync_dirs", cfg->bopts.sync_dirs,
				   "fsync_write", cfg->bopts.fsync_write,
				   "xattr", cfg->bopts.xattr,
				   "target_rate_MBps", cfg->target_rate,
				   "run_once", cfg->run_once,
				   "strict", cfg->strict,
				   "backend", cfg->backend->name,
				   "server", cfg->backend->describe ?
				   cfg->backend->describe(&cfg->bopts) : NULL);
	if (params) {
		json_object_set_new(params, "mem_limit_bytes", lp->mem_limit ?
				    json_integer((json_int_t)lp->mem_limit) : json_null());
		json_object_set_new(params, "drop_caches", json_boolean(lp->drop_caches));
	}
	return params;
}

json_t *load_report_json(const struct run_config *cfg, const struct load_params *lp,
			 const struct run_result *res, const struct kb_sysinfo *si)
{
	json_t *doc = result_new("load");
	if (!doc)
		return NULL;
	json_t *params = params_json(cfg, lp, res);
	json_t *ops = json_array();
	for (unsigned i = 0; ops && i < OP_COUNT; i++) {
		const struct hist *h = &res->hist[i];
		if (!cfg->prog->count[i])
			continue;
		json_array_append_new(ops, json_pack("{s:s, s:I, s:f, s:f, s:f, s:f}",
			"name", op_report_name(i), "count", (json_int_t)h->count,
			"avg_ms", hist_mean(h) / 1e6, "p50_ms", ms(hist_percentile(h, 50)),
			"p99_ms", ms(hist_percentile(h, 99)), "max_ms", ms(h->max_ns)));
	}
	json_t *errs = json_array();
	for (size_t i = 0; errs && i < res->nerrs; i++) {
		const struct run_error *e = &res->errs[i];
		json_array_append_new(errs, json_pack("{s:i, s:s, s:s, s:s, s:I}",
			LOAD_JSON_ERR_LINE, (int)e->line, LOAD_JSON_ERR_OP, op_file_name(e->code),
			LOAD_JSON_ERR_EXPECTED, expect_word(e->expect),
			LOAD_JSON_ERR_GOT, e->err ? backend_strerror(e->err) : "success",
			"count", (json_int_t)e->count));
	}
	json_t *results = json_pack("{s:o, s:o, s:I, s:f, s:I, s:I, s:I, s:o, s:o, s:b, s:b, s:i}",
		LOAD_JSON_THROUGHPUT, num_or_null(res->mbps),
		"max_latency_ms", isfinite(res->mbps) ? json_real(ms(res->max_latency_ns)) : json_null(),
		LOAD_JSON_ERRORS, (json_int_t)(res->unchecked ? 0 : res->errors),
		"measured_s", res->measured_s,
		"ops_total", (json_int_t)res->ops,
		"bytes", (json_int_t)res->bytes,
		"passes", (json_int_t)res->passes,
		"ops", ops ? ops : json_array(),
		LOAD_JSON_ERROR_LINES, errs ? errs : json_array(),
		"died", res->died || res->nfatal,
		"strict_stop", res->strict_stop,
		"interrupted_signal", res->interrupted);
	if (results) {
		json_object_set_new(results, "memory", memory_json(res));
		json_object_set_new(results, "own_memory", ownmem_json(cfg, res));
		json_object_set_new(results, LOAD_JSON_OOM_KILLED, json_boolean(res->oom_killed));
		json_object_set_new(results, "stuck_killed", json_integer(res->stuck));
		json_object_set_new(results, LOAD_JSON_STATUSES_CHECKED,
				    json_boolean(!res->unchecked));
		json_object_set_new(results, LOAD_JSON_MISMATCHES,
				    json_integer((json_int_t)(res->unchecked ? res->errors : 0)));
		json_object_set_new(results, "steal_pct", num_or_null(res->steal_pct));
		json_object_set_new(results, "other_cpu_pct", num_or_null(res->other_cpu_pct));
		char why[256];
		const char *failed = run_failure(res, why, sizeof(why));
		json_object_set_new(results, LOAD_JSON_FAILURE, failed ? json_string(failed) :
				    json_null());
	}
	json_t *unsup = results ? json_object() : NULL;
	for (unsigned i = 0; unsup && i < OP_COUNT; i++)
		if (res->unsupported[i])
			json_object_set_new(unsup, op_file_name(i),
					    json_integer((json_int_t)res->unsupported[i]));
	if (unsup)
		json_object_set_new(results, "unsupported", unsup);
	if (results && cfg->prog->timed)
		json_object_set_new(results, "schedule", json_pack("{s:I, s:f, s:f}",
			"late_ops", (json_int_t)res->late_ops,
			"late_avg_ms", res->late_ops ? ms(res->late_sum_ns) / (double)res->late_ops : 0.0,
			"late_max_ms", ms(res->late_max_ns)));
	if (results && lp->per_client_results) {
		json_t *pc = json_array();
		for (unsigned c = 0; pc && c < cfg->nclients; c++)
			json_array_append_new(pc, num_or_null(res->measured_s > 0 ?
				(double)res->client_bytes[c] / 1e6 / res->measured_s : NAN));
		json_object_set_new(results, "per_client_MBps", pc);
	}
	if (results && res->nranks) {
		json_object_set_new(results, "per_rank", ranks_json(res));
		json_object_set_new(results, "stop_rank", res->stop_rank >= 0 ?
				    json_integer(res->stop_rank) : json_null());
	}
	if (res->nranks) {
		json_object_set_new(doc, "ranks", json_integer(res->nranks));
		if (params) {
			json_object_set_new(params, "stonewall", json_boolean(cfg->stonewall));
			json_object_set_new(params, "clock_offset_bound_ms",
					    json_real(res->clock_bound_ms));
		}
	}
	json_object_set_new(doc, "units", json_pack("{s:s, s:s}", "MB", "10^6 bytes",
						    "latency", "ms"));
	if (cfg->form)  /* how the dbench lines were measured */
		json_object_set_new(doc, "output_form", dbform_json((enum load_form)cfg->form));
	json_object_set_new(doc, "params", params);
	json_object_set_new(doc, "system", sysinfo_json(si));
	json_object_set_new(doc, "results", results);
	if (!params || !results || lat_report_json(results, params, cfg, res) < 0) {
		json_decref(doc);
		return NULL;
	}
	return doc;
}
