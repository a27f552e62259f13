/* kbench - the load command's entry points shared with other commands
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * kbench suite runs kbench load as a child and must know which loadfile
 * that child will read (to refuse a results file written over it), so the
 * one rule that finds a loadfile lives here, used by both.
 */
#ifndef KBENCH_LOAD_H
#define KBENCH_LOAD_H

/* The loadfile kbench load reads for -c NAME (NULL: no -c):
 *   NULL       the shipped client.txt: in the build tree when this binary
 *              (/proc/self/exe) is the build tree's src/kbench (the build
 *              directory's loadfiles/, then the source tree's), else in the
 *              installed data directory (KBENCH_PKGDATADIR);
 *   NAME       as given when it holds a '/' or exists (relative to the
 *              current directory); otherwise, when one of the shipped
 *              loadfiles has that name (smallfiles.txt, ...), that one;
 *              otherwise as given (opening it then fails).
 * Nothing is opened; a path that does not exist may be returned.
 * Returns a malloc'd path for the caller to free, NULL when out of memory. */
char *load_loadfile_path(const char *name);

#endif
