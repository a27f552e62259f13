/* kbench - compare: the matched tests of several results files
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * kbench compare reads results files A, B, C, ... (kbench suite's), matches
 * their tests by name and unit, and for each test and file computes the
 * summary, the interval of the mean and, for B, C, ..., the change against
 * A with a verdict: by default the change of the median and the
 * Mann-Whitney U test on the runs (stats/utest.h), or with --test welch
 * the change of the mean and Welch's t-test (stats/ttest.h).  This is the
 * command's side: it builds struct cmp (cmprow.h), from which the table
 * (cmpprint.h), the JSON (cmpjson.h), the old tools' forms (cmpforms.h),
 * the latency rows (cmplat.h) and the plots (plot.h, plotlat.h) are
 * printed; none of those includes this header.  It includes the
 * printers' headers so that a caller has the whole comparison in one.
 */
#ifndef KBENCH_COMPARE_H
#define KBENCH_COMPARE_H

#include <stddef.h>

#include "compare/judge/cmpcav.h"
#include "compare/forms/cmpforms.h"
#include "compare/forms/cmpjson.h"
#include "compare/forms/cmpprint.h"
#include "compare/judge/cmpruns.h"
#include "compare/judge/cmprow.h"
#include "compare/forms/cmpbyte.h"
#include "compare/judge/cmpsplit.h"
#include "resultsfile/suitefile.h"

/* The steal of file f's runs, into out: the run with the largest share
 * of one CPU's time the hypervisor took (percent) among the runs where
 * steal_notable(pct, wall_s, ticks_per_s) holds, ticks_per_s being
 * USER_HZ.  A run's steal is what suitefile_run_steal (suitefile.h)
 * reads from its document: a load document's results.steal_pct over
 * results.measured_s; a micro document's results.tests entry of the
 * test (the row's name, or it less " mem=LIMIT" of its
 * params.mem_limit) with its steal_pct over its run_s.  A document
 * without them (disk, an older kbench), or with null, gives none (one
 * recording what no measurement gives was refused by suitefile_read).
 * out->notable is false when no run qualifies. */
void cmp_steal_of(const struct suitefile *f, long ticks_per_s, struct cmp_steal *out);

/* Fill c->rows (nrows) from c->f[0..nf-1] (nf >= 1) at c->conf: every
 * test of A found in another file, with each file's summary, interval,
 * and for B, C, ... the change and the verdict; and c->steal[k] of every
 * file (cmp_steal_of at c->ticks_per_s).  Returns 0, or -1 when out of
 * memory.  The caller frees c->rows. */
int cmp_build(struct cmp *c);

enum cmp_order {
	CMP_BY_FILE,      /* A's order */
	CMP_BY_CHANGE,    /* by B's change against A, worst first; n/a last */
	CMP_BY_NAME,      /* by name (version order), then unit */
};
void cmp_sort(struct cmp *c, enum cmp_order order);

#endif
