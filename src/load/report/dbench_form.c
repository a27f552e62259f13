/* kbench - dbench 4's output forms for kbench load (the dbench and tbench personalities)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Harnesses read these lines by field position, so the forms are kept to
 * the character (Debian's dbench 4.0, checked by running it):
 *   "%4d  %8d  %7.2f MB/sec  execute %3d sec  latency %.3f ms" a second
 *   (field 3 the running average since warm-up, field 6 the second of
 *   the measured phase), "warmup" in its place before, "%4d  cleanup %3d
 *   sec" after; the table " Operation      Count    AvgLat    MaxLat";
 *   "Throughput %g MB/sec  %d clients  %d procs  max_latency=%.3f ms".
 * mmtests' dbench adds "%4d completed in %u ms at time %u ms" a pass per
 * client (--show-execute-time) and @-separated records
 * (--machine-readable), and names the ops of its table as the loadfile
 * does (FIND_FIRST, QUERY_PATH_INFORMATION, ...) in a 22-wide column,
 * which mmtests keeps as its op-NAME latency metrics.  Neither prints an
 * execute line for the second in which the time limit falls.  Where kbench measures otherwise the lines keep
 * the form and dbform_json() says how.  The personalities that ask for
 * these forms live in src/compat/.
 */
#include "config.h"
#include "cli.h"
#include "load/report/dbench_form.h"
#include "load/backend/backend.h"
#include "load/record/record.h"
#include "load/record/outcome.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

void dbform_progress(FILE *f, enum load_form form, int phase, unsigned clients,
			    uint64_t lines, double mbps, uint64_t sec, double lat_ms)
{
	static const char *words[] = { "warmup", "execute" };
	static const char *tags[] = { "@W@", "@R@" };
	if (!isfinite(mbps))
		mbps = 0;
	if (form == LOAD_FORM_DBENCH_MACHINE) {
		/* mmtests' dbench: five fields and a closing @, cleanup too */
		fprintf(f, "%s%u@%llu@%.2f@%llu@%.3f@\n", phase == 2 ? "@C@" : tags[phase],
			clients, (unsigned long long)lines, mbps, (unsigned long long)sec, lat_ms);
	} else if (phase == 2) {
		fprintf(f, "%4u  cleanup %3llu sec\n", clients, (unsigned long long)sec);
	} else {
		fprintf(f, "%4u  %8llu  %7.2f MB/sec  %s %3llu sec  latency %.3f ms\n", clients,
			(unsigned long long)lines, mbps, words[phase], (unsigned long long)sec,
			lat_ms);
	}
	fflush(f);
}

void dbform_pass_line(int fd, enum load_form form, unsigned client, uint64_t pass_ns,
			     uint64_t at_ns)
{
	char line[96];
	unsigned long long pass_ms = pass_ns / 1000000ull, at_ms = at_ns / 1000000ull;
	int n;
	if (form == LOAD_FORM_DBENCH_MACHINE)
		n = snprintf(line, sizeof(line), "@E@%u@%llu\n", client, pass_ms);
	else
		n = snprintf(line, sizeof(line), "%4u completed in %llu ms at time %llu ms\n",
			     client, pass_ms, at_ms);
	if (n > 0 && (size_t)n < sizeof(line) && write(fd, line, (size_t)n) < 0) {
		/* a closed output only loses the line */
	}
}

void dbform_banner(FILE *f, double timelimit_s, double warmup_s, const char *loadfile)
{
	fprintf(f, "kbench %s with dbench 4.00's command line and output\n\n", PACKAGE_VERSION);
	fprintf(f, "Running for %.0f seconds with load '%s' and minimum warmup %.0f secs\n",
		timelimit_s, loadfile, warmup_s);
	fflush(f);
}

/* The first errors, as kbench load names them (file:line, op, outcome). */
static void error_lines(FILE *f, const struct load_params *lp, const struct run_result *res)
{
	for (size_t i = 0; i < res->nerrs && i < 5; i++) {
		const struct run_error *e = &res->errs[i];
		fprintf(f, "  %s:%u: %s expected %s, %s%s (%llu times)\n", lp->loadfile, e->line,
			op_file_name(e->code), e->expect == EXPECT_FAIL ? "failure" : "success",
			e->err ? "failed: " : "succeeded", e->err ? backend_strerror(e->err) : "",
			(unsigned long long)e->count);
	}
}

