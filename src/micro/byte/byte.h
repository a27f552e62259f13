/* kbench - micro: the BYTE UNIX Benchmarks family (its table, settings of its tests)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The tests themselves are the rows of micro_byte_tests[] (byte.c);
 * byte_set_execl_program() is in byte_sys.c.
 */
#ifndef KBENCH_MICRO_BYTE_H
#define KBENCH_MICRO_BYTE_H

#include "micro/test.h"

/* The BYTE family's table: one row per test, ended by a row whose name is
 * NULL. */
extern const struct micro_test micro_byte_tests[];

/* The helper Execl Throughput (byte_execl) runs, kbench-execl
 * (execl_helper.c: its command line and descriptors).  By default it is
 * found beside the running binary when that is TOP/src/kbench (a build
 * tree), else in $(pkglibexecdir); a program that is not kbench (a unit
 * test) sets the helper's path here.  path is not copied and must stay
 * valid. */
void byte_set_execl_program(const char *path);

#endif
