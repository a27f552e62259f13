/* kbench - libFuzzer target: the results-file reader and everything that
 * prints from what it accepts
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The input is one results file, or two separated by a NUL byte (A, then
 * B, which must hold runs, as compare's files must; without a NUL, B is
 * A).  Each is read by suitefile_read (the checks of kbench compare and
 * kbench suite --resume, refusal lines included); what it accepts is
 * printed in the Go benchmark form and LKP's and mmtests' (compare
 * --export), checked as a --resume would check its
 * progress (against a fixed command line: load 1, load 2, disk -T,
 * disk -t and micro, 5 runs), and A, B, A are compared: matched,
 * summarised, sorted every way, printed as the table and the lkml lines,
 * with the steal of their runs' documents (at USER_HZ 100), and drawn as
 * a gnuplot script.  All output goes to /dev/null.
 */
#include "config.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare/forms/cmpexport.h"
#include "compare/compare.h"
#include "compare/charts/plot.h"
#include "suite/progress.h"
#include "resultsfile/suitefile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static FILE *sink;

static int read_one(const uint8_t *data, size_t size, const char *name, bool need_runs,
		    struct suitefile *f)
{
	/* fmemopen cannot open 0 bytes: one byte, already read */
	FILE *in = fmemopen((void *)(size ? data : (const uint8_t *)" "), size ? size : 1, "r");
	if (!in)
		return -1;
	if (!size)
		fgetc(in);
	int rc = suitefile_read("kbench compare", name, in, sink, need_runs, f);
	fclose(in);
	return rc ? -1 : 0;
}

static void progress(json_t *doc)
{
	static struct suite s;
	char why[300];
	if (!s.njobs) {
		const char *names[] = { "load 1", "load 2", "disk -T", "disk -t", "micro" };
		const enum job_kind kinds[] = { JOB_LOAD, JOB_LOAD, JOB_DISK_CACHED,
						JOB_DISK_BUFFERED, JOB_MICRO };
		for (size_t i = 0; i < 5; i++) {
			s.jobs[i].kind = kinds[i];
			s.jobs[i].clients = (unsigned)i + 1;
			snprintf(s.jobs[i].name, sizeof(s.jobs[i].name), "%s", names[i]);
		}
		s.njobs = 5;
		s.runs = 5;
	}
	s.doc = doc;
	progress_check(&s, why, sizeof(why));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!sink)
		sink = fopen("/dev/null", "w");
	if (!sink)
		return 0;
	const uint8_t *nul = memchr(data, 0, size);
	size_t asize = nul ? (size_t)(nul - data) : size;
	struct suitefile f[3];
	memset(f, 0, sizeof(f));
	if (read_one(data, asize, "a.json", false, &f[0]) < 0)
		return 0;
	suitefile_benchstat(sink, f[0].doc);
	cmp_export(sink, &f[0], EXPORT_LKP);
	cmp_export(sink, &f[0], EXPORT_MMTESTS);
	progress(f[0].doc);
	int rb = nul ? read_one(nul + 1, size - asize - 1, "b.json", true, &f[1])
		     : read_one(data, asize, "b.json", false, &f[1]);
	if (rb == 0 && read_one(data, asize, "c.json", false, &f[2]) == 0) {
		/* both tests: the U test (the default) and Welch */
		for (int m = 0; m < 2; m++) {
			struct cmp c = { .cmd = "kbench compare", .f = f, .nf = 3, .conf = 95,
					 .method = m ? CMP_WELCH : CMP_UTEST, .ticks_per_s = 100 };
			if (cmp_build(&c) == 0) {
				const enum cmp_order orders[] = { CMP_BY_FILE, CMP_BY_CHANGE,
								  CMP_BY_NAME };
				for (size_t i = 0; i < 3; i++) {
					cmp_sort(&c, orders[i]);
					cmp_print_table(sink, &c);
					cmp_print_lkml(sink, &c);
				}
				cmp_print_json(sink, &c);
				cmp_print_steal(sink, &c);
				plot_script(sink, &c, "fuzz.svg");
			}
			cmp_caveats_free(&c);
			free(c.rows);
		}
	}
	/* --by mem on A alone */
	struct suitefile parts[CMP_MAX_FILES];
	size_t nparts = 0, left;
	int split = cmp_split_by(&f[0], "mem", parts, CMP_MAX_FILES, &nparts, &left);
	if (split == 0) {
		struct cmp c = { .cmd = "kbench compare", .f = parts, .nf = nparts, .conf = 95,
				 .ticks_per_s = 100 };
		if (cmp_build(&c) == 0) {
			cmp_print_table(sink, &c);
			cmp_print_steal(sink, &c);
		}
		cmp_caveats_free(&c);
		free(c.rows);
	}
	for (size_t k = 0; split != -2 && k < nparts; k++)
		suitefile_free(&parts[k]);
	for (size_t k = 0; k < 3; k++)
		suitefile_free(&f[k]);
	return 0;
}
