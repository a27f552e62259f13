/* kbench - other processes' CPU time (what and why in cpubusy.h)
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"
#include "sys/cpubusy.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int cpubusy_parse_stat(const char *text, size_t len, uint64_t *busy)
{
	/* the first line, "cpu  user nice system idle iowait irq softirq ..." */
	char line[512];
	size_t n = 0;
	while (n < len && n < sizeof(line) - 1 && text[n] != '\n') {
		line[n] = text[n];
		n++;
	}
	line[n] = 0;
	unsigned long long v[7];
	if (strncmp(line, "cpu ", 4) ||
	    sscanf(line + 4, "%llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2], &v[3],
		   &v[4], &v[5], &v[6]) != 7) {
		errno = EPROTO;
		return -1;
	}
	*busy = v[0] + v[1] + v[2] + v[5] + v[6];
	return 0;
}

int cpubusy_parse_pid(const char *line, uint64_t *ticks)
{
	const char *p = strrchr(line, ')');
	unsigned long long ut, st, cut, cst;
	/* after ")": state (3), ppid .. cmajflt (4 .. 13), then 14 .. 17 */
	if (!p || sscanf(p + 1, " %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu %llu %llu",
			 &ut, &st, &cut, &cst) != 4) {
		errno = EPROTO;
		return -1;
	}
	*ticks = ut + st + cut + cst;
	return 0;
}

/* The text of a /proc file into buf (at most n - 1 bytes, NUL-ended);
 * its length, or -1. */
static ssize_t slurp(const char *path, char *buf, size_t n)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	ssize_t got = read(fd, buf, n - 1);
	close(fd);
	if (got >= 0)
		buf[got] = 0;
	return got;
}

void cpubusy_take(struct cpubusy_snap *s, const pid_t *pids, unsigned n)
{
	char buf[1024], path[64];
	uint64_t t;
	memset(s, 0, sizeof(*s));
	ssize_t len = slurp("/proc/stat", buf, sizeof(buf));
	if (len <= 0 || cpubusy_parse_stat(buf, (size_t)len, &s->busy) < 0)
		return;
	if (slurp("/proc/self/stat", buf, sizeof(buf)) <= 0 || cpubusy_parse_pid(buf, &s->own) < 0)
		return;
	for (unsigned i = 0; i < n; i++) {
		if (!pids[i])
			continue;
		snprintf(path, sizeof(path), "/proc/%ld/stat", (long)pids[i]);
		if (slurp(path, buf, sizeof(buf)) > 0 && cpubusy_parse_pid(buf, &t) == 0)
			s->own += t;
	}
	s->ok = 1;
}

double cpubusy_other_pct(const struct cpubusy_snap *before, const struct cpubusy_snap *after,
			 double wall_s, long ticks_per_s)
{
	if (!before->ok || !after->ok || !(wall_s > 0) || ticks_per_s <= 0 ||
	    after->busy < before->busy)
		return NAN;
	double busy = (double)(after->busy - before->busy);
	double own = after->own >= before->own ? (double)(after->own - before->own) : 0;
	double other = busy > own ? busy - own : 0;
	return 100 * other / ((double)ticks_per_s * wall_s);
}

int cpubusy_notable(double pct, double wall_s, long ticks_per_s)
{
	if (!isfinite(pct) || !(wall_s > 0) || ticks_per_s <= 0)
		return 0;
	double slack = 100.0 * CPUBUSY_SLACK_TICKS / ((double)ticks_per_s * wall_s);
	return pct - slack >= CPUBUSY_PCT;
}
