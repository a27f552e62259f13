/* kbench - import: the result files of LKP and mmtests, and kbench's exports of them
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Three forms, each told by its shape:
 *  - LKP's stats.json and matrix.json (a file whose first character past
 *    blanks is '{'): one JSON object; keys "dbench.throughput_MB/s" (LKP
 *    today), "dbench.throughput-MB/sec" (older LKP), "throughput-MB/s"
 *    (kbench's own earlier reading), "dbench.max_latency", likewise
 *    tbench, each a number (stats.json: one run) or an array of numbers
 *    (matrix.json: one a run).  "dbench.clients" is the client count
 *    (a number, or an array with one a run); --clients gives it for a
 *    file without it (a file whose count differs from --clients is
 *    skipped with a line), and with neither each key is skipped with a
 *    line.  Tests "dbench N" (MB/s) and "dbench N max_latency" (ms),
 *    likewise tbench.  A key given twice is bad input.
 *  - kbench compare --export lkp: "TEST.throughput_MB/s: X" lines (TEST
 *    as "load_4"); X, the mean of the runs, is kept as one run of "load 4"
 *    ("max_latency" as "load 4 max_latency", ms); the harmonic mean is
 *    the same runs again and is not kept.  A line with no TEST prefix
 *    does not say which test it is and is skipped with a line.
 *  - mmtests' rows, as kbench compare --export mmtests writes them: six
 *    tab-separated columns "metric factorA factorB interval value extra";
 *    "throughput CLIENTS UNIT RUN VALUE LABEL" is one run of "load
 *    CLIENTS", "max_latency CLIENTS ms ..." one of "load CLIENTS
 *    max_latency"; other rows do not say which way is better and are
 *    skipped with a line.
 * A value that is not a number, or a '{' file that is not whole JSON, is
 * bad input: one line, im->bad set (status 2), nothing written.
 */
#include "config.h"
#include "import/imp_readers.h"
#include "import/impstore.h"
#include "import/imp_util.h"

