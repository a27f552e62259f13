/* kbench - the MPI coordinator of a load run (--mpi, --with-mpi)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What coord_mpi.h promises: load/run/coord.h's points over the ranks of a
 * job, through mpi.h (the agreements before the run, the end) and
 * mpi_job.h (the start, the rounds, the gather).  This file is the one
 * that knows how a job's figures travel; load.c and run.c see only the
 * coordinator.  What differs from a run on its own: every rank checks
 * its own command line and takes its share of --clients-total, rank 0
 * alone reads the loadfile, each rank runs in DIR/rank<r>, the job's
 * progress lines sum the ranks' figures every 0.1 s, and the job's
 * steal is not one machine's (none is given).
 */
#include "config.h"
#include "cli.h"
#include "load/run/coord.h"
#include "load/mpi/coord_mpi.h"
#include "load/mpi/mpi.h"
#include "load/mpi/mpi_job.h"
#include "load/options/options.h"
#include "load/record/record.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define LOOK_NS 5000000ull   /* between the watch loop's looks */

static char who[KBMPI_HOST_MAX + 32];   /* "rank R (HOST)" */
static char subdir[32];                 /* "rank<r>" */

/* Rank 0's options: every rank's share of the clients, then every rank
 * measures what rank 0 does (the options that define it, the loadfile's
 * bytes), before anything is read or made; then rank 0's program. */
static int mpi_input(struct load_opts *o, int status, coord_read_fn read, void *arg,
		     struct program *prog)
{
	/* every rank checks its own input; rank 0 alone reads the loadfile */
	if (!status)
		status = load_opts_share(o, kbmpi_rank(), kbmpi_size());
	status = kbmpi_agree(status);
	if (!status) {
		char *mine = load_opts_measure(o);
		if (!mine)
			fprintf(stderr, "%s: out of memory\n", o->cmd);
		status = kbmpi_same(mine, load_opts_differ);
		free(mine);
	}
	if (status)
		return status;
	if (kbmpi_rank() == 0)
		status = read(arg);
	return kbmpi_share_program(status, prog);
}

static int mpi_start(int ready, uint64_t *t0_ns, double *bound_ms)
{
	int j = kbmpi_start(ready, t0_ns);
	if (j > 0 && ready && kbmpi_rank() == 0)
		fprintf(stderr, "kbench load: a rank could not start its clients: "
			"the start is called off\n");
	*bound_ms = (double)kbmpi_offset_bound_ns() / 1e6;
	return j;
}

static uint64_t mpi_due(uint64_t now, int done)
{
	(void)done;  /* told in the next round */
	return kbmpi_due(now);
}

static int mpi_poll(const struct coord_round *mine, struct coord_round *run, uint64_t now,
		    int signalled)
{
	const uint64_t per_sec = 1000000000ull / KBMPI_ROUND_NS;
	struct kbmpi_round m, j;
	if (mine)
		m = (struct kbmpi_round){
			.ops_all = mine->ops_all, .bytes_all = mine->bytes_all, .sec = mine->sec,
			.sec_bytes = mine->sec_bytes, .sec_ops = mine->sec_ops,
			.sec_max_ns = mine->sec_max_ns, .end_at = mine->end_at, .lost = mine->lost,
			.done = mine->done, .stopped = mine->stopped, .stop_rank = -1,
			.dead_rank = -1,
		};
	int r = kbmpi_poll(mine ? &m : NULL, &j, now, signalled);
	if (r <= 0)
		return r;
	uint64_t k = kbmpi_round_no();
	*run = (struct coord_round){
		.sec = k % per_sec == 0 ? k / per_sec : 0,
		.ops_all = j.ops_all, .bytes_all = j.bytes_all, .sec_bytes = j.sec_bytes,
		.sec_ops = j.sec_ops, .sec_max_ns = j.sec_max_ns, .end_at = j.end_at,
		.left = UINT32_MAX,  /* the job's lines count every client to the end */
		.lost = j.lost, .done = j.done, .stopped = j.stopped, .stop_rank = j.stop_rank,
	};
	return 1;
}

static uint64_t mpi_wake(uint64_t now)
{
	return now + LOOK_NS;
}

static int mpi_gather(struct run_result *res, unsigned nclients, int signalled)
{
	/* the job spans machines: one machine's steal is no figure of it */
	res->steal_pct = NAN;
	res->other_cpu_pct = NAN;
	res->steal_notable = 0;
	return kbmpi_gather(res, nclients, signalled);
}

static void mpi_describe(FILE *out, unsigned clients_total, int stonewall)
{
	fprintf(out, "under MPI: %d ranks, %u clients in all (the figure above is rank "
		"0's); each rank in its own rank<r>/%s\n", kbmpi_size(), clients_total,
		stonewall ? "; --stonewall: all end when the first does" : "");
}

static struct coord job = {
	.round_ns = KBMPI_ROUND_NS,
	.input = mpi_input,
	.agree = kbmpi_agree,
	.start = mpi_start,
	.due = mpi_due,
	.poll = mpi_poll,
	.wake = mpi_wake,
	.gather = mpi_gather,
	.describe = mpi_describe,
	.end = kbmpi_end,
};

int coord_mpi_open(const char *cmd, const struct coord **co)
{
	int status = kbmpi_init(cmd);
	if (status)
		return status;
	job.rank = kbmpi_rank();
	job.nparts = kbmpi_size();
	snprintf(who, sizeof(who), "rank %d (%s)", job.rank, kbmpi_host(job.rank));
	snprintf(subdir, sizeof(subdir), "rank%d", job.rank);
	job.who = who;
	job.subdir = subdir;
	*co = &job;
	return 0;
}

int coord_mpi_exec(const char *cmd, int argc, const char **argv)
{
	(void)cmd;
	(void)argc;
	(void)argv;
	return 0;  /* the coordinator is in this program */
}
