/* kbench - genload: writes kbench's shipped loadfiles (dbench 4 format)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 *   genload [--seed N] [--stats] client|smallfiles|stream > FILE
 *
 * client      an office file server: documents, spreadsheets, presentations
 *             and databases opened, read, saved through temporary files,
 *             locked, renamed, removed and searched for (the default).
 * smallfiles  metadata first, like mdtest: a tree of directories, small
 *             files created, listed, looked up, renamed and removed.
 * stream      a few large files written and read back in 1 MiB requests.
 *
 * The seed defaults to 1, the seed of the shipped files.  --stats prints
 * on standard error what each action of the client workload did.
 *
 * The same seed gives the same bytes on every machine: the generator has
 * its own pseudo-random numbers (splitmix64) and uses integer arithmetic
 * only.  Every line's expected status comes from a model of the client's
 * tree that follows kbench's POSIX semantics (names folded to lower case;
 * NTCreateX disposition 1 needs the file, 2 creates, 5 creates or
 * truncates; a FIND_FIRST pattern succeeds when an entry of the directory,
 * "." and ".." included, matches it; ...), so a replay gives no errors.
 *
 * The client workload is put together from small scripted user actions
 * (open a document, edit, save, browse a folder, ...).  Which action comes
 * next is drawn at random among those whose usual operations bring the
 * running totals closest to the target mix of operations and bytes, so
 * every pass has that mix whatever the seed.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ROOT "\\clients\\client1"
#define PATHLEN 512
#define KiB 1024u
#define MiB (1024u * 1024u)

static void die(const char *msg)
{
	fprintf(stderr, "genload: %s\n", msg);
	exit(2);
}

static void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n);
	if (!p)
		die("out of memory");
	return p;
}

static char *xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;
	return memcpy(xrealloc(NULL, n), s, n);
}

/* ---- pseudo-random numbers: splitmix64 ---- */

static uint64_t rng;

