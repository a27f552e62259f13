/* kbench - compare --series: the series' data, shared by its builder and printers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * cmpseries.c fills struct series from N results files (one a kernel, in
 * the order given or by kernel version); serprint.c and plotseries.c only
 * read it.  A kernel is a point of the series unless it is a build
 * already in it run again (the same label): then it is the control of
 * that build, as compare --control is.  Types only: no function here.
 */
#ifndef KBENCH_SERTYPES_H
#define KBENCH_SERTYPES_H

#include <stdbool.h>
#include <stddef.h>

#include "stats/changepoint.h"
#include "resultsfile/suitefile.h"

#include <jansson.h>

/* What the series keeps of one results file: its document is freed as
 * soon as this is taken from it, so a series of many files holds only
 * their figures and caveats. */
struct ser_kernel {
	char *path, *label, *kernel;   /* owned; label: the document's label, else its
					* kernel, else the path; kernel: "" when not recorded */
	json_t *params;           /* {"params": the file's params} (owned; cmpparams.h) */
	struct sf_test *t;        /* its tests (owned: name, unit, v; params and row NULL) */
	size_t nt;
	char **units, **commands; /* [nt] owned: t[i].unit's string, params.command or NULL */
	json_t **cav;             /* [nt] the caveats of each test's runs (rowcav_row, owned) */
	long control_of;          /* -1, or the kernel this file is run again (a control) */
	json_t *settings;         /* system.settings, the machine's (owned; NULL: none) */
};

/* A step: an accepted change point of a test, sized between the segments
 * it separates. */
struct ser_step {
	size_t cand;              /* its candidate in the test's cand[] */
	size_t from, to;          /* the kernels either side (points with runs) */
	struct cp_size size;      /* between the neighbouring segments */
	bool worse;               /* the direction, by the test's higher_is_better */
};

struct ser_test {
	const char *name, *unit;
	bool higher_is_better;
	const struct sf_test **t;     /* [nk]: the kernel's test, NULL when absent */
	struct cp_runs *runs;         /* [nk]: the runs the segmentation uses (n 0: no point) */
	const char **kept_out;        /* [nk]: the caveat that keeps a point out, or NULL */
	json_t **cav;                 /* [nk]: the caveats of its runs (the kernel's), or NULL */
	struct cp_cand *cand;         /* binary segmentation's candidates (cp_binseg) */
	size_t ncand, positions;      /* and the split positions the study counts */
	struct ser_step *steps;       /* the accepted ones, by position */
	size_t nsteps;
	bool single;                  /* every point has one run (imported reports) */
	long drift_of;                /* -1, or the control kernel that differs from its build */
	double drift_p, drift_q, drift_pct;
};

struct series {
	const char *cmd;
	struct ser_kernel *k;
	size_t nk;
	size_t npoints;               /* kernels that are points (not controls) */
	long newest;                  /* the last point kernel */
	struct ser_test *t;
	size_t nt;
	double conf;                  /* percent: 90, 95, 99 */
	size_t m;                     /* the candidate splits of the study (tests x positions) */
	size_t ndrift_tested;         /* the control tests adjusted together */
};

#endif
