/* kbench - a results file in LKP's and mmtests' forms (kbench compare --export)
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#ifndef KBENCH_SUITE_CMPEXPORT_H
#define KBENCH_SUITE_CMPEXPORT_H

#include <stdio.h>
#include "resultsfile/suitefile.h"

enum export_format {
	EXPORT_GO = 0,     /* the Go benchmark format (suitefile_benchstat) */
	EXPORT_LKP,        /* LKP's flat stats */
	EXPORT_MMTESTS,    /* mmtests' tab-separated rows */
};

/* --export's word ("go", "lkp", "mmtests") as an enum export_format, or
 * -1 for another word. */
int cmp_export_format(const char *word);

/* Print sf (a results file suitefile_load accepted) in fmt (EXPORT_LKP or
 * EXPORT_MMTESTS; export.c's top comment has the keys and columns) to f.
 * Returns 0, or -1 for EXPORT_LKP when sf holds no load test with runs
 * (nothing printed). */
int cmp_export(FILE *f, const struct suitefile *sf, enum export_format fmt);

#endif
