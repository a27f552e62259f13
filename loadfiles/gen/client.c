/* kbench - genload client: an office file server's working day
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The client workload is put together from small scripted user actions
 * (open a document, edit, save, browse a folder, ...).  Which action comes
 * next is drawn at random among those whose usual operations bring the
 * running totals closest to the target mix of operations and bytes, so
 * every pass has that mix whatever the seed.  Each action also stays
 * within the bounds of an office worker's day (act_bounds[]).  A pass
 * starts from an empty tree, copies the department's files in, works
 * until about 50000 lines, closes everything and removes the tree.
 */
#include "officeday.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* ---- choosing the next action ---- */

enum {
	A_BROWSE, A_OPEN, A_EDIT, A_SAVE, A_CLOSE, A_NEW, A_DELETE, A_COPY,
	A_RENAME, A_PRINT, A_DB_OPEN, A_DB_QUERY, A_DB_UPDATE, A_DB_LOCKED,
	A_DB_CLOSE, A_PROBE, A_RECENT, A_VIEW, A_SCRATCH, NACTS
};

/* how often each action may come, per thousand actions: the bounds of
 * an office worker's day within which the mix is balanced */
static const struct { int lo, hi; } act_bounds[NACTS] = {
	[A_BROWSE] = { 60, 180 }, [A_OPEN] = { 30, 60 }, [A_EDIT] = { 120, 300 },
	[A_SAVE] = { 30, 80 }, [A_CLOSE] = { 0, 1000 }, [A_NEW] = { 5, 15 },
	[A_DELETE] = { 5, 20 }, [A_COPY] = { 3, 15 }, [A_RENAME] = { 3, 20 },
	[A_PRINT] = { 5, 20 }, [A_DB_OPEN] = { 5, 20 }, [A_DB_QUERY] = { 40, 100 },
	[A_DB_UPDATE] = { 30, 80 }, [A_DB_LOCKED] = { 0, 10 }, [A_DB_CLOSE] = { 0, 1000 },
	[A_PROBE] = { 50, 150 }, [A_RECENT] = { 20, 80 }, [A_VIEW] = { 25, 100 },
	[A_SCRATCH] = { 60, 150 },
};

static void (*const act_fn[NACTS])(void) = {
	act_browse, act_open, act_edit, act_save, act_close, act_new,
	act_delete, act_copy, act_rename, act_print, act_db_open,
	act_db_query, act_db_update, act_db_locked, act_db_close, act_probe,
	act_recent, act_view, act_scratch,
};

static int applicable(int a)
{
	switch (a) {
	case A_BROWSE:
	case A_PROBE:
		return 1;
	case A_OPEN:
		return nopen < MAXOPEN && pick_app(1, 0, 0) >= 0;
	case A_EDIT:
	case A_PRINT:
		return nopen > 0;
	case A_SAVE:
		return pick_open(1, 0) != NULL;
	case A_CLOSE:
		return pick_open(0, 2) != NULL;
	case A_NEW:
		return nopen < MAXOPEN && pick_app(0, 1, 0) >= 0;
	case A_DELETE:
		return pick_app(1, 0, 1) >= 0;
	case A_COPY:
		return pick_app(1, 1, 0) >= 0;
	case A_RENAME:
		return pick_app(1, 0, 0) >= 0;
	case A_DB_OPEN:
		return ndbopen < MAXDB && pick_ent(R_DB, -1, 1) >= 0;
	case A_DB_QUERY:
	case A_DB_UPDATE:
	case A_DB_LOCKED:
		return ndbopen > 0;
	case A_DB_CLOSE:
		return pick_db(3) != NULL;
	case A_RECENT:
		return pick_ent(R_LINK, -1, 1) >= 0;
	case A_VIEW:
		return pick_app(1, 0, 0) >= 0;
	case A_SCRATCH:
		return 1;
	}
	return 0;
}

