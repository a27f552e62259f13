/* kbench - the signals that stop kbench load
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * One note for the whole command, set by the handler and read by the
 * command and the run (see signals.h).  Before the note is armed the
 * handler itself ends the process, with write(2) and _exit(2) only.
 */
#include "config.h"
#include "cli.h"
#include "load/run/signals.h"

#include <signal.h>
#include <string.h>
#include <unistd.h>

static volatile sig_atomic_t first_signal;
static volatile sig_atomic_t signal_count;
static volatile sig_atomic_t armed;
static int report_fd = 1;

static void on_signal(int sig)
{
	if (!armed) {
		/* nothing to remove yet: say so and end now */
		static const char a[] = "interrupted by ", b[] = " before anything was measured\n";
		char buf[CLI_SIGNAME_LEN];
		const char *name = cli_signal_name(sig, buf);
		ssize_t w = write(report_fd, a, sizeof(a) - 1);
		w = write(report_fd, name, strlen(name));
		w = write(report_fd, b, sizeof(b) - 1);
		(void)w;
		_exit(128 + sig);
	}
	if (!first_signal)
		first_signal = sig;
	signal_count++;
}

void load_signals_catch(int fd)
{
	report_fd = fd;
	armed = 0;
	first_signal = 0;
	signal_count = 0;
	cli_catch_stop_signals(on_signal);
}

void load_signals_arm(void)
{
	/* a reader that goes away (kbench load | head) must not kill kbench
	 * before its cleanup: the writes fail instead, and that is reported */
	signal(SIGPIPE, SIG_IGN);
	armed = 1;
}

int load_signal(void)
{
	return first_signal;
}

unsigned load_signal_count(void)
{
	return (unsigned)signal_count;
}

void load_signals_release(void)
{
	cli_default_stop_signals();  /* SIGPIPE stays ignored (cli.h) */
	armed = 0;
}
