/* kbench - genload client: the applications, the user's state and the
 * helpers the actions share
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Three applications (documents, spreadsheets, presentations), each with
 * its directory, document sizes, request sizes and habits (owner files,
 * autosave, how a save replaces the document); the documents and database
 * sessions the user has open; names that were there once.  Every helper
 * draws its random numbers in a fixed order, so the pass depends on the
 * seed alone.
 */
#include "officeday.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const doc_kinds[] = {
	"Report", "Minutes", "Memo", "Letter", "Proposal", "Plan", "Notes",
	"Policy", "Summary", "Contract", NULL };
static const char *const xls_kinds[] = {
	"Figures", "Budget", "Forecast", "Tracker", "Schedule", "Costs",
	"Totals", "Rota", "Model", "Price List", NULL };
static const char *const ppt_kinds[] = {
	"Review", "Kickoff", "Update", "Pitch", "Overview", "Briefing",
	"Roadmap", "Workshop", NULL };
static const char *const topics[] = {
	"Budget", "Sales", "Payroll", "Inventory", "Marketing", "Travel",
	"Training", "Safety", "Hiring", "Customer", "Supplier", "Project",
	"Quarterly", "Annual", "Board", "Staff", "Expense", "Pricing",
	"Warehouse", "Audit", "Office Move", "Fleet", "IT", "Canteen", NULL };

struct app apps[] = {
	{ OFFICE "\\Documents", "doc", "Normal.dot", doc_kinds,
	  32, 40, 48, 5600000, 24 * KiB, 320 * KiB, 40 * KiB, 80 * KiB,
	  32768, 65536, 5, 1, 1, SAVE_SWAP, TEMP_WRL },
	{ OFFICE "\\Spreadsheets", "xls", "Book.xlt", xls_kinds,
	  24, 28, 34, 4500000, 16 * KiB, 480 * KiB, 16 * KiB, 40 * KiB,
	  16384, 32768, 4, 2, 1, SAVE_SWAP, TEMP_HEX },
	{ OFFICE "\\Presentations", "ppt", "Blank.pot", ppt_kinds,
	  6, 8, 10, 8500000, 192 * KiB, 2304 * KiB, 96 * KiB, 160 * KiB,
	  61440, 65536, 2, 0, 0, SAVE_DELETE_FIRST, TEMP_PPT },
};
_Static_assert(sizeof(apps) / sizeof(apps[0]) == NAPPS, "NAPPS is the number of apps[]");

struct odoc odocs[MAXOPEN];
int nopen;

struct dbsess dbs[MAXDB];
int ndbopen;
unsigned tmpseq;

/* names that were there once: stale entries of the user's memory */
#define NSTALE 32
static char stale[NSTALE][PATHLEN];
static unsigned nstale;

void remember_stale(const char *path)
{
	strcpy(stale[nstale++ % NSTALE], path);
}

const char *random_stale(void)
{
	if (!nstale)
		return NULL;
	unsigned n = nstale < NSTALE ? nstale : NSTALE;
	return stale[rnd(n)];
}

static int count_docs(int app)
{
	int n = 0;
	for (int i = 0; i < nents; i++)
		n += ents[i].live && ents[i].role == R_DOC && ents[i].app == app;
	return n;
}

/* a random live entry matching role (and app unless app < 0); closed
 * only if want_closed */
int pick_ent(int role, int app, int want_closed)
{
	int n = 0, pick = -1;
	for (int i = 0; i < nents; i++) {
		if (!ents[i].live || ents[i].role != role || (app >= 0 && ents[i].app != app) ||
		    (want_closed && ents[i].open))
			continue;
		if (rnd((uint32_t)++n) == 0)
			pick = i;
	}
	return pick;
}

/* the files of directory dir, in random order; returns how many */
int files_in(const char *dir, int *idx, int max)
{
	char dkey[PATHLEN];
	lower(dkey, dir);
	size_t dn = strlen(dkey);
	int n = 0;
	for (int i = 0; i < nents && n < max; i++)
		if (ents[i].live && !ents[i].dir && strncmp(ents[i].key, dkey, dn) == 0 &&
		    ents[i].key[dn] == '\\' && !strchr(ents[i].key + dn + 1, '\\'))
			idx[n++] = i;
	for (int i = n - 1; i > 0; i--) {
		int j = (int)rnd((uint32_t)i + 1), t = idx[i];
		idx[i] = idx[j];
		idx[j] = t;
	}
	return n;
}

