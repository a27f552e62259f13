/* kbench - import: old text reports read into results files
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * kbench import reads the text that older tools printed (BYTE UNIX
 * Benchmarks reports and their "Test || A -> B +x%" comparisons, LMbench
 * summaries, dbench and tbench "Throughput" lines, hdparm "Timing" lines,
 * tables of runs such as "hdparm -T 37.43 37.43 ...") and writes results
 * files kbench compare reads like kbench suite's.  Every reader (one file
 * each, imp_*.c) walks the lines of one input and hands each figure it
 * can read to imp_add(); a line it cannot read is named by imp_skip()
 * with the reason.  No figure is ever made up: a line that does not say
 * which number is which is skipped.
 *
 * A figure belongs to a system (the kernel and the machine that ran it),
 * a run (one execution of the tool: one BYTE report, one row of an
 * LMbench table, one column of a table of runs) and a test, named by the
 * tool's own words after the tool's name ("byte: Execl Throughput",
 * "lmbench: null call", "dbench 5", "hdparm -T"), so that no test of one
 * tool shares a name with a test of another or with kbench's own (but
 * kbench's own figures, read back from kbench compare --export, keep
 * kbench's names: imp_harness.c).
 */
#ifndef KBENCH_IMP_READERS_H
#define KBENCH_IMP_READERS_H

#include "import/imptypes.h"

/* The readers: each reads what it knows in file and returns how many
 * figures it added, or -1 when memory runs out. */
int imp_read_byte(struct imp *im, const struct imp_file *file);     /* imp_byte.c */
int imp_read_bytecmp(struct imp *im, const struct imp_file *file);  /* imp_bytecmp.c */
int imp_read_bytecols(struct imp *im, const struct imp_file *file); /* imp_bytecols.c: one
								     * column a kernel */
int imp_read_lmbench(struct imp *im, const struct imp_file *file);  /* imp_lmbench.c */
int imp_read_tput(struct imp *im, const struct imp_file *file);     /* imp_tput.c: dbench,
								     * tbench, hdparm */
int imp_read_table(struct imp *im, const struct imp_file *file);    /* imp_table.c */
int imp_read_avgtable(struct imp *im, const struct imp_file *file); /* imp_avgtable.c: a
								     * mean a kernel and
								     * count */
int imp_read_harness(struct imp *im, const struct imp_file *file);  /* imp_harness.c: LKP's
								     * JSON, kbench's LKP and
								     * mmtests exports; sets
								     * im->bad after one line
								     * on bad input */

#endif
