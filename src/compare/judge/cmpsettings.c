/* kbench - compare: the machine settings in which two results files differ (see cmpsettings.h)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The table below says which tests each recorded setting can move; a
 * setting missing from it is shown as differing but moves nothing.
 */
#include "config.h"
#include "result/caveat.h"
#include "compare/judge/cmpsettings.h"
#include "resultsfile/escape.h"
#include "sys/settings.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const struct {
	const char *key;
	enum cmp_moves moves;
} machine[] = {
	{ "cmdline", MOVES_TIMING }, { "kernel_config", MOVES_NOTHING },
	{ "preempt", MOVES_TIMING }, { "hz", MOVES_TIMING }, { "mitigations", MOVES_TIMING },
	{ "governor", MOVES_TIMING }, { "boost", MOVES_TIMING }, { "cpu_mhz", MOVES_TIMING },
	{ "smt", MOVES_TIMING }, { "numa_nodes", MOVES_TIMING },
	{ "thp_enabled", MOVES_MEMORY }, { "thp_defrag", MOVES_MEMORY },
	{ "swappiness", MOVES_LOAD }, { "dirty_ratio", MOVES_WRITEBACK },
	{ "dirty_background_ratio", MOVES_WRITEBACK }, { "dirty_bytes", MOVES_WRITEBACK },
	{ "dirty_background_bytes", MOVES_WRITEBACK }, { "loadfile_digest", MOVES_LOAD },
	{ "build", MOVES_MICRO },
};

/* a disk row's device (params.device_info, system.disk.settings) */
static const char *const disk_keys[] = { "scheduler", "read_ahead_kb", "write_cache",
					 "rotational", "dma", "nr_requests", "queue_depth" };

const char *cmp_moves_text(enum cmp_moves m)
{
	switch (m) {
	case MOVES_NOTHING: return "nothing alone: the kernel's own build, part of what is compared";
	case MOVES_TIMING: return "every timing";
	case MOVES_DISK: return "disk tests";
	case MOVES_MEMORY: return "memory latencies and bandwidths, page faults, mmap";
	case MOVES_WRITEBACK: return "load and file-writing tests";
	case MOVES_LOAD: return "load tests";
	case MOVES_MICRO: return "micro tests";
	}
	return "?";
}

static bool prefixed(const char *name, const char *const *list)
{
	for (; *list; list++)
		if (!strncmp(name, *list, strlen(*list)))
			return true;
	return false;
}

/* Can a setting that moves m move the test name of command cmd (load,
 * disk, micro; NULL: not known)? */
static bool moves_named(enum cmp_moves m, const char *name, const char *cmd)
{
	static const char *const memory[] = { "lat_mem", "bw_mem", "lat_pagefault", "lat_mmap",
					      "bw_mmap", NULL };
	static const char *const writes[] = { "lat_fs", "byte_fcopy", "byte_fwrite", NULL };
	bool load = cmd && !strcmp(cmd, "load"), micro = cmd && !strcmp(cmd, "micro");
	switch (m) {
	case MOVES_NOTHING: return false;
	case MOVES_TIMING: return true;
	case MOVES_DISK: return cmd && !strcmp(cmd, "disk");
	case MOVES_MEMORY: return micro && prefixed(name, memory);
	case MOVES_WRITEBACK: return load || (micro && prefixed(name, writes));
	case MOVES_LOAD: return load;
	case MOVES_MICRO: return micro;
	}
	return false;
}

bool cmp_moves_test(enum cmp_moves m, const struct sf_test *t)
{
	return moves_named(m, t->name, json_string_value(json_object_get(t->params, "command")));
}

/* The settings a file records: system.settings, else those of the first
 * run document that has them (a plain micro document read as a file). */
static const json_t *file_settings(const struct suitefile *f)
{
	const json_t *s = json_object_get(json_object_get(f->doc, "system"), "settings");
	for (size_t i = 0; !json_is_object(s) && i < f->nt; i++) {
		const json_t *r = json_array_get(json_object_get(f->t[i].row, "runs"), 0);
		s = json_object_get(json_object_get(json_object_get(r, "document"), "system"),
				    "settings");
	}
	return json_is_object(s) ? s : NULL;
}

/* A recorded value as text: strings as they are, the rest as JSON; NULL
 * for a value that says nothing (absent, null, "unknown"). */
static const char *text_of(const json_t *v, char *buf, size_t n)
{
	if (!v || json_is_null(v))
		return NULL;
	if (json_is_string(v))
		return strcmp(json_string_value(v), SETTINGS_UNKNOWN) ? json_string_value(v) : NULL;
	char *s = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT);
	snprintf(buf, n, "%s", s ? s : "?");
	free(s);
	return buf;
}

