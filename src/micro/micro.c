/* kbench - the micro command: lmbench and BYTE UNIX microtests
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * usage: kbench micro [--list] [--family lmbench|byte|all] [--label TEXT] [--enough SEC]
 *                     [--duration SEC] [--quick] [--copies N] [--cpus LIST]
 *                     [--baseline byte4|unixbench5] [--json FILE] [TEST...]
 *
 * Runs the chosen tests of the two families (test.h) one after another
 * in a private temporary directory (tmpdir.c: mkdtemp under $TMPDIR or
 * /tmp, removed on a stop signal too) and
 * prints lmbench's summary tables, one line per lmbench test with its
 * spread, and BYTE's index report.
 *
 * Invariants: the command line and the --json destination are checked
 * before any test runs (exit 2).  A test that cannot run here is skipped
 * with its reason; a failed test prints no figure and makes the exit
 * status 1, the others still run.  On a stop signal (cli.h: SIGINT,
 * SIGTERM, SIGHUP, SIGUSR1, SIGALRM, ...; not one ignored at the start,
 * as SIGHUP under nohup) every child is killed and reaped, the temporary
 * directory removed, and kbench exits 128 + the signal without printing
 * any figure.  The lat_sig tests catch SIGUSR1 themselves while they run:
 * one sent from outside then is counted by the test (which fails), not
 * taken as a stop.
 */
#include "config.h"
#include "commands.h"
#include "cli.h"
#include "micro/byte/byte.h"
#include "micro/byte/byteindex.h"
#include "micro/byte/bytereport.h"
#include "micro/byte/dhry.h"
#include "micro/harness.h"
#include "micro/lmbench/lmbench.h"
#include "micro/lmbench/lmreport.h"
#include "micro/place.h"
#include "micro/select.h"
#include "micro/test.h"
#include "micro/tmpdir.h"
#include "result/caveat.h"
#include "result/result.h"
#include "sys/clock.h"
#include "sys/cpubusy.h"
#include "sys/steal.h"
#include "result/sysinfo.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <popt.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_COPIES 1024
_Static_assert(MAX_COPIES < MICRO_MAX_CHILDREN, "every copy must be noted as a child");

/* ---- the command's state ---- */

/* The command line, what it means, and what the tests gave. */
struct micro_cmd {
	const char *cmd;
	/* the options as given: popt's copies, freed by micro_cmd_free() */
	int list, quick;
	char *family, *label, *enough_arg, *duration_arg, *copies_arg, *baseline, *json, *cpus_arg;
	/* what they mean */
	int fam;                        /* enum micro_family, or MICRO_FAMILY_ALL */
	struct micro_opts o;
	const char *base;               /* the BYTE index baseline */
	struct place_set *cpus;         /* the CPUs placements are chosen from */
	cpu_set_t affinity;             /* kbench's own, restored after a placed test */
	struct byte_header *header;     /* BYTE 4.1's report header, taken at the start */
	char json_dest[PATH_MAX];       /* --json's checked destination */
	FILE *out;                      /* the text: stdout, or stderr with --json - */
	/* the tests chosen, in order, and their results */
	const struct micro_test **sel;
	struct micro_result *res;
	int *failed;                    /* res[i].skipped is a failure's reason */
	size_t n;
};

static void micro_cmd_free(struct micro_cmd *m)
{
	free(m->sel);
	free(m->res);
	free(m->failed);
	free(m->family);
	free(m->label);
	free(m->enough_arg);
	free(m->duration_arg);
	free(m->copies_arg);
	free(m->baseline);
	free(m->json);
	free(m->cpus_arg);
	free(m->cpus);
	free(m->header);
}

/* ---- JSON ---- */

