/* kbench - the dbench 1.x loadfile: a text dump of an SMB trace
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Lines come in pairs, "SMBxxx REQUEST key value ..." and "SMBxxx REPLY
 * ...", plus "CREATE REQUEST Path P Size N", but a capture interleaves
 * them: other lines may come between a request and its reply, and some
 * requests (SMBreadbraw) have none.  The values are read by key (Path,
 * Handle, Offset, Size, ByteCount, New, ...; the first value of a key
 * repeated), not by position, so a field order kbench has not seen still
 * parses.  Each SMB command maps onto the same ops as the modern format:
 *
 *   SMBopenX      -> NTCreateX   on the REPLY (its Handle; ERR: must fail,
 *                                but ERRfilexists: the file is there)
 *   SMBgetatr     -> QUERY_PATH_INFORMATION on the REPLY
 *   SMBunlink     -> Unlink      on the REPLY
 *   SMBclose      -> Close       SMBflush   -> Flush
 *   SMBwrite, SMBwritebraw, SMBwriteX -> WriteX
 *   SMBread, SMBreadbraw, SMBreadX    -> ReadX
 *   SMBmkdir, SMBrmdir, SMBmv -> Mkdir, Rmdir, Rename
 *   SMBsetatr     -> SET_FILE_INFORMATION on the path
 *   SMBlockingX   -> LockX (none without a range)
 *   SMBdskattr    -> QUERY_FS_INFORMATION
 *   SMBtrans2 [TRANSACT2_]FINDFIRST / FINDNEXT / QPATHINFO / QFILEINFO / QFSINFO
 *                 -> FIND_FIRST (FINDNEXT lists the last pattern again),
 *                    QUERY_PATH_, QUERY_FILE_, QUERY_FS_INFORMATION
 *   CREATE        -> NTCreateX (create), WriteX of Size bytes, Close
 *
 * The three acted on at the REPLY keep their REQUEST's path, one per
 * command, until it comes; a REPLY with none waiting (the capture lost
 * the request) is counted, not replayed.  A successful open creates the
 * file if the replay lacks it (the traced server had it).  Ops on a
 * handle must succeed; ops on a path acted on the REQUEST line are not
 * checked (the trace does not say how they ended).  SMBlseek and SMBfindclose change nothing a file system sees,
 * and commands kbench does not model (session setup, tree connect, ...)
 * are counted by kind, never dropped silently.
 */
#include "config.h"
#include "load/loadfile/lfintern.h"
#include "load/loadfile/formats.h"
#include "load/loadfile/lfparse.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define CREATE_CHUNK (1u << 20)              /* WriteX size for CREATE */
#define CREATE_MAX (UINT64_C(1) << 36)       /* largest CREATE Size: 64 GiB */

enum pend { PEND_OPEN, PEND_GETATR, PEND_UNLINK };

/* What a REQUEST line left for its REPLY. */
struct smb_pending {
	int active;
	uint32_t line;
	uint32_t path1;
	uint8_t flags;
};

/* The reader's state across lines (the parser's ps->state). */
struct smbtrace {
	struct smb_pending pending[3];
	uint32_t last_find;  /* path of the last FINDFIRST, or NO_PATH */
	uint8_t last_find_flags;
};

static struct smbtrace *st(struct parser *ps)
{
	return ps->state;
}

struct fields {
	const char *path1, *path2, *handle, *offset, *size, *sub;
	int err;             /* a REPLY beginning with ERR */
	int exists;          /* ... whose error is ERRfilexists */
};

static int is_key(const char *t, const char *const *keys)
{
	for (; *keys; keys++)
		if (strcasecmp(t, *keys) == 0)
			return 1;
	return 0;
}

