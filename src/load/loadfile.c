/* kbench - loadfile parser: dbench 3/4 text -> program
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The whole file is read once, line by line, before any client starts.
 * Ops are appended to a memfd in batches (the parent never holds the
 * whole program in its heap); paths and handle numbers are interned in
 * hash tables that are dropped when parsing ends.  Any malformed line is
 * an error: nothing is guessed or skipped silently.
 */
#include "config.h"
#include "load/loadfile.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define MAX_TOKENS 16
#define BATCH 1024

struct opdef {
	const char *name;
	enum opcode code;
	int nargs;  /* arguments between opcode and status */
};

static const struct opdef opdefs[] = {
	{ "NTCreateX", OP_NTCREATEX, 4 },
	{ "Close", OP_CLOSE, 1 },
	{ "Rename", OP_RENAME, 2 },
	{ "Unlink", OP_UNLINK, 2 },
	{ "Deltree", OP_DELTREE, 1 },
	{ "Rmdir", OP_RMDIR, 1 },
	{ "Mkdir", OP_MKDIR, 1 },
	{ "QUERY_PATH_INFORMATION", OP_QPATHINFO, 2 },
	{ "QUERY_FILE_INFORMATION", OP_QFILEINFO, 2 },
	{ "QUERY_FS_INFORMATION", OP_QFSINFO, 1 },
	{ "SET_FILE_INFORMATION", OP_SFILEINFO, 2 },
	{ "FIND_FIRST", OP_FIND_FIRST, 4 },
	{ "WriteX", OP_WRITEX, 4 },
	{ "ReadX", OP_READX, 4 },
	{ "LockX", OP_LOCKX, 3 },
	{ "UnlockX", OP_UNLOCKX, 3 },
	{ "Flush", OP_FLUSH, 1 },
	{ "Sleep", OP_SLEEP, 1 },
};

/* ---- interning tables (parse time only) ---- */

struct strtab {          /* path -> arena offset */
	uint32_t *slot;      /* arena offset + 1; 0 = empty */
	size_t cap, used;
};

struct numtab {          /* fnum -> dense handle index */
	uint64_t *key;
	uint32_t *val;       /* index + 1; 0 = empty */
	size_t cap, used;
};

struct parser {
	const char *name;
	FILE *errs;
	unsigned max_errors, nerrors;
	uint64_t lineno;
	struct program *prog;
	size_t arena_cap;
	struct strtab paths;
	struct numtab handles;
	struct op batch[BATCH];
	size_t nbatch;
	int io_failed;
};

static uint64_t hash_bytes(const char *s, size_t n)
{
	uint64_t h = 1469598103934665603ull;  /* FNV-1a */
	for (size_t i = 0; i < n; i++) {
		h ^= (unsigned char)s[i];
		h *= 1099511628211ull;
	}
	return h;
}

static uint64_t hash_u64(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdull;
	x ^= x >> 33;
	return x;
}

