/* kbench - suite: the results file of a series, its lock, the temporary
 * directory beside it, and --resume
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#ifndef KBENCH_RESFILE_H
#define KBENCH_RESFILE_H

#include <popt.h>

#include "suite/series.h"
#include "suite/lock.h"
#include "resultsfile/suitefile.h"

/* s->path = kbench-RELEASE-HOST-YYYYmmdd-HHMMSS.json (here; '/' in the
 * release becomes '_'). */
void resfile_default_path(struct suite *s);

/* Check and claim s->path before any run: it passes result_destination
 * (a new or regular file, a link followed to its target, not inside DIR,
 * not the disk, not the loadfile kbench load will read: s->loadfile_path
 * is set here from s->loadfile by load_loadfile_path), is not where a
 * bare -c NAME would then be found (./NAME); it is locked into *lock
 * unless lock->fd >= 0 already (--resume); temporary directories of
 * killed suites beside it are removed, and s->tmpdir is made there with
 * s->child_json, child_out and child_log inside.  s->path becomes the
 * path written (a link's target).  Returns 0, or KB_EXIT_USAGE after one
 * line on stderr naming the option ("-o FILE: ...") and the reason (the
 * holder's PID when another suite writes it). */
int resfile_prepare(struct suite *s, struct results_lock *lock);

/* Remove s->tmpdir and the three files a suite keeps there, if made. */
void resfile_remove_tmp(struct suite *s);

/* --resume s->resume: lock the file (before reading it), read it
 * (suitefile_load; a finished series, one without command line,
 * directory or progress, or whose stored command line or directory
 * holds what escape.h would escape is refused), go back to its
 * directory, and parse its stored command line into s afresh (s is
 * reset: s->path is the file's real path, s->doc a new reference to
 * sf->doc, --format of this command line kept).  *rargv (free it) and
 * *rctx (poptFreeContext, after opts_free) hold that command line.
 * Returns 0, or an exit status (KB_EXIT_USAGE, KB_EXIT_FAIL when out of
 * memory) after one line on stderr. */
int resfile_resume(struct suite *s, struct results_lock *lock, struct suitefile *sf,
		   const char ***rargv, poptContext *rctx);

#endif
