/* kbench - "kbench load --check": what one pass of one client does
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#ifndef KBENCH_CHECK_H
#define KBENCH_CHECK_H

#include <stdint.h>
#include <stdio.h>
#include "load/loadfile/program.h"

/* Figures for one pass of one client, found by walking the program and
 * keeping a model of the files it creates (no file is touched). */
struct lf_check {
	uint64_t ops;                /* operations */
	uint64_t bytes_read;         /* ReadX bytes (requested sizes) */
	uint64_t bytes_written;      /* WriteX bytes */
	uint64_t max_open;           /* most handles open at once */
	uint64_t files;              /* distinct paths opened as files */
	uint64_t dirs;               /* distinct paths made as directories */
	uint64_t peak_bytes;         /* largest sum of file sizes, bytes */
	uint64_t duration_ns;        /* last timestamp, ns (0: not timed) */
};

/* Compute c for prog.  Returns 0, or -1 if out of memory or the program
 * cannot be read (errno set). */
int lf_check_compute(const struct program *prog, struct lf_check *c);

/* Print the report of `kbench load --check` for prog and c to f: lines,
 * format, the count and share of each opcode, bytes read and written
 * (MB = 10^6 bytes), handles, files and directories, peak bytes on disk,
 * duration, and the lines kbench ignores, by kind. */
void lf_check_print(FILE *f, const struct program *prog, const struct lf_check *c);

#endif
