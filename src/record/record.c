/* kbench - kbench record: a program's file I/O as a loadfile kbench load replays
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * usage: kbench record -o FILE [-D DIR] -- COMMAND [ARGS...]
 *        kbench record --from-strace LOG -o FILE -D DIR
 *
 * Runs COMMAND, its children and threads under strace (-f -ttt -yy), or
 * reads a log strace wrote so, and writes a dbench 4 loadfile of the
 * calls they made on files under DIR (logread.c, calls.c, paths.c):
 * what a program does to a file system, replayable by kbench load with N
 * clients on any backend.  strace, not ptrace of our own: it decodes
 * every call's arguments and every descriptor's path (-yy) on every
 * architecture Linux runs on, and a tracer of our own would be a second
 * strace.  The recording reads no file: sizes come from the trace.
 *
 * Bad input (DIR missing or not a directory, FILE already there, a log
 * not in strace's form, a command that fails or is not found) is one
 * line on stderr and status 2; FILE is written only at the end, whole,
 * and nothing else is left behind (strace's log lives in a private
 * directory under $TMPDIR, removed before kbench returns).
 */
#include "config.h"
#include "cli.h"
#include "commands.h"
#include "record/logread.h"
#include "record/out.h"
#include "record/trace.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <popt.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define CMD "kbench record"

/* what strace traces: every call on a name or a descriptor, and the
 * process calls that carry descriptors from parent to child */
#define TRACE_SET "%file,%desc,%process"

struct record_cmd {
	char *out, *dir, *from;
	int full_sizes, untimed;
	const char **argv;     /* COMMAND and its arguments, or NULL */
	char dirbuf[PATH_MAX], cwd[PATH_MAX], tmp[PATH_MAX], log[PATH_MAX + 16];
	char how[4096];
};

/* Is name a program execvp would find? */
static int findable(const char *name)
{
	if (strchr(name, '/'))
		return access(name, X_OK) == 0;
	const char *path = getenv("PATH");
	char buf[PATH_MAX];
	for (const char *s = path ? path : "/usr/bin:/bin"; *s;) {
		size_t n = strcspn(s, ":");
		if (snprintf(buf, sizeof(buf), "%.*s/%s", (int)n, s, name) < (int)sizeof(buf) &&
		    access(buf, X_OK) == 0)
			return 1;
		s += n + (s[n] == ':');
	}
	return 0;
}

