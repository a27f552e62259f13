/* kbench - compare: lmbench's tables of kbench micro runs
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * After the comparison, when the files hold lmbench tests, kbench compare
 * prints lmbench 2's summary (micro/lmbench/lmreport.h: the banner, Basic
 * system parameters, the tables) with one row per run per file, as lmbench
 * users posted two kernels side by side.  (A plain `kbench micro --json`
 * document is read as a results file of one run by resultsfile/sfmicro.h.)
 */
#ifndef KBENCH_CMPMICRO_H
#define KBENCH_CMPMICRO_H

#include "resultsfile/suitefile.h"

#include <stdio.h>

/* lmbench's summary of the lmbench tests of files f[0..nf-1] to out: one
 * row per run of each file (its host and kernel from the file's system),
 * in the files' order; nothing when no file holds an lmbench test. */
void cmpmicro_lmbench(FILE *out, const struct suitefile *f, size_t nf);

#endif
