/* kbench - import: whose runs a block of dbench, tbench or hdparm runs is (imp_tblock.c)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Where what the lines above named stops holding for the runs below.
 */
#ifndef KBENCH_IMP_TBLOCK_H
#define KBENCH_IMP_TBLOCK_H

#include "import/imp_tctx.h"

/* Under a line naming several kernels whose split is not proven, the
 * system --rows places the run of test name on line ln in (*sys): kernel
 * i of the line when --rows gives as many groups as it named, else "runs
 * A-B of each test".  false, and im->bad after an error line, when
 * --rows places fewer runs than there are; sys unchanged without --rows. */
bool tput_rows_sys(struct imp *im, const struct imp_file *f, size_t ln,
		   const struct tput_ctx *c, const char *name, struct imp_sys *sys);

/* Said once on stderr, at the first figure under it: the line above
 * that named several kernels leaves their split unproven. */
void tput_say_split(struct imp *im, const struct imp_file *f, struct tput_ctx *c);

/* Is l a run: a "Throughput N ... MB/sec" line of dbench or tbench, or
 * an hdparm "Timing ...: ... = ..." line? */
bool tput_is_run(const char *l);

/* Every heading right above a run in f noted in k (imp_kernels_heads):
 * a kernel named only as a heading is still one of the report's. */
void tput_kernel_heads(const struct imp_file *f, struct imp_kernels *k);

/* A run on line ln: the block it belongs to (c->blk of its quote class)
 * carried on, or a new block begun, whose system is the kernel line
 * right above it, the one above that still heads it, or a system of its
 * own ("kernel not proven", said on stderr) when neither is proven. */
void tput_block_begin(struct imp *im, const struct imp_file *f, size_t ln, struct tput_ctx *c);

/* A kernel line or heading on line ln: it heads the next block of its
 * quote class, and may head the other class's too. */
void tput_block_noted(struct tput_ctx *c, const struct imp_file *f, size_t ln);

/* Line ln of prose no reader used: the blocks above end there. */
void tput_block_prose(struct imp *im, const struct imp_file *f, size_t ln, struct tput_ctx *c);

#endif
