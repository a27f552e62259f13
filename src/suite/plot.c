/* kbench - compare --plot: the figures drawn by gnuplot
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * kbench writes a gnuplot script with the figures inline (datablocks) into
 * a temporary file and runs gnuplot on it; nothing else is written but
 * the picture.  Two charts, one above the other when both have data:
 *   - kbench load: mean MB/s (10^6 bytes) against the client count, one
 *     line per results file (and memory limit), error bars the interval of
 *     the mean at the chosen confidence;
 *   - every other test: the change of the mean against A in percent, one
 *     bar per file B, C, ..., error bars the interval of the difference
 *     (Welch), in percent of A's mean; a change against a mean of 0 has
 *     no bar, and its row's name says "n/a" for that file.
 * Every string from a results file is escaped (escape.h) before it is
 * quoted for gnuplot, so the picture shows what the terminal would.
 */
#include "config.h"
#include "suite/child.h"
#include "suite/compare.h"
#include "suite/escape.h"
#include "suite/plot.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int plot_available(void)
{
	const char *path = getenv("PATH");
	char dir[PATH_MAX + 16];
	if (!path || !*path)
		path = "/usr/local/bin:/usr/bin:/bin";
	while (*path) {
		size_t len = strcspn(path, ":");
		snprintf(dir, sizeof(dir), "%.*s/gnuplot", (int)(len ? len : 1), len ? path : ".");
		if (access(dir, X_OK) == 0)
			return 1;
		path += len + (path[len] == ':');
	}
	return 0;
}

/* s escaped (escape.h): no control character is left, so no name from a
 * results file can end a gnuplot command or datablock line and start one
 * of its own.  malloc'd; NULL when out of memory. */
static char *escaped(const char *s)
{
	size_t n = esc_len(s) + 1;
	char *e = malloc(n);
	return e ? esc_str(e, n, s) : NULL;
}

/* s as a gnuplot single-quoted string (backslashes are literal there):
 * a quote is doubled; s holds no control character */
static void quoted_raw(FILE *f, const char *s)
{
	fputc('\'', f);
	for (; *s; s++) {
		if (*s == '\'')
			fputc('\'', f);
		fputc(*s, f);
	}
	fputc('\'', f);
}

/* a string from a results file, escaped, as a single-quoted string */
static void quoted(FILE *f, const char *s)
{
	char *e = escaped(s);
	quoted_raw(f, e ? e : "");
	free(e);
}

/* the inside of a double-quoted string of a datablock line: no double
 * quote (it would end the string: becomes a single one); a backslash
 * doubled (gnuplot takes one as an escape there) */
static void datum(FILE *f, const char *s)
{
	char *e = escaped(s);
	for (const char *p = e ? e : ""; *p; p++) {
		if (*p == '\\')
			fputc('\\', f);
		fputc(*p == '"' ? '\'' : *p, f);
	}
	free(e);
}

/* Is r a kbench load test (drawn against its client count)? */
static bool is_load(const struct cmp_row *r)
{
	const char *command = json_string_value(json_object_get(r->t[0]->params, "command"));
	return command && !strcmp(command, "load");
}

/* The memory limit of r's load test in A, "" for none. */
static const char *mem_of(const struct cmp_row *r)
{
	const char *m = json_string_value(json_object_get(r->t[0]->params, "mem_limit"));
	return m ? m : "";
}

static const char *file_title(const struct cmp *c, size_t k, char *buf, size_t n)
{
	const char *label = json_string_value(json_object_get(c->f[k].doc, "label"));
	snprintf(buf, n, "%c: %s", (int)('A' + k), label && *label ? label : c->f[k].path);
	return buf;
}

/* The distinct memory limits of the load rows ("" for none); returns how many. */
static size_t mem_groups(const struct cmp *c, const char **mems, size_t max)
{
	size_t n = 0;
	for (size_t i = 0; i < c->nrows; i++) {
		const struct cmp_row *r = &c->rows[i];
		if (!is_load(r))
			continue;
		const char *m = mem_of(r);
		size_t j = 0;
		while (j < n && strcmp(mems[j], m))
			j++;
		if (j == n && n < max)
			mems[n++] = m;
	}
	return n;
}

