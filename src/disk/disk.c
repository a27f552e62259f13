/* kbench - the disk command: hdparm-style read timer
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * usage: kbench disk [-T] [-t] [--direct] [--runs N] [--offset SIZE]
 *                    [--json FILE] DEVICE|FILE...
 *
 * Times reads of block devices and regular files with hdparm's methods
 * (-T cached reads, -t buffered device reads, --direct for O_DIRECT) and
 * prints hdparm's lines, so the figures compare with hdparm's and scripts
 * that read hdparm read these.  It goes past hdparm where hdparm misleads:
 * it flushes the cache right before -t, keeps --offset inside the device,
 * refuses a -t with less than one whole 2 MiB read to time, always prints
 * MB/sec, repeats runs and summarises them on request.
 *
 * Invariants: every path is opened O_RDONLY and nothing is ever written
 * to it.  Every path is checked before any timing starts (bad input:
 * exit 2, nothing measured).  A figure is printed only for a run that
 * completed; a read error stops that test with how far it got (exit 1),
 * and so does a size that changed during the run (re-read after it; a
 * read that ends before the size measured at the start says so too).
 * A buffered -t run whose cache could not be flushed says so on its line.
 * A stop signal (cli.h) ends the command at once (nothing to remove):
 * the run in progress prints nothing, the --json document is not written.
 */
#include "config.h"
#include "commands.h"
#include "cli.h"
#include "disk/device.h"
#include "disk/report.h"
#include "disk/timer.h"
#include "result/caveat.h"
#include "result/result.h"
#include "result/sysinfo.h"
#include "sys/clock.h"
#include "sys/cpubusy.h"
#include "disk/devinfo.h"
#include "disk/hdform.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <popt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_RUNS 1000
#define CACHED_PCT_LIMIT 1.0      /* more still cached after a flush: not flushed */

/* The command line, what it means, the opened paths and their results. */
struct disk_cmd {
	const char *cmd;
	/* the options as given: popt's copies, freed by disk_cmd_free() */
	int do_cached, do_buffered, direct, info;
	char *runs_arg, *offset_arg, *json;
	char *form_arg;           /* --output-form (disk/hdform.h) */
	int hdparm_form;          /* 1: hdparm's lines alone, no kbench header */
	/* what they mean */
	struct disk_params p;
	FILE *out;                /* the hdparm-form text */
	char json_dest[PATH_MAX]; /* --json's checked destination */
	/* the paths (popt's), their targets and results, the one read buffer */
	const char **paths;
	struct disk_result *res;
	size_t ndev;
	struct disk_buf buf;
};

/* Flush, and for buffered -t check that the flush took (the device's
 * pages and a buffered loop device's backing file's) and look for holes
 * (-t, --direct too); what is found goes into run, whose document's
 * caveats (cache_timed, flush_failed, sparse_file) the text's warnings
 * are (time_all): a file on tmpfs or a device without CAP_SYS_ADMIN keeps
 * its pages, and timing those would print a memory figure as a disk
 * figure. */
static void flush(const struct disk_cmd *c, struct disk_result *r, enum disk_test k,
		  struct disk_run *run)
{
	char *why = run->not_flushed;
	size_t n = sizeof(run->not_flushed);
	run->flushed = disk_flush(&r->t, why, n) == 0;
	run->flush_failed = !run->flushed;
	run->cached_pct = run->backing_cached_pct = -1;
	run->first_hole = -1;
	if (k != DISK_BUFFERED)
		return;
	run->first_hole = r->t.first_hole;
	if (c->p.direct)
		return;
	uint64_t len = r->t.size - c->p.offset;
	uint64_t win = len > DISK_RESIDENCY_WINDOW ? DISK_RESIDENCY_WINDOW : len;
	run->cached_pct = disk_cached_pct(&r->t, c->p.offset, len);
	if (r->t.loop_buffered)
		run->backing_cached_pct = disk_backing_cached_pct(&r->t, c->p.offset, len);
	if (run->flushed && run->cached_pct >= CACHED_PCT_LIMIT) {
		snprintf(why, n, "%.0f%% of the first %.2f MB to be read is still cached "
			 "after the flush (a tmpfs file, or pages in use elsewhere)",
			 run->cached_pct, (double)win / DISK_MB);
		run->flushed = 0;
	} else if (run->flushed && run->backing_cached_pct >= CACHED_PCT_LIMIT) {
		snprintf(why, n, "%.0f%% of the backing file's pages behind the first %.2f MB "
			 "to be read are still cached after the flush (a file on tmpfs, or "
			 "pages in use elsewhere)", run->backing_cached_pct, (double)win / DISK_MB);
		run->flushed = 0;
	}
}

