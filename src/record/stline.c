/* kbench - one line of an `strace -f -ttt -yy` log, taken apart
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The forms are strace's (strace(1), OUTPUT FORMAT): an optional pid
 * ("1234 " with -o, "[pid  1234] " on standard error), the time as
 * seconds.microseconds, then a call, a resumption, a signal or an exit.
 * A quoted string escapes '"', '\\' and unprintable bytes (\n, \t, octal
 * \NNN or, with -x, \xHH); -yy's fd path escapes '>' the same way, so an
 * fd's path ends at the first '>' that is not escaped.
 */
#include "config.h"
#include "record/stline.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *skip_blanks(char *p)
{
	while (*p == ' ' || *p == '\t')
		p++;
	return p;
}

/* The pid and the time at the start of a line; *p moves past them. */
static int parse_head(char **p, struct st_line *l)
{
	char *s = *p, *e;
	l->pid = 0;
	if (!strncmp(s, "[pid", 4)) {
		l->pid = strtol(s + 4, &e, 10);
		if (e == s + 4 || *e != ']')
			return -1;
		s = skip_blanks(e + 1);
	}
	/* "PID SECONDS.USEC" or "SECONDS.USEC": a first number with no '.'
	 * followed by another is the pid */
	long v = strtol(s, &e, 10);
	if (e != s && (*e == ' ' || *e == '\t') && !l->pid) {
		char *n = skip_blanks(e);
		if (*n >= '0' && *n <= '9') {
			l->pid = v;
			s = n;
		}
	}
	l->t = strtod(s, &e);
	if (e == s || !memchr(s, '.', (size_t)(e - s)) || (*e != ' ' && *e != '\t'))
		return -1;  /* no -ttt time */
	*p = skip_blanks(e);
	return 0;
}

/* Past a quoted string starting at p (on its '"'); NULL if unterminated. */
static char *skip_quoted(char *p)
{
	for (p++; *p; p++) {
		if (*p == '\\' && p[1])
			p++;
		else if (*p == '"')
			return p + 1;
	}
	return NULL;
}

/* Split the arguments of "args) = ret" at top-level commas, ending at the
 * ')' that closes the call.  Returns a pointer past that ')' or NULL. */
static char *split_args(char *p, struct st_line *l)
{
	int depth = 0;
	char *start = skip_blanks(p);
	l->nargs = 0;
	for (; *p; p++) {
		char c = *p;
		if (c == '"') {
			char *q = skip_quoted(p);
			if (!q)
				return NULL;
			p = q - 1;
		} else if (c == '<' && p > start && ((p[-1] >= '0' && p[-1] <= '9') || p[-1] == 'D')) {
			/* an fd's path: to the first '>' not escaped */
			while (*p && *p != '>')
				p++;
			if (!*p)
				return NULL;
		} else if (c == '{' || c == '[' || c == '(') {
			depth++;
		} else if (c == '}' || c == ']' || (c == ')' && depth > 0)) {
			depth--;
		} else if ((c == ',' || c == ')') && depth == 0) {
			char *end = p;
			while (end > start && (end[-1] == ' ' || end[-1] == '\t'))
				end--;
			*end = '\0';
			if (*start && l->nargs < ST_MAX_ARGS)
				l->arg[l->nargs++] = start;
			if (c == ')')
				return p + 1;
			start = skip_blanks(p + 1);
			p = start - 1;
		}
	}
	return NULL;
}

/* "= N", "= 3</path>", "= -1 ENOENT (...)", "= ?", "= 0x7f..." */
static int parse_ret(char *p, struct st_line *l)
{
	p = skip_blanks(p);
	if (*p != '=')
		return -1;
	p = skip_blanks(p + 1);
	l->has_ret = 0;
	l->ret_path = NULL;
	l->err = NULL;
	if (*p == '?')
		return 0;
	char *e;
	l->ret = strtoll(p, &e, 0);
	if (e == p)
		return -1;
	l->has_ret = 1;
	if (*e == '<') {
		char *q = strchr(e + 1, '>');
		if (!q)
			return -1;
		*q = '\0';
		l->ret_path = e + 1;
	} else if (l->ret < 0) {
		char *n = skip_blanks(e);
		if (*n == 'E') {
			l->err = n;
			while (*n && *n != ' ')
				n++;
			*n = '\0';
		}
	}
	return 0;
}

