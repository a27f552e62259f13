/* kbench - genload: the client workload's model of an office, shared
 * between its files
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * client.c chooses the user's next action and runs the working day;
 * client_apps.c holds the applications, the user's open documents and
 * databases and the helpers the actions share; the actions are in
 * client_docs.c (documents: open, view, edit, save, close, new, delete,
 * copy, rename, print, scratch files), client_db.c (database sessions)
 * and client_shell.c (browsing folders, probes for files, the recent
 * documents).  Each action does what its name says with the operations
 * of gen.h and leaves the model consistent: an action runs only when
 * applicable() (client.c) says it can.
 */
#ifndef KBENCH_GENLOAD_CLIENT_H
#define KBENCH_GENLOAD_CLIENT_H

#include "gen.h"

#define OFFICE ROOT "\\Office"
#define PROFILE ROOT "\\Profile"
#define RECENT PROFILE "\\Recent"
#define TEMPDIR PROFILE "\\Temp"
#define TEMPLATES OFFICE "\\Templates"
#define DATABASES OFFICE "\\Databases"

/* how a save replaces the document by the temporary file it wrote */
enum save_style { SAVE_SWAP, SAVE_DELETE_FIRST };
/* how the application names its temporary files */
enum temp_style { TEMP_WRL, TEMP_HEX, TEMP_PPT };

struct app {
	const char *dir, *ext, *tmpl;
	const char *const *kinds;
	int nmin, ninit, nmax;      /* documents in its directory */
	uint64_t total;             /* bytes of the ninit documents at the start */
	uint32_t lo, hi;            /* document sizes */
	uint32_t tlo, thi;          /* template size */
	uint32_t rchunk, wchunk;    /* read and write request sizes */
	int weight;                 /* how often the user turns to it */
	int owner;                  /* 1: "~$" + name less 2 chars, 2: "~$" + name */
	int autosave;
	enum save_style save;
	enum temp_style temp;
};

/* the applications: documents, spreadsheets, presentations */
#define NAPPS 3
extern struct app apps[NAPPS];

#define MAXOPEN 8
#define MAXDB 2

struct odoc {
	int used, h, app, edits, saves;
	char path[PATHLEN], owner[PATHLEN], autosave[PATHLEN];
};

/* the documents the user has open, nopen of them used */
extern struct odoc odocs[MAXOPEN];
extern int nopen;

struct dbsess {
	int used, h, l, age;
	char path[PATHLEN], ldb[PATHLEN];
};

/* the open database sessions, ndbopen of them used */
extern struct dbsess dbs[MAXDB];
extern int ndbopen;
/* the counter the applications number their temporary files with */
extern unsigned tmpseq;

/* ---- client_apps.c ---- */

/* Note a name that was there once; random_stale() is one of the last 32
 * noted, or NULL before the first. */
void remember_stale(const char *path);
const char *random_stale(void);
/* A random live entry with role (and app unless app < 0), a closed one
 * only if want_closed; -1 when there is none. */
int pick_ent(int role, int app, int want_closed);
/* The files of directory dir into idx[0..max), in random order; returns
 * how many. */
int files_in(const char *dir, int *idx, int max);
/* A name for a new document of app, not in the tree, into path (PATHLEN). */
void new_doc_name(int app, char *path);
/* A document size in [lo, hi], rounded up to 512 bytes. */
uint64_t doc_size(uint64_t lo, uint64_t hi);
/* The owner file ("~$...") a of the application notes for doc, into buf. */
void owner_path(const struct app *a, const char *doc, char *buf);
/* Explorer copying a file onto the server: look, create, write, stamp. */
void copy_in(const char *path, uint64_t size, uint32_t chunk, int role, int app);
/* The shell records a recently used document (its .lnk in RECENT). */
void touch_link(const char *doc);
/* A random open document edited at least min_edits times since its last
 * save and with edits + saves >= min_age; NULL when there is none. */
struct odoc *pick_open(int min_edits, int min_age);
/* A free slot of odocs[] (die()s when there is none), cleared and used. */
struct odoc *new_odoc(void);
/* The application notes who has the document open (its owner file). */
void make_owner(struct odoc *d);
/* An application drawn by weight among those with a closed document (if
 * need_closed_doc), room for one more (need_room) and more than their
 * minimum (need_spare); -1 when none fits. */
int pick_app(int need_closed_doc, int need_room, int need_spare);

/* ---- the actions ---- */

/* client_docs.c */
void act_open(void);
void act_view(void);
void act_scratch(void);
void act_edit(void);
void act_save(void);
void act_close(void);
void act_new(void);
void act_delete(void);
void act_copy(void);
void act_rename(void);
void act_print(void);
/* Close d: its owner and autosave files go, d's slot is free again. */
void close_doc(struct odoc *d);

/* client_db.c */
void act_db_open(void);
void act_db_query(void);
void act_db_update(void);
void act_db_locked(void);
void act_db_close(void);
/* A random session at least min_age actions old; NULL when none is. */
struct dbsess *pick_db(int min_age);
/* Close the session: its lock file goes, s's slot is free again. */
void db_close(struct dbsess *s);

/* client_shell.c */
void act_browse(void);
void act_probe(void);
void act_recent(void);

#endif