static json_t *num_or_null(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static json_t *test_json(const struct micro_test *t, const struct micro_result *r, int failed)
{
	json_t *o = json_pack("{s:s, s:s, s:s}", "name", t->name, "family", micro_family_name(t->family),
			      "title", t->title);
	if (!o)
		return NULL;
	if (t->place != MICRO_PLACE_NONE)
		json_object_set_new(o, "placement", json_string(place_key(t->place)));
	if (r->place_ncpu) {
		json_t *c = json_array();
		for (unsigned k = 0; k < r->place_ncpu; k++)
			json_array_append_new(c, json_integer(r->place_cpu[k]));
		json_object_set_new(o, "cpus", c);
	}
	if (failed) {
		json_object_set_new(o, "error", json_string(r->skipped));
		return o;
	}
	/* a skipped test still has its unit and direction: a results file's
	 * row of it reads as the test it is */
	json_object_set_new(o, "unit", json_string(t->unit));
	json_object_set_new(o, "higher_is_better", json_boolean(t->higher_is_better));
	if (r->skipped[0]) {
		json_object_set_new(o, "skipped", json_string(r->skipped));
		return o;
	}
	json_object_set_new(o, "value", num_or_null(r->value));
	json_object_set_new(o, "min", num_or_null(r->min));
	json_object_set_new(o, "max", num_or_null(r->max));
	json_object_set_new(o, "cov_pct", num_or_null(r->cov_pct));
	json_object_set_new(o, "samples", json_integer(r->samples));
	json_object_set_new(o, "steal_pct", num_or_null(r->steal_pct));
	json_object_set_new(o, "other_cpu_pct", num_or_null(r->other_cpu_pct));
	json_object_set_new(o, "run_s", num_or_null(r->run_s));
	if (r->sample_s > 0)
		json_object_set_new(o, "sample_s", json_real(r->sample_s));
	return o;
}

/* The run's document with its caveats (caveat_attach), made with or
 * without --json: the text's warnings are printed from its list.  NULL
 * when out of memory. */
static json_t *run_document(const struct micro_cmd *m)
{
	const struct micro_opts *o = &m->o;
	struct kb_sysinfo si;
	sysinfo_collect(&si, o->tmpdir);
	json_t *doc = result_new("micro");
	json_t *names = json_array(), *tests = json_array();
	if (!doc || !names || !tests)
		goto fail;
	for (size_t i = 0; i < m->n; i++) {
		json_array_append_new(names, json_string(m->sel[i]->name));
		json_array_append_new(tests, test_json(m->sel[i], &m->res[i], m->failed[i]));
	}
	json_object_set_new(doc, "label", json_string(m->label ? m->label : si.kernel));
	json_object_set_new(doc, "units", json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:s}", "us",
			    "microseconds per operation", "ns", "nanoseconds per load",
			    "MB/s", "MB (10^6 bytes) per second", "KBps", "KB (1024 bytes) per second",
			    "lps", "loops per second", "lpm", "loops per minute",
			    "MWIPS", "millions of Whetstone instructions per second"));
	json_object_set_new(doc, "params", json_pack("{s:s, s:f, s:f, s:i, s:f, s:b, s:i, s:s, s:o}",
			    "family", m->family ? m->family : "all", "enough_s", o->enough_s,
			    "enough_placed_s", harness_placed_enough_s(o->enough_s),
			    "intervals", (int)o->intervals, "duration_s", o->duration_s,
			    "quick", o->quick, "copies", (int)o->copies, "baseline", m->base,
			    "tests", names));
	names = NULL;
	json_t *cpus = json_array();
	for (unsigned k = 0; m->cpus && k < m->cpus->n; k++)
		json_array_append_new(cpus, json_integer(m->cpus->c[k].cpu));
	json_object_set_new(json_object_get(doc, "params"), "cpus", cpus);
	json_object_set_new(doc, "system", sysinfo_json(&si));
	if (si.cpu_mhz > 0)    /* lmbench's Mhz column, in compare's tables too */
		json_object_set_new(json_object_get(doc, "system"), "mhz",
				    json_integer(si.cpu_mhz));
	/* the CPU tests measure the compiler as much as the CPU */
	json_object_set_new(doc, "build", json_pack("{s:s, s:s, s:s, s:[s,s]}",
			    "cc", dhry_build_cc(), "cc_version", dhry_build_cc_version(),
			    "cflags", dhry_build_cflags(), "tests", "byte_dhry2", "byte_whet"));
	json_t *results = json_pack("{s:o}", "tests", tests);
	tests = NULL;
	json_t *index = byte_index_json(m->sel, m->res, m->n, m->base);
	if (results && index)
		json_object_set_new(results, "index", index);
	else
		json_decref(index);
	json_object_set_new(doc, "results", results);
	if (caveat_attach(doc))
		return doc;