/* Is token tok (len bytes) one of line's blank-separated tokens? */
static bool has_token(const char *line, const char *tok, size_t len)
{
	for (const char *p = line; *p;) {
		p += strspn(p, " ");
		size_t l = strcspn(p, " ");
		if (l == len && !strncmp(p, tok, len))
			return true;
		p += l;
	}
	return false;
}

/* A boot token that names the kernel's own files, not a setting. */
static bool kernel_file_token(const char *tok)
{
	return !strncmp(tok, "BOOT_IMAGE=", 11) || !strncmp(tok, "initrd=", 7);
}

/* "+tok" for each token of b not in a, "-tok" for each of a not in b,
 * after "cmdline", into out; false when they differ in nothing but the
 * kernel's own files. */
static bool cmdline_brief(const char *a, const char *b, char *out, size_t n)
{
	size_t used = (size_t)snprintf(out, n, "cmdline");
	bool any = false;
	for (int side = 0; side < 2; side++) {
		const char *from = side ? a : b, *other = side ? b : a;
		for (const char *p = from; *p;) {
			p += strspn(p, " ");
			size_t l = strcspn(p, " ");
			if (l && !has_token(other, p, l) && !kernel_file_token(p)) {
				any = true;
				if (used < n)
					used += (size_t)snprintf(out + used, n - used, " %c%.*s",
								 side ? '-' : '+', (int)l, p);
			}
			p += l;
		}
	}
	if (used >= n && n > 4)
		strcpy(out + n - 4, "...");
	return any;
}

/* Does v differ from w beyond what reading them allows? */
static bool differs(const char *key, const char *a, const char *b)
{
	if (!strcmp(key, "cpu_mhz")) {
		double x = atof(a), y = atof(b);
		return fabs(x - y) > 0.01 * fmax(x, y);
	}
	return strcmp(a, b) != 0;
}

/* Append name's difference to out when va and vb differ. */
static void add_diff(struct cmp_sdiff *out, size_t max, size_t *n, const char *name,
		     const char *key, const json_t *va, const json_t *vb, enum cmp_moves m)
{
	char ba[256], bb[256];
	const char *a = text_of(va, ba, sizeof(ba)), *b = text_of(vb, bb, sizeof(bb));
	if (!a || !b || !differs(key, a, b) || *n >= max)
		return;
	struct cmp_sdiff *d = &out[*n];
	snprintf(d->name, sizeof(d->name), "%s", name);
	snprintf(d->a, sizeof(d->a), "%s", a);
	snprintf(d->b, sizeof(d->b), "%s", b);
	d->moves = m;
	if (!strcmp(key, "cmdline")) {
		if (!cmdline_brief(a, b, d->brief, sizeof(d->brief)))
			return;
	} else if (!strcmp(key, "kernel_config") || !strcmp(key, "loadfile_digest") ||
		   !strcmp(key, "build")) {
		snprintf(d->brief, sizeof(d->brief), "%s differs", name);
	} else {
		snprintf(d->brief, sizeof(d->brief), "%s=%.*s", name, 100, b);
	}
	for (char *p = d->name; *p; p++)
		if (*p == ' ' && d->brief[p - d->name] == ' ')
			d->brief[p - d->name] = '.';   /* "mitigations.spectre_v2=..." */
	++*n;
}

/* The machine settings of sa and sk (system.settings objects; NULL: none
 * recorded) that differ, appended to out from *n. */
static void machine_diff(const json_t *sa, const json_t *sk, struct cmp_sdiff *out, size_t max,
			 size_t *np)
{
	size_t n = *np;
	char name[96];
	for (size_t i = 0; sa && sk && i < sizeof(machine) / sizeof(machine[0]); i++) {
		const json_t *va = json_object_get(sa, machine[i].key);
		const json_t *vk = json_object_get(sk, machine[i].key);
		if (json_is_object(va) && json_is_object(vk)) {   /* mitigations */
			const char *vul;
			const json_t *x;
			json_object_foreach((json_t *)va, vul, x) {
				snprintf(name, sizeof(name), "%s %.60s", machine[i].key, vul);
				add_diff(out, max, &n, name, machine[i].key, x,
					 json_object_get(vk, vul), machine[i].moves);
			}
		} else if (!json_is_object(va) && !json_is_object(vk)) {
			add_diff(out, max, &n, machine[i].key, machine[i].key, va, vk,
				 machine[i].moves);
		}
	}
	*np = n;
}

