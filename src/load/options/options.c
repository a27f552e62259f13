/* kbench - kbench load's command line: the options and their checks
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * usage: kbench load [OPTIONS] NCLIENTS
 *        kbench load --check FILE [--format FORMAT]
 *
 * Only the command line is looked at here (and the limits of this machine
 * on processes, for NCLIENTS; under --mpi the loadfile's bytes, summed for
 * the ranks to compare); parsing the loadfile, the directory and what
 * needs root are cmd_load's; the value rules kbench suite shares too
 * (load/rules.h) are applied here.
 */
#include "config.h"
#include "cli.h"
#include "load/rules.h"
#include "load/loadfile/loadfile.h"
#include "load/options/options.h"
#include "load/options/optrows.h"
#include "result/result.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

/* LOAD_DEFAULT_TIMELIMIT_S as text, for --help */
#define TEXT_(x) #x
#define TEXT(x) TEXT_(x)
#define TIMELIMIT_TEXT TEXT(LOAD_DEFAULT_TIMELIMIT_S)

/* The rows of o->through (options.h): what kbench suite passes through. */
static void fill_through(struct load_opts *o)
{
	const struct poptOption rows[] = {
		{ "clients-per-process", 0, POPT_ARG_STRING, &o->per_proc_arg, 0,
		  "clients interleaved in each process (default 1)", "N" },
		{ "sync", 's', POPT_ARG_NONE, &o->sync_open, 0, "open files with O_SYNC", NULL },
		{ "sync-dirs", 'S', POPT_ARG_NONE, &o->sync_dirs, 0,
		  "fsync the directory after every create, rename, unlink, mkdir, rmdir", NULL },
		{ "fsync", 'F', POPT_ARG_NONE, &o->fsync_write, 0, "fsync after every WriteX", NULL },
		{ "xattr", 'x', POPT_ARG_NONE, &o->xattr, 0,
		  "keep DOS attributes in the user.DosAttrib xattr (as dbench -x)", NULL },
		{ "target-rate", 'R', POPT_ARG_STRING, &o->target_rate_arg, 0,
		  "hold each client to this rate (MB/sec, MB = 10^6 bytes)", "MBPS" },
		{ "latency-from", 0, POPT_ARG_STRING, &o->latency_from, 0,
		  "start: an op's latency runs from when its client got to it (closed loop, "
		  "the default); due: from when it was due (open loop: -R or a timestamped "
		  "loadfile)", "start|due" },
		{ "backend", 'B', POPT_ARG_STRING, &o->backend_name, 0,
		  "how ops are carried out: fileio (default: files in -D), "
		  "sockio (tbench's packets to --server), nfs (--nfs), smb (--smb-share)", "NAME" },
		POPT_TABLEEND
	};
	size_t n = sizeof(rows) / sizeof(rows[0]) - 1;
	_Static_assert(sizeof(rows) / sizeof(rows[0]) + BACKENDS_MAX <= LOAD_THROUGH_ROWS,
		       "LOAD_THROUGH_ROWS");
	memcpy(o->through, rows, sizeof(rows));
	/* each backend's own options, under its heading (backend.h) */
	for (size_t i = 0; backends[i] && i < BACKENDS_MAX; i++) {
		if (!backends[i]->options)
			continue;
		backends[i]->options(o->own[i], o->own_rows[i]);
		o->through[n++] = (struct poptOption){ NULL, 0, POPT_ARG_INCLUDE_TABLE,
						       o->own_rows[i], 0,
						       backends[i]->opts_heading, NULL };
	}
	o->through[n] = (struct poptOption)POPT_TABLEEND;
}

void load_opts_init(struct load_opts *o, const char *cmd)
{
	memset(o, 0, sizeof(*o));
	o->cmd = cmd;
	o->per_proc = 1;
	o->lf_format = LF_AUTO;
	o->backend = backends[0];
	fill_through(o);
	optrows_names(o->through, o->through_names, LOAD_THROUGH_ROWS);
}

