/* kbench - compare: the old tools' own forms (lkml pairs, runs, BYTE's index)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Three forms testers posted their studies in, printed from struct cmp
 * (cmprow.h) so a new study reads as the old ones did:
 *   - --style lkml: per pair of A and another file, the From/To blocks
 *     ("* Linux HOST RELEASE #BUILD DATE ARCH", "* run date"), a Results
 *     banner and "TITLE || A -> B +x.xx%" lines, largest gain first;
 *   - --style runs: every run of every test, a block per machine and
 *     memory size and a row per kernel and test ("hdparm -T 37.43 37.43
 *     ..."), across several files and their memory limits in one table;
 * (BYTE's INDEX VALUES side by side: cmpbyte.h.)
 */
#ifndef KBENCH_CMPFORMS_H
#define KBENCH_CMPFORMS_H

#include "compare/judge/cmprow.h"

#include <stdio.h>

/* The name of test name as compare's table and --style runs show it,
 * into buf (n bytes): a kbench BYTE test's with the title BYTE printed
 * ("byte_dhry2: Dhrystone 2 using register variables"), else name. */
void cmp_shown_name(const char *name, char *buf, size_t n);

/* The report's own name of row r of c's test into buf (n bytes): BYTE
 * 4.1's name for a kbench BYTE test; an imported or micro test's
 * params.title, with " (unit, lower is better)" after it when lower is
 * better, and " (name, unit...)" when another row of c has that title
 * too (LMbench's "Pipe" is a latency and a bandwidth, on one CPU and on
 * two); else its name with " (unit, lower is better)". */
void cmp_title(const struct cmp *c, const struct cmp_row *r, char *buf, size_t n);

/* The lkml form for A against each of B, C, ... (one block each, between
 * lines of scissors): From: and To: blocks, "Results" between rules of
 * '*', then every row both files have, sorted from the largest gain (in
 * the test's better direction) to the largest loss, file order breaking
 * ties: "TITLE || A -> B +x.xx%", the figures the center compare uses
 * (median or mean; BYTE's with one decimal, as BYTE prints them), the
 * change with its sign ("-0.00%" kept), then the verdict when there is
 * one (better, worse, ~). */
void cmp_print_lkml(FILE *out, const struct cmp *c);

/* Every run, as a study's table of runs: a block per machine
 * (system.description, else the host) and memory limit (" mem=X" of the
 * test names), headed by a rule and "MACHINE, X"; in it, per file, its
 * kernel line "RELEASE:" and a row per test "NAME v1 v2 ..." (the test
 * as the old tool names it where kbench replaces one: "hdparm -T",
 * "dbench N"), the figures as recorded. */
void cmp_print_runs(FILE *out, const struct cmp *c);

#endif
