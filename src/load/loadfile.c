/* kbench - loadfile parser: text of any dbench era -> program
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The whole file is read once, line by line, before any client starts.
 * Ops are appended to a memfd in batches (the parent never holds the
 * whole program in its heap); paths and handle numbers are interned in
 * hash tables that are dropped when parsing ends.  The format is detected
 * from the first operation lines unless it is forced; gzip-compressed
 * files are read through zlib.  Any malformed line is an error: nothing is
 * guessed or skipped silently, and lines a format does not model are
 * counted by kind.
 */
#define _GNU_SOURCE 1
#include "config.h"
#include "load/loadfile.h"
#include "load/lfparse.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <zlib.h>

#define DETECT_LINES 64

static char gz_error[128];  /* zlib's words for the last read error */

/* ---- errors and ignored lines ---- */

/* A binary file must not write control bytes, or bytes that are not
 * UTF-8, to the terminal: each becomes '?'. */
static void sanitize(char *s)
{
	unsigned char *p = (unsigned char *)s;
	while (*p) {
		int n = *p < 0x80 ? 0 : (*p & 0xe0) == 0xc0 ? 1 : (*p & 0xf0) == 0xe0 ? 2 :
			(*p & 0xf8) == 0xf0 ? 3 : -1;
		int ok = n >= 0 && (*p >= 0x20 || n > 0) && *p != 0x7f;
		for (int k = 1; ok && k <= n; k++)
			ok = (p[k] & 0xc0) == 0x80;
		if (!ok) {
			*p++ = '?';
			continue;
		}
		p += n + 1;
	}
}

void lf_error(struct parser *ps, const char *fmt, ...)
{
	ps->nerrors++;
	if (!ps->errs || ps->nerrors > ps->max_errors)
		return;
	char msg[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	sanitize(msg);
	fprintf(ps->errs, "%s:%llu: %s\n", ps->name, (unsigned long long)ps->lineno, msg);
}

void lf_ignore(struct parser *ps, const char *kind)
{
	struct program *p = ps->prog;
	p->ignored_total++;
	for (uint32_t i = 0; i < p->nignored_kinds; i++) {
		if (strncmp(p->ignored[i].name, kind, sizeof(p->ignored[i].name) - 1) == 0) {
			p->ignored[i].count++;
			return;
		}
	}
	if (p->nignored_kinds == IGNORED_KINDS) {
		p->ignored_other++;
		return;
	}
	struct ignored_kind *k = &p->ignored[p->nignored_kinds++];
	snprintf(k->name, sizeof(k->name), "%s", kind);
	k->count = 1;
	k->first_line = ps->lineno;
}

/* ---- interning tables (parse time only) ---- */

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

int lf_handle(struct parser *ps, uint64_t fnum, uint32_t *idx)
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

int lf_tokenize(struct parser *ps, char *line, char **tok, int quotes)
{
	int n = 0;
	char *r = line, *w = line;
	for (;;) {
		while (*r == ' ' || *r == '\t')
			r++;
		if (!*r)
			break;
		if (n == LF_MAX_TOKENS) {
			lf_error(ps, "too many tokens (more than %d)", LF_MAX_TOKENS);
			return -1;
		}
		tok[n++] = w;
		int quoted = 0;
		while (*r && (quoted || (*r != ' ' && *r != '\t'))) {
			if (quotes && *r == '"')
				quoted = !quoted;
			else
				*w++ = *r;
			r++;
		}
		if (quoted) {
			lf_error(ps, "unterminated quote");
			return -1;
		}
		if (*r)
			r++;
		*w++ = '\0';
	}
	return n;
}

int lf_num(struct parser *ps, const char *tok, const char *what, uint64_t max, uint64_t *out)
{
	const char *s = tok;
	int base = 10;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
	}
	if (!*s) {
		lf_error(ps, "%s: '%s' is not a number", what, tok);
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
				lf_error(ps, "%s: negative value '%.40s'", what, tok);
			else
				lf_error(ps, "%s: '%.40s' is not a number", what, tok);
			return -1;
		}
		if (v > (UINT64_MAX - (uint64_t)d) / (uint64_t)base) {
			lf_error(ps, "%s: '%.40s' is out of range (max %llu)", what, tok,
				 (unsigned long long)max);
			return -1;
		}
		v = v * (uint64_t)base + (uint64_t)d;
	}
	if (v > max) {
		lf_error(ps, "%s: '%.40s' is out of range (max %llu)", what, tok,
			 (unsigned long long)max);
		return -1;
	}
	*out = v;
	return 0;
}

int lf_status(const char *tok, uint8_t *expect)
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
		const char *digits = tok + 2 + strspn(tok + 2, "0");
		if (strlen(digits) > 16)
			return -1;  /* more than 64 bits of status */
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

