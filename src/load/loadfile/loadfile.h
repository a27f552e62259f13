/* kbench - loadfile parser: dbench 1, 2 and 3/4 text -> program
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Three formats (kbench-loadfile(5)); the dbench 3/4 "NetBench" line is
 *   [timestamp] OPCODE ARG... STATUS
 * Tokens are split on blanks; double quotes group a token and are removed.
 * '#' starts a comment line; blank lines are skipped; CRLF is accepted.
 * STATUS is NT_STATUS_OK, 0x0 or SUCCESS (must succeed), any other
 * NT_STATUS_* or 0x... or ERROR (must fail), or '*' (not checked).
 * See man/kbench-loadfile.5 for every opcode.
 */
#ifndef KBENCH_LOADFILE_H
#define KBENCH_LOADFILE_H

#include <stdint.h>
#include <stdio.h>
#include "load/loadfile/program.h"

/* Parse the loadfile at path (plain or gzip-compressed) into prog, in
 * the given format (LF_AUTO: detected from its first operation lines).
 * Every malformed line is reported to errs as "FILE:LINE: message" (at
 * most max_errors of them; further ones are counted).  Returns 0 on
 * success, the number of malformed lines (> 0), or -1 if the file cannot
 * be read (message "kbench load: FILE: reason" printed to errs, as every
 * error of the command is).  On any non-zero
 * return prog holds nothing to free. */
int loadfile_load(const char *path, enum lf_format format, struct program *prog,
		  FILE *errs, unsigned max_errors);

/* The CRC-32 (zlib's) and the length of the bytes of the file at path,
 * as they are on disk (a compressed file's compressed bytes), into *crc
 * and *size: what --mpi's ranks compare to know they replay the same
 * file.  Returns 0, or -1 with errno when the file cannot be read or is
 * not a regular file (EINVAL: a pipe or device is never waited on or read). */
int loadfile_sum(const char *path, uint32_t *crc, uint64_t *size);

/* The same for a stream already open; name is used in messages. */
int loadfile_parse_stream(FILE *in, const char *name, enum lf_format format,
			  struct program *prog, FILE *errs, unsigned max_errors);

/* "auto", "dbench4" (or "dbench3"), "dbench2", "dbench1" -> format.
 * Returns 0, or -1 for any other word. */
int lf_format_parse(const char *s, enum lf_format *out);

/* The format's --format word: "dbench4", "dbench2", "dbench1", or "auto"
 * for LF_AUTO and any value without a reader.  A static string. */
const char *lf_format_name(enum lf_format f);

#endif
