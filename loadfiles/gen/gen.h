/* kbench - genload: the generator core shared by every workload
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * core.c: failures, the pseudo-random numbers (splitmix64) and the output
 * buffer with its counters; model.c: the model of the client's tree and
 * one function per loadfile operation, each writing its line with the
 * status the model expects.  The workloads (client*.c, smallfiles.c,
 * stream.c) are written with these alone.
 *
 * Invariants: the same seed gives the same bytes on every machine, so
 * nothing here uses floating point, the clock or the environment; the
 * pseudo-random numbers are drawn in the order the workload calls for
 * them, and every line's status follows kbench's POSIX semantics (names
 * folded to lower case; see genload.c).  A model that would write a line
 * kbench cannot replay as expected is a bug in the workload: die().
 */
#ifndef KBENCH_GENLOAD_GEN_H
#define KBENCH_GENLOAD_GEN_H

#include <stddef.h>
#include <stdint.h>

#define ROOT "\\clients\\client1"
#define PATHLEN 512     /* bytes of a path, with its '\0' */
#define KiB 1024u
#define MiB (1024u * 1024u)

/* ---- core.c ---- */

/* "genload: msg" on standard error, exit status 2. */
void die(const char *msg) __attribute__((noreturn));
/* realloc(3) and strdup(3) that die() when out of memory. */
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);

/* The generator's state: set it to the seed before the first draw. */
extern uint64_t rng;
/* The next 64 pseudo-random bits (splitmix64). */
uint64_t rnd64(void);
/* Uniform in [0, n); 0 when n is 0. */
uint32_t rnd(uint32_t n);
/* Uniform in [lo, hi]; lo when hi <= lo. */
uint64_t rnd_range(uint64_t lo, uint64_t hi);
/* 1 with pct per cent chance, else 0. */
int chance(unsigned pct);
/* Roughly log-uniform in [lo, hi] (lo > 0): a random octave, then uniform
 * in it. */
uint64_t rnd_logsize(uint64_t lo, uint64_t hi);
/* v rounded up to a multiple of to (to > 0). */
uint64_t roundup(uint64_t v, uint64_t to);

enum op {
	NTCREATEX, CLOSE, RENAME, UNLINK, DELTREE, MKDIR, RMDIR, QPATHINFO,
	QFILEINFO, QFSINFO, SFILEINFO, FIND_FIRST, WRITEX, READX, LOCKX,
	UNLOCKX, FLUSH, NOPS
};
/* short names of the operations, for --stats */
extern const char *const opshort[NOPS];

/* What the lines written so far add up to. */
struct counts {
	uint64_t count[NOPS], lines, written, read;     /* lines; bytes of WriteX, ReadX */
	uint64_t bytes, peak_bytes;   /* file bytes in the tree */
	unsigned handles, peak_handles;
};
extern struct counts tally;

/* The loadfile's operation lines so far: out[0..out_len). */
extern char *out;
extern size_t out_len;

/* Append one line (a newline is added) counted as op; die()s when the
 * line would be longer than 2 x PATHLEN + 126 bytes. */
void emit(enum op op, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* ---- model.c: the tree ---- */

/* what a file or directory is to the workload that made it */
enum role { R_DIR, R_DOC, R_TEMPLATE, R_TEMP, R_OWNER, R_LINK, R_DB, R_DBLOCK, R_SPOOL, R_AUTOSAVE, R_SCRATCH, R_DATA };

struct ent {
	char *path;     /* as the loadfile writes it */
	char *key;      /* lower case: the name kbench uses */
	char *target;   /* R_LINK: the document it points at */
	uint64_t size;
	uint64_t serial;
	int live, dir, open, role, app;
};

/* Every entry ever made, ents[0..nents); live ones are in the tree.
 * serials counts up: a larger serial is a newer entry. */
extern struct ent *ents;
extern int nents;
extern uint64_t serials;

/* src with A-Z folded to lower case into dst (strlen(src) + 1 bytes). */
void lower(char *dst, const char *src);
/* The live entry with that path (any case), or -1. */
int lookup(const char *path);
/* The directory part of path (before its last backslash) into buf
 * (PATHLEN bytes), and the name after it. */
void parent_of(const char *path, char *buf);
const char *base_of(const char *path);
/* dir, a backslash and name into buf (PATHLEN bytes); die()s when that
 * is too long. */
void gen_join(char *buf, const char *dir, const char *name);

/* ---- model.c: the operations (each writes its line) ---- */

/* NTCreateX of path with create options opts (bit 0: a directory) and
 * disposition disp (1: the entry must be there; 2, 4, 5: made when it is
 * not; 4 and 5 truncate a file that is); a new entry gets role and app.
 * Returns the handle, or -1 when the open is expected to fail. */
int nt_create(const char *path, unsigned opts, unsigned disp, int role, int app);
/* An open that looks for a file: closed again if the file was there. */
void probe_open(const char *path);
/* The entry behind open handle h; die()s on a bad handle. */
struct ent *hent(int h);
void nt_close(int h);
/* ReadX and WriteX of len bytes at off; a read must be inside the file,
 * a write extends it. */
void readx(int h, uint64_t off, uint32_t len);
void writex(int h, uint64_t off, uint32_t len);
void qfileinfo(int h, unsigned level);
void sfileinfo(int h);
void gen_flush(int h);
/* LockX (UnlockX when unlock) of len bytes at off. */
void lockx(int h, uint64_t off, uint64_t len, int unlock);
void qfsinfo(unsigned level);
/* Return 1 when the path is there (the line's status is OK), else 0. */
int qpathinfo(const char *path, unsigned level);
/* FIND_FIRST: a pattern with '*' or '?' lists the directory; a plain name
 * is a lookup.  At most maxcnt entries; returns 1 when any matched. */
int find_first(const char *pattern, unsigned maxcnt);
int unlink_path(const char *path);
/* A plain rename: from is a closed file, to is new in an existing
 * directory (else die()). */
void rename_path(const char *from, const char *to);
/* Deltree, Mkdir, Rmdir; rmdir_path() die()s for a directory not empty. */
void gen_deltree(const char *path);
void mkdir_path(const char *path);
void rmdir_path(const char *path);

/* Write [from, to) in chunk-byte requests (the last one shorter). */
void write_range(int h, uint64_t from, uint64_t to, uint32_t chunk);
/* Read the whole file: a first request of first bytes (none when 0), then
 * chunk-byte requests. */
void read_all(int h, uint32_t first, uint32_t chunk);

/* ---- the workloads: one pass each, from an empty tree back to it ---- */

/* client.c; with stats set, what each action did goes to standard error */
extern int stats;
void gen_client(void);
void gen_smallfiles(void);     /* smallfiles.c */
void gen_stream(void);         /* stream.c */

#endif
