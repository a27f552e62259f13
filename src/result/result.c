/* kbench - result documents (JSON), written atomically
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"
#include "cli.h"
#include "result/result.h"

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

int result_parent_dir(const char *path, char *out, size_t outsz)
{
	if (!outsz || strlen(path) >= outsz)
		return -1;
	snprintf(out, outsz, "%s", path);
	char *slash = strrchr(out, '/');
	if (!slash)
		snprintf(out, outsz, ".");
	else if (slash == out)
		out[1] = '\0';
	else
		*slash = '\0';
	return 0;
}

void result_time_now(char *buf, size_t n)
{
	time_t t = time(NULL);
	struct tm tm;
	gmtime_r(&t, &tm);
	if (!strftime(buf, n, "%Y-%m-%dT%H:%M:%SZ", &tm) && n)
		buf[0] = '\0';
}

json_t *result_new(const char *kind)
{
	char when[RESULT_TIME_LEN];
	result_time_now(when, sizeof(when));
	return json_pack("{s:s, s:s, s:s}", "kbench_version", PACKAGE_VERSION,
			 "kind", kind, "time", when);
}

static int write_tmp(json_t *doc, const char *path, char *tmp, size_t n, size_t flags,
		     char *err, size_t errlen);

int result_write(json_t *doc, const char *path, char *err, size_t errlen)
{
	const size_t flags = JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(10);
	if (strcmp(path, "-") == 0) {
		if (json_dumpf(doc, stdout, flags) < 0 || fputc('\n', stdout) == EOF ||
		    fflush(stdout) == EOF) {
			snprintf(err, errlen, "cannot write JSON to standard output");
			return -1;
		}
		return 0;
	}
	size_t n = strlen(path) + 16;
	char *tmp = malloc(n);
	if (!tmp) {
		snprintf(err, errlen, "%s: out of memory", path);
		return -1;
	}
	/* a stop signal that kills (kbench disk) waits until the file is
	 * whole or gone: no temporary file is left beside it */
	sigset_t stops, old;
	cli_stop_sigset(&stops);
	sigprocmask(SIG_BLOCK, &stops, &old);
	int rc = write_tmp(doc, path, tmp, n, flags, err, errlen);
	sigprocmask(SIG_SETMASK, &old, NULL);
	free(tmp);
	return rc;
}

/* result_write's file: doc into a new temporary file beside path (named
 * into tmp, n bytes), renamed to path.  Returns 0 or -1 with err set. */
static int write_tmp(json_t *doc, const char *path, char *tmp, size_t n, size_t flags,
		     char *err, size_t errlen)
{
	snprintf(tmp, n, "%s.tmpXXXXXX", path);
	int fd = mkstemp(tmp);
	if (fd < 0) {
		snprintf(err, errlen, "%s: cannot create: %s", path, strerror(errno));
		return -1;
	}
	FILE *f = fdopen(fd, "w");
	int ok = f && json_dumpf(doc, f, flags) == 0 && fputc('\n', f) != EOF &&
		 fflush(f) == 0 && fsync(fd) == 0;
	int e = errno;
	if (f)
		ok = (fclose(f) == 0) && ok;
	else
		close(fd);
	/* mkstemp makes 0600; a result file is ordinary data: 0666 less umask */
	if (ok) {
		mode_t mask = umask(0);
		umask(mask);
		chmod(tmp, 0666 & ~mask);
	}
	if (!ok || rename(tmp, path) < 0) {
		if (ok)
			e = errno;
		snprintf(err, errlen, "%s: cannot write: %s", path, strerror(e));
		unlink(tmp);
		return -1;
	}
	return 0;
}

static int refuse(const char *cmd, const char *opt, const char *json, const char *why,
		  const char *arg)
{
	fprintf(stderr, "%s: %s %s: %s%s\n", cmd, opt, json, why, arg ? arg : "");
	return 2;
}