static uint64_t rnd64(void)
{
	uint64_t z = (rng += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* uniform in [0, n) */
static uint32_t rnd(uint32_t n)
{
	return n ? (uint32_t)(((rnd64() >> 32) * (uint64_t)n) >> 32) : 0;
}

/* uniform in [lo, hi] */
static uint64_t rnd_range(uint64_t lo, uint64_t hi)
{
	return hi <= lo ? lo : lo + rnd64() % (hi - lo + 1);
}

/* percent chance */
static int chance(unsigned pct)
{
	return rnd(100) < pct;
}

/* Roughly log-uniform in [lo, hi]: a random octave, then uniform in it. */
static uint64_t rnd_logsize(uint64_t lo, uint64_t hi)
{
	unsigned oct = 0;
	while ((lo << (oct + 1)) <= hi)
		oct++;
	if (oct == 0)
		return rnd_range(lo, hi);
	unsigned o = rnd(oct);
	uint64_t a = lo << o, b = lo << (o + 1);
	if (o == oct - 1)
		b = hi;
	return rnd_range(a, b);
}

static uint64_t roundup(uint64_t v, uint64_t to)
{
	return (v + to - 1) / to * to;
}

/* ---- output and counters ---- */

enum op {
	NTCREATEX, CLOSE, RENAME, UNLINK, DELTREE, MKDIR, RMDIR, QPATHINFO,
	QFILEINFO, QFSINFO, SFILEINFO, FIND_FIRST, WRITEX, READX, LOCKX,
	UNLOCKX, FLUSH, NOPS
};

static const char *const opshort[NOPS] = {
	"NTCreateX", "Close", "Rename", "Unlink", "Deltree", "Mkdir", "Rmdir",
	"Qpathinfo", "Qfileinfo", "Qfsinfo", "Sfileinfo", "Find", "WriteX",
	"ReadX", "LockX", "UnlockX", "Flush",
};

static char *out;
static size_t out_len, out_cap;

static struct {
	uint64_t count[NOPS], lines, written, read;
	uint64_t bytes, peak_bytes;   /* file bytes in the tree */
	unsigned handles, peak_handles;
} st;

static void emit(enum op op, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void emit(enum op op, const char *fmt, ...)
{
	char line[2 * PATHLEN + 128];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof(line) - 1)
		die("line too long");
	line[n++] = '\n';
	if (out_len + (size_t)n > out_cap) {
		out_cap = out_cap ? out_cap * 2 : 1 << 20;
		out = xrealloc(out, out_cap);
	}
	memcpy(out + out_len, line, (size_t)n);
	out_len += (size_t)n;
	st.count[op]++;
	st.lines++;
}

/* ---- the model of the client's tree ---- */

enum role { R_DIR, R_DOC, R_TEMPLATE, R_TEMP, R_OWNER, R_LINK, R_DB, R_DBLOCK, R_SPOOL, R_AUTOSAVE, R_SCRATCH, R_DATA };

struct ent {
	char *path;     /* as the loadfile writes it */
	char *key;      /* lower case: the name kbench uses */
	char *target;   /* R_LINK: the document it points at */
	uint64_t size;
	uint64_t serial;
	int live, dir, open, role, app;
};

static struct ent *ents;
static int nents;
static uint64_t serials;

static void lower(char *dst, const char *src)
{
	for (; *src; src++)
		*dst++ = (*src >= 'A' && *src <= 'Z') ? (char)(*src - 'A' + 'a') : *src;
	*dst = '\0';
}

static int lookup(const char *path)
{
	char key[PATHLEN];
	if (strlen(path) >= PATHLEN)
		die("path too long");
	lower(key, path);
	for (int i = 0; i < nents; i++)
		if (ents[i].live && strcmp(ents[i].key, key) == 0)
			return i;
	return -1;
}

static void parent_of(const char *path, char *buf)
{
	const char *slash = strrchr(path, '\\');
	size_t n = slash ? (size_t)(slash - path) : 0;
	memcpy(buf, path, n);
	buf[n] = '\0';
}

static const char *base_of(const char *path)
{
	const char *slash = strrchr(path, '\\');
	return slash ? slash + 1 : path;
}

static int is_dir(const char *path)
{
	if (strcmp(path, ROOT) == 0)
		return 1;
	int e = lookup(path);
	return e >= 0 && ents[e].dir;
}

static int parent_exists(const char *path)
{
	char p[PATHLEN];
	parent_of(path, p);
	return is_dir(p);
}

static void account(int64_t delta)
{
	st.bytes = (uint64_t)((int64_t)st.bytes + delta);
	if (st.bytes > st.peak_bytes)
		st.peak_bytes = st.bytes;
}

static int add_ent(const char *path, int dir, int role, int app)
{
	int i;
	for (i = 0; i < nents; i++)
		if (!ents[i].live)
			break;
	if (i == nents) {
		ents = xrealloc(ents, (size_t)(nents + 1) * sizeof(*ents));
		nents++;
	} else {
		free(ents[i].path);
		free(ents[i].key);
		free(ents[i].target);
	}
	struct ent *e = &ents[i];
	memset(e, 0, sizeof(*e));
	e->path = xstrdup(path);
	e->key = xstrdup(path);
	lower(e->key, path);
	e->live = 1;
	e->dir = dir;
	e->role = role;
	e->app = app;
	e->serial = ++serials;
	return i;
}

static void drop_ent(int i)
{
	if (ents[i].open)
		die("model: removing an open file");
	account(-(int64_t)ents[i].size);
	ents[i].live = 0;
}

static const char *missing(const char *path)
{
	return parent_exists(path) ? "NT_STATUS_OBJECT_NAME_NOT_FOUND"
				   : "NT_STATUS_OBJECT_PATH_NOT_FOUND";
}

/* DOS-style match of a lower-case name against a lower-case pattern with
 * '*' and '?', as fnmatch(3) does it for names without '[' or '\'. */
static int match(const char *p, const char *s)
{
	for (; *p; p++, s++) {
		if (*p == '*') {
			while (p[1] == '*')
				p++;
			if (!p[1])
				return 1;
			for (; *s; s++)
				if (match(p + 1, s))
					return 1;
			return match(p + 1, s);
		}
		if (!*s || (*p != '?' && *p != *s))
			return 0;
	}
	return !*s;
}

/* ---- handles ---- */

#define FNUM_BASE 50176   /* SMB file ids handed out by the "server" */
#define NFNUM 256

static struct { int used, ent; } hnd[NFNUM];
static unsigned fnum_next;

static unsigned fnum_peek(void)
{
	for (unsigned i = 0; i < NFNUM; i++) {
		unsigned j = (fnum_next + i) % NFNUM;
		if (!hnd[j].used)
			return j;
	}
	die("out of file ids");
	return 0;
}

/* ---- operations: each writes its line, status from the model ---- */

static const char OK[] = "NT_STATUS_OK";

/* Returns a handle, or -1 when the open is expected to fail. */
static int nt_create(const char *path, unsigned opts, unsigned disp, int role, int app)
{
	int e = lookup(path);
	unsigned j = fnum_peek();
	int ok, creates = disp == 2 || disp == 4 || disp == 5;

	if (opts & 1) {
		if (e >= 0)
			ok = ents[e].dir;
		else if (creates && parent_exists(path)) {
			e = add_ent(path, 1, R_DIR, app);
			ok = 1;
		} else
			ok = 0;
	} else {
		if (e >= 0 && ents[e].dir)
			die("model: a file open of a directory");
		if (e >= 0) {
			ok = 1;
			if (disp == 4 || disp == 5)
				account(-(int64_t)ents[e].size), ents[e].size = 0;
		} else if (creates && parent_exists(path)) {
			e = add_ent(path, 0, role, app);
			ok = 1;
		} else
			ok = 0;
	}
	emit(NTCREATEX, "NTCreateX \"%s\" 0x%x 0x%x %u %s", path, opts, disp,
	     FNUM_BASE + j, ok ? OK : missing(path));
	if (!ok)
		return -1;
	hnd[j].used = 1;
	hnd[j].ent = e;
	ents[e].open++;
	fnum_next = (j + 1) % NFNUM;
	if (++st.handles > st.peak_handles)
		st.peak_handles = st.handles;
	return (int)j;
}

static void nt_close(int h);

/* An open that looks for a file: closed again if the file was there. */
static void probe_open(const char *path)
{
	int h = nt_create(path, 0x40, 1, 0, 0);
	if (h >= 0)
		nt_close(h);
}

static struct ent *hent(int h)
{
	if (h < 0 || h >= NFNUM || !hnd[h].used)
		die("model: bad handle");
	return &ents[hnd[h].ent];
}

static void nt_close(int h)
{
	hent(h)->open--;
	hnd[h].used = 0;
	st.handles--;
	emit(CLOSE, "Close %u %s", FNUM_BASE + (unsigned)h, OK);
}

static void readx(int h, uint64_t off, uint32_t len)
{
	struct ent *e = hent(h);
	if (off + len > e->size)
		die("model: read past the end of file");
	emit(READX, "ReadX %u %llu %u %u %s", FNUM_BASE + (unsigned)h,
	     (unsigned long long)off, len, len, OK);
	st.read += len;
}

static void writex(int h, uint64_t off, uint32_t len)
{
	struct ent *e = hent(h);
	if (off + len > e->size) {
		account((int64_t)(off + len - e->size));
		e->size = off + len;
	}
	emit(WRITEX, "WriteX %u %llu %u %u %s", FNUM_BASE + (unsigned)h,
	     (unsigned long long)off, len, len, OK);
	st.written += len;
}

static void qfileinfo(int h, unsigned level)
{
	hent(h);
	emit(QFILEINFO, "QUERY_FILE_INFORMATION %u %u %s", FNUM_BASE + (unsigned)h, level, OK);
}

static void sfileinfo(int h)
{
	hent(h);
	emit(SFILEINFO, "SET_FILE_INFORMATION %u 1004 %s", FNUM_BASE + (unsigned)h, OK);
}

static void flush(int h)
{
	hent(h);
	emit(FLUSH, "Flush %u %s", FNUM_BASE + (unsigned)h, OK);
}

static void lockx(int h, uint64_t off, uint64_t len, int unlock)
{
	hent(h);
	emit(unlock ? UNLOCKX : LOCKX, "%s %u %llu %llu %s", unlock ? "UnlockX" : "LockX",
	     FNUM_BASE + (unsigned)h, (unsigned long long)off, (unsigned long long)len, OK);
}

static void qfsinfo(unsigned level)
{
	emit(QFSINFO, "QUERY_FS_INFORMATION %u %s", level, OK);
}

static int qpathinfo(const char *path, unsigned level)
{
	int ok = lookup(path) >= 0 || strcmp(path, ROOT) == 0;
	emit(QPATHINFO, "QUERY_PATH_INFORMATION \"%s\" %u %s", path, level,
	     ok ? OK : missing(path));
	return ok;
}

/* FIND_FIRST: a pattern lists the directory; a plain name is a lookup. */
static int find_first(const char *pattern, unsigned maxcnt)
{
	unsigned count = 0;
	int ok;
	if (strpbrk(pattern, "*?")) {
		char dir[PATHLEN], pat[PATHLEN], dkey[PATHLEN];
		parent_of(pattern, dir);
		lower(pat, base_of(pattern));
		lower(dkey, dir);
		size_t dn = strlen(dkey);
		ok = is_dir(dir);
		if (ok) {
			count = match(pat, ".") + match(pat, "..");
			for (int i = 0; i < nents; i++)
				if (ents[i].live && strncmp(ents[i].key, dkey, dn) == 0 &&
				    ents[i].key[dn] == '\\' && !strchr(ents[i].key + dn + 1, '\\') &&
				    match(pat, ents[i].key + dn + 1))
					count++;
			ok = count > 0;
		}
	} else {
		ok = is_dir(pattern) || lookup(pattern) >= 0;
		count = (unsigned)ok;
	}
	if (count > maxcnt)
		count = maxcnt;
	emit(FIND_FIRST, "FIND_FIRST \"%s\" 260 %u %u %s", pattern, maxcnt, count,
	     ok ? OK : "NT_STATUS_NO_SUCH_FILE");
	return ok;
}

static int unlink_path(const char *path)
{
	int e = lookup(path);
	int ok = e >= 0 && !ents[e].dir;
	emit(UNLINK, "Unlink \"%s\" 0x6 %s", path, ok ? OK : missing(path));
	if (ok)
		drop_ent(e);
	return ok;
}

static void rename_path(const char *from, const char *to)
{
	int e = lookup(from);
	if (e < 0 || ents[e].dir || ents[e].open || lookup(to) >= 0 || !parent_exists(to))
		die("model: a rename that would not be a plain rename");
	emit(RENAME, "Rename \"%s\" \"%s\" %s", from, to, OK);
	free(ents[e].path);
	free(ents[e].key);
	ents[e].path = xstrdup(to);
	ents[e].key = xstrdup(to);
	lower(ents[e].key, to);
}

static void deltree(const char *path)
{
	char key[PATHLEN];
	lower(key, path);
	size_t n = strlen(key);
	for (int i = 0; i < nents; i++)
		if (ents[i].live && strncmp(ents[i].key, key, n) == 0 &&
		    (ents[i].key[n] == '\0' || ents[i].key[n] == '\\'))
			drop_ent(i);
	emit(DELTREE, "Deltree \"%s\" %s", path, OK);
}

static void mkdir_path(const char *path)
{
	int ok = is_dir(path) || parent_exists(path);
	if (ok && !is_dir(path))
		add_ent(path, 1, R_DIR, -1);
	emit(MKDIR, "Mkdir \"%s\" %s", path, ok ? OK : missing(path));
}

static void rmdir_path(const char *path)
{
	char key[PATHLEN];
	int e = lookup(path);
	int ok = e >= 0 && ents[e].dir;
	lower(key, path);
	size_t n = strlen(key);
	for (int i = 0; ok && i < nents; i++)
		if (ents[i].live && strncmp(ents[i].key, key, n) == 0 && ents[i].key[n] == '\\')
			die("model: rmdir of a directory that is not empty");
	emit(RMDIR, "Rmdir \"%s\" %s", path, ok ? OK : missing(path));
	if (ok)
		drop_ent(e);
}

/* ---- compound steps ---- */

static void write_range(int h, uint64_t from, uint64_t to, uint32_t chunk)
{
	for (uint64_t off = from; off < to; off += chunk)
		writex(h, off, (uint32_t)(to - off < chunk ? to - off : chunk));
}

/* read the whole file: a first small request, then chunks */
static void read_all(int h, uint32_t first, uint32_t chunk)
{
	uint64_t size = hent(h)->size, off = 0;
	if (size && first) {
		uint32_t n = size < first ? (uint32_t)size : first;
		readx(h, 0, n);
		off = n;
	}
	for (; off < size; off += chunk)
		readx(h, off, (uint32_t)(size - off < chunk ? size - off : chunk));
}

static void join(char *buf, const char *dir, const char *name)
{
	if ((size_t)snprintf(buf, PATHLEN, "%s\\%s", dir, name) >= PATHLEN)
		die("path too long");
}

/* ==================================================================== */
/* client: an office file server                                         */
/* ==================================================================== */

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

static struct app apps[] = {
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
#define NAPPS ((int)(sizeof(apps) / sizeof(apps[0])))

#define MAXOPEN 8
#define MAXDB 2

struct odoc {
	int used, h, app, edits, saves;
	char path[PATHLEN], owner[PATHLEN], autosave[PATHLEN];
};

static struct odoc odocs[MAXOPEN];
static int nopen;

struct dbsess {
	int used, h, l, age;
	char path[PATHLEN], ldb[PATHLEN];
};

static struct dbsess dbs[MAXDB];
static int ndbopen;
static unsigned tmpseq;

/* names that were there once: stale entries of the user's memory */
#define NSTALE 32
static char stale[NSTALE][PATHLEN];
static unsigned nstale;

static void remember_stale(const char *path)
{
	strcpy(stale[nstale++ % NSTALE], path);
}

static const char *random_stale(void)
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
static int pick_ent(int role, int app, int want_closed)
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
static int files_in(const char *dir, int *idx, int max)
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

static void new_doc_name(int app, char *path)
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
		join(path, a->dir, name);
		if (lookup(path) < 0)
			return;
		if (tries > 1000)
			die("cannot find a new document name");
	}
}

static uint64_t doc_size(uint64_t lo, uint64_t hi)
{
	return roundup(rnd_logsize(lo, hi), 512);
}

static void owner_path(const struct app *a, const char *doc, char *buf)
{
	char dir[PATHLEN], name[PATHLEN];
	const char *base = base_of(doc);
	parent_of(doc, dir);
	if (a->owner == 1 && strlen(base) > 10)
		base += 2;
	snprintf(name, sizeof(name), "~$%s", base);
	join(buf, dir, name);
}

static void link_path(const char *doc, char *buf)
{
	char name[PATHLEN];
	snprintf(name, sizeof(name), "%s", base_of(doc));
	char *dot = strrchr(name, '.');
	if (dot)
		*dot = '\0';
	strcat(name, ".lnk");
	join(buf, RECENT, name);
}

/* Explorer copying a file onto the server: look, create, write, stamp. */
static void copy_in(const char *path, uint64_t size, uint32_t chunk, int role, int app)
{
	qpathinfo(path, 1004);
	int h = nt_create(path, 0x40, 2, role, app);
	write_range(h, 0, size, chunk);
	sfileinfo(h);
	nt_close(h);
}

/* the shell records a recently used document */
static void touch_link(const char *doc)
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

static struct odoc *pick_open(int min_edits, int min_age)
{
	int n = 0;
	struct odoc *pick = NULL;
	for (int i = 0; i < MAXOPEN; i++)
		if (odocs[i].used && odocs[i].edits >= min_edits &&
		    odocs[i].edits + odocs[i].saves >= min_age && rnd((uint32_t)++n) == 0)
			pick = &odocs[i];
	return pick;
}

static struct odoc *new_odoc(void)
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
static void make_owner(struct odoc *d)
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

static int pick_app(int need_closed_doc, int need_room, int need_spare)
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

/* ---- user actions ---- */

static void act_browse(void)
{
	char dir[PATHLEN], p[PATHLEN];
	unsigned r = rnd(10);
	if (r < 7)
		strcpy(dir, apps[pick_app(0, 0, 0)].dir);
	else if (r == 7)
		strcpy(dir, TEMPLATES);
	else if (r == 8)
		strcpy(dir, DATABASES);
	else
		strcpy(dir, OFFICE);
	qpathinfo(dir, 1004);
	int h = nt_create(dir, 0x1, 1, R_DIR, -1);
	if (chance(50))
		qfileinfo(h, 1004);
	join(p, dir, "*");
	find_first(p, 512);
	qfsinfo(1007);   /* the free space in the status bar */
	nt_close(h);
	join(p, dir, "desktop.ini");
	qpathinfo(p, 1004);
	/* details: a few files, then icons and the preview pane: the
	 * first page of a few documents */
	int idx[256], nf = files_in(dir, idx, 256), k = 0;
	for (unsigned n = 1 + rnd(4); n && k < nf; n--)
		qpathinfo(ents[idx[k++]].path, 1034);
	for (unsigned n = 1 + rnd(5); n && k < nf; k++) {
		struct ent *e = &ents[idx[k]];
		if (e->open || e->size < 4096 ||
		    (e->role != R_DOC && e->role != R_TEMPLATE && e->role != R_DB))
			continue;
		h = nt_create(e->path, 0x40, 1, 0, 0);
		readx(h, 0, 4096);
		nt_close(h);
		n--;
	}
}

static void act_open(void)
{
	char p[PATHLEN];
	int app = pick_app(1, 0, 0);
	const struct app *a = &apps[app];
	int e = pick_ent(R_DOC, app, 1);
	struct odoc *d = new_odoc();
	d->app = app;
	strcpy(d->path, ents[e].path);
	/* the Open dialog */
	join(p, a->dir, "*");
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
static void act_view(void)
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
static void act_scratch(void)
{
	char p[PATHLEN], name[64];
	int nscratch = 0;
	qpathinfo(TEMPDIR, 1004);
	do {
		snprintf(name, sizeof(name), "~DF%04X.tmp", (unsigned)rnd(0x10000));
		join(p, TEMPDIR, name);
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
		join(d->autosave, TEMPDIR, name);
	}
	int h = nt_create(d->autosave, 0x40, lookup(d->autosave) >= 0 ? 5 : 2, R_AUTOSAVE, d->app);
	write_range(h, 0, hent(d->h)->size, a->wchunk);
	sfileinfo(h);
	nt_close(h);
}

static void act_edit(void)
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
		join(buf, a->dir, name);
	} while (lookup(buf) >= 0);
}

