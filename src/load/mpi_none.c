/* kbench - kbench load --mpi in a kbench built without MPI
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * configure without --with-mpi builds this instead of mpi.c: --mpi is
 * refused at kbmpi_init (exit 2), so nothing else here is ever reached
 * and the binary links no MPI library.
 */
#include "config.h"
#include "cli.h"
#include "load/mpi.h"
#include "load/run.h"

#include <stdio.h>

int kbmpi_built(void)
{
	return 0;
}

int kbmpi_init(const char *cmd)
{
	fprintf(stderr, "%s: --mpi: this kbench was built without MPI (configure --with-mpi)\n",
		cmd);
	return KB_EXIT_USAGE;
}

int kbmpi_active(void)
{
	return 0;
}

int kbmpi_rank(void)
{
	return 0;
}

int kbmpi_size(void)
{
	return 1;
}

const char *kbmpi_host(int r)
{
	(void)r;
	return "?";
}

int kbmpi_agree(int status)
{
	return status;
}

int kbmpi_same(const char *mine, kbmpi_differ_fn differs)
{
	(void)differs;
	return mine ? 0 : KB_EXIT_FAIL;
}

int kbmpi_share_program(int status, struct program *prog)
{
	(void)prog;
	return status;
}

int kbmpi_start(int ready, uint64_t *t0_ns)
{
	*t0_ns = kb_now_ns();
	return ready ? 0 : 1;
}

uint64_t kbmpi_offset_bound_ns(void)
{
	return 0;
}

uint64_t kbmpi_due(uint64_t now)
{
	(void)now;
	return 0;
}

int kbmpi_poll(const struct kbmpi_round *mine, struct kbmpi_round *job, uint64_t now,
	       int signalled)
{
	(void)mine;
	(void)job;
	(void)now;
	(void)signalled;
	return 0;
}

uint64_t kbmpi_round_no(void)
{
	return 0;
}

int kbmpi_gather(struct run_result *res, unsigned nclients, int signalled)
{
	(void)res;
	(void)nclients;
	(void)signalled;
	return 0;
}

int kbmpi_broken(void)
{
	return 0;
}

void kbmpi_end(int status)
{
	(void)status;
}
