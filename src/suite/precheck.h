/* kbench - suite: what every job needs, checked before the first run
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A series that cannot succeed says so before it starts: for every job
 * of s (jobs_build has made them), the memory its child needs under its
 * --mem-limit, the memory controller that limit needs, the disk, a load
 * job's command line as kbench load checks it and the server it reaches,
 * and the tools a micro test needs.
 */
#ifndef KBENCH_PRECHECK_H
#define KBENCH_PRECHECK_H

#include "suite/series.h"

/* Check every job of s (s->per_proc becomes the load jobs' clients per
 * process, as load parses them).  The memory controller is found (s->memcg_site,
 * have_memcg_site) when a job has a size as its limit.  Returns 0, or
 * KB_EXIT_USAGE after one line "CMD: JOB: what is missing; nothing was
 * run" naming the first job that cannot run. */
int precheck_jobs(struct suite *s);

#endif
