/* kbench - kbench disk results: hdparm-form text lines and the JSON document
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"
#include "disk/devinfo.h"
#include "disk/report.h"
#include "stats/summary.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *disk_test_label(enum disk_test k, int direct)
{
	if (k == DISK_CACHED)
		return direct ? "O_DIRECT cached reads" : "cached reads";
	return direct ? "O_DIRECT disk reads" : "buffered disk reads";
}

double disk_run_mbps(const struct disk_run *r)
{
	return (double)r->tm.bytes / DISK_MB / r->tm.seconds;
}

int disk_run_unflushed(enum disk_test k, int direct, const struct disk_run *r)
{
	return k == DISK_BUFFERED && !direct && !r->flushed;
}

void disk_print_run(FILE *out, enum disk_test k, int direct, const struct disk_run *r)
{
	char mb[32];
	if (r->tm.bytes % (uint64_t)DISK_MB == 0)
		snprintf(mb, sizeof(mb), "%3" PRIu64, r->tm.bytes / (uint64_t)DISK_MB);
	else
		snprintf(mb, sizeof(mb), "%3.2f", (double)r->tm.bytes / DISK_MB);
	/* hdparm's spacing: the -T label is followed by three blanks */
	if (k == DISK_CACHED)
		fprintf(out, " Timing %scached reads:   ", direct ? "O_DIRECT " : "");
	else
		fprintf(out, " Timing %s disk reads: ", direct ? "O_DIRECT" : "buffered");
	fprintf(out, "%s MB in %5.2f seconds = %6.2f MB/sec%s\n", mb, r->tm.seconds,
		disk_run_mbps(r), disk_run_unflushed(k, direct, r) ? " (cache not flushed)" : "");
}

/* MB/sec of every completed run, in a new array (NULL if none). */
static double *rates(const struct disk_test_result *tr)
{
	double *v = tr->nruns ? malloc(tr->nruns * sizeof(*v)) : NULL;
	for (size_t i = 0; v && i < tr->nruns; i++)
		v[i] = disk_run_mbps(&tr->runs[i]);
	return v;
}

void disk_print_summary(FILE *out, enum disk_test k, const struct disk_params *p,
			const struct disk_test_result *tr)
{
	struct summary s;
	double *v = rates(tr);
	if (!v || summary_of(v, tr->nruns, &s) < 0) {
		free(v);
		return;
	}
	int unflushed = 0;
	for (size_t i = 0; i < tr->nruns; i++)
		unflushed |= disk_run_unflushed(k, p->direct, &tr->runs[i]);
	char n[48], cov[32];
	if (tr->nruns == p->runs)
		snprintf(n, sizeof(n), "%zu runs", tr->nruns);
	else
		snprintf(n, sizeof(n), "%zu of %u runs", tr->nruns, p->runs);
	if (isnan(s.cov_pct))
		snprintf(cov, sizeof(cov), "n/a");
	else
		snprintf(cov, sizeof(cov), "%.2f%%", s.cov_pct);
	fprintf(out, " Summary %s (%s): min %.2f / median %.2f / max %.2f MB/sec, CoV %s%s\n",
		disk_test_label(k, p->direct), n, s.min, s.median, s.max, cov,
		unflushed ? " (cache not flushed)" : "");
	free(v);
}

