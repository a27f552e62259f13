/* kbench - suite: the results file of a series, its lock, the temporary
 * directory beside it, and --resume
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Where a series writes (resfile.h): the results file passes every check
 * a --json FILE passes and is locked for the whole series (lock.h); the
 * children's documents go to a temporary directory beside it, and those
 * of suites killed outright are swept.  --resume locks the file before
 * reading it, and takes nothing from it that a terminal would act on.
 */
#include "config.h"
#include "cli.h"
#include "load/load.h"
#include "result/result.h"
#include "result/sysinfo.h"
#include "resultsfile/escape.h"
#include "suite/opts.h"
#include "suite/resfile.h"
#include "suite/plan.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

void resfile_default_path(struct suite *s)
{
	char when[32], real_host[65] = "host", rel[65] = "kernel";
	struct kb_sysinfo si;
	sysinfo_collect(&si, NULL);
	if (si.kernel[0])
		snprintf(rel, sizeof(rel), "%s", si.kernel);
	if (si.hostname[0])
		snprintf(real_host, sizeof(real_host), "%s", si.hostname);
	time_t t = time(NULL);
	struct tm tm;
	localtime_r(&t, &tm);
	strftime(when, sizeof(when), "%Y%m%d-%H%M%S", &tm);
	for (char *p = rel; *p; p++)
		if (*p == '/')
			*p = '_';
	snprintf(s->path, sizeof(s->path), "kbench-%s-%s-%s.json", rel, real_host, when);
}

/* Remove the temporary directories .kbench-suite.PID.XXXXXX in dir of
 * suites that were killed outright (PID no longer a process), with the
 * three files a suite keeps there; anything else in one keeps it. */
static void sweep_tmp(const struct suite *s, const char *dir)
{
	static const char *const files[] = { "run.json", "run.err", "run.out" };
	const char *prefix = ".kbench-suite.";
	DIR *d = opendir(dir);
	struct dirent *e;
	while (d && (e = readdir(d))) {
		char *end, path[NAME_MAX + 16];
		if (strncmp(e->d_name, prefix, strlen(prefix)))
			continue;
		const char *num = e->d_name + strlen(prefix);
		errno = 0;
		long pid = strtol(num, &end, 10);
		if (end == num || *end != '.' || errno || pid <= 0 || (pid_t)pid != pid ||
		    kill((pid_t)pid, 0) == 0 || errno != ESRCH)
			continue;
		for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
			snprintf(path, sizeof(path), "%s/%s", e->d_name, files[i]);
			unlinkat(dirfd(d), path, 0);
		}
		if (unlinkat(dirfd(d), e->d_name, AT_REMOVEDIR) == 0) {
			fprintf(stderr, "%s: removed ", s->cmd);
			esc_put(stderr, dir, 0);
			fputc('/', stderr);
			esc_put(stderr, e->d_name, 0);
			fprintf(stderr, ", left by a kbench suite that was killed\n");
		}
	}
	if (d)
		closedir(d);
}

/* Would kbench load take the results file path for the loadfile -c
 * NAME once it exists?  A bare NAME is looked for in the current
 * directory first (load/rules.h), so the first save would change which file
 * the next run and a later --resume replay. */
static bool shadows_loadfile(const char *loadfile, const char *path)
{
	char parent[PATH_MAX], rparent[PATH_MAX], here[PATH_MAX];
	const char *base = strrchr(path, '/');
	if (!loadfile || strchr(loadfile, '/'))
		return false;
	base = base ? base + 1 : path;
	return !strcmp(base, loadfile) && result_parent_dir(path, parent, sizeof(parent)) == 0 &&
	       realpath(parent, rparent) && getcwd(here, sizeof(here)) && !strcmp(rparent, here);
}

/* Lock s->path into *lock (lock.h); when that is refused, one line
 * "CMD: OPT FILE: reason" (shown: FILE escaped).  Returns 0 or
 * KB_EXIT_USAGE. */
static int take_lock(const struct suite *s, const char *opt, const char *shown,
		     struct results_lock *lock)
{
	char why[PATH_MAX + 200];
	if (results_lock(s->path, lock, why, sizeof(why)) == 0)
		return 0;
	fprintf(stderr, "%s: %s %s: ", s->cmd, opt, shown);
	esc_put(stderr, why, 0);
	fputc('\n', stderr);
	return KB_EXIT_USAGE;
}

