/* kbench - import: dbench rows of columns and Throughput lines behind a label (imp_tcols.c)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Rows of columns under a line naming them, and Throughput lines behind
 * a label (kernel, heading, or the tool and its count).
 */
#ifndef KBENCH_IMP_TCOLS_H
#define KBENCH_IMP_TCOLS_H

#include "import/imp_tctx.h"

/* "dbench 16:   99.9868 MB/sec   179.243 MB/sec 16 procs" under a line
 * naming its columns ("before after"): one run a column, each column a
 * system of its own.  Returns the figures added, 0 when l is not that
 * form, -1 when memory runs out. */
int tput_columns_row(struct imp *im, const struct imp_file *f, size_t ln, const char *l,
		     const struct tput_ctx *c);

/* A Throughput line behind a label saying whose run it is: a kernel
 * ("2.4.18-pre3   Throughput 12.0448 MB/sec 64 procs"), a heading
 * ("Before: Throughput ...") or what printed it ("dbench 16: Throughput
 * ..."): *done, and the run added in that system.  Returns as
 * tput_throughput; not *done when l has no such label. */
int tput_labelled(struct imp *im, const struct imp_file *f, size_t ln, const char *l,
		  const struct tput_ctx *c, bool *done);

#endif
