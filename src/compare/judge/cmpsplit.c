/* kbench - compare --by: one results file split by a dimension of its test names
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * kbench suite --mem-limit names each test "NAME mem=LIMIT"; --by mem
 * makes one file per limit of such a file, each holding that limit's
 * tests under their names without it, so the files compare as any others.
 */
#include "config.h"
#include "compare/judge/cmpsplit.h"
#include "compare/judge/cmprow.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Where " DIM=" starts in name, and its value's length; NULL if absent. */
static const char *dim_of(const char *name, const char *dim, size_t *vlen)
{
	char key[40];
	snprintf(key, sizeof(key), " %s=", dim);
	const char *m = strstr(name, key);
	if (!m)
		return NULL;
	*vlen = strcspn(m + strlen(key), " ");
	return m;
}

/* Add value (len bytes) to vals (n of them, at most max) unless there. */
static void add_value(char **vals, size_t *n, size_t max, const char *v, size_t len)
{
	for (size_t i = 0; i < *n; i++)
		if (strlen(vals[i]) == len && !strncmp(vals[i], v, len))
			return;
	if (*n < max && (vals[*n] = strndup(v, len)))
		(*n)++;
}

/* File out: f's tests whose dimension has value val, renamed without it. */
static int split_one(const struct suitefile *f, const char *dim, const char *val,
		     struct suitefile *out)
{
	size_t klen = strlen(dim) + 2, vlen;
	memset(out, 0, sizeof(*out));
	out->t = calloc(f->nt + 1, sizeof(*out->t));
	if (!out->t || asprintf(&out->path, "%s %s=%s", f->path, dim, val) < 0) {
		out->path = NULL;
		return -1;
	}
	out->doc = json_incref(f->doc);
	for (size_t i = 0; i < f->nt; i++) {
		const struct sf_test *t = &f->t[i];
		const char *m = dim_of(t->name, dim, &vlen);
		if (!m || vlen != strlen(val) || strncmp(m + klen, val, vlen))
			continue;
		struct sf_test *o = &out->t[out->nt];
		*o = *t;
		o->v = malloc((t->n + 1) * sizeof(double));
		o->own_name = malloc(strlen(t->name) + 1);
		if (!o->v || !o->own_name) {
			free(o->v);
			free(o->own_name);
			return -1;
		}
		memcpy(o->v, t->v, t->n * sizeof(double));
		size_t head = (size_t)(m - t->name);
		memcpy(o->own_name, t->name, head);
		strcpy(o->own_name + head, m + klen + vlen);
		o->name = o->own_name;
		out->nt++;
		out->nruns += t->n;
	}
	return 0;
}

int cmp_split_by(const struct suitefile *f, const char *dim, struct suitefile *out,
		 size_t max, size_t *nout, size_t *left)
{
	char *vals[CMP_MAX_FILES];
	size_t nv = 0, vlen, i;
	json_t *v;
	*nout = *left = 0;
	if (!strcmp(dim, "mem"))
		json_array_foreach(json_object_get(json_object_get(f->doc, "params"), "mem_limits"),
				   i, v)
			if (json_is_string(v))
				add_value(vals, &nv, max, json_string_value(v),
					  strlen(json_string_value(v)));
	for (i = 0; i < f->nt; i++) {
		const char *m = dim_of(f->t[i].name, dim, &vlen);
		if (m)
			add_value(vals, &nv, max, m + strlen(dim) + 2, vlen);
		else
			(*left)++;
	}
	int rc = nv < 2 ? -2 : 0;
	for (i = 0; i < nv; i++) {
		if (!rc && split_one(f, dim, vals[i], &out[*nout]) < 0) {
			suitefile_free(&out[*nout]);
			errno = ENOMEM;
			rc = -1;
		} else if (!rc) {
			(*nout)++;
		}
		free(vals[i]);
	}
	if (rc == -2)
		*nout = nv;   /* values found; nothing made */
	return rc;
}
