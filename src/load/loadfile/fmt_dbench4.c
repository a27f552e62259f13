/* kbench - the NetBench text formats: dbench 3/4 and dbench 2.x lines
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * dbench 4:  [timestamp] OPCODE ARG... STATUS, double quotes group tokens.
 * dbench 2:  OPCODE ARG..., no status, no quoting ('"' is the DOS '.'
 *            wildcard), some trailing arguments absent, and an NTCreateX
 *            that was meant to fail has fnum -1.  With no status column
 *            the expected outcome is inferred: an open is expected to
 *            succeed unless its fnum is -1; ops on a handle must succeed;
 *            ops on a path are not checked (the trace does not say).
 */
#include "config.h"
#include "load/loadfile/formats.h"
#include "load/loadfile/lfparse.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

struct opdef {
	const char *name;
	enum opcode code;
	int nargs;     /* arguments between opcode and status (dbench 4) */
	int min2;      /* fewest arguments a dbench 2 line gives */
	uint8_t expect2;  /* expected outcome in dbench 2 */
};

static const struct opdef opdefs[] = {
#define OPCODE(id, file, report, nargs, min2, expect2) { file, OP_##id, nargs, min2, expect2 },
#include "load/loadfile/opcodes.def"
#undef OPCODE
};

/* The opdef whose name is name, case ignored.  Only a name of the same
 * first letter (ASCII, folded) is compared in full. */
static const struct opdef *find_opdef(const char *name)
{
	unsigned char first = (unsigned char)name[0] | 0x20;
	for (size_t i = 0; i < sizeof(opdefs) / sizeof(opdefs[0]); i++)
		if (((unsigned char)opdefs[i].name[0] | 0x20) == first &&
		    strcasecmp(opdefs[i].name, name) == 0)
			return &opdefs[i];
	return NULL;
}

#define I64MAX ((uint64_t)INT64_MAX)

/* The arguments of the ops on a byte range of a handle: ReadX and
 * WriteX (handle, offset, size, ret_size), LockX and UnlockX (handle,
 * offset, size: 64 bits, split between op->len and op->arg). */
static int parse_range(struct parser *ps, struct op *op, char **a)
{
	uint64_t v, w;
	int io = op->code == OP_READX || op->code == OP_WRITEX;

	if (lf_handle_tok(ps, a[0], op) < 0)
		return -1;
	if (lf_num(ps, a[1], "offset", I64MAX, &v) < 0 ||
	    lf_num(ps, a[2], "size", io ? LOADFILE_MAX_IO : I64MAX, &w) < 0)
		return -1;
	if (v > I64MAX - w) {
		lf_error(ps, "offset + size is past 2^63");
		return -1;
	}
	op->off = v;
	op->len = (uint32_t)w;              /* a lock's: the low 32 bits */
	if (!io) {
		op->arg = (uint32_t)(w >> 32);  /* a lock's high 32 bits */
		return 0;
	}
	if (lf_num(ps, a[3], "ret_size", LOADFILE_MAX_IO, &v) < 0)
		return -1;
	op->ret = (uint32_t)v;
	return 0;
}

/* Fill op from the argument tokens a[0..nargs-1] (optional ones that a
 * dbench 2 line leaves out are "0"). */
