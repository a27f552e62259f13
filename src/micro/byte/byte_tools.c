/* kbench - micro: BYTE 4.1's tests of system tools (C compiler, dc)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * C Compiler Throughput (byte_cc, lpm = loops per minute): one loop is
 *   `cc -c -o cctest.o cctest.c` of a C source file of kbench's own (a
 *   few hundred lines: structures, a table, loops, a small parser and a
 *   sort), output to /dev/null; the compiler must exit 0.  BYTE 4.1 timed
 *   the system's cc on its own cctest.c for 60 s, 3 samples: so here
 *   (FIXED_SHELL).  The figure is the compiler's as much as the machine's:
 *   which cc it was is in --list's method and the test's line.
 * Dc: sqrt(2) to 99 decimal places (byte_dc, lpm): one loop runs dc on
 *   a file "99k 2v p" and checks the digits it prints (BYTE 4.1's
 *   dc.dat: the same computation); 30 s, 3 samples (FIXED_LONG).
 * Both are skipped, with the reason, where the tool is not in PATH.
 * Each loop is a fork and exec (the tool's own start-up counts, as in
 * BYTE); the child is made with micro_fork() and reaped before the next.
 * The files live in a directory of opts->tmpdir the copy made and its
 * cleanup removes.
 */
#include "config.h"
#include "micro/byte/byte_tests.h"
#include "micro/harness.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* sqrt(2) to 99 decimal places, truncated, as dc prints it with scale 99 */
static const char sqrt2_99[] =
	"1.414213562373095048801688724209698078569671875376948073176679737990"
	"732478462107038850387534327641572";

/* no "q": GNU dc exits 1 after it; the end of the file ends dc */
static const char dc_input[] = "99k\n2v\np\n";

/* the program the compiler test compiles (kbench's own: ordinary C of
 * the kinds a build meets) */
static const char cc_source[] =
	"#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n"
	"struct entry { char key[32]; long value; struct entry *next; };\n"
	"struct table { struct entry *slot[64]; unsigned count; };\n"
	"static unsigned hash(const char *s)\n{\n\tunsigned h = 5381;\n"
	"\twhile (*s)\n\t\th = h * 33u + (unsigned char)*s++;\n\treturn h % 64;\n}\n"
	"static struct entry *lookup(struct table *t, const char *k, int make)\n{\n"
	"\tunsigned h = hash(k);\n\tstruct entry *e;\n"
	"\tfor (e = t->slot[h]; e; e = e->next)\n\t\tif (!strcmp(e->key, k))\n\t\t\treturn e;\n"
	"\tif (!make || !(e = calloc(1, sizeof(*e))))\n\t\treturn NULL;\n"
	"\tstrncpy(e->key, k, sizeof(e->key) - 1);\n\te->next = t->slot[h];\n"
	"\tt->slot[h] = e;\n\tt->count++;\n\treturn e;\n}\n"
	"enum tok { T_NUM, T_PLUS, T_MINUS, T_MUL, T_DIV, T_LP, T_RP, T_END };\n"
	"struct lexer { const char *p; long num; enum tok t; };\n"
	"static void next(struct lexer *l)\n{\n\twhile (*l->p == ' ')\n\t\tl->p++;\n"
	"\tswitch (*l->p) {\n\tcase '+': l->t = T_PLUS; l->p++; break;\n"
	"\tcase '-': l->t = T_MINUS; l->p++; break;\n\tcase '*': l->t = T_MUL; l->p++; break;\n"
	"\tcase '/': l->t = T_DIV; l->p++; break;\n\tcase '(': l->t = T_LP; l->p++; break;\n"
	"\tcase ')': l->t = T_RP; l->p++; break;\n\tcase 0: l->t = T_END; break;\n"
	"\tdefault: l->num = strtol(l->p, (char **)&l->p, 10); l->t = T_NUM;\n\t}\n}\n"
	"static long expr(struct lexer *l);\n"
	"static long factor(struct lexer *l)\n{\n\tlong v = 0;\n"
	"\tif (l->t == T_NUM) {\n\t\tv = l->num;\n\t\tnext(l);\n"
	"\t} else if (l->t == T_LP) {\n\t\tnext(l);\n\t\tv = expr(l);\n"
	"\t\tif (l->t == T_RP)\n\t\t\tnext(l);\n\t} else if (l->t == T_MINUS) {\n"
	"\t\tnext(l);\n\t\tv = -factor(l);\n\t}\n\treturn v;\n}\n"
	"static long term(struct lexer *l)\n{\n\tlong v = factor(l);\n"
	"\twhile (l->t == T_MUL || l->t == T_DIV) {\n\t\tenum tok op = l->t;\n"
	"\t\tnext(l);\n\t\tlong r = factor(l);\n\t\tv = op == T_MUL ? v * r : r ? v / r : 0;\n"
	"\t}\n\treturn v;\n}\n"
	"static long expr(struct lexer *l)\n{\n\tlong v = term(l);\n"
	"\twhile (l->t == T_PLUS || l->t == T_MINUS) {\n\t\tenum tok op = l->t;\n"
	"\t\tnext(l);\n\t\tlong r = term(l);\n\t\tv = op == T_PLUS ? v + r : v - r;\n"
	"\t}\n\treturn v;\n}\n"
	"static int cmp(const void *a, const void *b)\n{\n"
	"\tconst struct entry *x = *(struct entry *const *)a, *y = *(struct entry *const *)b;\n"
	"\treturn x->value < y->value ? -1 : x->value > y->value;\n}\n"
	"static void sort_table(struct table *t, struct entry **out)\n{\n\tunsigned n = 0;\n"
	"\tfor (int i = 0; i < 64; i++)\n\t\tfor (struct entry *e = t->slot[i]; e; e = e->next)\n"
	"\t\t\tout[n++] = e;\n\tqsort(out, n, sizeof(*out), cmp);\n}\n"
	"static double mean(const long *v, int n)\n{\n\tdouble s = 0;\n"
	"\tfor (int i = 0; i < n; i++)\n\t\ts += (double)v[i];\n\treturn n ? s / n : 0;\n}\n"
	"int main(int argc, char **argv)\n{\n\tstruct table t;\n\tstruct entry *all[256];\n"
	"\tlong vals[16];\n\tchar line[256];\n\tint n = 0;\n\tmemset(&t, 0, sizeof(t));\n"
	"\twhile (fgets(line, sizeof(line), stdin) && n < 16) {\n"
	"\t\tchar *eq = strchr(line, '=');\n\t\tif (!eq)\n\t\t\tcontinue;\n\t\t*eq = 0;\n"
	"\t\tstruct lexer l = { eq + 1, 0, T_END };\n\t\tnext(&l);\n"
	"\t\tstruct entry *e = lookup(&t, line, 1);\n\t\tif (e)\n"
	"\t\t\tvals[n++] = e->value = expr(&l);\n\t}\n"
	"\tif (t.count <= 256)\n\t\tsort_table(&t, all);\n"
	"\tprintf(\"%s: %u names, mean %.2f\\n\", argc ? argv[0] : \"?\", t.count, mean(vals, n));\n"
	"\treturn 0;\n}\n";

