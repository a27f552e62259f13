/* kbench - opcode names and program storage
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"
#include "load/program.h"

#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

static const char *const file_names[OP_COUNT] = {
	[OP_NTCREATEX] = "NTCreateX",
	[OP_CLOSE] = "Close",
	[OP_RENAME] = "Rename",
	[OP_UNLINK] = "Unlink",
	[OP_DELTREE] = "Deltree",
	[OP_RMDIR] = "Rmdir",
	[OP_MKDIR] = "Mkdir",
	[OP_QPATHINFO] = "QUERY_PATH_INFORMATION",
	[OP_QFILEINFO] = "QUERY_FILE_INFORMATION",
	[OP_QFSINFO] = "QUERY_FS_INFORMATION",
	[OP_SFILEINFO] = "SET_FILE_INFORMATION",
	[OP_FIND_FIRST] = "FIND_FIRST",
	[OP_WRITEX] = "WriteX",
	[OP_READX] = "ReadX",
	[OP_LOCKX] = "LockX",
	[OP_UNLOCKX] = "UnlockX",
	[OP_FLUSH] = "Flush",
	[OP_SLEEP] = "Sleep",
};

/* dbench 4's names in its final table */
static const char *const report_names[OP_COUNT] = {
	[OP_NTCREATEX] = "NTCreateX",
	[OP_CLOSE] = "Close",
	[OP_RENAME] = "Rename",
	[OP_UNLINK] = "Unlink",
	[OP_DELTREE] = "Deltree",
	[OP_RMDIR] = "Rmdir",
	[OP_MKDIR] = "Mkdir",
	[OP_QPATHINFO] = "Qpathinfo",
	[OP_QFILEINFO] = "Qfileinfo",
	[OP_QFSINFO] = "Qfsinfo",
	[OP_SFILEINFO] = "Sfileinfo",
	[OP_FIND_FIRST] = "Find",
	[OP_WRITEX] = "WriteX",
	[OP_READX] = "ReadX",
	[OP_LOCKX] = "LockX",
	[OP_UNLOCKX] = "UnlockX",
	[OP_FLUSH] = "Flush",
	[OP_SLEEP] = "Sleep",
};

const char *lf_format_name(enum lf_format f)
{
	switch (f) {
	case LF_DBENCH4: return "dbench4";
	case LF_DBENCH2: return "dbench2";
	case LF_DBENCH1: return "dbench1";
	case LF_AUTO: break;
	}
	return "auto";
}

const char *op_file_name(enum opcode code)
{
	return (unsigned)code < OP_COUNT ? file_names[code] : "?";
}

const char *op_report_name(enum opcode code)
{
	return (unsigned)code < OP_COUNT ? report_names[code] : "?";
}

long prog_read_ops(const struct program *p, size_t first, struct op *buf, size_t max)
{
	if (first >= p->nops)
		return 0;
	if (max > p->nops - first)
		max = p->nops - first;
	size_t want = max * sizeof(struct op), got = 0;
	off_t at = (off_t)(first * sizeof(struct op));
	while (got < want) {
		ssize_t n = pread(p->fd, (char *)buf + got, want - got, at + (off_t)got);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		if (n == 0) {
			errno = EIO;
			return -1;
		}
		got += (size_t)n;
	}
	return (long)max;
}

void prog_free(struct program *p)
{
	if (!p)
		return;
	if (p->fd >= 0)
		close(p->fd);
	p->fd = -1;
	free(p->arena);
	p->arena = NULL;
	free(p->source);
	p->source = NULL;
}
