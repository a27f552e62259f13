/* kbench - suite --resume: is the file's progress what its runs say?
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#ifndef KBENCH_PROGRESS_H
#define KBENCH_PROGRESS_H

#include <stddef.h>

#include "suite/series.h"

/* --resume: does the document's progress agree with itself and with the
 * command line?  Every done count is a whole number from 0 to --runs and
 * names a job; a load or disk job's count is its test's runs plus its
 * failures; a micro job's count is at least its failures plus the runs of
 * each micro test; every test and failure belongs to a job.  Returns 0,
 * or -1 with a one-line reason naming the test in why (whylen bytes). */
int progress_check(const struct suite *s, char *why, size_t whylen);

#endif
