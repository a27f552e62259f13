/* kbench - micro: the lmbench family's text report (see lmreport.h)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The table layouts are lmbench 2's summary (its "make see" output): the
 * same headings and columns in the same order (the RPC columns where
 * lmbench 2.0 has them, lat_rpc_udp and lat_rpc_tcp, when built with
 * libtirpc), plus L3 in the memory table, and a second
 * memory table of lmbench 3's random-order chain.  A skipped or
 * failed test shows "-"; a test not chosen shows nothing.  A column of a
 * test between processes names the test without its placement; the
 * tables holding such columns (context switching, local communication)
 * get a "Place" column and one row per placement that gave a figure
 * (1cpu, 2smt, 2core, as the rows' names end; the CPUs are said under
 * the table); the other columns of those tables repeat in every row.
 */
#include "config.h"
#include "micro/place.h"
#include "micro/harness.h"
#include "micro/lmbench/lmreport.h"
#include "result/sysinfo.h"
#include "sys/clock.h"

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct col { const char *test, *h1, *h2; };
struct table { const char *title; int mhz, placed; struct col cols[12]; };

static const struct table tables[] = {
	{ "Processor, Processes - times in microseconds - smaller is better", 1, 0, {
		{ "lat_syscall_null", "null", "call" }, { "lat_syscall_io", "null", "I/O" },
		{ "lat_syscall_stat", "stat", "" }, { "lat_syscall_open", "open", "clos" },
		{ "lat_select_tcp", "slct", "TCP" }, { "lat_sig_install", "sig", "inst" },
		{ "lat_sig_hndl", "sig", "hndl" }, { "lat_proc_fork", "fork", "proc" },
		{ "lat_proc_exec", "exec", "proc" }, { "lat_proc_shell", "sh", "proc" },
		{ NULL, NULL, NULL } } },
	{ "Context switching - times in microseconds - smaller is better", 0, 1, {
		{ "lat_ctx_2p_0k", "2p/0K", "ctxsw" }, { "lat_ctx_2p_16k", "2p/16K", "ctxsw" },
		{ "lat_ctx_2p_64k", "2p/64K", "ctxsw" }, { "lat_ctx_8p_16k", "8p/16K", "ctxsw" },
		{ "lat_ctx_8p_64k", "8p/64K", "ctxsw" }, { "lat_ctx_16p_16k", "16p/16K", "ctxsw" },
		{ "lat_ctx_16p_64k", "16p/64K", "ctxsw" }, { NULL, NULL, NULL } } },
	{ "*Local* Communication latencies in microseconds - smaller is better", 0, 1, {
		{ "lat_ctx_2p_0k", "2p/0K", "ctxsw" }, { "lat_pipe", "Pipe", "" },
		{ "lat_unix", "AF", "UNIX" }, { "lat_udp", "UDP", "" },
		{ "lat_rpc_udp", "RPC/", "UDP" }, { "lat_tcp", "TCP", "" },
		{ "lat_rpc_tcp", "RPC/", "TCP" }, { "lat_connect", "TCP", "conn" },
		{ NULL, NULL, NULL } } },
	{ "File & VM system latencies in microseconds - smaller is better", 0, 0, {
		{ "lat_fs_create_0k", "0K File", "Create" }, { "lat_fs_delete_0k", "0K File", "Delete" },
		{ "lat_fs_create_10k", "10K File", "Create" },
		{ "lat_fs_delete_10k", "10K File", "Delete" },
		{ "lat_mmap", "Mmap", "Latency" }, { "lat_sig_prot", "Prot", "Fault" },
		{ "lat_pagefault", "Page", "Fault" }, { "lat_select_file", "100fd", "selct" },
		{ NULL, NULL, NULL } } },
	{ "*Local* Communication bandwidths in MB/s - bigger is better", 0, 1, {
		{ "bw_pipe", "Pipe", "" }, { "bw_unix", "AF", "UNIX" }, { "bw_tcp", "TCP", "" },
		{ "bw_file_rd", "File", "reread" }, { "bw_mmap_rd", "Mmap", "reread" },
		{ "bw_mem_bcopy_libc", "Bcopy", "(libc)" }, { "bw_mem_bcopy_loop", "Bcopy", "(hand)" },
		{ "bw_mem_rd", "Mem", "read" }, { "bw_mem_wr", "Mem", "write" },
		{ NULL, NULL, NULL } } },
	{ "Memory latencies in nanoseconds - smaller is better", 1, 0, {
		{ "lat_mem_l1", "L1 $", "" }, { "lat_mem_l2", "L2 $", "" }, { "lat_mem_l3", "L3 $", "" },
		{ "lat_mem_main", "Main", "mem" }, { NULL, NULL, NULL } } },
	{ "Memory latencies in nanoseconds, random order (lmbench 3) - smaller is better", 1, 0, {
		{ "lat_mem_rand_l1", "L1 $", "" }, { "lat_mem_rand_l2", "L2 $", "" },
		{ "lat_mem_rand_l3", "L3 $", "" }, { "lat_mem_rand_main", "Main", "mem" },
		{ NULL, NULL, NULL } } },
};

