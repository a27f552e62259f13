/* kbench - micro: fixed-duration counting, the BYTE UNIX Benchmarks way
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"
#include "micro/byte/harness_fixed.h"
#include "micro/byte/byteindex.h"
#include "micro/harness.h"
#include "stats/summary.h"
#include "sys/clock.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define QUICK_SAMPLE_S 0.2
#define QUICK_SAMPLES 3
#define REPORT_SLACK_S 60.0     /* beyond the sample's duration */
#define SETUP_LIMIT_S 60.0      /* for every copy to be ready */

double fixed_sample_seconds(const struct micro_opts *o, enum fixed_class c)
{
	if (o->quick)
		return QUICK_SAMPLE_S;
	double d = o->duration_s > 0 ? o->duration_s : 10.0;
	switch (c) {
	case FIXED_HANOI:
		return 2 * d;
	case FIXED_LONG:
		return 3 * d;
	case FIXED_SHELL:
		return 6 * d;
	case FIXED_SHORT:
	case FIXED_SHORT3:
		break;
	}
	return d;
}

unsigned fixed_sample_count(const struct micro_opts *o, enum fixed_class c)
{
	if (o->quick)
		return QUICK_SAMPLES;
	return c == FIXED_SHORT ? 10 : 3;
}

int fixed_fill_result(const double *v, const double *t, size_t n, struct micro_result *r)
{
	if (n == 0)
		return -1;
	for (size_t i = 0; i < n; i++)
		if (!isfinite(v[i]) || !(v[i] > 0) || !isfinite(t[i]))
			return -1;
	unsigned kept = 0;
	double value = byte_combine_samples(v, n, &kept);
	if (isnan(value))
		return -1;
	/* the kept samples are the n - n/3 highest rates: their mean time */
	size_t *ord = malloc(n * sizeof *ord);
	if (!ord)
		return -1;
	for (size_t i = 0; i < n; i++)
		ord[i] = i;
	for (size_t i = 1; i < n; i++)         /* insertion sort by rate, n is small */
		for (size_t j = i; j > 0 && v[ord[j - 1]] > v[ord[j]]; j--) {
			size_t x = ord[j];
			ord[j] = ord[j - 1];
			ord[j - 1] = x;
		}
	double tsum = 0;
	for (size_t i = n / 3; i < n; i++)
		tsum += t[ord[i]];
	free(ord);
	struct summary s;
	if (summary_of(v, n, &s))
		return -1;
	r->value = value;
	r->samples = kept;
	r->sample_s = tsum / (double)kept;
	r->min = s.min;
	r->max = s.max;
	r->cov_pct = n < 2 ? NAN : s.cov_pct;
	return 0;
}

void fixed_window_init(struct fixed_window *w)
{
	w->work = 0;
	w->first = INFINITY;
	w->last = -INFINITY;
}

void fixed_window_add(struct fixed_window *w, double amount, double start, double seconds)
{
	w->work += amount;
	if (start < w->first)
		w->first = start;
	if (start + seconds > w->last)
		w->last = start + seconds;
}

int fixed_window_rate(const struct fixed_window *w, double per, double *rate, double *secs)
{
	*rate = *secs = 0;
	if (!(w->last > w->first))
		return -1;
	*secs = w->last - w->first;
	*rate = w->work * per / *secs;
	return 0;
}

/* What a copy sends back: one write, smaller than PIPE_BUF. */
struct copy_report {
	int status;          /* 0 figure, 1 cannot run here, -1 failed */
	double amount;
	double start;        /* CLOCK_MONOTONIC seconds (one clock for every process) */
	double seconds;
	char err[160];
};

static volatile sig_atomic_t stop_flag;

static void on_alarm(int sig)
{
	(void)sig;
	stop_flag = 1;
}

