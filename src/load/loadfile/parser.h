/* kbench - the loadfile parser's state and a format reader's row
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The types the driver (loadfile.c), the helpers (lfparse.c), the
 * interning tables (lfintern.c) and each format reader share, in one
 * header that declares no function: struct parser, what one loadfile's
 * reading holds (its program, the interning tables, a batch of ops), and
 * struct lf_reader, a format as a row of the driver's table.
 */
#ifndef KBENCH_LOAD_PARSER_H
#define KBENCH_LOAD_PARSER_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "load/loadfile/program.h"

struct strtab {          /* path -> arena offset */
	uint32_t *slot;      /* arena offset + 1; 0 = empty */
	size_t cap, used;
};

struct numtab {          /* fnum -> dense handle index */
	uint64_t *key;
	uint32_t *val;       /* index + 1; 0 = empty */
	size_t cap, used;
};

/* Largest ReadX/WriteX size accepted, bytes (64 MiB). */
#define LOADFILE_MAX_IO (64u << 20)

#define LF_MAX_TOKENS 32
#define LF_BATCH 16384   /* bytes of packed ops written to the memfd at once */

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
	unsigned char batch[LF_BATCH];  /* packed ops not yet written (progcode.h) */
	size_t nbatch;       /* bytes in batch */
	struct op last;      /* the op stored last (the packed form's base) */
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

#endif