static void load_chart(FILE *f, const struct cmp *c, const char **mems, size_t nmems)
{
	char title[300];
	fprintf(f, "set title 'kbench load: mean MB/s against clients (MB = 10^6 bytes; "
		   "bars: %g%% interval of the mean)'\n", c->conf);
	fprintf(f, "set xlabel 'clients'\nset ylabel 'MB/s'\nset key left top box opaque\n"
		   "set grid\nset offsets graph 0.05, graph 0.05, graph 0.1, 0\n"
		   "set xrange [*:*]\nset yrange [0:*]\n");
	/* tics at the client counts measured; a log scale when they spread wide */
	long lo = 0, hi = 0;
	fprintf(f, "set xtics (");
	for (size_t i = 0, first = 1; i < c->nrows; i++) {
		if (!is_load(&c->rows[i]))
			continue;
		long n = (long)json_integer_value(json_object_get(c->rows[i].t[0]->params, "clients"));
		fprintf(f, "%s%ld", first ? "" : ", ", n);
		lo = first || n < lo ? n : lo;
		hi = first || n > hi ? n : hi;
		first = 0;
	}
	fprintf(f, ")\n%s\n", lo > 0 && hi >= 8 * lo ? "set logscale x 2" : "unset logscale x");
	for (size_t k = 0; k < c->nf; k++)
		for (size_t m = 0; m < nmems; m++) {
			fprintf(f, "$L%zu_%zu << EOD\n", k, m);
			for (size_t i = 0; i < c->nrows; i++) {
				const struct cmp_row *r = &c->rows[i];
				if (!is_load(r) || !r->t[k] || !r->t[k]->n || strcmp(mem_of(r), mems[m]))
					continue;
				fprintf(f, "%lld %.10g %.10g\n", (long long)json_integer_value(
					json_object_get(r->t[0]->params, "clients")), r->s[k].mean,
					isfinite(r->ci[k]) ? r->ci[k] : 0.0);
			}
			fprintf(f, "EOD\n");
		}
	fprintf(f, "plot ");
	for (size_t k = 0; k < c->nf; k++)
		for (size_t m = 0; m < nmems; m++) {
			file_title(c, k, title, sizeof(title) - 40);
			if (*mems[m])
				snprintf(title + strlen(title), 40, " mem=%s", mems[m]);
			fprintf(f, "%s$L%zu_%zu using 1:2:3 with yerrorlines lw 2 pt 7 title ",
				k || m ? ", \\\n     " : "", k, m);
			quoted(f, title);
			fprintf(f, " noenhanced");
		}
	fprintf(f, "\n");
}

/* The change of file k on row r as drawn (NAN: no bar). */
static double bar(const struct cmp_row *r, size_t k)
{
	if (r->v[k] == T_TOO_FEW || !isfinite(r->d[k].pct))
		return r->change[k];
	return r->d[k].pct;
}

/* Has the change of file k on row r no percentage (A's mean is 0)? */
static int is_na(const struct cmp_row *r, size_t k)
{
	return r->t[0]->n && r->t[k] && r->t[k]->n && !isfinite(r->change[k]);
}

/* Rows of the change chart with a bar of file k (k = 0: of any file). */
static size_t other_rows(const struct cmp *c, size_t k)
{
	size_t n = 0;
	for (size_t i = 0; i < c->nrows; i++) {
		if (is_load(&c->rows[i]))
			continue;
		for (size_t j = k ? k : 1; j < (k ? k + 1 : c->nf); j++)
			if (isfinite(bar(&c->rows[i], j))) {
				n++;
				break;
			}
	}
	return n;
}

static void change_chart(FILE *f, const struct cmp *c)
{
	char title[300];
	fprintf(f, "set title 'change of the mean against A, percent (bars: %g%% interval of the "
		   "difference, Welch)'\n", c->conf);
	fprintf(f, "set xlabel ''\nset ylabel '%%'\nset key left top box opaque\nset grid y\n"
		   "unset offsets\nunset logscale x\nset xrange [*:*]\nset yrange [*:*]\n"
		   "set style data histograms\nset style histogram errorbars gap 1 lw 1\n"
		   "set style fill solid 0.6 border -1\nunset xtics\nset xtics rotate by -20 noenhanced\n"
		   "set xzeroaxis lt -1\n");
	fprintf(f, "$R << EOD\n");
	for (size_t i = 0; i < c->nrows; i++) {
		const struct cmp_row *r = &c->rows[i];
		if (is_load(r))
			continue;
		fputc('"', f);
		datum(f, r->name);
		fputs(" (", f);
		datum(f, r->unit);
		fprintf(f, "%s", r->higher_is_better ? "" : ", lower is better");
		for (size_t k = 1; k < c->nf; k++)
			if (is_na(r, k))
				fprintf(f, "; %c: n/a", (int)('A' + k));
		fputs(")\"", f);
		for (size_t k = 1; k < c->nf; k++) {
			double v = bar(r, k);
			if (!isfinite(v))
				fprintf(f, " NaN 0");
			else
				fprintf(f, " %.10g %.10g", v, r->v[k] == T_TOO_FEW ||
					!isfinite(r->d[k].pct) ? 0.0 : r->d[k].pct_half);
		}
		fprintf(f, "\n");
	}
	fprintf(f, "EOD\nplot ");
	int first = 1;
	for (size_t k = 1; k < c->nf; k++) {
		if (!other_rows(c, k))
			continue;   /* gnuplot refuses a series without a point */
		fprintf(f, "%s$R using %zu:%zu%s title ", first ? "" : ", ", 2 * k, 2 * k + 1,
			first ? ":xtic(1)" : "");
		first = 0;
		quoted(f, file_title(c, k, title, sizeof(title)));
		fprintf(f, " noenhanced");
	}
	fprintf(f, "\n");
}