/* The clock rate from a chain of dependent adds, one per cycle on any
 * current CPU (lmbench's mhz also times chains of dependent operations); the
 * fastest of 30 tries of 1.28 million adds (short, so some try runs
 * unpreempted on a busy machine).  MHz, or 0. */
static int measure_mhz(void)
{
	double best = 0;
	for (int t = 0; t < 30; t++) {
		uint64_t x = 1, y = 3;
		const unsigned iters = 20000;
		uint64_t t0 = kb_now_ns();
		for (unsigned i = 0; i < iters; i++) {
#define ADD __asm__ __volatile__("" : "+r"(x)); x += y;
#define ADD8 ADD ADD ADD ADD ADD ADD ADD ADD
			ADD8 ADD8 ADD8 ADD8 ADD8 ADD8 ADD8 ADD8
#undef ADD8
#undef ADD
		}
		uint64_t ns = kb_now_ns() - t0;
		__asm__ __volatile__("" : : "r"(x));
		double mhz = ns ? (double)iters * 64 * 1e3 / (double)ns : 0;
		if (mhz > best)
			best = mhz;
	}
	return (int)(best + 0.5);
}

void lm_host_collect(struct lm_host *h)
{
	struct kb_sysinfo si;
	memset(h, 0, sizeof(*h));
	sysinfo_collect(&si, NULL);
	snprintf(h->host, sizeof(h->host), "%s", si.hostname);
	if (si.sysname[0])
		snprintf(h->os, sizeof(h->os), "%s %s", si.sysname, si.kernel);
	/* lmbench's description is its build's machine triplet */
	snprintf(h->descr, sizeof(h->descr), "%s-%s", si.machine[0] ? si.machine : "unknown",
#ifdef __GLIBC__
		 "linux-gnu"
#else
		 "linux"
#endif
	);
	h->mhz = si.cpu_mhz;
	if (!h->mhz) {
		h->mhz = measure_mhz();
		h->mhz_measured = h->mhz > 0;
	}
}

/* A figure in at most w characters, with as many decimals as fit (up to 2
 * below 10, 1 below 100); a whole number wider than w as it is ("100184",
 * never "1e+05"). */
static void fmt_value(char *buf, size_t len, double v, int w)
{
	int dec = v < 10 ? 2 : v < 100 ? 1 : 0;
	for (; dec >= 0; dec--) {
		snprintf(buf, len, "%.*f", dec, v);
		if ((int)strlen(buf) <= w)
			return;
	}
	snprintf(buf, len, "%.0f", v);    /* wider than the column, as lmbench prints it */
}

/* A figure for the per-test lines: four significant digits, no exponent. */
static void fmt_line(char *buf, size_t len, double v)
{
	int dec = v >= 1000 ? 0 : v >= 100 ? 1 : v >= 10 ? 2 : v >= 1 ? 3 : 4;
	snprintf(buf, len, "%.*f", dec, v);
}

static int col_width(const struct col *c)
{
	int w = (int)strlen(c->h1);
	if ((int)strlen(c->h2) > w)
		w = (int)strlen(c->h2);
	return w < 5 ? 5 : w;
}

static const enum micro_place placements[] = { MICRO_PLACE_ONE, MICRO_PLACE_SMT,
						MICRO_PLACE_CORES };

/* The figure of column test in placement p of source s: the row
 * TEST_SUFFIX, else (a column that is not placed, or a run from before
 * placements) the row TEST.  Returns as lm_source.figure; *placed says
 * whether the placed row answered. */
static int col_figure(const struct lm_source *s, const char *test, enum micro_place p,
		      double *v, int *placed)
{
	char full[64];
	*placed = 0;
	if (p != MICRO_PLACE_NONE) {
		snprintf(full, sizeof(full), "%s_%s", test, place_suffix(p));
		int rc = s->figure(s->ctx, full, v);
		if (rc) {
			*placed = 1;
			return rc;
		}
	}
	return s->figure(s->ctx, test, v);
}

