/* kbench - compare --plot: what every chart shares (see plotutil.h)
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"
#include "resultsfile/escape.h"
#include "compare/charts/plotutil.h"

#include <stdlib.h>
#include <string.h>

/* s escaped (escape.h): no control character is left, so no name from a
 * results file can end a gnuplot command or datablock line and start one
 * of its own.  malloc'd; NULL when out of memory. */
static char *escaped(const char *s)
{
	size_t n = esc_len(s) + 1;
	char *e = malloc(n);
	return e ? esc_str(e, n, s) : NULL;
}

/* a quote is doubled; backslashes are literal in single quotes */
void plot_quoted_raw(FILE *f, const char *s)
{
	fputc('\'', f);
	for (; *s; s++) {
		if (*s == '\'')
			fputc('\'', f);
		fputc(*s, f);
	}
	fputc('\'', f);
}

void plot_quoted(FILE *f, const char *s)
{
	char *e = escaped(s);
	plot_quoted_raw(f, e ? e : "");
	free(e);
}

void plot_datum(FILE *f, const char *s)
{
	char *e = escaped(s);
	for (const char *p = e ? e : ""; *p; p++) {
		if (*p == '\\')
			fputc('\\', f);
		fputc(*p == '"' ? '\'' : *p, f);
	}
	free(e);
}

const char *plot_file_title(const struct cmp *c, size_t k, char *buf, size_t n)
{
	const char *label = json_string_value(json_object_get(c->f[k].doc, "label"));
	bool shared = false;
	for (size_t j = 0; label && j < c->nf; j++) {
		const char *other = json_string_value(json_object_get(c->f[j].doc, "label"));
		shared |= j != k && other && !strcmp(other, label);
	}
	/* files split from one (compare --by) share its label: the label and
	 * the split's value ("lim mem=32M"), not the path */
	const char *sp = strrchr(c->f[k].path, ' ');
	if (label && *label && shared && sp && strchr(sp, '='))
		snprintf(buf, n, "%c: %s%s", (int)('A' + k), label, sp);
	else
		snprintf(buf, n, "%c: %s", (int)('A' + k), label && *label && !shared ? label :
			 c->f[k].path);
	return buf;
}

const char *plot_color(size_t k)
{
	/* Okabe and Ito's palette, yellow left out (too faint on white) */
	static const char *const colors[] = { "#0072b2", "#d55e00", "#009e73", "#cc79a7",
					      "#e69f00", "#56b4e9", "#000000", "#8c564b" };
	return colors[k % (sizeof(colors) / sizeof(colors[0]))];
}

static const char *param(const struct cmp_row *r, const char *key)
{
	return r->t[0] ? json_string_value(json_object_get(r->t[0]->params, key)) : NULL;
}

bool plot_is_load(const struct cmp_row *r)
{
	const char *command = param(r, "command");
	return command && !strcmp(command, "load");
}

bool plot_is_disk(const struct cmp_row *r)
{
	const char *command = param(r, "command");
	return command && !strcmp(command, "disk");
}

const char *plot_family(const struct cmp_row *r)
{
	const char *f = param(r, "family");
	if (!f)
		f = param(r, "tool");
	if (!f)
		f = param(r, "command");
	return f ? f : "other";
}

size_t plot_failed_runs(const struct cmp *c, size_t k, const struct sf_test *t)
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

void plot_open(FILE *f, const char *file, int w, int h, int font)
{
	size_t len = strlen(file);
	if (len > 4 && !strcmp(file + len - 4, ".png"))
		fprintf(f, "set terminal pngcairo size %d,%d font 'sans,%d'\n", w, h, font);
	else
		fprintf(f, "set terminal svg size %d,%d dynamic font 'sans,%d' background "
			   "rgb 'white'\n", w, h, font + 1);
	fprintf(f, "set output ");
	if (file[0] == '|') {
		char *here = malloc(len + 3);
		if (here)
			sprintf(here, "./%s", file);
		plot_quoted_raw(f, here ? here : "");
		free(here);
	} else {
		plot_quoted_raw(f, file);
	}
	fprintf(f, "\nset encoding utf8\n");
}