/* After the timed reads: the size must still be the one measured at the
 * start and the data must not have ended before it, or what was timed is
 * not what the figure would claim (a file truncated or extended, a device
 * resized while it was read).  Returns rc, or -1 with run->size_changed
 * or run->size_errno set. */
static int check_size(const struct disk_cmd *c, const struct disk_result *r, enum disk_test k,
		      struct disk_run *run, int rc)
{
	if (disk_size_now(&r->t, &run->size_after) < 0) {
		run->size_errno = errno;
		return -1;
	}
	if (!run->tm.ended_early && run->size_after == r->t.size)
		return rc;
	run->size_changed = 1;
	if (!run->tm.ended_early)       /* where the reads stopped */
		run->tm.err_offset = k == DISK_BUFFERED ? c->p.offset + run->tm.bytes : 0;
	return -1;
}

/* One run of test k on r, in the order of the hdparm method (timer.c):
 * flush, pause, timed reads (with the CPU time other processes took
 * meanwhile: sys/cpubusy.h), then the size checked again.  Returns 0
 * with run filled, or -1 with run telling how far it got and why. */
static int run_once(const struct disk_cmd *c, struct disk_result *r, enum disk_test k,
		    struct disk_run *run)
{
	unsigned align = c->p.direct ? r->t.align : 1;
	int rc;
	memset(run, 0, sizeof(*run));
	flush(c, r, k, run);
	disk_pause(k == DISK_CACHED ? DISK_CACHED_PAUSE : DISK_BUFFERED_PAUSE);
	struct cpubusy_snap ca, cb;
	cpubusy_take(&ca, NULL, 0);
	double t0 = kb_now_s();
	if (k == DISK_CACHED) {
		size_t want = r->t.size < DISK_REQ_BYTES ? (size_t)r->t.size : DISK_REQ_BYTES;
		rc = disk_time_cached(r->t.fd, &c->buf, want, align, DISK_CACHED_SECONDS, &run->tm);
	} else {
		rc = disk_time_buffered(r->t.fd, &c->buf, c->p.offset, r->t.size, align,
					DISK_BUFFERED_SECONDS, &run->tm);
	}
	run->window_s = kb_now_s() - t0;
	cpubusy_take(&cb, NULL, 0);
	run->other_cpu_pct = cpubusy_other_pct(&ca, &cb, run->window_s, sysconf(_SC_CLK_TCK));
	rc = check_size(c, r, k, run, rc);
	if (rc == 0 && (run->tm.bytes == 0 || !(run->tm.seconds > 0))) {
		run->tm.err = ENODATA;  /* nothing read, or no time: no figure */
		run->tm.err_offset = k == DISK_BUFFERED ? c->p.offset : 0;
		rc = -1;
	}
	return rc;
}

static void report_failure(const struct disk_cmd *c, const struct disk_result *r,
			   enum disk_test k, const struct disk_run *run)
{
	const struct disk_timing *f = &run->tm;
	const char *label = disk_test_label(k, c->p.direct);
	char ended[64] = "";
	if (f->ended_early)
		snprintf(ended, sizeof(ended), ", the data ended at byte %" PRIu64, f->err_offset);
	if (run->size_errno)
		fprintf(stderr, "%s: %s: %s: cannot re-read the size after the run: %s; no figure\n",
			c->cmd, r->t.path, label, strerror(run->size_errno));
	else if (run->size_changed && run->size_after == r->t.size)
		fprintf(stderr, "%s: %s: %s: the data ended at byte %" PRIu64 ", before its size "
			"of %" PRIu64 " bytes (cut and grown back during the run, or a file whose "
			"size is not its length, as in /proc or /sys); no figure\n", c->cmd, r->t.path, label, f->err_offset, r->t.size);
	else if (run->size_changed)
		fprintf(stderr, "%s: %s: %s: the size changed during the run (%" PRIu64 " bytes at "
			"the start, %" PRIu64 " after%s); no figure\n", c->cmd, r->t.path, label,
			r->t.size, run->size_after, ended);
	else if (k == DISK_CACHED && f->err == ERANGE)
		fprintf(stderr, "%s: %s: %s: the loop's own overhead (%.6f s) is not smaller than "
			"the timed loop (%.6f s); no figure\n", c->cmd, r->t.path, label,
			f->overhead_seconds, f->loop_seconds);
	else
		fprintf(stderr, "%s: %s: %s: read error at byte %" PRIu64 " after %.2f MB in "
			"%.2f seconds: %s; no figure\n", c->cmd, r->t.path, label, f->err_offset,
			(double)f->bytes / DISK_MB, f->seconds, strerror(f->err));
}

