/* kbench - the signals that stop kbench load
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The stop signals (cli.h: SIGINT, SIGTERM, SIGHUP, SIGUSR1, SIGUSR2,
 * SIGALRM, the real-time ones and the others whose default action ends a
 * process; not one ignored at the start, as SIGHUP under nohup) stop
 * kbench load at any moment of the command, not only once the clients
 * run.  They are caught from the moment the command line is read.
 * Until load_signals_arm() nothing exists that would need cleaning up
 * (the loadfile is being read), so a signal then ends kbench at once; after
 * it a signal is only noted, and every step of the run looks at the note.
 */
#ifndef KBENCH_LOAD_SIGNALS_H
#define KBENCH_LOAD_SIGNALS_H

/* Catch the stop signals (cli_catch_stop_signals).  Until
 * load_signals_arm(), a signal writes "interrupted by SIGxxx before
 * anything was measured" to file descriptor report_fd (where the report
 * would go) and exits with 128 + the signal.  Clears the note. */
void load_signals_catch(int report_fd);

/* From now on a stop signal only sets the note: something now exists
 * (a directory, a cgroup, clients) that the command must remove. */
void load_signals_arm(void);

/* The first stop signal noted since load_signals_catch, or 0. */
int load_signal(void);

/* How many stop signals were noted (a second one kills stuck clients). */
unsigned load_signal_count(void);

/* Give the stop signals their default action again. */
void load_signals_release(void);


#endif
