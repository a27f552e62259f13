/* kbench - compare --plot: the figures drawn by gnuplot
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * kbench writes a gnuplot script with the figures inline (datablocks) into
 * a temporary file and runs gnuplot on it; nothing else is written but
 * the picture.  Two charts, one above the other when both have data:
 *   - kbench load: the median MB/s (10^6 bytes; the mean with --test
 *     welch, with the interval of the mean as error bars) against the
 *     client count, one line per results file (and memory limit), and
 *     every run as a point beside it;
 *   - every other test: the change of the median (mean) against A in
 *     percent, one bar per file B, C, ... (with Welch, error bars the
 *     interval of the difference in percent of A's mean), and every run of
 *     every file as a point in percent of A's median (mean); a change
 *     against 0 has no bar, and its row's name says "n/a" for that file.
 * Nothing is dropped or clipped: a failed run (the file's failures naming
 * the test) is a cross at 0 (load) or at the bottom (the others); the y
 * range holds every bar and interval, and a run more than twice the bars'
 * span beyond them is a triangle at the edge labelled with its figure.
 * The keys sit outside the charts and the titles have two lines of room.
 * Every string from a results file is escaped (escape.h) before it is
 * quoted for gnuplot, so the picture shows what the terminal would.
 */
#include "config.h"
#include "suite/child.h"
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

/* "B: LABEL", or "B: PATH" when the label is missing or another file's
 * too (compare --by: one file's parts share its label). */
static const char *file_title(const struct cmp *c, size_t k, char *buf, size_t n)
{
	const char *label = json_string_value(json_object_get(c->f[k].doc, "label"));
	bool shared = false;
	for (size_t j = 0; label && j < c->nf; j++) {
		const char *other = json_string_value(json_object_get(c->f[j].doc, "label"));
		shared |= j != k && other && !strcmp(other, label);
	}
	snprintf(buf, n, "%c: %s", (int)('A' + k), label && *label && !shared ? label :
		 c->f[k].path);
	return buf;
}