static void read_fields(char **tok, int n, struct fields *f)
{
	static const char *const path_keys[] = { "Path", "Name", "Old", "From", "Pattern",
						 "Mask", "File", "OldPath", NULL };
	static const char *const new_keys[] = { "New", "To", "NewName", "NewPath", NULL };
	static const char *const handle_keys[] = { "Handle", "Fnum", "Fid", NULL };
	static const char *const offset_keys[] = { "Offset", "Ofs", "Pos", NULL };
	static const char *const size_keys[] = { "Size", "Count", "Length", "Len", "ByteCount",
						 "MaxCount", "DataSize", NULL };
	static const char *const subs[] = { "FINDFIRST", "FINDNEXT", "QPATHINFO", "QFILEINFO",
					    "QFSINFO", "SETFILEINFO", "SETPATHINFO", NULL };
	memset(f, 0, sizeof(*f));
	if (n > 2 && strncmp(tok[2], "ERR", 3) == 0)
		f->err = 1;
	for (int i = 2; f->err && i < n && strncmp(tok[i], "ERR", 3) == 0; i++)
		if (strcmp(tok[i], "ERRfilexists") == 0)
			f->exists = 1;
	for (int i = 2; i < n; i++) {
		const char *t = tok[i];
		const char *v = i + 1 < n ? tok[i + 1] : NULL;
		/* "FINDFIRST", or as an SMB dump names it, "TRANSACT2_FINDFIRST" */
		const char *sub = strncasecmp(t, "TRANSACT2_", 10) == 0 ? t + 10 : t;
		if (is_key(sub, subs)) {
			f->sub = sub;
			continue;
		}
		if (!v)
			break;
		if (is_key(t, path_keys)) {
			if (!f->path1)
				f->path1 = v;
			else if (!f->path2)
				f->path2 = v;
		} else if (is_key(t, new_keys)) {
			f->path2 = v;
		} else if (is_key(t, handle_keys)) {
			f->handle = f->handle ? f->handle : v;
		} else if (is_key(t, offset_keys)) {
			f->offset = f->offset ? f->offset : v;
		} else if (is_key(t, size_keys)) {
			f->size = f->size ? f->size : v;
		} else {
			continue;
		}
		i++;
	}
}

static int need(struct parser *ps, const char *what, const char *cmd, const char *v)
{
	if (v)
		return 0;
	lf_error(ps, "%s REQUEST without %s", cmd, what);
	return -1;
}

static int path_of(struct parser *ps, const char *v, uint32_t *off, struct op *op, uint8_t flag)
{
	int shared;
	if (lf_path(ps, v, off, &shared) < 0)
		return -1;
	if (shared)
		op->flags |= flag;
	return 0;
}

/* Handle, offset and size of a read or write. */
static void io_op(struct parser *ps, const char *cmd, const struct fields *f, enum opcode code)
{
	struct op op;
	uint64_t off = 0, size;
	lf_op_init(ps, &op);
	op.code = (uint8_t)code;
	op.expect = EXPECT_OK;
	if (need(ps, "a Handle", cmd, f->handle) < 0 || need(ps, "a Size", cmd, f->size) < 0 ||
	    lf_handle_tok(ps, f->handle, &op) < 0)
		return;
	if (f->offset && lf_num(ps, f->offset, "offset", INT64_MAX, &off) < 0)
		return;
	if (lf_num(ps, f->size, "size", LOADFILE_MAX_IO, &size) < 0)
		return;
	if (off > (uint64_t)INT64_MAX - size) {
		lf_error(ps, "offset + size is past 2^63");
		return;
	}
	op.off = off;
	op.len = (uint32_t)size;
	op.ret = (uint32_t)size;
	if (code == OP_READX)
		op.flags |= OPF_ANYSIZE;  /* a read at the end of a file comes back short */
	lf_emit(ps, &op);
}

static void path_op(struct parser *ps, const char *cmd, const struct fields *f,
		    enum opcode code, uint8_t expect, uint8_t extra)
{
	struct op op;
	lf_op_init(ps, &op);
	op.code = (uint8_t)code;
	op.expect = expect;
	op.flags |= extra;
	if (need(ps, "a Path", cmd, f->path1) < 0 ||
	    path_of(ps, f->path1, &op.path1, &op, OPF_SHARED1) < 0)
		return;
	lf_emit(ps, &op);
}

