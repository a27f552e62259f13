/* kbench - compare: the machine settings in which two results files differ (cmpsettings.c)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every run's document records the machine's settings (system.settings,
 * sys/settings.h; a disk row's device in params.device_info and
 * system.disk.settings).  Two files that differ in one of them are not
 * compared as if only the kernel changed: each difference is named above
 * the table with the tests it can move, and each row it can move carries
 * the caveat settings_differ ("B: mitigations spectre_v2=Vulnerable"),
 * its verdict then read as the kernel's and the settings' together.
 *
 * Invariant: a setting a file does not record (an older kbench, an
 * imported report) or records as "unknown" never differs.  A CPU clock
 * differs only beyond 1% (cpuinfo's MHz is read at an instant).
 */
#ifndef KBENCH_CMPSETTINGS_H
#define KBENCH_CMPSETTINGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "compare/judge/cmprow.h"

#include <jansson.h>

/* The tests a setting can move. */
enum cmp_moves {
	MOVES_NOTHING,     /* the kernel's own build (its config): part of what is compared */
	MOVES_TIMING,      /* every figure: a governor, mitigations, the clock, SMT */
	MOVES_DISK,        /* kbench disk rows: scheduler, read-ahead, write cache, DMA */
	MOVES_MEMORY,      /* memory latencies and bandwidths, page faults, mmap: THP */
	MOVES_WRITEBACK,   /* load rows and file-writing micro tests: the dirty ratios */
	MOVES_LOAD,        /* load rows: swappiness, the loadfile's text */
	MOVES_MICRO,       /* micro rows: kbench's build */
};

#define CMP_SETTINGS_MAX 48

/* One setting that differs between A and file k. */
struct cmp_sdiff {
	char name[96];        /* "governor", "mitigations spectre_v2", "disk scheduler" */
	char a[1024], b[1024]; /* A's value and file k's, as recorded (JSON text for numbers) */
	char brief[160];      /* the difference in a few words: "governor=powersave",
			       * "cmdline +mitigations=off -quiet" */
	enum cmp_moves moves;
};

/* The words for what m moves: "every timing", "disk tests", ... */
const char *cmp_moves_text(enum cmp_moves m);

/* The settings of file k that differ from A's (c->f[0]) into out (at most
 * max), for row r when r is not NULL (its disk device's settings from
 * params.device_info), else the file's own (system.settings, the disk in
 * system.disk.settings).  Returns how many. */
size_t cmp_settings_diff(const struct cmp *c, size_t k, const struct sf_test *ta,
			 const struct sf_test *tk, struct cmp_sdiff *out, size_t max);

/* Can a setting that moves m move test t (its params' command and its
 * name)? */
bool cmp_moves_test(enum cmp_moves m, const struct sf_test *t);

/* Add to cav (file k's caveats of test tk, matched to A's ta) the caveat
 * settings_differ when a setting that differs can move the test:
 * evidence {"file": "B", "settings": {NAME: {"A": a, "B": b}}, "brief":
 * [BRIEF...]}, its runs every run of tk (each was measured so).  Returns
 * 1 when added, 0 when none applies, -1 when out of memory. */
int cmp_settings_caveats(const struct cmp *c, size_t k, const struct sf_test *ta,
			 const struct sf_test *tk, json_t *cav);

/* Add to cav (file k's caveats of its test t) the caveat settings_changed
 * when the settings a run's document recorded differ from the series'
 * (system.settings, read at its start) in one that can move the test: its
 * runs those runs, its evidence {NAME: {"series": v, "run": w, "run_no":
 * N}} of the first such run.  Returns 1 when added, 0 when none applies,
 * -1 when out of memory. */
int cmp_settings_run_caveats(const struct cmp *c, size_t k, const struct sf_test *t, json_t *cav);

/* Add to cav (the caveats of one kernel's runs of a test in a series) the
 * caveat settings_differ when its file's machine settings sk (a
 * system.settings object; NULL: none recorded) differ from sa, the
 * series' first kernel's, in one that can move the test name of command
 * cmd (NULL: not known): evidence {"settings": {NAME: {"first": a,
 * "this": b}}, "brief": [BRIEF...]}, its runs 1 to nruns.  Returns 1 when
 * added, 0 when none applies, -1 when out of memory. */
int cmp_settings_between(const json_t *sa, const json_t *sk, const char *name, const char *cmd,
			 size_t nruns, json_t *cav);

/* Does cav hold settings_differ (the row's verdict is then the kernel's
 * and the settings' together)? */
bool cmp_settings_in(const json_t *cav);

/* Above a table: "settings that differ ..." and a line a difference,
 * "  B: NAME: A VALUE, B VALUE (moves WHAT)", for every file against A;
 * nothing when none differs.  Strings escaped.  prefix starts each line
 * ("" or "* " for the lkml form). */
void cmp_print_settings(FILE *out, const struct cmp *c, const char *prefix);

/* The same as JSON: an array of {file, setting, A, value, brief, moves}. */
json_t *cmp_settings_json(const struct cmp *c);

/* The machine of file f as the seeds print it above their figures ("133
 * MHz Pentium, DMA, 80M"): the clock (system.settings.cpu_mhz, else
 * system.mhz) and CPU model, for a block with a disk test (disk set) the
 * device's DMA state where the kernel showed it, else its scheduler and
 * read-ahead, then the memory: mem (a memory limit's text) when given,
 * else the machine's (mem_total_kB, in MiB as "NM").  Into buf (n
 * bytes), unescaped; "" for a file that records none of it or has its
 * own machine line (an imported report's system.description). */
char *cmp_machine_line(const struct suitefile *f, bool disk, const char *mem, char *buf,
		       size_t n);

/* The settings_differ caveat's words after its key: " (B: brief, brief)". */
void cmp_settings_put_brief(FILE *out, const json_t *caveat);

#endif
