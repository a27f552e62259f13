/* kbench - which loadfile kbench load reads: the default and bare names
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The one rule, shared with kbench suite (load.h), that turns -c NAME (or
 * no -c) into a path.  Nothing is opened here; a path that does not exist
 * is returned as it is, and opening it then fails with its name.
 */
#include "config.h"
#include "load/load.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Where the shipped loadfile is: beside the binary in a build tree, the
 * source tree of this build, then the installed data directory. */
static char *default_loadfile(void)
{
	char exe[PATH_MAX], buf[PATH_MAX + 64];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n > 0) {
		exe[n] = '\0';
		char *slash = strrchr(exe, '/');
		if (slash) {
			*slash = '\0';
			if (strcmp(exe, KBENCH_BUILDDIR "/src") == 0) {
				/* running from the build tree, not installed */
				snprintf(buf, sizeof(buf), "%s/loadfiles/client.txt", KBENCH_BUILDDIR);
				if (access(buf, R_OK) == 0)
					return strdup(buf);
				snprintf(buf, sizeof(buf), "%s/loadfiles/client.txt", KBENCH_SRCDIR);
				if (access(buf, R_OK) == 0)
					return strdup(buf);
			}
		}
	}
	return strdup(KBENCH_PKGDATADIR "/client.txt");
}

/* load.h: the default, or NAME as given, or a shipped one by a bare name */
char *load_loadfile_path(const char *name)
{
	if (!name)
		return default_loadfile();
	if (strchr(name, '/') || access(name, F_OK) == 0)
		return strdup(name);
	char *def = default_loadfile();
	char *slash = def ? strrchr(def, '/') : NULL;
	if (slash) {
		size_t n = (size_t)(slash - def) + 1 + strlen(name) + 1;
		char *p = malloc(n);
		if (p) {
			snprintf(p, n, "%.*s/%s", (int)(slash - def), def, name);
			if (access(p, R_OK) == 0) {
				free(def);
				return p;
			}
			free(p);
		}
	}
	free(def);
	return strdup(name);
}