int st_parse(char *line, struct st_line *l, const char **why)
{
	char *p = line;
	memset(l, 0, sizeof(*l));
	if (parse_head(&p, l) < 0) {
		*why = "no pid and -ttt time at its start";
		return -1;
	}
	if (!strncmp(p, "+++ ", 4)) {
		l->kind = ST_EXIT;
		return 0;
	}
	if (!strncmp(p, "--- ", 4)) {
		l->kind = ST_SIGNAL;
		return 0;
	}
	if (!strncmp(p, "<... ", 5)) {
		char *r = strstr(p + 5, " resumed>");
		if (!r) {
			*why = "'<...' without 'resumed>'";
			return -1;
		}
		*r = '\0';
		l->kind = ST_RESUMED;
		l->name = p + 5;
		l->rest = r + 9;
		return 0;
	}
	char *paren = p;
	while ((*paren >= 'a' && *paren <= 'z') || (*paren >= '0' && *paren <= '9') || *paren == '_')
		paren++;
	if (paren == p || *paren != '(') {
		*why = "no system call after the time";
		return -1;
	}
	*paren = '\0';
	l->name = p;
	char *unf = strstr(paren + 1, " <unfinished ...>");
	if (unf) {
		*unf = '\0';
		l->kind = ST_UNFINISHED;
		l->rest = paren + 1;
		return 0;
	}
	char *after = split_args(paren + 1, l);
	if (!after || parse_ret(after, l) < 0) {
		*why = "a call without its arguments and '= result'";
		return -1;
	}
	l->kind = ST_CALL;
	return 0;
}

int st_join(char *out, size_t outsz, long pid, double t, const char *name,
	    const char *start, const char *rest)
{
	int n = snprintf(out, outsz, "%ld %.6f %s(%s%s", pid, t, name, start, rest);
	return n < 0 || (size_t)n >= outsz ? -1 : 0;
}

/* Decode strace's escapes from s up to the byte end (exclusive, or the
 * NUL when end is NULL) into out.  Returns 0 or -1. */
static int unescape(const char *s, const char *end, char *out, size_t outsz)
{
	size_t k = 0;
	while (*s && s != end) {
		char c = *s++;
		if (c == '\\') {
			char e = *s++;
			switch (e) {
			case 'n': c = '\n'; break;
			case 't': c = '\t'; break;
			case 'r': c = '\r'; break;
			case 'v': c = '\v'; break;
			case 'f': c = '\f'; break;
			case '\\': case '"': case '\'': case '>': case '<': c = e; break;
			case 'x': {
				int v = 0, d = 0;
				while (d < 2 && strchr("0123456789abcdefABCDEF", *s) && *s) {
					v = v * 16 + (*s <= '9' ? *s - '0' : (*s | 0x20) - 'a' + 10);
					s++, d++;
				}
				if (!d)
					return -1;
				c = (char)v;
				break;
			}
			default:
				if (e >= '0' && e <= '7') {
					int v = e - '0', d = 1;
					while (d < 3 && *s >= '0' && *s <= '7')
						v = v * 8 + (*s++ - '0'), d++;
					c = (char)v;
				} else {
					return -1;
				}
			}
		}
		if (k + 1 >= outsz)
			return -1;
		out[k++] = c;
	}
	out[k] = '\0';
	return 0;
}

int st_string(const char *arg, char *out, size_t outsz)
{
	if (arg[0] != '"')
		return -1;
	const char *end = skip_quoted((char *)arg);
	if (!end || (end[0] && strcmp(end, "...")))
		return -1;
	return unescape(arg + 1, end - 1, out, outsz);
}

int st_fd(const char *arg, int *fd, char *out, size_t outsz)
{
	char *e;
	if (!strncmp(arg, "AT_FDCWD", 8)) {
		*fd = -100;
		e = (char *)arg + 8;
	} else {
		long v = strtol(arg, &e, 10);
		if (e == arg || v < 0 || v > ST_FD_MAX)
			return -1;
		*fd = (int)v;
	}
	out[0] = '\0';
	if (!*e)
		return 0;
	if (*e != '<')
		return -1;
	const char *q = strchr(e + 1, '>');
	if (!q)
		return -1;
	return unescape(e + 1, q, out, outsz);
}