/* Whether placement p of s has a figure of its own in table t: for p
 * NONE any column; for a placement, a column of that placement's row. */
static int row_has_figure(const struct table *t, const struct lm_source *s, enum micro_place p)
{
	for (const struct col *c = t->cols; c->test; c++) {
		double v;
		int placed, rc = col_figure(s, c->test, p, &v, &placed);
		if (rc == 1 && (p == MICRO_PLACE_NONE || placed))
			return 1;
	}
	return 0;
}

/* Under a table with a Place column: which CPUs each placement's tests
 * ran on (the first placed test of the row that ran says). */
static void print_places(FILE *out, const struct table *t, const struct lm_source *s)
{
	if (!s->cpus)
		return;
	for (unsigned k = 0; k < 3; k++) {
		enum micro_place p = placements[k];
		for (const struct col *c = t->cols; c->test; c++) {
			char full[64];
			int cpu[2];
			snprintf(full, sizeof(full), "%s_%s", c->test, place_suffix(p));
			unsigned nc = (unsigned)s->cpus(s->ctx, full, cpu);
			if (nc == 2)
				fprintf(out, "%-5s %s: CPUs %d and %d\n", place_suffix(p),
					place_words(p), cpu[0], cpu[1]);
			else if (nc == 1)
				fprintf(out, "%-5s both ends on one CPU: CPU %d\n", place_suffix(p),
					cpu[0]);
			if (nc)
				break;
		}
	}
}

#define DASHES "--------------------------------------------------------------------"
#define MAX_ROWS 64

/* One line of a table being built. */
struct line {
	char text[512];
	int at;
};

