/* kbench - micro: the BYTE UNIX Benchmarks family (UnixBench 4.1 and 5)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The table micro_byte_tests[] and the run function its rows share; the
 * tests are in byte_cpu.c, byte_sys.c, byte_fs.c, byte_shell.c and byte_tools.c
 * (byte_tests.h), each test's method and source in the comment at the top
 * of its file (for the manual).  What all of them share:
 *
 * Every test counts loops over a fixed duration (harness_fixed.h): the
 * body runs until a SIGALRM timer ends the sample; the rate is whole
 * loops over the time they took.  Samples per test and durations are
 * UnixBench 5's (duration D = --duration, default 10 s):
 *   10 samples of D: Dhrystone, Whetstone, Pipe Throughput, Pipe-based
 *     Context Switching, System Call Overhead;
 *   3 samples of 3 D: Execl, Process Creation, File Copy/Read/Write;
 *   3 samples of 6 D: Shell Scripts;  3 of 2 D: Recursion;
 *   3 samples of D: Arithmetic, select;
 *   BYTE 4.1's: 3 samples of 6 D: C Compiler; 3 of 3 D: Dc.
 *   --quick: 3 samples of 0.2 s each for every test.
 * The samples combine as UnixBench 5's Run script does: the worst third
 * (int(n/3) lowest rates) is dropped and the figure is the geometric mean
 * of the rest; "(10.0 s, 7 samples)" gives the mean time and the count of
 * the kept samples, the spread (min, max, CoV) is of all samples.  With
 * --copies N, N copies run at once in separate processes; their loops
 * are added up and divided by the time from the first copy's start to
 * the last one's end (UnixBench's multi-copy score, without crediting
 * late starters as if each had run alone).
 *
 * Baselines (byteindex.h): byte4 and unixbench5, both the SPARCstation
 * 20-61 figures; unixbench5 also indexes Shell Scripts (1 concurrent).
 */
#include "config.h"
#include "micro/byte/byte.h"
#include "micro/byte/byte_tests.h"
#include "micro/byte/harness_fixed.h"
#include "micro/test.h"

#include <stdbool.h>
#include <stddef.h>

static int byte_run(const struct micro_test *t, const struct micro_opts *o,
		    struct micro_result *r)
{
	const struct byte_arg *a = t->arg;
	return fixed_run(a->ops, a, o, a->cls, a->per, r);
}

/* ---- the table ---- */

#define A(ops, cls, per, p1, p2, p3) \
	(&(const struct byte_arg){ &(ops), (cls), (per), (p1), (p2), (p3) })
#define ROW(name, title, unit, what, method, arg) \
	{ name, title, MICRO_BYTE, unit, true, what, method, byte_run, arg, MICRO_PLACE_NONE }
#define PROW(name, title, unit, what, method, arg, p) \
	{ name, title, MICRO_BYTE, unit, true, what, method, byte_run, arg, p }

