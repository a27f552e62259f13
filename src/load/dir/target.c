/* kbench - the target of a load run: its directory, or the server
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What target.h promises.  A BACKEND_LOCAL backend's clients work in
 * the run's directory, which is noted (cleanup.h) and locked before
 * anything is made in it, so that after the run everything it created
 * goes and what was there before stays; another backend's target is a
 * server, which its own prepare() checks and cleanup() clears.
 */
#include "config.h"
#include "cli.h"
#include "load/run/coord.h"
#include "load/options/options.h"
#include "load/dir/target.h"
#include "result/result.h"

#include <errno.h>
#include <fcntl.h>
#include <malloc.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

void load_target_init(struct load_target *t)
{
	t->rootfd = -1;
}

/* -D DIR: a directory kbench may write in. */
static int check_directory(const char *cmd, const char *dir)
{
	struct stat st;
	if (stat(dir, &st) < 0) {
		fprintf(stderr, "%s: %s: %s\n", cmd, dir, strerror(errno));
		return KB_EXIT_USAGE;
	}
	if (!S_ISDIR(st.st_mode)) {
		fprintf(stderr, "%s: %s: not a directory\n", cmd, dir);
		return KB_EXIT_USAGE;
	}
	if (access(dir, W_OK | X_OK) < 0) {
		fprintf(stderr, "%s: %s: not writable: %s\n", cmd, dir, strerror(errno));
		return KB_EXIT_USAGE;
	}
	return KB_EXIT_OK;
}

/* Without -D: a new directory under $TMPDIR (or /tmp), t->tmpdir. */
static int make_tmpdir(const char *cmd, struct load_target *t)
{
	if (cli_make_tmpdir(cmd, "kbench-load", t->tmpdir, sizeof(t->tmpdir)) < 0)
		return KB_EXIT_USAGE;
	t->directory = t->tmpdir;
	t->made_tmpdir = 1;
	return KB_EXIT_OK;
}

/* Each client process may hold every handle of the loadfile open, and
 * a fileio client its directory fds. */
static void raise_nofile(const struct program *prog, unsigned per_proc)
{
	struct rlimit rl;
	uint64_t dirs = prog->ndirs < FILEIO_DIRCACHE_MAX ? prog->ndirs : FILEIO_DIRCACHE_MAX;
	uint64_t need = ((uint64_t)prog->nhandles + dirs) * per_proc + 64;
	if (getrlimit(RLIMIT_NOFILE, &rl) < 0 || rl.rlim_cur >= need)
		return;
	rl.rlim_cur = rl.rlim_max == RLIM_INFINITY || rl.rlim_max > need ? need : rl.rlim_max;
	setrlimit(RLIMIT_NOFILE, &rl);
}

/* The participant's own directory, DIR/SUBDIR, made unless it is there (a
 * directory, not a symbolic link); from here on it is the run's
 * directory. */
static int make_own(const char *cmd, const char *subdir, struct load_target *t)
{
	struct stat rst;
	if ((size_t)snprintf(t->own, sizeof(t->own), "%s/%s", t->directory, subdir) >=
	    sizeof(t->own)) {
		fprintf(stderr, "%s: %s: name too long\n", cmd, t->directory);
		return KB_EXIT_USAGE;
	}
	if (mkdir(t->own, 0777) == 0)
		t->made_own = 1;
	else if (errno != EEXIST || lstat(t->own, &rst) < 0 || !S_ISDIR(rst.st_mode)) {
		fprintf(stderr, "%s: %s: %s\n", cmd, t->own, errno == EEXIST ?
			"there, and not a directory" : strerror(errno));
		return KB_EXIT_USAGE;
	}
	t->directory = t->own;
	return KB_EXIT_OK;
}

/* The directory (-D, or made; the participant's own in it), DIR/clients,
 * the --json destination, and the note of what DIR holds (t->plan,
 * through t->rootfd). */
