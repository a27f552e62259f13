/* kbench - a load run's latency record: per-second series, per-client
 * figures, the histograms and the schedule's lag in the result document
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The parent's side of what the clients keep beside the merged
 * histograms: the second-by-second figures of the progress lines (read
 * from the clients' rings one second behind, so that an op that ended in
 * a second is counted in it), each client's own figures and latency
 * histogram, and the lag of runs with a schedule (-R, timestamps).
 * report.c calls the two writers here; run.c the collectors.
 */
#ifndef KBENCH_LOAD_LATENCY_H
#define KBENCH_LOAD_LATENCY_H

#include <stdio.h>
#include <jansson.h>
#include "load/record/record.h"

/* Append to ser the seconds from ser->n up to (not including) second
 * index upto (second k ends k+1 s after sh->t0_ns), read from the rings of
 * cfg->nclients clients.  A second a client's ring no longer holds is
 * marked lost.  Returns 0, or -1 when out of memory (the series stops). */
int lat_series_collect(const struct run_config *cfg, const struct run_shared *sh,
		       uint64_t upto, struct run_series *ser);

/* Append to ser the second pt (its coarse counts acc[HIST_COARSE_BUCKETS],
 * kept sparsely; pt's coff and cnb are set here, and its p99 made from acc,
 * 0 for a lost second).  Returns 0, or -1 when out of memory (ser unchanged). */
int lat_series_point(struct run_series *ser, const struct run_point *pt, const uint64_t *acc);

/* Release what ser holds and empty it. */
void lat_series_free(struct run_series *ser);

/* One client's own figures from its slot st over a window of window_s s:
 * ops, bytes, errors, its p99 lag, and its latency histogram over every op
 * written sparsely to out->idx and out->cnt (room for HIST_BUCKETS each).
 * scratch and lag are working room (lag ends holding its lag). */
void lat_client_of(const struct client_stats *st, double window_s, struct run_client *out,
		   struct hist *scratch, struct hist *lag);

/* Release res's clients and series. */
void lat_result_free(struct run_result *res);

/* The "schedule:" line of a run with a schedule (timestamps or -R): late
 * starts, their mean and max lateness, the p99 lag per client (min,
 * median, max over the clients).  Prints nothing for a run without one. */
void lat_report_schedule(FILE *f, const struct run_config *cfg, const struct run_result *res);

/* Add to a load document's results and params (both not NULL): each op's
 * sparse histogram (results.ops[].hist, in the order of the ops array),
 * the bucket scheme (results.histogram_scheme), per-client figures and
 * their spread (results.clients, results.clients_summary), the series
 * (results.series), the schedule's lag, params.latency_from.  Returns 0,
 * or -1 when out of memory. */
int lat_report_json(json_t *results, json_t *params, const struct run_config *cfg,
		    const struct run_result *res);

/* Jain's fairness index of v[0..n-1] (values >= 0): (sum v)^2 / (n sum v^2),
 * from 1/n (one value holds all) to 1 (all equal).  Returns NAN when n is 0
 * or every value is 0. */
double lat_jain_index(const double *v, size_t n);

#endif