static int parse_args(struct parser *ps, struct op *op, char **a)
{
	uint64_t v, w;
	int shared;

	switch (op->code) {
	case OP_NTCREATEX:
		if (lf_path(ps, a[0], &op->path1, &shared) < 0)
			return -1;
		op->flags |= shared ? OPF_SHARED1 : 0;
		if (lf_num(ps, a[1], "create_options", UINT32_MAX, &v) < 0)
			return -1;
		op->arg = (uint32_t)v;
		if (lf_num(ps, a[2], "disposition", 5, &v) < 0)
			return -1;
		op->aux = (uint8_t)v;
		return lf_handle_tok(ps, a[3], op);
	case OP_CLOSE:
	case OP_FLUSH:
		return lf_handle_tok(ps, a[0], op);
	case OP_QFILEINFO:
	case OP_SFILEINFO:
		if (lf_handle_tok(ps, a[0], op) < 0)
			return -1;
		if (lf_num(ps, a[1], "level", UINT32_MAX, &v) < 0)
			return -1;
		op->arg = (uint32_t)v;
		return 0;
	case OP_RENAME:
		if (lf_path(ps, a[0], &op->path1, &shared) < 0)
			return -1;
		op->flags |= shared ? OPF_SHARED1 : 0;
		if (lf_path(ps, a[1], &op->path2, &shared) < 0)
			return -1;
		op->flags |= shared ? OPF_SHARED2 : 0;
		return 0;
	case OP_UNLINK:
	case OP_QPATHINFO:
		if (lf_path(ps, a[0], &op->path1, &shared) < 0)
			return -1;
		op->flags |= shared ? OPF_SHARED1 : 0;
		if (lf_num(ps, a[1], op->code == OP_UNLINK ? "attributes" : "level",
			      UINT32_MAX, &v) < 0)
			return -1;
		op->arg = (uint32_t)v;
		return 0;
	case OP_DELTREE:
	case OP_RMDIR:
	case OP_MKDIR:
		if (lf_path(ps, a[0], &op->path1, &shared) < 0)
			return -1;
		op->flags |= shared ? OPF_SHARED1 : 0;
		if (shared && op->code != OP_MKDIR && !strcmp(prog_path(ps->prog, op->path1), ".")) {
			lf_error(ps, "%s of the run directory itself is refused (it holds every "
				 "client's tree and files that are not the run's)",
				 op->code == OP_DELTREE ? "Deltree" : "Rmdir");
			return -1;
		}
		return 0;
	case OP_QFSINFO:
		if (lf_num(ps, a[0], "level", UINT32_MAX, &v) < 0)
			return -1;
		op->arg = (uint32_t)v;
		return 0;
	case OP_FIND_FIRST:
		if (lf_pattern(ps, a[0], op) < 0)
			return -1;
		if (lf_num(ps, a[1], "level", UINT32_MAX, &v) < 0 ||
		    lf_num(ps, a[2], "maxcnt", UINT32_MAX, &w) < 0 ||
		    lf_num(ps, a[3], "count", UINT32_MAX, &v) < 0)
			return -1;
		op->arg = (uint32_t)w;
		op->ret = (uint32_t)v;  /* entries the traced server returned (tbench's reply size) */
		return 0;
	case OP_WRITEX:
	case OP_READX:
	case OP_LOCKX:
	case OP_UNLOCKX:
		return parse_range(ps, op, a);
	case OP_SLEEP:
		if (lf_num(ps, a[0], "microseconds", 3600ull * 1000000, &v) < 0)
			return -1;
		op->off = v;
		return 0;
	case OP_COUNT:
		break;
	}
	return -1;
}

/* A leading number is a timestamp in seconds from the pass start. */
static int is_timestamp(const char *t)
{
	return (t[0] >= '0' && t[0] <= '9') || (t[0] == '.' && t[1] >= '0' && t[1] <= '9');
}

/* Seconds as dbench writes them: digits with at most one '.'. */
static int timestamp_ns(const char *t, uint64_t *ns)
{
	size_t digits = strspn(t, "0123456789");
	const char *p = t + digits;
	if (*p == '.') {
		size_t frac = strspn(p + 1, "0123456789");
		digits += frac;
		p += 1 + frac;
	}
	if (*p || !digits)
		return -1;
	double s = strtod(t, NULL);
	if (!(s >= 0 && s <= 1e9))
		return -1;
	*ns = (uint64_t)(s * 1e9 + 0.5);
	return 0;
}

/* Does line end in a status after the arguments its opcode takes (a
 * dbench 4 line)? */
static int looks_status_line(const char *line)
{
	/* a dbench 4 line: the opcode's arguments and then a status */
	char *buf = strdup(line), *tok[LF_MAX_TOKENS];
	int n = 0;
	if (!buf)
		return 0;
	for (char *p = buf; *p && n < LF_MAX_TOKENS;) {
		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p)
			break;
		tok[n++] = p;
		int q = 0;
		while (*p && (q || (*p != ' ' && *p != '\t'))) {
			if (*p == '"')
				q = !q;
			p++;
		}
		if (*p)
			*p++ = '\0';
	}
	int t = n > 0 && is_timestamp(tok[0]);
	int yes = 0;
	if (n >= t + 2) {
		const struct opdef *def = find_opdef(tok[t]);
		uint8_t e;
		yes = def && n - t - 1 == def->nargs + 1 && lf_status(tok[n - 1], &e) == 0;
	}
	free(buf);
	return yes;
}

