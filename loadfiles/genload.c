/* kbench - genload: writes kbench's shipped loadfiles (dbench 4 format)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 *   genload [--seed N] [--stats] client|smallfiles|stream > FILE
 *
 * client      an office file server: documents, spreadsheets, presentations
 *             and databases opened, read, saved through temporary files,
 *             locked, renamed, removed and searched for (the default).
 * smallfiles  metadata first, like mdtest: a tree of directories, small
 *             files created, listed, looked up, renamed and removed.
 * stream      a few large files written and read back in 1 MiB requests.
 *
 * The seed defaults to 1, the seed of the shipped files.  --stats prints
 * on standard error what each action of the client workload did.
 *
 * The same seed gives the same bytes on every machine: the generator has
 * its own pseudo-random numbers (splitmix64) and uses integer arithmetic
 * only.  Every line's expected status comes from a model of the client's
 * tree that follows kbench's POSIX semantics (names folded to lower case;
 * NTCreateX disposition 1 needs the file, 2 creates, 5 creates or
 * truncates; a FIND_FIRST pattern succeeds when an entry of the directory,
 * "." and ".." included, matches it; ...), so a replay gives no errors.
 *
 * The client workload is put together from small scripted user actions
 * chosen so that every pass has a target mix of operations and bytes
 * whatever the seed (gen/client.c).
 *
 * This file holds main(); the generator core is in gen/ (gen.h: core.c,
 * model.c), and each workload in its own files there (client.h and
 * client*.c, smallfiles.c, stream.c).
 */
#include "gen/gen.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct {
	const char *name, *what;
	void (*gen)(void);
} workloads[] = {
	{ "client", "an office file server: documents, spreadsheets, "
		    "presentations and databases", gen_client },
	{ "smallfiles", "metadata first, like mdtest: many directories, small files",
	  gen_smallfiles },
	{ "stream", "large files written and read back in 1 MiB requests", gen_stream },
};

/* bytes as MB (10^6) with one decimal, in integers */
static const char *mb(uint64_t bytes, char *buf)
{
	uint64_t tenths = (bytes + 50000) / 100000;
	sprintf(buf, "%llu.%llu", (unsigned long long)(tenths / 10), (unsigned long long)(tenths % 10));
	return buf;
}

static void usage(FILE *f)
{
	fprintf(f, "usage: genload [--seed N] [--stats] client|smallfiles|stream > FILE\n");
}

int main(int argc, char **argv)
{
	unsigned long long seed = 1;
	const char *which = NULL;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--seed") == 0 && i + 1 < argc) {
			char *end;
			seed = strtoull(argv[++i], &end, 10);
			if (*end || !*argv[i] || argv[i][0] == '-') {
				usage(stderr);
				return 2;
			}
		} else if (strcmp(argv[i], "--stats") == 0) {
			stats = 1;
		} else if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
			usage(stdout);
			return 0;
		} else if (!which && argv[i][0] != '-') {
			which = argv[i];
		} else {
			usage(stderr);
			return 2;
		}
	}
	int w = -1;
	for (int i = 0; which && i < (int)(sizeof(workloads) / sizeof(workloads[0])); i++)
		if (strcmp(which, workloads[i].name) == 0)
			w = i;
	if (w < 0) {
		usage(stderr);
		return 2;
	}
	rng = seed;
	workloads[w].gen();
	char b1[32], b2[32], b3[32];

	printf("# kbench generated workload \"%s\": %s (dbench 4 format)\n",
	       workloads[w].name, workloads[w].what);
	printf("# Written by kbench's loadfiles/genload, seed %llu: "
	       "genload --seed %llu %s; do not edit, regenerate it.\n",
	       seed, seed, workloads[w].name);
	printf("# A pass: %llu operations, %s MB written, %s MB read, at most %s MB\n"
	       "# of files and %u handles open (MB = 10^6 bytes).\n",
	       (unsigned long long)tally.lines, mb(tally.written, b1), mb(tally.read, b2),
	       mb(tally.peak_bytes, b3), tally.peak_handles);
	printf("# SPDX-License-Identifier: GPL-3.0-or-later\n");
	if (fwrite(out, 1, out_len, stdout) != out_len || fflush(stdout) != 0) {
		perror("genload: write");
		return 1;
	}
	return 0;
}