/* Target mix of a pass: per million operation lines, and bytes per line. */
static const struct { enum op op; int64_t ppm; } target[] = {
	{ READX, 270970 }, { NTCREATEX, 172862 }, { QPATHINFO, 156682 },
	{ CLOSE, 126979 }, { WRITEX, 86184 }, { FIND_FIRST, 60577 },
	{ UNLINK, 34908 }, { QFSINFO, 28730 }, { QFILEINFO, 27457 },
	{ SFILEINFO, 14081 }, { FLUSH, 12115 }, { RENAME, 7320 },
	{ LOCKX, 563 }, { UNLOCKX, 563 },
};
#define NTARGET ((int)(sizeof(target) / sizeof(target[0])))
#define WRITTEN_PER_LINE 2217
#define READ_PER_LINE 3212

/* what an action added, summed over the times it ran */
static struct {
	uint64_t runs, count[NOPS], lines, written, read;
} seen_acts[NACTS];

/* Squared relative distance from the target mix (per-mille units) if an
 * action with the average effect of a's past runs came next. */
static int64_t distance_after(int a)
{
	const int64_t S = 16;  /* fixed-point scale of the averages */
	uint64_t r = seen_acts[a].runs;
	int64_t lines = (int64_t)tally.lines * S + (int64_t)(seen_acts[a].lines * S / r);
	int64_t d = 0;
	for (int i = 0; i < NTARGET; i++) {
		enum op op = target[i].op;
		int64_t c = (int64_t)tally.count[op] * S + (int64_t)(seen_acts[a].count[op] * S / r);
		int64_t ppm = c * 1000000 / lines;
		int64_t rel = (ppm - target[i].ppm) * 1000 / target[i].ppm;
		d += rel * rel;
	}
	int64_t w = ((int64_t)tally.written * S + (int64_t)(seen_acts[a].written * S / r)) / lines;
	int64_t rd = ((int64_t)tally.read * S + (int64_t)(seen_acts[a].read * S / r)) / lines;
	int64_t rw = (w - WRITTEN_PER_LINE) * 1000 / WRITTEN_PER_LINE;
	int64_t rr = (rd - READ_PER_LINE) * 1000 / READ_PER_LINE;
	return d + 2 * (rw * rw + rr * rr);
}

static void run_action(int a)
{
	uint64_t before[NOPS], lines = tally.lines, w = tally.written, r = tally.read;
	memcpy(before, tally.count, sizeof(before));
	act_fn[a]();
	seen_acts[a].runs++;
	for (int i = 0; i < NOPS; i++)
		seen_acts[a].count[i] += tally.count[i] - before[i];
	seen_acts[a].lines += tally.lines - lines;
	seen_acts[a].written += tally.written - w;
	seen_acts[a].read += tally.read - r;
}

static const char *const act_name[NACTS] = {
	"browse", "open", "edit", "save", "close", "new", "delete", "copy",
	"rename", "print", "db-open", "db-query", "db-update", "db-locked",
	"db-close", "probe", "recent", "view", "scratch",
};

/* --stats: what the actions did, on standard error */
static void office_stats(void)
{
	fprintf(stderr, "%-10s %5s %6s", "action", "runs", "lines");
	for (int i = 0; i < NOPS; i++)
		fprintf(stderr, " %5.5s", opshort[i]);
	fprintf(stderr, " %7s %7s\n", "kB_w", "kB_r");
	for (int a = 0; a < NACTS; a++) {
		uint64_t r = seen_acts[a].runs ? seen_acts[a].runs : 1;
		fprintf(stderr, "%-10s %5llu %6llu", act_name[a], (unsigned long long)seen_acts[a].runs,
			(unsigned long long)seen_acts[a].lines);
		for (int i = 0; i < NOPS; i++)
			fprintf(stderr, " %5llu", (unsigned long long)(seen_acts[a].count[i] * 10 / r));
		fprintf(stderr, " %7llu %7llu\n", (unsigned long long)(seen_acts[a].written / r / 1000),
			(unsigned long long)(seen_acts[a].read / r / 1000));
	}
	fprintf(stderr, "(operations per run x10)\n");
}

int stats;

