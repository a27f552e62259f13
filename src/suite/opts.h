/* kbench - suite: its options, parsed and checked before anything runs
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#ifndef KBENCH_OPTS_H
#define KBENCH_OPTS_H

#include <popt.h>

#include "suite/series.h"

/* Parse the suite's options (argv[0] is the command name) into s, leaving
 * popt's context in *ctx for the caller to free (with poptFreeContext,
 * after opts_free).  --resume takes no other option but --format.
 * Returns 0 or KB_EXIT_USAGE after one line. */
int opts_parse(struct suite *s, int argc, const char **argv, poptContext *ctx);

/* Check the parsed options against the system: numbers and lists (into
 * s->runs, timelimit_s, warmup_s, pause_s, clients, mems, micro_tests),
 * DIR, the disk, root for --drop-caches (caches_drop_check), and what
 * this kbench's load and micro accept (asked of the binary itself, which
 * becomes s->exe; -c FILE through kbench load --check).  Returns 0 or
 * KB_EXIT_USAGE after one line. */
int opts_check(struct suite *s);

/* Free what opts_parse and opts_check allocated and loadfile_path (not
 * the document). */
void opts_free(struct suite *s);

#endif
