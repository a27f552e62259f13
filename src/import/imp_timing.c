/* kbench - import: hdparm "Timing" lines (imp_timing.h)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * hdparm times reads in one line each:
 *   Timing cached reads:   18876 MB in  1.99 seconds = 9485.66 MB/sec
 *   Timing buffer-cache reads:   128 MB in  3.42 seconds = 37.43 MB/sec   (older)
 *   Timing buffered disk reads:  64 MB in 10.53 seconds =  6.08 MB/sec
 *   Timing O_DIRECT cached reads: ..., Timing O_DIRECT disk reads: ...
 * hdparm's MB is 2^20 bytes (its kB 2^10): the figure is kept in MiB/s,
 * the test "hdparm -T", "hdparm -t", "hdparm --direct -T" or "... -t".
 * Each line is one run.  A device hdparm names ("/dev/sda:" on its own
 * line above, or before "Timing" on the same line) is part of the test,
 * "hdparm -t /dev/sda": two disks are never one test's runs.  The lines
 * are found, and their kernel and device carried down, by imp_tput.c's
 * one pass over a file.
 */
#include "config.h"
#include "import/imp_timing.h"
#include "import/imp_util.h"
#include "import/impstore.h"

#include <stdio.h>
#include <string.h>

size_t imp_hdparm_device(const char *l, char *dev, size_t n)
{
	size_t len = strcspn(l, ": \t");
	if (strncmp(l, "/dev/", 5) || len <= 5 || l[len] != ':' || len >= n)
		return 0;
	snprintf(dev, n, "%.*s", (int)len, l);
	return len + 1;
}

int imp_hdparm_timing(struct imp *im, const struct imp_file *f, size_t ln, const char *dev,
		      const struct imp_sys *sys)
{
	const char *l = f->line[ln - 1], *what = strstr(l, "Timing ") + 7;
	const char *eq = strrchr(l, '=');
	char phrase[100], copy[200], *w[8], run[300], test[128];
	const char *name = NULL;
	double v;
	imp_trim_copy(phrase, sizeof(phrase), what, strcspn(what, ":"));
	if (!strcmp(phrase, "cached reads") || !strcmp(phrase, "buffer-cache reads"))
		name = "hdparm -T";
	else if (!strcmp(phrase, "buffered disk reads"))
		name = "hdparm -t";
	else if (!strcmp(phrase, "O_DIRECT cached reads"))
		name = "hdparm --direct -T";
	else if (!strcmp(phrase, "O_DIRECT disk reads"))
		name = "hdparm --direct -t";
	if (!name) {
		imp_skip(im, f, ln, "'Timing %s': not a timing hdparm prints", phrase);
		return 0;
	}
	if (!eq) {
		imp_skip(im, f, ln, "%s: no '= X MB/sec'", name);
		return 0;
	}
	/* quoted-printable mail wrote '=' as "=3D" ("seconds =3D148.84 MB/sec") */
	snprintf(copy, sizeof(copy), "%s", eq + 1 + (eq[1] == '3' && eq[2] == 'D' ? 2 : 0));
	size_t n = imp_words(copy, w, 8);
	char next[64], *nw[2];
	if (n == 1 && ln < f->nlines) {  /* "=185.51 " and "MB/sec" wrapped to the next line */
		snprintf(next, sizeof(next), "%s", f->line[ln]);
		if (imp_words(next, nw, 2) == 1 && (!strcmp(nw[0], "MB/sec") || !strcmp(nw[0], "kB/sec"))) {
			w[1] = nw[0];
			n = 2;
			imp_used(im, ln + 1);
		}
	}
	if (n < 2 || !imp_number(w[0], &v) ||
	    (strcmp(w[1], "MB/sec") && strcmp(w[1], "kB/sec") && strcmp(w[1], "KB/sec"))) {
		imp_skip(im, f, ln, "%s: not '= X MB/sec' or '= X kB/sec'", name);
		return 0;
	}
	if (w[1][0] != 'M')
		v /= 1024;
	/* two devices are two tests, never one pooled */
	snprintf(test, sizeof(test), "%s%s%s", name, dev[0] ? " " : "", dev);
	snprintf(run, sizeof(run), "%s:%zu", f->path, ln);
	struct imp_fig fig = { test, test, "MiB/s", true, "hdparm", NULL, 0, v, ln, run, NULL,
			       NULL, 0, NULL };
	struct imp_sys s = imp_sys_of(f, ln, sys);
	return imp_add(im, f, &s, &fig) < 0 ? -1 : 1;
}
