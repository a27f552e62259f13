/* kbench - import: what the dbench, tbench and hdparm reader knows at a line
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The reader (imp_tput.c) walks a report once; struct tput_ctx is what the
 * lines above a figure said (the tool, the device, the client count, the
 * kernel or heading over the runs, each block of runs so far), so that
 * each line is looked at once.  The types alone: each part of the reader
 * (imp_tline.c, imp_tcols.c, imp_tblock.c) has its own header.
 */
#ifndef KBENCH_IMP_TCTX_H
#define KBENCH_IMP_TCTX_H

#include "import/imptypes.h"
#include "import/imp_kernel.h"

#include <stdbool.h>
#include <stddef.h>

/* Under a line naming several kernels, for --rows: the kernels it named
 * and how many runs of each test were read so far. */
#define SPLIT_TESTS 64
struct split_runs {
	char kernel[4][160];
	size_t nkernels;
	char test[SPLIT_TESTS][64];
	size_t runs[SPLIT_TESTS], ntests;
};

/* A block of runs: the runs of one quote class (0 the poster's own
 * lines, 1 quoted ones) that no prose, no change of quote level and no
 * kernel line or heading interrupts. */
struct tput_block {
	size_t last;           /* the line of its last run, or 0 before any */
	size_t depth;          /* its quote level (marks before its lines) */
	bool fresh;            /* a kernel line or heading was read since */
	size_t fresh_depth;    /* the quote level of that line */
	bool stale;            /* prose was read since its last run */
	char heading[160];     /* the words right above its first run */
};

struct tput_ctx {
	const char *tool;      /* "dbench", "tbench" or NULL */
	char ver[40];          /* " 4.00", or "" */
	char dev[64];          /* "/dev/sda", or "" */
	size_t clients;        /* "dbench 16", "16 clients started": for a
				* dbench 1.x line that does not say, or 0 */
	struct imp_sys sys;    /* the kernel the lines above named */
	struct imp_sys qsys;   /* the one quoted lines above named: a quote is
				* another post, its kernel not the poster's */
	size_t split;          /* a line naming several kernels above, not yet
				* said (split_said), or 0 */
	bool split_said;
	struct split_runs *runs; /* under that line: each test's runs so far */
	const struct imp_kernels *kern; /* the kernels the whole report names */
	struct tput_block blk[2];       /* per quote class */
};

#endif
