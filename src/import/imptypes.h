/* kbench - import: the types every part of import shares (no function)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * An input file split into lines, a system as a report names it, and one
 * figure as a reader hands it to imp_add() (impstore.h).  The readers
 * (imp_readers.h), the store (impstore.h) and the helpers (imp_util.h) all
 * take them, so they live here, under all three.
 */
#ifndef KBENCH_IMPTYPES_H
#define KBENCH_IMPTYPES_H

#include <stdbool.h>
#include <stddef.h>

/* The lines of one input file, split in place. */
struct imp_file {
	const char *path;      /* as given */
	char **line;           /* line[i] is line i + 1, without its end (and CR) */
	size_t nlines;
	char *buf;             /* the whole file, NUL-terminated at len */
	size_t len;            /* its bytes (a NUL byte inside is not its end) */
	unsigned char *flag;   /* per line: IMP_LINE_NUL, IMP_LINE_QUOTED */
};

/* A line held a NUL byte: it is emptied (the readers see "") and named. */
#define IMP_LINE_NUL 1
/* A line began with a mail quote prefix ("> ", "| ", "~ ", ": ", " ES> ",
 * nested), taken off; the marks stay in buf before the line's text. */
#define IMP_LINE_QUOTED 2

/* Who ran a figure: the system's identity as the report gives it.  Empty
 * strings for what it does not say. */
struct imp_sys {
	char host[128];        /* uname nodename */
	char kernel[160];      /* release ("2.4.0-test6"), or a table's kernel line */
	char build[160];       /* uname -v: "#30 SMP Wed Aug 2 21:42:25 BST 2000" */
	char machine[64];      /* uname -m: "i686" */
	char desc[160];        /* a table's machine line: "133 MHz Pentium, DMA" */
	char mhz[32];          /* LMbench's Mhz column */
};

/* One figure. */
struct imp_fig {
	const char *test;      /* the test's name: tool words ("byte: Execl Throughput") */
	const char *title;     /* the report's own words for it ("Execl Throughput") */
	const char *unit;      /* "lps", "MB/s", "MiB/s", "us", ... */
	bool higher_is_better;
	const char *tool;      /* the tool and version that made it ("BYTE UNIX Benchmarks 4.1.0") */
	const char *mem;       /* memory size the run had ("32M"), or NULL */
	double baseline;       /* BYTE's index baseline of the test, or 0 */
	double value;
	size_t line;           /* where it was read, from 1 */
	const char *run;       /* the run's identity within the system: figures of
				* one test with the same run are one figure */
	const char *run_date;  /* the run's date as the report prints it, or NULL */
	const char *mem_text;  /* the memory size as the report prints it ("mem=128M"), or NULL */
	size_t run_no;         /* the run's number in its report (an LMbench row), or 0 */
	const char *lm_name;   /* the kbench micro test an LMbench column is, or NULL */
};

/* What import collects: the systems, their tests, their runs (import.c). */
struct imp;

#endif
