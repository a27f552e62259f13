/* kbench - the helpers the loadfile format readers share (lfparse.c)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * loadfile.c reads lines, detects the format and drives one reader; the
 * helpers here (lfparse.c) read tokens, numbers, statuses, paths and
 * patterns and store ops; paths and handle numbers are interned by
 * lfintern.c (lfintern.h, whose lf_handle() readers may call too).
 * Each format is one struct lf_reader (parser.h), exported by its own
 * file (formats.h: fmt_dbench4.c for dbench 4 and 2, fmt_dbench1.c for
 * dbench 1), that
 * turns one line into zero or more ops with these helpers and keeps any
 * state across lines to itself.  Every helper that can fail reports
 * "FILE:LINE: message" itself and returns -1.
 */
#ifndef KBENCH_LFPARSE_H
#define KBENCH_LFPARSE_H

#include <stddef.h>
#include <stdint.h>
#include "load/loadfile/parser.h"

void lf_error(struct parser *ps, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Count a line kbench does not model under kind (truncated to 31 bytes). */
void lf_ignore(struct parser *ps, const char *kind);

/* Split line in place on blanks.  With quotes, double quotes group and
 * are removed (dbench 4); without, '"' is an ordinary character (dbench 2,
 * where it is the DOS '.' wildcard).  Returns the count or -1. */
int lf_tokenize(struct parser *ps, char *line, char **tok, int quotes);

/* Unsigned decimal or 0x hex number in [0, max].  what names it in errors. */
int lf_num(struct parser *ps, const char *tok, const char *what, uint64_t max, uint64_t *out);

/* Status token -> enum expect.  Returns 0, or -1 if tok is not a status. */
int lf_status(const char *tok, uint8_t *expect);

/* Turn a loadfile path (backslashes, any case) into a program path.
 * Writes the result to out (size outsz) and sets *shared to 0 for a path
 * under \clients\client1 (stored relative to the client's tree) or 1 for
 * any other path (relative to the run directory).  Returns NULL on success
 * or a static message ("path climbs out of the directory", ...). */
const char *loadfile_path(const char *in, char *out, size_t outsz, int *shared);

/* Loadfile path -> interned program path; sets *shared. */
int lf_path(struct parser *ps, const char *tok, uint32_t *off, int *shared);

/* FIND_FIRST pattern (DOS wildcards < > " * ?) -> op->path1 and flags. */
int lf_pattern(struct parser *ps, const char *tok, struct op *op);

/* A handle token (decimal or 0x) -> op->handle. */
int lf_handle_tok(struct parser *ps, const char *tok, struct op *op);

/* A fresh op for the current line (paths NO_PATH). */
void lf_op_init(struct parser *ps, struct op *op);

/* Store a finished op (counts, byte totals, largest I/O; an NTCreateX's
 * open bits decoded by op_open_bits); ops go packed (progcode.h) to the
 * program's memfd in batches of at most LF_BATCH bytes. */
void lf_emit(struct parser *ps, const struct op *op);

/* Write the packed ops of the batch not yet written (and count them in
 * prog->code_bytes).  Returns 0, or -1 with errno. */
int lf_flush(struct parser *ps);

#endif