size_t cmp_settings_diff(const struct cmp *c, size_t k, const struct sf_test *ta,
			 const struct sf_test *tk, struct cmp_sdiff *out, size_t max)
{
	size_t n = 0;
	char name[96];
	machine_diff(file_settings(&c->f[0]), file_settings(&c->f[k]), out, max, &n);
	const char *va = json_string_value(json_object_get(c->f[0].doc, "kbench_version"));
	const char *vk = json_string_value(json_object_get(c->f[k].doc, "kbench_version"));
	json_t *ja = va ? json_string(va) : NULL, *jk = vk ? json_string(vk) : NULL;
	add_diff(out, max, &n, "kbench_version", "kbench_version", ja, jk, MOVES_TIMING);
	json_decref(ja);
	json_decref(jk);
	/* the disk's: the row's own device_info, else the file's disk */
	const json_t *da = ta ? json_object_get(ta->params, "device_info") : NULL;
	const json_t *dk = tk ? json_object_get(tk->params, "device_info") : NULL;
	const json_t *fa = json_object_get(json_object_get(json_object_get(c->f[0].doc, "system"),
							   "disk"), "settings");
	const json_t *fk = json_object_get(json_object_get(json_object_get(c->f[k].doc, "system"),
							   "disk"), "settings");
	for (size_t i = 0; i < sizeof(disk_keys) / sizeof(disk_keys[0]); i++) {
		const json_t *x = json_object_get(da, disk_keys[i]), *y = json_object_get(dk, disk_keys[i]);
		if (!x)
			x = json_object_get(fa, disk_keys[i]);
		if (!y)
			y = json_object_get(fk, disk_keys[i]);
		snprintf(name, sizeof(name), "disk %s", disk_keys[i]);
		add_diff(out, max, &n, name, disk_keys[i], x, y, MOVES_DISK);
	}
	return n;
}

int cmp_settings_caveats(const struct cmp *c, size_t k, const struct sf_test *ta,
			 const struct sf_test *tk, json_t *cav)
{
	struct cmp_sdiff d[CMP_SETTINGS_MAX];
	size_t n = cmp_settings_diff(c, k, ta, tk, d, CMP_SETTINGS_MAX);
	char letter[2] = { (char)('A' + k), 0 };
	json_t *set = json_object(), *brief = json_array();
	char text[512];
	size_t used = 0;
	text[0] = 0;
	for (size_t i = 0; set && brief && i < n; i++) {
		if (!cmp_moves_test(d[i].moves, tk))
			continue;
		json_object_set_new(set, d[i].name, json_pack("{s:s, s:s}", "A", d[i].a, letter,
							       d[i].b));
		json_array_append_new(brief, json_string(d[i].brief));
		if (used < sizeof(text))
			used += (size_t)snprintf(text + used, sizeof(text) - used, "%s%s",
						 used ? ", " : "", d[i].brief);
	}
	int rc = set && brief ? 0 : -1;
	if (!rc && json_array_size(brief)) {
		json_t *runs = json_array();
		for (size_t j = 0; runs && j < json_array_size(json_object_get(tk->row, "runs")); j++)
			json_array_append_new(runs, json_integer((json_int_t)j + 1));
		rc = caveat_add(cav, "settings_differ", json_pack("{s:s, s:O, s:O}", "file", letter,
				"settings", set, "brief", brief), "%s's machine settings differ "
				"from A's: %s", letter, text);
		json_t *added = rc == 1 ? json_array_get(cav, json_array_size(cav) - 1) : NULL;
		if (added && runs)
			json_object_set(added, "runs", runs);
		json_decref(runs);
		rc = rc < 0 ? -1 : rc;
	}
	json_decref(set);
	json_decref(brief);
	return rc;
}