static void act_save(void)
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
	flush(t);
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

static void close_doc(struct odoc *d)
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

static void act_close(void)
{
	close_doc(pick_open(0, 2));
}

static void act_new(void)
{
	char p[PATHLEN];
	int app = pick_app(0, 1, 0);
	const struct app *a = &apps[app];
	/* start from the template */
	join(p, TEMPLATES, a->tmpl);
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
	flush(d->h);
	make_owner(d);
	touch_link(d->path);
}

static void act_delete(void)
{
	char p[PATHLEN];
	int app = pick_app(1, 0, 1);
	int e = pick_ent(R_DOC, app, 1);
	strcpy(p, ents[e].path);
	char dir[PATHLEN], pat[PATHLEN];
	parent_of(p, dir);
	join(pat, dir, "*");
	find_first(pat, 512);
	qpathinfo(p, 1004);
	unlink_path(p);
	remember_stale(p);
	qpathinfo(p, 1004);
}

static void act_copy(void)
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
		join(dst, a->dir, name);
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
	join(pat, a->dir, "*");
	find_first(pat, 512);
}

static void act_rename(void)
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
	join(pat, dir, "*");
	find_first(pat, 512);
}

static void act_print(void)
{
	struct odoc *d = pick_open(0, 0);
	char spool[PATHLEN], name[64];
	do {
		snprintf(name, sizeof(name), "Print%04u.prn", ++tmpseq % 10000);
		join(spool, TEMPDIR, name);
	} while (lookup(spool) >= 0);
	uint64_t size = hent(d->h)->size * 3 / 2;
	if (size > 2 * MiB)
		size = 2 * MiB;
	qpathinfo(spool, 1004);
	int p = nt_create(spool, 0x40, 2, R_SPOOL, -1);
	write_range(p, 0, size, 32768);
	flush(p);
	nt_close(p);
	/* sent to the printer */
	p = nt_create(spool, 0x40, 1, 0, 0);
	read_all(p, 0, 61440);
	nt_close(p);
	unlink_path(spool);
}

