/* kbench - micro: the lmbench family's text report (see lmreport.h)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The table layouts are lmbench 2's summary (its "make see" output): the
 * same headings and columns in the same order, less the RPC columns
 * kbench does not measure, plus L3 in the memory table, and a second
 * memory table of lmbench 3's random-order chain.  A skipped or
 * failed test shows "-"; a test not chosen shows nothing.  A column of a
 * test between processes names the test without its placement; the
 * tables holding such columns (context switching, local communication)
 * get a "Place" column and one row per placement that gave a figure
 * (1cpu, 2smt, 2core, as the rows' names end; the CPUs are said under
 * the table); the other columns of those tables repeat in every row.
 */
#include "config.h"
#include "micro/harness.h"
#include "micro/lmreport.h"
#include "result/sysinfo.h"
#include "sys/clock.h"

#include <math.h>
#include <stdint.h>
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
		{ "lat_sig_catch", "sig", "hndl" }, { "lat_proc_fork", "fork", "proc" },
		{ "lat_proc_exec", "exec", "proc" }, { "lat_proc_shell", "sh", "proc" },
		{ NULL, NULL, NULL } } },
	{ "Context switching - times in microseconds - smaller is better", 0, 1, {
		{ "lat_ctx_2p_0k", "2p/0K", "ctxsw" }, { "lat_ctx_2p_16k", "2p/16K", "ctxsw" },
		{ "lat_ctx_2p_64k", "2p/64K", "ctxsw" }, { "lat_ctx_8p_16k", "8p/16K", "ctxsw" },
		{ "lat_ctx_8p_64k", "8p/64K", "ctxsw" }, { "lat_ctx_16p_16k", "16p/16K", "ctxsw" },
		{ "lat_ctx_16p_64k", "16p/64K", "ctxsw" }, { NULL, NULL, NULL } } },
	{ "*Local* Communication latencies in microseconds - smaller is better", 0, 1, {
		{ "lat_ctx_2p_0k", "2p/0K", "ctxsw" }, { "lat_pipe", "Pipe", "" },
		{ "lat_unix", "AF", "UNIX" }, { "lat_udp", "UDP", "" }, { "lat_tcp", "TCP", "" },
		{ "lat_connect", "TCP", "conn" }, { NULL, NULL, NULL } } },
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
	h->mhz = si.cpu_mhz;
	if (!h->mhz) {
		h->mhz = measure_mhz();
		h->mhz_measured = h->mhz > 0;
	}
}

static int find(const char *name, const struct micro_test *const *tests, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (tests[i]->family == MICRO_LMBENCH && !strcmp(tests[i]->name, name))
			return (int)i;
	return -1;
}

/* The test of column name in placement p: the row NAME_SUFFIX when it was
 * chosen, else the unplaced row NAME. */
static int find_placed(const char *name, enum micro_place p,
		       const struct micro_test *const *tests, size_t n)
{
	char full[64];
	if (p != MICRO_PLACE_NONE) {
		snprintf(full, sizeof(full), "%s_%s", name, place_suffix(p));
		int i = find(full, tests, n);
		if (i >= 0)
			return i;
	}
	return find(name, tests, n);
}

/* A figure in at most w characters, with as many decimals as fit (up to 2
 * below 10, 1 below 100). */