/* Every run of every wanted test on one device.  Returns KB_EXIT_OK, or
 * KB_EXIT_FAIL if a test failed. */
static int time_device(const struct disk_cmd *c, struct disk_result *r)
{
	int status = KB_EXIT_OK;
	fprintf(c->out, "\n%s:\n", r->t.path);
	fflush(c->out);
	for (int k = 0; k < DISK_NTESTS; k++) {
		struct disk_test_result *tr = &r->test[k];
		if (!tr->wanted)
			continue;
		for (unsigned i = 0; i < c->p.runs; i++) {
			struct disk_run *run = &tr->runs[tr->nruns];
			if (run_once(c, r, k, run) < 0) {
				tr->failed = 1;
				tr->fail = *run;
				report_failure(c, r, k, run);
				status = KB_EXIT_FAIL;
				break;
			}
			tr->nruns++;
			if (c->hdparm_form && c->offset_arg && k == DISK_BUFFERED)
				hdparm_offset_line(c->out, c->p.direct, c->p.offset,
							  run->tm.bytes, run->tm.seconds);
			else
				disk_print_run(c->out, k, c->p.direct, run);
			fflush(c->out);
		}
		if (c->p.runs > 1)
			disk_print_summary(c->out, k, &c->p, tr);
		fflush(c->out);
	}
	return status;
}

/* The checks that need the opened target, for -t: --offset against its
 * size and O_DIRECT alignment, and room for one whole read (DISK_REQ_BYTES,
 * hdparm's 2 MiB) from the offset to the end: a shorter read is over
 * before it can be timed (one byte read in a few microseconds printed as
 * "0.00 MB in 0.00 seconds"), so it is refused, never printed as a
 * figure.  Returns 0 or -1 after one line on stderr. */
static int check_offset(const struct disk_cmd *c, const struct disk_target *t,
			const char *offset_arg, int buffered)
{
	if (!buffered)
		return 0;
	if (c->p.offset && c->p.offset >= t->size) {
		fprintf(stderr, "%s: %s: --offset %s is at or past the end (%" PRIu64 " bytes); "
			"give a smaller offset\n", c->cmd, t->path, offset_arg, t->size);
		return -1;
	}
	if (c->p.offset && c->p.direct && c->p.offset % t->align) {
		fprintf(stderr, "%s: %s: --offset %s is not a multiple of %u bytes, which O_DIRECT "
			"needs here; round it\n", c->cmd, t->path, offset_arg, t->align);
		return -1;
	}
	uint64_t left = t->size - c->p.offset;
	if (left < DISK_REQ_BYTES && c->p.offset) {
		fprintf(stderr, "%s: %s: -t needs %u bytes (one whole 2 MiB read) from the offset to "
			"the end; --offset %s leaves %" PRIu64 "; give an offset at most %" PRIu64
			" bytes\n", c->cmd, t->path, DISK_REQ_BYTES, offset_arg, left,
			t->size >= DISK_REQ_BYTES ? t->size - DISK_REQ_BYTES : 0);
		return -1;
	}
	if (left < DISK_REQ_BYTES) {
		fprintf(stderr, "%s: %s: -t needs %u bytes (one whole 2 MiB read); it has %" PRIu64
			" (-T alone times a smaller one)\n", c->cmd, t->path, DISK_REQ_BYTES, t->size);
		return -1;
	}
	return 0;
}

/* The document to c->json_dest.  Returns 0, or -1 after one line. */
/* The run's document with its caveats (caveat_attach), made with or
 * without --json: the text's warnings are printed from its list.  NULL
 * when out of memory. */
