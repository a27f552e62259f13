/* kbench - compare --plot: the latency and time-series charts of load runs
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Beside --plot FILE's charts, a second picture FILE-latency.svg (or
 * .png): for each compared load test, one small chart per op with the
 * distribution of its latency (the fraction of ops at or below each
 * latency, on a log axis; one line per file, every run's histogram
 * merged), and one of MB/sec each second of every run (a line per run in
 * its file's colour; the warm-up shaded), from the runs' documents
 * (results.histograms, results.series: kbench-load(1)).
 */
#ifndef KBENCH_PLOTLAT_H
#define KBENCH_PLOTLAT_H

#include <stddef.h>
#include <stdio.h>
#include "compare/judge/cmprow.h"

/* Does any compared load test of c have a run with histograms or a
 * series?  1 yes, 0 no. */
int plotlat_wanted(const struct cmp *c);

/* The second picture's name for --plot file: "X-latency.svg" for
 * "X.svg" (".png" likewise), in buf (n bytes).  Returns buf. */
const char *plotlat_name(const char *file, char *buf, size_t n);

/* The gnuplot script of that picture (file is its name), to f. */
void plotlat_script(FILE *f, const struct cmp *c, const char *file);

/* Draw it with gnuplot when plotlat_wanted.  Returns 0 (also when not
 * wanted), or 1 after one line on stderr when gnuplot fails. */
int plotlat_write(const struct cmp *c, const char *file);

#endif