/* --clients-per-process and -R as given into o->per_proc, o->target_rate. */
static int parse_through_numbers(struct load_opts *o)
{
	uint64_t v;
	if (o->per_proc_arg) {
		if (cli_parse_uint(o->per_proc_arg, 1, LOAD_MAX_CLIENTS, &v) < 0)
			return cli_usage_error(o->cmd, "--clients-per-process must be a whole number "
					       "from 1 to %u, not '%s'", LOAD_MAX_CLIENTS,
					       o->per_proc_arg);
		o->per_proc = (int)v;
	}
	if (o->target_rate_arg) {
		char *end;
		errno = 0;
		o->target_rate = strtod(o->target_rate_arg, &end);
		/* 0 is "no limit"; a figure written above 0 that is too small
		 * for a double (1e-400) is not */
		if (end == o->target_rate_arg || *end || !(o->target_rate >= 0) ||
		    !isfinite(o->target_rate) || (o->target_rate == 0 && errno == ERANGE))
			return cli_usage_error(o->cmd, "--target-rate must be a positive MB/sec "
					       "figure, not '%s'", o->target_rate_arg);
	}
	return KB_EXIT_OK;
}

/* -B NAME: a backend this kbench has and was built with; the target
 * options only with the backend that takes them. */
static int check_backend(struct load_opts *o)
{
	if (o->backend_name) {
		o->backend = backend_find(o->backend_name);
		if (!o->backend) {
			char names[256] = "";
			size_t n = 0;
			for (size_t i = 0; backends[i] && n < sizeof(names); i++)
				n += (size_t)snprintf(names + n, sizeof(names) - n, "%s%s",
						      i ? ", " : "", backends[i]->name);
			return cli_usage_error(o->cmd, "unknown -B '%s' (%s)", o->backend_name, names);
		}
		if (o->backend->missing)
			return cli_usage_error(o->cmd, "-B %s: this kbench was built without %s",
					       o->backend->name, o->backend->missing);
	}
	/* a backend's own options only with that backend */
	for (size_t i = 0; backends[i] && i < BACKENDS_MAX; i++) {
		const struct poptOption *r = backends[i]->options && backends[i] != o->backend ?
			optrows_first_given(o->own_rows[i]) : NULL;
		if (r)
			return cli_usage_error(o->cmd, "--%s is for -B %s, not -B %s", r->longName,
					       backends[i]->name, o->backend->name);
	}
	return KB_EXIT_OK;
}

const char *load_opts_backend_given(const struct load_opts *o)
{
	if (o->backend_name)
		return o->backend_name;
	for (size_t i = 0; backends[i] && i < BACKENDS_MAX; i++)
		if (backends[i]->options && optrows_first_given(o->own_rows[i]))
			return backends[i]->name;
	return NULL;
}

