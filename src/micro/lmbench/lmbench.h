/* kbench - micro: the lmbench family's tests, shared between its files
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * lmbench.c holds the table micro_lmbench_tests[]; the tests themselves
 * are in lm_sys.c (system calls, signals, processes, select), lm_ipc.c
 * (context switches, pipe/socket latencies and bandwidths) and lm_mem.c
 * (files, VM, memory bandwidth and latency).  Every test has the type
 * micro_run_fn (test.h); it fills r->skipped with the reason when it
 * cannot run here and returns 0, or returns -1 with the reason when the
 * run failed.  Children are always reaped and files removed before return.
 */
#ifndef KBENCH_MICRO_LMBENCH_H
#define KBENCH_MICRO_LMBENCH_H

#include "micro/harness.h"
#include "micro/test.h"

#include <stddef.h>
#include <stdint.h>

/* Set r->skipped from a printf format and return ret (0: skipped, -1:
 * failed). */
int lm_note(struct micro_result *r, int ret, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Whether errno after a failed fork/pipe/socket/open means "this machine
 * cannot give us the resource" (EAGAIN, EMFILE, ENFILE, ENOMEM,
 * EADDRNOTAVAIL, ENETUNREACH, EAFNOSUPPORT ...): a skip, not a failure. */
int lm_resource_errno(int err);

/* Sum of the 64-bit words of buf[0..bytes) (bytes a multiple of 64), read
 * in an 8-way unrolled loop (lmbench bw_mem rd). */
uint64_t lm_sum_words(const void *buf, size_t bytes);

/* The lmbench family's table: one row per test, ended by a row whose name
 * is NULL. */
extern const struct micro_test micro_lmbench_tests[];

/* The tests, each a micro_run_fn (test.h): 0 with a figure in r (us per
 * operation, ns per load or MB/s with MB = 10^6 bytes, as the table row
 * says) or with r->skipped set, -1 with the failure in r->skipped.  Each
 * names its lmbench method in lmbench.c's table; t->arg carries the
 * parameters where a test has any. */
int lm_syscall_null(const struct micro_test *t, const struct micro_opts *o, struct micro_result *r);
int lm_syscall_io(const struct micro_test *t, const struct micro_opts *o, struct micro_result *r);
int lm_syscall_stat(const struct micro_test *t, const struct micro_opts *o, struct micro_result *r);
int lm_syscall_open(const struct micro_test *t, const struct micro_opts *o, struct micro_result *r);
int lm_select_file(const struct micro_test *t, const struct micro_opts *o, struct micro_result *r);
int lm_select_tcp(const struct micro_test *t, const struct micro_opts *o, struct micro_result *r);
int lm_sig_install(const struct micro_test *t, const struct micro_opts *o, struct micro_result *r);
int lm_sig_catch(const struct micro_test *t, const struct micro_opts *o, struct micro_result *r);
/* kill(getpid(), 0): the send's system call without a delivery */
int lm_sig_send(const struct micro_test *t, const struct micro_opts *o, struct micro_result *r);
/* lmbench's lat_sig catch: the round of lm_sig_catch less the median send of
 * lm_sig_send, measured one after the other (us per signal; -1 and a reason
 * in r->skipped when the send is not smaller than the round). */
int lm_sig_hndl(const struct micro_test *t, const struct micro_opts *o, struct micro_result *r);
int lm_sig_prot(const struct micro_test *t, const struct micro_opts *o, struct micro_result *r);
/* lat_proc; arg is a const int * (enum lm_proc_kind). */
enum lm_proc_kind { LM_PROC_FORK, LM_PROC_EXEC, LM_PROC_SH };
int lm_proc(const struct micro_test *t, const struct micro_opts *o, struct micro_result *r);

/* lat_ctx: arg is a struct lm_ctx_arg */
struct lm_ctx_arg {
	unsigned procs;
	size_t kbytes;   /* working set of each process, KiB (2^10 bytes) */
};
int lm_ctx(const struct micro_test *t, const struct micro_opts *o, struct micro_result *r);

