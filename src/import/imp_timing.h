/* kbench - import: hdparm "Timing" lines (imp_timing.c), for imp_tput.c
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#ifndef KBENCH_IMP_TIMING_H
#define KBENCH_IMP_TIMING_H

#include <stddef.h>

#include "import/imptypes.h"

/* "/dev/X:" at the start of l (hdparm's heading of a device): its name
 * into dev (n bytes) and the length up to and with the colon, or 0. */
size_t imp_hdparm_device(const char *l, char *dev, size_t n);

/* Line ln of f, a "Timing ...: ... = X MB/sec" line (the figure may wrap
 * to the next line), as a run of the test its phrase and dev name, in
 * system sys (imp_sys_of).  Returns 1 when added, 0 when skipped (said
 * with imp_skip), -1 when out of memory. */
int imp_hdparm_timing(struct imp *im, const struct imp_file *f, size_t ln, const char *dev,
		      const struct imp_sys *sys);

#endif
