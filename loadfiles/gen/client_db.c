/* kbench - genload client: database sessions
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A desktop database on the share (an .mdb with its .ldb lock file):
 * opened, queried by scans and index lookups of 4 KiB pages, updated in
 * place (some updates under byte-range locks), closed.  At most MAXDB
 * sessions; each action is called only when applicable() (client.c) says
 * it can run.
 */
#include "officeday.h"

#include <stdint.h>
#include <string.h>

static void db_page_read(struct dbsess *s, uint64_t page)
{
	readx(s->h, page * 4096, 4096);
}

void act_db_open(void)
{
	struct dbsess *s = NULL;
	for (int i = 0; i < MAXDB; i++)
		if (!dbs[i].used)
			s = &dbs[i];
	int e = pick_ent(R_DB, -1, 1);
	memset(s, 0, sizeof(*s));
	s->used = 1;
	ndbopen++;
	strcpy(s->path, ents[e].path);
	strcpy(s->ldb, s->path);
	strcpy(strrchr(s->ldb, '.'), ".ldb");
	qpathinfo(s->path, 1004);
	qpathinfo(s->ldb, 1004);
	s->h = nt_create(s->path, 0x40, 1, 0, 0);
	probe_open(s->ldb);
	s->l = nt_create(s->ldb, 0x40, 2, R_DBLOCK, -1);
	writex(s->l, 0, 64);
	qfileinfo(s->h, 1005);
	for (uint64_t pg = 0, n = 3 + rnd(6); pg < n; pg++)
		db_page_read(s, pg);
}

struct dbsess *pick_db(int min_age)
{
	int n = 0;
	struct dbsess *pick = NULL;
	for (int i = 0; i < MAXDB; i++)
		if (dbs[i].used && dbs[i].age >= min_age && rnd((uint32_t)++n) == 0)
			pick = &dbs[i];
	return pick;
}

void act_db_query(void)
{
	struct dbsess *s = pick_db(0);
	uint64_t pages = hent(s->h)->size / 4096;
	unsigned n = 3 + rnd(14);
	if (chance(50)) {        /* a scan */
		uint64_t pg = rnd64() % pages;
		for (; n && pg < pages; n--, pg++)
			db_page_read(s, pg);
	} else {                 /* index lookups */
		for (; n; n--)
			db_page_read(s, rnd64() % pages);
	}
	if (chance(10))
		qfileinfo(s->h, 1004);
	s->age++;
}

static void db_update(struct dbsess *s, int locked)
{
	uint64_t pages = hent(s->h)->size / 4096;
	for (unsigned n = 1 + rnd(4); n; n--) {
		uint64_t pg = 1 + rnd64() % (pages - 1);
		if (locked)
			lockx(s->h, 0x10000000u + pg, 1, 0);
		db_page_read(s, pg);
		db_page_read(s, pg);
		writex(s->h, pg * 4096, 4096);
		if (locked)
			lockx(s->h, 0x10000000u + pg, 1, 1);
		locked = 0;
	}
	if (pages < 3 * MiB / 4096 && chance(15))
		writex(s->h, pages * 4096, 4096);   /* a new page */
	gen_flush(s->h);
	s->age++;
}

void act_db_update(void)
{
	db_update(pick_db(0), 0);
}

void act_db_locked(void)
{
	db_update(pick_db(0), 1);
}

void db_close(struct dbsess *s)
{
	nt_close(s->l);
	unlink_path(s->ldb);
	nt_close(s->h);
	qpathinfo(s->path, 1034);
	s->used = 0;
	ndbopen--;
}

void act_db_close(void)
{
	db_close(pick_db(3));
}