/* Round trips and bandwidths; arg is a const int * naming the transport. */
enum lm_transport { LM_PIPE, LM_UNIX, LM_UDP, LM_TCP };
int lm_lat_ipc(const struct micro_test *t, const struct micro_opts *o, struct micro_result *r);
/* lm_rpc.c: lmbench 2's lat_rpc, a null ONC RPC call over the transport
 * *t->arg (LM_UDP or LM_TCP) on 127.0.0.1 (libtirpc; without it the rows
 * are absent, and this only notes why) */
int lm_lat_rpc(const struct micro_test *t, const struct micro_opts *o, struct micro_result *r);
/* the names of the tests this build lacks (without libtirpc: the
 * lat_rpc rows), NULL-ended, and why */
extern const char *const lm_absent_tests[];
extern const char lm_absent_why[];
int lm_lat_connect(const struct micro_test *t, const struct micro_opts *o, struct micro_result *r);
int lm_bw_ipc(const struct micro_test *t, const struct micro_opts *o, struct micro_result *r);

/* Files and VM; lm_fs's arg is a const struct lm_fs_arg *. */
struct lm_fs_arg {
	size_t bytes;    /* file size */
	int delete;      /* 0: time the creates, 1: time the deletes */
};
int lm_fs(const struct micro_test *t, const struct micro_opts *o, struct micro_result *r);
int lm_mmap(const struct micro_test *t, const struct micro_opts *o, struct micro_result *r);
int lm_pagefault(const struct micro_test *t, const struct micro_opts *o, struct micro_result *r);
int lm_bw_file(const struct micro_test *t, const struct micro_opts *o, struct micro_result *r);
int lm_bw_mmap(const struct micro_test *t, const struct micro_opts *o, struct micro_result *r);

/* Memory; lm_bw_mem's arg is a const int * (enum lm_mem_op). */
enum lm_mem_op { LM_MEM_RD, LM_MEM_WR, LM_MEM_BCOPY_LIBC, LM_MEM_BCOPY_LOOP };
int lm_bw_mem(const struct micro_test *t, const struct micro_opts *o, struct micro_result *r);

/* lat_mem_rd; arg is a const struct lm_mem_lat_arg *. */
struct lm_mem_lat_arg {
	int level;       /* the cache level (1, 2, 3), or 0 for main memory */
	int random;      /* 0: lmbench's stride-128 chain; 1: lmbench 3's random
			  * order (lm_make_random_chain) */
};
int lm_lat_mem(const struct micro_test *t, const struct micro_opts *o, struct micro_result *r);

/* Cache sizes, bytes, of the data (or unified) caches of cpu0 by level
 * (index 1..3) from sysfs; 0 when not listed.  Returns the deepest level
 * found (0: none). */
int lm_cache_sizes(size_t size[4]);

/* The cache levels seen in a latency curve: lat[i] ns at size[i] bytes
 * (sizes growing, n points).  A level ends where the latency rises by
 * more than 40% from one size to the next and stays up; writes up to max
 * boundary sizes (the last size before each rise) to out.  Returns how many. */
unsigned lm_levels_from_curve(const size_t *size, const double *lat, unsigned n, size_t *out,
			      unsigned max);

/* Lay lat_mem_rd's pointer chain into buf[0..bytes): one pointer every
 * stride bytes, each pointing to the one stride bytes before it and the
 * first to the last (lmbench lat_mem_rd).  bytes >= stride.  Returns the
 * start of the chase (the last element). */
void **lm_make_chain(char *buf, size_t bytes, size_t stride);

/* Lay a chain through the same elements (one every stride bytes of
 * buf[0..bytes)) in a random order: one cycle through all of them, the
 * order a Fisher-Yates shuffle with a splitmix64 generator from seed
 * gives, so no hardware prefetcher can guess the next line and each load
 * costs the cache's (or DRAM's) full latency (lmbench 3 lat_mem_rd's
 * random order).  bytes >= stride; needs bytes / stride x sizeof(size_t)
 * bytes of scratch memory.  Returns the start of the chase, or NULL when
 * out of memory. */
void **lm_make_random_chain(char *buf, size_t bytes, size_t stride, uint64_t seed);

#endif
