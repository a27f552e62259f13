/* kbench - the MPI coordinator of a load run (--mpi)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The ranks of a job under mpirun as the participants of one run
 * (load/run/coord.h): rank 0's options and program shared, the clocks'
 * offsets and one start, a round every 0.1 s, the ranks' results gathered
 * into rank 0's.  Built with --with-mpi this is coord_mpi.c, over
 * mpi.c and mpi_job.c; without it mpi_none.c, which refuses --mpi.
 */
#ifndef KBENCH_LOAD_COORD_MPI_H
#define KBENCH_LOAD_COORD_MPI_H

struct coord;

/* MPI started (kbmpi_init) and this rank's coordinator in *co.  cmd names
 * the command in messages.  Returns 0, or KB_EXIT_USAGE when this kbench
 * was built without MPI or MPI cannot start (said on stderr). */
int coord_mpi_open(const char *cmd, const struct coord **co);

/* Called for --mpi before coord_mpi_open, with cmd_load's argc and argv
 * (argv[0] the command's name, then its arguments).  In kbench built
 * --with-mpi (mpi_exec.c), which links no MPI library, it executes
 * kbench-mpi (beside it in a build tree's src/, else in $(pkglibexecdir))
 * as "kbench-mpi load ARGS...", and returns only when that fails:
 * KB_EXIT_USAGE (said on stderr) or KB_EXIT_FAIL when out of memory.
 * In kbench-mpi (coord_mpi.c) and in a build without MPI (mpi_none.c) it
 * returns 0 at once: go on to coord_mpi_open. */
int coord_mpi_exec(const char *cmd, int argc, const char **argv);

#endif
