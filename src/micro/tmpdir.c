/* kbench - kbench micro's private directory and its stop signals
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The tests write only in one directory made for the run (mkdtemp under
 * $TMPDIR or /tmp).  A stop signal can come at any moment, so the handler
 * itself kills and reaps the tests' children (harness.h) and empties and
 * removes that directory with async-signal-safe calls only, then exits
 * 128 + the signal without a figure.  What it removes stays inside the
 * directory: no link is followed and no other mount entered.
 */
#include "config.h"
#include "cli.h"
#include "micro/harness.h"
#include "micro/tmpdir.h"
#include "sys/fsutil.h"

#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

static char tmp_path[PATH_MAX];
static volatile sig_atomic_t tmp_made;

/* Remove everything inside the directory open as fd, depth levels deep at
 * most; only async-signal-safe calls (getdents64, openat2, statx,
 * unlinkat).  A mount point is neither entered nor removed (rmdir of one
 * fails with EBUSY). */
static void empty_dir(int fd, int depth)
{
	char buf[4096] __attribute__((aligned(8)));
	for (;;) {
		long got = syscall(SYS_getdents64, fd, buf, sizeof(buf));
		if (got <= 0)
			return;
		int removed = 0;
		for (long off = 0; off < got;) {
			struct fs_dirent64 *d = (struct fs_dirent64 *)(buf + off);
			off += d->d_reclen;
			const char *n = d->d_name;
			if (n[0] == '.' && (!n[1] || (n[1] == '.' && !n[2])))
				continue;
			if (unlinkat(fd, n, 0) == 0) {
				removed = 1;
				continue;
			}
			if (depth > 0) {
				/* never into another mount (RESOLVE_NO_XDEV): what is
				 * mounted there is not the run's */
				int sub = fs_open_beneath(fd, n, O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0);
				if (sub >= 0) {
					empty_dir(sub, depth - 1);
					close(sub);
				}
			}
			if (unlinkat(fd, n, AT_REMOVEDIR) == 0)
				removed = 1;
		}
		if (removed)
			lseek(fd, 0, SEEK_SET);    /* read again: entries moved under us */
		else if (got < (long)sizeof(buf) - 512)
			return;
	}
}

void micro_tmp_remove(void)
{
	if (!tmp_made)
		return;
	int fd = open(tmp_path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd >= 0) {
		empty_dir(fd, 16);
		close(fd);
	}
	rmdir(tmp_path);
	tmp_made = 0;
}

static void on_signal(int sig)
{
	static const char msg[] = "kbench micro: interrupted; children stopped, temporary "
				  "files removed, no figures reported\n";
	micro_kill_children();
	micro_tmp_remove();
	ssize_t w = write(STDERR_FILENO, msg, sizeof(msg) - 1);
	(void)w;
	_exit(128 + sig);
}

void micro_catch_signals(void)
{
	/* every stop signal (a hangup: the terminal or the ssh session
	 * gone; SIGUSR1, SIGALRM, ...) stops the run the same way, unless it
	 * was ignored at the start (nohup) */
	cli_catch_stop_signals(on_signal);
	signal(SIGPIPE, SIG_IGN);      /* a dead child's pipe: EPIPE, not death */
}

const char *micro_tmp_make(const char *cmd)
{
	sigset_t all, old;
	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, &old);    /* made and noted at once */
	int rc = cli_make_tmpdir(cmd, "kbench-micro", tmp_path, sizeof(tmp_path));
	if (rc == 0)
		tmp_made = 1;
	sigprocmask(SIG_SETMASK, &old, NULL);
	return rc == 0 ? tmp_path : NULL;
}
