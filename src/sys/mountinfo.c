/* kbench - /proc/self/mountinfo: one parser for every reader of it
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"
#include "sys/mountinfo.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Copy one field of n bytes, undoing the kernel's \ooo escapes. */
static int unescape_field(const char *s, size_t n, char *out, size_t len)
{
	size_t o = 0;
	for (size_t i = 0; i < n; i++) {
		char c = s[i];
		if (c == '\\' && i + 3 < n && s[i + 1] >= '0' && s[i + 1] <= '3' &&
		    s[i + 2] >= '0' && s[i + 2] <= '7' && s[i + 3] >= '0' && s[i + 3] <= '7') {
			c = (char)((s[i + 1] - '0') * 64 + (s[i + 2] - '0') * 8 + (s[i + 3] - '0'));
			i += 3;
		}
		if (o + 1 >= len)
			return -1;
		out[o++] = c;
	}
	out[o] = '\0';
	return 0;
}

int mountinfo_parse_line(const char *line, struct mountinfo *m)
{
	const char *f[64];
	size_t fl[64];
	unsigned n = 0;
	const char *p = line;
	while (*p && *p != '\n') {
		while (*p == ' ')
			p++;
		if (!*p || *p == '\n')
			break;
		if (n == 64)
			return -1;
		f[n] = p;
		while (*p && *p != ' ' && *p != '\n')
			p++;
		fl[n] = (size_t)(p - f[n]);
		n++;
	}
	unsigned dash = 0;
	for (unsigned i = 6; i < n; i++)
		if (fl[i] == 1 && f[i][0] == '-') {
			dash = i;
			break;
		}
	if (!dash || dash + 3 >= n)
		return -1;
	if (unescape_field(f[3], fl[3], m->root, sizeof(m->root)) < 0 ||
	    unescape_field(f[4], fl[4], m->point, sizeof(m->point)) < 0 ||
	    unescape_field(f[5], fl[5], m->opts, sizeof(m->opts)) < 0 ||
	    unescape_field(f[dash + 1], fl[dash + 1], m->fstype, sizeof(m->fstype)) < 0 ||
	    unescape_field(f[dash + 2], fl[dash + 2], m->source, sizeof(m->source)) < 0 ||
	    unescape_field(f[dash + 3], fl[dash + 3], m->super_opts, sizeof(m->super_opts)) < 0)
		return -1;
	return 0;
}

/* Is path at or below the mount point mnt? */
static int under(const char *path, const char *mnt)
{
	size_t n = strlen(mnt);
	if (strcmp(mnt, "/") == 0)
		return 1;
	return strncmp(path, mnt, n) == 0 && (path[n] == '/' || path[n] == '\0');
}

int mountinfo_find(const char *dir, struct mountinfo *m)
{
	char real[PATH_MAX];
	if (!realpath(dir, real))
		return -1;
	FILE *f = fopen("/proc/self/mountinfo", "re");
	if (!f)
		return -1;
	struct mountinfo *cur = malloc(sizeof(*cur));
	char *line = NULL;
	size_t cap = 0, best = 0;
	int found = 0;
	while (cur && getline(&line, &cap, f) > 0) {
		if (mountinfo_parse_line(line, cur) < 0 || !under(real, cur->point))
			continue;
		size_t n = strlen(cur->point);
		if (n >= best) {  /* a later mount on the same point hides an earlier one */
			best = n;
			*m = *cur;
			found = 1;
		}
	}
	int e = cur ? ENOENT : ENOMEM;
	free(cur);
	free(line);
	fclose(f);
	if (!found) {
		errno = e;
		return -1;
	}
	return 0;
}