const struct micro_test micro_byte_tests[] = {
	ROW("byte_dhry2", "Dhrystone 2 using register variables", "lps",
	    "one Dhrystone 2.1 loop", "BYTE/UnixBench dhry2reg; Weicker's Dhrystone 2.1",
	    A(byte_dhry_ops, FIXED_SHORT, 1, 0, 0, 0)),
	ROW("byte_whet", "Double-Precision Whetstone", "MWIPS",
	    "Curnow & Wichmann's modules, double precision, 10^7 Whetstone instructions a pass",
	    "BYTE/UnixBench whetstone-double", A(byte_whet_ops, FIXED_SHORT, 1, 0, 0, 0)),
	ROW("byte_execl", "Execl Throughput", "lps",
	    "one execl() of a small program by itself, a counter passed on (kbench-execl)",
	    "BYTE/UnixBench execl",
	    A(byte_execl_ops, FIXED_LONG, 1, 0, 0, 0)),
	ROW("byte_fcopy_1024", "File Copy 1024 bufsize 2000 maxblocks", "KBps",
	    "read and write 1024 bytes, 2000 KiB file (KB = 1024 bytes)", "UnixBench fstime -c",
	    A(byte_fs_ops, FIXED_LONG, 1, FS_COPY, 1024, 2000)),
	ROW("byte_fcopy_256", "File Copy 256 bufsize 500 maxblocks", "KBps",
	    "read and write 256 bytes, 500 KiB file (KB = 1024 bytes)", "UnixBench fstime -c",
	    A(byte_fs_ops, FIXED_LONG, 1, FS_COPY, 256, 500)),
	ROW("byte_fcopy_4096", "File Copy 4096 bufsize 8000 maxblocks", "KBps",
	    "read and write 4096 bytes, 8000 KiB file (KB = 1024 bytes)", "UnixBench fstime -c",
	    A(byte_fs_ops, FIXED_LONG, 1, FS_COPY, 4096, 8000)),
	ROW("byte_fread_1024", "File Read 1024 bufsize 2000 maxblocks", "KBps",
	    "read 1024 bytes, 2000 KiB file (KB = 1024 bytes)", "UnixBench fstime -r",
	    A(byte_fs_ops, FIXED_LONG, 1, FS_READ, 1024, 2000)),
	ROW("byte_fread_256", "File Read 256 bufsize 500 maxblocks", "KBps",
	    "read 256 bytes, 500 KiB file (KB = 1024 bytes)", "UnixBench fstime -r",
	    A(byte_fs_ops, FIXED_LONG, 1, FS_READ, 256, 500)),
	ROW("byte_fread_4096", "File Read 4096 bufsize 8000 maxblocks", "KBps",
	    "read 4096 bytes, 8000 KiB file (KB = 1024 bytes)", "UnixBench fstime -r",
	    A(byte_fs_ops, FIXED_LONG, 1, FS_READ, 4096, 8000)),
	ROW("byte_fwrite_1024", "File Write 1024 bufsize 2000 maxblocks", "KBps",
	    "write 1024 bytes, 2000 KiB file (KB = 1024 bytes)", "UnixBench fstime -w",
	    A(byte_fs_ops, FIXED_LONG, 1, FS_WRITE, 1024, 2000)),
	ROW("byte_fwrite_256", "File Write 256 bufsize 500 maxblocks", "KBps",
	    "write 256 bytes, 500 KiB file (KB = 1024 bytes)", "UnixBench fstime -w",
	    A(byte_fs_ops, FIXED_LONG, 1, FS_WRITE, 256, 500)),
	ROW("byte_fwrite_4096", "File Write 4096 bufsize 8000 maxblocks", "KBps",
	    "write 4096 bytes, 8000 KiB file (KB = 1024 bytes)", "UnixBench fstime -w",
	    A(byte_fs_ops, FIXED_LONG, 1, FS_WRITE, 4096, 8000)),
	PROW("byte_pipe_1cpu", "Pipe Throughput", "lps",
	     "write and read 512 bytes on one pipe; on one CPU",
	     "BYTE/UnixBench pipe", A(byte_pipe_ops, FIXED_SHORT, 1, 0, 0, 0), MICRO_PLACE_ONE),
	PROW("byte_context_1cpu", "Pipe-based Context Switching", "lps",
	     "one round trip of a counter between two processes over two pipes; both on one CPU",
	     "BYTE/UnixBench context1", A(byte_context_ops, FIXED_SHORT, 1, 0, 0, 0),
	     MICRO_PLACE_ONE),
	PROW("byte_context_2smt", "Pipe-based Context Switching (2 SMT siblings)", "lps",
	     "one round trip of a counter between two processes over two pipes; on two SMT "
	     "siblings of one core",
	     "BYTE/UnixBench context1", A(byte_context_ops, FIXED_SHORT, 1, 0, 0, 0),
	     MICRO_PLACE_SMT),
	PROW("byte_context_2core", "Pipe-based Context Switching (2 cores)", "lps",
	     "one round trip of a counter between two processes over two pipes; on two CPUs of "
	     "different cores",
	     "BYTE/UnixBench context1", A(byte_context_ops, FIXED_SHORT, 1, 0, 0, 0),
	     MICRO_PLACE_CORES),
	ROW("byte_spawn", "Process Creation", "lps", "fork, child exits, wait",
	    "BYTE/UnixBench spawn", A(byte_spawn_ops, FIXED_LONG, 1, 0, 0, 0)),
	ROW("byte_shell1", "Shell Scripts (1 concurrent)", "lpm",
	    "one sort/od/grep/tee/wc shell job", "BYTE/UnixBench shell1 (looper, multi.sh)",
	    A(byte_shell_ops, FIXED_SHELL, 60, 1, 0, 0)),
	ROW("byte_shell8", "Shell Scripts (8 concurrent)", "lpm",
	    "8 sort/od/grep/tee/wc shell jobs at once", "BYTE/UnixBench shell8 (looper, multi.sh)",
	    A(byte_shell_ops, FIXED_SHELL, 60, 8, 0, 0)),
	ROW("byte_shell16", "Shell Scripts (16 concurrent)", "lpm",
	    "16 sort/od/grep/tee/wc shell jobs at once", "UnixBench shell16 (looper, multi.sh)",
	    A(byte_shell_ops, FIXED_SHELL, 60, 16, 0, 0)),
	ROW("byte_syscall", "System Call Overhead", "lps",
	    "close(dup(0)), getppid(), getuid(), umask()", "UnixBench 5 syscall mix",
	    A(byte_syscall_ops, FIXED_SHORT, 1, 0, 0, 0)),
	ROW("byte_arithoh", "Arithoh", "lps", "the arithmetic loop without arithmetic",
	    "BYTE/UnixBench arithoh", A(byte_arith_ops, FIXED_SHORT3, 1, 0, 0, 0)),
	ROW("byte_arith_short", "Arithmetic Test (short)", "lps",
	    "sum of i*i/(i*i-1), i = 2..101, in short", "BYTE/UnixBench arith short",
	    A(byte_arith_ops, FIXED_SHORT3, 1, 1, 0, 0)),
	ROW("byte_arith_int", "Arithmetic Test (int)", "lps",
	    "sum of i*i/(i*i-1), i = 2..101, in int", "BYTE/UnixBench arith int",
	    A(byte_arith_ops, FIXED_SHORT3, 1, 2, 0, 0)),
	ROW("byte_arith_long", "Arithmetic Test (long)", "lps",
	    "sum of i*i/(i*i-1), i = 2..101, in long", "BYTE/UnixBench arith long",
	    A(byte_arith_ops, FIXED_SHORT3, 1, 3, 0, 0)),
	ROW("byte_arith_float", "Arithmetic Test (float)", "lps",
	    "sum of i*i/(i*i-1), i = 2..101, in float", "BYTE/UnixBench arith float",
	    A(byte_arith_ops, FIXED_SHORT3, 1, 4, 0, 0)),
	ROW("byte_arith_double", "Arithmetic Test (double)", "lps",
	    "sum of i*i/(i*i-1), i = 2..101, in double", "BYTE/UnixBench arith double",
	    A(byte_arith_ops, FIXED_SHORT3, 1, 5, 0, 0)),
	ROW("byte_hanoi", "Recursion Test -- Tower of Hanoi", "lps",
	    "move 10 disks recursively", "BYTE/UnixBench hanoi",
	    A(byte_hanoi_ops, FIXED_HANOI, 1, 0, 0, 0)),
	ROW("byte_select_10", "select() on 10 fds", "lps",
	    "select() with zero timeout on 10 ready pipes", "kbench, after UnixBench's select",
	    A(byte_select_ops, FIXED_SHORT3, 1, 10, 0, 0)),
	ROW("byte_select_100", "select() on 100 fds", "lps",
	    "select() with zero timeout on 100 ready pipes", "kbench, after UnixBench's select",
	    A(byte_select_ops, FIXED_SHORT3, 1, 100, 0, 0)),
	ROW("byte_cc", "C Compiler Throughput", "lpm",
	    "cc -c of a C program of a few hundred lines (the system's cc)",
	    "BYTE 4.1 C Compiler Throughput (cctest.c)", A(byte_cc_ops, FIXED_SHELL, 60, 0, 0, 0)),
	ROW("byte_dc", "Dc: sqrt(2) to 99 decimal places", "lpm",
	    "dc computing sqrt(2) to 99 decimal places, checked", "BYTE 4.1 dc (dc.dat)",
	    A(byte_dc_ops, FIXED_LONG, 60, 0, 0, 0)),
	{ NULL, NULL, MICRO_BYTE, NULL, false, NULL, NULL, NULL, NULL, MICRO_PLACE_NONE },
};
