/* kbench - the local coordinator: a load run on its own
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The one participant agrees with itself: input reads the loadfile, a
 * status passes through, the start is now, a round is due at the end of
 * each second of the run (the progress line) and at once when its clients
 * have all exited, the run's figures are its own.  The watch loop looks
 * every 20 ms, and at each second's end.
 */
#include "config.h"
#include "load/run/coord.h"
#include "sys/clock.h"

#define LOOK_NS 20000000ull   /* between the watch loop's looks */

static struct {
	uint64_t t0;     /* the start */
	uint64_t sec;    /* seconds whose round is done */
	int final;       /* the round due is the last: the clients have gone */
} l;

static int local_input(struct load_opts *o, int status, coord_read_fn read, void *arg,
		       struct program *prog)
{
	(void)o;
	(void)prog;
	return status ? status : read(arg);
}

static int local_agree(int status)
{
	return status;
}

static int local_start(int ready, uint64_t *t0_ns, double *bound_ms)
{
	l.t0 = *t0_ns;
	l.sec = 0;
	l.final = 0;
	*bound_ms = 0;
	return ready ? 0 : 1;
}

static uint64_t local_due(uint64_t now, int done)
{
	if (done)
		l.final = 1;
	return done || now >= l.t0 + (l.sec + 1) * 1000000000ull ? l.sec + 1 : 0;
}

static int local_poll(const struct coord_round *mine, struct coord_round *run, uint64_t now,
		      int signalled)
{
	(void)now;
	(void)signalled;
	if (!mine)
		return 0;
	*run = *mine;
	run->done = mine->done;
	run->stop_rank = mine->stopped ? 0 : -1;
	run->sec = l.final ? 0 : ++l.sec;
	return 1;
}

static uint64_t local_wake(uint64_t now)
{
	uint64_t tick = l.t0 + (l.sec + 1) * 1000000000ull;
	return now + LOOK_NS < tick ? now + LOOK_NS : tick;
}

static int local_gather(struct run_result *res, unsigned nclients, int signalled)
{
	(void)res;
	(void)nclients;
	(void)signalled;
	return 0;
}

static void local_describe(FILE *out, unsigned clients_total, int stonewall)
{
	(void)out;
	(void)clients_total;
	(void)stonewall;
}

static void local_end(int status)
{
	(void)status;
}

static const struct coord local = {
	.rank = 0,
	.nparts = 1,
	.who = "",
	.subdir = NULL,
	.round_ns = 1000000000ull,
	.input = local_input,
	.agree = local_agree,
	.start = local_start,
	.due = local_due,
	.poll = local_poll,
	.wake = local_wake,
	.gather = local_gather,
	.describe = local_describe,
	.end = local_end,
};

const struct coord *coord_local(void)
{
	return &local;
}
