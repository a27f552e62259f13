/* kbench - kbench load --mpi in a kbench built with MPI: the run goes on
 * in kbench-mpi
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * configure --with-mpi builds two programs: kbench, which links no MPI
 * library (this file stands for the coordinator), and kbench-mpi (in
 * $(pkglibexecdir)), the same commands with the MPI coordinator
 * (coord_mpi.c, mpi.c, mpi_job.c) and Open MPI or MPICH linked.  A run
 * without --mpi never maps MPI's libraries (some MiB of text and their
 * relocated data, which every forked client would inherit); with --mpi
 * kbench executes kbench-mpi with its own arguments, before it has
 * parsed a loadfile, made a directory or caught a signal, and
 * kbench-mpi's coord_mpi_open() starts MPI.  The process stays the one
 * mpirun started (exec keeps its pid and environment).
 */
#include "config.h"
#include "cli.h"
#include "load/mpi/coord_mpi.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MPI_PROGRAM "kbench-mpi"

/* TOP/src/kbench-mpi when this binary is TOP/src/kbench (a build tree),
 * else the installed one, into buf. */
static void mpi_program(char *buf, size_t len)
{
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n > 0) {
		exe[n] = '\0';
		char *slash = strrchr(exe, '/');
		if (slash && slash - exe >= 4 && !strncmp(slash - 4, "/src", 4) &&
		    (size_t)snprintf(buf, len, "%.*s/" MPI_PROGRAM, (int)(slash - exe), exe) < len &&
		    access(buf, X_OK) == 0)
			return;
	}
	snprintf(buf, len, "%s/" MPI_PROGRAM, KBENCH_PKGLIBEXECDIR);
}

int coord_mpi_exec(const char *cmd, int argc, const char **argv)
{
	char prog[PATH_MAX];
	mpi_program(prog, sizeof(prog));
	const char **av = calloc((size_t)argc + 2, sizeof(*av));
	if (!av) {
		fprintf(stderr, "%s: --mpi: out of memory\n", cmd);
		return KB_EXIT_FAIL;
	}
	av[0] = prog;
	av[1] = "load";
	for (int i = 1; i < argc; i++)
		av[i + 1] = argv[i];
	fflush(NULL);
	execv(prog, (char *const *)av);
	fprintf(stderr, "%s: --mpi: cannot run %s: %s\n", cmd, prog, strerror(errno));
	free(av);
	return KB_EXIT_USAGE;
}

int coord_mpi_open(const char *cmd, const struct coord **co)
{
	(void)co;
	fprintf(stderr, "%s: --mpi: internal error: kbench runs --mpi in " MPI_PROGRAM "\n", cmd);
	return KB_EXIT_FAIL;
}
