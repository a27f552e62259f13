/* kbench - suite and compare: figures as text, and the table of a series
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every number kbench suite and kbench compare print about a test's
 * figures takes its form here: one rule for a figure (4 significant
 * digits below 1, two decimals above; compare's free text gives large
 * figures fewer decimals), one for a change in percent, one for a
 * duration; and the per-test summary table kbench suite ends with.
 * Strings from a results file are printed escaped (escape.h).
 */
#ifndef KBENCH_FIGURES_H
#define KBENCH_FIGURES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <jansson.h>

/* What the units of the tables mean, said under each. */
#define FIG_UNITS_NOTE "MB = 10^6 bytes (kbench load, lmbench's bandwidths), MiB = 2^20 " \
	"bytes (kbench disk), KB = 1024 bytes (BYTE's KBps)"

/* A figure of a table column, into buf (n bytes): 4 significant digits
 * (fig_plain) when small (a row whose figures are all below 1 in size:
 * micro latencies in us), else two decimals ("%.2f"). */
void fig_fixed(char *buf, size_t n, double v, bool small);

/* A figure with sig significant digits as %g gives them (trailing zeros
 * dropped) but never in exponent form: 34226000 stays "34226000", 0.00001234
 * at 4 digits is "0.00001234"; "-" when not finite.  buf: n bytes. */
void fig_plain(char *buf, size_t n, double v, int sig);

/* A figure in compare's text, into buf (n bytes): "-" when not finite;
 * whole from 10^9 in size, one decimal from 100, else fig_fixed (small
 * below 1); never in exponent form. */
void fig_text(char *buf, size_t n, double v);

/* A change in percent, into buf (n bytes): "+2.02%", or "n/a" when it is
 * not finite (a change against a mean of 0). */
void fig_change(char *buf, size_t n, double pct);

/* Seconds, rounded to whole ones, into buf (n bytes): "45s", "3m07s",
 * "2h05m" (minutes dropped below an hour's precision). */
void fig_duration(char *buf, size_t n, double s);

/* The table kbench suite ends with, from its results document doc
 * (suitefile.h; read by suitefile_test): a row per test with its runs,
 * min, median, mean, max and CoV in percent ("-" where there is none)
 * and its unit (and why it was skipped), the failed runs, the rows'
 * caveats (rowcav_print_table_notes, at FIG_CAVEAT_CONF), the units, and
 * path, the results file.  Printed to f. */
#define FIG_CAVEAT_CONF 95.0
void fig_table(FILE *f, const json_t *doc, const char *path);

#endif