static json_t *run_document(const struct disk_cmd *c)
{
	struct kb_sysinfo si;
	sysinfo_collect(&si, NULL);
	json_t *doc = result_new("disk");
	json_t *devs = json_array(), *tests = json_array();
	for (size_t d = 0; devs && d < c->ndev; d++)
		json_array_append_new(devs, json_string(c->res[d].t.path));
	if (tests && c->do_cached)
		json_array_append_new(tests, json_string("cached"));
	if (tests && c->do_buffered)
		json_array_append_new(tests, json_string("buffered"));
	json_t *params = json_pack("{s:o, s:b, s:i, s:I, s:I, s:f, s:f, s:f, s:f, s:o}",
		"tests", tests ? tests : json_array(), "direct", c->p.direct,
		"runs", (int)c->p.runs, "offset_bytes", (json_int_t)c->p.offset,
		"request_bytes", (json_int_t)DISK_REQ_BYTES,
		"cached_seconds", DISK_CACHED_SECONDS, "buffered_seconds", DISK_BUFFERED_SECONDS,
		"cached_pause_seconds", disk_pause_seconds(DISK_CACHED_PAUSE),
		"buffered_pause_seconds", disk_pause_seconds(DISK_BUFFERED_PAUSE),
		"devices", devs ? devs : json_array());
	if (doc) {
		json_object_set_new(doc, "units", json_pack("{s:s, s:s, s:s}", "MB", "2^20 bytes",
				    "seconds", "seconds", "MB_per_s", "MB (2^20 bytes) per second"));
		json_object_set_new(doc, "params", params);
		json_object_set_new(doc, "system", sysinfo_json(&si));
		json_object_set_new(doc, "results", disk_results_json(&c->p, c->res, c->ndev));
	} else {
		json_decref(params);
	}
	if (doc && !caveat_attach(doc)) {
		json_decref(doc);
		return NULL;
	}
	return doc;
}

/* ---- the command: options, checks, run, report ---- */

/* The paths, --runs and --offset into c->p; neither -T nor -t means both,
 * as in hdparm.  Returns KB_EXIT_OK, or KB_EXIT_USAGE after one line. */
static int check_values(struct disk_cmd *c, const char **paths)
{
	c->paths = paths;
	while (paths && paths[c->ndev])
		c->ndev++;
	if (!c->ndev)
		return cli_usage_error(c->cmd, "missing DEVICE or FILE to time");
	if (c->runs_arg) {
		uint64_t v;
		if (cli_parse_uint(c->runs_arg, 1, MAX_RUNS, &v) < 0)
			return cli_usage_error(c->cmd, "--runs must be a whole number from 1 to %u, "
					       "not '%s'", MAX_RUNS, c->runs_arg);
		c->p.runs = (unsigned)v;
	}
	int orc = c->offset_arg ? cli_parse_size_unit(c->offset_arg, &c->p.offset) : 0;
	if (orc == -2)
		/* hdparm's --offset counts GiB: a bare number would silently mean
		 * a different place on the disk */
		return cli_usage_error(c->cmd, "--offset %s has no unit; hdparm's --offset counts "
				       "GiB, so give one: --offset %sG is hdparm's --offset %s "
				       "(B for bytes, k, M, G, T)", c->offset_arg, c->offset_arg,
				       c->offset_arg);
	if (orc < 0)
		return cli_usage_error(c->cmd, "bad --offset '%s' (a size with its unit: 4096B, "
				       "512M, 1G)", c->offset_arg);
	if (!c->do_cached && !c->do_buffered)
		c->do_cached = c->do_buffered = 1;
	c->p.direct = c->direct;
	if (result_json_stdout(c->json))
		c->out = stderr;                /* keep standard output pure JSON */
	return KB_EXIT_OK;
}

/* Open and check one path, make room for its runs, note its file system.
 * Returns KB_EXIT_OK, KB_EXIT_USAGE for a bad path (one line said),
 * KB_EXIT_FAIL when out of memory. */
static int open_target(const struct disk_cmd *c, struct disk_result *r, const char *path)
{
	if (disk_open(&r->t, path, c->direct, c->cmd, stderr) < 0 ||
	    check_offset(c, &r->t, c->offset_arg, c->do_buffered) < 0)
		return KB_EXIT_USAGE;
	r->test[DISK_CACHED].wanted = c->do_cached;
	r->test[DISK_BUFFERED].wanted = c->do_buffered;
	for (int k = 0; k < DISK_NTESTS; k++)
		if (r->test[k].wanted &&
		    !(r->test[k].runs = calloc(c->p.runs, sizeof(struct disk_run)))) {
			fprintf(stderr, "%s: out of memory\n", c->cmd);
			return KB_EXIT_FAIL;
		}
	if (!r->t.is_blk) {
		struct kb_sysinfo fi;
		sysinfo_collect(&fi, r->t.path);
		snprintf(r->fs_type, sizeof(r->fs_type), "%s", fi.fstype);
		snprintf(r->fs_source, sizeof(r->fs_source), "%s", fi.fsdev);
	}
	r->t.first_hole = disk_first_hole(&r->t, c->p.offset, r->t.size - c->p.offset);
	if (r->t.loop_buffered && c->do_buffered)
		fprintf(stderr, "%s: %s: warning: loop device in buffered mode; -t reads its "
			"backing file through the host page cache, whose pages of it are dropped "
			"before each run (set it up with 'losetup --direct-io=on' to time the "
			"device alone)\n", c->cmd, r->t.path);
	return KB_EXIT_OK;
}

