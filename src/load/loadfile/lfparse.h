/* kbench - loadfile parser internals shared by the format readers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * loadfile.c reads lines, detects the format and drives one reader; the
 * helpers here (lfparse.c) read tokens, numbers, statuses, paths and
 * patterns and store ops; paths and handle numbers are interned by
 * lfintern.c (lfintern.h, whose lf_handle() readers may call too).
 * Each format is one struct lf_reader, exported by its own file
 * (fmt_dbench4.c for dbench 4 and 2, fmt_dbench1.c for dbench 1), that
 * turns one line into zero or more ops with these helpers and keeps any
 * state across lines to itself.  Every helper that can fail reports
 * "FILE:LINE: message" itself and returns -1.
 */
#ifndef KBENCH_LFPARSE_H
#define KBENCH_LFPARSE_H

#include <stdint.h>
#include <stdio.h>
#include "load/loadfile/lfintern.h"
#include "load/loadfile/program.h"

#define LF_MAX_TOKENS 32
#define LF_BATCH 1024

struct parser {
	const char *name;
	FILE *errs;
	unsigned max_errors, nerrors;
	uint64_t lineno;
	const struct lf_reader *reader;  /* the format being read */
	void *state;         /* the reader's own, state_size bytes, zeroed */
	struct program *prog;
	size_t arena_cap;
	size_t dirs_cap;     /* room in prog->dirs */
	struct strtab paths;
	struct numtab handles;
	struct op batch[LF_BATCH];
	size_t nbatch;
	int io_failed;
	int holding;         /* reading the lines that decide the format */
};

/* One loadfile format: a row of the driver's table (loadfile.c), which
 * asks the rows in order which one the first operation lines are. */
struct lf_reader {
	enum lf_format format;
	const char *name;    /* its --format word and lf_format_name() */
	const char *alias;   /* another --format word for it, or NULL */
	/* 1 if lines[0..n-1], the first operation lines (never blank or a
	 * comment; NULL for a line with a NUL byte), are of this format */
	int (*looks)(char *const *lines, size_t n);
	size_t state_size;   /* bytes of state the reader keeps, or 0 */
	void (*begin)(struct parser *ps);  /* before the first line, or NULL */
	void (*line)(struct parser *ps, char *line);  /* one operation line */
	void (*end)(struct parser *ps);    /* at the end of the file, or NULL */
};

extern const struct lf_reader lf_reader_dbench4, lf_reader_dbench2, lf_reader_dbench1;

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

/* Loadfile path -> interned program path; sets *shared. */
int lf_path(struct parser *ps, const char *tok, uint32_t *off, int *shared);

/* FIND_FIRST pattern (DOS wildcards < > " * ?) -> op->path1 and flags. */
int lf_pattern(struct parser *ps, const char *tok, struct op *op);

/* A handle token (decimal or 0x) -> op->handle. */
int lf_handle_tok(struct parser *ps, const char *tok, struct op *op);

/* A fresh op for the current line (paths NO_PATH). */
void lf_op_init(struct parser *ps, struct op *op);

/* Store a finished op (counts, byte totals, largest I/O; an NTCreateX's
 * open bits decoded by op_open_bits); ops go to the program's memfd in
 * batches of LF_BATCH. */
void lf_emit(struct parser *ps, const struct op *op);

/* Write the ops of the batch not yet written.  Returns 0, or -1 with
 * errno. */
int lf_flush(struct parser *ps);

#endif