int load_opts_parse(struct load_opts *o, int argc, const char **argv, poptContext *ctx)
{
	struct poptOption options[] = {
		{ LOAD_OPT_LOADFILE, &o->loadfile, 0,
		  "loadfile to replay (default: the shipped client.txt)", "FILE" },
		{ LOAD_OPT_DIRECTORY, &o->directory, 0,
		  "directory to run in (default: a new one under $TMPDIR, removed after)", "DIR" },
		{ LOAD_OPT_TIMELIMIT, &o->timelimit, 0,
		  "seconds measured after warm-up (default " TIMELIMIT_TEXT "; 90, 1.5m, 2h)",
		  "TIME" },
		{ LOAD_OPT_WARMUP, &o->warmup, 0,
		  "warm-up before measuring (default timelimit/5; 0 with --run-once)", "TIME" },
		{ "run-once", 0, POPT_ARG_NONE, &o->run_once, 0,
		  "each client replays the loadfile once, then stops", NULL },
		{ "strict", 0, POPT_ARG_NONE, &o->strict, 0,
		  "stop the run at the first op that does not end as expected", NULL },
		{ "reuse-trees", 0, POPT_ARG_NONE, &o->reuse_trees, 0,
		  "use client trees already in DIR (an earlier --skip-cleanup's) as they are; "
		  "their contents go after the run", NULL },
		{ "skip-cleanup", 0, POPT_ARG_NONE, &o->skip_cleanup, 0,
		  "leave the files of the run in the directory", NULL },
		{ "per-client-results", 0, POPT_ARG_NONE, &o->per_client, 0,
		  "show each client's MB/sec", NULL },
		RESULT_JSON_OPTION(&o->json),
		{ "quiet", 'q', POPT_ARG_NONE, &o->quiet, 0, "no line a second", NULL },
		{ LOAD_OPT_MEM_LIMIT, &o->mem_limit, 0,
		  "run the clients in a memory cgroup holding their memory and page cache "
		  "to SIZE (k, M, G, T: 2^10, 2^20, 2^30, 2^40; none: no limit); root only", "SIZE" },
		{ LOAD_OPT_DROP_CACHES, &o->drop_caches, 0,
		  "sync and drop the page cache, dentries and inodes before the run; root only",
		  NULL },
		{ "mpi", 0, POPT_ARG_NONE, &o->mpi, 0,
		  "one rank of a job under mpirun: NCLIENTS clients in DIR/rank<r>, started "
		  "and measured with every other rank; rank 0 reports", NULL },
		{ "clients-total", 0, POPT_ARG_STRING, &o->clients_total, 0,
		  "--mpi: N clients in all, spread evenly over the ranks (instead of NCLIENTS)",
		  "N" },
		{ "stonewall", 0, POPT_ARG_NONE, &o->stonewall, 0,
		  "--mpi: every rank's measurement ends when the first rank's does", NULL },
		{ "output-form", 0, POPT_ARG_STRING, &o->output_form, 0,
		  "the lines printed: kbench (default), dbench (dbench 4's lines, for harnesses "
		  "that parse them), dbench-mmtests (as mmtests' dbench names its ops), "
		  "dbench-machine (mmtests' @ records)", "FORM" },
		{ "pass-times", 0, POPT_ARG_NONE, &o->pass_times, 0,
		  "a line per client at the end of each pass: its length and when (mmtests' "
		  "dbench --show-execute-time)", NULL },
		{ "format", 0, POPT_ARG_STRING, &o->format, 0,
		  "loadfile format: auto (default), dbench4, dbench2, dbench1", "FORMAT" },
		{ "check", 0, POPT_ARG_NONE, &o->check, 0,
		  "parse FILE without running it and show what one pass of one client does",
		  NULL },
		{ NULL, 0, POPT_ARG_INCLUDE_TABLE, o->through, 0,
		  "How ops are carried out (kbench suite passes these to its load runs):", NULL },
		POPT_AUTOHELP
		POPT_TABLEEND
	};

	*ctx = poptGetContext(o->cmd, argc, argv, options, 0);
	poptSetOtherOptionHelp(*ctx, "[OPTIONS] NCLIENTS\n       kbench load --check FILE [--format FORMAT]");
	int status = cli_popt_done(*ctx, o->cmd, cli_popt_next(*ctx, options));
	if (status)
		return status;
	if (o->format && lf_format_parse(o->format, &o->lf_format) < 0)
		return cli_usage_error(o->cmd, "unknown --format '%s' (auto, dbench4, dbench2, dbench1)",
				       o->format);
	if (o->output_form && load_form_parse(o->output_form, &o->form) < 0)
		return cli_usage_error(o->cmd, "unknown --output-form '%s' (kbench, dbench, "
				       "dbench-mmtests, dbench-machine)", o->output_form);
	status = parse_through_numbers(o);
	if (!status)
		status = check_backend(o);
	optrows_hide_secrets(argc, argv);
	if (status || !o->check)
		return status;
	o->check_file = poptGetArg(*ctx);
	if (!o->check_file)
		return cli_usage_error(o->cmd, "--check needs a FILE");
	if (poptPeekArg(*ctx))
		return cli_usage_error(o->cmd, "--check takes one FILE, not '%s' too", poptPeekArg(*ctx));
	return KB_EXIT_OK;
}

/* The most clients this machine lets kbench fork: LOAD_MAX_CLIENTS, fewer
 * under RLIMIT_NPROC, and half of pid_max, each times per_proc. */