int cmp_settings_run_caveats(const struct cmp *c, size_t k, const struct sf_test *t, json_t *cav)
{
	const json_t *series = file_settings(&c->f[k]), *r;
	json_t *runs = json_array(), *ev = NULL;
	char text[400];
	size_t j;
	int rc = runs ? 0 : -1;
	json_array_foreach(json_object_get(t->row, "runs"), j, r) {
		struct cmp_sdiff d[CMP_SETTINGS_MAX];
		size_t n = 0, used = 0;
		const json_t *rs = json_object_get(json_object_get(json_object_get(r, "document"),
								   "system"), "settings");
		machine_diff(series, json_is_object(rs) ? rs : NULL, d, CMP_SETTINGS_MAX, &n);
		bool moved = false;
		for (size_t i = 0; rc == 0 && i < n; i++) {
			if (!cmp_moves_test(d[i].moves, t))
				continue;
			if (!ev) {   /* the first run that differs: its settings as evidence */
				ev = json_object();
				used = (size_t)snprintf(text, sizeof(text), "run %zu: ", j + 1);
			}
			if (ev && !json_object_get(ev, d[i].name)) {
				json_object_set_new(ev, d[i].name, json_pack("{s:s, s:s, s:I}", "series",
						    d[i].a, "run", d[i].b, "run_no", (json_int_t)j + 1));
				if (used < sizeof(text))
					used += (size_t)snprintf(text + used, sizeof(text) - used, "%s%s",
								 json_object_size(ev) > 1 ? ", " : "",
								 d[i].brief);
			}
			moved = true;
		}
		if (moved)
			json_array_append_new(runs, json_integer((json_int_t)j + 1));
	}
	if (!rc && json_array_size(runs)) {
		rc = caveat_add(cav, "settings_changed", json_incref(ev), "a machine setting "
				"changed from the series' start: %s", text);
		if (rc == 1)
			json_object_set(json_array_get(cav, json_array_size(cav) - 1), "runs", runs);
		rc = rc < 0 ? -1 : rc;
	}
	json_decref(ev);
	json_decref(runs);
	return rc;
}

bool cmp_settings_in(const json_t *cav)
{
	size_t i;
	const json_t *c;
	json_array_foreach(cav, i, c)
		if (!strcmp(json_string_value(json_object_get(c, "key")), "settings_differ"))
			return true;
	return false;
}

/* A row of A's to read the disk's settings from for file k: the first
 * disk row matched in k (NULL pair: the files' own). */
static void disk_pair(const struct cmp *c, size_t k, const struct sf_test **ta,
		      const struct sf_test **tk)
{
	*ta = *tk = NULL;
	for (size_t i = 0; i < c->nrows && !*ta; i++)
		if (c->rows[i].t[k] && cmp_moves_test(MOVES_DISK, c->rows[i].t[0])) {
			*ta = c->rows[i].t[0];
			*tk = c->rows[i].t[k];
		}
}

char *cmp_machine_line(const struct suitefile *f, bool disk, const char *mem, char *buf,
		       size_t n)
{
	const json_t *sys = json_object_get(f->doc, "system");
	const json_t *set = file_settings(f);
	const json_t *dset = json_object_get(json_object_get(sys, "disk"), "settings");
	const char *model = json_string_value(json_object_get(sys, "cpu_model"));
	const json_t *mhz = json_object_get(set, "cpu_mhz");
	char dma[160] = "", part[200];
	size_t used = 0;
	buf[0] = 0;
	if (json_object_get(sys, "description"))
		return buf;
	if (!json_is_integer(mhz))
		mhz = json_object_get(sys, "mhz");
	if (json_is_number(mhz) && json_number_value(mhz) > 0)
		used += (size_t)snprintf(buf, n, "%.0f MHz", json_number_value(mhz));
	if (model && *model && used < n)
		used += (size_t)snprintf(buf + used, n - used, "%s%s", used ? " " : "", model);
	const char *d = json_string_value(json_object_get(dset, "dma"));
	const char *sched = json_string_value(json_object_get(dset, "scheduler"));
	const json_t *ra = json_object_get(dset, "read_ahead_kb");
	if (disk && d && strcmp(d, SETTINGS_UNKNOWN))
		/* "on (UDMA/133)": hdparm's word, DMA, with the mode */
		snprintf(dma, sizeof(dma), "%s%s", !strncmp(d, "on", 2) ? "DMA" : "no DMA",
			 strchr(d, ' ') ? strchr(d, ' ') : "");
	else if (disk && sched && json_is_integer(ra))
		snprintf(dma, sizeof(dma), "scheduler %.60s, read-ahead %lld KiB", sched,
			 (long long)json_integer_value(ra));
	if (*dma && used < n)
		used += (size_t)snprintf(buf + used, n - used, "%s%s", used ? ", " : "", dma);
	const json_t *kb = json_object_get(sys, "mem_total_kB");
	if (mem && *mem)
		snprintf(part, sizeof(part), "%.100s", mem);
	else if (json_is_integer(kb) && json_integer_value(kb) > 0)
		snprintf(part, sizeof(part), "%lldM", (long long)(json_integer_value(kb) / 1024));
	else
		part[0] = 0;
	if (*part && used && used < n)
		snprintf(buf + used, n - used, ", %s", part);
	return buf;
}

