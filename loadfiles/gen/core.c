/* kbench - genload: failures, pseudo-random numbers and the output buffer
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The generator has its own pseudo-random numbers (splitmix64) and uses
 * integer arithmetic only, so a seed gives the same bytes on every
 * machine.  The operation lines are held in one buffer until the pass is
 * complete: main() prints the file's header, whose figures come from the
 * counters, before them.
 */
#include "gen.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void die(const char *msg)
{
	fprintf(stderr, "genload: %s\n", msg);
	exit(2);
}

void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n);
	if (!p)
		die("out of memory");
	return p;
}

char *xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;
	return memcpy(xrealloc(NULL, n), s, n);
}

/* ---- pseudo-random numbers: splitmix64 ---- */

uint64_t rng;

uint64_t rnd64(void)
{
	uint64_t z = (rng += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* uniform in [0, n) */
uint32_t rnd(uint32_t n)
{
	return n ? (uint32_t)(((rnd64() >> 32) * (uint64_t)n) >> 32) : 0;
}

/* uniform in [lo, hi] */
uint64_t rnd_range(uint64_t lo, uint64_t hi)
{
	return hi <= lo ? lo : lo + rnd64() % (hi - lo + 1);
}

/* percent chance */
int chance(unsigned pct)
{
	return rnd(100) < pct;
}

/* Roughly log-uniform in [lo, hi]: a random octave, then uniform in it. */
uint64_t rnd_logsize(uint64_t lo, uint64_t hi)
{
	unsigned oct = 0;
	while ((lo << (oct + 1)) <= hi)
		oct++;
	if (oct == 0)
		return rnd_range(lo, hi);
	unsigned o = rnd(oct);
	uint64_t a = lo << o, b = lo << (o + 1);
	if (o == oct - 1)
		b = hi;
	return rnd_range(a, b);
}

uint64_t roundup(uint64_t v, uint64_t to)
{
	return (v + to - 1) / to * to;
}

/* ---- output and counters ---- */

const char *const opshort[NOPS] = {
	"NTCreateX", "Close", "Rename", "Unlink", "Deltree", "Mkdir", "Rmdir",
	"Qpathinfo", "Qfileinfo", "Qfsinfo", "Sfileinfo", "Find", "WriteX",
	"ReadX", "LockX", "UnlockX", "Flush",
};

char *out;
size_t out_len;
static size_t out_cap;

struct counts tally;

void emit(enum op op, const char *fmt, ...)
{
	char line[2 * PATHLEN + 128];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof(line) - 1)
		die("line too long");
	line[n++] = '\n';
	if (out_len + (size_t)n > out_cap) {
		out_cap = out_cap ? out_cap * 2 : 1 << 20;
		out = xrealloc(out, out_cap);
	}
	memcpy(out + out_len, line, (size_t)n);
	out_len += (size_t)n;
	tally.count[op]++;
	tally.lines++;
}