static unsigned max_clients(unsigned per_proc)
{
	struct rlimit rl;
	uint64_t max = LOAD_MAX_CLIENTS;
	if (getrlimit(RLIMIT_NPROC, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY) {
		uint64_t by_procs = (uint64_t)rl.rlim_cur * per_proc;
		if (by_procs < max)
			max = by_procs;
	}
	FILE *f = fopen("/proc/sys/kernel/pid_max", "re");
	unsigned long pid_max;
	if (f) {
		if (fscanf(f, "%lu", &pid_max) == 1 && (uint64_t)pid_max / 2 * per_proc < max)
			max = (uint64_t)pid_max / 2 * per_proc;
		fclose(f);
	}
	return (unsigned)max;
}

/* NCLIENTS, the one argument (or --clients-total), and
 * --clients-per-process. */
static int check_nclients(struct load_opts *o, poptContext ctx)
{
	const char *arg = poptGetArg(ctx);
	if (o->clients_total) {
		if (arg)
			return cli_usage_error(o->cmd, "give NCLIENTS or --clients-total, not both");
		if (o->per_proc < 1)
			return cli_usage_error(o->cmd, "--clients-per-process must be at least 1");
		if (cli_parse_uint(o->clients_total, 1, UINT64_MAX, &o->nclients) < 0)
			return cli_usage_error(o->cmd, "--clients-total must be a whole number of at "
					       "least 1, not '%s'", o->clients_total);
		return KB_EXIT_OK;
	}
	if (!arg)
		return cli_usage_error(o->cmd, "missing NCLIENTS (the number of clients)");
	if (poptPeekArg(ctx))
		return cli_usage_error(o->cmd, "unexpected argument '%s'", poptPeekArg(ctx));
	unsigned limit = max_clients((unsigned)o->per_proc);
	if (cli_parse_uint(arg, 1, UINT64_MAX, &o->nclients) < 0)
		return cli_usage_error(o->cmd, "NCLIENTS must be a whole number of at least 1, not '%s'",
				       arg);
	if (o->nclients > limit)
		return cli_usage_error(o->cmd, "NCLIENTS %s is more than this machine can fork "
				       "(at most %u)", arg, limit);
	return KB_EXIT_OK;
}

/* --timelimit and --warmup, and their defaults. */
static int check_times(struct load_opts *o)
{
	o->timelimit_s = LOAD_DEFAULT_TIMELIMIT_S;
	o->warmup_s = -1;
	if (o->timelimit && (cli_parse_duration(o->timelimit, &o->timelimit_s) < 0 ||
			     o->timelimit_s <= 0))
		return cli_usage_error(o->cmd, "bad --timelimit '%s' (seconds above 0, e.g. 60, 1.5m)",
				       o->timelimit);
	if (o->run_once && !o->timelimit)
		o->timelimit_s = 0;
	if (o->warmup && cli_parse_duration(o->warmup, &o->warmup_s) < 0)
		return cli_usage_error(o->cmd, "bad --warmup '%s' (seconds, e.g. 10, 0, 1m)", o->warmup);
	if (o->warmup_s < 0)
		o->warmup_s = o->run_once ? 0 : load_default_warmup_s(o->timelimit_s);
	return KB_EXIT_OK;
}

/* --mem-limit SIZE: bytes in *out (0 for "none").  Returns 0 or usage. */
static int parse_mem_limit(const char *cmd, const char *text, uint64_t *out)
{
	int rc = load_mem_limit_parse(text, out);
	if (rc == LOAD_MEM_LIMIT_BAD)
		return cli_usage_error(cmd, "bad --mem-limit '%s' (a size in bytes with k, M, G "
				       "or T for 2^10, 2^20, 2^30, 2^40, e.g. 64M; or none)", text);
	if (rc == LOAD_MEM_LIMIT_ZERO)
		return cli_usage_error(cmd, "--mem-limit 0 would let no client run "
				       "(give a size such as 64M, or none for no limit)");
	return KB_EXIT_OK;
}

int load_opts_share(struct load_opts *o, int rank, int nranks)
{
	if (o->clients_total) {
		uint64_t total = o->nclients, n = (uint64_t)nranks;
		if (total < n)
			return cli_usage_error(o->cmd, "--clients-total %s is fewer than the %d ranks "
					       "(each rank runs at least one client)",
					       o->clients_total, nranks);
		o->nclients = total / n + ((uint64_t)rank < total % n);
	}
	unsigned limit = max_clients((unsigned)o->per_proc);
	if (o->nclients > limit)
		return cli_usage_error(o->cmd, "%llu clients on this rank are more than this "
				       "machine can fork (at most %u)",
				       (unsigned long long)o->nclients, limit);
	return KB_EXIT_OK;
}

int load_opts_check(struct load_opts *o, poptContext ctx)
{
	if (!o->mpi && (o->clients_total || o->stonewall))
		return cli_usage_error(o->cmd, "%s is for a job under MPI (--mpi)",
				       o->clients_total ? "--clients-total" : "--stonewall");
	if (o->mpi && o->per_client)
		return cli_usage_error(o->cmd, "--per-client-results does not go with --mpi "
				       "(the report shows each rank's MB/sec)");
	int status = check_nclients(o, ctx);
	if (!status)
		status = check_times(o);
	if (status)
		return status;
	if (o->latency_from && strcmp(o->latency_from, "start") && strcmp(o->latency_from, "due"))
		return cli_usage_error(o->cmd, "--latency-from must be start or due, not '%s'",
				       o->latency_from);
	o->latency_from_due = o->latency_from && !strcmp(o->latency_from, "due");
	if (o->mem_limit)
		return parse_mem_limit(o->cmd, o->mem_limit, &o->mem_limit_bytes);
	return KB_EXIT_OK;
}

/* A name into the measure text: control characters (a tab or newline
 * would end its field) and backslashes escaped, so that two names are
 * equal exactly when their texts are. */
static void put_name(FILE *f, const char *s)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '\\')
			fputs("\\\\", f);
		else if (c < 0x20 || c == 0x7f)
			fprintf(f, "\\x%02x", c);
		else
			fputc(c, f);
	}
}

