/* kbench - the run's deadline for connections a library holds
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A backend that talks to its server through a library (libsmbclient)
 * cannot bound each wait itself: the library waits in its own event loop,
 * with a timeout fixed when it connected, and one call may send several
 * requests in turn.  The sockets the library opened are watched instead:
 * once the run's end and a grace have passed, a thread of the client
 * process shuts them down (shutdown(2), never close: the library still
 * owns the descriptors), so every request in flight and every later one
 * fails at once and the client stops by itself.
 *
 * Used only in client processes, between client_open and client_close;
 * the thread starts with the first watched client of the process and is
 * joined when the last one is forgotten.
 */
#ifndef KBENCH_LOAD_SOCKWATCH_H
#define KBENCH_LOAD_SOCKWATCH_H

#include <stddef.h>
#include <stdint.h>

/* The sockets open in this process at one moment. */
struct sw_snap {
	int *fds;      /* sorted, malloc'd; NULL when none */
	size_t n;
};

/* Note the sockets open now in s (read from /proc/self/fd), before a
 * library connects.  Returns 0, or an errno value (s is then empty). */
int sw_snapshot(struct sw_snap *s);

/* Watch every socket open now that was not in before, as owner's: once
 * the CLOCK_MONOTONIC time *end_ns (ns; 0: the run has not started,
 * UINT64_MAX: no end yet; it may move earlier) plus grace_ns has passed,
 * they are shut down.  before is freed.  Returns 0, or an errno value
 * (the thread could not start: nothing is watched). */
int sw_watch_new(struct sw_snap *before, const void *owner, const volatile uint64_t *end_ns,
		 uint64_t grace_ns);

/* Stop watching owner's sockets (call before they are closed); the
 * thread is joined when no owner is left.  Never fails. */
void sw_forget(const void *owner);

/* 1 once the watch has shut this process's sockets down (the run's end
 * and its grace passed), else 0. */
int sw_fired(void);

#endif
