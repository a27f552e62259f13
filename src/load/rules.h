/* kbench - what kbench load shares with other commands: its rules and keys
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * kbench suite runs kbench load as a child: it checks the child's values
 * before the series starts, must know which loadfile that child will read
 * (to refuse a results file written over it), guesses how long a run
 * takes, and reads the figure back from the child's JSON document.  Each
 * of those rules is written once, here (rules.c), and used by both.
 */
#ifndef KBENCH_LOAD_RULES_H
#define KBENCH_LOAD_RULES_H

#include <stdint.h>

/* The most clients kbench load starts (fewer where RLIMIT_NPROC or
 * pid_max would not let it fork them). */
#define LOAD_MAX_CLIENTS 100000u

/* Keys of the "results" object of load's JSON document (report.c writes
 * it; kbench-load(1), JSON OUTPUT) that kbench suite reads back. */
#define LOAD_JSON_THROUGHPUT "throughput_MBps"  /* MB/s, MB = 10^6 bytes; null: none */
#define LOAD_JSON_ERRORS "errors"           /* ops that did not end as the loadfile expects */
#define LOAD_JSON_ERROR_LINES "error_lines" /* those ops by line, most frequent first
					     * (errors or mismatches) */
#define LOAD_JSON_STATUSES_CHECKED "statuses_checked" /* false: the format's tool never
					     * checked a reply (dbench 1) */
#define LOAD_JSON_MISMATCHES "mismatches"   /* with statuses_checked false: ops that did not
					     * end as the trace recorded (errors is 0) */
#define LOAD_JSON_FAILURE "failure"         /* why the figures are not a result; null: they are */
#define LOAD_JSON_OOM_KILLED "oom_killed"   /* the OOM killer ended a client (--mem-limit) */
/* and of each entry of error_lines */
#define LOAD_JSON_ERR_LINE "line"           /* loadfile line */
#define LOAD_JSON_ERR_OP "op"               /* its operation, the loadfile's name */
#define LOAD_JSON_ERR_EXPECTED "expected"   /* the status the loadfile gives */
#define LOAD_JSON_ERR_GOT "got"             /* what happened: an errno's name, or success */

/* -t's default, seconds measured after the warm-up: dbench's own 600.
 * kbench suite's default for each of its load runs is derived from it
 * (SUITE_DEFAULT_TIMELIMIT_S, suite/series.h). */
#define LOAD_DEFAULT_TIMELIMIT_S 600

/* --warmup's default when --run-once is not given: a fifth of the time
 * limit.  Takes and returns seconds. */
double load_default_warmup_s(double timelimit_s);

/* --mem-limit's value as kbench load takes it: "none" (no limit: 0 in
 * *bytes) or a size of cli_parse_size (k, M, G, T: 2^10, 2^20, 2^30, 2^40)
 * above 0, in bytes in *bytes.  Returns 0, LOAD_MEM_LIMIT_BAD when text is
 * neither, or LOAD_MEM_LIMIT_ZERO for a size of 0 (it would let no client
 * run); the caller says so in its own words. */
enum { LOAD_MEM_LIMIT_BAD = -1, LOAD_MEM_LIMIT_ZERO = -2 };
int load_mem_limit_parse(const char *text, uint64_t *bytes);

/* --mem-limit's floor: the smallest limit NCLIENTS clients can start
 * under.  A client process needs LOAD_MEM_FLOOR_PER_PROC bytes (the pages
 * it dirties: stack, heap, the data pages it copies on write, page tables
 * and kernel stack) and each client its I/O buffer of the loadfile's
 * largest ReadX or WriteX (max_io bytes).  Measured on Linux 6.1 (cgroup
 * v1, client.txt, max_io 64 KiB): 1 client ran under 1 MiB, 10 under
 * 6 MiB (4 MiB: an OOM kill), 40 under 16 MiB, about 0.4 to 0.5 MiB a
 * client with its buffer; Debian's dbench 4.0 ran 10 clients under 4 MiB
 * once and was OOM-killed under 6 MiB, 40 under 12 MiB.  A run just above
 * the floor may still meet the OOM killer, which the run reports.  The processes are
 * ceil(nclients / per_proc) (--clients-per-process, at least 1).  Returns
 * bytes.  kbench load refuses a lower limit; kbench suite refuses a series
 * with such a job before its first run. */
#define LOAD_MEM_FLOOR_PER_PROC (512ull << 10)
uint64_t load_mem_floor(uint64_t nclients, unsigned per_proc, uint32_t max_io);

/* The loadfile kbench load reads for -c NAME (NULL: no -c):
 *   NULL       the shipped client.txt;
 *   NAME       as given when it holds a '/' or exists (relative to the
 *              current directory); otherwise, when one of the shipped
 *              loadfiles has that name (smallfiles.txt, ...), that one;
 *              otherwise as given (opening it then fails).
 * The shipped loadfiles are in $KBENCH_LOADFILE_DIR when it is set and not
 * empty; else, when this binary (/proc/self/exe) is TOP/src/kbench and
 * TOP/loadfiles/client.txt can be read (a build tree), in TOP/loadfiles;
 * else in the installed data directory (KBENCH_PKGDATADIR).
 * Nothing is opened; a path that does not exist may be returned.
 * Returns a malloc'd path for the caller to free, NULL when out of memory. */
char *load_loadfile_path(const char *name);

#endif
