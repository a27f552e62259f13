/* kbench - compare --series: where a series of kernels stepped (cmpseries.c)
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#ifndef KBENCH_CMPSERIES_H
#define KBENCH_CMPSERIES_H

#include <stdbool.h>

/* Does the command line argv[0..argc-1] of kbench compare ask for the
 * series view (--series among its options, before a lone "--")? */
bool cmp_series_asked(int argc, const char **argv);

/* kbench compare --series [--sort file|version] [--confidence PCT]
 * [--style table|lkml] [--json] [--plot FILE] [--fail-on worse] FILE
 * FILE FILE...: argv as cmd_compare gets it.  Returns the exit status:
 * 0; 1 when memory runs out or gnuplot fails; 2 after one line for bad
 * options or a bad file; 4 when --fail-on worse trips. */
int cmp_series_main(int argc, const char **argv);

#endif
