/* kbench - import: whether a version in a sentence is a kernel's (imp_version.c)
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#ifndef KBENCH_IMP_VERSION_H
#define KBENCH_IMP_VERSION_H

#include <stdbool.h>
#include <stddef.h>

/* Is the version word w[i] (of n words) another program's: right after a
 * word that names a program, not a kernel ("reiserfs 3.6.25", "gcc
 * 2.95.3", "e2fsprogs-1.27" is one word and no version)?  The words that
 * may stand before a kernel's version are "kernel" and "linux", a list
 * marker, a possessive, and the words of a sentence about a kernel (a
 * preposition, "and", "vs", "vanilla", "stock", "patched", ...); any other
 * word of letters that ends without punctuation names the version's
 * program.  A version with a kernel tree's suffix ("2.5.2-pre3") is never
 * another program's. */
bool imp_version_owned(char *const *w, size_t i);

#endif
