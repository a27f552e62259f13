/* kbench - import: what the readers share (words, numbers, uname lines)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Mail programs re-space and re-wrap the reports, so the readers work on
 * words, not on columns: these helpers split lines into words, read a
 * word as a number only when all of it is one, and read uname -a's line.
 */
#include "config.h"
#include "import/import.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

size_t imp_words(char *s, char **w, size_t max)
{
	size_t n = 0;
	while (*s && n < max) {
		while (*s && isspace((unsigned char)*s))
			*s++ = '\0';
		if (!*s)
			break;
		w[n++] = s;
		while (*s && !isspace((unsigned char)*s))
			s++;
	}
	if (*s)
		*s = '\0';
	return n;
}

void *imp_all_words(const char *s, char ***w, size_t *n)
{
	size_t len = strlen(s), max = len / 2 + 1;
	char **words = malloc(max * sizeof(char *) + len + 1);
	if (!words)
		return NULL;
	char *copy = (char *)(words + max);
	memcpy(copy, s, len + 1);
	*n = imp_words(copy, words, max);
	*w = words;
	return words;
}

/* Is s the decimal form: [sign] digits [. digits] [e [sign] digits]? */
static bool decimal_form(const char *s)
{
	size_t digits = 0;
	s += *s == '-' || *s == '+';
	for (; isdigit((unsigned char)*s); s++)
		digits++;
	if (*s == '.')
		for (s++; isdigit((unsigned char)*s); s++)
			digits++;
	if (!digits)
		return false;
	if (*s == 'e' || *s == 'E') {
		s++;
		s += *s == '-' || *s == '+';
		if (!isdigit((unsigned char)*s))
			return false;
		while (isdigit((unsigned char)*s))
			s++;
	}
	return !*s;
}

bool imp_number(const char *s, double *v)
{
	char *end;
	if (!decimal_form(s))
		return false;
	errno = 0;
	double x = strtod(s, &end);
	if (*end || errno == ERANGE || !isfinite(x))
		return false;
	*v = x;
	return true;
}

size_t imp_quote_len(const char *s)
{
	size_t i = 0, marks = 0;
	for (;;) {
		size_t b = i + strspn(s + i, " \t");
		if (!strchr(">|~", s[b]) || !s[b])
			break;
		/* "|| " joins a comparison's sides, "> 5" or "| 3.2" is a figure's
		 * cell: a mark followed by a digit, a sign or a second '|' is text */
		char next = s[b + 1];
		if (isdigit((unsigned char)next) || next == '-' || next == '+' ||
		    (s[b] == '|' && next == '|') || (s[b] == '>' && next == '='))
			break;
		i = b + 1;
		marks++;
	}
	if (!marks)
		return 0;
	return i + (s[i] == ' ' || s[i] == '\t');
}

void imp_trim_copy(char *dst, size_t n, const char *s, size_t len)
{
	while (len && isspace((unsigned char)*s)) {
		s++;
		len--;
	}
	while (len && isspace((unsigned char)s[len - 1]))
		len--;
	snprintf(dst, n, "%.*s", (int)len, s);
}

/* Is w a year as uname -v ends its date: 19xx or 20xx? */
static bool is_year(const char *w)
{
	return strlen(w) == 4 && (!strncmp(w, "19", 2) || !strncmp(w, "20", 2)) &&
	       isdigit((unsigned char)w[2]) && isdigit((unsigned char)w[3]);
}

int imp_uname(const char *s, struct imp_sys *sys)
{
	char copy[512], *w[40];
	snprintf(copy, sizeof(copy), "%s", s);
	size_t n = imp_words(copy, w, 40), y;
	if (n < 5 || strcmp(w[0], "Linux") || w[3][0] != '#')
		return -1;
	for (y = 4; y < n && !is_year(w[y]); y++)
		;
	if (y == n)
		return -1;
	snprintf(sys->host, sizeof(sys->host), "%s", w[1]);
	snprintf(sys->kernel, sizeof(sys->kernel), "%s", w[2]);
	sys->build[0] = '\0';
	for (size_t i = 3; i <= y; i++)
		snprintf(sys->build + strlen(sys->build), sizeof(sys->build) - strlen(sys->build),
			 "%s%s", i > 3 ? " " : "", w[i]);
	snprintf(sys->machine, sizeof(sys->machine), "%s", y + 1 < n ? w[y + 1] : "");
	return 0;
}
