/* kbench - micro: the lmbench family's test table
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * One row per figure of lmbench 2's summary tables (and lat_mem_rd's
 * cache levels).  Names follow lmbench's programs (lat_syscall, lat_ctx,
 * bw_mem ...) in lower case; units are microseconds per operation,
 * MB/s with MB = 10^6 bytes, and ns for the memory latencies (as
 * lmbench's "Memory latencies in nanoseconds" table).  The tests are in
 * lm_sys.c, lm_ipc.c and lm_mem.c.  A test between processes (lat_ctx,
 * lat_pipe ... bw_tcp) has one row per placement of its ends (place.h):
 * NAME_1cpu, NAME_2smt, NAME_2core; `kbench micro NAME` runs all three.
 */
#include "config.h"
#include "micro/lmbench/lmbench.h"

static const int proc_fork = LM_PROC_FORK, proc_exec = LM_PROC_EXEC, proc_sh = LM_PROC_SH;
static const int tr_pipe = LM_PIPE, tr_unix = LM_UNIX, tr_udp = LM_UDP, tr_tcp = LM_TCP;
static const int mem_rd = LM_MEM_RD, mem_wr = LM_MEM_WR, mem_libc = LM_MEM_BCOPY_LIBC,
		 mem_loop = LM_MEM_BCOPY_LOOP;
static const struct lm_mem_lat_arg lv1 = { 1, 0 }, lv2 = { 2, 0 }, lv3 = { 3, 0 },
				    lvmain = { 0, 0 }, rnd1 = { 1, 1 }, rnd2 = { 2, 1 },
				    rnd3 = { 3, 1 }, rndmain = { 0, 1 };
static const struct lm_ctx_arg ctx_2_0 = { 2, 0 }, ctx_2_16 = { 2, 16 }, ctx_2_64 = { 2, 64 },
				ctx_8_16 = { 8, 16 }, ctx_8_64 = { 8, 64 }, ctx_16_16 = { 16, 16 },
				ctx_16_64 = { 16, 64 };
static const struct lm_fs_arg fs_c0 = { 0, 0 }, fs_d0 = { 0, 1 }, fs_c10 = { 10240, 0 },
			      fs_d10 = { 10240, 1 };

#define ROW(n, ti, u, hib, w, m, fn, a, p) { n, ti, MICRO_LMBENCH, u, hib, w, m, fn, a, p }
#define LAT(n, ti, w, m, fn, a) ROW(n, ti, "us", false, w, m, fn, a, MICRO_PLACE_NONE)
#define BW(n, ti, w, m, fn, a) ROW(n, ti, "MB/s", true, w, m, fn, a, MICRO_PLACE_NONE)
#define NS(n, ti, w, m, fn, a) ROW(n, ti, "ns", false, w, m, fn, a, MICRO_PLACE_NONE)
/* a test between processes: one row per placement (place.h), the
 * placement in its name and in --list's line */
#define PLACED(n, ti, u, hib, w, m, fn, a) \
	ROW(n "_1cpu", ti, u, hib, w "; both ends on one CPU", m, fn, a, MICRO_PLACE_ONE), \
	ROW(n "_2smt", ti, u, hib, w "; ends on two SMT siblings of one core", m, fn, a, \
	    MICRO_PLACE_SMT), \
	ROW(n "_2core", ti, u, hib, w "; ends on two CPUs of different cores", m, fn, a, \
	    MICRO_PLACE_CORES)
#define PLAT(n, ti, w, m, fn, a) PLACED(n, ti, "us", false, w, m, fn, a)
#define PBW(n, ti, w, m, fn, a) PLACED(n, ti, "MB/s", true, w, m, fn, a)

