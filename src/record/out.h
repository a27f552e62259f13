/* kbench - kbench record: the loadfile written, and what it says of itself
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A recorded loadfile is: '#' lines saying how it was recorded and what
 * was left out; the setup (no timestamps): Mkdir of each directory the
 * program found, then each file it found, made with its recorded size
 * (NTCreateX, WriteX up to that size, Close), so that a replay on an
 * empty directory finds what the program read; then the program's lines,
 * each with its call's time in seconds from the first traced call.
 */
#ifndef KBENCH_RECORD_OUT_H
#define KBENCH_RECORD_OUT_H

#include "record/trace.h"

#include <stdio.h>

/* Write the setup lines to f and count them in r->setup_*.  Returns 0,
 * or -1 with errno on a write error. */
int rec_setup(struct rec *r, FILE *f);
/* The header comments (how: one line, e.g. "command: tar -xf x.tar"). */
void rec_header(const struct rec *r, FILE *f, const char *how);
/* The summary kbench record prints: ops per kind (setup, program, in
 * all), bytes, what was left out and what was followed. */
void rec_summary(const struct rec *r, FILE *f, const char *out);
/* Names under DIR that differ from another only in case: the loadfile
 * folds case, so they would become one; counted as left out. */
void rec_case_clashes(struct rec *r);

#endif