static void perr(struct parser *ps, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void perr(struct parser *ps, const char *fmt, ...)
{
	ps->nerrors++;
	if (!ps->errs || ps->nerrors > ps->max_errors)
		return;
	va_list ap;
	fprintf(ps->errs, "%s:%llu: ", ps->name, (unsigned long long)ps->lineno);
	va_start(ap, fmt);
	vfprintf(ps->errs, fmt, ap);
	va_end(ap);
	fputc('\n', ps->errs);
}

static int arena_add(struct parser *ps, const char *s, size_t n, uint32_t *off)
{
	struct program *p = ps->prog;
	if (p->arena_len + n + 1 > UINT32_MAX - 1)
		return -1;
	if (p->arena_len + n + 1 > ps->arena_cap) {
		size_t cap = ps->arena_cap ? ps->arena_cap * 2 : 4096;
		while (cap < p->arena_len + n + 1)
			cap *= 2;
		char *a = realloc(p->arena, cap);
		if (!a)
			return -1;
		p->arena = a;
		ps->arena_cap = cap;
	}
	memcpy(p->arena + p->arena_len, s, n);
	p->arena[p->arena_len + n] = '\0';
	*off = (uint32_t)p->arena_len;
	p->arena_len += n + 1;
	return 0;
}

static int strtab_grow(struct parser *ps)
{
	struct strtab *t = &ps->paths;
	size_t cap = t->cap ? t->cap * 2 : 256;
	uint32_t *slot = calloc(cap, sizeof(*slot));
	if (!slot)
		return -1;
	for (size_t i = 0; i < t->cap; i++) {
		if (!t->slot[i])
			continue;
		const char *s = ps->prog->arena + t->slot[i] - 1;
		size_t j = hash_bytes(s, strlen(s)) & (cap - 1);
		while (slot[j])
			j = (j + 1) & (cap - 1);
		slot[j] = t->slot[i];
	}
	free(t->slot);
	t->slot = slot;
	t->cap = cap;
	return 0;
}

/* Intern path s; *off receives its arena offset. */
static int intern_path(struct parser *ps, const char *s, uint32_t *off)
{
	struct strtab *t = &ps->paths;
	size_t n = strlen(s);
	if ((t->used + 1) * 2 > t->cap && strtab_grow(ps) < 0)
		return -1;
	size_t j = hash_bytes(s, n) & (t->cap - 1);
	while (t->slot[j]) {
		if (strcmp(ps->prog->arena + t->slot[j] - 1, s) == 0) {
			*off = t->slot[j] - 1;
			return 0;
		}
		j = (j + 1) & (t->cap - 1);
	}
	if (arena_add(ps, s, n, off) < 0)
		return -1;
	t->slot[j] = *off + 1;
	t->used++;
	return 0;
}

static int numtab_grow(struct numtab *t)
{
	size_t cap = t->cap ? t->cap * 2 : 256;
	uint64_t *key = calloc(cap, sizeof(*key));
	uint32_t *val = calloc(cap, sizeof(*val));
	if (!key || !val) {
		free(key);
		free(val);
		return -1;
	}
	for (size_t i = 0; i < t->cap; i++) {
		if (!t->val[i])
			continue;
		size_t j = hash_u64(t->key[i]) & (cap - 1);
		while (val[j])
			j = (j + 1) & (cap - 1);
		key[j] = t->key[i];
		val[j] = t->val[i];
	}
	free(t->key);
	free(t->val);
	t->key = key;
	t->val = val;
	t->cap = cap;
	return 0;
}

static int intern_handle(struct parser *ps, uint64_t fnum, uint32_t *idx)
{
	struct numtab *t = &ps->handles;
	if ((t->used + 1) * 2 > t->cap && numtab_grow(t) < 0)
		return -1;
	size_t j = hash_u64(fnum) & (t->cap - 1);
	while (t->val[j]) {
		if (t->key[j] == fnum) {
			*idx = t->val[j] - 1;
			return 0;
		}
		j = (j + 1) & (t->cap - 1);
	}
	if (ps->prog->nhandles == UINT32_MAX - 1)
		return -1;
	*idx = ps->prog->nhandles++;
	t->key[j] = fnum;
	t->val[j] = *idx + 1;
	t->used++;
	return 0;
}

/* ---- tokens and values ---- */

/* Split line in place.  Returns the token count, or -1 (error reported). */
static int tokenize(struct parser *ps, char *line, char **tok)
{
	int n = 0;
	char *r = line, *w = line;
	for (;;) {
		while (*r == ' ' || *r == '\t')
			r++;
		if (!*r)
			break;
		if (n == MAX_TOKENS) {
			perr(ps, "too many tokens (more than %d)", MAX_TOKENS);
			return -1;
		}
		tok[n++] = w;
		int quoted = 0;
		while (*r && (quoted || (*r != ' ' && *r != '\t'))) {
			if (*r == '"')
				quoted = !quoted;
			else
				*w++ = *r;
			r++;
		}
		if (quoted) {
			perr(ps, "unterminated quote");
			return -1;
		}
		if (*r)
			r++;
		*w++ = '\0';
	}
	return n;
}

/* Unsigned number, decimal or 0x hex, at most max. */
static int parse_num(struct parser *ps, const char *tok, const char *what,
		     uint64_t max, uint64_t *out)
{
	const char *s = tok;
	int base = 10;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
	}
	if (!*s) {
		perr(ps, "%s: '%s' is not a number", what, tok);
		return -1;
	}
	uint64_t v = 0;
	for (; *s; s++) {
		int d;
		if (*s >= '0' && *s <= '9')
			d = *s - '0';
		else if (base == 16 && isxdigit((unsigned char)*s))
			d = tolower((unsigned char)*s) - 'a' + 10;
		else {
			if (tok[0] == '-')
				perr(ps, "%s: negative value '%.40s'", what, tok);
			else
				perr(ps, "%s: '%.40s' is not a number", what, tok);
			return -1;
		}
		if (v > (UINT64_MAX - (uint64_t)d) / (uint64_t)base) {
			perr(ps, "%s: '%.40s' is out of range (max %llu)", what, tok,
			     (unsigned long long)max);
			return -1;
		}
		v = v * (uint64_t)base + (uint64_t)d;
	}
	if (v > max) {
		perr(ps, "%s: '%.40s' is out of range (max %llu)", what, tok,
		     (unsigned long long)max);
		return -1;
	}
	*out = v;
	return 0;
}

