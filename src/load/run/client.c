/* kbench - the client replay loop
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A client process reads the shared program through a small window (the
 * program lives once in a memfd, not once per client), carries out each
 * op through the backend's table, times it, and records the outcome in
 * its own slot of the shared region.  With --clients-per-process K, one
 * process interleaves K clients one op at a time.
 */
#include "config.h"
#include "load/loadfile/progread.h"
#include "cli.h"
#include "load/report/dbench_form.h"
#include "load/run/client.h"
#include "load/record/record.h"
#include "sys/fsutil.h"
#include "sys/clock.h"
#include "sys/textgroup.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define WINDOW 128           /* ops per read of the program: 6 KiB unpacked */

struct client {
	unsigned id;
	struct client_stats *st;
	struct backend_ctx ctx;
	struct op win[WINDOW];
	struct prog_cursor cur;  /* where the next window starts */
	size_t win_n;            /* ops in win */
	size_t pos;              /* next op in win */
	uint64_t pass_t0;        /* when this pass started, ns */
	uint64_t start_ns;       /* when the client started (for -R) */
	uint64_t last_ns;        /* completion time of the last op */
	uint64_t wait_until;     /* waiting for this time (ns), 0 if not */
	uint64_t sched_next;     /* when the next op is due if it has no due time of
				  * its own: when the last op was due plus how long
				  * it took (a Sleep: nothing), ns */
	int rate_due;            /* -R: the last op moved bytes, so the next is due
				  * when the rate allows it */
	int solo;                /* the only client of its process */
	int opened;              /* the backend's client_open succeeded */
	int done;
};

/* One clock read per op: the end of an op is the start of the next one
 * the process carries out, when nothing (no system call, no wait) came
 * between them; the bookkeeping between two ops, a few tens of ns, counts
 * towards the second. */
struct pclock {
	uint64_t now;            /* the last reading, ns */
	int fresh;               /* nothing has happened since it */
};

KB_CLIENT_TEXT
static inline uint64_t clock_read(struct pclock *k)
{
	k->now = kb_now_ns();
	k->fresh = 1;
	return k->now;
}

/* Now, from the last reading if nothing has happened since. */
KB_CLIENT_TEXT
static inline uint64_t clock_now(struct pclock *k)
{
	return k->fresh ? k->now : clock_read(k);
}

KB_CLIENT_TEXT
void sleep_until(uint64_t t, volatile int *stop)
{
	for (;;) {
		uint64_t now = kb_now_ns();
		if (now >= t || (stop && *stop))
			return;
		uint64_t step = t - now;
		if (step > 50000000ull)
			step = 50000000ull;
		now += step;
		struct timespec ts = { (time_t)(now / 1000000000ull), (long)(now % 1000000000ull) };
		/* the clock kb_now_ns() reads: t is one of its readings */
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
	}
}

KB_CLIENT_TEXT
static void record_error(struct client_stats *st, const struct op *op, int err)
{
	st->errors++;
	for (uint32_t i = 0; i < st->nerr_slots; i++) {
		if (st->errs[i].line == op->line && st->errs[i].err == err) {
			st->errs[i].count++;
			return;
		}
	}
	if (st->nerr_slots == ERR_SLOTS) {
		st->errors_unlisted++;
		return;
	}
	struct err_slot *e = &st->errs[st->nerr_slots++];
	e->line = op->line;
	e->code = op->code;
	e->expect = op->expect;
	e->err = err;
	e->count = 1;
}

/* Load the next window (from op 0 when restart).  Returns ops loaded. */
KB_CLIENT_TEXT
static long load_window(struct client *c, const struct program *prog, int restart)
{
	if (restart)
		prog_cursor_start(&c->cur);
	long n = prog_read_ops(prog, &c->cur, c->win, WINDOW);
	if (n < 0)
		return -1;
	c->win_n = (size_t)n;
	c->pos = 0;
	return n;
}

KB_CLIENT_TEXT
static int setup_client(struct client *c, const struct run_config *cfg, const struct run_shared *sh)
{
	c->ctx.id = c->id;
	c->ctx.end_ns = &sh->end_ns;
	c->ctx.rootfd = cfg->rootfd;
	c->ctx.prog = cfg->prog;
	c->ctx.opts = &cfg->bopts;
	c->ctx.nhandles = cfg->prog->nhandles;
	c->ctx.iobuf = malloc(cfg->prog->max_io ? cfg->prog->max_io : 1);
	if (!c->ctx.iobuf)
		return ENOMEM;
	if (cfg->backend->client_open) {
		int e = cfg->backend->client_open(&c->ctx);
		if (e)
			return e;
		c->opened = 1;
	}
	/* written data: a fixed non-zero pattern, so that compressing or
	 * zero-detecting filesystems do not get an easy ride */
	uint32_t x = 0x9e3779b9u ^ c->id;
	for (uint32_t i = 0; i < cfg->prog->max_io; i++) {
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		c->ctx.iobuf[i] = (char)x;
	}
	if (load_window(c, cfg->prog, 1) <= 0)
		return errno ? errno : EIO;
	return 0;
}

