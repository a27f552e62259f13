/* kbench - compare --series: the series worked out from its files (serbuild.c)
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#ifndef KBENCH_SERBUILD_H
#define KBENCH_SERBUILD_H

#include "compare/series/sertypes.h"

/* Which caveats keep a kernel's runs of a test out of the series: the
 * unsound ones (result/caveat.h), busy and steal (the machine was not the
 * test's alone), and params_differ (another setting than the series'
 * first kernel's).  true for those keys. */
bool ser_keeps_out(const char *key);

/* Order two kernel versions as releases come: the part before the first
 * '-' by strverscmp; on a tie the pre-release suffixes in the order
 * kernels had them (-test, then -pre, then -rc: 2.4.0-test12 before
 * 2.4.0-prerelease, 2.4.20-pre11 before 2.4.20-rc1), then none, then any
 * other suffix (a distribution's 2.2.16-22), two of a kind by strverscmp.
 * Returns <0, 0 or >0 as strcmp. */
int ser_version_cmp(const char *a, const char *b);

/* Fill s->t from s->k[0..nk-1] (loaded, labels and control_of set): the
 * tests of every file matched by name and unit (cmp_find_test), in the
 * order first seen; each point's runs, less those a caveat keeps out
 * (ser_keeps_out); each control's drift, its U test against the build it
 * runs again, adjusted (Benjamini-Hochberg) over the tests so tested; the
 * candidates of binary segmentation (changepoint.h) at 1 - conf/100,
 * adjusted by Benjamini-Hochberg over s->m, every test's split positions;
 * the accepted steps, each sized between its neighbouring segments.
 * Returns 0, or -1 when memory runs out. */
int ser_build(struct series *s);

/* Free what ser_build made (the files stay). */
void ser_free(struct series *s);

#endif