/* One copy, in its own process; never returns. */
static void copy_main(const struct fixed_ops *ops, const void *arg, const struct micro_opts *o,
		      double dur, int ready_fd, int barrier_fd, int result_fd)
{
	struct copy_report rep;
	memset(&rep, 0, sizeof rep);
	signal(SIGPIPE, SIG_IGN);
	void *state = NULL;
	int rc = ops->setup ? ops->setup(arg, o, &state, rep.err, sizeof rep.err) : 0;
	char ready = rc == 0 ? 'R' : 'F';
	(void)micro_write_all(ready_fd, &ready, 1);
	if (rc != 0) {
		if (ops->cleanup)
			ops->cleanup(state);
		rep.status = rc > 0 ? 1 : -1;
		(void)micro_write_all(result_fd, &rep, sizeof rep);
		_exit(0);
	}
	char c;
	ssize_t got;
	while ((got = read(barrier_fd, &c, 1)) < 0 && errno == EINTR)
		;
	if (got != 0) {       /* the parent went away or gave up */
		if (ops->cleanup)
			ops->cleanup(state);
		_exit(1);
	}

	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_alarm;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGALRM, &sa, NULL);
	stop_flag = 0;
	struct itimerval it;
	memset(&it, 0, sizeof it);
	it.it_value.tv_sec = (time_t)dur;
	it.it_value.tv_usec = (suseconds_t)((dur - (double)(time_t)dur) * 1e6);
	if (it.it_value.tv_sec == 0 && it.it_value.tv_usec == 0)
		it.it_value.tv_usec = 1;
	double t0 = kb_now_s();
	setitimer(ITIMER_REAL, &it, NULL);
	double amount = 0;
	rc = ops->run(state, arg, &stop_flag, &amount, rep.err, sizeof rep.err);
	double t1 = kb_now_s();
	memset(&it, 0, sizeof it);
	setitimer(ITIMER_REAL, &it, NULL);
	if (ops->cleanup)
		ops->cleanup(state);
	rep.status = rc == 0 ? 0 : -1;
	rep.amount = amount;
	rep.start = t0;
	rep.seconds = t1 - t0;
	if (rc == 0 && !(amount > 0 && isfinite(amount))) {
		rep.status = -1;
		snprintf(rep.err, sizeof rep.err, "no loop completed");
	}
	(void)micro_write_all(result_fd, &rep, sizeof rep);
	_exit(0);
}

/* Read exactly n bytes from fd before the monotonic deadline.
 * Returns 0, -1 on timeout or error, -2 at end of file. */
static int read_until(int fd, void *buf, size_t n, double deadline)
{
	char *p = buf;
	while (n > 0) {
		double left = deadline - kb_now_s();
		if (left <= 0)
			return -1;
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		int pr = poll(&pfd, 1, (int)(left * 1000) + 1);
		if (pr < 0 && errno == EINTR)
			continue;
		if (pr <= 0)
			return -1;
		ssize_t got = read(fd, p, n);
		if (got < 0 && errno == EINTR)
			continue;
		if (got == 0)
			return -2;
		if (got < 0)
			return -1;
		p += got;
		n -= (size_t)got;
	}
	return 0;
}

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

/* Read each of the copies' reports from fd, dur + REPORT_SLACK_S at most,
 * and add their work to win.  Returns 0; 1 when a copy could not run
 * here, -1 when one failed (err gets the first reason; every copy
 * reported either way); -2 when a copy ended or stayed silent without a
 * report (err says which). */
static int read_reports(int fd, unsigned copies, double dur, struct fixed_window *win,
			char *err, size_t errlen)
{
	double deadline = kb_now_s() + dur + REPORT_SLACK_S;
	int skipped = 0, failed = 0;
	for (unsigned i = 0; i < copies; i++) {
		struct copy_report rep;
		int rr = read_until(fd, &rep, sizeof rep, deadline);
		if (rr == -2) {
			snprintf(err, errlen, "a copy ended without a report");
			return -2;
		}
		if (rr) {
			snprintf(err, errlen, "a copy did not report within %.0f s (killed)",
				 dur + REPORT_SLACK_S);
			return -2;
		}
		rep.err[sizeof rep.err - 1] = '\0';
		if (rep.status != 0) {
			if (!skipped && !failed)
				snprintf(err, errlen, "%s", rep.err[0] ? rep.err : "failed");
			if (rep.status > 0)
				skipped = 1;
			else
				failed = 1;
			continue;
		}
		if (!(rep.seconds > 0)) {
			failed = 1;
			snprintf(err, errlen, "a copy took no time");
			continue;
		}
		fixed_window_add(win, rep.amount, rep.start, rep.seconds);
	}
	return failed ? -1 : skipped ? 1 : 0;
}

/* One sample of `copies` copies.  Returns 0 with *rate, *secs and *work
 * (the copies' amounts added up), 1 when the test cannot run here, -1 on
 * failure; err gets the reason. */
