/* kbench - text from results files shown safely on a terminal
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * One rule (esc_next()) decides, character by character, what is
 * printed; the entry points only differ in where it goes.
 */
#include "config.h"
#include "resultsfile/escape.h"

#include <string.h>

/* Bytes of the valid UTF-8 character at s (2 to 4), or 0 (RFC 3629: no
 * overlong forms, no surrogates, nothing above U+10FFFF). */
static size_t utf8_len(const unsigned char *s)
{
	unsigned char c = s[0], lo = 0x80, hi = 0xbf;
	size_t n;
	if (c >= 0xc2 && c <= 0xdf)
		n = 2;
	else if (c >= 0xe0 && c <= 0xef)
		n = 3;
	else if (c >= 0xf0 && c <= 0xf4)
		n = 4;
	else
		return 0;
	if (c == 0xe0)
		lo = 0xa0;
	else if (c == 0xed)
		hi = 0x9f;
	else if (c == 0xf0)
		lo = 0x90;
	else if (c == 0xf4)
		hi = 0x8f;
	if (s[1] < lo || s[1] > hi)
		return 0;
	for (size_t i = 2; i < n; i++)
		if (s[i] < 0x80 || s[i] > 0xbf)
			return 0;
	return n;
}

size_t esc_next(const char *str, char out[8], size_t *used)
{
	const unsigned char *s = (const unsigned char *)str;
	static const char hex[] = "0123456789abcdef";
	if (*s >= 0x20 && *s < 0x7f) {
		out[0] = (char)*s;
		*used = 1;
		return 1;
	}
	size_t n = *s >= 0x80 ? utf8_len(s) : 0;
	if (n == 2 && s[0] == 0xc2 && s[1] <= 0x9f) {
		memcpy(out, "\\u0080", 7);
		out[4] = hex[s[1] >> 4 & 0xf];
		out[5] = hex[s[1] & 0xf];
		*used = 2;
		return 6;
	}
	if (n) {
		memcpy(out, s, n);
		*used = n;
		return n;
	}
	out[0] = '\\';
	out[1] = 'x';
	out[2] = hex[*s >> 4];
	out[3] = hex[*s & 0xf];
	*used = 1;
	return 4;
}

/* s escaped, written to f unless f is NULL; returns its length in bytes */
static size_t put(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "");
	size_t len = 0, used;
	char out[8];
	while (*p) {
		size_t k = esc_next((const char *)p, out, &used);
		if (f)
			fwrite(out, 1, k, f);
		len += k;
		p += used;
	}
	return len;
}

size_t esc_len(const char *s)
{
	return put(NULL, s);
}

size_t esc_put(FILE *f, const char *s, size_t width)
{
	size_t len = put(f, s);
	for (size_t i = len; i < width; i++)
		fputc(' ', f);
	return len;
}

char *esc_str(char *buf, size_t n, const char *s)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "");
	size_t len = 0, used, room;
	char out[8];
	if (!n)
		return buf;
	int cut = esc_len(s) + 1 > n;
	/* cut short: whole characters, then "..." when there is room for it */
	room = cut && n >= 4 ? n - 4 : n - 1;
	while (*p) {
		size_t k = esc_next((const char *)p, out, &used);
		if (len + k > room)
			break;
		memcpy(buf + len, out, k);
		len += k;
		p += used;
	}
	if (cut && n >= 4) {
		memcpy(buf + len, "...", 3);
		len += 3;
	}
	buf[len] = '\0';
	return buf;
}