/* Is the directory dir the directory top or below it?  Asked of the
 * directories themselves, not their names: the way up from dir ("..",
 * one step at a time, to the root) meets top's (device, inode), so a bind
 * mount of top elsewhere, a path through links or top "/" all count. */
static int within(const char *dir, const char *top)
{
	struct stat t, st, up;
	if (stat(top, &t) < 0)
		return 0;
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	for (int depth = 0; fd >= 0 && depth < PATH_MAX / 2; depth++) {
		if (fstat(fd, &st) < 0)
			break;
		if (st.st_dev == t.st_dev && st.st_ino == t.st_ino) {
			close(fd);
			return 1;
		}
		int ufd = openat(fd, "..", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		close(fd);
		fd = ufd;
		if (fd < 0 || fstat(fd, &up) < 0 || (up.st_dev == st.st_dev && up.st_ino == st.st_ino))
			break;  /* the root: its ".." is itself */
	}
	if (fd >= 0)
		close(fd);
	return 0;
}

int result_destination(const char *cmd, const char *opt, const char *json,
		       const char *const *keep, size_t nkeep, const char *inside, char *dest,
		       size_t destsz)
{
	struct stat st, lst;
	char parent[PATH_MAX];

	if (!strcmp(json, "-")) {
		snprintf(dest, destsz, "-");
		return 0;
	}
	if (!*json) {
		fprintf(stderr, "%s: %s needs a file name (see '%s --help')\n", cmd, opt, cmd);
		return 2;
	}
	snprintf(dest, destsz, "%s", json);
	/* kbench runs as root: a link someone else planted (in /tmp, say)
	 * must not make it replace the file the link names */
	if (lstat(json, &lst) == 0 && S_ISLNK(lst.st_mode))
		return refuse(cmd, opt, json, "a symbolic link, which kbench does not follow; "
			      "name the file itself", NULL);
	if (stat(dest, &st) == 0) {
		if (!S_ISREG(st.st_mode))
			return refuse(cmd, opt, json, "not a regular file; refusing to replace it", NULL);
		for (size_t i = 0; i < nkeep; i++) {
			struct stat k;
			if (keep[i] && stat(keep[i], &k) == 0 && k.st_dev == st.st_dev &&
			    k.st_ino == st.st_ino)
				return refuse(cmd, opt, json, "that is ", keep[i]);
		}
	}
	if (result_parent_dir(dest, parent, sizeof(parent)) < 0)
		return refuse(cmd, opt, json, "the path is too long", "");
	char probe[PATH_MAX + 32];
	snprintf(probe, sizeof(probe), "%s/.kbench-json.XXXXXX", parent);
	int pfd = mkstemp(probe);
	if (pfd < 0) {
		fprintf(stderr, "%s: %s %s: cannot write in %s: %s\n", cmd, opt, json, parent,
			strerror(errno));
		return 2;
	}
	close(pfd);
	unlink(probe);
	if (inside && within(parent, inside)) {
		fprintf(stderr, "%s: %s %s: inside the run directory %s, whose cleanup "
			"would remove it\n", cmd, opt, json, inside);
		return 2;
	}
	return 0;
}

int result_json_stdout(const char *json)
{
	return json && !strcmp(json, "-");
}

int result_write_json(const char *cmd, json_t *doc, const char *dest)
{
	char err[512];
	if (!doc || result_write(doc, dest, err, sizeof(err)) < 0) {
		fprintf(stderr, "%s: %s\n", cmd, doc ? err : "out of memory building JSON");
		return -1;
	}
	return 0;
}

bool result_replaceable(const char *path)
{
	struct stat st;
	if (stat(path, &st) < 0)
		return errno == ENOENT;
	if (S_ISREG(st.st_mode) && st.st_size == 0)
		return true;
	json_t *doc = json_load_file(path, 0, NULL);
	bool ours = json_is_string(json_object_get(doc, "kbench_version")) &&
		    json_is_string(json_object_get(doc, "kind"));
	json_decref(doc);
	return ours;
}