fail:
	json_decref(names);
	json_decref(tests);
	json_decref(doc);
	return NULL;
}

/* ---- the command: options, checks, run, report ---- */

/* --family: m->fam from its word.  Returns KB_EXIT_OK or KB_EXIT_USAGE. */
static int check_family(struct micro_cmd *m)
{
	if (!m->family)
		return KB_EXIT_OK;
	m->fam = micro_family_word(m->family);
	if (m->fam == MICRO_FAMILY_NONE)
		return cli_usage_error(m->cmd, "--family must be lmbench, byte or all, not '%s'",
				       m->family);
	return KB_EXIT_OK;
}

/* --list: the table of the family's tests (or of all) on standard output,
 * and nothing else.  Returns KB_EXIT_OK, KB_EXIT_USAGE for a test name
 * given with it, KB_EXIT_FAIL when the list could not be written. */
static int list_only(const struct micro_cmd *m, const char **args)
{
	if (args && args[0])
		return cli_usage_error(m->cmd, "--list takes no test name ('%s')", args[0]);
	micro_list_tests(stdout, m->fam);
	if (fflush(stdout) == EOF || ferror(stdout)) {
		fprintf(stderr, "%s: cannot write the list to standard output: %s\n", m->cmd,
			strerror(errno));
		return KB_EXIT_FAIL;
	}
	return KB_EXIT_OK;
}

/* --cpus (or the affinity mask) into m->cpus.  Returns KB_EXIT_OK, or
 * KB_EXIT_USAGE after one line (a malformed list, a CPU kbench may not
 * use), KB_EXIT_FAIL when out of memory or the mask cannot be read. */
static int check_cpus(struct micro_cmd *m)
{
	static int list[PLACE_MAX_CPUS];
	char why[160] = "";
	int n = 0;
	if (m->cpus_arg && (n = place_parse_list(m->cpus_arg, list, PLACE_MAX_CPUS)) < 1)
		return cli_usage_error(m->cmd, "--cpus must be a list of CPU numbers such as 0,2 or "
				       "0-3, each once, not '%s'", m->cpus_arg);
	if (!(m->cpus = malloc(sizeof(*m->cpus)))) {
		fprintf(stderr, "%s: out of memory\n", m->cmd);
		return KB_EXIT_FAIL;
	}
	if (sched_getaffinity(0, sizeof(m->affinity), &m->affinity) < 0 ||
	    place_set_load(m->cpus, m->cpus_arg ? list : NULL, (unsigned)n, why, sizeof(why)) < 0) {
		if (!why[0])
			snprintf(why, sizeof(why), "cannot read the CPU affinity: %s", strerror(errno));
		if (!m->cpus_arg) {
			fprintf(stderr, "%s: %s\n", m->cmd, why);
			return KB_EXIT_FAIL;
		}
		return cli_usage_error(m->cmd, "--cpus %s: %s", m->cpus_arg, why);
	}
	return KB_EXIT_OK;
}

/* --quick, --enough, --duration, --copies, --baseline and --cpus into
 * m->o, m->base and m->cpus.  Returns KB_EXIT_OK, or KB_EXIT_USAGE after one line. */
