/* kbench - micro: the lmbench timing harness (see harness.h)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every timed interval is bracketed by two CLOCK_MONOTONIC reads; one
 * read's cost and the empty loop's cost per repetition are taken away
 * (lmbench: t_overhead() and l_overhead()).  Calibration runs double as
 * the warm-up; one more untimed interval at the final count follows.
 */
#include "config.h"
#include "cli.h"
#include "micro/harness.h"
#include "stats/summary.h"
#include "sys/clock.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

double harness_net_ns(double elapsed_ns, uint64_t iters, double clock_ns, double loop_ns)
{
	double net = elapsed_ns - clock_ns - (double)iters * loop_ns;
	return net > 0 ? net : 0;
}

uint64_t harness_next_iters(uint64_t iters, double elapsed_ns, double enough_ns,
			    uint64_t max_iters)
{
	double next;
	if (!(elapsed_ns > 0) || elapsed_ns < enough_ns / 100)
		next = (double)iters * 10;
	else {
		next = (double)iters * 1.25 * enough_ns / elapsed_ns;
		if (next > (double)iters * 10)
			next = (double)iters * 10;
		if (next < (double)iters + 1)
			next = (double)iters + 1;
	}
	if (next >= (double)max_iters)
		return max_iters;
	return (uint64_t)next;
}

double harness_scale(enum harness_unit unit, double net_ns, uint64_t iters, double ops,
		     double bytes)
{
	if (!(net_ns > 0) || !iters)
		return NAN;
	switch (unit) {
	case HARNESS_US:
		return ops > 0 ? net_ns / (double)iters / ops / 1e3 : NAN;
	case HARNESS_NS:
		return ops > 0 ? net_ns / (double)iters / ops : NAN;
	case HARNESS_MBPS:
		/* bytes / (net_ns / 1e9) / 1e6 */
		return bytes > 0 ? bytes * (double)iters * 1e3 / net_ns : NAN;
	}
	return NAN;
}

double harness_placed_enough_s(double enough_s)
{
	double e = enough_s * HARNESS_PLACED_ENOUGH;
	double cap = enough_s > HARNESS_PLACED_CAP_S ? enough_s : HARNESS_PLACED_CAP_S;
	return e < cap ? e : cap;
}

double harness_enough_ns(const struct micro_opts *o)
{
	double e = o->enough_s > 0 ? o->enough_s : 0.005;
	return (o->place_ncpu ? harness_placed_enough_s(e) : e) * 1e9;
}

int harness_summarize(const double *v, unsigned n, struct micro_result *r)
{
	struct summary s;
	if (!n || summary_of(v, n, &s) < 0)
		return -1;
	r->value = s.median;
	r->min = s.min;
	r->max = s.max;
	r->cov_pct = s.cov_pct;
	r->samples = (unsigned)n;
	r->sample_s = 0;
	return 0;
}

/* The empty loop: the same counting a run() does, nothing in it. */
__attribute__((noinline)) static void empty_loop(uint64_t iters)
{
	for (uint64_t i = 0; i < iters; i++)
		__asm__ __volatile__("" ::: "memory");
}

static double clock_cost = -1, loop_cost = -1;

double harness_clock_ns(void)
{
	if (clock_cost >= 0)
		return clock_cost;
	double best = INFINITY;
	for (int t = 0; t < 5; t++) {
		const unsigned n = 10000;
		uint64_t t0 = kb_now_ns();
		for (unsigned i = 0; i < n; i++)
			(void)kb_now_ns();
		double per = (double)(kb_now_ns() - t0) / (n + 1);
		if (per < best)
			best = per;
	}
	return clock_cost = best;
}

double harness_loop_ns(void)
{
	if (loop_cost >= 0)
		return loop_cost;
	double best = INFINITY;
	for (int t = 0; t < 5; t++) {
		const uint64_t n = 1000000;
		uint64_t t0 = kb_now_ns();
		empty_loop(n);
		double per = (double)(kb_now_ns() - t0) / (double)n;
		if (per < best)
			best = per;
	}
	return loop_cost = best;
}

/* One interval of iters repetitions: before, timed run, after.  Returns
 * the elapsed ns of run(), or -1. */
static double interval(const struct harness_bench *b, uint64_t iters, char *why)
{
	if (b->before && b->before(b->ctx, iters, why) < 0)
		return -1;
	uint64_t t0 = kb_now_ns();
	int rc = b->run(b->ctx, iters, why);
	uint64_t t1 = kb_now_ns();
	if (b->after) {
		/* after() still cleans up when run() failed, but run()'s reason
		 * is the one kept (after() may fail only because run() did) */
		char spare[160];
		if (b->after(b->ctx, iters, rc < 0 ? spare : why) < 0)
			return -1;
	}
	return rc < 0 ? -1 : (double)(t1 - t0);
}

