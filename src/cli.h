/* kbench - shared command-line helpers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#ifndef KBENCH_CLI_H
#define KBENCH_CLI_H

#include <signal.h>
#include <stdint.h>
#include <stddef.h>
#include <popt.h>

/* Exit statuses used by every command. */
#define KB_EXIT_OK 0
#define KB_EXIT_FAIL 1    /* the run failed or found errors */
#define KB_EXIT_USAGE 2   /* bad command line or bad input */

/* A command: kbench NAME ARGS...  fn gets argv[0] = "kbench NAME". */
struct kb_command {
	const char *name;
	int (*fn)(int argc, const char **argv);
	const char *help;    /* one line */
};

/* Parse a duration: a decimal number of seconds (digits, a point, an
 * exponent; no sign, no hex) with an optional unit suffix (ms, s, m, h),
 * e.g. "90", "1.5s", "2m".  Returns 0 and the value in seconds in *out,
 * or -1 if text is not a non-negative duration of at most 10^9 s. */
int cli_parse_duration(const char *text, double *out);

/* Parse a size in bytes with an optional binary suffix (k, M, G, T: powers
 * of 2^10), e.g. "4096", "32M".  Returns 0, or -1 if invalid or above
 * 2^63-1. */
int cli_parse_size(const char *text, uint64_t *out);

/* Parse a size that must name its unit, for options where a bare number
 * would be read differently by another tool (hdparm's --offset counts
 * GiB): the suffixes of cli_parse_size (k, M, G, T, optionally followed
 * by i, iB or B), or B alone for bytes ("4096B").  Returns 0 with the
 * bytes in *out, -2 if text is a valid bare number (no unit), or -1 if
 * invalid or above 2^63-1. */
int cli_parse_size_unit(const char *text, uint64_t *out);

/* Parse a whole decimal number in [min, max].  Returns 0 or -1. */
int cli_parse_uint(const char *text, uint64_t min, uint64_t max, uint64_t *out);

/* Print "kbench NAME: message" and a hint to use --help on stderr; returns
 * KB_EXIT_USAGE so callers can `return cli_usage_error(...)`. */
int cli_usage_error(const char *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Handle popt's return from poptGetNextOpt: anything but -1 is a usage
 * error, printed with popt's own text (the option as given, but nothing
 * after a '%' in it: it may be a mistyped USER%PASSWORD).  Returns 0 or
 * KB_EXIT_USAGE. */
int cli_popt_done(poptContext ctx, const char *cmd, int rc);

/* A password out of the process title: every value of the option opt
 * ("--smb-user", given as "opt VALUE" or "opt=VALUE", up to a "--") has
 * what follows its first '%' overwritten with 'X' in argv itself, as
 * smbclient does (/proc/PID/cmdline shows argv's memory).  Call it after
 * popt has copied the values. */
void cli_hide_password(int argc, const char **argv, const char *opt);

/* poptGetNextOpt(ctx) for options, the table ctx was made with (not its
 * included tables), that refuses a string option given twice.  popt
 * copies the argument of every POPT_ARG_STRING option into its char *
 * variable and drops the copy that was there, keeping the last of "-D a
 * -D b" without a word.  Here each such option of the table and of the
 * tables it includes (POPT_ARG_INCLUDE_TABLE; with a variable and val 0;
 * the first 128 of them) is given a val, so that popt returns after it:
 * a second value is an error, which cli_popt_done names ("-D/--directory
 * given twice"), and the copy it replaced is freed.  An option the caller
 * handles (its own val) is the caller's to refuse or gather.  The value
 * stays the caller's to free.  Before the first call each such variable
 * holds NULL or a malloc'd string.  Returns what poptGetNextOpt returns:
 * the val of an option the caller handles, -1 at the end, or an error
 * code for cli_popt_done. */
int cli_popt_next(poptContext ctx, struct poptOption *options);

/* cli_popt_next as the tools kbench stands in for parse (dbench, tbench,
 * tbench_srv: popt's way): the last of a repeated value counts. */
int cli_popt_next_last(poptContext ctx, struct poptOption *options);

