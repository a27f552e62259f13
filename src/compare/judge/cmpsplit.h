/* kbench - compare --by: one results file split by a dimension of its test names (cmpsplit.c)
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#ifndef KBENCH_CMPSPLIT_H
#define KBENCH_CMPSPLIT_H

#include <stddef.h>

#include "resultsfile/suitefile.h"

/* The split of one file by a dimension of its test names (--by mem):
 * out[0..*nout-1] become one file per value of " mem=VALUE" (in the order
 * of the file's params.mem_limits, else of first appearance), each holding
 * that value's tests under their names without the dimension, and path
 * "PATH mem=VALUE"; tests without the dimension are left out (their
 * count in *left).  Returns 0; -2 when the file has fewer than two values
 * (nothing to compare: *nout says how many, and nothing was made); -1
 * when memory runs out (out[0..*nout-1] were made).  Free each
 * out[0..*nout-1] with suitefile_free after 0 or -1. */
int cmp_split_by(const struct suitefile *f, const char *dim, struct suitefile *out,
		 size_t max, size_t *nout, size_t *left);

#endif
