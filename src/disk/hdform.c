/* kbench - hdparm's output forms for kbench disk
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * hdparm's -t line with --offset, to its spacing (hdparm 9.x: MB = 2^20
 * bytes, the offset in whole GB), and the word --output-form takes.
 */
#include "config.h"
#include "disk/hdform.h"

#include <inttypes.h>
#include <string.h>

int disk_form_parse(const char *word)
{
	if (!strcmp(word, "kbench"))
		return 0;
	if (!strcmp(word, "hdparm"))
		return 1;
	return -1;
}

void hdparm_offset_line(FILE *f, int direct, uint64_t offset, uint64_t bytes,
			       double seconds)
{
	double mb = (double)bytes / 1048576.0;
	fprintf(f, " Timing %s disk reads (offset %" PRIu64 " GB): ", direct ? "O_DIRECT" : "buffered",
		offset >> 30);
	if (bytes % 1048576 == 0)
		fprintf(f, "%3" PRIu64 " MB", bytes / 1048576);
	else
		fprintf(f, "%3.2f MB", mb);
	fprintf(f, " in %5.2f seconds = %6.2f MB/sec\n", seconds, seconds > 0 ? mb / seconds : 0);
}