/* CREATE REQUEST Path P Size N: a new file of N bytes. */
static void create_file(struct parser *ps, const struct fields *f)
{
	struct op op;
	uint64_t size;
	if (need(ps, "a Path", "CREATE", f->path1) < 0 || need(ps, "a Size", "CREATE", f->size) < 0 ||
	    lf_num(ps, f->size, "size", CREATE_MAX, &size) < 0)
		return;
	lf_op_init(ps, &op);
	op.code = OP_NTCREATEX;
	op.expect = EXPECT_OK;
	op.aux = FILE_OVERWRITE_IF;
	if (path_of(ps, f->path1, &op.path1, &op, OPF_SHARED1) < 0)
		return;
	/* a handle number no trace uses (the largest 64-bit one); each
	 * CREATE closes it before the next */
	uint64_t synth = UINT64_MAX;
	if (lf_handle(ps, synth, &op.handle) < 0) {
		lf_error(ps, "out of memory storing handles");
		return;
	}
	uint32_t h = op.handle;
	lf_emit(ps, &op);
	for (uint64_t at = 0; at < size; at += CREATE_CHUNK) {
		lf_op_init(ps, &op);
		op.code = OP_WRITEX;
		op.expect = EXPECT_OK;
		op.handle = h;
		op.off = at;
		op.len = (uint32_t)(size - at < CREATE_CHUNK ? size - at : CREATE_CHUNK);
		op.ret = op.len;
		lf_emit(ps, &op);
	}
	lf_op_init(ps, &op);
	op.code = OP_CLOSE;
	op.expect = EXPECT_OK;
	op.handle = h;
	lf_emit(ps, &op);
}

static void trans2(struct parser *ps, const struct fields *f)
{
	struct op op;
	const char *sub = f->sub ? f->sub : "";
	if (!strcasecmp(sub, "FINDFIRST")) {
		lf_op_init(ps, &op);
		op.code = OP_FIND_FIRST;
		op.expect = EXPECT_ANY;
		if (need(ps, "a Path", "SMBtrans2 FINDFIRST", f->path1) < 0 ||
		    lf_pattern(ps, f->path1, &op) < 0)
			return;
		st(ps)->last_find = op.path1;
		st(ps)->last_find_flags = op.flags;
		lf_emit(ps, &op);
	} else if (!strcasecmp(sub, "FINDNEXT")) {
		if (st(ps)->last_find == NO_PATH) {
			lf_ignore(ps, "FINDNEXT before FINDFIRST");
			return;
		}
		lf_op_init(ps, &op);
		op.code = OP_FIND_FIRST;
		op.expect = EXPECT_ANY;
		op.path1 = st(ps)->last_find;
		op.flags = st(ps)->last_find_flags;
		lf_emit(ps, &op);
	} else if (!strcasecmp(sub, "QPATHINFO")) {
		path_op(ps, "SMBtrans2 QPATHINFO", f, OP_QPATHINFO, EXPECT_ANY, 0);
	} else if (!strcasecmp(sub, "QFILEINFO")) {
		if (!f->handle) {
			/* a dump that left the handle out: nothing to replay it on */
			lf_ignore(ps, "SMBtrans2 QFILEINFO (no Handle)");
			return;
		}
		lf_op_init(ps, &op);
		op.code = OP_QFILEINFO;
		op.expect = EXPECT_OK;
		if (need(ps, "a Handle", "SMBtrans2 QFILEINFO", f->handle) < 0 ||
		    lf_handle_tok(ps, f->handle, &op) < 0)
			return;
		lf_emit(ps, &op);
	} else if (!strcasecmp(sub, "QFSINFO")) {
		lf_op_init(ps, &op);
		op.code = OP_QFSINFO;
		op.expect = EXPECT_OK;
		lf_emit(ps, &op);
	} else {
		char kind[32];
		snprintf(kind, sizeof(kind), "SMBtrans2 %s", *sub ? sub : "(other)");
		lf_ignore(ps, kind);
	}
}

