/* kbench - import: what is read, kept by system, test and run; written out
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The figures the readers hand to imp_add() (imp_readers.h), kept per system
 * (struct imp_group) and test (struct imp_test), and written as one
 * results file per system in kbench suite's layout (suitefile.h), each
 * run recording the file and line it was read from and the tool that
 * made it: { value, source: { file, line }, tool, run_date }.
 */
#ifndef KBENCH_IMPSTORE_H
#define KBENCH_IMPSTORE_H

#include "import/imptypes.h"

#include <stdbool.h>
#include <stddef.h>

/* The largest figure kept: a larger one's square overflows a double, so
 * compare could not give its spread; no tool's measurement is near it. */
#define IMP_MAX_FIGURE 1e150

struct imp_run {
	double value;
	char *file, *run, *run_date;
	size_t line, run_no;
	char *cav_key, *cav_text;  /* imp_caveat's, or NULL */
	double cav_printed, cav_worked;
};

/* Where a run is kept: group, test and run numbers, 0 for an empty slot
 * (numbers from 1). */
struct imp_slot {
	size_t group, test, run;
};

struct imp_test {
	char *name, *title, *unit, *tool, *mem, *mem_text, *lm_name;
	bool higher_is_better;
	double baseline;
	struct imp_run *runs;
	size_t nruns, cap;     /* cap: runs has room for it (grown by doubling) */
};

struct imp_group {
	struct imp_sys sys;
	struct imp_test *tests;
	size_t ntests;
	char *run_date;        /* the first run's date as printed, or NULL */
	char *slug;            /* its name in -o's %k (imp_write_all): unique */
	char path[4096];       /* the file written for it, checked */
};

struct imp {
	const char *cmd;
	bool verbose;
	const char *kernel;    /* --kernel */
	char *used;            /* per line of the file being read: read or named */
	size_t nused;
	struct imp_group *groups;
	size_t ngroups;
	size_t nfigs;          /* figures kept */
	size_t nskipped;       /* lines named as skipped */
	long clients;          /* --clients: LKP JSON's client count, or 0 */
	const size_t *rows;    /* --rows N,N,...: of each test's runs whose split
				* between systems a report does not prove, the
				* first rows[0] are the first system's, the next
				* rows[1] the second's ...; NULL for none */
	size_t nrows;
	bool rows_used;        /* a reader placed a run by --rows */
	bool bad;              /* a reader found bad input and said so (status 2) */
	struct imp_run *last;  /* the run imp_add kept last (imp_caveat), or NULL */
	struct imp_slot *slot; /* every run by (group, test, run id): imp_add finds
				* a run printed twice in constant time */
	size_t nslot, nslot_used;
};

/* Write one results file per group of im (import.c's usage: -o out, %k
 * for several), label (NULL: each group's name), the input names in files
 * (a NULL-terminated list, recorded in the document's command).  Returns
 * 0; KB_EXIT_FAIL after a line when nothing was read or a write fails;
 * KB_EXIT_USAGE after a line when out has no %k for several systems. */
int imp_write_all(struct imp *im, const char *out, const char *label, const char **files);

void imp_free(struct imp *im);

/* ---- what the readers call to keep a figure and to speak of a line ---- */

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

/* Which system of --rows run k (from 1) of a test under an unproven split
 * is: its group from 0, *first and *last the runs of that group (from 1);
 * -1 when --rows was not given or places fewer than k runs.  Marks --rows
 * used (im->rows_used). */
int imp_rows_group(struct imp *im, size_t k, size_t *first, size_t *last);

#endif
