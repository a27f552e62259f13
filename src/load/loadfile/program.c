/* kbench - opcode names and program storage
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"
#include "load/loadfile/program.h"

#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

static const char *const file_names[OP_COUNT] = {
#define OPCODE(id, file, report, nargs, min2, expect2) [OP_##id] = file,
#include "load/loadfile/opcodes.def"
#undef OPCODE
};

/* dbench 4's names in its final table */
static const char *const report_names[OP_COUNT] = {
#define OPCODE(id, file, report, nargs, min2, expect2) [OP_##id] = report,
#include "load/loadfile/opcodes.def"
#undef OPCODE
};

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

int prog_for_each(const struct program *p, int (*fn)(void *arg, const struct op *op), void *arg)
{
	enum { FOREACH_WINDOW = 1024 };
	struct op *win = malloc(FOREACH_WINDOW * sizeof(*win));
	int rc = 0;
	if (!win) {
		errno = ENOMEM;
		return -1;
	}
	for (size_t at = 0; at < p->nops && !rc;) {
		long n = prog_read_ops(p, at, win, FOREACH_WINDOW);
		if (n <= 0) {
			if (n == 0)
				errno = EIO;  /* shorter than nops says */
			rc = -1;
			break;
		}
		for (long k = 0; k < n && !rc; k++)
			rc = fn(arg, &win[k]);
		at += (size_t)n;
	}
	free(win);
	return rc;
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
	free(p->dirs);
	p->dirs = NULL;
	p->ndirs = 0;
	free(p->source);
	p->source = NULL;
}

uint32_t op_open_bits(const struct op *op)
{
	int creates = op->aux == FILE_CREATE || op->aux == FILE_OVERWRITE ||
		      op->aux == FILE_OVERWRITE_IF;
	uint32_t o = 0;
	if (op->arg & FILE_DIRECTORY_FILE)
		o |= OPEN_DIR;
	if (creates)
		o |= OPEN_CREATES | OPEN_CREAT;
	if (op->flags & OPF_OPEN_IF)
		o |= OPEN_CREAT;
	else if (op->aux == FILE_OVERWRITE || op->aux == FILE_OVERWRITE_IF)
		o |= OPEN_TRUNC;
	return o;
}
