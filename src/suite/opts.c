/* kbench - suite: its options, parsed and checked before anything runs
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every option is checked before the first run: its value, the lists
 * (client counts, memory limits, micro tests), DIR, the disk, root for
 * --drop-caches, and what the kbench binary that runs the children
 * accepts (its load command's --mem-limit and --drop-caches, its micro
 * command, -c FILE through kbench load --check), so a bad option gives
 * one line and status 2 with nothing run.
 */
#include "config.h"
#include "load/load.h"
#include "cli.h"
#include "sys/child.h"
#include "resultsfile/escape.h"
#include "suite/opts.h"
#include "suite/autoruns.h"
#include "suite/untilstable.h"
#include "sys/caches.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>


int opts_parse(struct suite *s, int argc, const char **argv, poptContext *ctx)
{
	load_opts_init(&s->load, s->cmd);
	char t_help[80];
	snprintf(t_help, sizeof(t_help), "measured seconds of each load run (default %d; 90, 1.5m)",
		 SUITE_DEFAULT_TIMELIMIT_S);
	struct poptOption options[] = {
		{ LOAD_OPT_DIRECTORY, &s->dir, 0,
		  "directory the load runs in (default: kbench load's own under $TMPDIR)", "DIR" },
		{ LOAD_OPT_LOADFILE, &s->loadfile, 0,
		  "loadfile for kbench load (default: its client.txt)", "FILE" },
		{ "clients", 0, POPT_ARG_STRING, &s->clients_arg, 0,
		  "client counts of the load runs (default 1,5,10)", "LIST" },
		{ "runs", 0, POPT_ARG_STRING, &s->runs_arg, 0,
		  "runs of every test (default 8), or auto: planned from pilot runs for "
		  "--detect", "N" },
		{ "detect", 0, POPT_ARG_STRING, &s->detect_arg, 0,
		  "--runs auto: the change in percent that any one test's runs should prove "
		  "(80% power, Benjamini-Hochberg over the study's tests)", "PCT" },
		{ "budget", 0, POPT_ARG_STRING, &s->budget_arg, 0,
		  "--runs auto: the most time the series may take (90m, 2h)", "TIME" },
		{ "until-stable", 0, POPT_ARG_STRING, &s->until_arg, 0,
		  "after the planned runs, add runs of a test until its median's 95% interval "
		  "is within +-PCT percent of it (needs --max-runs)", "PCT" },
		{ "max-runs", 0, POPT_ARG_STRING, &s->max_runs_arg, 0,
		  "the most runs of a test under --until-stable or --runs auto (its default 30)",
		  "N" },
		{ LOAD_OPT_TIMELIMIT, &s->timelimit, 0, t_help, "TIME" },
		{ LOAD_OPT_WARMUP, &s->warmup, 0,
		  "warm-up of each load run (default: kbench load's, timelimit/5)", "TIME" },
		{ "disk", 0, POPT_ARG_STRING, &s->disk, 0,
		  "also time this device or file with kbench disk -T and -t", "DEV" },
		{ "micro", 0, POPT_ARG_STRING | POPT_ARGFLAG_OPTIONAL, NULL, 'm',
		  "also run kbench micro (all its tests, or these, comma-separated; a family's name, "
		  "lmbench, byte or all, is every test of it)", "TESTS" },
		{ "pause", 0, POPT_ARG_STRING, &s->pause_arg, 0,
		  "pause before every run, after the sync (default 10 s; 0 for none)", "TIME" },
		{ LOAD_OPT_DROP_CACHES, &s->drop_caches, 0,
		  "drop the page cache before every run (root; also passed to kbench load)", NULL },
		{ LOAD_OPT_MEM_LIMIT, &s->mem_arg, 0,
		  "run every load under each of these memory limits (kbench load --mem-limit; "
		  "e.g. 32M,128M,none)", "LIST" },
		{ "micro-quick", 0, POPT_ARG_NONE, &s->micro_quick, 0,
		  "kbench micro --quick (short runs)", NULL },
		{ "copies", 0, POPT_ARG_STRING, &s->copies_arg, 0,
		  "kbench micro --copies (BYTE tests run N at once)", "N" },
		{ "mpi", 0, POPT_ARG_STRING, &s->mpi, 0,
		  "run each load under MPI: this command line (words split on blanks), then "
		  "kbench load --mpi", "\"mpirun -n R ...\"" },
		{ "label", 0, POPT_ARG_STRING, &s->label, 0,
		  "name of this series in the file and in comparisons (default: uname -r)", "NAME" },
		{ "output", 'o', POPT_ARG_STRING, &s->out, 0,
		  "results file (default kbench-RELEASE-HOST-YYYYmmdd-HHMMSS.json here)", "FILE" },
		{ "resume", 0, POPT_ARG_STRING, &s->resume, 0,
		  "carry on an interrupted series with the command line stored in FILE", "FILE" },
		{ "format", 0, POPT_ARG_STRING, &s->format, 0,
		  "the summary at the end: text (a table, default) or benchstat (Go benchmark "
		  "lines)", "FORMAT" },
		{ NULL, 0, POPT_ARG_INCLUDE_TABLE, s->load.through, 0,
		  "Passed to every load run as given (kbench load's options):", NULL },
		POPT_AUTOHELP
		POPT_TABLEEND
	};
	*ctx = poptGetContext(s->cmd, argc, argv, options, 0);
	poptSetOtherOptionHelp(*ctx, "[OPTIONS]    or    --resume FILE");
	int rc, other = 0, twice = 0;
	while ((rc = cli_popt_next(*ctx, options)) > 0) {
		if (rc == 'm') {
			/* one list: a second --micro is refused as every option is */
			twice |= s->micro;
			s->micro = 1;
			free(s->micro_arg);
			s->micro_arg = poptGetOptArg(*ctx);
		}
	}
	int status = cli_popt_done(*ctx, s->cmd, rc);
	if (status)
		return status;
	if (twice)
		return cli_usage_error(s->cmd, "--micro given twice: it takes one list; give it "
				       "once");
	/* out of the process title, and so out of the stored command line */
	optrows_hide_secrets(argc, argv);
	if (poptPeekArg(*ctx))
		return cli_usage_error(s->cmd, "unexpected argument '%s'", poptPeekArg(*ctx));
	other = s->dir || s->loadfile || s->clients_arg || s->runs_arg || s->timelimit ||
		s->warmup || s->disk || s->micro || s->pause_arg || s->drop_caches || s->mem_arg ||
		s->label || s->out || load_opts_through_first(&s->load) || s->micro_quick ||
		s->copies_arg || s->until_arg || s->max_runs_arg || s->detect_arg ||
		s->budget_arg;
	if (s->resume && other)
		return cli_usage_error(s->cmd, "--resume takes no other options but --format: "
				       "the file holds the command line");
	return 0;
}