static int parse_status(const char *tok, uint8_t *expect)
{
	if (strcmp(tok, "*") == 0) {
		*expect = EXPECT_ANY;
		return 0;
	}
	if (strcmp(tok, "SUCCESS") == 0 || strcmp(tok, "NT_STATUS_OK") == 0) {
		*expect = EXPECT_OK;
		return 0;
	}
	if (strcmp(tok, "ERROR") == 0) {
		*expect = EXPECT_FAIL;
		return 0;
	}
	if (strncmp(tok, "NT_STATUS_", 10) == 0 && tok[10]) {
		for (const char *s = tok + 10; *s; s++)
			if (!isupper((unsigned char)*s) && !isdigit((unsigned char)*s) && *s != '_')
				return -1;
		*expect = EXPECT_FAIL;
		return 0;
	}
	if (tok[0] == '0' && (tok[1] == 'x' || tok[1] == 'X') && tok[2]) {
		int nonzero = 0;
		for (const char *s = tok + 2; *s; s++) {
			if (!isxdigit((unsigned char)*s))
				return -1;
			if (*s != '0')
				nonzero = 1;
		}
		if (strlen(tok + 2) > 16)
			return -1;
		*expect = nonzero ? EXPECT_FAIL : EXPECT_OK;
		return 0;
	}
	return -1;
}

const char *loadfile_path(const char *in, char *out, size_t outsz, int *shared)
{
	/* component start offsets in out, for ".." */
	size_t stack[PATH_MAX / 2];
	size_t depth = 0, len = 0;
	const char *p = in;

	if (outsz < 2)
		return "path too long";
	while (*p) {
		while (*p == '\\' || *p == '/')
			p++;
		if (!*p)
			break;
		const char *start = p;
		while (*p && *p != '\\' && *p != '/')
			p++;
		size_t n = (size_t)(p - start);
		if (n == 1 && start[0] == '.')
			continue;
		if (n == 2 && start[0] == '.' && start[1] == '.') {
			if (depth == 0)
				return "path climbs out of the directory with '..'";
			len = stack[--depth];
			continue;
		}
		if (n > NAME_MAX)
			return "path component longer than 255 bytes";
		if (depth == sizeof(stack) / sizeof(stack[0]))
			return "path too deep";
		size_t need = len + (depth ? 1 : 0) + n + 1;
		if (need > outsz || need > PATH_MAX)
			return "path too long";
		stack[depth++] = len;
		if (depth > 1)
			out[len++] = '/';
		for (size_t i = 0; i < n; i++)
			out[len++] = (char)tolower((unsigned char)start[i]);
	}
	out[len] = '\0';

	/* \clients\client1[\rest] lives in the client's own tree */
	*shared = 1;
	if (strncmp(out, "clients/client1", 15) == 0 && (out[15] == '\0' || out[15] == '/')) {
		*shared = 0;
		if (out[15] == '\0') {
			strcpy(out, ".");
		} else {
			memmove(out, out + 16, len - 16 + 1);
		}
	} else if (len == 0) {
		strcpy(out, ".");
	}
	return NULL;
}

static int add_path(struct parser *ps, const char *tok, uint32_t *off, int *shared)
{
	char buf[PATH_MAX + 1];
	const char *msg = loadfile_path(tok, buf, sizeof(buf), shared);
	if (msg) {
		perr(ps, "%s: \"%.60s%s\"", msg, tok, strlen(tok) > 60 ? "..." : "");
		return -1;
	}
	if (intern_path(ps, buf, off) < 0) {
		perr(ps, "out of memory storing paths");
		return -1;
	}
	return 0;
}

/* FIND_FIRST: DOS wildcards become fnmatch ones: < -> *, > -> ? ; "*.*"
 * matches every name, as it does for DOS.  (DOS's third wildcard, '"',
 * cannot reach here: the tokenizer takes double quotes as grouping.) */
