/* kbench - the monotonic clock every timing in kbench reads
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * One clock for every figure: CLOCK_MONOTONIC, which never jumps (NTP
 * slews its rate but does not step it, and the wall clock can be set
 * back), counts on while the process sleeps, and reads the same in every
 * process on the machine, so a parent and its forked children can compare
 * their readings (kbench load's start and end times, BYTE's copies).
 * Inline, without a call: kbench load reads it once per operation and
 * the disk and lmbench loops once per iteration, and those loops subtract
 * what it costs.
 */
#ifndef KBENCH_SYS_CLOCK_H
#define KBENCH_SYS_CLOCK_H

#include <stdint.h>
#include <time.h>

/* Now on CLOCK_MONOTONIC, in nanoseconds since an arbitrary fixed point
 * (the boot, on Linux).  Only differences mean anything.  Cannot fail:
 * CLOCK_MONOTONIC is always there on Linux. */
static inline uint64_t kb_now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* kb_now_ns() in seconds, for code that counts in seconds: exact to the
 * nanosecond for the first 104 days of uptime (2^53 ns), and to a few
 * nanoseconds after. */
static inline double kb_now_s(void)
{
	return (double)kb_now_ns() / 1e9;
}

#endif
