/* kbench - compare --base: several kernels each set against one chosen (cmpbase.c)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The seeds set 1.2.10, 1.3.10 and 1.3.11 each against 1.3.12: a base
 * that is not the first file.  compare takes its first file as A; --base
 * names another, by the path given or by label (the document's label or
 * its kernel release), and that file becomes A, the others keeping
 * their order.
 */
#ifndef KBENCH_CMPBASE_H
#define KBENCH_CMPBASE_H

#include <stddef.h>

#include "resultsfile/suitefile.h"

/* Move the file of f[0..nf-1] that base names (its path as given, else
 * its label, else its system.kernel; the first that matches) to f[0],
 * the files before it moving up one.  Returns its former index, or -1
 * when no file matches. */
long cmp_rebase(struct suitefile *f, size_t nf, const char *base);

#endif
