/* kbench - the loadfile parser's interning tables (lfintern.c)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The tables struct parser (parser.h) holds while a loadfile is read:
 * paths into the program's arena, handle numbers into dense indexes.
 * Nothing here prints: a failure is out of memory (or a table past its
 * 32-bit limit), and the caller names it on the loadfile's line.
 */
#ifndef KBENCH_LFINTERN_H
#define KBENCH_LFINTERN_H

#include <stdint.h>
#include "load/loadfile/parser.h"

/* Intern the normalised path s (loadfile_path()'s form: relative, lower
 * case, '/'-separated); *off receives its offset in ps->prog->arena.  A
 * new path's directories are interned first, shortest first, each with
 * its index in prog->dirs, so every path's struct path_info names the
 * directory that holds it.  Returns 0, or -1 when out of memory or the
 * arena would pass 4 GiB (ps->prog->arena may have moved either way). */
int lf_intern_path(struct parser *ps, const char *s, uint32_t *off);

/* Handle number fnum -> its dense index in *idx (a new number gets the
 * next, ps->prog->nhandles grows).  Returns 0, or -1 when out of memory
 * or out of indexes. */
int lf_handle(struct parser *ps, uint64_t fnum, uint32_t *idx);

/* Free both tables of ps (not the arena: the program keeps it). */
void lf_tables_free(struct parser *ps);

#endif
