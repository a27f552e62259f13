/* kbench - micro: Dhrystone 2.1, written from Weicker's description
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Dhrystone (R. P. Weicker, CACM 1984; version 2.1, 1988) is a synthetic
 * integer benchmark: one loop is a fixed mix of assignments, record and
 * pointer operations, string copies and compares, enumeration and
 * character tests, integer arithmetic and procedure calls (Proc_1 ..
 * Proc_8, Func_1 .. Func_3).  This is kbench's own implementation of the
 * 2.1 loop; the procedures are kept out of line so the compiler cannot
 * fold the loop away, and the state the published version prints at the
 * end is checked by dhry_check().  BYTE's "Dhrystone 2 using register
 * variables" reports loops per second (lps).
 *
 * The state is global (as in Dhrystone): one run at a time per process.
 */
#ifndef KBENCH_MICRO_DHRY_H
#define KBENCH_MICRO_DHRY_H

#include <signal.h>

/* Set up the global records and strings as Dhrystone's main program does
 * before its loop; the run counter starts at 0. */
void dhry_init(void);

/* Run Dhrystone loops until *stop is non-zero (at least one).  Returns the
 * number of loops run by this call; the loop index continues from earlier
 * calls since dhry_init(). */
unsigned long dhry_run_until(volatile sig_atomic_t *stop);

/* Run exactly n loops.  Returns n. */
unsigned long dhry_run(unsigned long n);

/* Check the state after the loops run since dhry_init() against the final
 * values Dhrystone 2.1 specifies (Int_Glob 5, Bool_Glob 1, Ch_1_Glob 'A',
 * Ch_2_Glob 'B', Arr_1_Glob[8] 7, Arr_2_Glob[8][7] runs + 10, the two
 * records' fields 17 and 18, the locals 5, 13, 7, Ident_2 and the three
 * strings).  Returns 0 when all hold, else -1 with the first difference
 * written to err (errlen bytes). */
int dhry_check(char *err, size_t errlen);

/* How Dhrystone and Whetstone were built (both with the same command line:
 * src/micro/local.am): the compiler as configure found it ("gcc"), the
 * first line of its --version, and the flags on its command line (CFLAGS,
 * then UnixBench's -O3 -ffast-math [-march=native]).  Static strings. */
const char *dhry_build_cc(void);
const char *dhry_build_cc_version(void);
const char *dhry_build_cflags(void);

#endif
