/* kbench - genload client: the document actions
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What an office application does on the file server when the user opens,
 * views, edits, saves, closes, makes, deletes, copies, renames or prints
 * a document, and its scratch files.  Each action is called only when
 * applicable() (client.c) says it can run: a document to pick, a free slot.
 */
#include "officeday.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

void act_open(void)
{
	char p[PATHLEN];
	int app = pick_app(1, 0, 0);
	const struct app *a = &apps[app];
	int e = pick_ent(R_DOC, app, 1);
	struct odoc *d = new_odoc();
	d->app = app;
	strcpy(d->path, ents[e].path);
	/* the Open dialog */
	gen_join(p, a->dir, "*");
	find_first(p, 512);
	qfsinfo(1001);
	qpathinfo(d->path, 1004);
	if (a->owner) {
		/* somebody else editing it? */
		owner_path(a, d->path, p);
		probe_open(p);
	}
	d->h = nt_create(d->path, 0x40, 1, 0, 0);
	qfileinfo(d->h, 1005);
	read_all(d->h, 4096, a->rchunk);
	make_owner(d);
	touch_link(d->path);
}

/* a document opened to look at and closed again */
void act_view(void)
{
	int app = pick_app(1, 0, 0);
	const struct app *a = &apps[app];
	char p[PATHLEN];
	strcpy(p, ents[pick_ent(R_DOC, app, 1)].path);
	qpathinfo(p, 1004);
	if (a->owner) {
		char o[PATHLEN];
		owner_path(a, p, o);
		probe_open(o);
	}
	int h = nt_create(p, 0x40, 1, 0, 0);
	qfileinfo(h, 1005);
	qfsinfo(1005);
	read_all(h, 4096, a->rchunk);
	nt_close(h);
	touch_link(p);
}

/* an application's scratch file: made, used a little, removed later */
void act_scratch(void)
{
	char p[PATHLEN], name[64];
	int nscratch = 0;
	qpathinfo(TEMPDIR, 1004);
	do {
		snprintf(name, sizeof(name), "~DF%04X.tmp", (unsigned)rnd(0x10000));
		gen_join(p, TEMPDIR, name);
	} while (lookup(p) >= 0);
	probe_open(p);
	int h = nt_create(p, 0x40, 2, R_SCRATCH, -1);
	for (unsigned n = rnd(3), off = 0; n; n--, off += 4096)
		writex(h, off, 512 * (1 + rnd(8)));
	if (chance(20))
		sfileinfo(h);   /* marked temporary */
	nt_close(h);
	for (int i = 0; i < nents; i++)
		nscratch += ents[i].live && ents[i].role == R_SCRATCH;
	while (nscratch-- > 3) {
		int old = -1;
		for (int i = 0; i < nents; i++)
			if (ents[i].live && ents[i].role == R_SCRATCH &&
			    (old < 0 || ents[i].serial < ents[old].serial))
				old = i;
		strcpy(p, ents[old].path);
		unlink_path(p);
	}
}

static void autosave(struct odoc *d)
{
	const struct app *a = &apps[d->app];
	char name[64];
	if (!d->autosave[0]) {
		snprintf(name, sizeof(name), "~ar%05u.tmp", ++tmpseq % 100000);
		gen_join(d->autosave, TEMPDIR, name);
	}
	int h = nt_create(d->autosave, 0x40, lookup(d->autosave) >= 0 ? 5 : 2, R_AUTOSAVE, d->app);
	write_range(h, 0, hent(d->h)->size, a->wchunk);
	sfileinfo(h);
	nt_close(h);
}

void act_edit(void)
{
	struct odoc *d = pick_open(0, 0);
	uint64_t size = hent(d->h)->size;
	for (unsigned n = 1 + rnd(3); n; n--) {
		uint64_t off = rnd64() % size / 4096 * 4096;
		readx(d->h, off, (uint32_t)(size - off < 4096 ? size - off : 4096));
	}
	if (chance(15))
		qfileinfo(d->h, 1004);
	if (apps[d->app].autosave && d->edits % 4 == 3)
		autosave(d);
	d->edits++;
}

static void temp_name(const struct app *a, char *buf)
{
	char name[64];
	do {
		switch (a->temp) {
		case TEMP_WRL:
			snprintf(name, sizeof(name), "~WRL%04u.tmp", ++tmpseq % 10000);
			break;
		case TEMP_HEX:
			snprintf(name, sizeof(name), "%08X", (unsigned)(rnd64() >> 32));
			break;
		case TEMP_PPT:
			snprintf(name, sizeof(name), "ppt%04X.tmp", (unsigned)rnd(0x10000));
			break;
		}
		gen_join(buf, a->dir, name);
	} while (lookup(buf) >= 0);
}

