/* kbench - what kbench disk shares with other commands: its keys and times
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * kbench suite runs kbench disk -T and -t as children: it guesses how long
 * a run takes before one has been timed, and reads the figure back from
 * the child's JSON document.  Those facts are written here once.
 */
#ifndef KBENCH_DISK_H
#define KBENCH_DISK_H

#include "disk/timer.h"

/* The figure of a run in disk's JSON document (report.c writes it;
 * kbench-disk(1), JSON OUTPUT): results[DEV].TEST.runs[RUN].MB_per_s,
 * TEST being DISK_JSON_CACHED (-T) or DISK_JSON_BUFFERED (-t), in MB/s
 * with hdparm's MB = 2^20 bytes. */
#define DISK_JSON_CACHED "cached"
#define DISK_JSON_BUFFERED "buffered"
#define DISK_JSON_RUNS "runs"
#define DISK_JSON_MBPS "MB_per_s"

/* A first guess of the seconds one run takes, before one has been timed:
 * the pause and the reads (timer.h), and about 2 s for the flush and, with
 * -T, the loop's overhead.  5 s for -T, 8 s for -t. */
#define DISK_FLUSH_GUESS_S 2.0
#define DISK_CACHED_GUESS_S (DISK_CACHED_PAUSE + DISK_CACHED_SECONDS + DISK_FLUSH_GUESS_S)
#define DISK_BUFFERED_GUESS_S (DISK_BUFFERED_PAUSE + DISK_BUFFERED_SECONDS + DISK_FLUSH_GUESS_S)

/* The smallest memory limit a kbench disk run can start under (kbench
 * suite --mem-limit): a process's floor (load/rules.h's 4 MiB: its stack, heap
 * and data) and the read buffer of one request.  Bytes. */
#define DISK_MEM_FLOOR ((4ull << 20) + DISK_REQ_BYTES)

#endif
