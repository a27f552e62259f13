/* kbench - compare --plot: what every chart shares
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Strings from results files made safe for a gnuplot script, the title
 * and the colour of each file (the same in every chart and picture), and
 * what kind of row a compared test is.  Reads struct cmp (cmprow.h) and
 * nothing of the charts, so each chart's file can use it.
 */
#ifndef KBENCH_PLOTUTIL_H
#define KBENCH_PLOTUTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "compare/judge/cmprow.h"

/* s as a gnuplot single-quoted string, to f: s escaped first (escape.h),
 * so no control character from a results file reaches the script. */
void plot_quoted(FILE *f, const char *s);

/* s, which holds no control character, as a single-quoted string. */
void plot_quoted_raw(FILE *f, const char *s);

/* The picture's terminal and output, first in every script: a FILE
 * ending in .png is a pngcairo picture of w x h pixels with a sans font
 * of font points, else an SVG of that size (its font a point larger, a
 * white background); the output is FILE as given, but for a name
 * starting with '|', which gnuplot runs as a shell command: the file of
 * that name in the current directory is meant (./NAME); UTF-8 text. */
void plot_open(FILE *f, const char *file, int w, int h, int font);

/* s escaped as the inside of a double-quoted string of a datablock or a
 * tic label: a double quote becomes a single one, a backslash doubled. */
void plot_datum(FILE *f, const char *s);

/* The title of file k in a chart's key, "B: LABEL" (or "B: PATH" when
 * the label is missing or another file's too), into buf (n bytes);
 * returns buf. */
const char *plot_file_title(const struct cmp *c, size_t k, char *buf, size_t n);

/* The colour of file k in every chart, "#RRGGBB": eight colours told
 * apart also by the colour-blind, A's first; the ninth file on takes
 * them again. */
const char *plot_color(size_t k);

/* Is row r a kbench load test (drawn against its client count), a disk
 * test (params.command "disk": also drawn in MiB/s)? */
bool plot_is_load(const struct cmp_row *r);
bool plot_is_disk(const struct cmp_row *r);

/* The family row r is grouped under: a micro test's params.family
 * ("byte", "lmbench"), else an import's params.tool, else its
 * params.command ("disk"), else "other". */
const char *plot_family(const struct cmp_row *r);

/* How many runs of file k's test t failed (the file's failures naming
 * it); 0 when t is NULL. */
size_t plot_failed_runs(const struct cmp *c, size_t k, const struct sf_test *t);

#endif