static int add_pattern(struct parser *ps, const char *tok, struct op *op)
{
	char buf[PATH_MAX + 1];
	int shared;
	if (strpbrk(tok, "<>*?") == NULL) {
		if (add_path(ps, tok, &op->path1, &shared) < 0)
			return -1;
		op->flags |= shared ? OPF_SHARED1 : 0;
		return 0;
	}
	const char *msg = loadfile_path(tok, buf, sizeof(buf), &shared);
	if (msg) {
		perr(ps, "%s: \"%.60s\"", msg, tok);
		return -1;
	}
	char *last = strrchr(buf, '/');
	last = last ? last + 1 : buf;
	const char *wild = strpbrk(buf, "<>*?");
	if (!wild || wild < last) {
		perr(ps, "wildcard outside the last path component: \"%.60s\"", tok);
		return -1;
	}
	for (char *c = last; *c; c++) {
		if (*c == '<')
			*c = '*';
		else if (*c == '>')
			*c = '?';
	}
	if (strcmp(last, "*.*") == 0)
		strcpy(last, "*");
	op->flags |= OPF_WILDCARD | (shared ? OPF_SHARED1 : 0);
	if (intern_path(ps, buf, &op->path1) < 0) {
		perr(ps, "out of memory storing paths");
		return -1;
	}
	return 0;
}

static int add_handle(struct parser *ps, const char *tok, struct op *op)
{
	uint64_t fnum;
	if (parse_num(ps, tok, "handle", UINT64_MAX, &fnum) < 0)
		return -1;
	if (intern_handle(ps, fnum, &op->handle) < 0) {
		perr(ps, "out of memory storing handles");
		return -1;
	}
	return 0;
}

static int flush_batch(struct parser *ps)
{
	size_t want = ps->nbatch * sizeof(struct op), done = 0;
	while (done < want) {
		ssize_t n = write(ps->prog->fd, (char *)ps->batch + done, want - done);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		done += (size_t)n;
	}
	ps->nbatch = 0;
	return 0;
}

#define I64MAX ((uint64_t)INT64_MAX)

/* Fill op from the argument tokens a[0..nargs-1]. */
static int parse_args(struct parser *ps, struct op *op, char **a)
{
	uint64_t v, w;
	int shared;

	switch (op->code) {
	case OP_NTCREATEX:
		if (add_path(ps, a[0], &op->path1, &shared) < 0)
			return -1;
		op->flags |= shared ? OPF_SHARED1 : 0;
		if (parse_num(ps, a[1], "create_options", UINT32_MAX, &v) < 0)
			return -1;
		op->arg = (uint32_t)v;
		if (parse_num(ps, a[2], "disposition", 5, &v) < 0)
			return -1;
		op->aux = (uint8_t)v;
		return add_handle(ps, a[3], op);
	case OP_CLOSE:
	case OP_FLUSH:
		return add_handle(ps, a[0], op);
	case OP_QFILEINFO:
	case OP_SFILEINFO:
		if (add_handle(ps, a[0], op) < 0)
			return -1;
		if (parse_num(ps, a[1], "level", UINT32_MAX, &v) < 0)
			return -1;
		op->arg = (uint32_t)v;
		return 0;
	case OP_RENAME:
		if (add_path(ps, a[0], &op->path1, &shared) < 0)
			return -1;
		op->flags |= shared ? OPF_SHARED1 : 0;
		if (add_path(ps, a[1], &op->path2, &shared) < 0)
			return -1;
		op->flags |= shared ? OPF_SHARED2 : 0;
		return 0;
	case OP_UNLINK:
	case OP_QPATHINFO:
		if (add_path(ps, a[0], &op->path1, &shared) < 0)
			return -1;
		op->flags |= shared ? OPF_SHARED1 : 0;
		if (parse_num(ps, a[1], op->code == OP_UNLINK ? "attributes" : "level",
			      UINT32_MAX, &v) < 0)
			return -1;
		op->arg = (uint32_t)v;
		return 0;
	case OP_DELTREE:
	case OP_RMDIR:
	case OP_MKDIR:
		if (add_path(ps, a[0], &op->path1, &shared) < 0)
			return -1;
		op->flags |= shared ? OPF_SHARED1 : 0;
		return 0;
	case OP_QFSINFO:
		if (parse_num(ps, a[0], "level", UINT32_MAX, &v) < 0)
			return -1;
		op->arg = (uint32_t)v;
		return 0;
	case OP_FIND_FIRST:
		if (add_pattern(ps, a[0], op) < 0)
			return -1;
		if (parse_num(ps, a[1], "level", UINT32_MAX, &v) < 0 ||
		    parse_num(ps, a[2], "maxcnt", UINT32_MAX, &w) < 0 ||
		    parse_num(ps, a[3], "count", UINT32_MAX, &v) < 0)
			return -1;
		op->arg = (uint32_t)w;
		return 0;
	case OP_WRITEX:
	case OP_READX:
		if (add_handle(ps, a[0], op) < 0)
			return -1;
		if (parse_num(ps, a[1], "offset", I64MAX, &v) < 0 ||
		    parse_num(ps, a[2], "size", LOADFILE_MAX_IO, &w) < 0)
			return -1;
		if (v > I64MAX - w) {
			perr(ps, "offset + size is past 2^63");
			return -1;
		}
		op->off = v;
		op->len = (uint32_t)w;
		if (parse_num(ps, a[3], "ret_size", LOADFILE_MAX_IO, &v) < 0)
			return -1;
		if (op->len > ps->prog->max_io)
			ps->prog->max_io = op->len;
		if (op->code == OP_READX)
			ps->prog->bytes_read += op->len;
		else
			ps->prog->bytes_written += op->len;
		return 0;
	case OP_LOCKX:
	case OP_UNLOCKX:
		if (add_handle(ps, a[0], op) < 0)
			return -1;
		if (parse_num(ps, a[1], "offset", I64MAX, &v) < 0 ||
		    parse_num(ps, a[2], "size", I64MAX, &w) < 0)
			return -1;
		if (v > I64MAX - w) {
			perr(ps, "offset + size is past 2^63");
			return -1;
		}
		op->off = v;
		op->len = w > UINT32_MAX ? UINT32_MAX : (uint32_t)w;
		return 0;
	case OP_SLEEP:
		if (parse_num(ps, a[0], "microseconds", 3600ull * 1000000, &v) < 0)
			return -1;
		op->off = v;
		return 0;
	case OP_COUNT:
		break;
	}
	return -1;
}

