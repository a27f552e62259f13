/* kbench - compare: the comparison as one JSON document (cmpjson.c)
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#ifndef KBENCH_CMPJSON_H
#define KBENCH_CMPJSON_H

#include <stdio.h>

#include "compare/judge/cmprow.h"

/* The comparison c (cmprow.h) as one JSON document (kbench-compare(1),
 * JSON OUTPUT), with c->lat's latency rows when c->lat is set, printed to
 * out. */
void cmp_print_json(FILE *out, const struct cmp *c);

#endif
