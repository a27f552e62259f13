/* kbench - the parent's watch over a load run, from the start to the end
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * One loop for every run, whatever its coordinator (load/run/coord.h): it
 * looks at this participant's clients (the dead reaped, a stop signal,
 * --strict, stuck clients killed), gives the coordinator this
 * participant's live figures at each round due, and with the run's
 * figures back acts on a stop anywhere (and, with --stonewall, on the
 * first participant's end) and prints the progress line of each second.
 */
#ifndef KBENCH_LOAD_WATCH_H
#define KBENCH_LOAD_WATCH_H

#include <stdint.h>
#include "load/run/procs.h"
#include "load/record/record.h"

/* Stop the clients now: nothing that completes after this is measured.
 * *stop_at gets now unless it holds a time already. */
void watch_stop_clients(struct run_shared *sh, uint64_t *stop_at);

/* From the start until every participant's clients have exited: a
 * progress line a second (participant 0, without --quiet); a stop on a
 * signal, a client's death or --strict (anywhere); stuck clients killed
 * 10 s after the stop or the time limit; the steal over the measured
 * window (res->steal_pct); each second's series (res->series).  A
 * participant lost ends the watch at once (res->job_broken) once this
 * participant's clients are stopped and reaped.  Returns the moment of
 * the stop on this clock, ns (0 if the run was not stopped). */
uint64_t watch_run(const struct run_config *cfg, struct run_shared *sh, struct procs *p,
		   struct run_result *res);

#endif