static const struct opdef *find_opdef(const char *name)
{
	for (size_t i = 0; i < sizeof(opdefs) / sizeof(opdefs[0]); i++)
		if (strcasecmp(opdefs[i].name, name) == 0)
			return &opdefs[i];
	return NULL;
}

/* A leading number is a timestamp in seconds from the pass start. */
static int is_timestamp(const char *t)
{
	return (t[0] >= '0' && t[0] <= '9') || (t[0] == '.' && t[1] >= '0' && t[1] <= '9');
}

static void parse_line(struct parser *ps, char *line)
{
	char *tok[MAX_TOKENS];
	const char *first = line + strspn(line, " \t");
	if (*first == '#')
		return;  /* a comment, whatever it holds */
	int n = tokenize(ps, line, tok);
	if (n <= 0)
		return;

	struct op op;
	memset(&op, 0, sizeof(op));
	op.path1 = op.path2 = NO_PATH;
	if (ps->lineno > UINT32_MAX) {
		perr(ps, "too many lines (more than %u)", UINT32_MAX);
		return;
	}
	op.line = (uint32_t)ps->lineno;

	int t = 0;
	if (is_timestamp(tok[0])) {
		char *end;
		errno = 0;
		double s = strtod(tok[0], &end);
		if (*end || errno || !isfinite(s) || s < 0 || s > 1e9) {
			perr(ps, "bad timestamp '%.40s' (seconds from the pass start)", tok[0]);
			return;
		}
		op.ts_ns = (uint64_t)(s * 1e9 + 0.5);
		op.flags |= OPF_TIMED;
		if (op.ts_ns)
			ps->prog->timed = 1;
		t = 1;
		if (n == 1) {
			perr(ps, "timestamp without an operation");
			return;
		}
	}
	const struct opdef *def = find_opdef(tok[t]);
	if (!def) {
		perr(ps, "unknown operation '%.60s'", tok[t]);
		return;
	}
	op.code = (uint8_t)def->code;
	int have = n - t - 1;  /* tokens after the opcode */
	int sleep_nostatus = def->code == OP_SLEEP && have == def->nargs;
	if (have < def->nargs + 1 && !sleep_nostatus) {
		if (have == def->nargs)
			perr(ps, "%s: missing expected status (last token, e.g. NT_STATUS_OK)",
			     def->name);
		else
			perr(ps, "%s: too few arguments (%d tokens after it, expected %d and a status)",
			     def->name, have, def->nargs);
		return;
	}
	if (have > def->nargs + 1) {
		perr(ps, "%s: too many arguments (%d tokens after it, expected %d and a status)",
		     def->name, have, def->nargs);
		return;
	}
	if (sleep_nostatus) {
		op.expect = EXPECT_ANY;
	} else if (parse_status(tok[n - 1], &op.expect) < 0) {
		perr(ps, "%s: bad status '%.60s' (NT_STATUS_*, 0x..., SUCCESS, ERROR or *)",
		     def->name, tok[n - 1]);
		return;
	}
	if (parse_args(ps, &op, tok + t + 1) < 0)
		return;

	if (ps->nerrors)
		return;  /* keep checking, but stop building */
	ps->prog->count[op.code]++;
	ps->batch[ps->nbatch++] = op;
	ps->prog->nops++;
	if (ps->nbatch == BATCH && flush_batch(ps) < 0)
		ps->io_failed = errno ? errno : EIO;
}