static int check_values(struct micro_cmd *m)
{
	struct micro_opts *o = &m->o;
	o->quick = m->quick;
	if (m->quick) {
		o->enough_s = 0.001;
		o->intervals = 5;
	}
	if (m->enough_arg && (cli_parse_duration(m->enough_arg, &o->enough_s) < 0 ||
			      !(o->enough_s >= 0.0001 && o->enough_s <= 10)))
		return cli_usage_error(m->cmd, "--enough must be a time from 0.1ms to 10s, not '%s'",
				       m->enough_arg);
	if (m->duration_arg && m->quick)
		return cli_usage_error(m->cmd, "--duration cannot be used with --quick, whose BYTE "
				       "samples all last 0.2 s");
	if (m->duration_arg && (cli_parse_duration(m->duration_arg, &o->duration_s) < 0 ||
				!(o->duration_s >= 0.01 && o->duration_s <= 3600)))
		return cli_usage_error(m->cmd, "--duration must be a time from 10ms to 1h, not '%s'",
				       m->duration_arg);
	if (m->copies_arg) {
		uint64_t v;
		if (cli_parse_uint(m->copies_arg, 1, MAX_COPIES, &v) < 0)
			return cli_usage_error(m->cmd, "--copies must be a whole number from 1 to %d, "
					       "not '%s'", MAX_COPIES, m->copies_arg);
		o->copies = (unsigned)v;
	}
	if (m->baseline && byte_baseline_valid(m->baseline) < 0)
		return cli_usage_error(m->cmd, "--baseline must be byte4 or unixbench5, not '%s'",
				       m->baseline);
	m->base = m->baseline ? m->baseline : BYTE_BASELINE_DEFAULT;
	return check_cpus(m);
}

/* Back to kbench's own CPUs after a placed test. */
static void unplace(const struct micro_cmd *m)
{
	sched_setaffinity(0, sizeof(m->affinity), &m->affinity);
}

/* Where the output goes (--json's destination checked before anything
 * runs) and room for the results.  Returns KB_EXIT_OK, KB_EXIT_USAGE for
 * a bad destination (one line), KB_EXIT_FAIL when out of memory. */
static int prepare_output(struct micro_cmd *m)
{
	int status;
	if (result_json_stdout(m->json))
		m->out = stderr;
	if (m->json && (status = result_destination(m->cmd, "--json", m->json, NULL, 0, NULL,
						    m->json_dest, sizeof(m->json_dest))))
		return status;
	m->res = calloc(m->n ? m->n : 1, sizeof(*m->res));
	m->failed = calloc(m->n ? m->n : 1, sizeof(*m->failed));
	if (!m->res || !m->failed) {
		fprintf(stderr, "%s: out of memory\n", m->cmd);
		return KB_EXIT_FAIL;
	}
	return KB_EXIT_OK;
}

/* The placement of t (place.h) into o and r, kbench pinned to its first
 * CPU (after checking it may run on the second).  Returns 1 to run t (also
 * when t is not placed), 0 when the placement is skipped, its reason in
 * r->skipped. */
static int place_test(const struct micro_cmd *m, const struct micro_test *t,
		      struct micro_opts *o, struct micro_result *r)
{
	int cpu[2];
	if (t->place == MICRO_PLACE_NONE)
		return 1;
	if (!place_choose(m->cpus, t->place, cpu, r->skipped, sizeof(r->skipped)))
		return 0;
	unsigned n = place_ncpus(t->place);
	for (unsigned k = n; k-- > 0;)
		if (place_pin(cpu[k]) < 0) {
			snprintf(r->skipped, sizeof(r->skipped), "cannot run on CPU %d: %s", cpu[k],
				 strerror(errno));
			unplace(m);
			return 0;
		}
	o->place_ncpu = r->place_ncpu = n;
	for (unsigned k = 0; k < 2; k++)
		o->place_cpu[k] = r->place_cpu[k] = cpu[k];
	return 1;
}

/* Run t, placed as o says, and note in r->steal_pct what the hypervisor
 * took of its CPUs (place_steal_cpus) meanwhile (NAN when /proc/stat
 * cannot say).  Returns what t's run returns. */
