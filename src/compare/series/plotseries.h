/* kbench - compare --series --plot: a chart of each stepping test against kernel (plotseries.c)
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#ifndef KBENCH_PLOTSERIES_H
#define KBENCH_PLOTSERIES_H

#include <stdio.h>

#include "compare/series/sertypes.h"

/* The gnuplot script of one chart, test t of s, into f, its picture file
 * (.png: PNG, else SVG): the kernels in order along x (their labels), each
 * run a point, each segment's median a line over its kernels, each step
 * a dashed line between its two kernels with its change; kept-out runs
 * drawn apart (open points).  Strings from the files escaped and quoted. */
void plotseries_script(FILE *f, const struct series *s, const struct ser_test *t,
		       const char *file);

/* Draw every test with a step, the first into file, the others into
 * FILE-2.svg, FILE-3.svg, ... (plot_page_name), with gnuplot; with no
 * step, the first test, to show there is none.  Returns 0, or 1 after one
 * line on stderr when gnuplot fails or a temporary file cannot be made. */
int plotseries_write(const struct series *s, const char *file);

#endif