/* The memory limit of file k's test on r, "" for none. */
static const char *mem_in(const struct cmp_row *r, size_t k)
{
	const char *m = r->t[k] ? json_string_value(json_object_get(r->t[k]->params,
								   "mem_limit")) : NULL;
	return m ? m : "";
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

/* Failed runs of file k's test t (the file's failures naming it). */
static size_t failed_runs(const struct cmp *c, size_t k, const struct sf_test *t)
{
	size_t i, n = 0;
	json_t *e;
	if (!t)
		return 0;
	json_array_foreach(json_object_get(c->f[k].doc, "failures"), i, e) {
		const char *name = json_string_value(json_object_get(e, "test"));
		n += name && !strcmp(name, t->name);
	}
	return n;
}

static bool welch(const struct cmp *c)
{
	return c->method == CMP_WELCH;
}

static long clients_of(const struct cmp_row *r)
{
	return (long)json_integer_value(json_object_get(r->t[0]->params, "clients"));
}

/* x of file k's points at client count x: spread a little apart so the
 * files' runs do not hide each other (by a factor on a log scale) */
static double jitter(const struct cmp *c, double x, size_t k, bool logx, double span)
{
	double off = (double)k - (double)(c->nf - 1) / 2;
	return logx ? x * pow(2, 0.05 * off) : x + 0.012 * span * off;
}

static void load_chart(FILE *f, const struct cmp *c, const char **mems, size_t nmems)
{
	char title[300];
	long lo = 0, hi = 0;
	double ymax = 0;
	bool first = true;
	for (size_t i = 0; i < c->nrows; i++) {
		const struct cmp_row *r = &c->rows[i];
		if (!is_load(r))
			continue;
		long n = clients_of(r);
		lo = first || n < lo ? n : lo;
		hi = first || n > hi ? n : hi;
		first = false;
		for (size_t k = 0; k < c->nf; k++) {
			if (!r->t[k])
				continue;
			for (size_t j = 0; j < r->t[k]->n; j++)
				ymax = fmax(ymax, r->t[k]->v[j]);
			if (r->t[k]->n && isfinite(r->ci[k]) && welch(c))
				ymax = fmax(ymax, r->s[k].mean + r->ci[k]);
		}
	}
	bool logx = lo > 0 && hi >= 8 * lo;
	double span = (double)(hi - lo) + 1;
	fprintf(f, "set title \"kbench load: %s MB/s against clients (MB = 10^6 bytes)\\n"
		   "points: every run; crosses at 0: failed runs%s\" noenhanced\n",
		welch(c) ? "mean" : "median",
		welch(c) ? "; bars: the interval of the mean" : "");
	if (welch(c))
		fprintf(f, "set title \"kbench load: mean MB/s against clients (MB = 10^6 bytes)\\n"
			   "points: every run; crosses at 0: failed runs; bars: %g%% interval of the "
			   "mean\" noenhanced\n", c->conf);
	fprintf(f, "set xlabel 'clients'\nset ylabel 'MB/s'\nset key outside right top box Left reverse\n"
		   "set grid\nunset offsets\nset yrange [0:%.10g]\n", ymax > 0 ? ymax * 1.08 : 1);
	if (logx)
		fprintf(f, "set logscale x 2\nset xrange [%.10g:%.10g]\n", lo / 1.3, hi * 1.3);
	else
		fprintf(f, "unset logscale x\nset xrange [%.10g:%.10g]\n", lo - 0.08 * span,
			hi + 0.08 * span);
	fprintf(f, "set xtics (");
	first = true;
	for (size_t i = 0; i < c->nrows; i++)
		if (is_load(&c->rows[i])) {
			fprintf(f, "%s%ld", first ? "" : ", ", clients_of(&c->rows[i]));
			first = false;
		}
	fprintf(f, ")\n");
	size_t nfail = 0;
	for (size_t k = 0; k < c->nf; k++)
		for (size_t m = 0; m < nmems; m++) {
			fprintf(f, "$L%zu_%zu << EOD\n", k, m);
			for (size_t i = 0; i < c->nrows; i++) {
				const struct cmp_row *r = &c->rows[i];
				if (!is_load(r) || !r->t[k] || !r->t[k]->n || strcmp(mem_of(r), mems[m]))
					continue;
				fprintf(f, "%ld %.10g %.10g\n", clients_of(r), cmp_center(c, r, k),
					welch(c) && isfinite(r->ci[k]) ? r->ci[k] : 0.0);
			}
			fprintf(f, "EOD\n$P%zu_%zu << EOD\n", k, m);
			for (size_t i = 0; i < c->nrows; i++) {
				const struct cmp_row *r = &c->rows[i];
				if (!is_load(r) || !r->t[k] || strcmp(mem_of(r), mems[m]))
					continue;
				for (size_t j = 0; j < r->t[k]->n; j++)
					fprintf(f, "%.10g %.10g run\n", jitter(c, (double)clients_of(r), k,
						logx, span), r->t[k]->v[j]);
				for (size_t j = failed_runs(c, k, r->t[k]); j > 0; j--, nfail++)
					fprintf(f, "%.10g 0 failed\n", jitter(c, (double)clients_of(r), k,
						logx, span));
			}
			fprintf(f, "EOD\n");
		}
	fprintf(f, "plot ");
	for (size_t k = 0; k < c->nf; k++)
		for (size_t m = 0; m < nmems; m++) {
			int color = (int)(k * nmems + m + 1);
			/* the limit of this file's tests on these rows (A's may differ:
			 * "load 4" against "load 4 mem=48M") */
			const char *mk = "";
			for (size_t i = 0; i < c->nrows && !*mk; i++)
				if (is_load(&c->rows[i]) && !strcmp(mem_of(&c->rows[i]), mems[m]))
					mk = mem_in(&c->rows[i], k);
			file_title(c, k, title, sizeof(title) - 40);
			if (*mk && !strstr(title, " mem="))
				snprintf(title + strlen(title), 40, " mem=%s", mk);
			fprintf(f, "%s$L%zu_%zu using 1:2%s with %s lw 2 pt 7 lc %d title ",
				k || m ? ", \\\n     " : "", k, m, welch(c) ? ":3" : "",
				welch(c) ? "yerrorlines" : "linespoints", color);
			quoted(f, title);
			fprintf(f, " noenhanced, \\\n     $P%zu_%zu using 1:(strcol(3) eq 'run' ? $2 : NaN) with points "
				   "pt 6 ps 0.9 lc %d notitle", k, m, color);
		}
	/* the failed runs, each file's in its colour; one key entry */
	for (size_t k = 0; nfail && k < c->nf; k++)
		for (size_t m = 0; m < nmems; m++)
			fprintf(f, ", \\\n     $P%zu_%zu using 1:(strcol(3) eq 'failed' ? 0 : NaN) with "
				   "points pt 2 ps 2 lw 3 lc %d notitle", k, m, (int)(k * nmems + m + 1));
	if (nfail)
		fprintf(f, ", \\\n     NaN with points pt 2 ps 2 lw 3 lc black title 'failed run "
			   "(no figure)'");
	fprintf(f, "\n");
}

/* Has the change of file k on row r no percentage (A's centre is 0)? */
static int is_na(const struct cmp_row *r, size_t k)
{
	return r->t[0]->n && r->t[k] && r->t[k]->n && !isfinite(r->change[k]);
}

/* Rows of the change chart (every test but load). */
static size_t other_rows(const struct cmp *c)
{
	size_t n = 0;
	for (size_t i = 0; i < c->nrows; i++)
		n += !is_load(&c->rows[i]) && c->rows[i].t[0]->n;
	return n;
}

/* Run j of file k on r in percent of A's centre (NAN when it is 0). */
static double run_pct(const struct cmp *c, const struct cmp_row *r, size_t k, size_t j)
{
	double x0 = cmp_center(c, r, 0);
	return x0 != 0 ? 100 * (r->t[k]->v[j] - x0) / fabs(x0) : NAN;
}

/* The change chart's y range: every bar and interval inside, and the runs
 * unless one lies more than twice the bars' span beyond them (those are
 * drawn at the edge as triangles with their figure). */
static void change_range(const struct cmp *c, double *ylo, double *yhi)
{
	double lo = 0, hi = 0;
	for (size_t i = 0; i < c->nrows; i++) {
		const struct cmp_row *r = &c->rows[i];
		if (is_load(r) || !r->t[0]->n)
			continue;
		for (size_t k = 1; k < c->nf; k++) {
			if (!isfinite(r->change[k]))
				continue;
			double h = welch(c) && r->test_v[k] != T_TOO_FEW && isfinite(r->d[k].pct_half) ?
				   r->d[k].pct_half : 0;
			double y = welch(c) && r->test_v[k] != T_TOO_FEW && isfinite(r->d[k].pct) ?
				   r->d[k].pct : r->change[k];
			lo = fmin(lo, y - h);
			hi = fmax(hi, y + h);
		}
	}
	double span = fmax(hi - lo, 1), plo = lo, phi = hi;
	for (size_t i = 0; i < c->nrows; i++) {
		const struct cmp_row *r = &c->rows[i];
		if (is_load(r) || !r->t[0]->n)
			continue;
		for (size_t k = 0; k < c->nf; k++)
			for (size_t j = 0; r->t[k] && j < r->t[k]->n; j++) {
				double y = run_pct(c, r, k, j);
				if (isfinite(y) && y >= lo - 2 * span && y <= hi + 2 * span) {
					plo = fmin(plo, y);
					phi = fmax(phi, y);
				}
			}
	}
	double pad = 0.08 * fmax(phi - plo, 1);
	*ylo = plo - pad;
	*yhi = phi + pad;
}

static void change_chart(FILE *f, const struct cmp *c)
{
	char title[300];
	double ylo, yhi, w = 0.8 / (double)c->nf;
	change_range(c, &ylo, &yhi);
	if (welch(c))
		fprintf(f, "set title \"change of the mean against A, percent of A's mean\\n"
			   "points: every run; bars: %g%% interval of the difference (Welch); "
			   "crosses: failed runs; triangles: runs off the scale\" noenhanced\n", c->conf);
	else
		fprintf(f, "set title \"change of the median against A, percent of A's median\\n"
			   "points: every run (A's at the left of each test); crosses: failed runs; "
			   "triangles: runs off the scale\" noenhanced\n");
	fprintf(f, "set xlabel ''\nset ylabel '%%'\nset key outside right top box Left reverse\nset grid y\n"
		   "unset offsets\nunset logscale x\nset xrange [-0.6:%.10g]\n"
		   "set yrange [%.10g:%.10g]\nset boxwidth %.10g absolute\n"
		   "set style fill solid 0.5 border -1\nset xzeroaxis lt -1\n",
		(double)other_rows(c) - 0.4, ylo, yhi, w * 0.9);
	fprintf(f, "set xtics rotate by -20 noenhanced (");
	size_t x = 0;
	for (size_t i = 0; i < c->nrows; i++) {
		const struct cmp_row *r = &c->rows[i];
		if (is_load(r) || !r->t[0]->n)
			continue;
		fprintf(f, "%s\"", x ? ", " : "");
		datum(f, r->name);
		fputs(" (", f);
		datum(f, r->unit);
		fprintf(f, "%s", r->higher_is_better ? "" : ", lower is better");
		for (size_t k = 1; k < c->nf; k++)
			if (is_na(r, k))
				fprintf(f, "; %c: n/a", (int)('A' + k));
		fprintf(f, ")\" %zu", x++);
	}
	fprintf(f, ")\n");
	size_t nfail = 0, noff = 0;
	for (size_t k = 0; k < c->nf; k++) {
		/* bars (x y err), runs (x y), runs off the scale (x y label), failures (x y) */
		fprintf(f, "$B%zu << EOD\n", k);
		x = 0;
		for (size_t i = 0; i < c->nrows; i++) {
			const struct cmp_row *r = &c->rows[i];
			if (is_load(r) || !r->t[0]->n)
				continue;
			double xi = (double)x++ - 0.4 + w * ((double)k + 0.5);
			if (k && isfinite(r->change[k])) {
				bool iv = welch(c) && r->test_v[k] != T_TOO_FEW && isfinite(r->d[k].pct);
				fprintf(f, "%.10g %.10g %.10g\n", xi, iv ? r->d[k].pct : r->change[k],
					iv ? r->d[k].pct_half : 0.0);
			}
		}
		fprintf(f, "EOD\n$Q%zu << EOD\n", k);
		x = 0;
		for (size_t i = 0; i < c->nrows; i++) {
			const struct cmp_row *r = &c->rows[i];
			if (is_load(r) || !r->t[0]->n)
				continue;
			double xi = (double)x++ - 0.4 + w * ((double)k + 0.5);
			for (size_t j = 0; r->t[k] && j < r->t[k]->n; j++) {
				double y = run_pct(c, r, k, j);
				if (!isfinite(y))
					continue;
				if (y < ylo || y > yhi) {
					fprintf(f, "%.10g %.10g \"%+.0f%%\" %d\n", xi, y < ylo ? ylo : yhi, y,
						y < ylo ? -1 : 1);
					noff++;
				} else {
					fprintf(f, "%.10g %.10g \"\" 0\n", xi, y);
				}
			}
			for (size_t j = failed_runs(c, k, r->t[k]); j > 0; j--, nfail++)
				fprintf(f, "%.10g %.10g \"failed\" 2\n", xi, ylo);
		}
		fprintf(f, "EOD\n");
	}
	fprintf(f, "plot ");
	bool first = true;
	for (size_t k = 0; k < c->nf; k++) {
		int color = (int)k + 1;
		fprintf(f, "%s", first ? "" : ", \\\n     ");
		first = false;
		if (k) {
			fprintf(f, "$B%zu using 1:2 with boxes lc %d title ", k, color);
			quoted(f, file_title(c, k, title, sizeof(title)));
			fprintf(f, " noenhanced, \\\n     ");
			if (welch(c))
				fprintf(f, "$B%zu using 1:2:3 with yerrorbars pt -1 lw 2 lc black notitle, "
					   "\\\n     ", k);
		}
		fprintf(f, "$Q%zu using 1:($4 == 0 ? $2 : NaN) with points pt 6 ps 0.9 lc %d %s",
			k, color, k ? "notitle" : "title 'A: its runs'");
		if (noff)
			fprintf(f, ", \\\n     $Q%zu using 1:($4 == 1 ? $2 : NaN) with points pt 9 ps 1.5 "
				   "lc %d notitle, \\\n     $Q%zu using 1:($4 == -1 ? $2 : NaN) with points "
				   "pt 11 ps 1.5 lc %d notitle, \\\n     $Q%zu using 1:($4 == 1 || $4 == -1 ? "
				   "$2 : NaN):3 with labels offset 2.5,0 font ',8' notitle", k, color, k,
				color, k);
		if (nfail)
			fprintf(f, ", \\\n     $Q%zu using 1:($4 == 2 ? $2 : NaN) with points pt 2 ps 2 lw 3 "
				   "lc %d notitle", k, color);
	}
	if (nfail)
		fprintf(f, ", \\\n     NaN with points pt 2 ps 2 lw 3 lc black title 'failed run "
			   "(no figure)'");
	if (noff)
		fprintf(f, ", \\\n     NaN with points pt 9 ps 1.5 lc black title 'run off the scale'");
	fprintf(f, "\n");
}

void plot_script(FILE *f, const struct cmp *c, const char *file)
{
	const char *mems[16];
	size_t nmems = mem_groups(c, mems, 16), nother = other_rows(c);
	int charts = (nmems > 0) + (nother > 0);
	int png = strlen(file) > 4 && !strcmp(file + strlen(file) - 4, ".png");
	int h = charts == 2 ? 1000 : 560;
	if (png)
		fprintf(f, "set terminal pngcairo size 1100,%d font 'sans,10'\n", h);
	else
		fprintf(f, "set terminal svg size 1100,%d dynamic font 'sans,11' background "
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
	/* room for the two-line titles, the key outside, the tilted names */
	fprintf(f, "set lmargin 10\nset rmargin 34\n");
	if (charts == 2)
		fprintf(f, "set multiplot layout 2,1 spacing 0,0.14\n");
	if (nmems) {
		fprintf(f, "set tmargin 4\nset bmargin 4\n");
		load_chart(f, c, mems, nmems);
	}
	if (nother) {
		fprintf(f, "set tmargin 4\nset bmargin 7\n");
		change_chart(f, c);
	}
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

void plot_quoted(FILE *f, const char *s)
{
	quoted(f, s);
}

const char *plot_file_title(const struct cmp *c, size_t k, char *buf, size_t n)
{
	return file_title(c, k, buf, n);
}

int plot_write(const struct cmp *c, const char *file)
{
	return plot_run(c, file, plot_script);
}

int plot_run(const struct cmp *c, const char *file,
	     void (*script_of)(FILE *, const struct cmp *, const char *))
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
	script_of(f, c, file);
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
