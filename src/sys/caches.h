/* kbench - the page cache between runs: sync and drop
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Testers start each run from the same state: dirty data written back
 * (sync) and, when asked, clean page cache, dentries and inodes dropped
 * (echo 3 > /proc/sys/vm/drop_caches, as the kernel's
 * Documentation/admin-guide/sysctl/vm.rst describes).  Used by kbench load
 * and kbench suite before a run.
 */
#ifndef KBENCH_CACHES_H
#define KBENCH_CACHES_H

#include <stddef.h>

/* Check, without changing anything, that caches_drop() can work here: the
 * caller is root and /proc/sys/vm/drop_caches opens for writing.  Returns
 * 0, or -1 with a one-line reason in why (whylen bytes), e.g. "needs root
 * (writes /proc/sys/vm/drop_caches)". */
int caches_drop_check(char *why, size_t whylen);

/* sync(), then write "3" to /proc/sys/vm/drop_caches: the clean page
 * cache, dentries and inodes of every filesystem are dropped.  Takes as
 * long as the writeback (seconds on a slow disk).  Returns 0, or -1 with a
 * one-line reason in why (whylen bytes). */
int caches_drop(char *why, size_t whylen);

#endif
