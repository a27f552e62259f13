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

/* The program Execl Throughput (byte_execl) executes, with the single
 * argument "--version" and its output sent to /dev/null; it must exit 0.
 * The default, "/proc/self/exe", is the running kbench binary; a program
 * that is not kbench (a unit test) sets the kbench binary here.  path is
 * not copied and must stay valid. */
void byte_set_execl_program(const char *path);

#endif