static int run_one(const struct micro_cmd *m, const struct micro_test *t,
		   const struct micro_opts *o, struct micro_result *r)
{
	struct steal_snap a = { 0 }, b = { 0 };
	int cpus[CPU_SETSIZE];
	unsigned n = place_steal_cpus(o->place_ncpu, o->place_cpu, &m->affinity, cpus,
				      CPU_SETSIZE);
	struct cpubusy_snap ca, cb;
	steal_take(&a, NULL);
	cpubusy_take(&ca, NULL, 0);
	uint64_t t0 = kb_now_ns();
	int rc = t->run(t, o, r);
	uint64_t t1 = kb_now_ns();
	cpubusy_take(&cb, NULL, 0);   /* the test's children are waited for: in our cutime */
	steal_take(&b, NULL);
	r->run_s = (double)(t1 - t0) / 1e9;
	r->other_cpu_pct = cpubusy_other_pct(&ca, &cb, r->run_s, sysconf(_SC_CLK_TCK));
	if (n)
		r->steal_pct = steal_max_pct(&a, &b, cpus, n, r->run_s, sysconf(_SC_CLK_TCK), NULL);
	steal_free(&a);
	steal_free(&b);
	return rc;
}

/* Every chosen test, one after another in the temporary directory.  A
 * test that fails, or gives no positive finite figure, is noted in
 * m->failed with its reason (said on stderr) and the others still run.
 * Returns KB_EXIT_OK, or KB_EXIT_FAIL when a test failed. */
static int run_tests(struct micro_cmd *m)
{
	int status = KB_EXIT_OK;
	for (size_t i = 0; i < m->n; i++) {
		const struct micro_test *t = m->sel[i];
		fprintf(stderr, "%s: [%zu/%zu] %s...\n", m->cmd, i + 1, m->n, t->name);
		struct micro_result *r = &m->res[i];
		memset(r, 0, sizeof(*r));
		struct micro_opts o = m->o;
		r->steal_pct = NAN;
		r->other_cpu_pct = NAN;
		int rc = place_test(m, t, &o, r) ? run_one(m, t, &o, r) : 0;
		if (o.place_ncpu)
			unplace(m);
		if (rc == 0 && !r->skipped[0] && !(isfinite(r->value) && r->value > 0)) {
			snprintf(r->skipped, sizeof(r->skipped), "no positive finite figure (%g)",
				 r->value);
			rc = -1;
		}
		if (rc < 0) {
			if (!r->skipped[0])
				snprintf(r->skipped, sizeof(r->skipped), "failed");
			m->failed[i] = 1;
			status = KB_EXIT_FAIL;
			fprintf(stderr, "%s: %s failed: %s\n", m->cmd, t->name, r->skipped);
		}
	}
	return status;
}

/* lmbench's tables and lines, BYTE's report and index when a BYTE test
 * ran, then --json.  Returns KB_EXIT_OK, or KB_EXIT_FAIL when the text or
 * the document could not be written. */
static int report(const struct micro_cmd *m)
{
	int status = KB_EXIT_OK;
	struct lm_host h;
	lm_host_collect(&h);
	fprintf(m->out, "kbench %s micro: %zu tests\n", PACKAGE_VERSION, m->n);
	lm_report_text(m->out, &h, &m->o, m->sel, m->res, m->failed, m->n);
	int any_byte = 0;
	for (size_t i = 0; i < m->n; i++)
		any_byte |= m->sel[i]->family == MICRO_BYTE;
	if (any_byte) {
		/* a failed test must show no figure: BYTE's report sees it as skipped */
		fputc('\n', m->out);
		if (!strcmp(m->base, "byte4") && m->header)
			byte4_report_text(m->out, m->header, m->o.copies, m->sel, m->res, m->n);
		else
			byte_report_text(m->out, m->sel, m->res, m->n, m->base);
	}
	/* every doubt about the figures (a failed test, steal), as the
	 * document lists it */
	json_t *doc = run_document(m);
	caveat_print(m->out, json_object_get(doc, "caveats"));
	if (fflush(m->out) == EOF || ferror(m->out)) {
		fprintf(stderr, "%s: cannot write the results to standard %s: %s\n", m->cmd,
			m->out == stdout ? "output" : "error", strerror(errno));
		status = KB_EXIT_FAIL;
	}
	if (m->json && result_write_json(m->cmd, doc, m->json_dest) < 0)
		status = KB_EXIT_FAIL;
	json_decref(doc);
	return status;
}

