/* kbench - genload: the stream workload
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A few large files written and read back sequentially in 1 MiB requests,
 * each removed once read.
 */
#include "gen.h"

#include <stdio.h>

#define ST ROOT "\\stream"
#define ST_FILES 4
#define ST_SIZE (256ull * MiB)
#define ST_IO MiB

static void stream_path(int i, char *buf)
{
	snprintf(buf, PATHLEN, "%s\\stream%d.dat", ST, i);
}

static void stream_write(int i)
{
	char p[PATHLEN];
	stream_path(i, p);
	qpathinfo(p, 1004);
	int h = nt_create(p, 0x40, 2, R_DATA, -1);
	write_range(h, 0, ST_SIZE, ST_IO);
	gen_flush(h);
	nt_close(h);
}

static void stream_read(int i)
{
	char p[PATHLEN];
	stream_path(i, p);
	int h = nt_create(p, 0x40, 1, 0, 0);
	qfileinfo(h, 1005);
	read_all(h, 0, ST_IO);
	nt_close(h);
	unlink_path(p);
}

/* Write file i+1 before reading file i back: at most two files (512 MiB)
 * on disk, and no file is read straight after it was written. */
void gen_stream(void)
{
	gen_deltree(ST);
	mkdir_path(ST);
	qfsinfo(1007);
	stream_write(0);
	for (int i = 0; i < ST_FILES; i++) {
		if (i + 1 < ST_FILES)
			stream_write(i + 1);
		stream_read(i);
	}
	rmdir_path(ST);
}
