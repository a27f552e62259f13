/* kbench - kbench record: reading an strace log into the model
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Two passes over the log: the first finds which process cloned which
 * (a child's first line may come before its parent's clone returns), the
 * second gives each process its parent's descriptors (shared for a
 * thread, CLONE_FILES; copied for a fork) when it first appears, and
 * hands every whole call to rec_call().
 */
#ifndef KBENCH_RECORD_LOGREAD_H
#define KBENCH_RECORD_LOGREAD_H

#include "record/trace.h"

#include <stdio.h>

/* Read the log at path into r (r->dir, r->body and r->start_cwd set).
 * Returns 0, or -1 after one line on stderr naming the file, the line
 * and the problem (a line strace -f -ttt does not print, no -yy paths,
 * no calls, a read error). */
int rec_read_log(struct rec *r, const char *path);
/* The same from two streams of the same log, one a pass (path names it
 * in messages): what the fuzzer reads from memory. */
int rec_read_files(struct rec *r, const char *path, FILE *pass1, FILE *pass2);

#endif
