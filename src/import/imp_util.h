/* kbench - import: what the readers share (imp_util.c): words, numbers,
 * quote prefixes, uname lines, kernel names and headings
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#ifndef KBENCH_IMP_UTIL_H
#define KBENCH_IMP_UTIL_H

#include "import/imptypes.h"

#include <stdbool.h>
#include <stddef.h>

/* Split s at blanks into at most max words (in place); returns the count. */
size_t imp_words(char *s, char **w, size_t max);

/* All the words of line s, however many: a copy of s split at blanks.
 * Returns the block to free() (the words point into it), *w the words,
 * *n their count; NULL when memory runs out. */
void *imp_all_words(const char *s, char ***w, size_t *n);

/* Is s wholly a decimal number (as the tools print them: "37.43", "1e+05",
 * "-0.20")?  Its value in *v.  Only digits, one '.', a sign and a decimal
 * exponent: "0x10", "inf", "nan" and "1e999" (beyond a double) are not. */
bool imp_number(const char *s, double *v);

/* The quote prefix a mail reply put before line s ("> ", ">> ", "| ",
 * "~ ", ": ", supercite's initials " ES> ", with the blanks before and
 * between): its length in bytes, or 0.  A '|' or '>' followed by a figure
 * or an operator is not a prefix; initials are one to four letters, the
 * first a capital, right before '>' and a blank or the line's end. */
size_t imp_quote_len(const char *s);

/* Parse uname -a's text from s ("Linux HOST RELEASE #BUILD ... YEAR MACHINE
 * ...") into sys (host, kernel, build, machine).  Returns 0, or -1 when s
 * is not that form. */
int imp_uname(const char *s, struct imp_sys *sys);

/* Is s a kernel version as posters write it: "2.4.19", "2.4.0-test6",
 * "2.5.8-ac4", "linux-2.6.5", "v2.6.12" (a first part of one digit, then
 * a dot part and either a third part or a "-suffix"; punctuation around
 * it ignored)?  Its bare form into out (n bytes). */
bool imp_kernel_word(const char *s, char *out, size_t n);

/* Does line l name one kernel, as the line above a kernel's runs does
 * ("2.4.19-pre5:", "1) 2.5.8", "on 2.4.20:", "Linux box 2.4.19 #1 SMP
 * ... 2002 i686", "same machine with 2.4.19-pre4-ac4", "Red Hat 9.0 with
 * kernel 2.4.20 compiled", "2.5.1 finishes dbench 32, 128")?  A line of
 * at most 12 words with exactly one kernel version and no other figure
 * (client counts after a tool's name are none), a line of any length
 * naming one version after the word "kernel" or "Linux" and no other
 * version, or uname -a's line.  A version another program owns
 * (imp_version_owned) is none.  Sets sys (all of it) and returns true; false
 * leaves sys alone. */
bool imp_kernel_line(const char *l, struct imp_sys *sys);

/* How many different kernel versions a short line (at most 12 words, no
 * other figure) names, as imp_kernel_line reads them; the first four,
 * joined by ", ", into list (n bytes).  0 for a longer line. */
size_t imp_kernels_named(const char *l, char *list, size_t n);

/* Is l a heading over a block of runs that names no kernel: a line of at
 * most 6 words, no figure among them, ending in ':' ("Before:", "with
 * the patch set:"; not "Andrew wrote:", a quote's attribution), or text
 * between rules ("=== vanilla ===", "--- after ---"), or one of
 * "before", "after", "baseline", "vanilla", "stock", "patched",
 * "unpatched" alone on its line?  Its words,
 * without the colon or rules, into out (n bytes). */
bool imp_heading_line(const char *l, char *out, size_t n);

/* Is w one of BYTE's units: lps, lpm, KBps, MWIPS, KWIPS? */
bool imp_byte_unit(const char *w);

/* Copy s to dst (n bytes) without leading and trailing blanks. */
void imp_trim_copy(char *dst, size_t n, const char *s, size_t len);

#endif