int lf_path(struct parser *ps, const char *tok, uint32_t *off, int *shared)
{
	char buf[PATH_MAX + 1];
	const char *msg = loadfile_path(tok, buf, sizeof(buf), shared);
	if (msg) {
		lf_error(ps, "%s: \"%.60s%s\"", msg, tok, strlen(tok) > 60 ? "..." : "");
		return -1;
	}
	if (intern_path(ps, buf, off) < 0) {
		lf_error(ps, "out of memory storing paths");
		return -1;
	}
	return 0;
}

/* FIND_FIRST: DOS wildcards become fnmatch ones: < -> *, > -> ?, " -> . ;
 * "*.*" matches every name, as it does for DOS.  ('"' reaches here only
 * from dbench 2 files: dbench 4's tokenizer takes quotes as grouping.) */
int lf_pattern(struct parser *ps, const char *tok, struct op *op)
{
	char buf[PATH_MAX + 1];
	int shared;
	if (strpbrk(tok, "<>*?\"") == NULL) {
		if (lf_path(ps, tok, &op->path1, &shared) < 0)
			return -1;
		op->flags |= shared ? OPF_SHARED1 : 0;
		return 0;
	}
	const char *msg = loadfile_path(tok, buf, sizeof(buf), &shared);
	if (msg) {
		lf_error(ps, "%s: \"%.60s\"", msg, tok);
		return -1;
	}
	char *last = strrchr(buf, '/');
	last = last ? last + 1 : buf;
	const char *wild = strpbrk(buf, "<>*?\"");
	if (!wild || wild < last) {
		lf_error(ps, "wildcard outside the last path component: \"%.60s\"", tok);
		return -1;
	}
	/* rewrite the last component: DOS wildcards to fnmatch ones, and '['
	 * (a plain character for DOS) escaped */
	char comp[2 * NAME_MAX + 2];
	size_t k = 0;
	for (const char *c = last; *c && k + 2 < sizeof(comp); c++) {
		if (*c == '<')
			comp[k++] = '*';
		else if (*c == '>')
			comp[k++] = '?';
		else if (*c == '"')
			comp[k++] = '.';
		else if (*c == '[' || *c == ']') {
			comp[k++] = '\\';
			comp[k++] = *c;
		} else
			comp[k++] = *c;
	}
	comp[k] = '\0';
	if (strcmp(comp, "*.*") == 0)
		strcpy(comp, "*");
	if ((size_t)(last - buf) + k + 1 > sizeof(buf)) {
		lf_error(ps, "path too long: \"%.60s\"", tok);
		return -1;
	}
	memcpy(last, comp, k + 1);
	op->flags |= OPF_WILDCARD | (shared ? OPF_SHARED1 : 0);
	if (intern_path(ps, buf, &op->path1) < 0) {
		lf_error(ps, "out of memory storing paths");
		return -1;
	}
	return 0;
}

int lf_handle_tok(struct parser *ps, const char *tok, struct op *op)
{
	uint64_t fnum;
	if (lf_num(ps, tok, "handle", UINT64_MAX, &fnum) < 0)
		return -1;
	if (lf_handle(ps, fnum, &op->handle) < 0) {
		lf_error(ps, "out of memory storing handles");
		return -1;
	}
	return 0;
}

