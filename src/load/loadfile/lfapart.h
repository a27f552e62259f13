/* kbench - the loadfile parsed in a short-lived child process
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A parse holds zlib's buffers, the readers' hash tables, lines and a
 * large stack; done in the process that then runs the clients, all of it
 * stays in its peak RSS, and the pages it leaves in the heap are copied
 * into every client forked after.  loadfile_load_apart() runs
 * loadfile_load() in a child and takes back only what a run keeps: the
 * program's memfd (passed over a socket, SCM_RIGHTS), its figures, its
 * path arena and directory table.
 */
#ifndef KBENCH_LFAPART_H
#define KBENCH_LFAPART_H

#include <stdint.h>
#include <stdio.h>
#include "load/loadfile/program.h"

/* loadfile_load(path, format, prog, errs, max_errors) in a child process
 * (named kbench-parse): the same messages on errs (written by the child;
 * errs is flushed first), the same prog; *peak_bytes (may be NULL) gets
 * the child's peak RSS, bytes (wait4's ru_maxrss; 0 when unknown).  Returns what loadfile_load returns: 0, the
 * number of malformed lines (> 0), or -1 when the file cannot be read,
 * and also -1 (with one line "kbench load: FILE: ..." on errs) when the
 * child cannot be started, ends by a signal or sends less than a whole
 * program.  On any non-zero return prog holds nothing to free. */
int loadfile_load_apart(const char *path, enum lf_format format, struct program *prog,
			FILE *errs, unsigned max_errors, uint64_t *peak_bytes);

#endif
