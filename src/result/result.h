/* kbench - result documents (JSON), written atomically
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every command can write its results as one JSON object:
 *   { "kbench_version", "kind", "time" (UTC, ISO 8601), "params",
 *     "system", "results" }
 * The text tables are printed from the same in-memory results.
 */
#ifndef KBENCH_RESULT_H
#define KBENCH_RESULT_H

#include <jansson.h>

/* A new document with kbench_version, kind and time set.  Returns a new
 * reference, NULL only when out of memory. */
json_t *result_new(const char *kind);

/* Write doc to path atomically: a temporary file in the same directory,
 * fsync, then rename over path ("-" writes to standard output).
 * Returns 0, or -1 with a one-line reason in err (errlen bytes). */
int result_write(json_t *doc, const char *path, char *err, size_t errlen);

#endif