static int prepare_directory(const struct load_opts *o, const struct coord *co,
			     const char *loadfile, const struct program *prog,
			     struct load_target *t)
{
	t->directory = o->directory;
	int status = t->directory ? check_directory(o->cmd, t->directory) : make_tmpdir(o->cmd, t);
	t->base = t->directory;
	if (!status && co->subdir)
		status = make_own(o->cmd, co->subdir, t);
	if (!status && o->json && co->rank == 0) {
		const char *keep[] = { loadfile };
		status = result_destination(o->cmd, "--json", o->json, keep, 1, t->base,
					    t->json_dest, sizeof(t->json_dest));
	}
	if (status)
		return status;
	t->rootfd = open(t->directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (t->rootfd < 0) {
		fprintf(stderr, "%s: %s: %s\n", o->cmd, t->directory, strerror(errno));
		return KB_EXIT_USAGE;
	}
	/* one run a directory: two would share clients/client0 and each
	 * clean up the other's live trees (the lock goes with the fd) */
	if (flock(t->rootfd, LOCK_EX | LOCK_NB) < 0) {
		fprintf(stderr, "%s: %s: %s\n", o->cmd, t->directory, errno == EWOULDBLOCK ?
			"in use by another kbench load; give each run its own directory" :
			strerror(errno));
		return KB_EXIT_USAGE;
	}
	if (!(t->plan = cleanup_plan(t->rootfd, prog, (unsigned)o->nclients))) {
		fprintf(stderr, "%s: %s: %s\n", o->cmd, t->directory, strerror(errno));
		return KB_EXIT_USAGE;
	}
	/* the clients' trees, DIR/clients/clientK, made here before any client
	 * starts, each by an exclusive mkdir: one that was there and holds
	 * anything (or is a link, a mount point) is bad input; a directory
	 * where they cannot be made (/proc, say) too.  Made after the note,
	 * they are the run's and go with the cleanup */
	if ((status = cleanup_claim(t->plan, t->rootfd, t->directory, o->cmd)))
		return status;
	if (cleanup_inexact(t->plan))
		fprintf(stderr, "%s: warning: %s holds too much to note in full; files the run "
			"makes inside existing directories may be left\n", o->cmd, t->directory);
	raise_nofile(prog, (unsigned)o->per_proc);
	malloc_trim(0);  /* clients inherit the heap: give back what parsing used */
	return KB_EXIT_OK;
}

/* A backend on a server: the participant's own tree there (-D DIR/SUBDIR,
 * or SUBDIR), the backend's prepare(), the --json destination. */
static int prepare_server(const struct load_opts *o, const struct coord *co,
			  const char *loadfile, struct load_target *t)
{
	int status = 0;
	if (co->subdir) {
		if ((size_t)snprintf(t->own, sizeof(t->own), "%s%s%s",
				     o->directory ? o->directory : "", o->directory ? "/" : "",
				     co->subdir) >= sizeof(t->own))
			return cli_usage_error(o->cmd, "-D %s: name too long", o->directory);
		t->bopts.directory = t->own;
	}
	if (o->backend->prepare) {
		status = o->backend->prepare(&t->bopts, (unsigned)o->nclients, o->cmd);
		t->prepared = !status;
	}
	if (!status && o->json && co->rank == 0) {
		const char *keep[] = { loadfile };
		status = result_destination(o->cmd, "--json", o->json, keep, 1, NULL,
					    t->json_dest, sizeof(t->json_dest));
	}
	return status;
}

int load_target_prepare(const struct load_opts *o, const struct coord *co, const char *loadfile,
		   const struct program *prog, struct load_target *t)
{
	load_opts_backend(o, &t->bopts);
	if (o->backend->flags & BACKEND_LOCAL)
		return prepare_directory(o, co, loadfile, prog, t);
	return prepare_server(o, co, loadfile, t);
}

void load_target_undo(const struct load_opts *o, struct load_target *t)
{
	if (!(o->backend->flags & BACKEND_LOCAL) || t->rootfd < 0)
		return;
	if (t->plan)
		cleanup_run(t->plan, t->rootfd, t->directory);
	close(t->rootfd);
	t->rootfd = -1;
	if (t->made_own)
		rmdir(t->own);
	t->made_own = 0;
}

int load_target_cleanup(const struct load_opts *o, FILE *out, struct load_target *t, int status)
{
	if (!(o->backend->flags & BACKEND_LOCAL)) {
		if (o->skip_cleanup || !o->backend->cleanup) {
			if (o->skip_cleanup && !o->quiet)
				fprintf(out, "files left on the server (--skip-cleanup)\n");
		} else if (o->backend->cleanup(&t->bopts, (unsigned)o->nclients, o->cmd) < 0 &&
			   !status) {
			status = KB_EXIT_FAIL;
		}
		return status;
	}
	if (o->skip_cleanup) {
		if (!o->quiet)
			fprintf(out, "files left in %s (--skip-cleanup)\n", t->directory);
	} else if (cleanup_run(t->plan, t->rootfd, t->directory) < 0) {
		fprintf(stderr, "%s: could not remove everything the run created in %s\n", o->cmd,
			t->directory);
		if (!status)
			status = KB_EXIT_FAIL;
	}
	if ((t->made_tmpdir || t->made_own) && !o->skip_cleanup) {
		close(t->rootfd);
		t->rootfd = -1;
		if (t->made_own && rmdir(t->own) < 0)
			fprintf(stderr, "%s: cannot remove %s: %s\n", o->cmd, t->own, strerror(errno));
		t->made_own = 0;
		if (t->made_tmpdir && rmdir(t->tmpdir) < 0)
			fprintf(stderr, "%s: cannot remove %s: %s\n", o->cmd, t->tmpdir,
				strerror(errno));
	}
	return status;
}

void load_target_free(const struct load_opts *o, struct load_target *t, int status)
{
	if (t->prepared && o->backend->release)
		o->backend->release(&t->bopts);
	if (t->rootfd >= 0)
		close(t->rootfd);
	if (t->made_own && status == KB_EXIT_USAGE)
		rmdir(t->own);
	if (t->made_tmpdir && status == KB_EXIT_USAGE)
		rmdir(t->tmpdir);
	cleanup_free(t->plan);
}