/* The results file passes the check every --json FILE passes
 * (result_destination: a new or regular file, a link followed to its
 * target, not the loadfile kbench load will read (load/rules.h: the default or
 * a bare name found where load finds it) or the disk, not inside DIR,
 * whose load cleanup removes what it did not find there); it is locked
 * (lock.h) unless --resume locked it already; its directory must take a
 * temporary directory for the children's documents.  Returns 0 or
 * KB_EXIT_USAGE. */
int resfile_prepare(struct suite *s, struct results_lock *lock)
{
	char parent[PATH_MAX], rparent[PATH_MAX], dest[PATH_MAX], why[PATH_MAX + 200], shown[300];
	if (!strcmp(s->path, "-")) {
		fprintf(stderr, "%s: -o -: the results file is rewritten after every run; "
			"give a file name\n", s->cmd);
		return KB_EXIT_USAGE;
	}
	s->loadfile_path = load_loadfile_path(s->loadfile);
	if (!s->loadfile_path) {
		fprintf(stderr, "%s: out of memory\n", s->cmd);
		return KB_EXIT_USAGE;
	}
	const char *keep[] = { s->loadfile_path, s->disk };
	if (result_destination(s->cmd, "-o", s->path, keep, 2, s->dir, dest, sizeof(dest)))
		return KB_EXIT_USAGE;
	esc_str(shown, sizeof(shown), s->path);
	if (shadows_loadfile(s->loadfile, s->path)) {
		fprintf(stderr, "%s: -o %s: kbench load would take it for the loadfile -c %s (a "
			"bare name is looked for here first); name the results file otherwise\n",
			s->cmd, shown, esc_str(why, sizeof(why), s->loadfile));
		return KB_EXIT_USAGE;
	}
	snprintf(s->path, sizeof(s->path), "%s", dest);
	if (lock->fd < 0 && take_lock(s, "-o", shown, lock))
		return KB_EXIT_USAGE;
	errno = 0;
	if (result_parent_dir(s->path, parent, sizeof(parent)) < 0 || !realpath(parent, rparent)) {
		fprintf(stderr, "%s: %s: %s\n", s->cmd, shown,
			errno ? strerror(errno) : strerror(ENAMETOOLONG));
		return KB_EXIT_USAGE;
	}
	sweep_tmp(s, rparent);
	snprintf(s->tmpdir, sizeof(s->tmpdir), "%s/.kbench-suite.%ld.XXXXXX", rparent,
		 (long)getpid());
	if (!mkdtemp(s->tmpdir)) {
		fprintf(stderr, "%s: cannot make a temporary directory in %s: %s\n", s->cmd,
			esc_str(shown, sizeof(shown), rparent), strerror(errno));
		s->tmpdir[0] = '\0';
		return KB_EXIT_USAGE;
	}
	snprintf(s->child_json, sizeof(s->child_json), "%s/run.json", s->tmpdir);
	snprintf(s->child_log, sizeof(s->child_log), "%s/run.err", s->tmpdir);
	snprintf(s->child_out, sizeof(s->child_out), "%s/run.out", s->tmpdir);
	return 0;
}

void resfile_remove_tmp(struct suite *s)
{
	if (!s->tmpdir[0])
		return;
	unlink(s->child_json);
	unlink(s->child_log);
	unlink(s->child_out);
	rmdir(s->tmpdir);
	s->tmpdir[0] = '\0';
}

/* --resume FILE: locked (lock.h) before it is read, so no other writer
 * can change it between this read and the series' first write; the
 * document, its command line and its directory. */