static void fmt_value(char *buf, size_t len, double v, int w)
{
	int dec = v < 10 ? 2 : v < 100 ? 1 : 0;
	for (; dec >= 0; dec--) {
		snprintf(buf, len, "%.*f", dec, v);
		if ((int)strlen(buf) <= w)
			return;
	}
	snprintf(buf, len, "%.2g", v);
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

/* Whether row p of table t has a figure of its own: for p NONE any
 * column; for a placement, a column of that placement's row. */
static int row_has_figure(const struct table *t, enum micro_place p,
			  const struct micro_test *const *tests, const struct micro_result *res,
			  const int *failed, size_t n)
{
	for (const struct col *c = t->cols; c->test; c++) {
		int i = find_placed(c->test, p, tests, n);
		if (i >= 0 && !failed[i] && !res[i].skipped[0] &&
		    (p == MICRO_PLACE_NONE || tests[i]->place == p))
			return 1;
	}
	return 0;
}

/* Under a table with a Place column: which CPUs each row's tests ran on
 * (the first placed test of the row that ran says). */
static void print_places(FILE *out, const struct table *t, const enum micro_place *rows,
			 unsigned nrows, const struct micro_test *const *tests,
			 const struct micro_result *res, size_t n)
{
	for (unsigned r = 0; r < nrows; r++)
		for (const struct col *c = t->cols; c->test; c++) {
			int i = find_placed(c->test, rows[r], tests, n);
			if (i < 0 || tests[i]->place != rows[r] || !res[i].place_ncpu)
				continue;
			if (res[i].place_ncpu == 2)
				fprintf(out, "%-5s %s: CPUs %d and %d\n", place_suffix(rows[r]),
					place_words(rows[r]), res[i].place_cpu[0],
					res[i].place_cpu[1]);
			else
				fprintf(out, "%-5s both ends on one CPU: CPU %d\n",
					place_suffix(rows[r]), res[i].place_cpu[0]);
			break;
		}
}

#define DASHES "--------------------------------------------------------------------"

static void print_table(FILE *out, const struct table *t, const struct lm_host *h,
			const struct micro_test *const *tests, const struct micro_result *res,
			const int *failed, size_t n)
{
	enum micro_place rows[3];
	unsigned nrows = 0;
	if (t->placed) {
		for (unsigned k = 0; k < 3; k++)
			if (row_has_figure(t, placements[k], tests, res, failed, n))
				rows[nrows++] = placements[k];
		/* only unplaced columns chosen: one row, no placement */
		if (!nrows && row_has_figure(t, MICRO_PLACE_NONE, tests, res, failed, n))
			rows[nrows++] = MICRO_PLACE_NONE;
	} else if (row_has_figure(t, MICRO_PLACE_NONE, tests, res, failed, n)) {
		rows[nrows++] = MICRO_PLACE_NONE;
	}
	if (!nrows)
		return;
	int place_col = t->placed && rows[0] != MICRO_PLACE_NONE;
	int hw = (int)strlen(h->host), ow = (int)strlen(h->os);
	if (hw < 4)
		hw = 4;
	if (ow < 2)
		ow = 2;
	char line1[512], line2[512], rule[512], row[3][512];
	int p1 = snprintf(line1, sizeof(line1), "%-*s %-*s", hw, "Host", ow, "OS");
	int p2 = snprintf(line2, sizeof(line2), "%-*s %-*s", hw, "", ow, "");
	int pr = snprintf(rule, sizeof(rule), "%.*s %.*s", hw, DASHES, ow, DASHES);
	int pw[3];
	for (unsigned r = 0; r < nrows; r++)
		pw[r] = snprintf(row[r], sizeof(row[r]), "%-*s %-*s", hw, h->host, ow, h->os);
	if (place_col) {
		p1 += snprintf(line1 + p1, sizeof(line1) - p1, " %-5s", "Place");
		p2 += snprintf(line2 + p2, sizeof(line2) - p2, " %-5s", "");
		pr += snprintf(rule + pr, sizeof(rule) - pr, " -----");
		for (unsigned r = 0; r < nrows; r++)
			pw[r] += snprintf(row[r] + pw[r], sizeof(row[r]) - pw[r], " %-5s",
					  place_suffix(rows[r]));
	}
	if (t->mhz) {
		char mhz[16];
		if (h->mhz > 0)
			snprintf(mhz, sizeof(mhz), "%d%s", h->mhz, h->mhz_measured ? "*" : "");
		else
			snprintf(mhz, sizeof(mhz), "-");
		p1 += snprintf(line1 + p1, sizeof(line1) - p1, " %5s", "Mhz");
		p2 += snprintf(line2 + p2, sizeof(line2) - p2, " %5s", "");
		pr += snprintf(rule + pr, sizeof(rule) - pr, " -----");
		for (unsigned r = 0; r < nrows; r++)
			pw[r] += snprintf(row[r] + pw[r], sizeof(row[r]) - pw[r], " %5s", mhz);
	}
	for (const struct col *c = t->cols; c->test; c++) {
		int w = col_width(c);
		p1 += snprintf(line1 + p1, sizeof(line1) - p1, " %*s", w, c->h1);
		p2 += snprintf(line2 + p2, sizeof(line2) - p2, " %*s", w, c->h2);
		pr += snprintf(rule + pr, sizeof(rule) - pr, " %.*s", w, "----------");
		for (unsigned r = 0; r < nrows; r++) {
			int i = find_placed(c->test, rows[r], tests, n);
			char v[32] = "";
			if (i >= 0 && (failed[i] || res[i].skipped[0]))
				snprintf(v, sizeof(v), "-");
			else if (i >= 0)
				fmt_value(v, sizeof(v), res[i].value, w);
			pw[r] += snprintf(row[r] + pw[r], sizeof(row[r]) - pw[r], " %*s", w, v);
		}
	}
	fprintf(out, "\n%s\n", t->title);
	fprintf(out, "%.*s\n", pr, DASHES DASHES DASHES);
	char *lines[5] = { line1, line2, row[0], nrows > 1 ? row[1] : NULL,
			   nrows > 2 ? row[2] : NULL };
	for (unsigned k = 0; k < 5; k++) {
		if (!lines[k])
			continue;
		size_t len = strlen(lines[k]);
		while (len && lines[k][len - 1] == ' ')
			lines[k][--len] = '\0';
	}
	fprintf(out, "%s\n%s\n%s\n", line1, line2, rule);
	for (unsigned r = 0; r < nrows; r++)
		fprintf(out, "%s\n", row[r]);
	if (place_col)
		print_places(out, t, rows, nrows, tests, res, n);
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
	for (size_t k = 0; k < sizeof(tables) / sizeof(tables[0]); k++)
		print_table(out, &tables[k], h, tests, res, failed, n);
	if (h->mhz_measured)
		fprintf(out, "\n* Mhz measured (a chain of dependent adds): no figure in /proc/cpuinfo "
			"or cpufreq\n");
	fprintf(out, "\nlmbench tests: median of %u intervals of at least %g ms each, clock and "
		"loop overhead subtracted; MB = 10^6 bytes\n", o->intervals, o->enough_s * 1e3);
	fprintf(out, "%-22s %-16s %12s %-4s %12s %12s %7s\n", "test", "title", "median", "unit",
		"min", "max", "CoV%");
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
		fprintf(out, "%-22s %-16s %12s %-4s %12s %12s %7s\n", t->name, t->title, med, t->unit,
			mn, mx, cov);
	}
}
