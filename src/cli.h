/* kbench - shared command-line helpers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#ifndef KBENCH_CLI_H
#define KBENCH_CLI_H

#include <stdint.h>
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
 * included tables), that also frees what a repeated string option
 * replaces.  popt copies the argument of every POPT_ARG_STRING option into
 * its char * variable and drops the copy that was there, so "-t 1 -t 2"
 * would leak the "1".  Here each such option of the table (with a variable
 * and val 0; the first 64 of them) is given a val, so that popt returns
 * after it, and the copy it replaced is freed.  The last value
 * counts, as with popt, and stays the caller's to free.  Before the first
 * call each such variable holds NULL or a malloc'd string.  Returns what
 * poptGetNextOpt returns: the val of an option the caller handles, -1 at
 * the end, or a POPT_ERROR_* code. */
int cli_popt_next(poptContext ctx, struct poptOption *options);

/* The signals that ask a command to stop: SIGINT, SIGTERM and SIGHUP (the
 * terminal or the ssh session gone).  Installs handler for all three, each
 * blocking the other two while it runs; SIGHUP is left alone if it was
 * ignored when this was first called (nohup(1): the run is meant to
 * outlive the session). */
void cli_catch_stop_signals(void (*handler)(int));

/* Give the stop signals their default action again (a SIGHUP that was
 * ignored stays ignored). */
void cli_default_stop_signals(void);

/* Make a new private directory NAME.XXXXXX (mkdtemp, mode 0700) under
 * $TMPDIR, or /tmp when TMPDIR is unset or empty, and put its path in out
 * (len bytes).  Returns 0, or -1 after one line on stderr: "CMD: TMPDIR
 * DIR: cannot make a directory there: REASON; set TMPDIR to a writable
 * directory" (or that the path would be too long).  Async-signal-safe
 * callers may block signals around it; it allocates nothing. */
int cli_make_tmpdir(const char *cmd, const char *name, char *out, size_t len);

#endif
