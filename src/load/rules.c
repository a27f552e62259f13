/* kbench - the rules kbench load shares with kbench suite (rules.h)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * --warmup's default, --mem-limit's value and its floor, and which
 * loadfile kbench load reads: the one rule that turns -c NAME (or no -c)
 * into a path.  The shipped loadfiles are looked for where
 * $KBENCH_LOADFILE_DIR says, else in loadfiles/ beside the src/ directory
 * of a build tree this binary runs from, else in the installed data
 * directory.  No path of the build is compiled in: the binary finds its
 * build tree from /proc/self/exe, and the tests (an out-of-tree build
 * too) name the source tree's loadfiles/ in the variable.  Nothing is
 * opened here; a path that does not exist is returned as it is, and
 * opening it then fails with its name.
 */
#include "config.h"
#include "cli.h"
#include "load/rules.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define DEFAULT_LOADFILE "client.txt"

/* a fifth of the time limit */
double load_default_warmup_s(double timelimit_s)
{
	return timelimit_s / 5;
}

/* "none", or a size above 0 */
int load_mem_limit_parse(const char *text, uint64_t *bytes)
{
	if (strcmp(text, "none") == 0) {
		*bytes = 0;
		return 0;
	}
	if (cli_parse_size(text, bytes) < 0)
		return LOAD_MEM_LIMIT_BAD;
	return *bytes ? 0 : LOAD_MEM_LIMIT_ZERO;
}

uint64_t load_mem_floor(uint64_t nclients, unsigned per_proc, uint32_t max_io)
{
	uint64_t nprocs = (nclients + (per_proc ? per_proc : 1) - 1) / (per_proc ? per_proc : 1);
	return nprocs * LOAD_MEM_FLOOR_PER_PROC + nclients * max_io;
}

/* "dir/name", malloc'd; NULL when out of memory. */
static char *path_join(const char *dir, const char *name)
{
	size_t n = strlen(dir) + 1 + strlen(name) + 1;
	char *p = malloc(n);
	if (p)
		snprintf(p, n, "%s/%s", dir, name);
	return p;
}

/* When this binary is TOP/src/kbench (it runs from a build tree, not
 * installed) and TOP/loadfiles holds a readable client.txt: TOP/loadfiles
 * in dir (dirlen bytes), 1.  Else 0. */
static int build_tree_dir(char *dir, size_t dirlen)
{
	char exe[PATH_MAX], file[PATH_MAX + 64];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0)
		return 0;
	exe[n] = '\0';
	char *slash = strrchr(exe, '/');
	if (!slash)
		return 0;
	*slash = '\0';                   /* TOP/src */
	slash = strrchr(exe, '/');
	if (!slash || strcmp(slash + 1, "src") != 0)
		return 0;
	*slash = '\0';                   /* TOP */
	if ((size_t)snprintf(dir, dirlen, "%s/loadfiles", exe) >= dirlen ||
	    (size_t)snprintf(file, sizeof(file), "%s/" DEFAULT_LOADFILE, dir) >= sizeof(file))
		return 0;
	return access(file, R_OK) == 0;
}

/* The directory of the shipped loadfiles, in dir (dirlen bytes). */
static void shipped_dir(char *dir, size_t dirlen)
{
	const char *env = getenv("KBENCH_LOADFILE_DIR");
	if (env && *env)
		snprintf(dir, dirlen, "%s", env);
	else if (!build_tree_dir(dir, dirlen))
		snprintf(dir, dirlen, "%s", KBENCH_PKGDATADIR);
}

/* rules.h: the default, or NAME as given, or a shipped one by a bare name */
char *load_loadfile_path(const char *name)
{
	char dir[PATH_MAX];
	if (name && (strchr(name, '/') || access(name, F_OK) == 0))
		return strdup(name);
	shipped_dir(dir, sizeof(dir));
	if (!name)
		return path_join(dir, DEFAULT_LOADFILE);
	char *p = path_join(dir, name);
	if (p && access(p, R_OK) == 0)
		return p;
	free(p);
	return strdup(name);
}