void opts_free(struct suite *s)
{
	char **strs[] = { &s->mpi, &s->dir, &s->loadfile, &s->timelimit, &s->warmup, &s->disk, &s->label,
			  &s->out, &s->format, &s->resume, &s->clients_arg, &s->runs_arg,
			  &s->pause_arg, &s->mem_arg, &s->micro_arg, &s->copies_arg,
			  &s->until_arg, &s->max_runs_arg, &s->detect_arg, &s->budget_arg };
	for (size_t i = 0; i < sizeof(strs) / sizeof(strs[0]); i++) {
		free(*strs[i]);
		*strs[i] = NULL;
	}
	for (size_t i = 0; i < s->nmems; i++)
		free(s->mems[i]);
	for (size_t i = 0; i < s->nmicro; i++)
		free(s->micro_tests[i]);
	s->nmems = s->nmicro = 0;
	load_opts_free(&s->load);
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

/* --runs, -t, --warmup, --pause, --format */
static int parse_numbers(struct suite *s)
{
	uint64_t v;
	s->runs = SUITE_DEFAULT_RUNS;
	if (autoruns_parse(s))
		return KB_EXIT_USAGE;
	if (s->runs_arg && !s->auto_runs) {
		if (cli_parse_uint(s->runs_arg, 1, SUITE_MAX_RUNS, &v) < 0)
			return cli_usage_error(s->cmd, "--runs %s: give a whole number from 1 to %d "
					       "or auto",
					       s->runs_arg, SUITE_MAX_RUNS);
		s->runs = (unsigned)v;
	}
	if (ustable_parse(s))
		return KB_EXIT_USAGE;
	s->timelimit_s = SUITE_DEFAULT_TIMELIMIT_S;
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
	if (s->copies_arg && cli_parse_uint(s->copies_arg, 1, 1024, &v) < 0)
		return cli_usage_error(s->cmd, "--copies %s: give a whole number from 1 to 1024",
				       s->copies_arg);
	if ((s->copies_arg || s->micro_quick) && !s->micro)
		return cli_usage_error(s->cmd, "%s is an option of the micro jobs: give --micro too",
				       s->copies_arg ? "--copies" : "--micro-quick");
	if (s->format && strcmp(s->format, "text") && strcmp(s->format, "benchstat"))
		return cli_usage_error(s->cmd, "--format %s: give text or benchstat", s->format);
	if (s->mpi && (!s->mpi[strspn(s->mpi, " \t")] || strlen(s->mpi) >= 1024))
		return cli_usage_error(s->cmd, "--mpi needs the command that starts the ranks, "
				       "e.g. \"mpirun -n 4 -H a,b\" (under 1024 characters)");
	return 0;
}

static int parse_mems(struct suite *s);

/* --clients, then parse_mems */
static int parse_lists(struct suite *s)
{
	uint64_t v;
	char *items[SUITE_MAX_CLIENTS];
	size_t n;
	const char *clients = s->clients_arg ? s->clients_arg : "1,5,10";
	if (!strcmp(clients, "none")) {
		s->nclients = 0;
		return parse_mems(s);
	}
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
	return bad ? bad : parse_mems(s);
}

/* --mem-limit, --micro=TESTS */
static int parse_mems(struct suite *s)
{
	uint64_t v;
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
			s->mem_bytes[i] = v;
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

/* Whether a line of kbench micro --list is a test of the family called
 * word ("lmbench", "byte": its second word; "all": any test). */
static int lists_family(const char *line, const char *word)
{
	char name[128], fam[32];
	if (sscanf(line, "%127s %31s", name, fam) != 2 || !strcmp(name, "TEST"))
		return 0;
	return !strcmp(word, "all") || ((!strcmp(word, "lmbench") || !strcmp(word, "byte")) &&
					!strcmp(fam, word));
}

/* Every test --micro=TESTS names is one kbench micro --list lists (the
 * first word of a line), or a family with a test there (lmbench, byte,
 * all: every test of it). */
static int check_micro_names(struct suite *s)
{
	const char *list[] = { "micro", "--list", NULL };
	if (ask_kbench(s, list, NULL, NULL, 0) != 1) {
		fprintf(stderr, "%s: --micro: kbench micro --list failed\n", s->cmd);
		return KB_EXIT_USAGE;
	}
	for (size_t i = 0; i < s->nmicro; i++) {
		FILE *f = fopen(s->child_log, "re");
		char line[512];
		int found = 0;
		size_t len = strlen(s->micro_tests[i]);
		while (f && !found && fgets(line, sizeof(line), f))
			found = (!strncmp(line, s->micro_tests[i], len) &&
				 (line[len] == ' ' || line[len] == '\t' || line[len] == '\n')) ||
				lists_family(line, s->micro_tests[i]);
		if (f)
			fclose(f);
		if (!found) {
			char shown[200];
			fprintf(stderr, "%s: --micro: this kbench's micro has no test '%s' (kbench "
				"micro --list names them)\n", s->cmd,
				esc_str(shown, sizeof(shown), s->micro_tests[i]));
			return KB_EXIT_USAGE;
		}
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
	/* the options passed through are load's own (its table); load checks
	 * each load job's command line (precheck.c) */
	const char *through = load_opts_through_first(&s->load);
	if (through && !s->nclients) {
		fprintf(stderr, "%s: %s is an option of the load jobs, and --clients none "
			"runs none\n", s->cmd, through);
		return KB_EXIT_USAGE;
	}
	if (s->micro && ask_kbench(s, help_micro, NULL, NULL, 0) != 1) {
		fprintf(stderr, "%s: --micro: this kbench has no micro command\n", s->cmd);
		return KB_EXIT_USAGE;
	}
	if (s->nmicro && check_micro_names(s))
		return KB_EXIT_USAGE;
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

int opts_check(struct suite *s)
{
	int rc = parse_numbers(s);
	if (!rc)
		rc = parse_lists(s);
	if (!rc)
		rc = check_paths(s);
	if (rc)
		return rc;
	s->exe = child_self();
	return check_kbench(s);
}