void gen_client(void)
{
	char p[PATHLEN];
	const uint64_t pass_lines = 50000;

	/* every pass starts from an empty tree */
	gen_deltree(OFFICE);
	gen_deltree(PROFILE);
	qfsinfo(1007);
	int h = nt_create(OFFICE, 0x1, 2, R_DIR, -1);
	nt_close(h);
	for (int i = 0; i < NAPPS; i++)
		mkdir_path(apps[i].dir);
	mkdir_path(TEMPLATES);
	mkdir_path(DATABASES);
	h = nt_create(PROFILE, 0x1, 2, R_DIR, -1);
	nt_close(h);
	mkdir_path(RECENT);
	mkdir_path(TEMPDIR);

	/* the department's files are copied onto the server: sizes drawn
	 * at random, then scaled to the application's total */
	for (int i = 0; i < NAPPS; i++) {
		const struct app *a = &apps[i];
		uint64_t size[64], sum = 0;
		if (a->ninit > 64)
			die("too many documents");
		gen_join(p, TEMPLATES, a->tmpl);
		copy_in(p, roundup(rnd_range(a->tlo, a->thi), 512), 65536, R_TEMPLATE, i);
		for (int n = 0; n < a->ninit; n++)
			sum += size[n] = rnd_logsize(a->lo, a->hi);
		for (int n = 0; n < a->ninit; n++) {
			uint64_t sz = roundup(size[n] * a->total / sum, 512);
			new_doc_name(i, p);
			copy_in(p, sz < a->lo ? a->lo : sz > a->hi ? a->hi : sz, 65536, R_DOC, i);
		}
	}
	static const struct { const char *name; unsigned pages; } dbfiles[] = {
		{ "Customer Contacts.mdb", 448 }, { "Orders.mdb", 320 }, { "Asset Register.mdb", 384 },
	};
	for (int i = 0; i < 3; i++) {
		gen_join(p, DATABASES, dbfiles[i].name);
		copy_in(p, (dbfiles[i].pages + rnd(33)) * 4096ull, 65536, R_DB, -1);
	}

	/* the working day */
	while (tally.lines < pass_lines - 150) {
		int cand[NACTS], nc = 0, fresh = -1, nlow = 0;
		uint64_t nacts = 0;
		for (int a = 0; a < NACTS; a++)
			nacts += seen_acts[a].runs;
		for (int a = 0; a < NACTS; a++) {
			if (!applicable(a))
				continue;
			if (!seen_acts[a].runs && fresh < 0)
				fresh = a;
			if (nacts >= 200 && seen_acts[a].runs * 1000 >= (uint64_t)act_bounds[a].hi * nacts)
				continue;
			int low = nacts >= 200 && seen_acts[a].runs * 1000 < (uint64_t)act_bounds[a].lo * nacts;
			if (low && !nlow)
				nc = 0;   /* only actions below their share from now on */
			if (low || !nlow)
				cand[nc++] = a;
			nlow += low;
		}
		if (fresh >= 0) {
			run_action(fresh);
			continue;
		}
		int64_t dist[NACTS];
		for (int i = 0; i < nc; i++)
			dist[i] = distance_after(cand[i]);
		/* sort candidates by distance (insertion sort; ties keep order) */
		for (int i = 1; i < nc; i++)
			for (int j = i; j > 0 && dist[j] < dist[j - 1]; j--) {
				int64_t td = dist[j]; dist[j] = dist[j - 1]; dist[j - 1] = td;
				int ta = cand[j]; cand[j] = cand[j - 1]; cand[j - 1] = ta;
			}
		int k = 0;
		while (k < nc - 1 && k < 3 && chance(35))
			k++;
		run_action(cand[k]);
	}

	/* evening: everything closed, the tree removed */
	for (int i = 0; i < MAXOPEN; i++)
		if (odocs[i].used)
			close_doc(&odocs[i]);
	for (int i = 0; i < MAXDB; i++)
		if (dbs[i].used)
			db_close(&dbs[i]);
	gen_deltree(OFFICE);
	gen_deltree(PROFILE);
	if (stats)
		office_stats();
}