struct tool_state {
	char dir[PATH_MAX];
	char in[PATH_MAX + 16];    /* the source file (cc) or dc's input */
	char obj[PATH_MAX + 16];   /* cc's output */
	bool made;
};

static void tool_cleanup(void *state)
{
	struct tool_state *s = state;
	if (!s)
		return;
	if (s->made) {
		unlink(s->in);
		unlink(s->obj);
		rmdir(s->dir);
	}
	free(s);
}

/* The directory and the input file text[0..len) named name in it. */
static int tool_setup(const char *prog, const char *tag, const char *name, const char *text,
		      size_t len, const struct micro_opts *o, void **state, char *err,
		      size_t errlen)
{
	if (!byte_in_path(prog))
		return snprintf(err, errlen, "no %s in PATH", prog), 1;
	if (!o->tmpdir)
		return ERR("no temporary directory");
	struct tool_state *s = calloc(1, sizeof *s);
	if (!s)
		return ERR("out of memory");
	*state = s;
	if (snprintf(s->dir, sizeof s->dir, "%s/byte-%s-%ld", o->tmpdir, tag, (long)getpid()) >=
	    (int)sizeof s->dir)
		return ERR("temporary directory path too long");
	if (mkdir(s->dir, 0700))
		return SETUP_ERR(errno, "%s: %s", s->dir, strerror(errno));
	s->made = true;
	snprintf(s->in, sizeof s->in, "%s/%s", s->dir, name);
	snprintf(s->obj, sizeof s->obj, "%s/cctest.o", s->dir);
	int fd = open(s->in, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0)
		return SETUP_ERR(errno, "%s: %s", s->in, strerror(errno));
	int rc = micro_write_all(fd, text, len), e = errno;
	if (close(fd) && !rc)
		rc = -1, e = errno;
	if (rc)
		return SETUP_ERR(e, "writing %s: %s", s->in, strerror(e));
	return 0;
}