/* The second (from t0) an op completed in gets its latency and bytes, so
 * the progress line of each second says what happened in it, however late
 * the parent reads it.  A slot is claimed by storing its tag last; while
 * it is emptied its tag is UINT64_MAX, which a reader takes as lost. */
KB_CLIENT_TEXT
static void note_second(struct client_stats *st, const struct run_shared *sh,
			uint64_t end, uint64_t lat, uint64_t bytes)
{
	uint64_t sec = (end - sh->t0_ns) / 1000000000ull;
	unsigned s = (unsigned)(sec % SEC_SLOTS);
	uint32_t *b = &st->sec_hist[s][hist_coarse_of(lat)];
	if (__atomic_load_n(&st->sec_tag[s], __ATOMIC_RELAXED) != sec) {
		__atomic_store_n(&st->sec_tag[s], UINT64_MAX, __ATOMIC_RELAXED);
		__atomic_thread_fence(__ATOMIC_RELEASE);
		memset(st->sec_hist[s], 0, sizeof(st->sec_hist[s]));
		__atomic_store_n(b, 1, __ATOMIC_RELAXED);
		__atomic_store_n(&st->sec_max[s], lat, __ATOMIC_RELAXED);
		__atomic_store_n(&st->sec_bytes[s], bytes, __ATOMIC_RELAXED);
		__atomic_store_n(&st->sec_ops[s], 1, __ATOMIC_RELAXED);
		__atomic_store_n(&st->sec_tag[s], sec, __ATOMIC_RELEASE);
		return;
	}
	if (lat > st->sec_max[s])
		__atomic_store_n(&st->sec_max[s], lat, __ATOMIC_RELAXED);
	if (bytes)
		__atomic_store_n(&st->sec_bytes[s], st->sec_bytes[s] + bytes, __ATOMIC_RELAXED);
	__atomic_store_n(&st->sec_ops[s], st->sec_ops[s] + 1, __ATOMIC_RELAXED);
	__atomic_store_n(b, *b + 1, __ATOMIC_RELAXED);
}

/* -R: when the rate allows client c's next op: its start plus the bytes
 * it moved at target_rate MB/s (10^6 bytes), ns. */
KB_CLIENT_TEXT
static uint64_t rate_due_ns(const struct client *c, const struct run_config *cfg)
{
	double due_s = (double)c->st->bytes_all / (cfg->target_rate * 1e6);
	if (due_s > 1e9)
		due_s = 1e9;  /* a rate so low it never catches up: wait until the end */
	return c->start_ns + (uint64_t)(due_s * 1e9);
}

/* An op that started late ns after it was due. */
KB_CLIENT_TEXT
static void note_late(struct client_stats *st, uint64_t ns)
{
	st->late_ops++;
	st->late_sum_ns += ns;
	if (ns > st->late_max_ns)
		st->late_max_ns = ns;
}

/* End of the program: the pass is complete. */
KB_CLIENT_TEXT
static int next_pass(struct client *c, const struct run_config *cfg, struct pclock *k)
{
	cfg->backend->close_all(&c->ctx);
	k->fresh = 0;
	c->st->passes++;
	if (cfg->pass_times) {  /* mmtests' --show-execute-time (dbench_form.h) */
		uint64_t now = clock_read(k);
		dbform_pass_line(fileno(cfg->out), (enum load_form)cfg->form, c->id,
					now - c->pass_t0, now - c->start_ns);
	}
	if (cfg->run_once) {
		c->done = 1;
		return 0;
	}
	c->pass_t0 = clock_read(k);
	if (load_window(c, cfg->prog, 1) <= 0)
		return errno ? errno : EIO;
	return 0;
}

/* Hold client c until the CLOCK_MONOTONIC time `until` (ns): a process
 * with one client sleeps; one that interleaves several marks the client
 * as waiting and goes on with the others.  Returns 1 if c is now waiting. */
KB_CLIENT_TEXT
static int hold(struct client *c, uint64_t until, struct run_shared *sh, struct pclock *k)
{
	if (until > sh->end_ns)
		until = sh->end_ns;
	if (c->solo) {
		sleep_until(until, &sh->stop);
		k->fresh = 0;
		return 0;
	}
	c->wait_until = until;
	return 1;
}

