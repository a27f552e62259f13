/* kbench - caveats: what could make a run's figure wrong, as data
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A caveat is one thing kbench noticed about a run that a reader of its
 * figure must know: the page cache timed instead of the disk, errors, a
 * run stopped early, steal, throughput still trending.  Each is a JSON
 * object {"key": KEY, "text": ONE LINE, "evidence": {...}} in the list
 * "caveats" of a run's document (load, disk, micro).  The keys are a
 * stable interface (scripts and kbench compare read them); the table
 * here holds every key once, with whether it makes a comparison unsound
 * (kbench compare then gives no better/worse for the row).
 *
 * A document's caveats are derived from its own fields (caveat_derive),
 * so one rule serves the command that writes the document (result_write
 * adds them) and compare reading a file written by an older kbench.
 */
#ifndef KBENCH_CAVEAT_H
#define KBENCH_CAVEAT_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* The confidence, percent, of the trend test behind "unsteady" in a run's
 * own document (and the text its command prints from it). */
#define CAVEAT_CONF 95.0

struct caveat_kind {
	const char *key;        /* stable, [a-z_] */
	bool unsound;           /* true: no better/worse from runs that carry it */
	const char *meaning;    /* one line: what it says about the figure */
};

/* Every key, in the order the man pages list them; caveat_nkinds of them. */
extern const struct caveat_kind caveat_kinds[];
extern const size_t caveat_nkinds;

/* The kind of key, or NULL for a key this kbench does not know (a newer
 * kbench's: shown, counted as sound). */
const struct caveat_kind *caveat_kind(const char *key);

/* Is key one that makes a comparison unsound?  false for unknown keys. */
bool caveat_unsound(const char *key);

/* Append {"key", "text", "evidence"} to the array list unless an entry
 * of that key is there already (the first one stays: one entry a key).
 * evidence is stolen (NULL: {}); text is printf's fmt.  Returns 1 when
 * added, 0 when the key was there, -1 when out of memory. */
int caveat_add(json_t *list, const char *key, json_t *evidence, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* The caveats of a run's document doc: those it lists under "caveats"
 * (kept as they are), then those its fields show that are not listed
 * yet: disk (a -t run whose cache was not flushed: flush_failed or
 * cache_timed; a hole in the data: sparse_file; a -T or -t run's
 * other_cpu_pct over its window_s: busy), load (errors, a client
 * that died or a strict stop: errors; interrupted; oom; stuck_clients;
 * steal that surely reached 1% of a CPU: steal; other_cpu_pct over
 * measured_s: busy; throughput still trending in results.series:
 * unsteady), micro (a test's error: errors; its steal; its other_cpu_pct
 * over run_s: busy).  busy is one rule for the three (sys/cpubusy.h's
 * cpubusy_notable), its evidence other_cpu_pct and seconds (and where:
 * a micro test; a disk run's device, test and run).  ticks_per_s is
 * USER_HZ for the steal and busy rules (sys/steal.h's steal_notable),
 * conf the confidence in percent for the trend test.  Returns a new array (empty for other kinds), NULL when
 * out of memory. */
json_t *caveat_derive(const json_t *doc, long ticks_per_s, double conf);

/* A run's document doc (load, disk, micro) gets its caveats:
 * caveat_derive(doc, USER_HZ, CAVEAT_CONF) as its "caveats" list, once:
 * load, disk and micro attach it as they make their document, print
 * their warnings from it, and result_write writes it.  Returns the list
 * (borrowed from doc), NULL when out of memory. */
json_t *caveat_attach(json_t *doc);

/* The one text form of a run's caveats, which load and micro print from
 * the list their document holds: nothing for an empty list, else a blank
 * line and a line "warning: KEY: TEXT" per caveat, to f. */
void caveat_print(FILE *f, const json_t *list);

/* Does list hold an unsound caveat?  Returns the first such key, or NULL. */
const char *caveat_first_unsound(const json_t *list);

/* The keys of list as "key, key" in buf (n bytes); "" when empty.
 * Returns buf. */
char *caveat_keys(const json_t *list, char *buf, size_t n);

#endif
