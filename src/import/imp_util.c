/* kbench - import: what the readers share (words, numbers, uname lines)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Mail programs re-space and re-wrap the reports, so the readers work on
 * words, not on columns: these helpers split lines into words, read a
 * word as a number only when all of it is one, and read uname -a's line.
 */
#include "config.h"
#include "import/imp_util.h"
#include "import/imp_version.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

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

/* Supercite's mark (Emacs' mail modes): the quoted poster's initials,
 * one to four letters the first a capital, before '>' and then a blank or
 * the line's end (" ES> text"): its length up to and with the '>', or 0. */
static size_t initials_mark(const char *s)
{
	size_t n = 0;
	while (n < 5 && isalpha((unsigned char)s[n]))
		n++;
	if (!n || n > 4 || !isupper((unsigned char)s[0]) || s[n] != '>' ||
	    (s[n + 1] && s[n + 1] != ' ' && s[n + 1] != '\t'))
		return 0;
	return n + 1;
}

size_t imp_quote_len(const char *s)
{
	size_t i = 0, marks = 0;
	for (;;) {
		size_t b = i + strspn(s + i, " \t"), sc = initials_mark(s + b);
		if (sc) {  /* " ES> ": the initials are the mark */
			i = b + sc;
			marks++;
			continue;
		}
		if (!strchr(">|~:", s[b]) || !s[b])
			break;
		/* "|| " joins a comparison's sides, "> 5" or "| 3.2" is a figure's
		 * cell: a mark followed by a digit, a sign or a second '|' is text;
		 * ':' is a mark only before a blank, another mark or the end
		 * (":-)" and "::" are text) */
		char next = s[b + 1];
		if (isdigit((unsigned char)next) || next == '-' || next == '+' ||
		    (s[b] == '|' && next == '|') || (s[b] == '>' && next == '=') ||
		    (s[b] == ':' && next && !strchr(" \t>|~", next)))
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

bool imp_kernel_word(const char *s, char *out, size_t n)
{
	size_t len;
	s += strspn(s, "([<\"'");
	if (!strncasecmp(s, "linux-", 6))
		s += 6;
	else if (*s == 'v')
		s++;
	len = strlen(s);
	/* a closing ')' is punctuation, unless it ends "6.6.15(rc1)" */
	while (len && strchr(":,;.)]>\"'", s[len - 1]) &&
	       !(s[len - 1] == ')' && memchr(s, '(', len)))
		len--;
	if (len < 3 || len >= n || !isdigit((unsigned char)s[0]) || s[1] != '.' ||
	    !isdigit((unsigned char)s[2]))
		return false;
	size_t i = 2 + strspn(s + 2, "0123456789");
	bool third = s[i] == '.' && isdigit((unsigned char)s[i + 1]);
	bool suffix = s[i] == '-' && isalpha((unsigned char)s[i + 1]);
	if (!(third || suffix) || i > 4)
		return false;
	for (size_t j = i; j < len; j++)
		if (!isalnum((unsigned char)s[j]) && !strchr(".-_+~()", s[j]))
			return false;
	snprintf(out, n, "%.*s", (int)len, s);
	return true;
}

/* A list marker before a heading: "1)", "2.", "(a)", "#3", "-". */
static bool enumerator(const char *w)
{
	size_t len = strlen(w);
	return (len <= 4 && (w[len - 1] == ')' || w[len - 1] == '.' || w[0] == '#') &&
		strspn(w, "(#0123456789abcdef).") == len) || !strcmp(w, "-") || !strcmp(w, "*");
}

/* Is w[i] a client count after a tool's name ("dbench 32, 128"): a
 * number, with the numbers before it, right after dbench or tbench? */
static bool tool_count(char *const *w, size_t i)
{
	double v;
	char num[32];
	for (size_t j = i + 1; j-- > 0;) {
		const char *b = strrchr(w[j], '/') ? strrchr(w[j], '/') + 1 : w[j];
		if (j < i && (!strcmp(b, "dbench") || !strcmp(b, "tbench")))
			return true;
		snprintf(num, sizeof(num), "%.*s", (int)strcspn(w[j], ","), w[j]);
		if (!imp_number(num, &v))
			return false;
	}
	return false;
}

bool imp_kernel_line(const char *l, struct imp_sys *sys)
{
	char copy[512], *w[16], kernel[160] = "";
	double v;
	struct imp_sys u = { 0 };
	if (imp_uname(l, &u) == 0) {
		*sys = u;
		return true;
	}
	if (strlen(l) >= sizeof(copy))
		return false;
	snprintf(copy, sizeof(copy), "%s", l);
	size_t n = imp_words(copy, w, 16), found = 0, named = 0;
	bool figures = false;
	for (size_t i = 0; i < n; i++) {
		char k[160];
		if (imp_kernel_word(w[i], k, sizeof(k)) && imp_version_owned(w, i)) {
			continue;  /* "reiserfs 3.6.25": a filesystem's version, no kernel */
		} else if (imp_kernel_word(w[i], k, sizeof(k))) {
			found++;
			snprintf(kernel, sizeof(kernel), "%s", k);
			/* "kernel 2.4.20", "Linux 2.4.20": named as a kernel */
			named += i && (!strcasecmp(w[i - 1], "kernel") || !strcasecmp(w[i - 1], "linux"));
		} else if ((i || !enumerator(w[i])) && imp_number(w[i], &v) && !tool_count(w, i)) {
			figures = true;  /* a client count after "dbench" is none */
		}
	}
	/* a short line of one version and no figure, or any line that says
	 * "kernel X" once and names no other version */
	if (found != 1 || (named != 1 && (figures || n > 12)))
		return false;
	memset(sys, 0, sizeof(*sys));
	snprintf(sys->kernel, sizeof(sys->kernel), "%s", kernel);
	return true;
}

size_t imp_kernels_named(const char *l, char *list, size_t n)
{
	char copy[512], *w[16], seen[4][160];
	double v;
	size_t nw, found = 0;
	list[0] = '\0';
	if (strlen(l) >= sizeof(copy))
		return 0;
	snprintf(copy, sizeof(copy), "%s", l);
	nw = imp_words(copy, w, 16);
	if (!nw || nw > 12)
		return 0;
	for (size_t i = 0; i < nw; i++) {
		char k[160];
		bool dup = false;
		if (imp_kernel_word(w[i], k, sizeof(k)) && imp_version_owned(w, i))
			continue;
		if (!imp_kernel_word(w[i], k, sizeof(k))) {
			if ((i || !enumerator(w[i])) && imp_number(w[i], &v))
				return 0;
			continue;
		}
		for (size_t j = 0; j < found && j < 4; j++)
			dup |= !strcmp(seen[j], k);
		if (dup)
			continue;
		if (found < 4) {
			snprintf(seen[found], sizeof(seen[found]), "%s", k);
			snprintf(list + strlen(list), n - strlen(list), "%s%s", found ? ", " : "", k);
		}
		found++;
	}
	return found;
}

bool imp_heading_line(const char *l, char *out, size_t n)
{
	char copy[200], *w[8];
	double v;
	size_t len = strlen(l), lead = strspn(l, "=-#"), trail = 0;
	while (trail < len && strchr("=-#", l[len - 1 - trail]))
		trail++;
	bool ruled = lead >= 3 && trail >= 3 && lead + trail < len;
	/* a lone "before", "after", "vanilla" ... heads its block without a colon */
	static const char *const alone[] = { "before", "after", "baseline", "vanilla", "stock",
					     "patched", "unpatched" };
	for (size_t i = 0; !ruled && i < sizeof(alone) / sizeof(alone[0]); i++)
		if (!strcasecmp(l, alone[i]) && strlen(l) < n) {
			snprintf(out, n, "%s", l);
			return true;
		}
	if (!ruled && (!len || l[len - 1] != ':'))
		return false;
	if (ruled)
		imp_trim_copy(copy, sizeof(copy), l + lead, len - lead - trail);
	else
		imp_trim_copy(copy, sizeof(copy), l, len - 1);
	if (!copy[0] || strlen(copy) >= n)
		return false;
	snprintf(out, n, "%s", copy);
	size_t nw = imp_words(copy, w, 8);
	if (!nw || nw > 6)
		return false;
	/* "Andrew wrote:" introduces a quote, not a block of runs */
	static const char *const says[] = { "wrote", "writes", "said", "says" };
	for (size_t i = 0; !ruled && i < sizeof(says) / sizeof(says[0]); i++)
		if (!strcmp(w[nw - 1], says[i]))
			return false;
	for (size_t i = 0; i < nw; i++)
		if (imp_number(w[i], &v) || strchr(w[i], ':'))
			return false;
	return true;
}

bool imp_byte_unit(const char *w)
{
	return !strcmp(w, "lps") || !strcmp(w, "lpm") || !strcmp(w, "KBps") ||
	       !strcmp(w, "MWIPS") || !strcmp(w, "KWIPS");
}