static int open_resume(struct suite *s, const char *file, struct results_lock *lock,
		       struct suitefile *sf, int *argc, const char ***argv)
{
	char shown[300];
	esc_str(shown, sizeof(shown), file);
	struct stat st;
	if (!realpath(file, s->path) || stat(s->path, &st) < 0) {
		fprintf(stderr, "%s: %s: %s\n", s->cmd, shown, strerror(errno));
		return KB_EXIT_USAGE;
	}
	if (!S_ISREG(st.st_mode)) {
		fprintf(stderr, "%s: %s: %s\n", s->cmd, shown, S_ISDIR(st.st_mode) ?
			strerror(EISDIR) : "not a regular file");
		return KB_EXIT_USAGE;
	}
	if (take_lock(s, "--resume", shown, lock))
		return KB_EXIT_USAGE;
	int rc = suitefile_load(s->cmd, file, false, sf);
	if (rc)
		return rc;
	json_t *cmdline = json_object_get(sf->doc, "command");
	const char *cwd = json_string_value(json_object_get(sf->doc, "cwd"));
	if (json_is_true(json_object_get(sf->doc, "finished"))) {
		fprintf(stderr, "%s: %s: this suite is finished; nothing to resume\n", s->cmd, shown);
		return KB_EXIT_USAGE;
	}
	if (!json_is_array(cmdline) || json_array_size(cmdline) < 2 || !cwd ||
	    !json_is_object(json_object_get(sf->doc, "done")) ||
	    !json_is_array(json_object_get(sf->doc, "failures"))) {
		fprintf(stderr, "%s: %s: no command line, directory or progress recorded: "
			"cannot resume it\n", s->cmd, shown);
		return KB_EXIT_USAGE;
	}
	/* its words reach messages (jobs.c) and children as they are: none may
	 * hold what a terminal would act on (escape.h) */
	for (size_t i = 0; i < json_array_size(cmdline) + 1; i++) {
		const char *w = i ? json_string_value(json_array_get(cmdline, i - 1)) : cwd;
		if (w && esc_len(w) != strlen(w)) {
			char word[300];
			fprintf(stderr, "%s: %s: its stored %s holds a control character or invalid "
				"UTF-8 ('%s'): cannot resume it\n", s->cmd, shown,
				i ? "command line" : "directory", esc_str(word, sizeof(word), w));
			return KB_EXIT_USAGE;
		}
	}
	/* kbench keeps no password: the stored --smb-user has X's for it */
	for (size_t i = 0; i < json_array_size(cmdline); i++) {
		const char *w = json_string_value(json_array_get(cmdline, i));
		if (w && (!strcmp(w, "--smb-user") || !strncmp(w, "--smb-user=", 11))) {
			fprintf(stderr, "%s: %s: this series logged in with --smb-user, whose "
				"password kbench does not store: cannot resume it (--smb-user-file "
				"makes a series that can be resumed)\n", s->cmd, shown);
			return KB_EXIT_USAGE;
		}
	}
	if (chdir(cwd) < 0) {
		char dir[300];
		fprintf(stderr, "%s: %s: cannot return to the suite's directory %s: %s\n", s->cmd,
			shown, esc_str(dir, sizeof(dir), cwd), strerror(errno));
		return KB_EXIT_USAGE;
	}
	size_t n = json_array_size(cmdline);
	const char **av = calloc(n, sizeof(*av));
	if (!av)
		return KB_EXIT_FAIL;
	av[0] = s->cmd;
	for (size_t i = 2; i < n; i++) {
		av[i - 1] = json_string_value(json_array_get(cmdline, i));
		if (!av[i - 1]) {
			free(av);
			fprintf(stderr, "%s: %s: a command-line word is not a string\n", s->cmd, shown);
			return KB_EXIT_USAGE;
		}
	}
	*argc = (int)n - 1;
	*argv = av;
	return 0;
}

/* --resume FILE: the series of FILE's stored command line, carried on
 * into FILE (locked), with the document read from it.  Returns 0 or an
 * exit status after one line. */
int resfile_resume(struct suite *s, struct results_lock *lock, struct suitefile *sf,
		   const char ***rargv, poptContext *rctx)
{
	int rargc = 0;
	int status = open_resume(s, s->resume, lock, sf, &rargc, rargv);
	if (status)
		return status;
	char *format = s->format;
	const char *cmd = s->cmd;
	char path[PATH_MAX], shown[300];
	s->format = NULL;
	snprintf(path, sizeof(path), "%s", s->path);   /* resolved before the chdir */
	opts_free(s);
	memset(s, 0, sizeof(*s));
	s->cmd = cmd;
	status = opts_parse(s, rargc, *rargv, rctx);
	if (status || s->resume) {
		fprintf(stderr, "%s: %s: its stored command line is not usable\n", s->cmd,
			esc_str(shown, sizeof(shown), path));
		free(format);
		return KB_EXIT_USAGE;
	}
	/* the series runs what it started with, where it started */
	if (plan_check(s->cmd, esc_str(shown, sizeof(shown), path), sf->doc,
		       s->dir ? s->dir : ".") < 0) {
		free(format);
		return KB_EXIT_USAGE;
	}
	snprintf(s->path, sizeof(s->path), "%s", path);
	if (format) {
		free(s->format);
		s->format = format;
	}
	s->doc = json_incref(sf->doc);
	return 0;
}