static void line_netbench(struct parser *ps, char *line, int d2)
{
	char *tok[LF_MAX_TOKENS];
	int n = lf_tokenize(ps, line, tok, !d2);
	if (n <= 0)
		return;

	struct op op;
	lf_op_init(ps, &op);

	int t = 0;
	if (is_timestamp(tok[0])) {
		if (timestamp_ns(tok[0], &op.ts_ns) < 0) {
			lf_error(ps, "bad timestamp '%.40s' (seconds from the pass start, e.g. 12.345)",
				 tok[0]);
			return;
		}
		op.flags |= OPF_TIMED;
		t = 1;
		if (n == 1) {
			lf_error(ps, "timestamp without an operation");
			return;
		}
	}
	const struct opdef *def = find_opdef(tok[t]);
	if (!def) {
		lf_error(ps, "unknown operation '%.60s'", tok[t]);
		return;
	}
	op.code = (uint8_t)def->code;
	int have = n - t - 1;  /* tokens after the opcode */
	char **a = tok + t + 1;
	char *args[8];

	if (d2) {
		/* dbench 2: no status; trailing arguments may be missing */
		if (have < def->min2 || have > def->nargs) {
			uint8_t e;
			if (have == def->nargs + 1 && lf_status(a[have - 1], &e) == 0)
				lf_error(ps, "%s: a status column in a dbench 2 file (try --format=dbench4)",
					 def->name);
			else if (def->min2 == def->nargs)
				lf_error(ps, "%s: %d arguments, expected %d", def->name, have, def->nargs);
			else
				lf_error(ps, "%s: %d arguments, expected %d to %d", def->name, have,
					 def->min2, def->nargs);
			return;
		}
		for (int i = 0; i < def->nargs; i++)
			args[i] = i < have ? a[i] : "0";
		a = args;
		op.expect = def->expect2;
		if (def->code == OP_NTCREATEX && strcmp(a[3], "-1") == 0) {
			/* an open the trace saw fail: expected to fail, binds nothing */
			op.expect = EXPECT_FAIL;
			args[3] = "0";
			if (parse_args(ps, &op, a) < 0)
				return;
			op.handle = NO_HANDLE;
			lf_emit(ps, &op);
			return;
		}
	} else {
		int sleep_nostatus = def->code == OP_SLEEP && have == def->nargs;
		if (have < def->nargs + 1 && !sleep_nostatus) {
			if (have == def->nargs)
				lf_error(ps, "%s: missing expected status (last token, e.g. NT_STATUS_OK)",
					 def->name);
			else
				lf_error(ps, "%s: too few arguments (%d tokens after it, expected %d and a status)",
					 def->name, have, def->nargs);
			return;
		}
		if (have > def->nargs + 1) {
			lf_error(ps, "%s: too many arguments (%d tokens after it, expected %d and a status)",
				 def->name, have, def->nargs);
			return;
		}
		if (sleep_nostatus) {
			op.expect = EXPECT_ANY;
		} else if (lf_status(tok[n - 1], &op.expect) < 0) {
			lf_error(ps, "%s: bad status '%.60s' (NT_STATUS_*, 0x..., SUCCESS, ERROR or *)",
				 def->name, tok[n - 1]);
			return;
		}
	}
	if (parse_args(ps, &op, a) < 0)
		return;
	lf_emit(ps, &op);
}

static void line_dbench4(struct parser *ps, char *line)
{
	line_netbench(ps, line, 0);
}

static void line_dbench2(struct parser *ps, char *line)
{
	line_netbench(ps, line, 1);
}

/* dbench 2 when fewer than half of the first text lines end in a status */
static int looks_dbench2(char *const *lines, size_t n)
{
	size_t status = 0, text = 0;
	for (size_t i = 0; i < n; i++) {
		if (!lines[i])
			continue;
		text++;
		status += (size_t)looks_status_line(lines[i]);
	}
	return text && status * 2 < text;
}

/* dbench 4 (and 3): what a file is when no other format claims it */
static int looks_dbench4(char *const *lines, size_t n)
{
	(void)lines;
	(void)n;
	return 1;
}

const struct lf_reader lf_reader_dbench4 = {
	.format = LF_DBENCH4,
	.name = "dbench4",
	.alias = "dbench3",
	.looks = looks_dbench4,
	.line = line_dbench4,
};

const struct lf_reader lf_reader_dbench2 = {
	.format = LF_DBENCH2,
	.name = "dbench2",
	.looks = looks_dbench2,
	.line = line_dbench2,
};
