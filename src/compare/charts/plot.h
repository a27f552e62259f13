/* kbench - compare --plot: the figures drawn by gnuplot
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * plot.c writes a gnuplot script with the figures of a comparison
 * (struct cmp, cmprow.h) inline and runs gnuplot on it.
 */
#ifndef KBENCH_PLOT_H
#define KBENCH_PLOT_H

#include <stdio.h>

#include "compare/judge/cmprow.h"

/* Does `gnuplot` exist in PATH?  1 yes, 0 no. */
int plot_available(void);

/* --plot's first check: 0 when gnuplot is here, else 1 after one line on
 * standard error (cmd's prefix) saying how to install it. */
int plot_missing(const char *cmd);

/* The gnuplot script plot_write runs, written to f: the terminal (PNG
 * when file ends in .png, else SVG), the output file, the figures inline
 * (every string from a results file escaped, escape.h, then quoted). */
void plot_script(FILE *f, const struct cmp *c, const char *file);

/* The tallest page, in pixels: a change chart of more rows goes on
 * (plot_page_name) pages of its own. */
#define PLOT_PAGE_PX 2000

/* The name of page page (2, 3, ...) of the picture file into buf (n
 * bytes): "-N" before the extension ("x.png" gives "x-2.png"). */
const char *plot_page_name(const char *file, size_t page, char *buf, size_t n);

/* Draw c into file (.svg or .png) with gnuplot: MB/s against client count
 * for the load tests (one line per file and memory limit, error bars: the
 * interval of the mean), each file's MiB/s of the disk tests, and the
 * change against A in percent of every test but load, a row a test,
 * right meaning better (error bars: the interval of the difference); the
 * picture grows with the count of tests up to PLOT_PAGE_PX pixels, then
 * the change chart goes on in FILE-2.svg, FILE-3.svg, ... (each at most
 * that tall).  Returns 0, or 1 after one line on stderr when gnuplot
 * fails. */
int plot_write(const struct cmp *c, const char *file);

/* Write the script script_of gives for c and file into a temporary file
 * and run gnuplot on it (what plot_write does with plot_script).  Returns
 * 0, or 1 after one line on stderr when gnuplot fails. */
/* Run gnuplot on the script script_of writes (with ctx) for the picture
 * file: the script in a temporary file, gnuplot's output kept in another,
 * both removed.  Returns 0 and says "CMD: wrote FILE" on standard error,
 * or 1 after one line saying why (no temporary file, the script not
 * written, gnuplot's last line when it failed). */
int plot_gnuplot(const char *cmd, const char *file,
		 void (*script_of)(FILE *, const void *, const char *), const void *ctx);
int plot_run(const struct cmp *c, const char *file,
	     void (*script_of)(FILE *, const struct cmp *, const char *));

#endif
