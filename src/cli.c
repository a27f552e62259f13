/* kbench - shared command-line helpers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"
#include "cli.h"

#include <errno.h>
#include <stdbool.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int cli_parse_duration(const char *text, double *out)
{
	char *end;
	/* decimal only: a digit or '.' first, and not strtod's hex ("0x1") */
	if (!text || !((*text >= '0' && *text <= '9') || *text == '.') ||
	    (text[0] == '0' && (text[1] == 'x' || text[1] == 'X')))
		return -1;
	errno = 0;
	double v = strtod(text, &end);
	if (errno || end == text || !isfinite(v) || v < 0)
		return -1;
	double mult = 1;
	if (!strcmp(end, "") || !strcmp(end, "s"))
		mult = 1;
	else if (!strcmp(end, "ms"))
		mult = 1e-3;
	else if (!strcmp(end, "m") || !strcmp(end, "min"))
		mult = 60;
	else if (!strcmp(end, "h"))
		mult = 3600;
	else
		return -1;
	v *= mult;
	if (v > 1e9)  /* about 31 years: surely a typo */
		return -1;
	*out = v;
	return 0;
}

int cli_parse_size(const char *text, uint64_t *out)
{
	char *end;
	if (!text || *text < '0' || *text > '9')
		return -1;
	errno = 0;
	unsigned long long v = strtoull(text, &end, 10);
	if (errno)
		return -1;
	unsigned shift = 0;
	switch (*end) {
	case '\0': break;
	case 'k': case 'K': shift = 10; end++; break;
	case 'm': case 'M': shift = 20; end++; break;
	case 'g': case 'G': shift = 30; end++; break;
	case 't': case 'T': shift = 40; end++; break;
	default: return -1;
	}
	if (shift && (*end == 'i' || *end == 'B'))
		end += (*end == 'i' && end[1] == 'B') ? 2 : 1;
	if (*end)
		return -1;
	if (v > (UINT64_C(0x7fffffffffffffff) >> shift))
		return -1;
	*out = (uint64_t)v << shift;
	return 0;
}

int cli_parse_size_unit(const char *text, uint64_t *out)
{
	char digits[32];
	size_t n = text ? strlen(text) : 0;
	if (n && text[n - 1] >= '0' && text[n - 1] <= '9') {
		uint64_t v;
		return cli_parse_size(text, &v) == 0 ? -2 : -1;
	}
	if (n >= 2 && text[n - 1] == 'B' && text[n - 2] >= '0' && text[n - 2] <= '9') {
		if (n > sizeof(digits))
			return -1;
		memcpy(digits, text, n - 1);       /* "4096B": the digits are bytes */
		digits[n - 1] = '\0';
		return cli_parse_size(digits, out);
	}
	return cli_parse_size(text, out);
}