int loadfile_parse_stream(FILE *in, const char *name, struct program *prog,
			  FILE *errs, unsigned max_errors)
{
	struct parser *ps = calloc(1, sizeof(*ps));
	if (!ps) {
		if (errs)
			fprintf(errs, "%s: out of memory\n", name);
		return -1;
	}
	memset(prog, 0, sizeof(*prog));
	prog->fd = memfd_create("kbench-program", MFD_CLOEXEC | MFD_ALLOW_SEALING);
	if (prog->fd < 0) {
		if (errs)
			fprintf(errs, "%s: cannot create program memory: %s\n", name, strerror(errno));
		free(ps);
		return -1;
	}
	ps->name = name;
	ps->errs = errs;
	ps->max_errors = max_errors;
	ps->prog = prog;

	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	int rc = 0;
	while ((len = getline(&line, &cap, in)) >= 0) {
		ps->lineno++;
		if (len > 0 && line[len - 1] == '\n')
			line[--len] = '\0';
		if (len > 0 && line[len - 1] == '\r')
			line[--len] = '\0';
		if (memchr(line, '\0', (size_t)len)) {
			perr(ps, "NUL byte in line (not a text loadfile?)");
			continue;
		}
		parse_line(ps, line);
		if (ps->io_failed)
			break;
	}
	if (ferror(in)) {
		if (errs)
			fprintf(errs, "%s: read error: %s\n", name, strerror(errno));
		rc = -1;
	}
	free(line);
	prog->nlines = ps->lineno;

	if (!rc && !ps->nerrors && !ps->io_failed && ps->nbatch && flush_batch(ps) < 0)
		ps->io_failed = errno ? errno : EIO;
	if (!rc && ps->io_failed) {
		if (errs)
			fprintf(errs, "%s: cannot store program: %s\n", name, strerror(ps->io_failed));
		rc = -1;
	}
	if (!rc && !ps->nerrors && prog->nops == 0) {
		ps->lineno = prog->nlines;
		perr(ps, "no operations in loadfile");
	}
	if (!rc && ps->nerrors) {
		if (errs && ps->nerrors > ps->max_errors)
			fprintf(errs, "%s: %u more errors not shown\n", name,
				ps->nerrors - ps->max_errors);
		rc = (int)(ps->nerrors > INT32_MAX ? INT32_MAX : ps->nerrors);
	}
	free(ps->paths.slot);
	free(ps->handles.key);
	free(ps->handles.val);
	free(ps);
	if (rc) {
		prog_free(prog);
		return rc;
	}
	fcntl(prog->fd, F_ADD_SEALS, F_SEAL_WRITE | F_SEAL_GROW | F_SEAL_SHRINK | F_SEAL_SEAL);
	prog->source = strdup(name);
	return 0;
}

int loadfile_load(const char *path, struct program *prog, FILE *errs, unsigned max_errors)
{
	memset(prog, 0, sizeof(*prog));
	prog->fd = -1;
	FILE *in = fopen(path, "re");
	if (!in) {
		if (errs)
			fprintf(errs, "%s: cannot open loadfile: %s\n", path, strerror(errno));
		return -1;
	}
	int rc = loadfile_parse_stream(in, path, prog, errs, max_errors);
	fclose(in);
	return rc;
}