/* A REQUEST that never got its REPLY: counted as ignored at its own line
 * (it was counted as paired when it came). */
static void orphan(struct parser *ps, struct smb_pending *p, const char *kind)
{
	uint64_t at = ps->lineno;
	ps->lineno = p->line;
	ps->prog->npaired--;
	lf_ignore(ps, kind);
	ps->lineno = at;
}

/* A REQUEST acted on at its REPLY (SMBopenX, SMBgetatr, SMBunlink): its
 * path kept in its pending slot.  Returns 1 if cmd is one of them (an
 * error in it already reported), 0 if not. */
static int pend_request(struct parser *ps, const char *cmd, const struct fields *f)
{
	struct smb_pending *p = NULL;

	if (!strcmp(cmd, "SMBopenX"))
		p = &st(ps)->pending[PEND_OPEN];
	else if (!strcmp(cmd, "SMBgetatr"))
		p = &st(ps)->pending[PEND_GETATR];
	else if (!strcmp(cmd, "SMBunlink"))
		p = &st(ps)->pending[PEND_UNLINK];
	if (!p)
		return 0;
	/* acted on at the REPLY: keep the path until then */
	if (need(ps, "a Path", cmd, f->path1) < 0)
		return 1;
	if (p->active)
		orphan(ps, p, p == &st(ps)->pending[PEND_OPEN] ? "SMBopenX without REPLY" :
		       p == &st(ps)->pending[PEND_GETATR] ? "SMBgetatr without REPLY" :
		       "SMBunlink without REPLY");
	struct op tmp;
	lf_op_init(ps, &tmp);
	if (path_of(ps, f->path1, &tmp.path1, &tmp, OPF_SHARED1) < 0)
		return 1;
	p->active = 1;
	ps->prog->npaired++;  /* its op is made by the REPLY */
	p->line = (uint32_t)ps->lineno;
	p->path1 = tmp.path1;
	p->flags = tmp.flags;
	return 1;
}

/* A REQUEST line of command cmd: its ops emitted, or the line counted
 * as ignored. */