/* Everything after the options were read: the checks (bad input: exit 2
 * before any test runs), the run, the report.  Returns the exit status. */
static int micro_main(struct micro_cmd *m, poptContext ctx)
{
	int status = check_family(m);
	if (status != KB_EXIT_OK)
		return status;
	if (m->list)
		return list_only(m, poptGetArgs(ctx));
	if ((status = check_values(m)) != KB_EXIT_OK ||
	    (status = micro_choose(m->cmd, m->fam, m->family, poptGetArgs(ctx), &m->sel,
				   &m->n)) != KB_EXIT_OK ||
	    (status = prepare_output(m)) != KB_EXIT_OK)
		return status;
	micro_catch_signals();
	if (!(m->o.tmpdir = micro_tmp_make(m->cmd)))
		return KB_EXIT_USAGE;           /* nothing ran */
	if ((m->header = malloc(sizeof(*m->header))))
		byte_header_collect(m->header, m->o.tmpdir);
	status = run_tests(m);
	if (report(m) != KB_EXIT_OK)
		status = KB_EXIT_FAIL;
	return status;
}

int cmd_micro(int argc, const char **argv)
{
	struct micro_cmd m = {
		.cmd = argv[0], .fam = MICRO_FAMILY_ALL, .out = stdout,
		.o = { .enough_s = 0.005, .intervals = 11, .duration_s = 10, .copies = 1 },
	};
	struct poptOption options[] = {
		{ "list", 0, POPT_ARG_NONE, &m.list, 0,
		  "list every test: name, family, unit, what it measures and its method", NULL },
		{ "family", 0, POPT_ARG_STRING, &m.family, 0,
		  "run (or list) only the tests of one family (a TEST may be a family's name "
		  "too: every test of it)", "lmbench|byte|all" },
		{ "label", 0, POPT_ARG_STRING, &m.label, 0,
		  "a name for the run in the JSON document (as kbench suite's --label; default: "
		  "the kernel release)", "TEXT" },
		{ "enough", 0, POPT_ARG_STRING, &m.enough_arg, 0,
		  "lmbench: shortest timed interval (default 5ms; 1ms with --quick)", "SEC" },
		{ "duration", 0, POPT_ARG_STRING, &m.duration_arg, 0,
		  "byte: seconds per sample of the short tests (default 10)", "SEC" },
		{ "quick", 0, POPT_ARG_NONE, &m.quick, 0,
		  "short runs for a smoke test: lmbench 1 ms intervals, 5 of them, smaller working "
		  "sets; BYTE samples of 0.2 s, 3 of them (no --duration)", NULL },
		{ "copies", 0, POPT_ARG_STRING, &m.copies_arg, 0,
		  "byte: copies of each test run at once, their combined rate reported (default 1)", "N" },
		{ "baseline", 0, POPT_ARG_STRING, &m.baseline, 0,
		  "byte: the index baseline (default " BYTE_BASELINE_DEFAULT ")",
		  "byte4|unixbench5" },
		{ "cpus", 0, POPT_ARG_STRING, &m.cpus_arg, 0,
		  "the CPUs the placements of the tests between processes are chosen from "
		  "(default: every CPU kbench may use)", "LIST" },
		RESULT_JSON_OPTION(&m.json),
		POPT_AUTOHELP
		POPT_TABLEEND
	};

	poptContext ctx = poptGetContext(m.cmd, argc, argv, options, 0);
	poptSetOtherOptionHelp(ctx, "[OPTIONS] [TEST...]");
	int status = cli_popt_done(ctx, m.cmd, cli_popt_next(ctx, options));
	if (status == KB_EXIT_OK)
		status = micro_main(&m, ctx);
	micro_tmp_remove();
	micro_cmd_free(&m);
	poptFreeContext(ctx);
	return status;
}
