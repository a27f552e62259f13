/* kbench - steal time from /proc/stat (steal.h)
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"
#include "sys/steal.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The 8th number of a cpu line (after its name) into *v.  Returns 0, or
 * -1 when the line has fewer than 8 numbers or a word that is not one. */
static int eighth(const char *p, const char *end, uint64_t *v)
{
	for (int k = 1; k <= 8; k++) {
		while (p < end && *p == ' ')
			p++;
		if (p == end || *p < '0' || *p > '9')
			return -1;
		uint64_t x = 0;
		for (; p < end && *p >= '0' && *p <= '9'; p++) {
			if (x > (UINT64_MAX - 9) / 10)
				return -1;
			x = x * 10 + (uint64_t)(*p - '0');
		}
		if (p < end && *p != ' ')
			return -1;
		if (k == 8)
			*v = x;
	}
	return 0;
}

int steal_parse(struct steal_snap *s, const char *text, size_t len)
{
	steal_free(s);
	const char *p = text, *end = text + len;
	int have_total = 0;
	while (p < end) {
		const char *eol = memchr(p, '\n', (size_t)(end - p));
		if (!eol)
			eol = end;
		/* "cpu" and "cpuN" lines; another word starting so is not one */
		if (eol - p > 3 && !memcmp(p, "cpu", 3) &&
		    (p[3] == ' ' || (p[3] >= '0' && p[3] <= '9'))) {
			const char *q = p + 3;
			long cpu = -1;
			if (q < eol && *q >= '0' && *q <= '9') {
				cpu = 0;
				for (; q < eol && *q >= '0' && *q <= '9'; q++) {
					cpu = cpu * 10 + (*q - '0');
					if (cpu > 1 << 20)
						goto bad;
				}
			}
			uint64_t v;
			if (q == eol || *q != ' ' || eighth(q, eol, &v) < 0)
				goto bad;
			if (cpu < 0) {
				s->total = v;
				have_total = 1;
			} else {
				if ((unsigned long)cpu >= s->ncpu) {
					unsigned n = (unsigned)cpu + 1;
					uint64_t *c = realloc(s->cpu, n * sizeof(*c));
					if (!c) {
						steal_free(s);
						errno = ENOMEM;
						return -1;
					}
					for (unsigned k = s->ncpu; k < n; k++)
						c[k] = UINT64_MAX;
					s->cpu = c;
					s->ncpu = n;
				}
				s->cpu[cpu] = v;
			}
		}
		p = eol + 1;
	}
	if (!have_total)
		goto bad;
	s->ok = 1;
	return 0;
bad:
	steal_free(s);
	errno = EPROTO;
	return -1;
}

int steal_take(struct steal_snap *s, const char *path)
{
	/* /proc/stat is a few KiB a CPU: read it whole, growing the buffer */
	int fd = open(path ? path : "/proc/stat", O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		int e = errno;
		steal_free(s);
		errno = e;
		return -1;
	}
	size_t cap = 16384, len = 0;
	char *buf = malloc(cap);
	int e = 0;
	while (buf) {
		if (len == cap) {
			char *b = realloc(buf, cap * 2);
			if (!b) {
				free(buf);
				buf = NULL;
				break;
			}
			buf = b;
			cap *= 2;
		}
		ssize_t r = read(fd, buf + len, cap - len);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			e = errno;
			break;
		}
		if (r == 0)
			break;
		len += (size_t)r;
	}
	close(fd);
	if (!buf)
		e = ENOMEM;
	int rc = e ? -1 : steal_parse(s, buf, len);
	if (e) {
		steal_free(s);
		errno = e;
	}
	free(buf);
	return rc;
}

void steal_free(struct steal_snap *s)
{
	free(s->cpu);
	s->cpu = NULL;
	s->ncpu = 0;
	s->total = 0;
	s->ok = 0;
}

double steal_max_pct(const struct steal_snap *before, const struct steal_snap *after,
		     const int *cpus, unsigned n, double wall_s, long ticks_per_s, int *which)
{
	if (which)
		*which = -1;
	if (!before->ok || !after->ok || !(wall_s > 0) || !isfinite(wall_s) || ticks_per_s <= 0)
		return NAN;
	unsigned all = before->ncpu < after->ncpu ? before->ncpu : after->ncpu;
	/* the most ticks wall_s can hold: its own, and one more as each
	 * reading is cut to whole ticks */
	double most = wall_s * (double)ticks_per_s + 1.0;
	double best = NAN;
	int best_cpu = -1;
	for (unsigned k = 0; k < (n ? n : all); k++) {
		int cpu = n ? cpus[k] : (int)k;
		if (cpu < 0 || (unsigned)cpu >= all || before->cpu[cpu] == UINT64_MAX ||
		    after->cpu[cpu] == UINT64_MAX) {
			if (n)
				return NAN;
			continue;
		}
		/* a counter that went backwards or grew by more than the time
		 * passed measured nothing of this window: no figure at all, as
		 * the largest share may be that CPU's */
		if (after->cpu[cpu] < before->cpu[cpu] ||
		    (double)(after->cpu[cpu] - before->cpu[cpu]) > most)
			return NAN;
		uint64_t d = after->cpu[cpu] - before->cpu[cpu];
		double pct = 100.0 * (double)d / (double)ticks_per_s / wall_s;
		if (pct > 100.0)
			pct = 100.0;     /* the cut to ticks: no more than all of it */
		if (best_cpu < 0 || pct > best) {
			best = pct;
			best_cpu = cpu;
		}
	}
	if (which)
		*which = best_cpu;
	return best;
}

int steal_notable(double pct, double wall_s, long ticks_per_s)
{
	if (!isfinite(pct) || !(wall_s > 0) || ticks_per_s <= 0)
		return 0;
	return pct - 100.0 / ((double)ticks_per_s * wall_s) >= 1.0;
}