/* Count the outcome of op for client c: rc the backend's return, bytes
 * what it moved, t1..t2 when it ran (CLOCK_MONOTONIC ns), sched when it
 * was due.  Sets c->sched_next and c->rate_due.  Returns 0, or an errno
 * when the backend lost its connection and the client must stop. */
KB_CLIENT_TEXT
static int account(struct client *c, const struct run_config *cfg, struct run_shared *sh,
		   const struct op *op, int rc, uint64_t bytes, uint64_t t1, uint64_t t2,
		   uint64_t sched)
{
	struct client_stats *st = c->st;
	/* only an op that ended as its line expects moves counted bytes */
	/* an op that lost the backend's connection failed, whatever its line expects */
	int bad = c->ctx.dead || (op->expect == EXPECT_OK && rc != 0) ||
		  (op->expect == EXPECT_FAIL && rc == 0);
	if (bad)
		bytes = 0;
	__atomic_store_n(&st->ops_all, st->ops_all + 1, __ATOMIC_RELAXED);
	if (bytes)
		__atomic_store_n(&st->bytes_all, st->bytes_all + bytes, __ATOMIC_RELAXED);
	c->sched_next = op->code == OP_SLEEP ? sched : sched + (t2 - t1);
	c->rate_due = cfg->target_rate > 0 && bytes;
	/* closed loop: from when the client got to the op; open loop: from
	 * when it was due */
	uint64_t lat = cfg->latency_from_due ? t2 - sched : t2 - t1;
	if (t2 >= sh->warm_end_ns && t2 < sh->end_ns) {
		client_hist_add(st, &st->hist[op->code], lat);
		st->ops++;
		st->bytes += bytes;
		if (cfg->prog->timed || cfg->target_rate > 0)
			client_hist_add(st, &st->lag, t1 - sched);
	}
	if (!cfg->prog->timed && cfg->target_rate > 0 && t1 > sched)
		note_late(st, t1 - sched);  /* -R: started after it was due */
	note_second(st, sh, t2 < sh->end_ns ? t2 : t1, lat, bytes);

	if (bad) {
		record_error(st, op, c->ctx.dead && !rc ? EPIPE : rc);
		if (cfg->strict) {
			/* the run ends with this op */
			if (sh->end_ns > t2 + 1)
				sh->end_ns = t2 + 1;
			sh->strict_failed = 1;
			sh->stop = 1;
		}
		if (c->ctx.dead)
			return rc ? rc : EPIPE;  /* the backend cannot go on: the client stops */
	}
	return 0;
}

/* Carry out one op of client c.  Returns 0 when it did one (or reached a
 * pass end), -1 when c is waiting for its time, or an errno that stops it. */
KB_CLIENT_TEXT
static int client_step(struct client *c, const struct run_config *cfg, struct run_shared *sh,
		       struct pclock *k)
{
	if (c->wait_until) {
		uint64_t now = clock_now(k);
		if (now < c->wait_until && !sh->stop)
			return -1;
		c->wait_until = 0;
		c->last_ns = now;
		if (now >= sh->end_ns)
			return 0;
	}
	if (c->pos == c->win_n) {
		if (c->cur.index >= cfg->prog->nops)
			return next_pass(c, cfg, k);
		k->fresh = 0;
		if (load_window(c, cfg->prog, 0) <= 0)
			return errno ? errno : EIO;
	}
	const struct op *op = &c->win[c->pos];
	struct client_stats *st = c->st;
	uint64_t own_due = 0;    /* this op's own due time, 0: none */

	if ((op->flags & OPF_TIMED) && op->ts_ns) {
		/* the op waits for its time; one that starts after it is late */
		uint64_t due = c->pass_t0 + op->ts_ns, now = clock_now(k);
		own_due = due;
		if (now < due) {
			if (hold(c, due, sh, k))
				return -1;
			now = clock_read(k);
		}
		if (now > due)
			note_late(st, now - due);
		c->last_ns = now;
		if (sh->stop || now >= sh->end_ns)
			return 0;
	}
	c->pos++;