static json_t *num(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static json_t *run_json(enum disk_test k, const struct disk_params *p, const struct disk_run *r)
{
	json_t *o = json_pack("{s:o, s:o, s:o, s:I, s:I, s:b}",
			      "MB", json_real((double)r->tm.bytes / DISK_MB),
			      "seconds", json_real(r->tm.seconds),
			      "MB_per_s", num(disk_run_mbps(r)),
			      "bytes", (json_int_t)r->tm.bytes,
			      "reads", (json_int_t)r->tm.iterations,
			      "cache_flushed", r->flushed);
	if (!o)
		return NULL;
	/* the busy caveat's fields (result/caveat.c), as load's and micro's */
	json_object_set_new(o, "other_cpu_pct", num(r->other_cpu_pct));
	json_object_set_new(o, "window_s", num(r->window_s));
	if (k == DISK_CACHED) {
		json_object_set_new(o, "loop_seconds", json_real(r->tm.loop_seconds));
		json_object_set_new(o, "overhead_seconds", json_real(r->tm.overhead_seconds));
	} else {
		json_object_set_new(o, "offset_bytes", json_integer((json_int_t)p->offset));
		json_object_set_new(o, "reached_end", json_boolean(r->tm.at_end));
		json_object_set_new(o, "cached_pct_after_flush",
				    r->cached_pct >= 0 ? json_real(r->cached_pct) : json_null());
		json_object_set_new(o, "backing_cached_pct_after_flush", r->backing_cached_pct >= 0 ?
				    json_real(r->backing_cached_pct) : json_null());
		json_object_set_new(o, "first_hole_byte", r->first_hole >= 0 ?
				    json_integer((json_int_t)r->first_hole) : json_null());
	}
	if (!r->flushed && r->not_flushed[0])
		json_object_set_new(o, "not_flushed", json_pack("{s:s, s:b}", "why", r->not_flushed,
								"flush_failed", r->flush_failed));
	return o;
}

/* What stopped a test: message, MB_read, seconds, at_byte, and when the
 * size changed, size_changed and size_bytes_after. */
static json_t *error_json(enum disk_test k, const struct disk_run *run)
{
	const struct disk_timing *f = &run->tm;
	const char *msg = run->size_errno ? "size could not be re-read after the run" :
			  run->size_changed ? "size changed during the run" :
			  f->err == ERANGE && k == DISK_CACHED ? "loop overhead not smaller than the loop" :
			  strerror(f->err);
	json_t *e = json_pack("{s:s, s:f, s:f, s:I}", "message", msg,
			      "MB_read", (double)f->bytes / DISK_MB, "seconds", f->seconds,
			      "at_byte", (json_int_t)f->err_offset);
	if (e && run->size_changed) {
		json_object_set_new(e, "size_changed", json_true());
		json_object_set_new(e, "size_bytes_after", json_integer((json_int_t)run->size_after));
	}
	return e;
}

static json_t *test_json(enum disk_test k, const struct disk_params *p,
			 const struct disk_test_result *tr)
{
	json_t *runs = json_array();
	for (size_t i = 0; runs && i < tr->nruns; i++)
		json_array_append_new(runs, run_json(k, p, &tr->runs[i]));
	struct summary s;
	double *v = rates(tr);
	int have = v && summary_of(v, tr->nruns, &s) == 0;
	free(v);
	json_t *o = json_pack("{s:s, s:o, s:o, s:o, s:o, s:o}",
			      "test", disk_test_label(k, p->direct),
			      "runs", runs ? runs : json_array(),
			      "min", have ? num(s.min) : json_null(),
			      "median", have ? num(s.median) : json_null(),
			      "max", have ? num(s.max) : json_null(),
			      "cov_pct", have ? num(s.cov_pct) : json_null());
	if (o && tr->failed)
		json_object_set_new(o, "error", error_json(k, &tr->fail));
	return o;
}

json_t *disk_results_json(const struct disk_params *p, const struct disk_result *res,
			  size_t ndev)
{
	static const char *const key[DISK_NTESTS] = { "cached", "buffered" };
	json_t *arr = json_array();
	for (size_t d = 0; arr && d < ndev; d++) {
		const struct disk_result *r = &res[d];
		json_t *o = json_pack("{s:s, s:s, s:I}", "device", r->t.path,
				      "type", r->t.is_blk ? "block device" : "regular file",
				      "size_bytes", (json_int_t)r->t.size);
		if (!o)
			continue;
		if (r->fs_type[0]) {
			json_object_set_new(o, "fs_type", json_string(r->fs_type));
			json_object_set_new(o, "fs_source", json_string(r->fs_source));
		}
		/* the settings hdparm DEV would show, as they were for this run */
		struct dev_info di;
		char why[200];
		if (devinfo_collect(r->t.path, &di, why, sizeof(why)) == 0)
			json_object_set_new(o, "device_info", devinfo_json(r->t.path, &di));
		for (int k = 0; k < DISK_NTESTS; k++)
			if (r->test[k].wanted)
				json_object_set_new(o, key[k], test_json(k, p, &r->test[k]));
		json_array_append_new(arr, o);
	}
	return arr;
}