static void db_page_read(struct dbsess *s, uint64_t page)
{
	readx(s->h, page * 4096, 4096);
}

static void act_db_open(void)
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

static struct dbsess *pick_db(int min_age)
{
	int n = 0;
	struct dbsess *pick = NULL;
	for (int i = 0; i < MAXDB; i++)
		if (dbs[i].used && dbs[i].age >= min_age && rnd((uint32_t)++n) == 0)
			pick = &dbs[i];
	return pick;
}

static void act_db_query(void)
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
	flush(s->h);
	s->age++;
}

static void act_db_update(void)
{
	db_update(pick_db(0), 0);
}

static void act_db_locked(void)
{
	db_update(pick_db(0), 1);
}

static void db_close(struct dbsess *s)
{
	nt_close(s->l);
	unlink_path(s->ldb);
	nt_close(s->h);
	qpathinfo(s->path, 1034);
	s->used = 0;
	ndbopen--;
}

static void act_db_close(void)
{
	db_close(pick_db(3));
}

/* applications and the shell looking for files that mostly are not there */
static void act_probe(void)
{
	char p[PATHLEN], dir[PATHLEN];
	for (unsigned n = 2 + rnd(4); n; n--) {
		int app = (int)rnd((uint32_t)NAPPS);
		strcpy(dir, apps[app].dir);
		switch (rnd(9)) {
		case 0:
			join(p, dir, "desktop.ini");
			probe_open(p);
			break;
		case 1:
			join(p, dir, "Thumbs.db");
			qpathinfo(p, 1004);
			break;
		case 2:
			join(p, dir, "*.lnk");
			find_first(p, 1);
			break;
		case 3:
			join(p, dir, "~$*");
			find_first(p, 1);
			break;
		case 4: {
			const char *s = random_stale();
			if (s) {
				qpathinfo(s, 1004);
				probe_open(s);
			} else {
				join(p, dir, "Folder.jpg");
				qpathinfo(p, 1004);
			}
			break;
		}
		case 5:
			join(p, TEMPDIR, "~ar*.tmp");
			find_first(p, 1);
			break;
		case 6: {
			int e = pick_ent(R_DOC, app, 0);
			if (e >= 0) {
				snprintf(p, sizeof(p), "%s", ents[e].path);
				strcpy(strrchr(p, '.'), ".bak");
				qpathinfo(p, 1004);
				probe_open(p);
			}
			break;
		}
		case 7:
			join(p, dir, "*.tmp");
			find_first(p, 1);
			break;
		default:
			join(p, dir, "AutoRun.inf");
			qpathinfo(p, 1004);
			break;
		}
	}
}