static void request(struct parser *ps, const char *cmd, const struct fields *f)
{
	struct op op;

	if (pend_request(ps, cmd, f))
		return;
	if (!strcmp(cmd, "CREATE")) {
		create_file(ps, f);
	} else if (!strcmp(cmd, "SMBclose") || !strcmp(cmd, "SMBflush")) {
		if (!f->handle && !strcmp(cmd, "SMBflush")) {
			lf_ignore(ps, "SMBflush (all files)");
			return;
		}
		lf_op_init(ps, &op);
		op.code = !strcmp(cmd, "SMBclose") ? OP_CLOSE : OP_FLUSH;
		op.expect = EXPECT_OK;
		if (need(ps, "a Handle", cmd, f->handle) < 0 || lf_handle_tok(ps, f->handle, &op) < 0)
			return;
		lf_emit(ps, &op);
	} else if (!strcmp(cmd, "SMBwrite") || !strcmp(cmd, "SMBwritebraw") ||
		   !strcmp(cmd, "SMBwriteX")) {
		io_op(ps, cmd, f, OP_WRITEX);
	} else if (!strcmp(cmd, "SMBread") || !strcmp(cmd, "SMBreadbraw") ||
		   !strcmp(cmd, "SMBreadX")) {
		io_op(ps, cmd, f, OP_READX);
	} else if (!strcmp(cmd, "SMBmkdir")) {
		path_op(ps, cmd, f, OP_MKDIR, EXPECT_ANY, 0);
	} else if (!strcmp(cmd, "SMBrmdir")) {
		struct op tmp;
		int shared;
		lf_op_init(ps, &tmp);
		if (f->path1 && lf_path(ps, f->path1, &tmp.path1, &shared) == 0 && shared &&
		    !strcmp(prog_path(ps->prog, tmp.path1), ".")) {
			lf_error(ps, "SMBrmdir of the run directory itself is refused");
			return;
		}
		path_op(ps, cmd, f, OP_RMDIR, EXPECT_ANY, 0);
	} else if (!strcmp(cmd, "SMBsetatr")) {
		path_op(ps, cmd, f, OP_SFILEINFO, EXPECT_ANY, OPF_BYPATH);
	} else if (!strcmp(cmd, "SMBmv")) {
		lf_op_init(ps, &op);
		op.code = OP_RENAME;
		op.expect = EXPECT_ANY;
		if (need(ps, "a Path", cmd, f->path1) < 0 || need(ps, "a New path", cmd, f->path2) < 0 ||
		    path_of(ps, f->path1, &op.path1, &op, OPF_SHARED1) < 0 ||
		    path_of(ps, f->path2, &op.path2, &op, OPF_SHARED2) < 0)
			return;
		lf_emit(ps, &op);
	} else if (!strcmp(cmd, "SMBlockingX")) {
		uint64_t off = 0, len = 1;
		if (!f->offset && !f->size) {
			/* no range: an oplock release, which locks nothing */
			lf_ignore(ps, "SMBlockingX (no range)");
			return;
		}
		lf_op_init(ps, &op);
		op.code = OP_LOCKX;
		op.expect = EXPECT_OK;
		if (need(ps, "a Handle", cmd, f->handle) < 0 || lf_handle_tok(ps, f->handle, &op) < 0 ||
		    (f->offset && lf_num(ps, f->offset, "offset", INT64_MAX, &off) < 0) ||
		    (f->size && lf_num(ps, f->size, "size", INT64_MAX, &len) < 0))
			return;
		if (off > (uint64_t)INT64_MAX - len) {
			lf_error(ps, "offset + size is past 2^63");
			return;
		}
		op.off = off;
		op.len = len > UINT32_MAX ? UINT32_MAX : (uint32_t)len;
		lf_emit(ps, &op);
	} else if (!strcmp(cmd, "SMBdskattr")) {
		lf_op_init(ps, &op);
		op.code = OP_QFSINFO;
		op.expect = EXPECT_OK;
		lf_emit(ps, &op);
	} else if (!strcmp(cmd, "SMBtrans2")) {
		trans2(ps, f);
	} else {
		/* SMBlseek, SMBfindclose and commands with no file-system effect */
		lf_ignore(ps, cmd);
	}
}

static int modelled(const char *cmd)
{
	static const char *const cmds[] = {
		"SMBopenX", "SMBgetatr", "SMBunlink", "SMBclose", "SMBflush", "SMBwrite",
		"SMBwritebraw", "SMBwriteX", "SMBread", "SMBreadbraw", "SMBreadX", "SMBmkdir",
		"SMBrmdir", "SMBsetatr", "SMBmv", "SMBlockingX", "SMBdskattr", "SMBtrans2",
		"CREATE", NULL,
	};
	for (const char *const *c = cmds; *c; c++)
		if (!strcmp(cmd, *c))
			return 1;
	return 0;
}

