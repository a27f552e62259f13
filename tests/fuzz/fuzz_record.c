/* kbench - libFuzzer target: kbench record's reading of an strace log
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The input is one log, read as kbench record --from-strace reads it
 * (two passes, each process's descriptors, every call mapped) with DIR
 * /w, the cwd /w; what it accepts goes through the setup, the header and
 * the summary, as a loadfile would be written.  All output goes to
 * /dev/null (refusals are one line on stderr, as the command's).
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "record/logread.h"
#include "record/out.h"
#include "record/trace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static FILE *sink;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!sink && !(sink = fopen("/dev/null", "w")))
		return 0;
	if (!size)
		return 0;  /* fmemopen cannot open 0 bytes */
	FILE *a = fmemopen((void *)data, size, "r"), *b = fmemopen((void *)data, size, "r");
	char *body = NULL;
	size_t len = 0;
	struct rec r = { .dir = "/w", .dirlen = 2, .start_cwd = "/w" };
	r.body = open_memstream(&body, &len);
	if (a && b && r.body) {
		int rc = rec_read_files(&r, "fuzz.log", a, b);
		fclose(r.body);
		r.body = NULL;
		if (rc == 0) {
			rec_case_clashes(&r);
			rec_setup(&r, sink);
			rec_header(&r, sink, "fuzz");
			fwrite(body, 1, len, sink);
			rec_summary(&r, sink, "fuzz.lf");
		}
	} else if (r.body) {
		fclose(r.body);
	}
	if (a)
		fclose(a);
	if (b)
		fclose(b);
	free(body);
	rec_free(&r);
	return 0;
}
