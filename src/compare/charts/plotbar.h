/* kbench - compare --plot: the charts of every test but load, as bars
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Horizontal bars, a test a row, so that many tests stay legible (the
 * picture grows with their count): the change chart, every compared test
 * but load in percent against A, grouped by family and turned so that
 * right is always better; and the disk chart, each file's MiB/s of every
 * disk test.  Each file has its colour (plot_color) in both.
 */
#ifndef KBENCH_PLOTBAR_H
#define KBENCH_PLOTBAR_H

#include <stddef.h>
#include <stdio.h>

#include "compare/judge/cmprow.h"

/* The change chart's rows of c (tests and family headings; 0: no such
 * test: every compared test but load whose A has runs). */
size_t plotbar_change_rows(const struct cmp *c);

/* The height in pixels a change chart of rows rows needs (0 for 0). */
int plotbar_change_height(const struct cmp *c, size_t rows);

/* How many rows a change chart of px pixels holds (0 when none). */
size_t plotbar_rows_in(const struct cmp *c, int px);

/* The change chart of c to f, as gnuplot commands (a plot of its own,
 * in the current multiplot cell): per test, each file B, C, ...'s change
 * of the median (mean with --test welch, and the interval of the
 * difference) as a bar from 0, right meaning better (a lower-is-better
 * test's change turned), every run of every file a point in percent of
 * A's centre (turned the same way), a failed run a cross at the left
 * edge, a run far off the scale a triangle at the edge with its figure;
 * a row's label "NAME (UNIT, lower is better; B: n/a)" says which way
 * the test goes and where a change against 0 has no bar.  Only rows lo
 * to hi - 1 (from 0; a page of a long chart, its title saying which). */
void plotbar_change(FILE *f, const struct cmp *c, size_t lo, size_t hi);

/* The height in pixels the disk chart needs (0: no disk row with runs). */
int plotbar_disk_height(const struct cmp *c);

/* The disk chart to f: per disk test, each file's median (mean) in the
 * test's unit (MiB/s) as a bar with its figure, every run a point, a
 * failed run a cross at 0. */
void plotbar_disk(FILE *f, const struct cmp *c);

#endif