int cli_parse_uint(const char *text, uint64_t min, uint64_t max, uint64_t *out)
{
	char *end;
	if (!text || *text < '0' || *text > '9')
		return -1;
	errno = 0;
	unsigned long long v = strtoull(text, &end, 10);
	if (errno || *end || v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

int cli_usage_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;
	char msg[2048];
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	/* one write, so that the lines of several processes (the ranks of an
	 * MPI job) do not interleave; the command's name without what follows
	 * it ("kbench load: rank 1 (host)") in the hint */
	fprintf(stderr, "%s: %s (see '%.*s --help')\n", cmd, msg, (int)strcspn(cmd, ":"), cmd);
	return 2;
}

/* the val cli_popt_next gives string options so that popt returns after
 * each; once one has been given, its val says so (CLI_POPT_GIVEN) until
 * the parse ends, so a second value is caught across the caller's calls */
#define CLI_POPT_STRING INT_MAX
#define CLI_POPT_GIVEN (INT_MAX - 1)
/* cli_popt_next's code for an option given twice (no POPT_ERROR_* is) */
#define CLI_POPT_REPEATED (-1000)

/* the option given twice, as cli_popt_done names it */
static char repeated[80];

int cli_popt_done(poptContext ctx, const char *cmd, int rc)
{
	if (rc == -1)
		return 0;
	if (rc == CLI_POPT_REPEATED) {
		fprintf(stderr, "%s: %s given twice: it takes one value; give it once (see '%s "
			"--help')\n", cmd, repeated, cmd);
		return 2;
	}
	const char *bad = poptBadOption(ctx, POPT_BADOPTION_NOALIAS);
	const char *pct = strchr(bad, '%');
	int shown = pct ? (int)(pct - bad) : (int)strlen(bad);
	fprintf(stderr, "%s: %.*s%s: %s (see '%s --help')\n", cmd, shown, bad, pct ? "%..." : "",
		poptStrerror(rc), cmd);
	return 2;
}

void cli_hide_password(int argc, const char **argv, const char *opt)
{
	size_t n = strlen(opt);
	for (int i = 1; i < argc; i++) {
		const char *v = NULL;
		if (!strncmp(argv[i], opt, n) && argv[i][n] == '=')
			v = argv[i] + n + 1;
		else if (!strcmp(argv[i], opt) && i + 1 < argc)
			v = argv[++i];
		else if (!strcmp(argv[i], "--"))
			break;
		char *pct = v ? strchr(v, '%') : NULL;
		if (pct)
			memset(pct + 1, 'X', strlen(pct + 1));
	}
}

static int is_string_option(const struct poptOption *o)
{
	return (o->argInfo & POPT_ARG_MASK) == POPT_ARG_STRING && o->arg;
}

/* The string options of rows and of the tables they include, into
 * out (at most max); returns how many. */
static size_t string_rows(struct poptOption *rows, struct poptOption **out, size_t n, size_t max)
{
	for (struct poptOption *o = rows; o->longName || o->shortName || o->arg; o++) {
		if ((o->argInfo & POPT_ARG_MASK) == POPT_ARG_INCLUDE_TABLE && o->arg)
			n = string_rows(o->arg, out, n, max);
		else if (is_string_option(o) && n < max)
			out[n++] = o;
	}
	return n;
}

/* The string options of options that cli_popt_next handles (val 0, or
 * its own) into rows; returns how many. */
static size_t own_rows(struct poptOption *options, struct poptOption **rows, size_t max)
{
	struct poptOption *all[128];
	size_t n = string_rows(options, all, 0, sizeof(all) / sizeof(all[0])), m = 0;
	for (size_t i = 0; i < n && m < max; i++) {
		if (!all[i]->val)
			all[i]->val = CLI_POPT_STRING;
		if (all[i]->val == CLI_POPT_STRING || all[i]->val == CLI_POPT_GIVEN)
			rows[m++] = all[i];
	}
	return m;
}

static int next_opt(poptContext ctx, struct poptOption *options, bool once)
{
	struct poptOption *rows[128];
	size_t nrows = own_rows(options, rows, sizeof(rows) / sizeof(rows[0]));
	int rc;
	do {
		/* one call stores at most one string: the first option with a val
		 * ends it, and every string option has one */
		char *before[128];
		for (size_t i = 0; i < nrows; i++)
			before[i] = *(char **)rows[i]->arg;
		rc = poptGetNextOpt(ctx);
		for (size_t i = 0; i < nrows; i++) {
			if (before[i] == *(char **)rows[i]->arg)
				continue;
			free(before[i]);
			if (once && rows[i]->val == CLI_POPT_GIVEN) {
				if (rows[i]->shortName && rows[i]->longName)
					snprintf(repeated, sizeof(repeated), "-%c/--%s",
						 rows[i]->shortName, rows[i]->longName);
				else if (rows[i]->longName)
					snprintf(repeated, sizeof(repeated), "--%s", rows[i]->longName);
				else
					snprintf(repeated, sizeof(repeated), "-%c", rows[i]->shortName);
				rc = CLI_POPT_REPEATED;
			}
			rows[i]->val = CLI_POPT_GIVEN;
		}
	} while (rc == CLI_POPT_STRING || rc == CLI_POPT_GIVEN);
	if (rc < 0)
		/* the parse is over: a table parsed again (included tables are
		 * static) starts with nothing given */
		for (size_t i = 0; i < nrows; i++)
			rows[i]->val = CLI_POPT_STRING;
	return rc;
}

int cli_popt_next(poptContext ctx, struct poptOption *options)
{
	return next_opt(ctx, options, true);
}

int cli_popt_next_last(poptContext ctx, struct poptOption *options)
{
	return next_opt(ctx, options, false);
}

/* ---- the stop signals (cli.h) ---- */

/* the fixed ones; SIGRTMIN..SIGRTMAX are added in the loops below */
static const int fixed_stop[] = {
	SIGHUP, SIGINT, SIGTERM, SIGUSR1, SIGUSR2, SIGALRM, SIGVTALRM, SIGPROF,
#ifdef SIGIO
	SIGIO,
#endif
#ifdef SIGSTKFLT
	SIGSTKFLT,
#endif
#ifdef SIGPWR
	SIGPWR,
#endif
	SIGXCPU, SIGXFSZ,
};
#define NFIXED (sizeof(fixed_stop) / sizeof(fixed_stop[0]))

/* taken[sig]: 1 if sig is a stop signal whose action was the default at
 * the start; filled once */
static unsigned char taken[_NSIG];
static volatile sig_atomic_t noted;

void cli_note_start_signals(void)
{
	if (noted)
		return;
	struct sigaction old;
	for (size_t i = 0; i < NFIXED; i++) {
		int sig = fixed_stop[i];
		/* one ignored stays ignored, SIGINT too: a shell without job
		 * control starts its background commands with SIGINT (and
		 * SIGQUIT) ignored (POSIX), and they keep it, as dbench does */
		if (sigaction(sig, NULL, &old) == 0 && old.sa_handler == SIG_DFL &&
		    !(old.sa_flags & SA_SIGINFO))
			taken[sig] = 1;
	}
	for (int sig = SIGRTMIN; sig <= SIGRTMAX && sig < _NSIG; sig++)
		if (sigaction(sig, NULL, &old) == 0 && old.sa_handler == SIG_DFL &&
		    !(old.sa_flags & SA_SIGINFO))
			taken[sig] = 1;
	noted = 1;
}

static struct sigaction pipe_start;
static int pipe_noted;

void cli_ignore_sigpipe(void)
{
	struct sigaction ign;
	memset(&ign, 0, sizeof(ign));
	ign.sa_handler = SIG_IGN;
	sigemptyset(&ign.sa_mask);
	if (sigaction(SIGPIPE, &ign, &pipe_start) == 0)
		pipe_noted = 1;
}

void cli_start_sigpipe(void)
{
	if (pipe_noted)
		sigaction(SIGPIPE, &pipe_start, NULL);
}

int cli_is_stop_signal(int sig)
{
	cli_note_start_signals();
	return sig > 0 && sig < _NSIG && taken[sig];
}

void cli_stop_sigset(sigset_t *set)
{
	cli_note_start_signals();
	sigemptyset(set);
	for (int sig = 1; sig < _NSIG; sig++)
		if (taken[sig])
			sigaddset(set, sig);
}

/* Every stop signal taken gets the action in sa. */
static void set_all(const struct sigaction *sa)
{
	cli_note_start_signals();
	for (int sig = 1; sig < _NSIG; sig++)
		if (taken[sig])
			sigaction(sig, sa, NULL);
}

void cli_catch_stop_signals(void (*handler)(int))
{
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = handler;
	cli_stop_sigset(&sa.sa_mask);
	set_all(&sa);
}

void cli_default_stop_signals(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_DFL;
	sigemptyset(&sa.sa_mask);
	set_all(&sa);
}

void cli_ignore_stop_signals(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_IGN;
	sigemptyset(&sa.sa_mask);
	set_all(&sa);
}

/* Append text to out at *n (CLI_SIGNAME_LEN bytes in all). */
static void name_put(char *out, size_t *n, const char *text)
{
	while (*text && *n < CLI_SIGNAME_LEN - 1)
		out[(*n)++] = *text++;
	out[*n] = 0;
}

/* Append the decimal v (0 <= v < 1000). */
static void name_num(char *out, size_t *n, int v)
{
	char d[4] = { 0 };
	int k = 3;
	do {
		d[--k] = (char)('0' + v % 10);
		v /= 10;
	} while (v && k);
	name_put(out, n, d + k);
}

const char *cli_signal_name(int sig, char out[CLI_SIGNAME_LEN])
{
	static const struct { int sig; const char *name; } names[] = {
		{ SIGHUP, "SIGHUP" }, { SIGINT, "SIGINT" }, { SIGQUIT, "SIGQUIT" },
		{ SIGILL, "SIGILL" }, { SIGTRAP, "SIGTRAP" }, { SIGABRT, "SIGABRT" },
		{ SIGBUS, "SIGBUS" }, { SIGFPE, "SIGFPE" }, { SIGKILL, "SIGKILL" },
		{ SIGUSR1, "SIGUSR1" }, { SIGSEGV, "SIGSEGV" }, { SIGUSR2, "SIGUSR2" },
		{ SIGPIPE, "SIGPIPE" }, { SIGALRM, "SIGALRM" }, { SIGTERM, "SIGTERM" },
		{ SIGCHLD, "SIGCHLD" }, { SIGCONT, "SIGCONT" }, { SIGSTOP, "SIGSTOP" },
		{ SIGTSTP, "SIGTSTP" }, { SIGTTIN, "SIGTTIN" }, { SIGTTOU, "SIGTTOU" },
		{ SIGURG, "SIGURG" }, { SIGXCPU, "SIGXCPU" }, { SIGXFSZ, "SIGXFSZ" },
		{ SIGVTALRM, "SIGVTALRM" }, { SIGPROF, "SIGPROF" }, { SIGWINCH, "SIGWINCH" },
		{ SIGSYS, "SIGSYS" },
#ifdef SIGIO
		{ SIGIO, "SIGIO" },
#endif
#ifdef SIGSTKFLT
		{ SIGSTKFLT, "SIGSTKFLT" },
#endif
#ifdef SIGPWR
		{ SIGPWR, "SIGPWR" },
#endif
	};
	size_t n = 0;
	out[0] = 0;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (names[i].sig == sig) {
			name_put(out, &n, names[i].name);
			return out;
		}
	if (sig >= SIGRTMIN && sig <= SIGRTMAX) {
		name_put(out, &n, "SIGRTMIN");
		if (sig > SIGRTMIN) {
			name_put(out, &n, "+");
			name_num(out, &n, sig - SIGRTMIN);
		}
		return out;
	}
	name_put(out, &n, "signal ");
	name_num(out, &n, sig >= 0 && sig < 1000 ? sig : 999);
	return out;
}

int cli_make_tmpdir(const char *cmd, const char *name, char *out, size_t len)
{
	const char *base = getenv("TMPDIR");
	const char *what = "TMPDIR";
	if (!base || !*base) {
		base = "/tmp";
		what = "the temporary directory (TMPDIR unset)";
	}
	if (snprintf(out, len, "%s/%s.XXXXXX", base, name) >= (int)len) {
		fprintf(stderr, "%s: %s %.64s...: too long for a path; set TMPDIR to a shorter "
			"directory\n", cmd, what, base);
		return -1;
	}
	if (!mkdtemp(out)) {
		fprintf(stderr, "%s: %s %s: cannot make a directory there: %s; set TMPDIR to a "
			"writable directory\n", cmd, what, base, strerror(errno));
		return -1;
	}
	return 0;
}
