/* kbench - the import command: old text reports into results files
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * usage: kbench import [--label TEXT] [--kernel RELEASE] [--clients N] [--rows N,N,...]
 *                      [--verbose]
 *                      -o RESULTS.json FILE...
 *
 * Every FILE is read whole and given to each reader (imp_readers.h); what they
 * find is kept per system (machine line, host, kernel, build) and test.
 * Then one results file is written per system: to RESULTS.json when the
 * inputs hold one, else to the name made from -o by putting each
 * system's name where "%k" stands (status 2 when -o has no "%k").
 *
 * Invariants: every input is read before anything is written; a line
 * that holds figures the readers cannot place is named on stderr with
 * the reason, never guessed; nothing is written when no figure was read
 * (status 1).
 */
#include "config.h"
#include "commands.h"
#include "cli.h"
#include "import/impstore.h"
#include "import/imp_readers.h"
#include "import/imp_util.h"
#include "import/imp_closest.h"

#include <ctype.h>
#include <errno.h>
#include <popt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <fcntl.h>
#include <unistd.h>

/* Read path whole into f, its lines cut in place.  Returns 0 or -1 with
 * errno. */
static int read_file(const char *path, struct imp_file *f)
{
	/* O_NONBLOCK: a FIFO named as a report does not hang the command */
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	FILE *in = fd < 0 ? NULL : fdopen(fd, "r");
	size_t cap = 0, len = 0, n;
	char chunk[65536];
	memset(f, 0, sizeof(*f));
	f->path = path;
	struct stat st;
	if (!in) {
		int e = errno;
		if (fd >= 0)
			close(fd);
		errno = e;
		return -1;
	}
	if (fstat(fileno(in), &st) < 0 || !S_ISREG(st.st_mode)) {
		fclose(in);
		errno = S_ISDIR(st.st_mode) ? EISDIR : EINVAL;
		return -1;
	}
	while ((n = fread(chunk, 1, sizeof(chunk), in)) > 0) {
		if (len + n + 1 > cap) {
			size_t ncap = (len + n + 1) * 2;
			char *nb = realloc(f->buf, ncap);
			if (!nb) {
				fclose(in);
				return -1;
			}
			f->buf = nb;
			cap = ncap;
		}
		memcpy(f->buf + len, chunk, n);
		len += n;
	}
	int err = ferror(in);
	fclose(in);
	if (err) {
		errno = EIO;
		return -1;
	}
	if (!f->buf && !(f->buf = calloc(1, 1)))
		return -1;
	f->buf[len] = '\0';
	f->len = len;
	size_t lines = 1;
	for (size_t i = 0; i < len; i++)
		lines += f->buf[i] == '\n';
	f->line = calloc(lines + 1, sizeof(char *));
	f->flag = calloc(lines + 1, 1);
	if (!f->line || !f->flag)
		return -1;
	char *p = f->buf;
	while (p < f->buf + len) {
		char *e = memchr(p, '\n', (size_t)(f->buf + len - p));
		size_t l = e ? (size_t)(e - p) : (size_t)(f->buf + len - p);
		if (e)
			*e = '\0';
		if (l && p[l - 1] == '\r')
			p[--l] = '\0';
		unsigned char flag = 0;
		if (memchr(p, '\0', l)) {  /* the readers see "", buf stays whole */
			flag = IMP_LINE_NUL;
			p += l;
		} else if (imp_quote_len(p)) {
			flag = IMP_LINE_QUOTED;
			p += imp_quote_len(p);
		}
		f->flag[f->nlines] = flag;
		f->line[f->nlines++] = p;
		if (!e)
			break;
		p = e + 1;
	}
	return 0;
}

static void free_file(struct imp_file *f)
{
	free(f->flag);
	free(f->line);
	free(f->buf);
}

/* Every reader over one file; --verbose names the lines none read. */
static int import_file(struct imp *im, const char *path)
{
	struct imp_file f;
	if (read_file(path, &f) < 0) {
		int e = errno;
		free_file(&f);
		fprintf(stderr, "%s: %s: %s\n", im->cmd, path,
			e == EINVAL ? "not a regular file" : strerror(e));
		return KB_EXIT_USAGE;
	}
	im->used = calloc(f.nlines + 1, 1);
	im->nused = f.nlines;
	int rc = im->used ? 0 : -1;
	int (*const readers[])(struct imp *, const struct imp_file *) = {
		imp_read_harness, imp_read_byte, imp_read_bytecmp, imp_read_bytecols,
		imp_read_lmbench, imp_read_table, imp_read_avgtable, imp_read_tput,
	};
	size_t before = im->nfigs;
	for (size_t i = 0; !rc && i < f.nlines; i++)
		if (f.flag[i] & IMP_LINE_NUL)
			imp_skip(im, &f, i + 1, "the line holds a NUL byte: its figures are not "
				 "what a tool prints");
	for (size_t i = 0; !rc && !im->bad && i < sizeof(readers) / sizeof(readers[0]); i++)
		rc = readers[i](im, &f) < 0 ? -1 : 0;
	for (size_t i = 0; !rc && !im->bad && im->verbose && i < f.nlines; i++)
		if (!im->used[i] && f.line[i][strspn(f.line[i], " \t")])
			fprintf(stderr, "%s: %s:%zu: not read (no form kbench import knows)\n",
				im->cmd, path, i + 1);
	char near[300];
	if (!rc && !im->bad && im->nfigs == before && imp_closest_form(&f, near, sizeof(near)))
		fprintf(stderr, "%s: %s: no figure found in any form kbench import reads; the "
			"closest, %s\n", im->cmd, path, near);
	else if (!rc && !im->bad && im->nfigs == before)
		fprintf(stderr, "%s: %s: no figure found in any form kbench import reads\n",
			im->cmd, path);
	free(im->used);
	im->used = NULL;
	free_file(&f);
	if (rc) {
		fprintf(stderr, "%s: out of memory\n", im->cmd);
		return KB_EXIT_FAIL;
	}
	return im->bad ? KB_EXIT_USAGE : 0;
}