/* the shell's list of recent documents: listed, followed, pruned */
static void act_recent(void)
{
	char p[PATHLEN];
	join(p, RECENT, "*.lnk");
	find_first(p, 512);
	int nlinks = 0;
	for (int i = 0; i < nents; i++)
		nlinks += ents[i].live && ents[i].role == R_LINK;
	while (nlinks > 14) {
		int old = -1;
		for (int i = 0; i < nents; i++)
			if (ents[i].live && ents[i].role == R_LINK &&
			    (old < 0 || ents[i].serial < ents[old].serial))
				old = i;
		strcpy(p, ents[old].path);
		unlink_path(p);
		nlinks--;
	}
	for (unsigned n = 1 + rnd(3); n; n--) {
		int e = pick_ent(R_LINK, -1, 1);
		if (e < 0)
			break;
		char target[PATHLEN];
		strcpy(target, ents[e].target);
		int h = nt_create(ents[e].path, 0x40, 1, 0, 0);
		readx(h, 0, (uint32_t)hent(h)->size);
		nt_close(h);
		qpathinfo(target, 1034);
	}
}

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
} seen[NACTS];

/* Squared relative distance from the target mix (per-mille units) if an
 * action with the average effect of a's past runs came next. */
static int64_t distance_after(int a)
{
	const int64_t S = 16;  /* fixed-point scale of the averages */
	uint64_t r = seen[a].runs;
	int64_t lines = (int64_t)st.lines * S + (int64_t)(seen[a].lines * S / r);
	int64_t d = 0;
	for (int i = 0; i < NTARGET; i++) {
		enum op op = target[i].op;
		int64_t c = (int64_t)st.count[op] * S + (int64_t)(seen[a].count[op] * S / r);
		int64_t ppm = c * 1000000 / lines;
		int64_t rel = (ppm - target[i].ppm) * 1000 / target[i].ppm;
		d += rel * rel;
	}
	int64_t w = ((int64_t)st.written * S + (int64_t)(seen[a].written * S / r)) / lines;
	int64_t rd = ((int64_t)st.read * S + (int64_t)(seen[a].read * S / r)) / lines;
	int64_t rw = (w - WRITTEN_PER_LINE) * 1000 / WRITTEN_PER_LINE;
	int64_t rr = (rd - READ_PER_LINE) * 1000 / READ_PER_LINE;
	return d + 2 * (rw * rw + rr * rr);
}

