/* kbench - import: one dbench or tbench "Throughput" line read (imp_tline.c)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A line's figure, its client count and its system, for the line walker
 * (imp_tput.c) and the rows of columns and labelled lines (imp_tcols.c).
 */
#ifndef KBENCH_IMP_TLINE_H
#define KBENCH_IMP_TLINE_H

#include "import/imp_tctx.h"

/* Does line l name tool as a word ("dbench", "./dbench", "dbench:")? */
bool tput_names_word(const char *l, const char *tool);

/* The client count after the word tool in line l ("./dbench 16", "time
 * dbench 40"): a whole number from 1 to 1000000, else 0. */
size_t tput_count_after(const char *l, const char *tool);

/* The system the lines above line ln (from 1) of f name for it: the
 * quoted lines' for a quoted line, the poster's own for the others. */
const struct imp_sys *tput_ctx_sys(const struct tput_ctx *c, const struct imp_file *f,
				   size_t ln);

/* The system of a figure on line ln: sys, marked "quoted" when the line
 * is behind a mail quote prefix (another post's, never pooled with the
 * poster's own). */
struct imp_sys tput_sys_of(const struct imp_file *f, size_t ln, const struct imp_sys *sys);

/* Line ln of f, l, a "Throughput N MB/sec [M procs]" line: its figure
 * added (MB = 10^6 bytes, as dbench printed it) with its client count and
 * system, or the line skipped with the reason (no 'N MB/sec', a count
 * that is none).  Returns 1 when a figure was added, 0 when skipped, -1
 * when memory runs out. */
int tput_throughput(struct imp *im, const struct imp_file *f, size_t ln, const char *l,
		    const struct tput_ctx *c);

#endif