static void add(struct line *l, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void add(struct line *l, const char *fmt, ...)
{
	va_list ap;
	if (l->at >= (int)sizeof(l->text) - 1)
		return;
	va_start(ap, fmt);
	int w = vsnprintf(l->text + l->at, sizeof(l->text) - (size_t)l->at, fmt, ap);
	va_end(ap);
	if (w > 0)
		l->at += w;
	if (l->at > (int)sizeof(l->text) - 1)
		l->at = (int)sizeof(l->text) - 1;
}

static void print_trimmed(FILE *out, struct line *l)
{
	while (l->at && l->text[l->at - 1] == ' ')
		l->text[--l->at] = '\0';
	fprintf(out, "%s\n", l->text);
}

/* The rows of table t: every source, in a placed table once per
 * placement with figures (or once, unplaced, for a run from before
 * placements), MAX_ROWS at most, into rs[] and rp[].  Returns their count;
 * *any_placed is set when a row has a placement. */
static size_t table_rows(const struct table *t, const struct lm_source *src, size_t nsrc,
			 const struct lm_source **rs, enum micro_place *rp, int *any_placed)
{
	size_t nrows = 0;
	for (size_t i = 0; i < nsrc && nrows < MAX_ROWS; i++) {
		size_t before = nrows;
		if (t->placed)
			for (unsigned k = 0; k < 3 && nrows < MAX_ROWS; k++)
				if (row_has_figure(t, &src[i], placements[k])) {
					rs[nrows] = &src[i];
					rp[nrows++] = placements[k];
					*any_placed = 1;
				}
		if (nrows == before && row_has_figure(t, &src[i], MICRO_PLACE_NONE)) {
			rs[nrows] = &src[i];
			rp[nrows++] = MICRO_PLACE_NONE;
		}
	}
	return nrows;
}

/* Table t, lmbench 2's layout, a row per source (and placement). */
static void print_table(FILE *out, const struct table *t, const struct lm_source *src,
			size_t nsrc)
{
	const struct lm_source *rs[MAX_ROWS];
	enum micro_place rp[MAX_ROWS];
	int any_placed = 0;
	size_t nrows = table_rows(t, src, nsrc, rs, rp, &any_placed);
	if (!nrows)
		return;
	int hw = 4, ow = 2;
	for (size_t r = 0; r < nrows; r++) {
		if ((int)strlen(rs[r]->host) > hw)
			hw = (int)strlen(rs[r]->host);
		if ((int)strlen(rs[r]->os) > ow)
			ow = (int)strlen(rs[r]->os);
	}
	if (hw > 40)
		hw = 40;
	if (ow > 60)
		ow = 60;
	struct line h1 = { "", 0 }, h2 = { "", 0 }, rule = { "", 0 };
	static struct line row[MAX_ROWS];
	add(&h1, "%-*s %-*s", hw, "Host", ow, "OS");
	add(&h2, "%-*s %-*s", hw, "", ow, "");
	add(&rule, "%.*s %.*s", hw, DASHES, ow, DASHES);
	for (size_t r = 0; r < nrows; r++) {
		row[r].at = 0;
		row[r].text[0] = '\0';
		add(&row[r], "%-*.*s %-*.*s", hw, hw, rs[r]->host, ow, ow, rs[r]->os);
	}
	if (any_placed) {
		add(&h1, " %-5s", "Place");
		add(&h2, " %-5s", "");
		add(&rule, " -----");
		for (size_t r = 0; r < nrows; r++)
			add(&row[r], " %-5s", place_suffix(rp[r]));
	}
	if (t->mhz) {
		add(&h1, " %5s", "Mhz");
		add(&h2, " %5s", "");
		add(&rule, " -----");
		for (size_t r = 0; r < nrows; r++) {
			char mhz[16];
			if (rs[r]->mhz > 0)
				snprintf(mhz, sizeof(mhz), "%d%s", rs[r]->mhz,
					 rs[r]->mhz_measured ? "*" : "");
			else
				snprintf(mhz, sizeof(mhz), "-");
			add(&row[r], " %5s", mhz);
		}
	}
	for (const struct col *c = t->cols; c->test; c++) {
		int w = col_width(c);
		add(&h1, " %*s", w, c->h1);
		add(&h2, " %*s", w, c->h2);
		add(&rule, " %.*s", w, "----------");
		for (size_t r = 0; r < nrows; r++) {
			double v = 0;
			int placed, rc = col_figure(rs[r], c->test, rp[r], &v, &placed);
			char txt[32] = "";
			if (rc < 0)
				snprintf(txt, sizeof(txt), "-");
			else if (rc > 0)
				fmt_value(txt, sizeof(txt), v, w);
			add(&row[r], " %*s", w, txt);
		}
	}
	bool guesses = !strncmp(t->title, "Memory latencies in nanoseconds - ", 34);
	if (guesses) {
		/* lmbench 2's last column: its guesses at the cache sizes (left
		 * blank: kbench names the levels in the per-test lines) */
		add(&h1, " %s", "Guesses");
		add(&rule, " -------");
	}
	fprintf(out, "\n%s\n", t->title);
	if (guesses)
		fprintf(out, "    (WARNING - may not be correct, check graphs)\n");
	fprintf(out, "%.*s\n", rule.at, DASHES DASHES DASHES DASHES);
	print_trimmed(out, &h1);
	print_trimmed(out, &h2);
	print_trimmed(out, &rule);
	for (size_t r = 0; r < nrows; r++)
		print_trimmed(out, &row[r]);
	if (any_placed && nsrc == 1)
		print_places(out, t, &src[0]);
}

void lm_banner(FILE *out, const struct lm_source *src, size_t nsrc)
{
	fprintf(out, "\n%17s%s\n%17s%s\n", "", "L M B E N C H  2 . 0   S U M M A R Y", "",
		"------------------------------------");
	fprintf(out, "%17s(kbench %s micro: lmbench's methods, lmbench 2's tables)\n", "",
		PACKAGE_VERSION);
	int hw = 9, ow = 13, dw = 23;
	for (size_t i = 0; i < nsrc; i++) {
		if ((int)strlen(src[i].host) > hw)
			hw = (int)strlen(src[i].host);
		if ((int)strlen(src[i].os) > ow)
			ow = (int)strlen(src[i].os);
		if (src[i].descr && (int)strlen(src[i].descr) > dw)
			dw = (int)strlen(src[i].descr);
	}
	if (hw > 40)
		hw = 40;
	if (ow > 60)
		ow = 60;
	if (dw > 60)
		dw = 60;
	fprintf(out, "\nBasic system parameters\n");
	fprintf(out, "%.*s\n", hw + ow + dw + 8, DASHES DASHES DASHES DASHES);
	struct line l = { "", 0 };
	add(&l, "%-*s %-*s %-*s %5s", hw, "Host", ow, "OS", dw, "Description", "Mhz");
	print_trimmed(out, &l);
	fprintf(out, "%.*s %.*s %.*s -----\n", hw, DASHES, ow, DASHES, dw, DASHES);
	for (size_t i = 0; i < nsrc; i++) {
		char mhz[16];
		if (src[i].mhz > 0)
			snprintf(mhz, sizeof(mhz), "%d%s", src[i].mhz, src[i].mhz_measured ? "*" : "");
		else
			snprintf(mhz, sizeof(mhz), "-");
		l.at = 0;
		l.text[0] = '\0';
		add(&l, "%-*.*s %-*.*s %-*.*s %5s", hw, hw, src[i].host, ow, ow, src[i].os, dw, dw,
		    src[i].descr ? src[i].descr : "", mhz);
		print_trimmed(out, &l);
	}
}

void lm_tables(FILE *out, const struct lm_source *src, size_t nsrc)
{
	for (size_t k = 0; k < sizeof(tables) / sizeof(tables[0]); k++)
		print_table(out, &tables[k], src, nsrc);
}

/* ---- the source of one run of kbench micro ---- */

struct run_ctx {
	const struct micro_test *const *tests;
	const struct micro_result *res;
	const int *failed;
	size_t n;
};

static int find(const struct run_ctx *c, const char *name)
{
	for (size_t i = 0; i < c->n; i++)
		if (c->tests[i]->family == MICRO_LMBENCH && !strcmp(c->tests[i]->name, name))
			return (int)i;
	return -1;
}

static int run_figure(const void *ctx, const char *name, double *v)
{
	const struct run_ctx *c = ctx;
	int i = find(c, name);
	if (i < 0)
		return 0;
	if (c->failed[i] || c->res[i].skipped[0])
		return -1;
	*v = c->res[i].value;
	return 1;
}

static int run_cpus(const void *ctx, const char *name, int cpu[2])
{
	const struct run_ctx *c = ctx;
	int i = find(c, name);
	if (i < 0 || c->failed[i] || c->res[i].skipped[0])
		return 0;
	cpu[0] = c->res[i].place_cpu[0];
	cpu[1] = c->res[i].place_cpu[1];
	return (int)c->res[i].place_ncpu;
}

void lm_report_text(FILE *out, const struct lm_host *h, const struct micro_opts *o,
		    const struct micro_test *const *tests, const struct micro_result *res,
		    const int *failed, size_t n)
{
	size_t count = 0;
	for (size_t i = 0; i < n; i++)
		count += tests[i]->family == MICRO_LMBENCH;
	if (!count)
		return;
	struct run_ctx c = { tests, res, failed, n };
	struct lm_source s = { h->host, h->os, h->descr, h->mhz, h->mhz_measured, run_figure,
			       run_cpus, &c };
	lm_banner(out, &s, 1);
	lm_tables(out, &s, 1);
	if (h->mhz_measured)
		fprintf(out, "\n* Mhz measured (a chain of dependent adds): no figure in /proc/cpuinfo "
			"or cpufreq\n");
	fprintf(out, "\nlmbench tests: median of %u intervals of at least %g ms each (%g ms in "
		"placed rows), clock and loop overhead subtracted; MB = 10^6 bytes\n", o->intervals,
		o->enough_s * 1e3, harness_placed_enough_s(o->enough_s) * 1e3);
	/* steal%: what the hypervisor took of the row's CPUs (sys/steal.h) */
	int steal = 0;
	for (size_t i = 0; i < n; i++)
		steal |= tests[i]->family == MICRO_LMBENCH && isfinite(res[i].steal_pct);
	fprintf(out, "%-22s %-16s %12s %-4s %12s %12s %7s%s\n", "test", "title", "median", "unit",
		"min", "max", "CoV%", steal ? "  steal%" : "");
	for (size_t i = 0; i < n; i++) {
		const struct micro_test *t = tests[i];
		const struct micro_result *r = &res[i];
		if (t->family != MICRO_LMBENCH)
			continue;
		if (failed[i] || r->skipped[0]) {
			fprintf(out, "%-22s %-16s %s: %s\n", t->name, t->title,
				failed[i] ? "FAILED" : "skipped", r->skipped);
			continue;
		}
		char cov[16], med[32], mn[32], mx[32];
		if (isfinite(r->cov_pct))
			snprintf(cov, sizeof(cov), "%.1f", r->cov_pct);
		else
			snprintf(cov, sizeof(cov), "-");
		fmt_line(med, sizeof(med), r->value);
		fmt_line(mn, sizeof(mn), r->min);
		fmt_line(mx, sizeof(mx), r->max);
		char st[16] = "";
		if (steal && isfinite(r->steal_pct))
			snprintf(st, sizeof(st), "  %6.1f", r->steal_pct);
		else if (steal)
			snprintf(st, sizeof(st), "  %6s", "-");
		fprintf(out, "%-22s %-16s %12s %-4s %12s %12s %7s%s\n", t->name, t->title, med, t->unit,
			mn, mx, cov, st);
	}
}