static void run_action(int a)
{
	uint64_t before[NOPS], lines = st.lines, w = st.written, r = st.read;
	memcpy(before, st.count, sizeof(before));
	act_fn[a]();
	seen[a].runs++;
	for (int i = 0; i < NOPS; i++)
		seen[a].count[i] += st.count[i] - before[i];
	seen[a].lines += st.lines - lines;
	seen[a].written += st.written - w;
	seen[a].read += st.read - r;
}

static const char *const act_name[NACTS] = {
	"browse", "open", "edit", "save", "close", "new", "delete", "copy",
	"rename", "print", "db-open", "db-query", "db-update", "db-locked",
	"db-close", "probe", "recent", "view", "scratch",
};

/* --stats: what the actions did, on standard error */
static void client_stats(void)
{
	fprintf(stderr, "%-10s %5s %6s", "action", "runs", "lines");
	for (int i = 0; i < NOPS; i++)
		fprintf(stderr, " %5.5s", opshort[i]);
	fprintf(stderr, " %7s %7s\n", "kB_w", "kB_r");
	for (int a = 0; a < NACTS; a++) {
		uint64_t r = seen[a].runs ? seen[a].runs : 1;
		fprintf(stderr, "%-10s %5llu %6llu", act_name[a], (unsigned long long)seen[a].runs,
			(unsigned long long)seen[a].lines);
		for (int i = 0; i < NOPS; i++)
			fprintf(stderr, " %5llu", (unsigned long long)(seen[a].count[i] * 10 / r));
		fprintf(stderr, " %7llu %7llu\n", (unsigned long long)(seen[a].written / r / 1000),
			(unsigned long long)(seen[a].read / r / 1000));
	}
	fprintf(stderr, "(operations per run x10)\n");
}

