/* kbench - load: the run's outcome (outcome.c)
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#ifndef KBENCH_LOAD_OUTCOME_H
#define KBENCH_LOAD_OUTCOME_H

#include <stddef.h>
#include "load/record/record.h"

/* The run's outcome, the one rule every output form follows: whether
 * its figure is a result.  Returns NULL for a run that went its whole
 * course (no stop signal, --strict stop, lost client, rank or stuck
 * process), in which every operation ended as its line expects (an op
 * that did not end as a trace whose tool never checked replies recorded
 * is no failure: res->unchecked), something was measured, its memory
 * cgroup was removed and its report written (--json); otherwise buf (len
 * bytes, a phrase such as
 * "12 operations did not end as the loadfile expects") saying why its
 * figure, if any, is not a result.  Such a run prints no line that starts
 * with "Throughput" in any form, and exits non-zero. */
const char *run_failure(const struct run_result *res, char *buf, size_t len);

#endif
