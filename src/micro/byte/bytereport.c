/* kbench - micro: BYTE UNIX Benchmarks 4.1's report form (see bytereport.h)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The layout follows the reports BYTE 4.1's Run script printed (the
 * header lines, "%-40s %12.1f %-5s (%.1f secs, %d samples)" per test,
 * the INDEX VALUES table); the figures and the index are byteindex.h's.
 */
#include "config.h"
#include "micro/byte/bytereport.h"
#include "micro/byte/byteindex.h"
#include "micro/byte/dhry.h"
#include "micro/place.h"
#include "sys/mountinfo.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statvfs.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>
#include <utmpx.h>

void byte_uptime_line(char *buf, size_t len, int hh, int mm, int ss, double up, int users,
		      const double load[3])
{
	long mins = up > 0 ? (long)(up / 60) : 0;
	long days = mins / (24 * 60), h = (mins / 60) % 24, m = mins % 60;
	char upbuf[64] = "";
	size_t at = 0;
	if (days)
		at += (size_t)snprintf(upbuf, sizeof upbuf, "%ld day%s, ", days, days == 1 ? "" : "s");
	if (h)
		snprintf(upbuf + at, sizeof upbuf - at, "%2ld:%02ld", h, m);
	else
		snprintf(upbuf + at, sizeof upbuf - at, "%ld min", m);
	snprintf(buf, len, " %02d:%02d:%02d up %s,  %d user%s,  load average: %.2f, %.2f, %.2f", hh,
		 mm, ss, upbuf, users, users == 1 ? "" : "s", load[0], load[1], load[2]);
}

static int count_users(void)
{
	int n = 0;
	struct utmpx *u;
	setutxent();
	while ((u = getutxent()))
		if (u->ut_type == USER_PROCESS)
			n++;
	endutxent();
	return n;
}

static void df_line(char *buf, size_t len, const char *dir)
{
	struct mountinfo *mi = malloc(sizeof(*mi));
	struct statvfs v;
	if (!mi || !dir || mountinfo_find(dir, mi) < 0 || statvfs(dir, &v) < 0) {
		snprintf(buf, len, "df of %s: (unknown)", dir ? dir : "the test directory");
		free(mi);
		return;
	}
	uint64_t f = v.f_frsize ? v.f_frsize : v.f_bsize;
	uint64_t total = v.f_blocks * f / 1024, used = (v.f_blocks - v.f_bfree) * f / 1024,
		 avail = v.f_bavail * f / 1024;
	/* df's Use%: used / (used + available), rounded up */
	uint64_t pct = used + avail ? (used * 100 + used + avail - 1) / (used + avail) : 0;
	snprintf(buf, len, "%-20.200s %10llu %10llu %10llu %3llu%% %.3800s", mi->source,
		 (unsigned long long)total, (unsigned long long)used, (unsigned long long)avail,
		 (unsigned long long)pct, mi->point);
	free(mi);
}

void byte_header_collect(struct byte_header *h, const char *dir)
{
	struct utsname u;
	memset(h, 0, sizeof(*h));
	if (uname(&u) == 0)
		snprintf(h->uname, sizeof h->uname, "%s %s %s %s %s", u.sysname, u.nodename,
			 u.release, u.version, u.machine);
	else
		snprintf(h->uname, sizeof h->uname, "(unknown)");
	time_t now = time(NULL);   /* the wall clock: the header dates the run */
	struct tm tm;
	localtime_r(&now, &tm);
	strftime(h->start, sizeof h->start, "%a %b %e %H:%M:%S %Z %Y", &tm);
	h->users = count_users();
	double up = 0, load[3] = { 0, 0, 0 };
	FILE *f = fopen("/proc/uptime", "re");
	if (f) {
		if (fscanf(f, "%lf", &up) != 1)
			up = 0;
		fclose(f);
	}
	if (getloadavg(load, 3) != 3)
		load[0] = load[1] = load[2] = 0;
	byte_uptime_line(h->uptime, sizeof h->uptime, tm.tm_hour, tm.tm_min, tm.tm_sec, up,
			 h->users, load);
	char target[PATH_MAX];
	ssize_t tl = readlink("/bin/sh", target, sizeof target - 1);
	if (tl > 0) {
		target[tl] = '\0';
		snprintf(h->sh, sizeof h->sh, "/bin/sh -> %s", target);
	} else {
		snprintf(h->sh, sizeof h->sh, "/bin/sh: %s",
			 access("/bin/sh", X_OK) ? "missing" : "not a symbolic link");
	}
	df_line(h->df, sizeof h->df, dir);
	h->cpus = sysconf(_SC_NPROCESSORS_ONLN);
}

static const struct { const char *test, *name; } names4[] = {
	{ "byte_arithoh", "Arithoh" },
	{ "byte_arith_short", "Arithmetic Test (type = short)" },
	{ "byte_arith_int", "Arithmetic Test (type = int)" },
	{ "byte_arith_long", "Arithmetic Test (type = long)" },
	{ "byte_arith_float", "Arithmetic Test (type = float)" },
	{ "byte_arith_double", "Arithmetic Test (type = double)" },
	{ "byte_hanoi", "Recursion Test--Tower of Hanoi" },
};

const char *byte4_name(const struct micro_test *t)
{
	for (size_t i = 0; i < sizeof names4 / sizeof names4[0]; i++)
		if (!strcmp(t->name, names4[i].test))
			return names4[i].name;
	return t->title;
}

