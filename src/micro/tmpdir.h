/* kbench - kbench micro's private directory and stop signals (tmpdir.c)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * One directory a run, made before the first test and removed at the end
 * or from the stop signals' handler, with everything in it.
 */
#ifndef KBENCH_MICRO_TMPDIR_H
#define KBENCH_MICRO_TMPDIR_H

/* Catch every stop signal (cli.h; not one ignored at the start): the
 * handler kills and reaps the tests' children (micro_kill_children), empties
 * and removes the directory, says so on stderr and _exits 128 + the
 * signal.  SIGPIPE is ignored (a dead child's pipe gives EPIPE). */
void micro_catch_signals(void);

/* Make the run's private directory under $TMPDIR (or /tmp), cmd naming
 * the command in errors.  Returns its path (static storage, valid until
 * micro_tmp_remove), or NULL after one line naming the directory and why:
 * a TMPDIR that is missing, not a directory, read-only or not writable is
 * bad input (nothing ran).  Call it once a run. */
const char *micro_tmp_make(const char *cmd);

/* Empty and remove the directory micro_tmp_make made (16 levels deep at
 * most; no link followed, no other mount entered), if it made one.
 * Async-signal-safe. */
void micro_tmp_remove(void);

#endif
