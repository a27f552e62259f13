/* kbench - suite: the plan of a series, sealed with a digest for --resume
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A resumed series must run what the series started with.  Its plan is
 * what the results document stores of it: the command line ("command"),
 * the directory it ran from ("cwd"), the parameters ("params") and the
 * real path of its -D directory ("directory_real").  A new document gets
 * a digest of them ("plan_digest"); --resume recomputes it and refuses a
 * file whose plan changed, and a directory that is no longer the one the
 * series started in.
 */
#ifndef KBENCH_PLAN_H
#define KBENCH_PLAN_H

#include <jansson.h>

/* Store in doc (a new results document holding command, cwd and params)
 * the real path of dir (-D, or "." without it) as "directory_real" and
 * the plan's digest as "plan_digest" ("fnv1a64:" and 16 hex digits: the
 * 64-bit FNV-1a hash of the four values dumped as compact JSON with
 * sorted keys; a check against edits, not against forgery).  Returns 0,
 * or -1 after one line on stderr starting with cmd (dir has no real path,
 * out of memory). */
int plan_seal(const char *cmd, json_t *doc, const char *dir);

/* --resume: doc's plan against its digest, then dir (-D of the stored
 * command line, or "."; relative to the directory the series returned
 * to) against "directory_real".  shown names the file in the messages.
 * Returns 0, or -1 after one line on stderr: "CMD: SHOWN: its plan
 * (command line, directory, parameters) changed since the series started:
 * cannot resume it" (the digest missing or not matching), or that its
 * directory is now another. */
int plan_check(const char *cmd, const char *shown, const json_t *doc, const char *dir);

#endif