void lf_op_init(struct parser *ps, struct op *op)
{
	memset(op, 0, sizeof(*op));
	op->path1 = op->path2 = NO_PATH;
	op->line = (uint32_t)ps->lineno;
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

void lf_emit(struct parser *ps, const struct op *op)
{
	struct program *p = ps->prog;
	if (ps->nerrors)
		return;  /* keep checking, but stop building */
	p->count[op->code]++;
	if (op->code == OP_READX || op->code == OP_WRITEX) {
		if (op->len > p->max_io)
			p->max_io = op->len;
		if (op->code == OP_READX)
			p->bytes_read += op->len;
		else
			p->bytes_written += op->len;
	}
	if ((op->flags & OPF_SETSIZE) && p->max_io < SETSIZE_CHUNK)
		p->max_io = op->off < SETSIZE_CHUNK ? (uint32_t)op->off : SETSIZE_CHUNK;
	if ((op->flags & OPF_TIMED) && op->ts_ns)
		p->timed = 1;
	ps->batch[ps->nbatch++] = *op;
	p->nops++;
	if (ps->nbatch == LF_BATCH && flush_batch(ps) < 0)
		ps->io_failed = errno ? errno : EIO;
}

/* ---- reading the file ---- */

static int blank_or_comment(struct parser *ps, const char *line)
{
	const char *first = line + strspn(line, " \t");
	if (!*first) {
		ps->prog->nblank++;
		return 1;
	}
	if (*first == '#') {
		ps->prog->ncomments++;
		return 1;
	}
	return 0;
}

static void dispatch(struct parser *ps, char *line)
{
	if (ps->lineno > UINT32_MAX) {
		lf_error(ps, "too many lines (more than %u)", UINT32_MAX);
		return;
	}
	if (ps->format == LF_DBENCH1)
		lf_line_smbtrace(ps, line);
	else
		lf_line_netbench(ps, line);
}

#define MAX_LINE (16u << 20)    /* a longer line is not a loadfile line */
#define GIVE_UP_ERRORS 1000     /* errors after which reading stops */

/* Double the line buffer, up to MAX_LINE bytes and the final NUL. */
static int grow_line(struct parser *ps, char **line, size_t *cap)
{
	size_t ncap = *cap ? *cap * 2 : 256;
	if (ncap > MAX_LINE + 1)
		ncap = MAX_LINE + 1;
	char *nl = realloc(*line, ncap);
	if (!nl) {
		lf_error(ps, "out of memory reading a line");
		return -1;
	}
	*line = nl;
	*cap = ncap;
	return 0;
}

/* Read one line into *line (grown as needed, at most MAX_LINE bytes) and
 * strip its line end.  Returns 1 for a line, 0 at the end of the file or
 * when reading must stop (*eof set), -1 (error reported) for a line that
 * must be skipped. */
static int next_line(struct parser *ps, FILE *in, char **line, size_t *cap, int *eof)
{
	size_t len = 0;
	int c, nul = 0;
	if (ps->nerrors >= GIVE_UP_ERRORS) {
		if (ps->errs)
			fprintf(ps->errs, "%s: stopped reading after %u errors (not a loadfile?)\n",
				ps->name, ps->nerrors);
		*eof = 1;
		return 0;
	}
	for (;;) {
		c = getc_unlocked(in);
		if (c == EOF || c == '\n')
			break;
		if (len == MAX_LINE) {
			ps->lineno++;
			lf_error(ps, "line longer than %u MiB (not a text loadfile?)", MAX_LINE >> 20);
			*eof = 1;
			return 0;
		}
		if (len + 1 >= *cap && grow_line(ps, line, cap) < 0) {
			*eof = 1;
			return 0;
		}
		if (!c)
			nul = 1;
		(*line)[len++] = (char)c;
	}
	if (!*cap && grow_line(ps, line, cap) < 0) {  /* room for the final NUL */
		*eof = 1;
		return 0;
	}
	if (c == EOF && len == 0) {
		*eof = 1;
		return 0;
	}
	ps->lineno++;
	while (len > 0 && (*line)[len - 1] == '\r')
		len--;
	(*line)[len] = '\0';
	if (ps->lineno == 1 && len >= 3 && !memcmp(*line, "\xef\xbb\xbf", 3)) {
		/* a UTF-8 byte order mark is not part of the first token */
		memmove(*line, *line + 3, len - 2);
		len -= 3;
	}
	if (nul) {
		if (!ps->holding)
			lf_error(ps, "NUL byte in line (not a text loadfile?)");
		return ps->holding ? 2 : -1;
	}
	return 1;
}

struct held {
	char *text;          /* NULL: a line with a NUL byte, reported in turn */
	uint64_t lineno;
};

/* Decide the format from the first operation lines. */
static enum lf_format detect(struct held *h, size_t n)
{
	size_t status = 0;
	size_t text = 0;
	for (size_t i = 0; i < n; i++)
		if (h[i].text && lf_looks_smbtrace(h[i].text))
			return LF_DBENCH1;
	for (size_t i = 0; i < n; i++) {
		if (!h[i].text)
			continue;
		text++;
		status += (size_t)lf_looks_status_line(h[i].text);
	}
	return text && status * 2 < text ? LF_DBENCH2 : LF_DBENCH4;
}

static void run_lines(struct parser *ps, FILE *in)
{
	char *line = NULL;
	size_t cap = 0;
	int eof = 0, r;

	if (ps->format == LF_AUTO) {
		/* hold the first operation lines, decide, then replay them */
		struct held held[DETECT_LINES];
		size_t nheld = 0;
		ps->holding = 1;
		while (nheld < DETECT_LINES && !eof) {
			r = next_line(ps, in, &line, &cap, &eof);
			if (r <= 0 || (r == 1 && blank_or_comment(ps, line)))
				continue;
			held[nheld].text = r == 1 ? strdup(line) : NULL;
			held[nheld].lineno = ps->lineno;
			if (r == 1 && !held[nheld].text) {
				lf_error(ps, "out of memory");
				break;
			}
			nheld++;
		}
		ps->holding = 0;
		ps->format = detect(held, nheld);
		uint64_t at = ps->lineno;
		for (size_t i = 0; i < nheld; i++) {
			ps->lineno = held[i].lineno;
			if (!held[i].text)
				lf_error(ps, "NUL byte in line (not a text loadfile?)");
			else if (!ps->io_failed)
				dispatch(ps, held[i].text);
			free(held[i].text);
		}
		ps->lineno = at;
	}
	while (!eof && !ps->io_failed) {
		r = next_line(ps, in, &line, &cap, &eof);
		if (r <= 0 || blank_or_comment(ps, line))
			continue;
		dispatch(ps, line);
	}
	free(line);
	if (ps->format == LF_DBENCH1)
		lf_end_smbtrace(ps);
}

int loadfile_parse_stream(FILE *in, const char *name, enum lf_format format,
			  struct program *prog, FILE *errs, unsigned max_errors)
{
	struct parser *ps = calloc(1, sizeof(*ps));
	memset(prog, 0, sizeof(*prog));
	prog->fd = -1;
	if (!ps) {
		if (errs)
			fprintf(errs, "%s: out of memory\n", name);
		return -1;
	}
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
	ps->format = format;
	ps->last_find = NO_PATH;

	int rc = 0;
	run_lines(ps, in);
	if (ferror(in)) {
		if (errs)
			fprintf(errs, "%s: read error: %s\n", name,
				gz_error[0] ? gz_error : strerror(errno ? errno : EIO));
		rc = -1;
	}
	gz_error[0] = '\0';
	prog->nlines = ps->lineno;
	prog->format = ps->format;

	if (!rc && !ps->nerrors && !ps->io_failed && ps->nbatch && flush_batch(ps) < 0)
		ps->io_failed = errno ? errno : EIO;
	if (!rc && ps->io_failed) {
		if (errs)
			fprintf(errs, "%s: cannot store program: %s\n", name, strerror(ps->io_failed));
		rc = -1;
	}
	if (!rc && !ps->nerrors && prog->nops == 0) {
		ps->nerrors++;
		if (errs && prog->nlines)
			fprintf(errs, "%s:%llu: no operations in loadfile\n", name,
				(unsigned long long)prog->nlines);
		else if (errs)
			fprintf(errs, "%s: no operations in loadfile (an empty file)\n", name);
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

/* stdio over zlib: gzread passes files that are not gzip through as they
 * are, so one reader serves plain and compressed loadfiles alike */
static ssize_t gz_cookie_read(void *cookie, char *buf, size_t size)
{
	unsigned want = size > (1u << 30) ? 1u << 30 : (unsigned)size;
	int n = gzread((gzFile)cookie, buf, want);
	int zerr = Z_OK;
	const char *msg = gzerror((gzFile)cookie, &zerr);
	if (n < 0 || (n == 0 && zerr != Z_OK)) {
		if (zerr == Z_ERRNO) {
			snprintf(gz_error, sizeof(gz_error), "%s", strerror(errno));
		} else {
			/* e.g. a truncated file: "unexpected end of file"; zlib
			 * names the file "<fd:N>", which says nothing here */
			if (!strncmp(msg, "<fd:", 4) && strstr(msg, ": "))
				msg = strstr(msg, ": ") + 2;
			snprintf(gz_error, sizeof(gz_error), "gzip: %s", msg);
			errno = EBADMSG;
		}
		return -1;
	}
	return n;
}

static int gz_cookie_close(void *cookie)
{
	return gzclose_r((gzFile)cookie) == Z_OK ? 0 : -1;
}

int loadfile_load(const char *path, enum lf_format format, struct program *prog,
		  FILE *errs, unsigned max_errors)
{
	memset(prog, 0, sizeof(*prog));
	prog->fd = -1;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		if (errs)
			fprintf(errs, "%s: cannot open loadfile: %s\n", path, strerror(errno));
		return -1;
	}
	gzFile gz = gzdopen(fd, "rb");
	if (!gz) {
		close(fd);
		if (errs)
			fprintf(errs, "%s: cannot open loadfile: out of memory\n", path);
		return -1;
	}
	gzbuffer(gz, 128 * 1024);
	cookie_io_functions_t io = { .read = gz_cookie_read, .close = gz_cookie_close };
	FILE *in = fopencookie(gz, "r", io);
	if (!in) {
		gzclose_r(gz);
		if (errs)
			fprintf(errs, "%s: cannot open loadfile: %s\n", path, strerror(errno));
		return -1;
	}
	int rc = loadfile_parse_stream(in, path, format, prog, errs, max_errors);
	fclose(in);
	return rc;
}

int lf_format_parse(const char *s, enum lf_format *out)
{
	static const struct { const char *name; enum lf_format f; } names[] = {
		{ "auto", LF_AUTO }, { "dbench4", LF_DBENCH4 }, { "dbench3", LF_DBENCH4 },
		{ "dbench2", LF_DBENCH2 }, { "dbench1", LF_DBENCH1 },
	};
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strcmp(s, names[i].name) == 0) {
			*out = names[i].f;
			return 0;
		}
	return -1;
}