void plot_script(FILE *f, const struct cmp *c, const char *file)
{
	const char *mems[16];
	size_t nmems = mem_groups(c, mems, 16), nother = other_rows(c, 0);
	int charts = (nmems > 0) + (nother > 0);
	int png = strlen(file) > 4 && !strcmp(file + strlen(file) - 4, ".png");
	int h = charts == 2 ? 900 : 500;
	if (png)
		fprintf(f, "set terminal pngcairo size 1000,%d font 'sans,10'\n", h);
	else
		fprintf(f, "set terminal svg size 1000,%d dynamic font 'sans,11' background "
			   "rgb 'white'\n", h);
	/* gnuplot takes an output name starting with '|' as a shell command:
	 * the file of that name in the current directory is meant; the name
	 * itself is not escaped (it is the file to write) */
	fprintf(f, "set output ");
	if (file[0] == '|') {
		char *here = malloc(strlen(file) + 3);
		if (here)
			sprintf(here, "./%s", file);
		quoted_raw(f, here ? here : "");
		free(here);
	} else {
		quoted_raw(f, file);
	}
	fprintf(f, "\nset encoding utf8\n");
	if (charts == 2)
		fprintf(f, "set multiplot layout 2,1\n");
	if (nmems)
		load_chart(f, c, mems, nmems);
	if (nother)
		change_chart(f, c);
	if (charts == 2)
		fprintf(f, "unset multiplot\n");
	int na = 0;
	for (size_t i = 0; i < c->nrows; i++)
		for (size_t k = 1; k < c->nf; k++)
			na |= is_na(&c->rows[i], k);
	if (!charts)
		fprintf(f, "set title 'no figures to draw%s'\nunset xtics\nunset ytics\n"
			   "set xrange [0:1]\nset yrange [0:1]\nplot NaN notitle\n",
			na ? " (a change against a mean of 0 is n/a)" : "");
}

int plot_write(const struct cmp *c, const char *file)
{
	char script[] = "/tmp/kbench-plot.XXXXXX", log[] = "/tmp/kbench-plot-log.XXXXXX";
	char shown[300], why[300];
	int fd = mkstemp(script), lfd = mkstemp(log);
	esc_str(shown, sizeof(shown), file);
	if (fd < 0 || lfd < 0) {
		fprintf(stderr, "%s: --plot: cannot make a temporary file: %s\n", c->cmd,
			strerror(errno));
		if (fd >= 0)
			close(fd), unlink(script);
		if (lfd >= 0)
			close(lfd), unlink(log);
		return 1;
	}
	close(lfd);
	FILE *f = fdopen(fd, "w");
	if (!f) {
		close(fd);
		unlink(script);
		unlink(log);
		return 1;
	}
	plot_script(f, c, file);
	int werr = ferror(f);
	werr |= fclose(f) != 0;
	struct child_result r;
	volatile sig_atomic_t never = 0;
	const char *args[] = { script, NULL };
	int rc = 0;
	if (werr || child_run("gnuplot", args, log, log, &never, &r) < 0 || r.status != 0) {
		fprintf(stderr, "%s: --plot %s: gnuplot failed: %s\n", c->cmd, shown,
			werr ? "cannot write its script" : esc_str(why, sizeof(why), r.last_line));
		rc = 1;
	}
	unlink(script);
	unlink(log);
	return rc;
}