/* Run argv (searched in PATH) with standard input from /dev/null,
 * standard error to /dev/null and standard output to out_fd (or
 * /dev/null when -1); wait for it.  Returns its wait status, or -1. */
static int run_tool(char *const argv[], int out_fd)
{
	pid_t p = micro_fork();
	if (p < 0)
		return -1;
	if (p == 0) {
		int null = open("/dev/null", O_RDWR);
		if (null < 0)
			_exit(126);
		dup2(null, 0);
		dup2(out_fd >= 0 ? out_fd : null, 1);
		dup2(null, 2);
		execvp(argv[0], argv);
		_exit(127);
	}
	return micro_reap(p);
}

static int cc_setup(const void *arg, const struct micro_opts *o, void **state, char *err,
		    size_t errlen)
{
	(void)arg;
	return tool_setup("cc", "cc", "cctest.c", cc_source, sizeof cc_source - 1, o, state, err,
			  errlen);
}

static int cc_body(void *state, const void *arg, volatile sig_atomic_t *stop, double *amount,
		   char *err, size_t errlen)
{
	(void)arg;
	struct tool_state *s = state;
	char *const argv[] = { (char *)"cc", (char *)"-c", (char *)"-o", s->obj, s->in, NULL };
	unsigned long n = 0;
	do {
		int st = run_tool(argv, -1);
		if (st == -1)
			return ERR("running cc: %s", strerror(errno));
		if (!WIFEXITED(st) || WEXITSTATUS(st))
			return ERR("cc -c of the test program failed (status %d)",
				   WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st));
		n++;
	} while (!*stop);
	*amount = (double)n;
	return 0;
}

const struct fixed_ops byte_cc_ops = { cc_setup, cc_body, tool_cleanup };

static int dc_setup(const void *arg, const struct micro_opts *o, void **state, char *err,
		    size_t errlen)
{
	(void)arg;
	return tool_setup("dc", "dc", "dc.dat", dc_input, sizeof dc_input - 1, o, state, err,
			  errlen);
}

/* dc's answer, its line continuations ("\" newline) taken out, is the
 * expected digits followed by a newline.  Returns true when so. */
static bool dc_answer_ok(const char *out, size_t len)
{
	size_t k = 0;
	for (size_t i = 0; i < len; i++) {
		if (out[i] == '\\' && i + 1 < len && out[i + 1] == '\n') {
			i++;
			continue;
		}
		if (out[i] == '\n')
			return k == sizeof sqrt2_99 - 1 && i + 1 == len;
		if (k >= sizeof sqrt2_99 - 1 || out[i] != sqrt2_99[k])
			return false;
		k++;
	}
	return false;
}

static int dc_body(void *state, const void *arg, volatile sig_atomic_t *stop, double *amount,
		   char *err, size_t errlen)
{
	(void)arg;
	struct tool_state *s = state;
	char *const argv[] = { (char *)"dc", s->in, NULL };
	unsigned long n = 0;
	do {
		int pfd[2];
		if (pipe2(pfd, O_CLOEXEC))
			return ERR("pipe: %s", strerror(errno));
		/* the child's end is dup2()ed to its standard output, which
		 * clears O_CLOEXEC there */
		int st;
		char out[512];
		size_t got = 0;
		pid_t p = micro_fork();
		if (p < 0) {
			close(pfd[0]);
			close(pfd[1]);
			return ERR("fork: %s", strerror(errno));
		}
		if (p == 0) {
			int null = open("/dev/null", O_RDWR);
			if (null < 0)
				_exit(126);
			dup2(null, 0);
			dup2(pfd[1], 1);
			dup2(null, 2);
			execvp(argv[0], argv);
			_exit(127);
		}
		close(pfd[1]);
		for (;;) {
			ssize_t r = read(pfd[0], out + got, sizeof out - got);
			if (r < 0 && errno == EINTR)
				continue;
			if (r <= 0)
				break;
			got += (size_t)r;
			if (got == sizeof out)
				break;
		}
		close(pfd[0]);
		st = micro_reap(p);
		if (st == -1)
			return ERR("waitpid: %s", strerror(errno));
		if (!WIFEXITED(st) || WEXITSTATUS(st))
			return ERR("dc failed (status %d)",
				   WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st));
		if (!dc_answer_ok(out, got))
			return ERR("dc printed the wrong digits of sqrt(2)");
		n++;
	} while (!*stop);
	*amount = (double)n;
	return 0;
}

const struct fixed_ops byte_dc_ops = { dc_setup, dc_body, tool_cleanup };