/* The stop signals: the one list every command uses.  They are the
 * signals whose default action ends the process without a core dump
 * (signal(7)'s "Term": SIGHUP, SIGINT, SIGTERM, SIGUSR1, SIGUSR2,
 * SIGALRM, SIGVTALRM, SIGPROF, SIGIO (SIGPOLL), SIGSTKFLT, SIGPWR and
 * every real-time signal SIGRTMIN..SIGRTMAX), and the two that report a
 * resource limit about a healthy process, SIGXCPU and SIGXFSZ.  Each is
 * taken only if its action was the default when kbench started: one
 * ignored then (nohup(1) ignores SIGHUP) stays ignored, and one a
 * profiler or sanitizer caught before main() keeps that handler.
 * SIGINT is no exception: a shell without job control starts every
 * command it runs in the background with SIGINT ignored (POSIX), and a
 * program is expected to keep it so (dbench does): such a kbench runs
 * through a SIGINT to its end, whatever the command.
 * Left out on purpose: SIGPIPE (a write to a closed pipe or socket;
 * every command ignores it, cli_ignore_sigpipe, so that a reader that
 * goes away (kbench suite | head -1) never kills one before it has saved
 * its files and removed its lock and temporary files; the write's EPIPE
 * is reported instead), SIGQUIT (asks for a core dump of the process as it
 * is) and the fault signals (SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT,
 * SIGTRAP, SIGSYS: the process's state cannot be trusted to clean up).
 * The first call of any of these functions notes the dispositions at
 * the start; main() calls cli_note_start_signals() before any command
 * so that nothing a library installs later counts as "at the start". */
void cli_note_start_signals(void);

/* Ignore SIGPIPE, noting its action at the start first.  main() calls
 * it before any command: a write to a closed pipe or socket then fails
 * with EPIPE, which the command reports (main() turns an output that
 * could not be written into exit status 1), and the command ends as it
 * would otherwise, its files saved and its lock and temporary files
 * removed. */
void cli_ignore_sigpipe(void);

/* Give SIGPIPE its action at the start again (before
 * cli_ignore_sigpipe: the default).  Async-signal-safe: a forked child
 * calls it before an exec, so the program it runs gets SIGPIPE as kbench
 * got it. */
void cli_start_sigpipe(void);

/* Install handler for every stop signal taken, each blocking all the
 * others while it runs; no SA_RESTART, so a blocking call returns EINTR
 * and the caller can look at what the handler noted. */
void cli_catch_stop_signals(void (*handler)(int));

/* Give every stop signal taken its default action again (one ignored
 * or caught at the start keeps that).  Async-signal-safe: a forked
 * child that must die by the signal calls it (before an exec too). */
void cli_default_stop_signals(void);

/* Ignore every stop signal taken: a child process whose parent decides
 * when it stops.  Async-signal-safe. */
void cli_ignore_stop_signals(void);

/* Put into set the stop signals taken (for sigprocmask, signalfd). */
void cli_stop_sigset(sigset_t *set);

/* Whether sig is one of the stop signals taken (1) or not (0). */
int cli_is_stop_signal(int sig);

/* The name of sig into out (CLI_SIGNAME_LEN bytes): "SIGUSR1",
 * "SIGRTMIN+3", or "signal N" for a number without a name here.
 * Returns out.  Async-signal-safe (no stdio). */
#define CLI_SIGNAME_LEN 24
const char *cli_signal_name(int sig, char out[CLI_SIGNAME_LEN]);

/* Make a new private directory NAME.XXXXXX (mkdtemp, mode 0700) under
 * $TMPDIR, or /tmp when TMPDIR is unset or empty, and put its path in out
 * (len bytes).  Returns 0, or -1 after one line on stderr: "CMD: TMPDIR
 * DIR: cannot make a directory there: REASON; set TMPDIR to a writable
 * directory" (or that the path would be too long).  Async-signal-safe
 * callers may block signals around it; it allocates nothing. */
int cli_make_tmpdir(const char *cmd, const char *name, char *out, size_t len);

#endif
