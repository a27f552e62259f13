/* kbench - hdparm's output forms for kbench disk (hdform.c)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * kbench disk --output-form hdparm prints hdparm's Timing lines; the
 * hdparm personality (src/compat/hdparm.c) asks for it.  The forms
 * belong to the disk command; the personality only chooses them.
 */
#ifndef KBENCH_DISK_HDFORM_H
#define KBENCH_DISK_HDFORM_H

#include <stdint.h>
#include <stdio.h>

/* kbench disk --output-form's word ("kbench", "hdparm"): 0 kbench, 1
 * hdparm, -1 unknown. */
int disk_form_parse(const char *word);

/* hdparm's -t line with --offset: " Timing buffered disk reads (offset N
 * GB):  X MB in  S seconds = R MB/sec" (O_DIRECT with direct); offset in
 * bytes (whole GiB under the personality), MB = 2^20 bytes. */
void hdparm_offset_line(FILE *f, int direct, uint64_t offset, uint64_t bytes,
			       double seconds);

#endif
