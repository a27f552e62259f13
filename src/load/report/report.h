/* kbench - the load report: text table and JSON document
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#ifndef KBENCH_LOAD_REPORT_H
#define KBENCH_LOAD_REPORT_H

#include <stdio.h>
#include <jansson.h>
#include "load/record/record.h"
#include "result/sysinfo.h"

/* Print dbench's final table (Operation Count AvgLat P50 P99 MaxLat, ms),
 * the errors, the schedule lateness, the run's caveats (caveats: the list
 * of its document, printed by caveat_print: a "warning: KEY: TEXT" line
 * each; NULL: none; none either when nothing was measured and nothing
 * failed: there is no figure, and the lines say why) and the Throughput
 * line to f.  MB = 10^6 bytes.
 * Prints nothing made up: with no measured window it prints no
 * Throughput line.  The dbench form (cfg->form) prints dbench's lines
 * alone. */
void load_report_text(FILE *f, const struct run_config *cfg, const struct load_params *lp,
		      const struct run_result *res, const json_t *caveats);

/* The memory line of a run under --mem-limit (MiB = 2^20 bytes), e.g.
 * "Memory limit 64.00 MiB (2^20): peak 63.99 MiB, limit hit 1234 times,
 * 0 OOM kills, page cache 40.12 MiB at end"; a figure the kernel does not
 * report is said to be unknown. */
void load_report_memory(FILE *f, const struct memcg_stats *m);

/* The same results as a JSON document of kind "load" (see kbench-load(1),
 * JSON OUTPUT).  Returns a new reference, NULL when out of memory. */
json_t *load_report_json(const struct run_config *cfg, const struct load_params *lp,
			 const struct run_result *res, const struct kb_sysinfo *si);

#endif