static const char *pick_word(const char *const *list)
{
	int n = 0;
	while (list[n])
		n++;
	return list[rnd((uint32_t)n)];
}

void new_doc_name(int app, char *path)
{
	const struct app *a = &apps[app];
	char name[200];
	for (int tries = 0;; tries++) {
		const char *topic = pick_word(topics), *kind = pick_word(a->kinds);
		if (strcmp(topic, kind) == 0)
			continue;
		switch (rnd(4)) {
		case 0:
			snprintf(name, sizeof(name), "%s %s %u.%s", topic, kind,
				 2015 + rnd(11), a->ext);
			break;
		case 1:
			snprintf(name, sizeof(name), "%s %s Q%u.%s", topic, kind,
				 1 + rnd(4), a->ext);
			break;
		case 2:
			snprintf(name, sizeof(name), "%s %s v%u.%s", topic, kind,
				 2 + rnd(7), a->ext);
			break;
		default:
			snprintf(name, sizeof(name), "%s %s.%s", topic, kind, a->ext);
			break;
		}
		gen_join(path, a->dir, name);
		if (lookup(path) < 0)
			return;
		if (tries > 1000)
			die("cannot find a new document name");
	}
}

uint64_t doc_size(uint64_t lo, uint64_t hi)
{
	return roundup(rnd_logsize(lo, hi), 512);
}

void owner_path(const struct app *a, const char *doc, char *buf)
{
	char dir[PATHLEN], name[PATHLEN];
	const char *base = base_of(doc);
	parent_of(doc, dir);
	if (a->owner == 1 && strlen(base) > 10)
		base += 2;
	snprintf(name, sizeof(name), "~$%s", base);
	gen_join(buf, dir, name);
}

static void link_path(const char *doc, char *buf)
{
	char name[PATHLEN];
	snprintf(name, sizeof(name), "%s", base_of(doc));
	char *dot = strrchr(name, '.');
	if (dot)
		*dot = '\0';
	strcat(name, ".lnk");
	gen_join(buf, RECENT, name);
}

/* Explorer copying a file onto the server: look, create, write, stamp. */
void copy_in(const char *path, uint64_t size, uint32_t chunk, int role, int app)
{
	qpathinfo(path, 1004);
	int h = nt_create(path, 0x40, 2, role, app);
	write_range(h, 0, size, chunk);
	sfileinfo(h);
	nt_close(h);
}

/* the shell records a recently used document */
void touch_link(const char *doc)
{
	char lnk[PATHLEN];
	link_path(doc, lnk);
	int h = nt_create(lnk, 0x40, 5, R_LINK, -1);
	struct ent *e = hent(h);
	free(e->target);
	e->target = xstrdup(doc);
	e->serial = ++serials;
	writex(h, 0, (uint32_t)rnd_range(380, 920));
	nt_close(h);
}

struct odoc *pick_open(int min_edits, int min_age)
{
	int n = 0;
	struct odoc *pick = NULL;
	for (int i = 0; i < MAXOPEN; i++)
		if (odocs[i].used && odocs[i].edits >= min_edits &&
		    odocs[i].edits + odocs[i].saves >= min_age && rnd((uint32_t)++n) == 0)
			pick = &odocs[i];
	return pick;
}

struct odoc *new_odoc(void)
{
	for (int i = 0; i < MAXOPEN; i++)
		if (!odocs[i].used) {
			memset(&odocs[i], 0, sizeof(odocs[i]));
			odocs[i].used = 1;
			nopen++;
			return &odocs[i];
		}
	die("too many open documents");
	return NULL;
}

/* the application notes who has the document open */
void make_owner(struct odoc *d)
{
	const struct app *a = &apps[d->app];
	if (!a->owner)
		return;
	owner_path(a, d->path, d->owner);
	int h = nt_create(d->owner, 0x40, 2, R_OWNER, d->app);
	writex(h, 0, 162);
	sfileinfo(h);   /* hidden */
	nt_close(h);
}

int pick_app(int need_closed_doc, int need_room, int need_spare)
{
	int w = 0, pick = -1;
	for (int i = 0; i < NAPPS; i++) {
		if (need_closed_doc && pick_ent(R_DOC, i, 1) < 0)
			continue;
		int n = count_docs(i);
		if ((need_room && n >= apps[i].nmax) || (need_spare && n <= apps[i].nmin))
			continue;
		w += apps[i].weight;
		if ((int)rnd((uint32_t)w) < apps[i].weight)
			pick = i;
	}
	return pick;
}
