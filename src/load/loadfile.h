/* kbench - loadfile parser: dbench 3/4 text -> program
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Grammar of a line (dbench 3/4 "NetBench" format):
 *   [timestamp] OPCODE ARG... STATUS
 * Tokens are split on blanks; double quotes group a token and are removed.
 * '#' starts a comment line; blank lines are skipped; CRLF is accepted.
 * STATUS is NT_STATUS_OK, 0x0 or SUCCESS (must succeed), any other
 * NT_STATUS_* or 0x... or ERROR (must fail), or '*' (not checked).
 * See man/kbench-loadfile.5 for every opcode.
 */
#ifndef KBENCH_LOADFILE_H
#define KBENCH_LOADFILE_H

#include <stdio.h>
#include "load/program.h"

/* Largest ReadX/WriteX size accepted, bytes (64 MiB). */
#define LOADFILE_MAX_IO (64u << 20)

/* Parse the loadfile at path into prog.  Every malformed line is reported
 * to errs as "FILE:LINE: message" (at most max_errors of them; further
 * ones are counted).  Returns 0 on success, the number of malformed lines
 * (> 0), or -1 if the file cannot be read (message "FILE: reason" printed
 * to errs).  On any non-zero return prog holds nothing to free. */
int loadfile_load(const char *path, struct program *prog, FILE *errs, unsigned max_errors);

/* The same for a stream already open; name is used in messages. */
int loadfile_parse_stream(FILE *in, const char *name, struct program *prog,
			  FILE *errs, unsigned max_errors);

/* Turn a loadfile path (backslashes, any case) into a program path.
 * Writes the result to out (size outsz) and sets *shared to 0 for a path
 * under \clients\client1 (stored relative to the client's tree) or 1 for
 * any other path (relative to the run directory).  Returns NULL on success
 * or a static message ("path climbs out of the directory", ...). */
const char *loadfile_path(const char *in, char *out, size_t outsz, int *shared);

#endif