/* The table of the measured window's ops: dbench 4.00's short names, or
 * mmtests' dbench's long ones (the loadfile's) in its wider column. */
static void op_table(FILE *f, const struct run_config *cfg, const struct run_result *res)
{
	int mm = cfg->form != LOAD_FORM_DBENCH;
	fprintf(f, mm ? "\n Operation                Count    AvgLat    MaxLat\n"
		" --------------------------------------------------\n" :
		"\n Operation      Count    AvgLat    MaxLat\n"
		" ----------------------------------------\n");
	for (unsigned i = 0; i < OP_COUNT; i++) {
		const struct hist *h = &res->hist[i];
		if (!cfg->prog->count[i])
			continue;
		fprintf(f, cfg->form == LOAD_FORM_DBENCH_MACHINE ? ":%s:%llu:%.3f:%.3f:\n" :
			mm ? " %-22s %7llu %9.3f %9.3f\n" : " %-12s %7llu %9.3f %9.3f\n",
			mm ? op_file_name(i) : op_report_name(i), (unsigned long long)h->count,
			hist_mean(h) / 1e6, (double)h->max_ns / 1e6);
	}
	fprintf(f, "\n");
}

void dbform_report(FILE *f, const struct run_config *cfg, const struct load_params *lp,
			  const struct run_result *res)
{
	char why[256];
	if (run_failure(res, why, sizeof(why))) {
		/* nothing a harness would take for a figure or a table row */
		fprintf(f, "kbench: no throughput figure: %s\n", why);
		if (res->errors)
			error_lines(f, lp, res);
		return;
	}
	op_table(f, cfg, res);
	if (lp->per_client_results)
		for (unsigned c = 0; c < cfg->nclients; c++)
			fprintf(f, "Client %u did %.0f bytes: %.2f MB/sec\n", c,
				(double)res->client_bytes[c],
				(double)res->client_bytes[c] / 1e6 / res->measured_s);
	if (cfg->form == LOAD_FORM_DBENCH_MACHINE) {  /* mmtests' dbench's last record */
		fprintf(f, ";%g;%u;%u;%.3f;\n", res->mbps,
			res->nranks ? cfg->clients_total : cfg->nclients, res->nprocs,
			(double)res->max_latency_ns / 1e6);
		return;
	}
	fprintf(f, "Throughput %g MB/sec", res->mbps);
	dbform_line_tail(f, cfg, res);
}

void dbform_line_tail(FILE *f, const struct run_config *cfg, const struct run_result *res)
{
	fprintf(f, "%s%s  %u clients  %u procs  max_latency=%.3f ms\n",
		cfg->bopts.sync_open ? " (sync open)" : "", cfg->bopts.sync_dirs ? " (sync dirs)" : "",
		res->nranks ? cfg->clients_total : cfg->nclients, res->nprocs,
		(double)res->max_latency_ns / 1e6);
}

json_t *dbform_json(enum load_form form)
{
	return json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:s}",
		"form", form == LOAD_FORM_DBENCH_MACHINE ? "dbench-machine" :
		form == LOAD_FORM_DBENCH_MMTESTS ? "dbench-mmtests" : "dbench",
		"progress_field2", "operations completed per client since the start "
		"(dbench: loadfile lines per client)",
		"progress_field3", "MB/sec (10^6 bytes) since warm-up ended over CLOCK_MONOTONIC, "
		"ops attributed by completion time (in warm-up: since the start)",
		"progress_latency", "the largest latency of the ops completed in that second "
		"(dbench also counts an op still in flight)",
		"table", "AvgLat and MaxLat: the exact mean and largest latency of each op "
		"completed in the measured window, ms",
		"throughput", "bytes of ReadX and WriteX completed in the measured window / its "
		"length; printed only for a run without errors, signals or lost clients",
		"pass_line", "completed in: the pass's length, at time: since the clients were "
		"released, ms");
}

int load_form_parse(const char *word, enum load_form *form)
{
	if (!strcmp(word, "kbench"))
		*form = LOAD_FORM_KBENCH;
	else if (!strcmp(word, "dbench"))
		*form = LOAD_FORM_DBENCH;
	else if (!strcmp(word, "dbench-machine"))
		*form = LOAD_FORM_DBENCH_MACHINE;
	else if (!strcmp(word, "dbench-mmtests"))
		*form = LOAD_FORM_DBENCH_MMTESTS;
	else
		return -1;
	return 0;
}