static int stats;

static void gen_client(void)
{
	char p[PATHLEN];
	const uint64_t pass_lines = 50000;

	/* every pass starts from an empty tree */
	deltree(OFFICE);
	deltree(PROFILE);
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
		join(p, TEMPLATES, a->tmpl);
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
		join(p, DATABASES, dbfiles[i].name);
		copy_in(p, (dbfiles[i].pages + rnd(33)) * 4096ull, 65536, R_DB, -1);
	}

	/* the working day */
	while (st.lines < pass_lines - 150) {
		int cand[NACTS], nc = 0, fresh = -1, nlow = 0;
		uint64_t nacts = 0;
		for (int a = 0; a < NACTS; a++)
			nacts += seen[a].runs;
		for (int a = 0; a < NACTS; a++) {
			if (!applicable(a))
				continue;
			if (!seen[a].runs && fresh < 0)
				fresh = a;
			if (nacts >= 200 && seen[a].runs * 1000 >= (uint64_t)act_bounds[a].hi * nacts)
				continue;
			int low = nacts >= 200 && seen[a].runs * 1000 < (uint64_t)act_bounds[a].lo * nacts;
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
	deltree(OFFICE);
	deltree(PROFILE);
	if (stats)
		client_stats();
}

/* ==================================================================== */
/* smallfiles: metadata first, like mdtest                              */
/* ==================================================================== */

#define MD ROOT "\\mdtest"
#define MD_TOP 8
#define MD_SUB 8
#define MD_FILES 40

static uint32_t small_size(void)
{
	if (chance(25))
		return 0;
	return (uint32_t)rnd_logsize(16, 8192);
}

static void shuffle(int *v, int n)
{
	for (int i = n - 1; i > 0; i--) {
		int j = (int)rnd((uint32_t)i + 1), t = v[i];
		v[i] = v[j];
		v[j] = t;
	}
}

static void leaf_path(int leaf, char *buf)
{
	snprintf(buf, PATHLEN, "%s\\dir%02d\\sub%02d", MD, leaf / MD_SUB, leaf % MD_SUB);
}

static void small_path(int file, int renamed, char *buf)
{
	char leaf[PATHLEN];
	leaf_path(file / MD_FILES, leaf);
	if ((size_t)snprintf(buf, PATHLEN, "%s\\file.%04d.%s", leaf, file % MD_FILES,
			     renamed ? "old" : "dat") >= PATHLEN)
		die("path too long");
}

static void gen_smallfiles(void)
{
	enum { NLEAF = MD_TOP * MD_SUB, NFILE = NLEAF * MD_FILES };
	static int order[NFILE], renamed[NFILE];
	char p[PATHLEN], q[PATHLEN];

	deltree(MD);
	mkdir_path(MD);
	qfsinfo(1007);
	/* the tree: half the directories by Mkdir, half by NTCreateX */
	for (int t = 0; t < MD_TOP; t++) {
		snprintf(p, PATHLEN, "%s\\dir%02d", MD, t);
		mkdir_path(p);
		for (int s = 0; s < MD_SUB; s++) {
			leaf_path(t * MD_SUB + s, p);
			if (s % 2)
				mkdir_path(p);
			else
				nt_close(nt_create(p, 0x1, 2, R_DIR, -1));
		}
	}
	/* create: each directory filled in turn, as an mdtest task does */
	for (int f = 0; f < NFILE; f++) {
		small_path(f, 0, p);
		int h = nt_create(p, 0x40, 2, R_DATA, -1);
		uint32_t n = small_size();
		if (n)
			writex(h, 0, n);
		nt_close(h);
	}
	/* stat, in random order */
	for (int f = 0; f < NFILE; f++)
		order[f] = f;
	shuffle(order, NFILE);
	for (int f = 0; f < NFILE; f++) {
		small_path(order[f], 0, p);
		qpathinfo(p, 1034);
	}
	/* list each directory; look for files that are not there */
	for (int l = 0; l < NLEAF; l++) {
		leaf_path(l, q);
		join(p, q, "*");
		find_first(p, 512);
		join(p, q, "*.tmp");
		find_first(p, 512);
	}
	/* read half of them back */
	shuffle(order, NFILE);
	for (int i = 0; i < NFILE / 2; i++) {
		small_path(order[i], 0, p);
		int h = nt_create(p, 0x40, 1, 0, 0);
		qfileinfo(h, 1005);
		uint64_t n = hent(h)->size;
		if (n)
			readx(h, 0, (uint32_t)n);
		nt_close(h);
	}
	/* rename half; the old names are gone */
	shuffle(order, NFILE);
	for (int i = 0; i < NFILE / 2; i++) {
		int f = order[i];
		small_path(f, 0, p);
		small_path(f, 1, q);
		rename_path(p, q);
		renamed[f] = 1;
		if (i % 4 == 0)
			qpathinfo(p, 1004);
	}
	for (int l = 0; l < NLEAF; l++) {
		leaf_path(l, q);
		join(p, q, "*.old");
		find_first(p, 512);
	}
	/* searches by name: a quarter of the files, by their first name */
	shuffle(order, NFILE);
	for (int i = 0; i < NFILE / 4; i++) {
		small_path(order[i], 0, p);
		find_first(p, 1);
	}
	/* change some: set times, rewrite */
	shuffle(order, NFILE);
	for (int i = 0; i < NFILE / 8; i++) {
		int f = order[i];
		small_path(f, renamed[f], p);
		int h = nt_create(p, 0x40, i % 2 ? 5 : 1, R_DATA, -1);
		if (i % 2)
			writex(h, 0, small_size() | 1);
		sfileinfo(h);
		nt_close(h);
	}
	/* remove every file, directory by directory, then the tree */
	for (int l = 0; l < NLEAF; l++) {
		int idx[MD_FILES];
		for (int i = 0; i < MD_FILES; i++)
			idx[i] = l * MD_FILES + i;
		shuffle(idx, MD_FILES);
		for (int i = 0; i < MD_FILES; i++) {
			small_path(idx[i], renamed[idx[i]], p);
			unlink_path(p);
		}
		leaf_path(l, p);
		rmdir_path(p);
		if (l % MD_SUB == MD_SUB - 1) {
			snprintf(p, PATHLEN, "%s\\dir%02d", MD, l / MD_SUB);
			rmdir_path(p);
		}
	}
	rmdir_path(MD);
}

/* ==================================================================== */
/* stream: large files written and read back sequentially               */
/* ==================================================================== */

#define ST ROOT "\\stream"
#define ST_FILES 4
#define ST_SIZE (256ull * MiB)
#define ST_IO MiB

static void stream_path(int i, char *buf)
{
	snprintf(buf, PATHLEN, "%s\\stream%d.dat", ST, i);
}

static void stream_write(int i)
{
	char p[PATHLEN];
	stream_path(i, p);
	qpathinfo(p, 1004);
	int h = nt_create(p, 0x40, 2, R_DATA, -1);
	write_range(h, 0, ST_SIZE, ST_IO);
	flush(h);
	nt_close(h);
}

static void stream_read(int i)
{
	char p[PATHLEN];
	stream_path(i, p);
	int h = nt_create(p, 0x40, 1, 0, 0);
	qfileinfo(h, 1005);
	read_all(h, 0, ST_IO);
	nt_close(h);
	unlink_path(p);
}

/* Write file i+1 before reading file i back: at most two files (512 MiB)
 * on disk, and no file is read straight after it was written. */
static void gen_stream(void)
{
	deltree(ST);
	mkdir_path(ST);
	qfsinfo(1007);
	stream_write(0);
	for (int i = 0; i < ST_FILES; i++) {
		if (i + 1 < ST_FILES)
			stream_write(i + 1);
		stream_read(i);
	}
	rmdir_path(ST);
}

/* ==================================================================== */

static const struct {
	const char *name, *what;
	void (*gen)(void);
} workloads[] = {
	{ "client", "an office file server: documents, spreadsheets, "
		    "presentations and databases", gen_client },
	{ "smallfiles", "metadata first, like mdtest: many directories, small files",
	  gen_smallfiles },
	{ "stream", "large files written and read back in 1 MiB requests", gen_stream },
};

/* bytes as MB (10^6) with one decimal, in integers */
static const char *mb(uint64_t bytes, char *buf)
{
	uint64_t tenths = (bytes + 50000) / 100000;
	sprintf(buf, "%llu.%llu", (unsigned long long)(tenths / 10), (unsigned long long)(tenths % 10));
	return buf;
}

static void usage(FILE *f)
{
	fprintf(f, "usage: genload [--seed N] [--stats] client|smallfiles|stream > FILE\n");
}

int main(int argc, char **argv)
{
	unsigned long long seed = 1;
	const char *which = NULL;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--seed") == 0 && i + 1 < argc) {
			char *end;
			seed = strtoull(argv[++i], &end, 10);
			if (*end || !*argv[i] || argv[i][0] == '-') {
				usage(stderr);
				return 2;
			}
		} else if (strcmp(argv[i], "--stats") == 0) {
			stats = 1;
		} else if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
			usage(stdout);
			return 0;
		} else if (!which && argv[i][0] != '-') {
			which = argv[i];
		} else {
			usage(stderr);
			return 2;
		}
	}
	int w = -1;
	for (int i = 0; which && i < (int)(sizeof(workloads) / sizeof(workloads[0])); i++)
		if (strcmp(which, workloads[i].name) == 0)
			w = i;
	if (w < 0) {
		usage(stderr);
		return 2;
	}
	rng = seed;
	workloads[w].gen();
	char b1[32], b2[32], b3[32];

	printf("# kbench generated workload \"%s\": %s (dbench 4 format)\n",
	       workloads[w].name, workloads[w].what);
	printf("# Written by kbench's loadfiles/genload, seed %llu: "
	       "genload --seed %llu %s; do not edit, regenerate it.\n",
	       seed, seed, workloads[w].name);
	printf("# A pass: %llu operations, %s MB written, %s MB read, at most %s MB\n"
	       "# of files and %u handles open (MB = 10^6 bytes).\n",
	       (unsigned long long)st.lines, mb(st.written, b1), mb(st.read, b2),
	       mb(st.peak_bytes, b3), st.peak_handles);
	printf("# SPDX-License-Identifier: GPL-3.0-or-later\n");
	if (fwrite(out, 1, out_len, stdout) != out_len || fflush(stdout) != 0) {
		perror("genload: write");
		return 1;
	}
	return 0;
}
