/* kbench - other processes' CPU time: was the machine busy during a run?
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A run that shares its CPUs with a process it did not start (a build, a
 * backup, another benchmark) measures less than the machine can do, and
 * steal (steal.h) does not see it: steal counts only what a hypervisor
 * took.  /proc/stat's first "cpu" line counts every CPU's time by kind,
 * in USER_HZ ticks (the kernel's Documentation/filesystems/proc.rst):
 * user, nice, system, idle, iowait, irq, softirq, steal, ...  The time
 * spent running anything is user + nice + system + irq + softirq (guest
 * time is inside user); the run's own processes' share is in their
 * /proc/PID/stat (utime, stime, and cutime, cstime of the children they
 * waited for; fields 14 to 17).  What remains between two readings is
 * the time other processes took: the "other CPU" of the bench scripts.
 */
#ifndef KBENCH_SYS_CPUBUSY_H
#define KBENCH_SYS_CPUBUSY_H

#include <stdint.h>
#include <sys/types.h>

/* One reading: the machine's busy ticks and the run's own. */
struct cpubusy_snap {
	int ok;             /* 1: both were read */
	uint64_t busy;      /* /proc/stat "cpu": user + nice + system + irq + softirq */
	uint64_t own;       /* this process's and pids' utime + stime + cutime + cstime */
};

/* The busy ticks of /proc/stat's text (len bytes, not NUL-terminated)
 * into *busy.  Returns 0, or -1 (errno EPROTO) without a "cpu" line of at
 * least 7 numbers. */
int cpubusy_parse_stat(const char *text, size_t len, uint64_t *busy);

/* utime + stime + cutime + cstime of a /proc/PID/stat line (NUL-terminated;
 * the fields after the command's closing parenthesis) into *ticks.
 * Returns 0, or -1 (errno EPROTO) when it has too few fields. */
int cpubusy_parse_pid(const char *line, uint64_t *ticks);

/* Read s: /proc/stat, this process's /proc/self/stat and those of
 * pids[0..n-1] (a pid of 0 is skipped; one that has gone, reaped or not,
 * counts 0: a reaped one's time is in this process's cutime).  s->ok is 0
 * when /proc/stat or /proc/self/stat could not be read. */
void cpubusy_take(struct cpubusy_snap *s, const pid_t *pids, unsigned n);

/* The CPU time other processes took from `before` to `after`, in percent
 * of one CPU over wall_s seconds (100: one CPU's worth; up to the number
 * of CPUs times 100), ticks_per_s USER_HZ; 0 when the run's own grew
 * more (the two counts are sampled apart).  NAN when a reading failed
 * or wall_s, ticks_per_s are not positive. */
double cpubusy_other_pct(const struct cpubusy_snap *before, const struct cpubusy_snap *after,
			 double wall_s, long ticks_per_s);

/* The share from which a run counts as run on a busy machine: other
 * processes took at least this much of one CPU, percent, after the
 * readings' error (CPUBUSY_SLACK_TICKS ticks over the window) is taken
 * off.  Returns 1 or 0 (0 for NAN). */
#define CPUBUSY_PCT 25.0
#define CPUBUSY_SLACK_TICKS 4
int cpubusy_notable(double pct, double wall_s, long ticks_per_s);

#endif
