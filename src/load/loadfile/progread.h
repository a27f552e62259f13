/* kbench - load: reading the compiled program back, a window of ops at a
 * time (progread.c)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The program's memfd holds its ops packed (progcode.h), one after the
 * other, each relative to the one before: a reader keeps a cursor and
 * unpacks a window at a time.  The clients' replay loop (run/client.c),
 * --check (check.c) and the cleanup's scan (dir/cleanup.c) read it so.
 */
#ifndef KBENCH_PROGREAD_H
#define KBENCH_PROGREAD_H

#include <stddef.h>
#include <stdint.h>
#include "load/loadfile/program.h"

/* Where a reader of the program is: the next op's index and byte offset
 * in the memfd, and the op before it (the packed form is sequential).
 * prog_cursor_start() puts it at op 0. */
struct prog_cursor {
	size_t index;        /* the next op's index */
	uint64_t at;         /* its byte offset in prog->fd */
	struct op prev;      /* the op before it */
};

void prog_cursor_start(struct prog_cursor *cur);

/* Read and unpack up to max ops (max >= 1) from cur into buf, one pread
 * of at most 4 KiB (on the stack: no allocation), and move cur past them.
 * Returns the number read, at least 1 while ops remain (fewer than max
 * when their packed bytes did not fit the read), 0 at the end of the
 * program, or -1 with errno set (EIO: the memfd is shorter than nops
 * says or holds bytes that are not ops). */
long prog_read_ops(const struct program *p, struct prog_cursor *cur, struct op *buf, size_t max);

/* Call fn(arg, op) for every op of the program in order, reading it a
 * window of 1024 ops at a time (the program is never copied whole).  The
 * replay loop keeps its own smaller window instead (client.c), so that
 * reading the program never allocates in a client.  Returns 0; the first
 * non-zero value fn returns (the walk stops there); or -1 with errno when
 * the program cannot be read or no window can be allocated (ENOMEM). */
int prog_for_each(const struct program *p, int (*fn)(void *arg, const struct op *op), void *arg);

#endif