	uint64_t bytes = 0, t1 = clock_now(k), t2;
	if (!own_due && c->rate_due)
		own_due = rate_due_ns(c, cfg);
	/* when it was due: its own time, else after the op before it */
	uint64_t sched = own_due ? own_due : c->sched_next;
	if (sched > t1 || !sched)
		sched = t1;
	int rc = 0;
	if (op->code == OP_SLEEP) {
		uint64_t until = t1 + op->off * 1000ull;
		if (hold(c, until, sh, k))
			t2 = c->wait_until;  /* it completes when the client wakes */
		else
			t2 = clock_read(k);
	} else {
		backend_fn fn = cfg->backend->op[op->code];
		rc = fn ? fn(&c->ctx, op, &bytes) : BE_EUNSUPPORTED;
		t2 = clock_read(k);
	}
	c->last_ns = t2;
	st->last_op_ns = t2;
	if (rc == BE_EUNSUPPORTED) {
		/* not carried out: counted apart, in no figure and no error */
		st->unsupported[op->code]++;
		return 0;
	}

	int stop = account(c, cfg, sh, op, rc, bytes, t1, t2, sched);
	if (stop)
		return stop;

	if (c->rate_due && !c->wait_until) {
		/* -R: hold this client to target_rate MB/s (10^6 bytes) */
		uint64_t due = rate_due_ns(c, cfg);
		if (due > t2)
			hold(c, due, sh, k);
	}
	return 0;
}

KB_CLIENT_TEXT
int client_main(const struct run_config *cfg, struct run_shared *sh,
		unsigned first, unsigned count, int barrier_fd)
{
	/* the parent coordinates stopping; die with it if it dies */
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() == 1)
		return 3;
	/* the parent stops the run on the stop signals (cli.h); one sent to
	 * the whole process group (a hangup, ^C, kill -USR1 -PGID) must not
	 * kill a client by itself.  SIGXFSZ ignored makes a write past the
	 * file size limit fail with EFBIG, an error the run reports */
	cli_ignore_stop_signals();
	signal(SIGPIPE, SIG_IGN);

	struct client *cl = calloc(count, sizeof(*cl));
	if (!cl) {
		fprintf(stderr, "kbench load: client %u: out of memory\n", first);
		return 3;
	}
	for (unsigned i = 0; i < count; i++) {
		cl[i].id = first + i;
		cl[i].st = &sh->client[first + i];
		int e = setup_client(&cl[i], cfg, sh);
		if (e) {
			/* one write: the clients' lines do not interleave */
			const char *target = cfg->backend->describe ?
				cfg->backend->describe(&cfg->bopts) : NULL;
			fprintf(stderr, "kbench load: client %u: cannot set up clients/client%u%s%s%s%s%s: %s\n",
				first + i, first + i, target ? " (-B " : "",
				target ? cfg->backend->name : "", target ? ", " : "", target ? target : "",
				target ? ")" : "", backend_strerror(e));
			return 3;
		}
	}
	__atomic_fetch_add(&sh->ready, count, __ATOMIC_SEQ_CST);

	/* barrier: the parent closes its end when all clients are ready */
	char b;
	ssize_t r;
	do
		r = read(barrier_fd, &b, 1);
	while (r < 0 && errno == EINTR);
	close(barrier_fd);
	if (r != 0 || sh->stop)
		return 0;

	struct pclock k;
	uint64_t start = clock_read(&k);
	for (unsigned i = 0; i < count; i++)
		cl[i].pass_t0 = cl[i].start_ns = cl[i].sched_next = start;

	unsigned live = count;
	for (unsigned i = 0; i < count; i++)
		cl[i].solo = count == 1;
	while (live && !sh->stop) {
		uint64_t earliest = UINT64_MAX;
		int worked = 0;
		live = 0;
		for (unsigned i = 0; i < count; i++) {
			if (cl[i].done)
				continue;
			int e = client_step(&cl[i], cfg, sh, &k);
			if (e < 0) {  /* waiting for its time */
				if (cl[i].wait_until < earliest)
					earliest = cl[i].wait_until;
				live++;
				continue;
			}
			worked = 1;
			if (e) {
				cl[i].st->fatal = e;
				fprintf(stderr, "kbench load: client %u stopped: %s\n", cl[i].id, backend_strerror(e));
				cl[i].done = 1;
				continue;
			}
			if (cl[i].last_ns >= sh->end_ns)
				cl[i].done = 1;
			if (!cl[i].done)
				live++;
		}
		if (!worked && earliest != UINT64_MAX) {
			sleep_until(earliest, &sh->stop);  /* everyone is waiting */
			k.fresh = 0;
		}
	}
	for (unsigned i = 0; i < count; i++) {
		if (cl[i].opened) {
			cfg->backend->close_all(&cl[i].ctx);
			if (cfg->backend->client_close)
				cfg->backend->client_close(&cl[i].ctx);
		}
		free(cl[i].ctx.iobuf);
	}
	free(cl);
	return 0;
}
