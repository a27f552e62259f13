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

#endif