#include <ctype.h>
#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Say that line ln of f is bad input, and why, on one line. */
static void bad(struct imp *im, const struct imp_file *f, size_t ln, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static void bad(struct imp *im, const struct imp_file *f, size_t ln, const char *fmt, ...)
{
	va_list ap;
	if (im->bad)
		return;
	fprintf(stderr, "%s: %s:%zu: ", im->cmd, f->path, ln);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	im->bad = true;
}

/* One run of test "WHO N[ max_latency]". */
static int add_run(struct imp *im, const struct imp_file *f, size_t ln, const char *who,
		   long clients, bool latency, const char *unit, const char *tool, const char *run,
		   double v)
{
	char name[96];
	snprintf(name, sizeof(name), "%s %ld%s", who, clients, latency ? " max_latency" : "");
	struct imp_sys sys = { 0 };
	struct imp_fig fig = { name, name, latency ? "ms" : unit, !latency, tool, NULL, 0, v, ln,
			       run, NULL, NULL, 0, NULL };
	return imp_add(im, f, &sys, &fig) < 0 ? -1 : 1;
}

/* The line of f where "key" stands first, or 1. */
static size_t key_line(const struct imp_file *f, const char *key)
{
	char q[300];
	snprintf(q, sizeof(q), "\"%s\"", key);
	for (size_t i = 0; i < f->nlines; i++)
		if (strstr(f->line[i], q))
			return i + 1;
	return 1;
}

/* Is metric LKP's throughput key, in one of the spellings it had? */
static bool lkp_throughput(const char *metric)
{
	return !strcmp(metric, "throughput_MB/s") || !strcmp(metric, "throughput-MB/sec") ||
	       !strcmp(metric, "throughput-MB/s");
}

/* The client count of run i of WHO's keys in doc: "WHO.clients" (a
 * number, or an array of one a run), else --clients; 0 when neither
 * says, -1 when they disagree or the file's is not a whole count >= 1. */
static long lkp_clients(const struct imp *im, json_t *doc, const char *who, size_t i)
{
	char key[32];
	snprintf(key, sizeof(key), "%s.clients", who);
	json_t *c = json_object_get(doc, key);
	if (!c)
		return im->clients;
	if (json_is_array(c))
		c = json_array_get(c, json_array_size(c) == 1 ? 0 : i);
	double v = json_is_number(c) ? json_number_value(c) : 0;
	if (!(v >= 1 && v <= 1e9) || v != (long)v || (im->clients && im->clients != (long)v))
		return -1;
	return (long)v;
}

/* One key of an LKP JSON object: its runs. */
static int lkp_key(struct imp *im, const struct imp_file *f, json_t *doc, const char *key,
		   json_t *val)
{
	size_t ln = key_line(f, key), klen = strcspn(key, ".");
	char who[16], run[400], tool[64];
	const char *metric = key + klen + (key[klen] == '.');
	bool latency = !strcmp(metric, "max_latency");
	if (!strcmp(metric, "clients")) {
		imp_used(im, ln);
		return 0;
	}
	if (klen >= sizeof(who) || !key[klen] || (!latency && !lkp_throughput(metric))) {
		imp_note(im, f, ln, "\"%s\": not a figure kbench import reads", key);
		imp_used(im, ln);
		return 0;
	}
	snprintf(who, sizeof(who), "%.*s", (int)klen, key);
	if (strcmp(who, "dbench") && strcmp(who, "tbench")) {
		imp_note(im, f, ln, "\"%s\": not dbench's or tbench's", key);
		imp_used(im, ln);
		return 0;
	}
	size_t n = json_is_array(val) ? json_array_size(val) : 1;
	for (size_t i = 0; i < n; i++) {
		json_t *v = json_is_array(val) ? json_array_get(val, i) : val;
		if (!json_is_number(v)) {
			bad(im, f, ln, "\"%s\": a value that is not a number", key);
			return 0;
		}
	}
	if (!lkp_clients(im, doc, who, 0)) {
		imp_skip(im, f, ln, "\"%s\": the file does not say how many clients ran; give "
			 "--clients", key);
		return 0;
	}
	snprintf(tool, sizeof(tool), "%s (LKP JSON)", who);
	int added = 0;
	for (size_t i = 0; i < n; i++) {
		json_t *v = json_is_array(val) ? json_array_get(val, i) : val;
		long clients = lkp_clients(im, doc, who, i);
		if (clients <= 0) {
			imp_skip(im, f, ln, "\"%s\" run %zu: %s.clients is not a client count, or "
				 "not the one --clients gives", key, i + 1, who);
			continue;
		}
		snprintf(run, sizeof(run), "%s:%s[%zu]", f->path, key, i);
		if (add_run(im, f, ln, who, clients, latency, "MB/s", tool, run,
			    json_number_value(v)) < 0)
			return -1;
		added++;
	}
	return added;
}

static int read_lkp_json(struct imp *im, const struct imp_file *f)
{
	size_t len = 1;
	for (size_t i = 0; i < f->nlines; i++)
		len += strlen(f->line[i]) + 1;
	char *text = malloc(len), *p = text;
	if (!text)
		return -1;
	for (size_t i = 0; i < f->nlines; i++) {
		if (f->flag[i] & IMP_LINE_NUL) {
			bad(im, f, i + 1, "a NUL byte inside the JSON");
			free(text);
			return 0;
		}
		p += sprintf(p, "%s%s", i ? "\n" : "", f->line[i]);
	}
	*p = '\0';
	json_error_t err;
	json_t *doc = json_loads(text, JSON_REJECT_DUPLICATES, &err);
	free(text);
	if (!doc || !json_is_object(doc)) {
		bad(im, f, doc ? 1 : (size_t)(err.line > 0 ? err.line : 1),
		    "not a JSON object as LKP's stats.json and matrix.json are: %s",
		    doc ? "another JSON value" : err.text);
		json_decref(doc);
		return 0;
	}
	const char *key;
	json_t *val;
	int added = 0;
	json_object_foreach(doc, key, val) {
		int rc = lkp_key(im, f, doc, key, val);
		if (rc < 0) {
			json_decref(doc);
			return -1;
		}
		added += rc;
		if (im->bad)
			break;
	}
	json_decref(doc);
	return added;
}

/* "load_4" (export's test word) as who "load" and clients 4; false if not. */
static bool test_word(const char *s, size_t n, char *who, size_t wn, long *clients)
{
	const char *u = memchr(s, '_', n);
	char num[24];
	double c;
	if (!u || (size_t)(u - s) >= wn || n - (size_t)(u - s) - 1 >= sizeof(num))
		return false;
	snprintf(num, sizeof(num), "%.*s", (int)(n - (size_t)(u - s) - 1), u + 1);
	if (!imp_number(num, &c) || c < 1 || c != (long)c)
		return false;
	snprintf(who, wn, "%.*s", (int)(u - s), s);
	*clients = (long)c;
	return !strcmp(who, "load");
}

/* One "KEY: VALUE" line of kbench compare --export lkp: 0 not that form. */
static int lkp_line(struct imp *im, const struct imp_file *f, size_t ln)
{
	const char *l = f->line[ln - 1], *colon = strstr(l, ": ");
	static const char *const metrics[] = { "throughput_MB/s", "throughput_MB/s_harmonic_mean",
					       "max_latency" };
	if (!colon)
		return 0;
	size_t klen = (size_t)(colon - l), m;
	for (m = 0; m < 3; m++) {
		size_t ml = strlen(metrics[m]);
		if (klen >= ml && !strncmp(l + klen - ml, metrics[m], ml) &&
		    (klen == ml || l[klen - ml - 1] == '.'))
			break;
	}
	if (m == 3)
		return 0;
	double v;
	size_t plen = klen - strlen(metrics[m]);
	char who[16], run[320];
	long clients = 0;
	bool prefixed = plen && test_word(l, plen - 1, who, sizeof(who), &clients);
	if (!imp_number(colon + 2, &v)) {
		/* "max_latency: 12 ms on the new kernel" is prose, not this form */
		if (prefixed)
			bad(im, f, ln, "%.*s: '%s' is not a number", (int)klen, l, colon + 2);
		return 0;
	}
	if (!prefixed) {
		imp_skip(im, f, ln, "%.*s: no 'load_N.' before it says which test it is",
			 (int)klen, l);
		return 0;
	}
	if (m == 1) {
		imp_note(im, f, ln, "a harmonic mean of runs the file gives as their mean: not kept");
		imp_used(im, ln);
		return 0;
	}
	snprintf(run, sizeof(run), "%s:%zu", f->path, ln);
	return add_run(im, f, ln, who, clients, m == 2, "MB/s", "kbench load (LKP stats)", run, v);
}

/* One six-column row of mmtests' form: 0 when not that form. */
static int mmtests_row(struct imp *im, const struct imp_file *f, size_t ln)
{
	char copy[512], *c[7], run[320];
	size_t n = 0;
	if (strlen(f->line[ln - 1]) >= sizeof(copy))
		return 0;
	snprintf(copy, sizeof(copy), "%s", f->line[ln - 1]);
	for (char *p = copy, *t; n < 7; p = t + 1) {
		c[n++] = p;
		if (!(t = strchr(p, '\t')))
			break;
		*t = '\0';
	}
	if (n != 6)
		return 0;
	bool latency = !strcmp(c[0], "max_latency");
	double clients, runno, v;
	if (!latency && strcmp(c[0], "throughput")) {
		imp_skip(im, f, ln, "mmtests row '%s': which way is better is not recorded", c[0]);
		return 0;
	}
	if (!imp_number(c[4], &v)) {
		bad(im, f, ln, "%s: value '%s' is not a number", c[0], c[4]);
		return 0;
	}
	if (!imp_number(c[1], &clients) || clients < 1 || clients != (long)clients ||
	    !imp_number(c[3], &runno) || runno < 1) {
		imp_skip(im, f, ln, "%s: no client count and run number in columns 2 and 4; the "
			 "run cannot be placed", c[0]);
		return 0;
	}
	snprintf(run, sizeof(run), "%s:%zu", f->path, ln);
	return add_run(im, f, ln, "load", (long)clients, latency, c[2], "kbench load (mmtests rows)",
		       run, v);
}

int imp_read_harness(struct imp *im, const struct imp_file *f)
{
	/* the file's first byte past blanks, from the whole buffer: a line
	 * holding a NUL byte is "" to the readers, but JSON all the same */
	size_t first = 0;
	while (first < f->len && (isspace((unsigned char)f->buf[first]) || !f->buf[first]))
		first++;
	if (first < f->len && f->buf[first] == '{')
		return read_lkp_json(im, f);
	int added = 0;
	for (size_t ln = 1; ln <= f->nlines && !im->bad; ln++) {
		int rc = lkp_line(im, f, ln);
		if (!rc && !im->bad)
			rc = mmtests_row(im, f, ln);
		if (rc < 0)
			return -1;
		added += rc;
	}
	return added;
}