static void reply(struct parser *ps, const char *cmd, const struct fields *f)
{
	struct smb_pending *p;
	enum opcode code;
	if (!strcmp(cmd, "SMBopenX")) {
		p = &st(ps)->pending[PEND_OPEN];
		code = OP_NTCREATEX;
	} else if (!strcmp(cmd, "SMBgetatr")) {
		p = &st(ps)->pending[PEND_GETATR];
		code = OP_QPATHINFO;
	} else if (!strcmp(cmd, "SMBunlink")) {
		p = &st(ps)->pending[PEND_UNLINK];
		code = OP_UNLINK;
	} else {
		/* the REQUEST carried the op; a command kbench does not model is
		 * counted on both of its lines */
		if (!modelled(cmd))
			lf_ignore(ps, cmd);
		else
			ps->prog->npaired++;
		return;
	}
	if (!p->active) {
		/* its REQUEST is not in the trace (a capture can lose packets):
		 * there is no path to act on */
		char kind[32];
		snprintf(kind, sizeof(kind), "%s REPLY without REQUEST", cmd);
		lf_ignore(ps, kind);
		return;
	}
	p->active = 0;
	struct op op;
	lf_op_init(ps, &op);
	op.code = (uint8_t)code;
	op.path1 = p->path1;
	op.flags = p->flags;
	op.expect = f->err ? EXPECT_FAIL : EXPECT_OK;
	if (code == OP_NTCREATEX) {
		op.aux = FILE_OPEN;
		if (f->exists) {
			/* an exclusive create of a file that was there: opening
			 * it must work; the failed open bound no handle */
			op.expect = EXPECT_OK;
			op.handle = NO_HANDLE;
		} else if (f->err) {
			op.handle = NO_HANDLE;
		} else {
			op.flags |= OPF_OPEN_IF;
			if (!f->handle) {
				lf_error(ps, "SMBopenX REPLY without a Handle");
				return;
			}
			if (lf_handle_tok(ps, f->handle, &op) < 0)
				return;
			/* dbench 1 gave an opened file the size its reply
			 * reports, writing to grow it, so later reads find
			 * the data the traced server had */
			if (f->size) {
				if (lf_num(ps, f->size, "Size", CREATE_MAX, &op.off) < 0)
					return;
				op.flags |= OPF_SETSIZE;
			}
		}
	}
	lf_emit(ps, &op);
}

/* A dbench 1 line: "SMBxxx REQUEST|REPLY ..." or "CREATE REQUEST ...". */
static int looks_smbtrace(const char *line)
{
	const char *p = line + strspn(line, " \t");
	size_t n = strcspn(p, " \t");
	const char *q = p + n;
	q += strspn(q, " \t");
	size_t m = strcspn(q, " \t");
	int pair = (m == 7 && !strncmp(q, "REQUEST", 7)) || (m == 5 && !strncmp(q, "REPLY", 5));
	return pair && ((n > 3 && !strncmp(p, "SMB", 3)) || (n == 6 && !strncmp(p, "CREATE", 6)));
}

static void line_smbtrace(struct parser *ps, char *line)
{
	char *tok[LF_MAX_TOKENS];
	int n = lf_tokenize(ps, line, tok, 0);
	if (n <= 0)
		return;
	if (n < 2 || (strcmp(tok[1], "REQUEST") && strcmp(tok[1], "REPLY"))) {
		if (!strncmp(tok[0], "SMB", 3) || !strcmp(tok[0], "CREATE"))
			lf_error(ps, "%s: expected REQUEST or REPLY after it", tok[0]);
		else
			lf_error(ps, "not a dbench 1 trace line: '%.40s' (try --format)", tok[0]);
		return;
	}
	if (strncmp(tok[0], "SMB", 3) && strcmp(tok[0], "CREATE")) {
		lf_error(ps, "unknown command '%.40s' (SMBxxx or CREATE)", tok[0]);
		return;
	}
	struct fields f;
	read_fields(tok, n, &f);
	if (!strcmp(tok[1], "REQUEST"))
		request(ps, tok[0], &f);
	else
		reply(ps, tok[0], &f);
}

static void begin_smbtrace(struct parser *ps)
{
	st(ps)->last_find = NO_PATH;
}

/* The file holds dbench 1 trace lines if any of its first ones is one. */
static int looks(char *const *lines, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (lines[i] && looks_smbtrace(lines[i]))
			return 1;
	return 0;
}

static void end_smbtrace(struct parser *ps)
{
	static const char *const kinds[] = { "SMBopenX without REPLY", "SMBgetatr without REPLY",
					     "SMBunlink without REPLY" };
	for (int i = 0; i < 3; i++)
		if (st(ps)->pending[i].active)
			orphan(ps, &st(ps)->pending[i], kinds[i]);
}

const struct lf_reader lf_reader_dbench1 = {
	.format = LF_DBENCH1,
	.name = "dbench1",
	.looks = looks,
	.state_size = sizeof(struct smbtrace),
	.begin = begin_smbtrace,
	.line = line_smbtrace,
	.end = end_smbtrace,
};