/* Every path, before any timing: each bad one is said, not only the
 * first.  Returns KB_EXIT_OK, KB_EXIT_USAGE when a path was bad,
 * KB_EXIT_FAIL when out of memory. */
static int open_targets(struct disk_cmd *c)
{
	int status = KB_EXIT_OK;
	c->res = calloc(c->ndev, sizeof(*c->res));
	if (!c->res) {
		fprintf(stderr, "%s: out of memory\n", c->cmd);
		return KB_EXIT_FAIL;
	}
	for (size_t d = 0; d < c->ndev; d++)
		c->res[d].t.fd = -1;
	for (size_t d = 0; d < c->ndev; d++) {
		int rc = open_target(c, &c->res[d], c->paths[d]);
		if (rc == KB_EXIT_FAIL)
			return rc;
		if (rc != KB_EXIT_OK)
			status = rc;
	}
	return status;
}

/* What the timing needs once every path is good: --json's destination
 * (no measured path, no device, no directory) and the read buffer.
 * Returns KB_EXIT_OK, KB_EXIT_USAGE for a bad destination (one line),
 * KB_EXIT_FAIL when the buffer cannot be mapped. */
static int prepare_run(struct disk_cmd *c)
{
	int status;
	if (c->json && (status = result_destination(c->cmd, "--json", c->json,
						    (const char *const *)c->paths, c->ndev, NULL,
						    c->json_dest, sizeof(c->json_dest))))
		return status;
	if (c->offset_arg && !c->do_buffered)
		fprintf(stderr, "%s: warning: --offset applies to -t only; ignored\n", c->cmd);
	if (disk_buf_init(&c->buf) < 0) {
		fprintf(stderr, "%s: cannot map a %u-byte buffer: %s\n", c->cmd, DISK_REQ_BYTES,
			strerror(errno));
		return KB_EXIT_FAIL;
	}
	if (!c->buf.locked)
		fprintf(stderr, "%s: warning: cannot lock the buffer in memory (mlock: %s); "
			"timing without it\n", c->cmd, strerror(c->buf.lock_errno));
	return KB_EXIT_OK;
}

/* The header line, every device's runs in hdparm's form, then --json.
 * Returns KB_EXIT_OK, or KB_EXIT_FAIL when a test failed or the document
 * could not be written. */
static int time_all(struct disk_cmd *c)
{
	int status = KB_EXIT_OK;
	if (!c->hdparm_form)
		fprintf(c->out, "kbench %s disk: MB = 2^20 bytes, reads of 2 MiB%s\n",
			PACKAGE_VERSION, c->direct ? ", O_DIRECT" : "");
	for (size_t d = 0; d < c->ndev; d++)
		if (time_device(c, &c->res[d]) != KB_EXIT_OK)
			status = KB_EXIT_FAIL;
	/* the doubts about the figures (cache timed, flush failed, a hole), as
	 * the document lists them; on standard error, as hdparm's warnings,
	 * so the lines harnesses parse stay hdparm's */
	fflush(c->out);
	json_t *doc = run_document(c);
	caveat_print(stderr, json_object_get(doc, "caveats"));
	if (c->json && result_write_json(c->cmd, doc, c->json_dest) < 0)
		status = KB_EXIT_FAIL;
	json_decref(doc);
	return status;
}

/* Everything after the options were read: the checks (bad input: exit 2,
 * nothing timed), the runs, the report.  Returns the exit status. */
/* --info: every path's settings, or the first that has none named. */
static int print_info(struct disk_cmd *c)
{
	struct dev_info *d = calloc(c->ndev, sizeof(*d));
	char why[300];
	if (!d) {
		fprintf(stderr, "%s: out of memory\n", c->cmd);
		return KB_EXIT_FAIL;
	}
	for (size_t i = 0; i < c->ndev; i++)
		if (devinfo_collect(c->paths[i], &d[i], why, sizeof(why)) < 0) {
			fprintf(stderr, "%s: %s: %s\n", c->cmd, c->paths[i], why);
			free(d);
			return KB_EXIT_USAGE;
		}
	for (size_t i = 0; i < c->ndev; i++) {
		if (i)
			fputc('\n', stdout);
		devinfo_print(stdout, c->paths[i], &d[i]);
	}
	free(d);
	return KB_EXIT_OK;
}