int harness_measure(const struct micro_opts *o, const struct harness_bench *b,
		    struct harness_samples *s, char *why)
{
	const double enough = harness_enough_ns(o);
	const uint64_t max_iters = b->max_iters ? b->max_iters : HARNESS_MAX_ITERS;
	unsigned want = o->intervals ? o->intervals : 11;
	if (want > HARNESS_MAX_INTERVALS)
		want = HARNESS_MAX_INTERVALS;
	double cns = harness_clock_ns(), lns = harness_loop_ns();
	uint64_t iters = 1;
	double t;

	why[0] = '\0';
	memset(s, 0, sizeof(*s));
	if (interval(b, 1, why) < 0)                    /* warm-up */
		return -1;
	for (;;) {
		if ((t = interval(b, iters, why)) < 0)
			return -1;
		if (t >= enough || iters >= max_iters)
			break;
		iters = harness_next_iters(iters, t, enough, max_iters);
	}
	if (interval(b, iters, why) < 0)                /* warm at the final count */
		return -1;
	s->iters = iters;
	for (unsigned i = 0; i < want; i++) {
		if ((t = interval(b, iters, why)) < 0)
			return -1;
		double net = harness_net_ns(t, iters, cns, lns);
		double v = harness_scale(b->unit, net, iters, b->ops_per_iter, b->bytes_per_iter);
		if (!isfinite(v)) {
			snprintf(why, 160, "the clock and loop overhead (%.0f ns) is not smaller "
				 "than the interval (%.0f ns); no figure", cns + (double)iters * lns, t);
			return -1;
		}
		s->v[s->n++] = v;
	}
	return 0;
}

int harness_run(const struct micro_opts *o, const struct harness_bench *b,
		struct micro_result *r)
{
	struct harness_samples s;
	char why[160];
	if (harness_measure(o, b, &s, why) < 0 || harness_summarize(s.v, s.n, r) < 0) {
		snprintf(r->skipped, sizeof(r->skipped), "%s", why[0] ? why : "no samples");
		return -1;
	}
	return 0;
}

/* ---- children ---- */

#define MAX_CHILDREN MICRO_MAX_CHILDREN
static volatile pid_t children[MAX_CHILDREN];

static int child_slot_free(void)
{
	for (int i = 0; i < MAX_CHILDREN; i++)
		if (!children[i])
			return 1;
	return 0;
}

void micro_child_add(pid_t pid)
{
	for (int i = 0; i < MAX_CHILDREN; i++)
		if (!children[i]) {
			children[i] = pid;
			return;
		}
}

void micro_child_del(pid_t pid)
{
	for (int i = 0; i < MAX_CHILDREN; i++)
		if (children[i] == pid) {
			children[i] = 0;   /* a pid is in one slot at most */
			return;
		}
}

pid_t micro_fork(void)
{
	pid_t parent = getpid();
	if (!child_slot_free()) {     /* a child not noted could outlive a stop */
		errno = EAGAIN;
		return -1;
	}
	pid_t pid = fork();
	if (pid == 0) {
		cli_default_stop_signals();   /* not the parent's cleanup */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != parent)   /* the parent died before the prctl */
			_exit(1);
	} else if (pid > 0) {
		micro_child_add(pid);
	}
	return pid;
}

int micro_reap(pid_t pid)
{
	int st;
	pid_t w;
	while ((w = waitpid(pid, &st, 0)) < 0 && errno == EINTR)
		;
	micro_child_del(pid);
	return w == pid ? st : -1;
}

void micro_kill_children(void)
{
	for (int i = 0; i < MAX_CHILDREN; i++) {
		pid_t pid = children[i];
		if (pid > 0)
			kill(pid, SIGKILL);
	}
	for (int i = 0; i < MAX_CHILDREN; i++) {
		pid_t pid = children[i];
		if (pid > 0) {
			while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
				;
			children[i] = 0;
		}
	}
}

int micro_write_all(int fd, const void *buf, size_t n)
{
	const char *p = buf;
	while (n) {
		ssize_t w = write(fd, p, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w == 0)
			errno = ENOSPC;   /* nothing taken: treat as full */
		if (w <= 0)
			return -1;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

int micro_read_all(int fd, void *buf, size_t n)
{
	char *p = buf;
	while (n) {
		ssize_t g = read(fd, p, n);
		if (g < 0 && errno == EINTR)
			continue;
		if (g == 0)
			errno = EPIPE;
		if (g <= 0)
			return -1;
		p += g;
		n -= (size_t)g;
	}
	return 0;
}
