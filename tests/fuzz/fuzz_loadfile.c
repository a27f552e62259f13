/* kbench - libFuzzer target: the loadfile parser, every format, and the
 * statistics of --check
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The first byte chooses the format (auto, dbench4, dbench2, dbench1);
 * the rest is the loadfile text.  A parsed program is walked by
 * lf_check_compute and printed, so the --check code sees every program
 * the parser accepts.
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "load/loadfile/check.h"
#include "load/loadfile/loadfile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static FILE *sink;
	if (!sink)
		sink = fopen("/dev/null", "w");
	if (size < 1)
		return 0;
	enum lf_format fmt = (enum lf_format)(data[0] & 3);
	FILE *in = fmemopen((void *)(data + 1), size - 1 ? size - 1 : 1, "r");
	if (!in)
		return 0;
	if (size == 1)
		fgetc(in);  /* an empty file: fmemopen cannot open 0 bytes */
	struct program prog;
	if (loadfile_parse_stream(in, "fuzz", fmt, &prog, NULL, 20) == 0) {
		struct lf_check c;
		if (lf_check_compute(&prog, &c) == 0 && sink)
			lf_check_print(sink, &prog, &c);
		prog_free(&prog);
	}
	fclose(in);
	return 0;
}
