/* kbench - opcode names and program storage: reading the packed ops
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
#include "sys/textgroup.h"
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

KB_CLIENT_TEXT
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
