/* kbench - a load run's own memory in its report
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * kbench is run where memory is scarce on purpose (--mem-limit, a machine
 * booted with mem=64M), and what it holds itself the kernel under test
 * does not have.  So every load document records it (results.own_memory,
 * from struct run_ownmem, which run.c and procs.c fill), and the text
 * report of a run under --mem-limit says it in one line beside the
 * cgroup's.  report.c calls the two writers here.
 */
#ifndef KBENCH_LOAD_OWNMEM_H
#define KBENCH_LOAD_OWNMEM_H

#include <stdio.h>
#include <jansson.h>
#include "load/record/record.h"

/* The line of a run under --mem-limit (MiB = 2^20 bytes), e.g. "kbench's
 * own memory (2^20): program 2.98 MiB (6.8 bytes an op), parent peak
 * 3.05 MiB, client peak 1.10 MiB; charged to the limit 1.52 MiB"; a
 * figure not known is said to be unknown.  Prints nothing for a run
 * without a cgroup (res->mem_limited 0). */
void ownmem_text(FILE *f, const struct run_config *cfg, const struct run_result *res);

/* results.own_memory: an object of the figures of res->own in bytes
 * (program_bytes, program_bytes_per_op, arena_bytes, parent_peak_bytes,
 * client_peak_bytes, client_peak_sum_bytes, client_procs, shared_bytes,
 * charged_bytes: null without --mem-limit or a figure).  Returns a new
 * reference, NULL when out of memory. */
json_t *ownmem_json(const struct run_config *cfg, const struct run_result *res);

#endif
