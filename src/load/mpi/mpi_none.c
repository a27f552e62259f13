/* kbench - kbench load --mpi in a kbench built without MPI
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * configure without --with-mpi builds this instead of coord_mpi.c (and
 * mpi.c, mpi_job.c): --mpi is refused where the coordinator is chosen
 * (exit 2), so the binary links no MPI library.
 */
#include "config.h"
#include "cli.h"
#include "load/mpi/coord_mpi.h"

#include <stdio.h>

int coord_mpi_open(const char *cmd, const struct coord **co)
{
	(void)co;
	fprintf(stderr, "%s: --mpi: this kbench was built without MPI (configure --with-mpi)\n",
		cmd);
	return KB_EXIT_USAGE;
}

int coord_mpi_exec(const char *cmd, int argc, const char **argv)
{
	(void)cmd;
	(void)argc;
	(void)argv;
	return 0;  /* the coordinator is in this program */
}