static int run_sample(const struct fixed_ops *ops, const void *arg, const struct micro_opts *o,
		      double dur, unsigned copies, double per, double *rate, double *secs,
		      double *work, char *err, size_t errlen)
{
	int ready[2] = { -1, -1 }, barrier[2] = { -1, -1 }, result[2] = { -1, -1 };
	pid_t *pids = calloc(copies, sizeof *pids);
	int ret = -1;
	bool all_reported = false;      /* else the copies still there are killed */
	unsigned started = 0;
	*rate = *secs = *work = 0;
	if (!pids) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	if (pipe2(ready, O_CLOEXEC) || pipe2(barrier, O_CLOEXEC) || pipe2(result, O_CLOEXEC)) {
		snprintf(err, errlen, "pipe: %s", strerror(errno));
		goto out;
	}
	fflush(NULL);
	for (; started < copies; started++) {
		pid_t p = micro_fork();     /* killed with kbench micro, dies with it */
		if (p < 0) {
			int e = errno;
			snprintf(err, errlen, "fork of copy %u: %s", started + 1, strerror(e));
			if (e == EAGAIN)        /* the process limit: cannot run here */
				ret = 1;
			goto out;
		}
		if (p == 0) {
			close(ready[0]);
			close(barrier[1]);
			close(result[0]);
			copy_main(ops, arg, o, dur, ready[1], barrier[0], result[1]);
		}
		pids[started] = p;
	}
	close_fd(&ready[1]);
	close_fd(&barrier[0]);
	close_fd(&result[1]);

	double deadline = kb_now_s() + SETUP_LIMIT_S;
	for (unsigned i = 0; i < copies; i++) {
		char c;
		int rr = read_until(ready[0], &c, 1, deadline);
		if (rr) {
			if (rr == -2)
				snprintf(err, errlen, "a copy ended during its setup");
			else
				snprintf(err, errlen, "a copy did not get ready within %.0f s",
					 SETUP_LIMIT_S);
			goto out;
		}
	}
	close_fd(&barrier[1]);          /* go */

	/* the sample's rate: the work of every copy over the common window */
	struct fixed_window win;
	fixed_window_init(&win);
	ret = read_reports(result[0], copies, dur, &win, err, errlen);
	if (ret == -2) {
		ret = -1;
		goto out;
	}
	all_reported = true;
	if (ret == 0 && fixed_window_rate(&win, per, rate, secs) < 0) {
		snprintf(err, errlen, "the copies took no time");
		ret = -1;
	}
	*work = ret == 0 ? win.work : 0;
out:
	close_fd(&ready[0]);
	close_fd(&ready[1]);
	close_fd(&barrier[0]);
	close_fd(&barrier[1]);
	close_fd(&result[0]);
	close_fd(&result[1]);
	for (unsigned i = 0; i < started; i++) {
		if (!all_reported)
			kill(pids[i], SIGKILL);
		int st = micro_reap(pids[i]);
		if (ret == 0 && !(st != -1 && WIFEXITED(st) && WEXITSTATUS(st) == 0)) {
			ret = -1;
			if (WIFSIGNALED(st))
				snprintf(err, errlen, "copy %u killed by signal %d", i + 1, WTERMSIG(st));
			else
				snprintf(err, errlen, "copy %u exited with status %d", i + 1,
					 WIFEXITED(st) ? WEXITSTATUS(st) : -1);
		}
	}
	free(pids);
	return ret;
}

int fixed_run(const struct fixed_ops *ops, const void *arg, const struct micro_opts *o,
	      enum fixed_class c, double per, struct micro_result *r)
{
	unsigned copies = o->copies ? o->copies : 1;
	unsigned n = fixed_sample_count(o, c);
	double dur = fixed_sample_seconds(o, c);
	double rates[16], times[16];
	char err[sizeof r->skipped];

	r->value = NAN;
	r->min = r->max = r->cov_pct = NAN;
	r->samples = 0;
	r->sample_s = 0;
	r->work = 0;
	r->skipped[0] = '\0';
	if (n > sizeof rates / sizeof rates[0])
		n = sizeof rates / sizeof rates[0];
	for (unsigned i = 0; i < n; i++) {
		err[0] = '\0';
		double work = 0;
		int rc = run_sample(ops, arg, o, dur, copies, per, &rates[i], &times[i], &work, err,
				    sizeof err);
		if (rc == 1) {
			snprintf(r->skipped, sizeof r->skipped, "%s", err[0] ? err : "cannot run here");
			return 0;
		}
		if (rc != 0) {
			snprintf(r->skipped, sizeof r->skipped, "%s", err[0] ? err : "failed");
			return -1;
		}
		r->work += work;
	}
	if (fixed_fill_result(rates, times, n, r)) {
		snprintf(r->skipped, sizeof r->skipped, "no usable sample");
		return -1;
	}
	return 0;
}
