/* kbench - loadfile parser internals shared by the format readers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * loadfile.c owns the parser state: it reads lines, detects the format,
 * interns paths and handle numbers and stores ops.  Each format reader
 * (fmt_netbench.c for dbench 4 and 2, fmt_smbtrace.c for dbench 1) turns
 * one line into zero or more ops with these helpers.  Every helper that
 * can fail reports "FILE:LINE: message" itself and returns -1.
 */
#ifndef KBENCH_LFPARSE_H
#define KBENCH_LFPARSE_H

#include <stdint.h>
#include <stdio.h>
#include "load/program.h"

#define LF_MAX_TOKENS 32
#define LF_BATCH 1024

struct strtab {          /* path -> arena offset */
	uint32_t *slot;      /* arena offset + 1; 0 = empty */
	size_t cap, used;
};

struct numtab {          /* fnum -> dense handle index */
	uint64_t *key;
	uint32_t *val;       /* index + 1; 0 = empty */
	size_t cap, used;
};

/* dbench 1: what a REQUEST line left for its REPLY */
struct smb_pending {
	int active;
	uint32_t line;
	uint32_t path1;
	uint8_t flags;
	uint8_t code;        /* OP_NTCREATEX, OP_QPATHINFO or OP_UNLINK */
};

struct parser {
	const char *name;
	FILE *errs;
	unsigned max_errors, nerrors;
	uint64_t lineno;
	enum lf_format format;
	struct program *prog;
	size_t arena_cap;
	struct strtab paths;
	struct numtab handles;
	struct op batch[LF_BATCH];
	size_t nbatch;
	int io_failed;
	int holding;         /* reading the lines that decide the format */
	/* dbench 1 state */
	struct smb_pending pending[4];
	uint32_t last_find;  /* path of the last FINDFIRST, or NO_PATH */
	uint8_t last_find_flags;
	uint64_t next_synth; /* synthetic handle numbers for CREATE */
};

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

/* Handle number -> dense index in *idx. */
int lf_handle(struct parser *ps, uint64_t fnum, uint32_t *idx);

/* A handle token (decimal or 0x) -> op->handle. */
int lf_handle_tok(struct parser *ps, const char *tok, struct op *op);

/* A fresh op for the current line (paths NO_PATH). */
void lf_op_init(struct parser *ps, struct op *op);

/* Store a finished op (counts, byte totals, largest I/O). */
void lf_emit(struct parser *ps, const struct op *op);

/* The format readers: one line each (not a comment, not blank). */
void lf_line_netbench(struct parser *ps, char *line);
void lf_line_smbtrace(struct parser *ps, char *line);
/* End of file for the SMB trace reader (REQUESTs left without REPLY). */
void lf_end_smbtrace(struct parser *ps);

/* Is this line (already known not to be blank or a comment) from a
 * dbench 1 trace?  A status-terminated dbench 4 line?  Used to detect. */
int lf_looks_smbtrace(const char *line);
int lf_looks_status_line(const char *line);

#endif