static int check_input(struct record_cmd *c)
{
	struct stat st;
	if (!c->out)
		return cli_usage_error(CMD, "-o FILE is required (the loadfile to write)");
	if (lstat(c->out, &st) == 0)
		return cli_usage_error(CMD, "-o '%s': it exists (kbench record never overwrites a file)", c->out);
	/* its directory, checked before the program runs rather than after */
	char parent[PATH_MAX];
	snprintf(parent, sizeof(parent), "%s", c->out);
	char *slash = strrchr(parent, '/');
	if (slash)
		slash == parent ? (void)(slash[1] = '\0') : (void)(*slash = '\0');
	if (access(slash ? parent : ".", W_OK) != 0)
		return cli_usage_error(CMD, "-o '%s': cannot write in its directory: %s", c->out,
				       strerror(errno));
	if (!getcwd(c->cwd, sizeof(c->cwd)))
		return cli_usage_error(CMD, "cannot tell the current directory: %s", strerror(errno));
	if (c->from) {
		if (c->argv && c->argv[0])
			return cli_usage_error(CMD, "--from-strace takes no COMMAND");
		if (!c->dir)
			return cli_usage_error(CMD, "--from-strace needs -D DIR (the directory the log's program worked in)");
		if (c->dir[0] != '/')
			return cli_usage_error(CMD, "-D '%s': with --from-strace, an absolute path as the log names it", c->dir);
		snprintf(c->dirbuf, sizeof(c->dirbuf), "%s", c->dir);
		size_t n = strlen(c->dirbuf);
		while (n > 1 && c->dirbuf[n - 1] == '/')
			c->dirbuf[--n] = '\0';
		if (access(c->from, R_OK) != 0)
			return cli_usage_error(CMD, "--from-strace '%s': %s", c->from, strerror(errno));
		snprintf(c->how, sizeof(c->how), "converted from the strace log %s", c->from);
		return KB_EXIT_OK;
	}
	if (!c->argv || !c->argv[0])
		return cli_usage_error(CMD, "no COMMAND to record (kbench record -o FILE -- COMMAND [ARGS...])");
	const char *d = c->dir ? c->dir : ".";
	if (stat(d, &st) != 0)
		return cli_usage_error(CMD, "-D '%s': %s", d, strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return cli_usage_error(CMD, "-D '%s': not a directory", d);
	if (!realpath(d, c->dirbuf))
		return cli_usage_error(CMD, "-D '%s': %s", d, strerror(errno));
	if (!findable("strace"))
		return cli_usage_error(CMD, "strace is not installed (Debian: apt-get install strace)");
	if (!findable(c->argv[0]))
		return cli_usage_error(CMD, "'%s': command not found", c->argv[0]);
	size_t k = (size_t)snprintf(c->how, sizeof(c->how), "command:");
	for (int i = 0; c->argv[i] && k < sizeof(c->how) - 1; i++)
		k += (size_t)snprintf(c->how + k, sizeof(c->how) - k, " %s", c->argv[i]);
	return KB_EXIT_OK;
}

/* Run COMMAND under strace into c->log.  Returns KB_EXIT_OK, or an exit
 * status after one line on stderr. */
static int run_strace(struct record_cmd *c)
{
	int n = 0;
	while (c->argv[n])
		n++;
	const char **av = calloc((size_t)n + 16, sizeof(*av));
	if (!av)
		return KB_EXIT_FAIL;
	int k = 0;
	av[k++] = "strace";
	av[k++] = "-f";
	av[k++] = "-q";
	av[k++] = "-ttt";
	av[k++] = "-yy";
	av[k++] = "-s";
	av[k++] = "0";  /* no buffer contents: paths print whole all the same */
	av[k++] = "--seccomp-bpf";  /* stop only at the calls traced: the program runs faster */
	av[k++] = "-e";
	av[k++] = "trace=" TRACE_SET;
	av[k++] = "-e";
	av[k++] = "signal=none";
	av[k++] = "-o";
	av[k++] = c->log;
	av[k++] = "--";
	for (int i = 0; i < n; i++)
		av[k++] = c->argv[i];
	av[k] = NULL;
	struct sigaction ign = { .sa_handler = SIG_IGN }, oint, oterm;
	sigaction(SIGINT, &ign, &oint);  /* ^C reaches strace and the program; we wait for them */
	sigaction(SIGTERM, &ign, &oterm);
	pid_t pid = fork();
	if (pid == 0) {
		sigaction(SIGINT, &oint, NULL);
		sigaction(SIGTERM, &oterm, NULL);
		execvp("strace", (char *const *)av);
		_exit(127);
	}
	free(av);
	int st = 0;
	while (pid > 0 && waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	sigaction(SIGINT, &oint, NULL);
	sigaction(SIGTERM, &oterm, NULL);
	if (pid < 0) {
		fprintf(stderr, "%s: cannot start strace: %s\n", CMD, strerror(errno));
		return KB_EXIT_FAIL;
	}
	if (WIFSIGNALED(st)) {
		fprintf(stderr, "%s: '%s' was killed by signal %d: no loadfile written\n", CMD,
			c->argv[0], WTERMSIG(st));
		return 128 + WTERMSIG(st);
	}
	if (WEXITSTATUS(st) != 0) {
		struct stat ls;
		if (stat(c->log, &ls) != 0 || ls.st_size == 0)
			fprintf(stderr, "%s: strace could not trace '%s' (status %d; is ptrace allowed "
					"here?): no loadfile written\n", CMD, c->argv[0], WEXITSTATUS(st));
		else
			fprintf(stderr, "%s: '%s' failed (exit status %d): no loadfile written\n", CMD,
				c->argv[0], WEXITSTATUS(st));
		return KB_EXIT_USAGE;
	}
	return KB_EXIT_OK;
}

/* The loadfile: header, setup, the program's lines; made with O_EXCL,
 * written whole, removed again if writing fails. */
static int write_loadfile(struct record_cmd *c, struct rec *r, const char *body, size_t len)
{
	char *setup = NULL;
	size_t slen = 0;
	FILE *sf = open_memstream(&setup, &slen);
	if (!sf || rec_setup(r, sf) < 0 || fclose(sf) != 0) {
		fprintf(stderr, "%s: out of memory\n", CMD);
		return KB_EXIT_FAIL;
	}
	int fd = open(c->out, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
	if (!f) {
		fprintf(stderr, "%s: -o '%s': %s\n", CMD, c->out, strerror(errno));
		if (fd >= 0)
			close(fd);
		free(setup);
		return errno == EEXIST ? KB_EXIT_USAGE : KB_EXIT_FAIL;
	}
	rec_header(r, f, c->how);
	fprintf(f, "# the setup\n");
	fwrite(setup, 1, slen, f);
	fprintf(f, "# the program\n");
	fwrite(body, 1, len, f);
	free(setup);
	if (ferror(f) | (fclose(f) != 0)) {
		fprintf(stderr, "%s: -o '%s': cannot write it: %s\n", CMD, c->out, strerror(errno));
		unlink(c->out);
		return KB_EXIT_FAIL;
	}
	return KB_EXIT_OK;
}

static int convert(struct record_cmd *c, const char *log)
{
	struct rec r = { .dir = c->dirbuf, .dirlen = strlen(c->dirbuf), .start_cwd = c->cwd,
			 .full_sizes = c->full_sizes, .untimed = c->untimed };
	char *body = NULL;
	size_t len = 0;
	r.body = open_memstream(&body, &len);
	if (!r.body)
		return KB_EXIT_FAIL;
	int rc = rec_read_log(&r, log) < 0 ? KB_EXIT_USAGE : KB_EXIT_OK;
	if (fclose(r.body) != 0 && rc == KB_EXIT_OK)
		rc = KB_EXIT_FAIL;
	uint64_t ops = 0;
	for (int i = 0; i < R_NOPS; i++)
		ops += r.ops[i];
	if (rc == KB_EXIT_OK && !ops) {
		fprintf(stderr, "%s: no call on a file under %s among the %llu traced: no loadfile "
				"written\n", CMD, c->dirbuf, (unsigned long long)r.calls);
		rc = KB_EXIT_USAGE;
	}
	if (rc == KB_EXIT_OK) {
		rec_case_clashes(&r);
		rc = write_loadfile(c, &r, body, len);
	}
	if (rc == KB_EXIT_OK)
		rec_summary(&r, stdout, c->out);
	free(body);
	rec_free(&r);
	return rc;
}

static int record_main(struct record_cmd *c)
{
	int rc = check_input(c);
	if (rc != KB_EXIT_OK)
		return rc;
	if (c->from)
		return convert(c, c->from);
	if (cli_make_tmpdir(CMD, "kbench-record", c->tmp, sizeof(c->tmp)) < 0)
		return KB_EXIT_FAIL;
	snprintf(c->log, sizeof(c->log), "%s/strace.log", c->tmp);
	rc = run_strace(c);
	if (rc == KB_EXIT_OK)
		rc = convert(c, c->log);
	unlink(c->log);
	rmdir(c->tmp);
	return rc;
}

int cmd_record(int argc, const char **argv)
{
	struct record_cmd c = { 0 };
	struct poptOption options[] = {
		{ "output", 'o', POPT_ARG_STRING, &c.out, 0,
		  "the loadfile to write (must not exist)", "FILE" },
		{ "directory", 'D', POPT_ARG_STRING, &c.dir, 0,
		  "record the calls on files under DIR (default: the current directory)", "DIR" },
		{ "from-strace", 0, POPT_ARG_STRING, &c.from, 0,
		  "convert a log of strace -f -ttt -yy instead of running a command", "LOG" },
		{ "full-sizes", 0, POPT_ARG_NONE, &c.full_sizes, 0,
		  "write every file found there whole, at its recorded size, not only where ReadX reads", NULL },
		{ "untimed", 0, POPT_ARG_NONE, &c.untimed, 0,
		  "no times on the lines: a replay runs as fast as it can, not at the program's pace", NULL },
		POPT_AUTOHELP
		POPT_TABLEEND
	};
	poptContext ctx = poptGetContext(CMD, argc, argv, options, POPT_CONTEXT_POSIXMEHARDER);
	poptSetOtherOptionHelp(ctx, "-o FILE [-D DIR] -- COMMAND [ARGS...]\n"
				    "       kbench record --from-strace LOG -o FILE -D DIR");
	int rc = cli_popt_done(ctx, CMD, cli_popt_next(ctx, options));
	if (rc == KB_EXIT_OK) {
		c.argv = poptGetArgs(ctx);
		rc = record_main(&c);
	}
	poptFreeContext(ctx);
	free(c.out);
	free(c.dir);
	free(c.from);
	return rc;
}