static bool ran(const struct micro_result *r)
{
	return !r->skipped[0] && isfinite(r->value) && r->value > 0;
}

/* The header's kbench lines: how the CPU tests were built, where the
 * tests between processes ran. */
static void kbench_lines(FILE *out, const struct byte_header *h, unsigned copies,
			 const struct micro_test *const *tests, const struct micro_result *res,
			 size_t n)
{
	bool cpu = false;
	for (size_t i = 0; i < n; i++)
		cpu |= tests[i]->family == MICRO_BYTE && (!strcmp(tests[i]->name, "byte_dhry2") ||
							  !strcmp(tests[i]->name, "byte_whet"));
	if (cpu)
		fprintf(out, "  Dhrystone and Whetstone built by %s, %s, with %s\n", dhry_build_cc(),
			dhry_build_cc_version(), dhry_build_cflags());
	byte_report_differences(out, "  ", tests, n);
	fprintf(out, "  %ld CPUs online; %u cop%s of each test at once\n", h->cpus, copies,
		copies == 1 ? "y" : "ies");
	for (size_t i = 0; i < n; i++) {
		const struct micro_result *r = &res[i];
		if (tests[i]->family != MICRO_BYTE || tests[i]->place == MICRO_PLACE_NONE ||
		    !r->place_ncpu)
			continue;
		if (r->place_ncpu == 2)
			fprintf(out, "  %s: %s, CPUs %d and %d\n", tests[i]->name,
				place_words(tests[i]->place), r->place_cpu[0], r->place_cpu[1]);
		else
			fprintf(out, "  %s: one CPU, CPU %d\n", tests[i]->name, r->place_cpu[0]);
	}
}

void byte4_report_text(FILE *out, const struct byte_header *h, unsigned copies,
		       const struct micro_test *const *tests, const struct micro_result *res,
		       size_t n)
{
	size_t any = 0, indexed = 0, total = 0;
	for (size_t i = 0; i < n; i++)
		any += tests[i]->family == MICRO_BYTE;
	if (!any)
		return;
	fprintf(out, "  BYTE UNIX Benchmarks (Version 4.1 report form; kbench %s)\n",
		PACKAGE_VERSION);
	fprintf(out, "  System -- %s\n", h->uname);
	fprintf(out, "  Start Benchmark Run: %s\n", h->start);
	fprintf(out, "   %d interactive users.\n", h->users);
	fprintf(out, "  %s\n", h->uptime);
	fprintf(out, "  %s\n", h->sh);
	fprintf(out, "  %s\n", h->df);
	kbench_lines(out, h, copies, tests, res, n);
	for (size_t i = 0; i < n; i++) {
		const struct micro_test *t = tests[i];
		const struct micro_result *r = &res[i];
		if (t->family != MICRO_BYTE)
			continue;
		if (!ran(r)) {
			fprintf(out, "%-40s %12s %-5s (%s)\n", byte4_name(t), "-", t->unit,
				r->skipped[0] ? r->skipped : "no figure");
			continue;
		}
		fprintf(out, "%-40s %12.1f %-5s (%.1f secs, %u samples)", byte4_name(t), r->value,
			t->unit, r->sample_s, r->samples);
		if (isnan(r->cov_pct))
			fprintf(out, "  [min %.1f, max %.1f]\n", r->min, r->max);
		else
			fprintf(out, "  [min %.1f, max %.1f, CoV %.1f%%]\n", r->min, r->max,
				r->cov_pct);
	}
	fprintf(out, "(the figure combines the kept samples, the worst third dropped; min, max "
		"and CoV are of all samples; KBps: KB = 1024 bytes)\n");

	/* the index: the tests byte4 has a baseline for, in the run's order */
	double idx[64];
	for (size_t i = 0; i < n; i++) {
		if (tests[i]->family != MICRO_BYTE)
			continue;
		double base = byte_baseline_value("byte4", tests[i]->name);
		if (isnan(base))
			continue;
		total++;
		if (ran(&res[i]) && indexed < sizeof idx / sizeof idx[0])
			idx[indexed++] = byte_index(res[i].value, base);
	}
	if (!indexed)
		return;
	fprintf(out, "\n\n%s\n", "                     INDEX VALUES");
	fprintf(out, "%-40s %12s %12s %10s\n\n", "TEST", "BASELINE", "RESULT", "INDEX");
	for (size_t i = 0; i < n; i++) {
		if (tests[i]->family != MICRO_BYTE || !ran(&res[i]))
			continue;
		double base = byte_baseline_value("byte4", tests[i]->name);
		if (isnan(base))
			continue;
		fprintf(out, "%-40s %12.1f %12.1f %10.1f\n", byte4_name(tests[i]), base,
			res[i].value, byte_index(res[i].value, base));
	}
	fprintf(out, "%-40s %12s %12s %10s\n", "", "", "", "=========");
	fprintf(out, "%-66s %10.1f\n", "     FINAL SCORE", byte_geomean(idx, indexed));
	size_t all = byte_baseline_count("byte4");
	if (indexed < all)
		fprintf(out, "     (partial: %zu of BYTE 4.1's %zu indexed tests gave a figure%s)\n",
			indexed, all, total > indexed ? "; the others were skipped or failed" : "");
}
