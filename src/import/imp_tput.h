/* kbench - import: the parts of the dbench, tbench and hdparm reader
 * (imp_tput.c, imp_tcols.c, imp_tblock.c) and what they share
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The reader walks a report once; struct tput_ctx is what the lines above
 * a figure said (the tool, the device, the client count, the kernel or
 * heading over the runs, each block of runs so far), so that each line is
 * looked at once.  Only these three files include this header.
 */
#ifndef KBENCH_IMP_TPUT_H
#define KBENCH_IMP_TPUT_H

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

/* imp_tput.c */
bool tput_names_word(const char *l, const char *tool);
size_t tput_count_after(const char *l, const char *tool);
const struct imp_sys *tput_ctx_sys(const struct tput_ctx *c, const struct imp_file *f,
				   size_t ln);
struct imp_sys tput_sys_of(const struct imp_file *f, size_t ln, const struct imp_sys *sys);
int tput_throughput(struct imp *im, const struct imp_file *f, size_t ln, const char *l,
		    const struct tput_ctx *c);

/* imp_tcols.c: rows of columns under a line naming them, and Throughput
 * lines behind a label (kernel, heading, or the tool and its count) */
int tput_columns_row(struct imp *im, const struct imp_file *f, size_t ln, const char *l,
		     const struct tput_ctx *c);
int tput_labelled(struct imp *im, const struct imp_file *f, size_t ln, const char *l,
		  const struct tput_ctx *c, bool *done);

/* imp_tblock.c: whose runs a block is */
bool tput_rows_sys(struct imp *im, const struct imp_file *f, size_t ln,
		   const struct tput_ctx *c, const char *name, struct imp_sys *sys);
void tput_say_split(struct imp *im, const struct imp_file *f, struct tput_ctx *c);
bool tput_is_run(const char *l);
void tput_kernel_heads(const struct imp_file *f, struct imp_kernels *k);
void tput_block_begin(struct imp *im, const struct imp_file *f, size_t ln, struct tput_ctx *c);
void tput_block_noted(struct tput_ctx *c, const struct imp_file *f, size_t ln);
void tput_block_prose(struct imp *im, const struct imp_file *f, size_t ln, struct tput_ctx *c);

#endif