/* "KEY\tKEY VALUE\n", or "KEY\tno KEY\n" when value is NULL. */
static void put_opt(FILE *f, const char *key, const char *value)
{
	fprintf(f, "%s\t%s%s", key, value ? "" : "no ", key);
	if (value) {
		fputc(' ', f);
		put_name(f, value);
	}
	fputc('\n', f);
}

static void put_flag(FILE *f, const char *key, int on)
{
	fprintf(f, "%s\t%s%s\n", key, on ? "" : "no ", key);
}

/* Whether name ("--smb-user") is one of b's logins (backend.h). */
static int is_login(const struct backend *b, const char *name)
{
	for (size_t i = 0; b->logins && b->logins[i]; i++)
		if (!strcmp(b->logins[i], name))
			return 1;
	return 0;
}

/* Every backend's own string options but who logs in, each as it reads
 * on a command line ("--server H", "-T WORDS"), "no ..." when not given. */
static void put_backend_opts(FILE *f, const struct load_opts *o)
{
	for (size_t i = 0; backends[i] && i < BACKENDS_MAX; i++) {
		for (const struct poptOption *r = o->own_rows[i];
		     backends[i]->options && r->longName; r++) {
			char key[48], name[48];
			snprintf(name, sizeof(name), "--%s", r->longName);
			if (r->shortName)
				snprintf(key, sizeof(key), "-%c", r->shortName);
			else
				snprintf(key, sizeof(key), "%s", name);
			if ((r->argInfo & POPT_ARG_MASK) == POPT_ARG_STRING &&
			    !is_login(backends[i], name))
				put_opt(f, key, *(char **)r->arg);
		}
	}
}

char *load_opts_measure(const struct load_opts *o)
{
	char *text = NULL, *lf = load_loadfile_path(o->loadfile);
	size_t len = 0;
	FILE *f = lf ? open_memstream(&text, &len) : NULL;
	uint32_t crc;
	uint64_t size;
	if (!f) {
		free(lf);
		return NULL;
	}
	fprintf(f, "-c\t-c ");
	put_name(f, lf);
	if (loadfile_sum(lf, &crc, &size) == 0)
		fprintf(f, "\tcrc32 %08x, %llu bytes", (unsigned)crc, (unsigned long long)size);
	fputc('\n', f);
	free(lf);
	put_opt(f, "--format", lf_format_name(o->lf_format));
	fprintf(f, "-t\t");
	if (o->timelimit_s > 0)
		fprintf(f, "-t %.9g\n", o->timelimit_s);
	else
		fprintf(f, "no -t\n");
	fprintf(f, "--warmup\t--warmup %.9g\n", o->warmup_s);
	put_flag(f, "--run-once", o->run_once);
	if (o->clients_total)  /* each rank's share differs; the total is the job's */
		fprintf(f, "NCLIENTS\t--clients-total %llu\n",
			(unsigned long long)strtoull(o->clients_total, NULL, 10));
	else
		fprintf(f, "NCLIENTS\tNCLIENTS %llu\n", (unsigned long long)o->nclients);
	fprintf(f, "--clients-per-process\t--clients-per-process %d\n", o->per_proc);
	put_opt(f, "-B", o->backend->name);
	put_opt(f, "-D", o->directory);
	put_backend_opts(f, o);
	put_flag(f, "-s", o->sync_open);
	put_flag(f, "-S", o->sync_dirs);
	put_flag(f, "-F", o->fsync_write);
	put_flag(f, "-x", o->xattr);
	fprintf(f, "-R\t");
	if (o->target_rate > 0)
		fprintf(f, "-R %.9g\n", o->target_rate);
	else
		fprintf(f, "no -R\n");
	put_flag(f, "--strict", o->strict);
	put_flag(f, "--stonewall", o->stonewall);
	put_flag(f, "--drop-caches", o->drop_caches);
	fprintf(f, "--mem-limit\t");
	if (o->mem_limit_bytes)
		fprintf(f, "--mem-limit %llu bytes\n", (unsigned long long)o->mem_limit_bytes);
	else
		fprintf(f, "no --mem-limit\n");
	if (fclose(f) != 0) {
		free(text);
		return NULL;
	}
	return text;
}

