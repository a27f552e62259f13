/* kbench - suite: the children's setup notes passed on (passon.c)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A run's child writes its standard error to a file the suite reads only
 * for a failure's reason.  What a child warns of about its setup (kbench
 * disk: "loop device in buffered mode") is the tester's to see: the suite
 * prints each such line once per series.  The caveat lines ("warning:
 * KEY: TEXT", result/caveat.h) are not repeated: suite prints those on the
 * run's own line.
 */
#ifndef KBENCH_PASSON_H
#define KBENCH_PASSON_H

#include <stdio.h>
#include <jansson.h>

/* Every line of the file log (a child's standard error) holding
 * "warning: " that is no caveat line and not yet in seen (an array of
 * strings, which it joins), to out, escaped (escape.h).  A log that cannot
 * be read, or a line beyond 1,000 bytes (its rest), is passed over. */
void passon_notes(FILE *out, const char *log, json_t *seen);

#endif