static int disk_main(struct disk_cmd *c, poptContext ctx)
{
	int status;
	if (c->info) {
		const char **paths = poptGetArgs(ctx);
		while (paths && paths[c->ndev])
			c->ndev++;
		c->paths = paths;
		if (!c->ndev)
			return cli_usage_error(c->cmd, "--info: give the DEVICE or FILE");
		if (c->do_cached || c->do_buffered || c->json || c->runs_arg || c->offset_arg ||
		    c->direct)
			return cli_usage_error(c->cmd, "--info prints the settings and times nothing: "
					       "give it alone with DEVICE or FILE");
		return print_info(c);
	}
	if ((status = check_values(c, poptGetArgs(ctx))) != KB_EXIT_OK ||
	    (status = open_targets(c)) != KB_EXIT_OK ||
	    (status = prepare_run(c)) != KB_EXIT_OK)
		return status;
	return time_all(c);
}

static void disk_cmd_free(struct disk_cmd *c)
{
	disk_buf_free(&c->buf);
	for (size_t d = 0; c->res && d < c->ndev; d++) {
		disk_close(&c->res[d].t);
		for (int k = 0; k < DISK_NTESTS; k++)
			free(c->res[d].test[k].runs);
	}
	free(c->res);
	free(c->runs_arg);
	free(c->offset_arg);
	free(c->json);
	free(c->form_arg);
}

int cmd_disk(int argc, const char **argv)
{
	struct disk_cmd c = { .cmd = argv[0], .p = { .runs = 1 }, .out = stdout };
	struct poptOption options[] = {
		{ NULL, 'T', POPT_ARG_NONE, &c.do_cached, 0,
		  "time cached reads: flush, pause 1 s, the same 2 MiB for 2 s, loop overhead "
		  "subtracted (hdparm -T)",
		  NULL },
		{ NULL, 't', POPT_ARG_NONE, &c.do_buffered, 0,
		  "time device reads: flush, pause 3 s, sequential 2 MiB reads for 3 s or to the "
		  "end (hdparm -t)",
		  NULL },
		{ "direct", 0, POPT_ARG_NONE, &c.direct, 0,
		  "read with O_DIRECT into an aligned buffer, bypassing the page cache", NULL },
		{ "runs", 0, POPT_ARG_STRING, &c.runs_arg, 0,
		  "run each test N times; print every run, then min/median/max/CoV (default 1)",
		  "N" },
		{ "offset", 0, POPT_ARG_STRING, &c.offset_arg, 0,
		  "start -t this far into the device; SIZE needs its unit: B (bytes), k, M, G, T "
		  "(powers of 2^10); hdparm's --offset N is --offset NG", "SIZE" },
		RESULT_JSON_OPTION(&c.json),
		{ "info", 0, POPT_ARG_NONE, &c.info, 0,
		  "print the device's settings (sysfs: model, size, read-ahead, scheduler, "
		  "rotational, queue depth, write cache; for a file, its filesystem's device) and "
		  "time nothing", NULL },
		{ "output-form", 0, POPT_ARG_STRING, &c.form_arg, 0,
		  "the lines printed: kbench (default), hdparm (hdparm's alone, no header line)",
		  "FORM" },
		POPT_AUTOHELP
		POPT_TABLEEND
	};

	/* kbench disk makes nothing to remove: a stop signal (cli.h) ends it
	 * where it is, with 128 + the signal; the run in progress prints no
	 * line (one ignored at the start stays ignored, SIGINT too) */
	cli_default_stop_signals();
	poptContext ctx = poptGetContext(c.cmd, argc, argv, options, 0);
	poptSetOtherOptionHelp(ctx, "[-T] [-t] [OPTIONS] DEVICE|FILE...");
	int status = cli_popt_done(ctx, c.cmd, cli_popt_next(ctx, options));
	if (status == KB_EXIT_OK && c.form_arg &&
	    (c.hdparm_form = disk_form_parse(c.form_arg)) < 0)
		status = cli_usage_error(c.cmd, "unknown --output-form '%s' (kbench, hdparm)",
					 c.form_arg);
	if (status == KB_EXIT_OK)
		status = disk_main(&c, ctx);
	disk_cmd_free(&c);
	poptFreeContext(ctx);
	return status;
}