/* --rows' text ("2,3") into v (at most max counts, each 1 to 10^6), *n
 * their number.  Returns 0, or -1 when it is not that. */
static int parse_rows(const char *s, size_t *v, size_t max, size_t *n)
{
	*n = 0;
	for (;;) {
		char *end;
		if (!isdigit((unsigned char)*s) || *n == max)
			return -1;
		errno = 0;
		unsigned long x = strtoul(s, &end, 10);
		if (errno || x < 1 || x > 1000000)
			return -1;
		v[(*n)++] = x;
		if (!*end)
			return 0;
		if (*end != ',')
			return -1;
		s = end + 1;
	}
}

int cmd_import(int argc, const char **argv)
{
	char *out = NULL, *label = NULL, *kernel = NULL, *rows = NULL;
	size_t rowv[64], nrows = 0;
	int verbose = 0, clients = 0;
	char *clients_arg = NULL;
	struct poptOption options[] = {
		{ "output", 'o', POPT_ARG_STRING, &out, 0,
		  "the results file to write; with several systems in the inputs, a name holding "
		  "%k (each system's name put there)", "FILE" },
		{ "label", 0, POPT_ARG_STRING, &label, 0,
		  "the label of the results (default: the system's name)", "TEXT" },
		{ "kernel", 0, POPT_ARG_STRING, &kernel, 0,
		  "the kernel release of figures whose report does not say", "RELEASE" },
		{ "clients", 0, POPT_ARG_STRING, &clients_arg, 0,
		  "the client count of the dbench and tbench figures of an LKP stats.json or "
		  "matrix.json without dbench.clients", "N" },
		{ "rows", 0, POPT_ARG_STRING, &rows, 0,
		  "where a report does not prove which runs are whose (a line naming several "
		  "kernels over runs, LMbench rows whose OS column is cut): of each test's runs in "
		  "report order, the first N are one system's, the next N the next's", "N,N,..." },
		{ "verbose", 'v', POPT_ARG_NONE, &verbose, 0,
		  "also name every line not read, and each figure checked against the report's "
		  "own", NULL },
		POPT_AUTOHELP
		POPT_TABLEEND
	};
	struct imp im = { .cmd = argv[0] };
	poptContext ctx = poptGetContext(argv[0], argc, argv, options, 0);
	poptSetOtherOptionHelp(ctx, "[OPTIONS] -o RESULTS.json FILE...");
	int status = cli_popt_done(ctx, argv[0], cli_popt_next(ctx, options));
	const char **files = status ? NULL : poptGetArgs(ctx);
	if (!status && !out)
		status = cli_usage_error(argv[0], "-o RESULTS.json is missing: where to write");
	else if (!status && (!files || !files[0]))
		status = cli_usage_error(argv[0], "give the report files to read");
	uint64_t count = 0;
	/* 0 is no count: it would read as --clients not given */
	if (!status && clients_arg && cli_parse_uint(clients_arg, 1, 1000000, &count) < 0)
		status = cli_usage_error(argv[0], "--clients %s: give a count of 1 or more (at most "
					 "1000000)",
					 clients_arg);
	clients = (int)count;
	if (!status && rows && parse_rows(rows, rowv, sizeof(rowv) / sizeof(rowv[0]), &nrows) < 0)
		status = cli_usage_error(argv[0], "--rows %s: give counts of 1 or more, comma "
					 "separated (at most %zu)", rows,
					 sizeof(rowv) / sizeof(rowv[0]));
	im.rows = nrows ? rowv : NULL;
	im.nrows = nrows;
	im.verbose = verbose;
	im.clients = clients;
	im.kernel = kernel;
	for (size_t i = 0; !status && files[i]; i++)
		status = import_file(&im, files[i]);
	if (!status && nrows && !im.rows_used)
		fprintf(stderr, "%s: --rows %s: no runs in the inputs whose split is unproven: "
			"not used\n", argv[0], rows);
	if (!status)
		status = imp_write_all(&im, out, label, files);
	imp_free(&im);
	free(out);
	free(label);
	free(kernel);
	free(rows);
	free(clients_arg);
	poptFreeContext(ctx);
	return status;
}