const struct micro_test micro_lmbench_tests[] = {
	LAT("lat_syscall_null", "null call", "getppid() system call",
	    "lmbench lat_syscall null", lm_syscall_null, NULL),
	LAT("lat_syscall_io", "null I/O",
	    "1-byte read of /dev/zero and 1-byte write to /dev/null, averaged",
	    "lmbench lat_syscall read, write", lm_syscall_io, NULL),
	LAT("lat_syscall_stat", "stat", "stat() of a file in the temporary directory",
	    "lmbench lat_syscall stat", lm_syscall_stat, NULL),
	LAT("lat_syscall_open", "open clos", "open() and close() of a file",
	    "lmbench lat_syscall open", lm_syscall_open, NULL),
	LAT("lat_select_file", "slct file", "select() on 100 file descriptors, zero timeout",
	    "lmbench lat_select file", lm_select_file, NULL),
	LAT("lat_select_tcp", "slct TCP",
	    "select() on 100 connected TCP sockets on 127.0.0.1, zero timeout",
	    "lmbench lat_select tcp", lm_select_tcp, NULL),
	LAT("lat_sig_install", "sig inst", "sigaction() installing a handler",
	    "lmbench lat_sig install", lm_sig_install, NULL),
	LAT("lat_sig_catch", "sig catch", "kill() of self and the handler's run: the whole round",
	    "lmbench lat_sig catch, without its subtraction of the send", lm_sig_catch, NULL),
	LAT("lat_sig_send", "sig send", "kill() of self with signal 0: the send, no delivery",
	    "lmbench lat_sig's do_send", lm_sig_send, NULL),
	LAT("lat_sig_hndl", "sig hndl",
	    "kill() of self and the handler's run, less kill() of self with signal 0",
	    "lmbench lat_sig catch", lm_sig_hndl, NULL),
	LAT("lat_sig_prot", "prot fault",
	    "write to a read-only file page: fault, SIGSEGV handler, siglongjmp out",
	    "lmbench lat_sig prot", lm_sig_prot, NULL),
	LAT("lat_proc_fork", "fork proc", "fork(), the child _exit()s, the parent waits",
	    "lmbench lat_proc fork", lm_proc, &proc_fork),
	LAT("lat_proc_exec", "exec proc", "fork() and execve() of /bin/true, waited for",
	    "lmbench lat_proc exec", lm_proc, &proc_exec),
	LAT("lat_proc_shell", "sh proc", "fork() and /bin/sh -c /bin/true, waited for",
	    "lmbench lat_proc shell", lm_proc, &proc_sh),

	PLAT("lat_ctx_2p_0k", "2p/0K ctxsw",
	    "context switch in a ring of 2 processes with no working set",
	    "lmbench lat_ctx -s 0 2", lm_ctx, &ctx_2_0),
	PLAT("lat_ctx_2p_16k", "2p/16K ctxsw",
	    "context switch in a ring of 2 processes, each summing 16 KiB",
	    "lmbench lat_ctx -s 16 2", lm_ctx, &ctx_2_16),
	PLAT("lat_ctx_2p_64k", "2p/64K ctxsw",
	    "context switch in a ring of 2 processes, each summing 64 KiB",
	    "lmbench lat_ctx -s 64 2", lm_ctx, &ctx_2_64),
	PLAT("lat_ctx_8p_16k", "8p/16K ctxsw",
	    "context switch in a ring of 8 processes, each summing 16 KiB",
	    "lmbench lat_ctx -s 16 8", lm_ctx, &ctx_8_16),
	PLAT("lat_ctx_8p_64k", "8p/64K ctxsw",
	    "context switch in a ring of 8 processes, each summing 64 KiB",
	    "lmbench lat_ctx -s 64 8", lm_ctx, &ctx_8_64),
	PLAT("lat_ctx_16p_16k", "16p/16K ctxsw",
	    "context switch in a ring of 16 processes, each summing 16 KiB",
	    "lmbench lat_ctx -s 16 16", lm_ctx, &ctx_16_16),
	PLAT("lat_ctx_16p_64k", "16p/64K ctxsw",
	    "context switch in a ring of 16 processes, each summing 64 KiB",
	    "lmbench lat_ctx -s 64 16", lm_ctx, &ctx_16_64),

	PLAT("lat_pipe", "Pipe", "1-byte round trip through two pipes to a child",
	    "lmbench lat_pipe", lm_lat_ipc, &tr_pipe),
	PLAT("lat_unix", "AF UNIX", "1-byte round trip over an AF_UNIX stream socket pair",
	    "lmbench lat_unix", lm_lat_ipc, &tr_unix),
	PLAT("lat_udp", "UDP", "4-byte UDP round trip on 127.0.0.1",
	    "lmbench lat_udp", lm_lat_ipc, &tr_udp),
#ifdef HAVE_LIBTIRPC
	PLAT("lat_rpc_udp", "RPC/UDP", "null ONC RPC call (a char each way) over UDP on 127.0.0.1",
	    "lmbench lat_rpc udp", lm_lat_rpc, &tr_udp),
#endif
	PLAT("lat_tcp", "TCP", "1-byte TCP round trip on 127.0.0.1 (TCP_NODELAY)",
	    "lmbench lat_tcp", lm_lat_ipc, &tr_tcp),
#ifdef HAVE_LIBTIRPC
	PLAT("lat_rpc_tcp", "RPC/TCP", "null ONC RPC call (a char each way) over TCP on 127.0.0.1",
	    "lmbench lat_rpc tcp", lm_lat_rpc, &tr_tcp),
#endif
	PLAT("lat_connect", "TCP conn", "TCP connect() to a server on 127.0.0.1 and close()",
	    "lmbench lat_connect", lm_lat_connect, NULL),

	LAT("lat_fs_create_0k", "0K File Create", "create of an empty file (per file)",
	    "lmbench lat_fs 0", lm_fs, &fs_c0),
	LAT("lat_fs_delete_0k", "0K File Delete", "unlink of an empty file (per file)",
	    "lmbench lat_fs 0", lm_fs, &fs_d0),
	LAT("lat_fs_create_10k", "10K File Create",
	    "create of a file and write of 10 KiB into it (per file)",
	    "lmbench lat_fs 10240", lm_fs, &fs_c10),
	LAT("lat_fs_delete_10k", "10K File Delete", "unlink of a 10 KiB file (per file)",
	    "lmbench lat_fs 10240", lm_fs, &fs_d10),
	LAT("lat_mmap", "Mmap Latency",
	    "mmap() of a cached 8 MiB file, a read every 16 KiB, munmap(); per MB (10^6 bytes)",
	    "lmbench lat_mmap", lm_mmap, NULL),
	LAT("lat_pagefault", "Page Fault",
	    "read fault on a page of a cached, freshly mapped file (per page)",
	    "lmbench lat_pagefault", lm_pagefault, NULL),

	PBW("bw_pipe", "Pipe", "a child writes 64 KiB chunks into a pipe, the parent reads",
	   "lmbench bw_pipe", lm_bw_ipc, &tr_pipe),
	PBW("bw_unix", "AF UNIX", "64 KiB chunks over an AF_UNIX stream socket pair",
	   "lmbench bw_unix", lm_bw_ipc, &tr_unix),
	PBW("bw_tcp", "TCP", "64 KiB chunks over TCP on 127.0.0.1",
	   "lmbench bw_tcp", lm_bw_ipc, &tr_tcp),
	BW("bw_file_rd", "File reread",
	   "read() of a cached 8 MiB file in 64 KiB blocks, summing its words",
	   "lmbench bw_file_rd io_only", lm_bw_file, NULL),
	BW("bw_mmap_rd", "Mmap reread",
	   "mmap() of a cached 8 MiB file, summing its words, munmap()",
	   "lmbench bw_mmap_rd open2close (without the open)", lm_bw_mmap, NULL),
	BW("bw_mem_bcopy_libc", "Bcopy (libc)", "memcpy() of a 64 MiB buffer",
	   "lmbench bw_mem bcopy", lm_bw_mem, &mem_libc),
	BW("bw_mem_bcopy_loop", "Bcopy (hand)",
	   "copy of a 64 MiB buffer in a plain loop, 8 words unrolled",
	   "lmbench bw_mem fcp", lm_bw_mem, &mem_loop),
	BW("bw_mem_rd", "Mem read", "sum of the words of a 64 MiB buffer, 8-way unrolled",
	   "lmbench bw_mem rd", lm_bw_mem, &mem_rd),
	BW("bw_mem_wr", "Mem write", "store to every word of a 64 MiB buffer, 8-way unrolled",
	   "lmbench bw_mem wr", lm_bw_mem, &mem_wr),

	NS("lat_mem_l1", "L1 $", "dependent load, 128-byte stride, in half the L1 data cache",
	   "lmbench lat_mem_rd (stride 128)", lm_lat_mem, &lv1),
	NS("lat_mem_l2", "L2 $", "dependent load, 128-byte stride, in half the L2 cache",
	   "lmbench lat_mem_rd (stride 128)", lm_lat_mem, &lv2),
	NS("lat_mem_l3", "L3 $", "dependent load, 128-byte stride, in half the L3 cache",
	   "lmbench lat_mem_rd (stride 128)", lm_lat_mem, &lv3),
	NS("lat_mem_main", "Main mem",
	   "dependent load, 128-byte stride, in 4 x the last cache (at least 64 MiB)",
	   "lmbench lat_mem_rd (stride 128)", lm_lat_mem, &lvmain),
	NS("lat_mem_rand_l1", "L1 $ random",
	   "dependent load, 128-byte lines in random order, in half the L1 data cache",
	   "lmbench lat_mem_rd, random order (lmbench 3)", lm_lat_mem, &rnd1),
	NS("lat_mem_rand_l2", "L2 $ random",
	   "dependent load, 128-byte lines in random order, in half the L2 cache",
	   "lmbench lat_mem_rd, random order (lmbench 3)", lm_lat_mem, &rnd2),
	NS("lat_mem_rand_l3", "L3 $ random",
	   "dependent load, 128-byte lines in random order, in half the L3 cache",
	   "lmbench lat_mem_rd, random order (lmbench 3)", lm_lat_mem, &rnd3),
	NS("lat_mem_rand_main", "Main mem random",
	   "dependent load, 128-byte lines in random order, in 4 x the last cache (at least 64 MiB)",
	   "lmbench lat_mem_rd, random order (lmbench 3)", lm_lat_mem, &rndmain),
	{ NULL, NULL, MICRO_LMBENCH, NULL, false, NULL, NULL, NULL, NULL, MICRO_PLACE_NONE },
};

#ifdef HAVE_LIBTIRPC
const char *const lm_absent_tests[] = { NULL };
#else
const char *const lm_absent_tests[] = {
	"lat_rpc_udp", "lat_rpc_udp_1cpu", "lat_rpc_udp_2smt", "lat_rpc_udp_2core",
	"lat_rpc_tcp", "lat_rpc_tcp_1cpu", "lat_rpc_tcp_2smt", "lat_rpc_tcp_2core", NULL,
};
#endif
const char lm_absent_why[] = "this kbench was built without libtirpc (configure found no "
			     "pkg-config libtirpc)";
