/* kbench - benchmarks for kernel and filesystem testers: the command table
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * usage: kbench COMMAND [OPTIONS] [ARGS]
 * Every command is one row of the table below; its file begins with its
 * usage.  "kbench" alone or "kbench help" lists them.
 */
#include "config.h"
#include "commands.h"
#include "cli.h"
#include "compat/compat.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

static const struct kb_command commands[] = {
	{ "load", cmd_load, "replay a dbench-style loadfile with N clients; MB/sec and latency" },
	{ "disk", cmd_disk, "hdparm-style read timer: cached (-T), buffered (-t), O_DIRECT reads" },
	{ "micro", cmd_micro, "lmbench and BYTE UNIX microtests: latencies, bandwidths, index" },
	{ "suite", cmd_suite, "repeat load, disk and micro runs into one results file" },
	{ "server", cmd_server, "a tbench server (one process per connection) for load -B sockio and tbench" },
	{ "import", cmd_import, "read old BYTE, LMbench, dbench, tbench and hdparm reports into results files" },
	{ "record", cmd_record, "run a program under strace and write its file I/O as a loadfile" },
	{ "compare", cmd_compare, "compare results files: change and whether it is beyond the noise" },
	{ NULL, NULL, NULL },
};

static void list_commands(FILE *f)
{
	fprintf(f, "usage: kbench COMMAND [OPTIONS] [ARGS]\n"
		   "       kbench help [COMMAND]\n"
		   "       kbench --version\n\n"
		   "commands:\n");
	for (const struct kb_command *c = commands; c->name; c++)
		fprintf(f, "  %-10s %s\n", c->name, c->help);
	fprintf(f, "\n'kbench COMMAND --help' describes a command's options.\n");
}

static const struct kb_command *find(const char *name)
{
	for (const struct kb_command *c = commands; c->name; c++)
		if (!strcmp(c->name, name))
			return c;
	return NULL;
}

static int run(const struct kb_command *c, int argc, const char **argv)
{
	char name[64];
	snprintf(name, sizeof(name), "kbench %s", c->name);
	argv[0] = name;
	int status = c->fn(argc, argv);
	/* SIGPIPE is ignored (cli.h): an output nobody read is a failure */
	if ((fflush(stdout) == EOF || ferror(stdout)) && status == 0) {
		fprintf(stderr, "%s: cannot write the output: %s\n", name, strerror(errno));
		status = 1;
	}
	return status;
}

int main(int argc, char **argv)
{
	const char **av = (const char **)argv;
	compat_fn personality = compat_find(argv[0]);
	/* the stop signals' actions as kbench got them, before any library
	 * can change one (cli.h): one rule for every command and personality,
	 * a signal ignored at the start stays ignored, SIGINT too (a shell
	 * without job control ignores it in its background commands) */
	cli_note_start_signals();
	cli_ignore_sigpipe();
	if (personality)  /* started as dbench, tbench, tbench_srv or hdparm */
		return personality(argc, argv);
	if (argc < 2) {
		list_commands(stdout);
		return 0;
	}
	const char *cmd = av[1];
	if (!strcmp(cmd, "--version") || !strcmp(cmd, "-V")) {
		printf("kbench %s\n", PACKAGE_VERSION);
		return 0;
	}
	if (!strcmp(cmd, "help") || !strcmp(cmd, "--help") || !strcmp(cmd, "-h") ||
	    !strcmp(cmd, "-?")) {
		if (argc > 2 && find(av[2])) {
			const char *sub[] = { NULL, "--help", NULL };
			return run(find(av[2]), 2, sub);
		}
		if (argc > 2) {
			fprintf(stderr, "kbench: unknown command '%s'\n", av[2]);
			list_commands(stderr);
			return 2;
		}
		list_commands(stdout);
		return 0;
	}
	const struct kb_command *c = find(cmd);
	if (!c) {
		fprintf(stderr, "kbench: unknown command '%s'\n\n", cmd);
		list_commands(stderr);
		return 2;
	}
	return run(c, argc - 1, av + 1);
}
