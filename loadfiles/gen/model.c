/* kbench - genload: the model of the client's tree and the operations
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every operation writes its loadfile line with the status kbench will
 * see when it replays the line after all the earlier ones: the model
 * keeps the entries of the tree (names folded to lower case, as kbench
 * uses them), their sizes and the open handles.  NTCreateX disposition 1
 * needs the file, 2 creates, 5 creates or truncates; a FIND_FIRST pattern
 * succeeds when an entry of the directory, "." and ".." included, matches
 * it.  A line that would not replay as written (a read past the end, a
 * rename onto a file, removing an open file) is a bug of the workload and
 * stops genload.
 */
#include "gen.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the model of the client's tree ---- */

struct ent *ents;
int nents;
uint64_t serials;

void lower(char *dst, const char *src)
{
	for (; *src; src++)
		*dst++ = (*src >= 'A' && *src <= 'Z') ? (char)(*src - 'A' + 'a') : *src;
	*dst = '\0';
}

int lookup(const char *path)
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

void parent_of(const char *path, char *buf)
{
	const char *slash = strrchr(path, '\\');
	size_t n = slash ? (size_t)(slash - path) : 0;
	memcpy(buf, path, n);
	buf[n] = '\0';
}

const char *base_of(const char *path)
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
	tally.bytes = (uint64_t)((int64_t)tally.bytes + delta);
	if (tally.bytes > tally.peak_bytes)
		tally.peak_bytes = tally.bytes;
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
int nt_create(const char *path, unsigned opts, unsigned disp, int role, int app)
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
	if (++tally.handles > tally.peak_handles)
		tally.peak_handles = tally.handles;
	return (int)j;
}

/* An open that looks for a file: closed again if the file was there. */
void probe_open(const char *path)
{
	int h = nt_create(path, 0x40, 1, 0, 0);
	if (h >= 0)
		nt_close(h);
}

struct ent *hent(int h)
{
	if (h < 0 || h >= NFNUM || !hnd[h].used)
		die("model: bad handle");
	return &ents[hnd[h].ent];
}

void nt_close(int h)
{
	hent(h)->open--;
	hnd[h].used = 0;
	tally.handles--;
	emit(CLOSE, "Close %u %s", FNUM_BASE + (unsigned)h, OK);
}

void readx(int h, uint64_t off, uint32_t len)
{
	struct ent *e = hent(h);
	if (off + len > e->size)
		die("model: read past the end of file");
	emit(READX, "ReadX %u %llu %u %u %s", FNUM_BASE + (unsigned)h,
	     (unsigned long long)off, len, len, OK);
	tally.read += len;
}

void writex(int h, uint64_t off, uint32_t len)
{
	struct ent *e = hent(h);
	if (off + len > e->size) {
		account((int64_t)(off + len - e->size));
		e->size = off + len;
	}
	emit(WRITEX, "WriteX %u %llu %u %u %s", FNUM_BASE + (unsigned)h,
	     (unsigned long long)off, len, len, OK);
	tally.written += len;
}

void qfileinfo(int h, unsigned level)
{
	hent(h);
	emit(QFILEINFO, "QUERY_FILE_INFORMATION %u %u %s", FNUM_BASE + (unsigned)h, level, OK);
}

void sfileinfo(int h)
{
	hent(h);
	emit(SFILEINFO, "SET_FILE_INFORMATION %u 1004 %s", FNUM_BASE + (unsigned)h, OK);
}

void gen_flush(int h)
{
	hent(h);
	emit(FLUSH, "Flush %u %s", FNUM_BASE + (unsigned)h, OK);
}

void lockx(int h, uint64_t off, uint64_t len, int unlock)
{
	hent(h);
	emit(unlock ? UNLOCKX : LOCKX, "%s %u %llu %llu %s", unlock ? "UnlockX" : "LockX",
	     FNUM_BASE + (unsigned)h, (unsigned long long)off, (unsigned long long)len, OK);
}

void qfsinfo(unsigned level)
{
	emit(QFSINFO, "QUERY_FS_INFORMATION %u %s", level, OK);
}

int qpathinfo(const char *path, unsigned level)
{
	int ok = lookup(path) >= 0 || strcmp(path, ROOT) == 0;
	emit(QPATHINFO, "QUERY_PATH_INFORMATION \"%s\" %u %s", path, level,
	     ok ? OK : missing(path));
	return ok;
}

/* FIND_FIRST: a pattern lists the directory; a plain name is a lookup. */
int find_first(const char *pattern, unsigned maxcnt)
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

int unlink_path(const char *path)
{
	int e = lookup(path);
	int ok = e >= 0 && !ents[e].dir;
	emit(UNLINK, "Unlink \"%s\" 0x6 %s", path, ok ? OK : missing(path));
	if (ok)
		drop_ent(e);
	return ok;
}

void rename_path(const char *from, const char *to)
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

void gen_deltree(const char *path)
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

void mkdir_path(const char *path)
{
	int ok = is_dir(path) || parent_exists(path);
	if (ok && !is_dir(path))
		add_ent(path, 1, R_DIR, -1);
	emit(MKDIR, "Mkdir \"%s\" %s", path, ok ? OK : missing(path));
}

void rmdir_path(const char *path)
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

void write_range(int h, uint64_t from, uint64_t to, uint32_t chunk)
{
	for (uint64_t off = from; off < to; off += chunk)
		writex(h, off, (uint32_t)(to - off < chunk ? to - off : chunk));
}

/* read the whole file: a first small request, then chunks */
void read_all(int h, uint32_t first, uint32_t chunk)
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

void gen_join(char *buf, const char *dir, const char *name)
{
	if ((size_t)snprintf(buf, PATHLEN, "%s\\%s", dir, name) >= PATHLEN)
		die("path too long");
}