void cmp_print_settings(FILE *out, const struct cmp *c, const char *prefix)
{
	bool head = false;
	for (size_t k = 1; k < c->nf; k++) {
		struct cmp_sdiff d[CMP_SETTINGS_MAX];
		const struct sf_test *ta, *tk;
		disk_pair(c, k, &ta, &tk);
		size_t n = cmp_settings_diff(c, k, ta, tk, d, CMP_SETTINGS_MAX);
		for (size_t i = 0; i < n; i++) {
			if (!head)
				fprintf(out, "%ssettings that differ (a row one can move carries "
					"settings_differ: its verdict is the kernel's and the "
					"settings' together):\n", prefix);
			head = true;
			fprintf(out, "%s  %c: ", prefix, (int)('A' + k));
			esc_put(out, d[i].name, 0);
			if (!strcmp(d[i].name, "cmdline")) {
				/* a long line: the words that differ */
				fputs(":", out);
				esc_put(out, d[i].brief + strlen("cmdline"), 0);
			} else {
				fputs(": A ", out);
				esc_put(out, d[i].a, 0);
				fprintf(out, ", %c ", (int)('A' + k));
				esc_put(out, d[i].b, 0);
			}
			fprintf(out, " (moves %s)\n", cmp_moves_text(d[i].moves));
		}
	}
}

json_t *cmp_settings_json(const struct cmp *c)
{
	json_t *all = json_array();
	for (size_t k = 1; all && k < c->nf; k++) {
		struct cmp_sdiff d[CMP_SETTINGS_MAX];
		const struct sf_test *ta, *tk;
		char letter[2] = { (char)('A' + k), 0 };
		disk_pair(c, k, &ta, &tk);
		size_t n = cmp_settings_diff(c, k, ta, tk, d, CMP_SETTINGS_MAX);
		for (size_t i = 0; i < n; i++)
			json_array_append_new(all, json_pack("{s:s, s:s, s:s, s:s, s:s, s:s}", "file",
					      letter, "setting", d[i].name, "A", d[i].a, "value",
					      d[i].b, "brief", d[i].brief, "moves",
					      cmp_moves_text(d[i].moves)));
	}
	return all;
}

void cmp_settings_put_brief(FILE *out, const json_t *caveat)
{
	const json_t *ev = json_object_get(caveat, "evidence");
	size_t i;
	const json_t *b;
	fprintf(out, " (%s:", json_string_value(json_object_get(ev, "file")) ?
		json_string_value(json_object_get(ev, "file")) : "?");
	json_array_foreach(json_object_get(ev, "brief"), i, b) {
		fputs(i ? ", " : " ", out);
		esc_put(out, json_string_value(b), 0);
	}
	fputc(')', out);
}

int cmp_settings_between(const json_t *sa, const json_t *sk, const char *name, const char *cmd,
			 size_t nruns, json_t *cav)
{
	struct cmp_sdiff d[CMP_SETTINGS_MAX];
	size_t n = 0, used = 0;
	char text[512] = "";
	machine_diff(json_is_object(sa) ? sa : NULL, json_is_object(sk) ? sk : NULL, d,
		     CMP_SETTINGS_MAX, &n);
	json_t *set = json_object(), *brief = json_array(), *runs = json_array();
	int rc = set && brief && runs ? 0 : -1;
	for (size_t i = 0; !rc && i < n; i++) {
		if (!moves_named(d[i].moves, name, cmd))
			continue;
		json_object_set_new(set, d[i].name, json_pack("{s:s, s:s}", "first", d[i].a,
							       "this", d[i].b));
		json_array_append_new(brief, json_string(d[i].brief));
		if (used < sizeof(text))
			used += (size_t)snprintf(text + used, sizeof(text) - used, "%s%s",
						 used ? ", " : "", d[i].brief);
	}
	for (size_t j = 0; !rc && j < nruns; j++)
		json_array_append_new(runs, json_integer((json_int_t)j + 1));
	if (!rc && json_array_size(brief)) {
		rc = caveat_add(cav, "settings_differ", json_pack("{s:O, s:O}", "settings", set,
				"brief", brief), "the machine settings differ from the series' "
				"first kernel's: %s", text);
		if (rc == 1)
			json_object_set(json_array_get(cav, json_array_size(cav) - 1), "runs", runs);
		rc = rc < 0 ? -1 : rc;
	}
	json_decref(set);
	json_decref(brief);
	json_decref(runs);
	return rc;
}
