/* kbench - loadfile parser helpers: errors, tokens, values, paths, ops
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What every format reader shares (lfparse.h): the error and ignored-line
 * counts, the token and number readers, the path and pattern rules of
 * kbench-loadfile(5), and the batches in which ops go to the program's
 * memfd.  Paths and handle numbers are interned by lfintern.c, whose
 * tables live only while parsing.
 */
#include "config.h"
#include "load/loadfile/lfintern.h"
#include "load/loadfile/lfparse.h"
#include "load/loadfile/progcode.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

/* ---- tokens and values ---- */

/* What lf_tokenize stops at: 1 a blank, 2 a double quote, 3 the end */
static const uint8_t tok_class[256] = { ['\0'] = 3, [' '] = 1, ['\t'] = 1, ['"'] = 2 };

int lf_tokenize(struct parser *ps, char *line, char **tok, int quotes)
{
	int n = 0;
	char *r = line, *w = line;
	for (;;) {
		while (tok_class[(unsigned char)*r] == 1)
			r++;
		if (!*r)
			break;
		if (n == LF_MAX_TOKENS) {
			lf_error(ps, "too many tokens (more than %d)", LF_MAX_TOKENS);
			return -1;
		}
		/* each token is moved down within its own bytes only, and an
		 * opening quote just starts it a byte later: a line of quoted
		 * paths and plain words is cut in place, nothing copied */
		int quoted = 0;
		w = r;
		if (quotes && *r == '"') {
			quoted = 1;
			w = ++r;
		}
		tok[n++] = w;
		for (;;) {
			unsigned cls;
			/* a run of plain bytes: moved down only once a quote was dropped */
			if (w == r) {
				while (!(cls = tok_class[(unsigned char)*r]))
					r++;
				w = r;
			} else {
				while (!(cls = tok_class[(unsigned char)*r]))
					*w++ = *r++;
			}
			if (cls == 3 || (cls == 1 && !quoted))
				break;
			if (cls == 2 && quotes)
				quoted = !quoted;
			else
				*w++ = *r;  /* a blank inside quotes, or a quote kept as it is */
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
		else if (base == 16 && ((*s >= 'a' && *s <= 'f') || (*s >= 'A' && *s <= 'F')))
			d = (*s | 0x20) - 'a' + 10;
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
	/* component start offsets in out, for "..": below PATH_MAX, so 16
	 * bits (a small frame: every client inherits the stack pages the
	 * parent's parsing touched) */
	uint16_t stack[PATH_MAX / 2];
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
		stack[depth++] = (uint16_t)len;
		if (depth > 1)
			out[len++] = '/';
		for (size_t i = 0; i < n; i++) {
			/* ASCII only, as tolower() in the C locale kbench runs in */
			char ch = start[i];
			out[len++] = ch >= 'A' && ch <= 'Z' ? (char)(ch + ('a' - 'A')) : ch;
		}
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
	if (lf_intern_path(ps, buf, off) < 0) {
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
	if (lf_intern_path(ps, buf, &op->path1) < 0) {
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

int lf_flush(struct parser *ps)
{
	size_t want = ps->nbatch, done = 0;
	while (done < want) {
		ssize_t n = write(ps->prog->fd, (char *)ps->batch + done, want - done);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		done += (size_t)n;
	}
	ps->prog->code_bytes += want;
	ps->nbatch = 0;
	return 0;
}

void lf_emit(struct parser *ps, const struct op *op)
{
	struct program *p = ps->prog;
	if (ps->nerrors)
		return;  /* keep checking, but stop building */
	p->count[op->code]++;
	if (!p->nops)
		progcode_start(&ps->last);
	struct op o = *op;
	if (o.code == OP_NTCREATEX)
		o.open = op_open_bits(op);
	ps->nbatch += progcode_put(&o, &ps->last, ps->batch + ps->nbatch);
	ps->last = o;
	if (op->code == OP_READX || op->code == OP_WRITEX) {
		if (op->len > p->max_io)
			p->max_io = op->len;
		if (op->code == OP_READX)
			p->bytes_read += op->len;
		else
			p->bytes_written += op->len;
	}
	if (op->flags & OPF_SETSIZE) {
		/* the chunks the open writes with come from the same buffer */
		uint32_t chunk = op->off < SETSIZE_CHUNK ? (uint32_t)op->off : SETSIZE_CHUNK;
		if (chunk > p->max_io)
			p->max_io = chunk;
	}
	if ((op->flags & OPF_TIMED) && op->ts_ns)
		p->timed = 1;
	p->nops++;
	if (ps->nbatch > LF_BATCH - PROGCODE_MAX && lf_flush(ps) < 0)
		ps->io_failed = errno ? errno : EIO;
}