void act_save(void)
{
	struct odoc *d = pick_open(1, 0);
	const struct app *a = &apps[d->app];
	char tmp[PATHLEN], old[PATHLEN];
	uint64_t size = hent(d->h)->size;
	size = roundup(size * (90 + rnd(21)) / 100, 512);
	if (size < a->lo)
		size = a->lo;
	if (size > a->hi)
		size = a->hi;

	qfsinfo(1007);
	temp_name(a, tmp);
	if (a->owner)
		probe_open(tmp);
	else
		qpathinfo(tmp, 1004);
	int t = nt_create(tmp, 0x40, 2, R_TEMP, d->app);
	write_range(t, 0, size, a->wchunk);
	sfileinfo(t);
	gen_flush(t);
	nt_close(t);
	nt_close(d->h);
	switch (a->save) {
	case SAVE_SWAP:      /* old -> backup, new -> name, backup removed */
		temp_name(a, old);
		qpathinfo(d->path, 1004);
		rename_path(d->path, old);
		rename_path(tmp, d->path);
		qpathinfo(d->path, 1034);
		unlink_path(old);
		break;
	case SAVE_DELETE_FIRST:
		unlink_path(d->path);
		rename_path(tmp, d->path);
		break;
	}
	ents[lookup(d->path)].role = R_DOC;
	d->h = nt_create(d->path, 0x40, 1, 0, 0);
	qfileinfo(d->h, 1005);
	if (a->owner == 2)
		readx(d->h, 0, 4096);
	d->edits = 0;
	d->saves++;
}

void close_doc(struct odoc *d)
{
	nt_close(d->h);
	if (d->owner[0])
		unlink_path(d->owner);
	if (d->autosave[0] && lookup(d->autosave) >= 0)
		unlink_path(d->autosave);
	qpathinfo(d->path, 1004);
	d->used = 0;
	nopen--;
}

void act_close(void)
{
	close_doc(pick_open(0, 2));
}

void act_new(void)
{
	char p[PATHLEN];
	int app = pick_app(0, 1, 0);
	const struct app *a = &apps[app];
	/* start from the template */
	gen_join(p, TEMPLATES, a->tmpl);
	qpathinfo(p, 1004);
	int h = nt_create(p, 0x40, 1, 0, 0);
	qfileinfo(h, 1005);
	read_all(h, 4096, a->rchunk);
	nt_close(h);
	/* Save As */
	struct odoc *d = new_odoc();
	d->app = app;
	new_doc_name(app, d->path);
	qfsinfo(1007);
	qpathinfo(d->path, 1004);
	find_first(d->path, 1);
	d->h = nt_create(d->path, 0x40, 2, R_DOC, app);
	write_range(d->h, 0, doc_size(a->lo, a->hi / 2), a->wchunk);
	sfileinfo(d->h);
	gen_flush(d->h);
	make_owner(d);
	touch_link(d->path);
}

void act_delete(void)
{
	char p[PATHLEN];
	int app = pick_app(1, 0, 1);
	int e = pick_ent(R_DOC, app, 1);
	strcpy(p, ents[e].path);
	char dir[PATHLEN], pat[PATHLEN];
	parent_of(p, dir);
	gen_join(pat, dir, "*");
	find_first(pat, 512);
	qpathinfo(p, 1004);
	unlink_path(p);
	remember_stale(p);
	qpathinfo(p, 1004);
}

void act_copy(void)
{
	char dst[PATHLEN], name[PATHLEN];
	int app = pick_app(1, 1, 0);
	const struct app *a = &apps[app];
	int e = pick_ent(R_DOC, app, 1);
	char src[PATHLEN];
	strcpy(src, ents[e].path);
	for (unsigned n = 1;; n++) {
		if (n == 1)
			snprintf(name, sizeof(name), "Copy of %s", base_of(src));
		else
			snprintf(name, sizeof(name), "Copy (%u) of %s", n, base_of(src));
		gen_join(dst, a->dir, name);
		if (strlen(dst) < PATHLEN - 40 && lookup(dst) < 0)
			break;
		if (n > 50 || strlen(dst) >= PATHLEN - 40) {
			new_doc_name(app, dst);
			break;
		}
	}
	qpathinfo(dst, 1004);
	int s = nt_create(src, 0x40, 1, 0, 0);
	qfileinfo(s, 1034);
	int d = nt_create(dst, 0x40, 2, R_DOC, app);
	uint64_t size = hent(s)->size;
	for (uint64_t off = 0; off < size; off += 61440) {
		uint32_t n = (uint32_t)(size - off < 61440 ? size - off : 61440);
		readx(s, off, n);
		writex(d, off, n);
	}
	sfileinfo(d);
	nt_close(d);
	nt_close(s);
	char pat[PATHLEN];
	gen_join(pat, a->dir, "*");
	find_first(pat, 512);
}

void act_rename(void)
{
	char from[PATHLEN], to[PATHLEN];
	int app = pick_app(1, 0, 0);
	strcpy(from, ents[pick_ent(R_DOC, app, 1)].path);
	new_doc_name(app, to);
	qpathinfo(to, 1004);
	rename_path(from, to);
	remember_stale(from);
	qpathinfo(to, 1004);
	char dir[PATHLEN], pat[PATHLEN];
	parent_of(to, dir);
	gen_join(pat, dir, "*");
	find_first(pat, 512);
}

void act_print(void)
{
	struct odoc *d = pick_open(0, 0);
	char spool[PATHLEN], name[64];
	do {
		snprintf(name, sizeof(name), "Print%04u.prn", ++tmpseq % 10000);
		gen_join(spool, TEMPDIR, name);
	} while (lookup(spool) >= 0);
	uint64_t size = hent(d->h)->size * 3 / 2;
	if (size > 2 * MiB)
		size = 2 * MiB;
	qpathinfo(spool, 1004);
	int p = nt_create(spool, 0x40, 2, R_SPOOL, -1);
	write_range(p, 0, size, 32768);
	gen_flush(p);
	nt_close(p);
	/* sent to the printer */
	p = nt_create(spool, 0x40, 1, 0, 0);
	read_all(p, 0, 61440);
	nt_close(p);
	unlink_path(spool);
}
