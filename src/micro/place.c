/* kbench - micro: where the two ends of an IPC test run (see place.h)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The choice of CPUs is a pure function of the set (place_choose), so the
 * unit tests check it on made-up topologies; only place_set_load reads
 * the machine (the affinity mask and sysfs).
 */
#include "config.h"
#include "micro/place.h"
#include "micro/test.h"

#include <ctype.h>
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *place_suffix(enum micro_place p)
{
	switch (p) {
	case MICRO_PLACE_ONE: return "1cpu";
	case MICRO_PLACE_SMT: return "2smt";
	case MICRO_PLACE_CORES: return "2core";
	default: return "";
	}
}

const char *place_key(enum micro_place p)
{
	switch (p) {
	case MICRO_PLACE_ONE: return "one_cpu";
	case MICRO_PLACE_SMT: return "smt_siblings";
	case MICRO_PLACE_CORES: return "two_cores";
	default: return "none";
	}
}

const char *place_words(enum micro_place p)
{
	switch (p) {
	case MICRO_PLACE_ONE: return "one CPU";
	case MICRO_PLACE_SMT: return "two SMT siblings";
	case MICRO_PLACE_CORES: return "two cores";
	default: return "any CPU";
	}
}

unsigned place_ncpus(enum micro_place p)
{
	return p == MICRO_PLACE_ONE ? 1 : p == MICRO_PLACE_NONE ? 0 : 2;
}

int place_parse_list(const char *s, int *cpus, unsigned max)
{
	unsigned n = 0;
	static unsigned char seen[PLACE_MAX_CPUS];
	memset(seen, 0, sizeof(seen));
	if (!s || !*s)
		return -1;
	while (*s) {
		char *end;
		if (!isdigit((unsigned char)*s))
			return -1;
		long a = strtol(s, &end, 10), b = a;
		if (*end == '-') {
			if (!isdigit((unsigned char)end[1]))
				return -1;
			b = strtol(end + 1, &end, 10);
		}
		if (a < 0 || b < a || b >= PLACE_MAX_CPUS)
			return -1;
		for (long c = a; c <= b; c++) {
			if (seen[c] || n >= max)
				return -1;
			seen[c] = 1;
			cpus[n++] = (int)c;
		}
		if (*end == ',' && end[1])
			end++;
		else if (*end)
			return -1;
		s = end;
	}
	return (int)n;
}

static int same_core(const struct place_cpu *a, const struct place_cpu *b)
{
	return a->package >= 0 && a->core >= 0 && a->package == b->package && a->core == b->core;
}

static void set_text(const struct place_set *s, char *buf, size_t len)
{
	size_t at = 0;
	buf[0] = '\0';
	for (unsigned i = 0; i < s->n && at + 16 < len; i++)
		at += (size_t)snprintf(buf + at, len - at, "%s%d", i ? "," : "", s->c[i].cpu);
	if (at + 16 >= len && len > 4)
		snprintf(buf + len - 4, 4, "...");
}

int place_choose(const struct place_set *s, enum micro_place p, int cpu[2], char *why,
		 size_t whylen)
{
	char list[64];
	set_text(s, list, sizeof(list));
	if (!s->n) {
		snprintf(why, whylen, "no CPU to run on");
		return 0;
	}
	if (p == MICRO_PLACE_ONE || p == MICRO_PLACE_NONE) {
		cpu[0] = cpu[1] = s->c[0].cpu;
		return 1;
	}
	if (s->n < 2) {
		snprintf(why, whylen, "%s needs two CPUs; only CPU %s is usable", place_words(p),
			 list);
		return 0;
	}
	/* cores: a pair of one package first (what a scheduler spreads to
	 * first), then any pair of different cores */
	for (int pass = 0; pass < 2; pass++)
		for (unsigned i = 0; i < s->n; i++)
			for (unsigned j = i + 1; j < s->n; j++) {
				const struct place_cpu *a = &s->c[i], *b = &s->c[j];
				int ok;
				if (p == MICRO_PLACE_SMT)
					ok = pass == 0 && same_core(a, b);
				else if (pass == 0)
					ok = !same_core(a, b) && a->package >= 0 &&
					     a->package == b->package;
				else
					ok = !same_core(a, b);
				if (ok) {
					cpu[0] = a->cpu;
					cpu[1] = b->cpu;
					return 1;
				}
			}
	if (p == MICRO_PLACE_SMT)
		snprintf(why, whylen, "no two of CPUs %s are SMT siblings of one core", list);
	else
		snprintf(why, whylen, "CPUs %s are all on one core", list);
	return 0;
}

static int read_id(int cpu, const char *what)
{
	char path[128];
	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/topology/%s", cpu, what);
	FILE *f = fopen(path, "re");
	int v = -1;
	if (f) {
		if (fscanf(f, "%d", &v) != 1)
			v = -1;
		fclose(f);
	}
	return v;
}

int place_set_load(struct place_set *s, const int *cpus, unsigned n, char *why, size_t whylen)
{
	cpu_set_t mask;
	memset(s, 0, sizeof(*s));
	if (sched_getaffinity(0, sizeof(mask), &mask) < 0) {
		snprintf(why, whylen, "cannot read the CPU affinity: %s", strerror(errno));
		return -1;
	}
	if (cpus) {
		for (unsigned i = 0; i < n && i < PLACE_MAX_CPUS; i++) {
			if (cpus[i] < 0 || cpus[i] >= CPU_SETSIZE || !CPU_ISSET(cpus[i], &mask)) {
				snprintf(why, whylen, "CPU %d is not one kbench may run on here", cpus[i]);
				return -1;
			}
			s->c[s->n++].cpu = cpus[i];
		}
	} else {
		for (int c = 0; c < CPU_SETSIZE && s->n < PLACE_MAX_CPUS; c++)
			if (CPU_ISSET(c, &mask))
				s->c[s->n++].cpu = c;
	}
	for (unsigned i = 0; i < s->n; i++) {
		s->c[i].package = read_id(s->c[i].cpu, "physical_package_id");
		s->c[i].core = read_id(s->c[i].cpu, "core_id");
	}
	return 0;
}

unsigned place_steal_cpus(unsigned place_ncpu, const int *place_cpu, const cpu_set_t *affinity,
			  int *cpus, unsigned max)
{
	unsigned n = 0;
	if (place_ncpu) {
		for (; n < place_ncpu && n < max; n++)
			cpus[n] = place_cpu[n];
		return n;
	}
	for (int c = 0; c < CPU_SETSIZE && n < max; c++)
		if (CPU_ISSET(c, affinity))
			cpus[n++] = c;
	return n;
}

int place_pin(int cpu)
{
	cpu_set_t one;
	if (cpu < 0 || cpu >= CPU_SETSIZE) {
		errno = EINVAL;
		return -1;
	}
	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	return sched_setaffinity(0, sizeof(one), &one);
}

void place_partner(const struct micro_opts *o)
{
	if (o && o->place_ncpu == 2)
		place_pin(o->place_cpu[1]);
}
