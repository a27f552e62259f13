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
#include <stdbool.h>

/* The directory part of path, into out (outsz bytes): "." for a bare name,
 * "/" for a name in the root.  Returns 0, or -1 if path does not fit in
 * out (out is then unspecified). */
int result_parent_dir(const char *path, char *out, size_t outsz);

/* The current time, UTC, in ISO 8601 as every document holds it
 * ("2026-01-01T12:00:00Z"), into buf (n bytes; RESULT_TIME_LEN is
 * enough).  When it does not fit, buf is "" (n >= 1). */
#define RESULT_TIME_LEN 32
void result_time_now(char *buf, size_t n);

/* A new document with kbench_version, kind and time set.  Returns a new
 * reference, NULL only when out of memory. */
json_t *result_new(const char *kind);

/* Decide, before any measuring, where a --json FILE may be written: "-"
 * (standard output), or a path that is missing or a regular file (not a
 * symbolic link: kbench runs as root, and a link planted in /tmp must not
 * make it replace the link's target), that is none of the nkeep files in
 * keep (the loadfile, the devices being measured: same inode), that is
 * not inside the directory inside (NULL: no such rule; a run directory
 * whose cleanup would remove it; told by the directories' identity, so a
 * bind mount of it elsewhere or inside "/" counts), and whose directory
 * lets a file be made (tried, not guessed: access() says yes to root on
 * /proc).
 * Returns 0 with the path to write in dest (destsz bytes), or 2 after
 * printing one line "CMD: OPT FILE: reason" to stderr (OPT: the option
 * that named the file, "--json" or "-o"). */
int result_destination(const char *cmd, const char *opt, const char *json,
		       const char *const *keep, size_t nkeep, const char *inside, char *dest,
		       size_t destsz);

/* May a command that writes kbench documents replace path: missing,
 * empty, or a kbench document already (a JSON object whose kbench_version
 * and kind are strings: a results file, a run's --json)?  Anything else
 * (a user's text, another program's JSON) is kept.  false also when path
 * cannot be read. */
bool result_replaceable(const char *path);

/* Write doc to path atomically: a temporary file in the same directory,
 * fsync, then rename over path ("-" writes to standard output); the stop
 * signals (cli.h) are blocked meanwhile, so one that kills leaves no
 * temporary file.  A run's document (kind load, disk or micro) holds its
 * caveats already: the command that made it attached them
 * (caveat_attach, result/caveat.h) before printing their warnings.
 * Returns 0, or -1 with a one-line reason in err (errlen bytes). */
int result_write(json_t *doc, const char *path, char *err, size_t errlen);

/* The --json FILE option of kbench load, disk and micro, a popt row (the
 * caller includes popt.h) whose value goes into *var, a char *. */
#define RESULT_JSON_OPTION(var) \
	{ "json", 0, POPT_ARG_STRING, (var), 0, "also write the results as JSON to FILE " \
	  "('-': standard output, the text then goes to standard error)", "FILE" }

/* 1 when --json's value json is "-": the document goes to standard output,
 * which then carries it alone (the command's text goes to standard
 * error); else 0, also for NULL (no --json). */
int result_json_stdout(const char *json);

/* --json's document doc (NULL: out of memory building it) to dest, the
 * path result_destination checked, by result_write.  Returns 0, or -1
 * after one line on stderr starting with cmd. */
int result_write_json(const char *cmd, json_t *doc, const char *dest);

#endif