/* One line of a measure text: its fields (sum NULL when it has none). */
struct mline {
	const char *key, *shown, *sum;
	int klen, slen, sumlen;
};

/* The line at *p into l, *p moved past it.  Returns 0, or -1 at the end. */
static int next_mline(const char **p, struct mline *l)
{
	const char *s = *p, *end = strchr(s, '\n');
	if (!*s)
		return -1;
	if (!end)
		end = s + strlen(s);
	const char *t1 = memchr(s, '\t', (size_t)(end - s));
	const char *t2 = t1 ? memchr(t1 + 1, '\t', (size_t)(end - t1 - 1)) : NULL;
	l->key = s;
	l->klen = (int)((t1 ? t1 : end) - s);
	l->shown = t1 ? t1 + 1 : end;
	l->slen = (int)((t2 ? t2 : end) - l->shown);
	l->sum = t2 ? t2 + 1 : NULL;
	l->sumlen = t2 ? (int)(end - t2 - 1) : 0;
	*p = *end ? end + 1 : end;
	return 0;
}

static int same_field(const char *a, int alen, const char *b, int blen)
{
	return alen == blen && memcmp(a, b, (size_t)alen) == 0;
}

/* The line as the message shows it: SHOWN, and its sum in brackets. */
static void show_mline(const struct mline *l, char *out, size_t size)
{
	if (!l)
		snprintf(out, size, "?");
	else if (l->sum)
		snprintf(out, size, "%.*s (%.*s)", l->slen, l->shown, l->sumlen, l->sum);
	else
		snprintf(out, size, "%.*s", l->slen, l->shown);
}

int load_opts_differ(const char *mine, const char *rank0, char *shown_mine,
		     char *shown_rank0, size_t size)
{
	struct mline a, b;
	for (const char *p = mine; next_mline(&p, &a) == 0;) {
		int found = 0, same;
		for (const char *q = rank0; !found && next_mline(&q, &b) == 0;)
			found = same_field(a.key, a.klen, b.key, b.klen);
		if (!found)
			same = 0;
		else if (a.sum && b.sum)
			same = same_field(a.sum, a.sumlen, b.sum, b.sumlen);
		else
			same = same_field(a.shown, a.slen, b.shown, b.slen);
		if (same)
			continue;
		show_mline(&a, shown_mine, size);
		show_mline(found ? &b : NULL, shown_rank0, size);
		return 1;
	}
	return 0;
}

void load_opts_free(struct load_opts *o)
{
	char **strs[] = { &o->loadfile, &o->directory, &o->timelimit, &o->warmup, &o->json,
			  &o->format, &o->mem_limit, &o->backend_name,
			  &o->clients_total, &o->latency_from, &o->output_form, &o->per_proc_arg,
			  &o->target_rate_arg };
	for (size_t i = 0; i < sizeof(strs) / sizeof(strs[0]); i++) {
		free(*strs[i]);
		*strs[i] = NULL;
	}
	for (size_t i = 0; backends[i] && i < BACKENDS_MAX; i++)
		for (struct poptOption *r = o->own_rows[i]; backends[i]->options && r->longName; r++)
			if ((r->argInfo & POPT_ARG_MASK) == POPT_ARG_STRING) {
				free(*(char **)r->arg);
				*(char **)r->arg = NULL;
			}
}
