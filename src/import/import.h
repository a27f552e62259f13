/* kbench - import: old text reports read into results files
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * kbench import reads the text that older tools printed (BYTE UNIX
 * Benchmarks reports and their "Test || A -> B +x%" comparisons, LMbench
 * summaries, dbench and tbench "Throughput" lines, hdparm "Timing" lines,
 * tables of runs such as "hdparm -T 37.43 37.43 ...") and writes results
 * files kbench compare reads like kbench suite's.  Every reader (one file
 * each, imp_*.c) walks the lines of one input and hands each figure it
 * can read to imp_add(); a line it cannot read is named by imp_skip()
 * with the reason.  No figure is ever made up: a line that does not say
 * which number is which is skipped.
 *
 * A figure belongs to a system (the kernel and the machine that ran it),
 * a run (one execution of the tool: one BYTE report, one row of an
 * LMbench table, one column of a table of runs) and a test, named by the
 * tool's own words after the tool's name ("byte: Execl Throughput",
 * "lmbench: null call", "dbench 5", "hdparm -T"), so that no test of one
 * tool shares a name with a test of another or with kbench's own (but
 * kbench's own figures, read back from kbench compare --export, keep
 * kbench's names: imp_harness.c).
 */
#ifndef KBENCH_IMPORT_H
#define KBENCH_IMPORT_H

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
/* A line began with a mail quote prefix ("> ", "| ", "~ "), taken off. */
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

/* Add figure f, read at line f->line of file, of system sys.  A figure
 * for a test and run that already has one is dropped: silently when the
 * value is the same (the same run printed twice, as a comparison's "To"
 * side), else with an imp_skip() line.  Returns 0, or -1 when memory runs
 * out. */
int imp_add(struct imp *im, const struct imp_file *file, const struct imp_sys *sys,
	    const struct imp_fig *f);

/* A caveat on the figure imp_add() kept last (none kept: nothing): key
 * (result/caveat.h's kinds, as "printed_differs"), the report's printed
 * figure and kbench's own working of it as evidence, and one line of
 * words (printf format).  It reaches the results file as the run's
 * document's "caveats", so compare shows it.  Returns 0, -1 when memory
 * runs out. */
int imp_caveat(struct imp *im, const char *key, double printed, double worked,
	       const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* Say that line (from 1) of file was not read, and why (printf format),
 * on stderr: "kbench import: FILE:LINE: skipped: WHY". */
void imp_skip(struct imp *im, const struct imp_file *file, size_t line, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* Say something about line (from 1) that --verbose asks for (a line of
 * prose not read, a figure checked against the report's own). */
void imp_note(struct imp *im, const struct imp_file *file, size_t line, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* Say something about line (from 1) that a reader of the results must
 * know (a split of runs between systems that the report does not
 * prove), always, on stderr: "kbench import: FILE:LINE: WHAT". */
void imp_warn(struct imp *im, const struct imp_file *file, size_t line, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* Mark line (from 1) as read, so --verbose does not name it. */
void imp_used(struct imp *im, size_t line);

/* The kernel --kernel names for inputs that do not say (or ""). */
const char *imp_default_kernel(const struct imp *im);

/* ---- the readers: each reads what it knows in file and returns how many
 * figures it added, or -1 when memory runs out ---- */
int imp_read_byte(struct imp *im, const struct imp_file *file);     /* imp_byte.c */
int imp_read_bytecmp(struct imp *im, const struct imp_file *file);  /* imp_bytecmp.c */
int imp_read_bytecols(struct imp *im, const struct imp_file *file); /* imp_bytecols.c: one
								     * column a kernel */
int imp_read_lmbench(struct imp *im, const struct imp_file *file);  /* imp_lmbench.c */
int imp_read_tput(struct imp *im, const struct imp_file *file);     /* imp_tput.c: dbench,
								     * tbench, hdparm */
int imp_read_table(struct imp *im, const struct imp_file *file);    /* imp_table.c */
int imp_read_harness(struct imp *im, const struct imp_file *file);  /* imp_harness.c: LKP's
								     * JSON, kbench's LKP and
								     * mmtests exports; sets
								     * im->bad after one line
								     * on bad input */

/* ---- what the readers share (imp_util.c) ---- */

/* Split s at blanks into at most max words (in place); returns the count. */
size_t imp_words(char *s, char **w, size_t max);

/* All the words of line s, however many: a copy of s split at blanks.
 * Returns the block to free() (the words point into it), *w the words,
 * *n their count; NULL when memory runs out. */
void *imp_all_words(const char *s, char ***w, size_t *n);

/* Is s wholly a decimal number (as the tools print them: "37.43", "1e+05",
 * "-0.20")?  Its value in *v.  Only digits, one '.', a sign and a decimal
 * exponent: "0x10", "inf", "nan" and "1e999" (beyond a double) are not. */
bool imp_number(const char *s, double *v);

/* The quote prefix a mail reply put before line s ("> ", ">> ", "| ",
 * "~ ", with the blanks before and between): its length in bytes, or 0.
 * A '|' or '>' followed by a figure or an operator is not a prefix. */
size_t imp_quote_len(const char *s);

/* Parse uname -a's text from s ("Linux HOST RELEASE #BUILD ... YEAR MACHINE
 * ...") into sys (host, kernel, build, machine).  Returns 0, or -1 when s
 * is not that form. */
int imp_uname(const char *s, struct imp_sys *sys);

/* Is s a kernel version as posters write it: "2.4.19", "2.4.0-test6",
 * "2.5.8-ac4", "linux-2.6.5", "v2.6.12" (a first part of one digit, then
 * a dot part and either a third part or a "-suffix"; punctuation around
 * it ignored)?  Its bare form into out (n bytes). */
bool imp_kernel_word(const char *s, char *out, size_t n);

/* Does line l name one kernel, as the line above a kernel's runs does
 * ("2.4.19-pre5:", "1) 2.5.8", "on 2.4.20:", "Linux box 2.4.19 #1 SMP
 * ... 2002 i686", "same machine with 2.4.19-pre4-ac4", "Red Hat 9.0 with
 * kernel 2.4.20 compiled")?  A line of at most 12 words with exactly one
 * kernel version and no other figure, a line of any length naming one
 * version after the word "kernel" or "Linux" and no other version, or
 * uname -a's line.  Sets sys (all of it) and returns true; false
 * leaves sys alone. */
bool imp_kernel_line(const char *l, struct imp_sys *sys);

/* How many different kernel versions a short line (at most 12 words, no
 * other figure) names, as imp_kernel_line reads them; the first four,
 * joined by ", ", into list (n bytes).  0 for a longer line. */
size_t imp_kernels_named(const char *l, char *list, size_t n);

/* Is l a heading over a block of runs that names no kernel: a line of at
 * most 6 words, no figure among them, ending in ':' ("Before:", "with
 * the patch set:"; not "Andrew wrote:", a quote's attribution), or text
 * between rules ("=== vanilla ===", "--- after ---"), or one of
 * "before", "after", "baseline", "vanilla", "stock", "patched",
 * "unpatched" alone on its line?  Its words,
 * without the colon or rules, into out (n bytes). */
bool imp_heading_line(const char *l, char *out, size_t n);

/* Is w one of BYTE's units: lps, lpm, KBps, MWIPS, KWIPS? */
bool imp_byte_unit(const char *w);

/* Copy s to dst (n bytes) without leading and trailing blanks. */
void imp_trim_copy(char *dst, size_t n, const char *s, size_t len);

#endif
