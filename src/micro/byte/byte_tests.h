/* kbench - micro: the BYTE family's tests, shared between its files
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * byte.c holds the table micro_byte_tests[] and the run function all its
 * rows share; the tests themselves are struct fixed_ops (harness_fixed.h)
 * in byte_cpu.c (Dhrystone, Whetstone, arithmetic, Tower of Hanoi),
 * byte_sys.c (execl, pipes, context switching, process creation, system
 * calls, select), byte_fs.c (file copy, read, write), byte_shell.c
 * (shell scripts) and byte_tools.c (C compiler, dc).  A row's argument is a struct byte_arg; every test
 * reads its own numbers from p1..p3 as its file says.  Children are
 * always reaped and files removed by the test's cleanup.
 */
#ifndef KBENCH_MICRO_BYTE_TESTS_H
#define KBENCH_MICRO_BYTE_TESTS_H

#include "micro/byte/harness_fixed.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>

/* one row's parameters */
struct byte_arg {
	const struct fixed_ops *ops;
	enum fixed_class cls;
	double per;             /* 1: per second, 60: per minute */
	long p1, p2, p3;        /* the test's own numbers */
};

/* In a setup or run function (which have err and errlen): the reason into
 * err, and -1 (the run failed). */
#define ERR(...) (snprintf(err, errlen, __VA_ARGS__), -1)
/* a setup that finds the temporary directory's file system full: the test
 * cannot run here (a skip, as the lmbench file tests do), not a failure */
#define SETUP_ERR(e, ...) \
	(snprintf(err, errlen, __VA_ARGS__), (e) == ENOSPC || (e) == EDQUOT ? 1 : -1)

/* byte_cpu.c: no argument but for arithmetic, whose p1 is the type: 0
 * arithoh (the loop alone), 1 short, 2 int, 3 long, 4 float, 5 double */
extern const struct fixed_ops byte_dhry_ops, byte_whet_ops, byte_arith_ops, byte_hanoi_ops;

/* byte_sys.c: select's p1 is the number of pipes (at most 100); the
 * others take no argument */
extern const struct fixed_ops byte_execl_ops, byte_pipe_ops, byte_context_ops,
	byte_spawn_ops, byte_syscall_ops, byte_select_ops;

/* byte_fs.c: p1 the mode, p2 the buffer size in bytes (at most 8192), p3
 * the file size in KiB (2^10 bytes) */
enum fs_mode { FS_COPY, FS_READ, FS_WRITE };
extern const struct fixed_ops byte_fs_ops;

/* byte_shell.c: p1 the number of concurrent jobs a loop runs */
extern const struct fixed_ops byte_shell_ops;

/* byte_tools.c (BYTE 4.1's C compiler and dc tests): no argument */
extern const struct fixed_ops byte_cc_ops, byte_dc_ops;

/* Whether an executable prog is in a directory of $PATH (/usr/bin:/bin
 * when unset); byte_shell.c. */
bool byte_in_path(const char *prog);

#endif
