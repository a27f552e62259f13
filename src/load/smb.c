/* kbench - the SMB backend: the load straight over SMB through libsmbclient
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * kbench load -B smb --smb-share //SERVER[:PORT]/SHARE
 *                    [--smb-user [DOMAIN/]USER%PASSWORD | --smb-user-file FILE]
 *
 * Every client has its own libsmbclient context (SMBCCTX: its own server
 * cache, hence its own TCP connection and SMB session, as N machines
 * would have), and works in DIR/clients/clientK under the share.  DIR is
 * -D (a path inside the share) or kbench-PID, made by prepare() and
 * removed after the run.  The parent reaches the share once in prepare(),
 * before any fork, and drops that connection again: a client never
 * inherits a live connection.
 *
 * Each op of the fileio backend (fileio.c) maps onto libsmbclient calls
 * with the same expectations of success and failure; kbench-load(1) says
 * what each sends.  libsmbclient has no call for fsync (SMB2 FLUSH) and
 * none for byte-range locks, so Flush, LockX and UnlockX have no function
 * here: the client loop counts them as unsupported (BE_EUNSUPPORTED) and
 * does not carry them out.
 *
 * libsmbclient addresses everything by URL, smb://SERVER/SHARE/PATH: each
 * client keeps its tree's URL and the run directory's as prefixes and
 * writes an op's path after one of them into a buffer of its own, so an
 * op builds no string on the heap (the library itself allocates per call).
 */
#include "config.h"
#include "load/backend.h"
#include "load/trees.h"
#include "cli.h"

#ifndef HAVE_LIBSMBCLIENT

const struct backend smb_backend = {
	.name = "smb",
	.help = "SMB2/3 through libsmbclient (--smb-share //SERVER/SHARE)",
	.missing = "libsmbclient",
};

#else

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/time.h>
#include <unistd.h>
#include <libsmbclient.h>
#include "load/sockwatch.h"
#include "sys/dynlib.h"

/* libsmbclient is not linked into kbench: prepare() dlopens
 * SMBCLIENT_SONAME (what configure read from libsmbclient.so) and fills
 * this table once, before any client forks, so a run of another backend
 * never maps Samba's ~100 objects.  Each call below is libsmb.NAME(...),
 * NAME being the function of libsmbclient.h whose type the pointer has. */
#define LIBSMB_FUNCTIONS(X) \
	X(smbc_new_context) X(smbc_init_context) X(smbc_free_context) \
	X(smbc_setDebug) X(smbc_setLogCallback) X(smbc_setOptionUserData) \
	X(smbc_getOptionUserData) X(smbc_setFunctionAuthDataWithContext) \
	X(smbc_setOptionUseKerberos) X(smbc_setOptionFallbackAfterKerberos) \
	X(smbc_setOptionUseCCache) X(smbc_setOptionNoAutoAnonymousLogin) \
	X(smbc_setTimeout) X(smbc_setFunctionCheckServer) X(smbc_setPort) \
	X(smbc_getFunctionOpen) X(smbc_getFunctionRead) X(smbc_getFunctionWrite) \
	X(smbc_getFunctionLseek) X(smbc_getFunctionClose) X(smbc_getFunctionStat) \
	X(smbc_getFunctionFstat) X(smbc_getFunctionFstatVFS) \
	X(smbc_getFunctionFtruncate) X(smbc_getFunctionUtimes) \
	X(smbc_getFunctionOpendir) X(smbc_getFunctionReaddir) \
	X(smbc_getFunctionClosedir) X(smbc_getFunctionRename) \
	X(smbc_getFunctionUnlink) X(smbc_getFunctionMkdir) X(smbc_getFunctionRmdir) \
	X(smbc_getFunctionReaddirPlus)

static struct {
#define LIBSMB_POINTER(name) __typeof__(name) *name;
	LIBSMB_FUNCTIONS(LIBSMB_POINTER)
#undef LIBSMB_POINTER
} libsmb;

/* dlopen libsmbclient and resolve the table, once.  Returns 0, or -1
 * after one line on stderr naming the library and dlerror(). */
static int libsmb_load(const char *cmd)
{
	static void *h;
	if (h)
		return 0;
	void *so = dynlib_open(SMBCLIENT_SONAME, cmd, "-B smb");
	if (!so)
		return -1;
	void *p;
#define LIBSMB_RESOLVE(name) \
	if (!(p = dynlib_sym(so, SMBCLIENT_SONAME, #name, cmd, "-B smb"))) \
		return -1; \
	libsmb.name = (__typeof__(libsmb.name))p;
	LIBSMB_FUNCTIONS(LIBSMB_RESOLVE)
#undef LIBSMB_RESOLVE
	h = so;
	return 0;
}

/* NTCreateX create_options and dispositions (MS-SMB), as fileio.c */
#define FILE_DIRECTORY_FILE 0x0001
#define FILE_CREATE 2
#define FILE_OVERWRITE 4
#define FILE_OVERWRITE_IF 5

/* Each request waits at most this long for the server's reply (and a
 * connect as long): a server stalled mid-run fails the op with ETIMEDOUT,
 * and the client stops.  libsmbclient fixes a connection's timeout when it
 * connects and one call may send several requests, so near the run's end
 * this alone is no bound: sockwatch.c shuts the client's connection down
 * SMB_GRACE_NS after the end (or a stop), and every request then fails at
 * once, as ETIMEDOUT. */
#define SMB_TIMEOUT_MS 8000
#define SMB_GRACE_NS 2000000000ull

#define URL_MAX (PATH_MAX * 3 + 512)

/* What prepare() resolved; the clients inherit it over fork. */
struct smb_target {
	char server[256];
	unsigned port;          /* 0: libsmbclient's default (445, then 139) */
	char share[256];
	char domain[256];       /* empty: the workgroup of the client's smb.conf */
	char user[256];
	char password[256];
	char dir[PATH_MAX];     /* DIR inside the share, '/'-separated, no
				 * leading or trailing '/'; "" is the share's root */
	int made_dir;           /* DIR is kbench-PID, made by prepare() */
	struct tree_claim trees; /* the client trees prepare() made (trees.c) */
	struct timespec since;  /* the creation time, on the server's clock, of
				 * the first directory the run made; 0: none */
	char **noted;           /* -D: DIR's names before the run (malloc'd) */
	size_t nnoted;
	char root_url[URL_MAX]; /* smb://SERVER/SHARE[/DIR] */
	char shown[PATH_MAX + 600]; /* //SERVER[:PORT]/SHARE[/DIR], for reports */
};

struct smb_handle {
	SMBCFILE *f;            /* an open file, NULL for a directory "open" */
	uint32_t path;          /* the NTCreateX's path (arena offset) */
	uint8_t shared;         /* ... relative to DIR, not the client's tree */
	uint8_t open;
};

struct smb_client {
	SMBCCTX *x;
	smbc_open_fn open;
	smbc_read_fn read;
	smbc_write_fn write;
	smbc_lseek_fn lseek;
	smbc_close_fn close;
	smbc_stat_fn stat;
	smbc_fstat_fn fstat;
	smbc_fstatvfs_fn fstatvfs;
	smbc_ftruncate_fn ftruncate;
	smbc_utimes_fn utimes;
	smbc_opendir_fn opendir;
	smbc_readdir_fn readdir;
	smbc_closedir_fn closedir;
	smbc_rename_fn rename;
	smbc_unlink_fn unlink;
	smbc_mkdir_fn mkdir;
	smbc_rmdir_fn rmdir;
	SMBCFILE *treedir;      /* the tree, opened as a directory: Qfsinfo's handle */
	struct smb_handle *h;   /* nhandles */
	size_t tree_len, root_len;
	char tree[URL_MAX];     /* smb://SERVER/SHARE/DIR/clients/clientK */
	char root[URL_MAX];     /* smb://SERVER/SHARE/DIR */
	char u1[URL_MAX], u2[URL_MAX];
	struct smb_client *next;  /* on left_behind, once the client is dead */
};

/* ---- URLs ---- */

/* Append s to buf (length *len, capacity URL_MAX) with the characters
 * libsmbclient's URL parser would take for syntax ('%', '?') escaped.
 * Returns 0, or ENAMETOOLONG. */
static int url_append(char *buf, size_t *len, const char *s)
{
	size_t n = *len;
	for (; *s; s++) {
		if (n + 4 >= URL_MAX)
			return ENAMETOOLONG;
		if (*s == '%' || *s == '?') {
			n += (size_t)sprintf(buf + n, "%%%02X", (unsigned char)*s);
		} else {
			buf[n++] = *s;
		}
	}
	buf[n] = '\0';
	*len = n;
	return 0;
}

/* buf = the client's tree (or DIR when shared) + "/" + path ("." is the
 * base itself).  Returns 0 or ENAMETOOLONG. */
static int url_of(struct smb_client *sc, char *buf, int shared, const char *path)
{
	size_t len = shared ? sc->root_len : sc->tree_len;
	memcpy(buf, shared ? sc->root : sc->tree, len + 1);
	if (!strcmp(path, "."))
		return 0;
	buf[len++] = '/';
	buf[len] = '\0';
	return url_append(buf, &len, path);
}

/* The URL of op's first path, in sc->u1: in the client's tree, or in DIR
 * for a shared one.  Returns url_of's. */
static int url_path1(struct smb_client *sc, const struct backend_ctx *c, const struct op *op)
{
	return url_of(sc, sc->u1, (op->flags & OPF_SHARED1) != 0, prog_path(c->prog, op->path1));
}

/* ---- contexts ---- */

static void auth_fn(SMBCCTX *x, const char *srv, const char *shr, char *wg, int wglen,
		    char *un, int unlen, char *pw, int pwlen)
{
	const struct smb_target *t = libsmb.smbc_getOptionUserData(x);
	(void)srv;
	(void)shr;
	if (t->domain[0])
		snprintf(wg, (size_t)wglen, "%s", t->domain);
	snprintf(un, (size_t)unlen, "%s", t->user);
	snprintf(pw, (size_t)pwlen, "%s", t->password);
}

static void quiet_log(void *arg, int level, const char *msg)
{
	(void)arg;
	(void)level;
	(void)msg;
}

/* libsmbclient asks this before it reuses its cached connection (its own
 * check sends an SMB2 ECHO once per timeout interval, and on a failed one
 * connects again).  kbench's answer is always "usable": a request on a
 * connection that is gone then fails at once, and one to a stalled
 * server after one timeout, and the client stops; no client ever
 * replaces its connection with another behind the run's back. */
static int keep_server(SMBCCTX *x, SMBCSRV *srv)
{
	(void)x;
	(void)srv;
	return 0;
}

/* A context of its own: its server cache, hence its own connection.
 * Returns it, or NULL with errno. */
static SMBCCTX *new_context(struct smb_target *t)
{
	SMBCCTX *x = libsmb.smbc_new_context();
	if (!x)
		return NULL;
	libsmb.smbc_setDebug(x, 0);
	libsmb.smbc_setLogCallback(x, NULL, quiet_log);
	libsmb.smbc_setOptionUserData(x, t);
	libsmb.smbc_setFunctionAuthDataWithContext(x, auth_fn);
	libsmb.smbc_setOptionUseKerberos(x, 0);
	libsmb.smbc_setOptionFallbackAfterKerberos(x, 0);
	libsmb.smbc_setOptionUseCCache(x, 0);
	/* a refused login fails; it does not become an anonymous one */
	libsmb.smbc_setOptionNoAutoAnonymousLogin(x, 1);
	libsmb.smbc_setTimeout(x, SMB_TIMEOUT_MS);
	libsmb.smbc_setFunctionCheckServer(x, keep_server);
	if (t->port)
		libsmb.smbc_setPort(x, (uint16_t)t->port);
	if (!libsmb.smbc_init_context(x)) {
		int e = errno ? errno : EINVAL;
		libsmb.smbc_free_context(x, 1);
		errno = e;
		return NULL;
	}
	return x;
}

/* Errors that mean the connection is gone (or the server stalled past
 * the timeout): the client cannot go on. */
static int lost(int e)
{
	switch (e) {
	case ECONNRESET: case ECONNREFUSED: case ECONNABORTED: case ETIMEDOUT:
	case EPIPE: case ENOTCONN: case EHOSTUNREACH: case ENETUNREACH:
	case ENETDOWN: case EHOSTDOWN: case ENETRESET:
		return 1;
	default:
		return 0;
	}
}

/* The errno of a failed libsmbclient call, noting a lost connection. */
static int fail(struct backend_ctx *c)
{
	if (sw_fired()) {
		c->dead = 1;  /* the run's end and its grace are past */
		return ETIMEDOUT;
	}
	int e = errno ? errno : EIO;
	if (lost(e))
		c->dead = 1;
	return e;
}

#define SC(c) ((struct smb_client *)(c)->priv)

static struct smb_handle *handle_of(struct backend_ctx *c, const struct op *op)
{
	struct smb_client *sc = SC(c);
	if (op->handle >= c->nhandles || !sc->h[op->handle].open)
		return NULL;
	return &sc->h[op->handle];
}

/* ---- the ops ---- */

/* Write len bytes of c's pattern at off.  Returns 0 or an errno. */
static int write_at(struct backend_ctx *c, SMBCFILE *f, uint64_t off, size_t len)
{
	struct smb_client *sc = SC(c);
	errno = 0;
	if (sc->lseek(sc->x, f, (off_t)off, SEEK_SET) < 0)
		return fail(c);
	ssize_t n = sc->write(sc->x, f, c->iobuf, len);
	if (n < 0)
		return fail(c);
	return (size_t)n == len ? 0 : EIO;
}

/* OPF_SETSIZE, as fileio.c: grow the file by writing, cut it by truncating. */
static int set_size(struct backend_ctx *c, SMBCFILE *f, const struct op *op)
{
	struct smb_client *sc = SC(c);
	struct stat st;
	errno = 0;
	if (sc->fstat(sc->x, f, &st) < 0)
		return fail(c);
	uint64_t have = (uint64_t)st.st_size, want = op->off;
	if (want < have)
		return sc->ftruncate(sc->x, f, (off_t)want) < 0 ? fail(c) : 0;
	size_t chunk = c->prog->max_io < SETSIZE_CHUNK ? c->prog->max_io : SETSIZE_CHUNK;
	for (; chunk && have < want; have += chunk) {
		size_t n = want - have < chunk ? (size_t)(want - have) : chunk;
		int e = write_at(c, f, have, n);
		if (e)
			return e;
	}
	return 0;
}

static void unbind(struct smb_client *sc, struct smb_handle *h)
{
	if (h->f)
		sc->close(sc->x, h->f);
	h->f = NULL;
	h->open = 0;
}

static int do_ntcreatex(struct backend_ctx *c, const struct op *op, uint64_t *bytes)
{
	struct smb_client *sc = SC(c);
	int shared = (op->flags & OPF_SHARED1) != 0;
	int creates = op->aux == FILE_CREATE || op->aux == FILE_OVERWRITE ||
		      op->aux == FILE_OVERWRITE_IF;
	SMBCFILE *f = NULL;
	struct stat st;
	(void)bytes;

	if (op->handle >= c->nhandles && op->handle != NO_HANDLE)
		return EBADF;
	int e = url_of(sc, sc->u1, shared, prog_path(c->prog, op->path1));
	if (e)
		return e;
	errno = 0;
	if (op->arg & FILE_DIRECTORY_FILE) {
		/* a directory: made if the disposition creates, then looked
		 * up; it holds no handle on the server (libsmbclient opens
		 * directories only to list them) */
		if (creates && sc->mkdir(sc->x, sc->u1, 0777) < 0 && errno != EEXIST)
			return fail(c);
		errno = 0;
		if (sc->stat(sc->x, sc->u1, &st) < 0)
			return fail(c);
		if (!S_ISDIR(st.st_mode))
			return ENOTDIR;
	} else {
		/* fileio's (and dbench's) flags: libsmbclient sends FILE_OPEN_IF
		 * for O_CREAT, FILE_OVERWRITE_IF for O_CREAT|O_TRUNC */
		int flags = O_RDWR;
		if (op->aux == FILE_CREATE || (op->flags & OPF_OPEN_IF))
			flags |= O_CREAT;
		else if (op->aux == FILE_OVERWRITE || op->aux == FILE_OVERWRITE_IF)
			flags |= O_CREAT | O_TRUNC;
		f = sc->open(sc->x, sc->u1, flags, 0600);
		if (!f) {
			if (errno != EISDIR)
				return fail(c);
			errno = 0;
			if (sc->stat(sc->x, sc->u1, &st) < 0)
				return fail(c);
		}
		if (f && (op->flags & OPF_SETSIZE)) {
			e = set_size(c, f, op);
			if (e) {
				sc->close(sc->x, f);
				return e;
			}
		}
	}
	if (op->handle == NO_HANDLE) {
		if (f)
			sc->close(sc->x, f);  /* an open meant to fail binds nothing */
		return 0;
	}
	struct smb_handle *h = &sc->h[op->handle];
	if (h->open)
		unbind(sc, h);
	h->f = f;
	h->path = op->path1;
	h->shared = (uint8_t)shared;
	h->open = 1;
	return 0;
}

static int do_close(struct backend_ctx *c, const struct op *op, uint64_t *bytes)
{
	struct smb_client *sc = SC(c);
	(void)bytes;
	struct smb_handle *h = handle_of(c, op);
	if (!h)
		return EBADF;
	SMBCFILE *f = h->f;
	h->f = NULL;
	h->open = 0;
	errno = 0;
	return f && sc->close(sc->x, f) < 0 ? fail(c) : 0;
}

static int do_rename(struct backend_ctx *c, const struct op *op, uint64_t *bytes)
{
	struct smb_client *sc = SC(c);
	(void)bytes;
	int e = url_path1(sc, c, op);
	if (!e)
		e = url_of(sc, sc->u2, (op->flags & OPF_SHARED2) != 0, prog_path(c->prog, op->path2));
	if (e)
		return e;
	errno = 0;
	return sc->rename(sc->x, sc->u1, sc->x, sc->u2) < 0 ? fail(c) : 0;
}

static int do_unlink(struct backend_ctx *c, const struct op *op, uint64_t *bytes)
{
	struct smb_client *sc = SC(c);
	(void)bytes;
	int e = url_path1(sc, c, op);
	if (e)
		return e;
	errno = 0;
	return sc->unlink(sc->x, sc->u1) < 0 ? fail(c) : 0;
}

/* Remove the tree at url (length len, in a buffer of URL_MAX) over the
 * protocol: list each directory, unlink its files, recurse into its
 * directories, remove it (unless keep_top).  A missing path is not an
 * error; a file is unlinked.  The buffer is extended and cut back, never
 * copied.  Returns 0 or the first errno. */
static int tree_remove(SMBCCTX *x, char *url, size_t len, int keep_top, int *dead)
{
	errno = 0;
	SMBCFILE *d = libsmb.smbc_getFunctionOpendir(x)(x, url);
	if (!d) {
		int e = errno ? errno : EIO;
		if (e == ENOENT)
			return 0;
		if (e == ENOTDIR) {
			errno = 0;
			return libsmb.smbc_getFunctionUnlink(x)(x, url) < 0 ? (errno ? errno : EIO) : 0;
		}
		if (lost(e))
			*dead = 1;
		return e;
	}
	int rc = 0;
	struct smbc_dirent *de;
	while (!rc && (de = libsmb.smbc_getFunctionReaddir(x)(x, d))) {
		if (!strcmp(de->name, ".") || !strcmp(de->name, ".."))
			continue;
		size_t n = len;
		url[n++] = '/';
		url[n] = '\0';
		int e = url_append(url, &n, de->name);
		if (!e && de->smbc_type == SMBC_DIR) {
			e = tree_remove(x, url, n, 0, dead);
		} else if (!e) {
			errno = 0;
			if (libsmb.smbc_getFunctionUnlink(x)(x, url) < 0 && errno != ENOENT)
				e = errno ? errno : EIO;
		}
		url[len] = '\0';
		if (e) {
			if (lost(e))
				*dead = 1;
			rc = e;
		}
	}
	libsmb.smbc_getFunctionClosedir(x)(x, d);
	if (rc || keep_top)
		return rc;
	errno = 0;
	if (libsmb.smbc_getFunctionRmdir(x)(x, url) < 0 && errno != ENOENT) {
		rc = errno ? errno : EIO;
		if (lost(rc))
			*dead = 1;
	}
	return rc;
}

static int do_deltree(struct backend_ctx *c, const struct op *op, uint64_t *bytes)
{
	struct smb_client *sc = SC(c);
	(void)bytes;
	const char *path = prog_path(c->prog, op->path1);
	int e = url_of(sc, sc->u1, (op->flags & OPF_SHARED1) != 0, path);
	if (e)
		return e;
	int dead = 0;
	/* the root of a tree stays, as with fileio */
	e = tree_remove(sc->x, sc->u1, strlen(sc->u1), strcmp(path, ".") == 0, &dead);
	if (dead)
		c->dead = 1;
	return e;
}

static int do_rmdir(struct backend_ctx *c, const struct op *op, uint64_t *bytes)
{
	struct smb_client *sc = SC(c);
	(void)bytes;
	int e = url_path1(sc, c, op);
	if (e)
		return e;
	errno = 0;
	return sc->rmdir(sc->x, sc->u1) < 0 ? fail(c) : 0;
}

static int do_mkdir(struct backend_ctx *c, const struct op *op, uint64_t *bytes)
{
	struct smb_client *sc = SC(c);
	struct stat st;
	(void)bytes;
	int e = url_path1(sc, c, op);
	if (e)
		return e;
	errno = 0;
	if (sc->mkdir(sc->x, sc->u1, 0777) == 0)
		return 0;
	if (errno != EEXIST)
		return fail(c);
	/* "already exists" is what was asked for only if it is a directory */
	errno = 0;
	if (sc->stat(sc->x, sc->u1, &st) < 0)
		return fail(c);
	return S_ISDIR(st.st_mode) ? 0 : ENOTDIR;
}

static int do_qpathinfo(struct backend_ctx *c, const struct op *op, uint64_t *bytes)
{
	struct smb_client *sc = SC(c);
	struct stat st;
	(void)bytes;
	int e = url_path1(sc, c, op);
	if (e)
		return e;
	errno = 0;
	return sc->stat(sc->x, sc->u1, &st) < 0 ? fail(c) : 0;
}

/* The path a handle was opened by, as a URL in u1. */
static int handle_url(struct backend_ctx *c, const struct smb_handle *h)
{
	struct smb_client *sc = SC(c);
	return url_of(sc, sc->u1, h->shared, prog_path(c->prog, h->path));
}

static int do_qfileinfo(struct backend_ctx *c, const struct op *op, uint64_t *bytes)
{
	struct smb_client *sc = SC(c);
	struct stat st;
	(void)bytes;
	struct smb_handle *h = handle_of(c, op);
	if (!h)
		return EBADF;
	errno = 0;
	if (h->f)
		return sc->fstat(sc->x, h->f, &st) < 0 ? fail(c) : 0;
	int e = handle_url(c, h);  /* a directory: by its path */
	if (e)
		return e;
	return sc->stat(sc->x, sc->u1, &st) < 0 ? fail(c) : 0;
}

static int do_qfsinfo(struct backend_ctx *c, const struct op *op, uint64_t *bytes)
{
	struct smb_client *sc = SC(c);
	struct statvfs sv;
	(void)op;
	(void)bytes;
	errno = 0;
	return sc->fstatvfs(sc->x, sc->treedir, &sv) < 0 ? fail(c) : 0;
}

/* Set the times of u1 to what st says they are: the metadata write of a
 * client's "set basic info", nothing visible changed. */
static int set_times(struct backend_ctx *c, const struct stat *st)
{
	struct smb_client *sc = SC(c);
	struct timeval tv[2] = {
		{ st->st_atim.tv_sec, st->st_atim.tv_nsec / 1000 },
		{ st->st_mtim.tv_sec, st->st_mtim.tv_nsec / 1000 },
	};
	errno = 0;
	return sc->utimes(sc->x, sc->u1, tv) < 0 ? fail(c) : 0;
}

static int do_sfileinfo(struct backend_ctx *c, const struct op *op, uint64_t *bytes)
{
	struct smb_client *sc = SC(c);
	struct stat st;
	int e;
	(void)bytes;
	errno = 0;
	if (op->flags & OPF_BYPATH) {
		e = url_path1(sc, c, op);
		if (e)
			return e;
		if (sc->stat(sc->x, sc->u1, &st) < 0)
			return fail(c);
		return set_times(c, &st);
	}
	struct smb_handle *h = handle_of(c, op);
	if (!h)
		return EBADF;
	e = handle_url(c, h);
	if (e)
		return e;
	/* libsmbclient sets times by path only */
	if (h->f ? sc->fstat(sc->x, h->f, &st) < 0 : sc->stat(sc->x, sc->u1, &st) < 0)
		return fail(c);
	return set_times(c, &st);
}

/* FIND_FIRST, as fileio.c: a plain name is a lookup; a pattern lists the
 * directory and succeeds if at most maxcnt names counted match. */
static int do_find_first(struct backend_ctx *c, const struct op *op, uint64_t *bytes)
{
	struct smb_client *sc = SC(c);
	struct stat st;
	(void)bytes;
	const char *path = prog_path(c->prog, op->path1);
	int shared = (op->flags & OPF_SHARED1) != 0;
	int e;
	if (!(op->flags & OPF_WILDCARD)) {
		e = url_of(sc, sc->u1, shared, path);
		if (e)
			return e;
		errno = 0;
		return sc->stat(sc->x, sc->u1, &st) < 0 ? fail(c) : 0;
	}
	const char *slash = strrchr(path, '/');
	const char *pat = slash ? slash + 1 : path;
	size_t len = shared ? sc->root_len : sc->tree_len;
	memcpy(sc->u1, shared ? sc->root : sc->tree, len + 1);
	if (slash) {
		size_t dl = (size_t)(slash - path);
		if (dl + 1 >= sizeof(sc->u2))
			return ENAMETOOLONG;
		memcpy(sc->u2, path, dl);
		sc->u2[dl] = '\0';
		sc->u1[len++] = '/';
		sc->u1[len] = '\0';
		e = url_append(sc->u1, &len, sc->u2);
		if (e)
			return e;
	}
	errno = 0;
	SMBCFILE *d = sc->opendir(sc->x, sc->u1);
	if (!d)
		return fail(c);
	uint32_t matches = 0, maxcnt = op->arg ? op->arg : UINT32_MAX;
	struct smbc_dirent *de;
	while (matches < maxcnt && (de = sc->readdir(sc->x, d)))
		if (fnmatch(pat, de->name, FNM_CASEFOLD) == 0)
			matches++;
	sc->closedir(sc->x, d);
	return matches ? 0 : ENOENT;
}

static int do_writex(struct backend_ctx *c, const struct op *op, uint64_t *bytes)
{
	struct smb_handle *h = handle_of(c, op);
	if (!h || !h->f)
		return EBADF;
	int e = write_at(c, h->f, op->off, op->len);
	if (e)
		return e;
	if (op->ret != op->len)
		return BE_ESHORT;
	*bytes = op->len;
	return 0;
}

static int do_readx(struct backend_ctx *c, const struct op *op, uint64_t *bytes)
{
	struct smb_client *sc = SC(c);
	struct smb_handle *h = handle_of(c, op);
	if (!h || !h->f)
		return EBADF;
	errno = 0;
	if (sc->lseek(sc->x, h->f, (off_t)op->off, SEEK_SET) < 0)
		return fail(c);
	ssize_t n = sc->read(sc->x, h->f, c->iobuf, op->len);
	if (n < 0)
		return fail(c);
	if (op->flags & OPF_ANYSIZE) {
		*bytes = (uint64_t)n;
		return 0;
	}
	if ((uint64_t)n != op->ret)
		return BE_ESHORT;  /* as fileio.c */
	*bytes = (uint64_t)n;
	return 0;
}

/* ---- the client ---- */

/* mkdir url; one that is there already will do. */
static int mkdir_there(struct smb_client *sc, const char *url)
{
	errno = 0;
	if (sc->mkdir(sc->x, url, 0777) < 0 && errno != EEXIST)
		return errno ? errno : EIO;
	return 0;
}

static int smb_client_open(struct backend_ctx *c)
{
	struct smb_target *t = c->opts->target;
	struct smb_client *sc = calloc(1, sizeof(*sc));
	if (!sc)
		return ENOMEM;
	c->priv = sc;
	sc->h = calloc(c->nhandles ? c->nhandles : 1, sizeof(*sc->h));
	if (!sc->h)
		return ENOMEM;
	sc->x = new_context(t);
	if (!sc->x)
		return errno ? errno : EIO;
	sc->open = libsmb.smbc_getFunctionOpen(sc->x);
	sc->read = libsmb.smbc_getFunctionRead(sc->x);
	sc->write = libsmb.smbc_getFunctionWrite(sc->x);
	sc->lseek = libsmb.smbc_getFunctionLseek(sc->x);
	sc->close = libsmb.smbc_getFunctionClose(sc->x);
	sc->stat = libsmb.smbc_getFunctionStat(sc->x);
	sc->fstat = libsmb.smbc_getFunctionFstat(sc->x);
	sc->fstatvfs = libsmb.smbc_getFunctionFstatVFS(sc->x);
	sc->ftruncate = libsmb.smbc_getFunctionFtruncate(sc->x);
	sc->utimes = libsmb.smbc_getFunctionUtimes(sc->x);
	sc->opendir = libsmb.smbc_getFunctionOpendir(sc->x);
	sc->readdir = libsmb.smbc_getFunctionReaddir(sc->x);
	sc->closedir = libsmb.smbc_getFunctionClosedir(sc->x);
	sc->rename = libsmb.smbc_getFunctionRename(sc->x);
	sc->unlink = libsmb.smbc_getFunctionUnlink(sc->x);
	sc->mkdir = libsmb.smbc_getFunctionMkdir(sc->x);
	sc->rmdir = libsmb.smbc_getFunctionRmdir(sc->x);

	sc->root_len = strlen(t->root_url);
	memcpy(sc->root, t->root_url, sc->root_len + 1);
	int n = snprintf(sc->tree, sizeof(sc->tree), "%s/clients", t->root_url);
	if (n < 0 || (size_t)n >= sizeof(sc->tree) - 32)
		return ENAMETOOLONG;
	int e = mkdir_there(sc, sc->tree);
	if (e)
		return e;
	sc->tree_len = (size_t)n + (size_t)snprintf(sc->tree + n, 32, "/client%u", c->id);
	e = mkdir_there(sc, sc->tree);
	if (e)
		return e;
	errno = 0;
	sc->treedir = sc->opendir(sc->x, sc->tree);
	if (!sc->treedir)
		return errno ? errno : EIO;
	return 0;
}

/* A client whose connection is lost or whose server stalled sends
 * nothing more: each CLOSE would wait out the timeout again, and the
 * client would outlive the run.  Its context is left as it is, for the
 * process's exit, on this list (so it stays reachable, not leaked). */
static struct smb_client *left_behind;

static void smb_close_all(struct backend_ctx *c)
{
	struct smb_client *sc = SC(c);
	if (!sc || !sc->h)
		return;
	for (uint32_t i = 0; i < c->nhandles; i++) {
		if (sc->h[i].open && c->dead) {
			sc->h[i].f = NULL;
			sc->h[i].open = 0;
		} else if (sc->h[i].open) {
			unbind(sc, &sc->h[i]);
		}
	}
}

static void smb_client_close(struct backend_ctx *c)
{
	struct smb_client *sc = SC(c);
	if (!sc)
		return;
	c->priv = NULL;
	if (c->dead) {
		sc->next = left_behind;
		left_behind = sc;
		return;
	}
	if (sc->x) {
		if (sc->treedir)
			sc->closedir(sc->x, sc->treedir);
		libsmb.smbc_free_context(sc->x, 1);
	}
	free(sc->h);
	free(sc);
}

/* ---- the parent: the target, checked once; the cleanup ---- */

/* Copy s[0..n) into dst (cap bytes).  Returns 0, or -1 if it does not fit. */
static int copy_part(char *dst, size_t cap, const char *s, size_t n)
{
	if (n >= cap)
		return -1;
	memcpy(dst, s, n);
	dst[n] = '\0';
	return 0;
}

/* //SERVER[:PORT]/SHARE (or with backslashes).  Returns 0, or -1 after
 * the line saying what is wrong. */
static int parse_share(struct smb_target *t, const char *s, const char *cmd)
{
	const char *p = s;
	if (!((p[0] == '/' || p[0] == '\\') && (p[1] == '/' || p[1] == '\\')))
		goto bad;
	p += 2;
	size_t n = strcspn(p, "/\\");
	const char *colon = memchr(p, ':', n);
	size_t sn = colon ? (size_t)(colon - p) : n;
	if (!sn || copy_part(t->server, sizeof(t->server), p, sn) < 0 ||
	    strpbrk(t->server, "@;"))
		goto bad;
	if (colon) {
		uint64_t port;
		char num[8];
		if (copy_part(num, sizeof(num), colon + 1, n - sn - 1) < 0 ||
		    cli_parse_uint(num, 1, 65535, &port) < 0) {
			fprintf(stderr, "%s: --smb-share '%s': bad port (1 to 65535)\n", cmd, s);
			return -1;
		}
		t->port = (unsigned)port;
	}
	p += n;
	if (!*p)
		goto bad;
	p++;
	n = strcspn(p, "/\\");
	if (!n || copy_part(t->share, sizeof(t->share), p, n) < 0)
		goto bad;
	p += n;
	while (*p == '/' || *p == '\\')
		p++;
	if (*p) {
		fprintf(stderr, "%s: --smb-share '%s': a share, not a path in it (give that "
			"as -D)\n", cmd, s);
		return -1;
	}
	return 0;
bad:
	fprintf(stderr, "%s: --smb-share '%s': not //SERVER[:PORT]/SHARE\n", cmd, s);
	return -1;
}

/* [DOMAIN/]USER[%PASSWORD] (or DOMAIN\USER); without '%', the password
 * of $PASSWD, as smbclient. */
static int parse_user(struct smb_target *t, const char *s, const char *what, const char *cmd)
{
	const char *pct = strchr(s, '%');
	size_t n = pct ? (size_t)(pct - s) : strlen(s);
	const char *sep = NULL;
	for (size_t i = 0; i < n; i++)
		if (s[i] == '/' || s[i] == '\\')
			sep = s + i;
	const char *u = sep ? sep + 1 : s;
	size_t un = n - (size_t)(u - s);
	const char *pw = pct ? pct + 1 : getenv("PASSWD");
	if ((sep && copy_part(t->domain, sizeof(t->domain), s, (size_t)(sep - s)) < 0) ||
	    copy_part(t->user, sizeof(t->user), u, un) < 0 ||
	    (pw && copy_part(t->password, sizeof(t->password), pw, strlen(pw)) < 0)) {
		fprintf(stderr, "%s: %s: too long\n", cmd, what);
		return -1;
	}
	if (!un) {
		fprintf(stderr, "%s: %s: no user name ([DOMAIN/]USER%%PASSWORD)\n", cmd, what);
		return -1;
	}
	return 0;
}

/* smbclient -A's file: "username = U", "password = P", "domain = D",
 * one a line; blank lines and '#' comments.  Never echoes a value. */
static int read_user_file(struct smb_target *t, const char *file, const char *cmd)
{
	FILE *f = fopen(file, "re");
	if (!f) {
		fprintf(stderr, "%s: --smb-user-file %s: %s\n", cmd, file, strerror(errno));
		return -1;
	}
	char line[1024];
	unsigned lineno = 0;
	int rc = 0;
	while (!rc && fgets(line, sizeof(line), f)) {
		lineno++;
		char *p = line, *end = line + strlen(line);
		while (end > p && isspace((unsigned char)end[-1]))
			*--end = '\0';
		while (isspace((unsigned char)*p))
			p++;
		if (!*p || *p == '#')
			continue;
		char *eq = strchr(p, '=');
		char *k = p, *ke = eq ? eq : p;
		while (ke > k && isspace((unsigned char)ke[-1]))
			ke--;
		char *v = eq ? eq + 1 : NULL;
		while (v && isspace((unsigned char)*v))
			v++;
		size_t kn = (size_t)(ke - k);
		char *dst = NULL;
		size_t cap = 0;
		if (v && kn == 8 && !strncmp(k, "username", 8))
			dst = t->user, cap = sizeof(t->user);
		else if (v && kn == 8 && !strncmp(k, "password", 8))
			dst = t->password, cap = sizeof(t->password);
		else if (v && kn == 6 && !strncmp(k, "domain", 6))
			dst = t->domain, cap = sizeof(t->domain);
		if (!dst) {
			fprintf(stderr, "%s: --smb-user-file %s:%u: not username=, password= "
				"or domain=\n", cmd, file, lineno);
			rc = -1;
		} else if (copy_part(dst, cap, v, strlen(v)) < 0) {
			fprintf(stderr, "%s: --smb-user-file %s:%u: value too long\n", cmd, file,
				lineno);
			rc = -1;
		}
	}
	if (!rc && ferror(f)) {
		fprintf(stderr, "%s: --smb-user-file %s: %s\n", cmd, file, strerror(errno));
		rc = -1;
	}
	fclose(f);
	/* "username = USER%PASSWORD", as on the command line: the password is
	 * never part of the user name kbench shows */
	char *pct = strchr(t->user, '%');
	if (pct) {
		if (!t->password[0])
			copy_part(t->password, sizeof(t->password), pct + 1, strlen(pct + 1));
		memset(pct, 0, strlen(pct));
	}
	if (!rc && !t->user[0]) {
		fprintf(stderr, "%s: --smb-user-file %s: no username= line\n", cmd, file);
		rc = -1;
	}
	return rc;
}

/* -D as a path inside the share: components joined by '/', no "..". */
static int parse_dir(struct smb_target *t, const char *d, const char *cmd)
{
	size_t n = 0;
	for (const char *p = d; *p;) {
		while (*p == '/' || *p == '\\')
			p++;
		size_t len = strcspn(p, "/\\");
		if (!len)
			break;
		if (len == 2 && p[0] == '.' && p[1] == '.') {
			fprintf(stderr, "%s: -D '%s': '..' climbs out of the share\n", cmd, d);
			return -1;
		}
		if (!(len == 1 && p[0] == '.')) {
			if (n + len + 2 > sizeof(t->dir)) {
				fprintf(stderr, "%s: -D '%s': too long\n", cmd, d);
				return -1;
			}
			if (n)
				t->dir[n++] = '/';
			memcpy(t->dir + n, p, len);
			n += len;
			t->dir[n] = '\0';
		}
		p += len;
	}
	return 0;
}

static void set_root_url(struct smb_target *t)
{
	size_t n = (size_t)snprintf(t->root_url, sizeof(t->root_url), "smb://%s/", t->server);
	url_append(t->root_url, &n, t->share);
	if (t->dir[0]) {
		t->root_url[n++] = '/';
		t->root_url[n] = '\0';
		url_append(t->root_url, &n, t->dir);
	}
	char port[16] = "";
	if (t->port)
		snprintf(port, sizeof(port), ":%u", t->port);
	snprintf(t->shown, sizeof(t->shown), "//%s%s/%s%s%s", t->server, port, t->share,
		 t->dir[0] ? "/" : "", t->dir);
}

/* One line for a failure to reach the share as the login given. */
static void say_unreached(const struct smb_target *t, int e, const char *cmd)
{
	char port[16] = "";
	if (t->port)
		snprintf(port, sizeof(port), ":%u", t->port);
	const char *why;
	switch (e) {
	case EACCES: case EPERM:
		why = "login refused or access denied";
		break;
	case ENOENT: case ENODEV: case ENXIO:
		why = "no such share";
		break;
	case ECONNREFUSED: case ETIMEDOUT: case EHOSTUNREACH: case ENETUNREACH:
		why = "server unreachable";
		break;
	default:
		why = "cannot reach the share";
	}
	fprintf(stderr, "%s: -B smb: //%s%s/%s as %s%s%s: %s (%s)\n", cmd, t->server, port,
		t->share, t->domain[0] ? t->domain : "", t->domain[0] ? "/" : "",
		t->user[0] ? t->user : "(anonymous)", why, strerror(e));
}

static void wipe(struct smb_target *t)
{
	explicit_bzero(t->password, sizeof(t->password));
	for (size_t i = 0; i < t->nnoted; i++)
		free(t->noted[i]);
	free(t->noted);
	trees_free(&t->trees);
	free(t);
}

/* -D: the names in DIR before the run, so that cleanup can name what
 * appeared there.  Returns 0, or an errno. */
static int note_dir(SMBCCTX *x, struct smb_target *t)
{
	errno = 0;
	SMBCFILE *d = libsmb.smbc_getFunctionOpendir(x)(x, t->root_url);
	if (!d)
		return errno ? errno : EIO;
	struct smbc_dirent *de;
	size_t cap = 0;
	int e = 0;
	while (!e && (de = libsmb.smbc_getFunctionReaddir(x)(x, d))) {
		if (!strcmp(de->name, ".") || !strcmp(de->name, ".."))
			continue;
		if (t->nnoted == cap) {
			size_t ncap = cap ? 2 * cap : 16;
			char **v = realloc(t->noted, ncap * sizeof(*v));
			if (!v) {
				e = ENOMEM;
				break;
			}
			t->noted = v;
			cap = ncap;
		}
		if (!(t->noted[t->nnoted] = strdup(de->name)))
			e = ENOMEM;
		else
			t->nnoted++;
	}
	libsmb.smbc_getFunctionClosedir(x)(x, d);
	return e;
}

/* After the run with -D: name what is in DIR now and was not before (the
 * loadfile's shared paths, or another writer): it stays. */
static void say_new_names(SMBCCTX *x, const struct smb_target *t, const char *cmd)
{
	errno = 0;
	SMBCFILE *d = libsmb.smbc_getFunctionOpendir(x)(x, t->root_url);
	if (!d)
		return;
	struct smbc_dirent *de;
	while ((de = libsmb.smbc_getFunctionReaddir(x)(x, d))) {
		if (!strcmp(de->name, ".") || !strcmp(de->name, ".."))
			continue;
		size_t i;
		for (i = 0; i < t->nnoted; i++)
			if (!strcmp(t->noted[i], de->name))
				break;
		if (i == t->nnoted)
			fprintf(stderr, "%s: -B smb: %s/%s was not there before the run and stays "
				"(shared paths are not cleaned up over SMB)\n", cmd, t->shown, de->name);
	}
	libsmb.smbc_getFunctionClosedir(x)(x, d);
}

/* FILE_ATTRIBUTE_DIRECTORY (MS-FSCC) */
#define SMB_ATTR_DIRECTORY 0x10

static int ts_before(const struct timespec *a, const struct timespec *b)
{
	return a->tv_sec < b->tv_sec || (a->tv_sec == b->tv_sec && a->tv_nsec < b->tv_nsec);
}

/* The creation time the server gives name in the directory at url (its
 * listing, no link of name followed), into *ts.  Returns 0 or an errno. */
static int btime_of(SMBCCTX *x, const char *url, const char *name, struct timespec *ts)
{
	errno = 0;
	SMBCFILE *d = libsmb.smbc_getFunctionOpendir(x)(x, url);
	if (!d)
		return errno ? errno : EIO;
	const struct libsmb_file_info *fi;
	int e = ENOENT;
	while (e && (fi = libsmb.smbc_getFunctionReaddirPlus(x)(x, d)))
		if (fi->name && !strcmp(fi->name, name)) {
			*ts = fi->btime_ts;
			e = 0;
		}
	libsmb.smbc_getFunctionClosedir(x)(x, d);
	return e;
}

/* Note when the run began on the server's clock: the creation time of the
 * first directory it made (DIR, DIR/clients or a client's tree). */
static void note_since(SMBCCTX *x, struct smb_target *t)
{
	char url[URL_MAX];
	const char *name = NULL;
	char tree[20];
	if (t->made_dir) {
		size_t n = (size_t)snprintf(url, sizeof(url), "smb://%s/", t->server);
		url_append(url, &n, t->share);
		const char *slash = strrchr(t->dir, '/');
		if (slash) {
			url[n++] = '/';
			url[n] = '\0';
			url_append(url, &n, t->dir);
			url[n - strlen(slash)] = '\0';
		}
		name = slash ? slash + 1 : t->dir;
	} else if (t->trees.made_clients) {
		snprintf(url, sizeof(url), "%s", t->root_url);
		name = "clients";
	} else {
		for (unsigned k = 0; k < t->trees.n && !name; k++)
			if (!t->trees.kept[k]) {
				trees_client_name(tree, k);
				name = tree;
			}
		size_t n = strlen(t->root_url);
		memcpy(url, t->root_url, n);
		if (n + 9 > sizeof(url))
			name = NULL;
		else
			memcpy(url + n, "/clients", 9);
	}
	if (name && btime_of(x, url, name, &t->since) != 0)
		memset(&t->since, 0, sizeof(t->since));
}

/* The client trees as trees.c sees them, over the protocol.  smbd
 * resolves symbolic links inside the share itself: kind() sees a link to
 * a directory as that directory, and only the rule (a tree that holds
 * anything is refused) protects what a link leads to. */
struct smb_tree_fs {
	SMBCCTX *x;
	const struct smb_target *t;
	char url[URL_MAX];
};

static const char *tree_url(struct smb_tree_fs *f, const char *rel)
{
	size_t n = (size_t)snprintf(f->url, sizeof(f->url), "%s/", f->t->root_url);
	if (n >= sizeof(f->url) || url_append(f->url, &n, rel))
		f->url[0] = '\0';  /* too long: every call then fails */
	return f->url;
}

static int tfs_mkdir(void *arg, const char *rel)
{
	struct smb_tree_fs *f = arg;
	errno = 0;
	if (libsmb.smbc_getFunctionMkdir(f->x)(f->x, tree_url(f, rel), 0777) == 0)
		return 0;
	return errno ? errno : EIO;
}

static int tfs_kind(void *arg, const char *rel)
{
	struct smb_tree_fs *f = arg;
	struct stat st;
	errno = 0;
	if (libsmb.smbc_getFunctionStat(f->x)(f->x, tree_url(f, rel), &st) < 0)
		return errno == ENOENT ? TREE_MISSING : -(errno ? errno : EIO);
	return S_ISDIR(st.st_mode) ? TREE_DIR : TREE_OTHER;
}

static int tfs_empty(void *arg, const char *rel)
{
	struct smb_tree_fs *f = arg;
	errno = 0;
	SMBCFILE *d = libsmb.smbc_getFunctionOpendir(f->x)(f->x, tree_url(f, rel));
	if (!d)
		return -(errno ? errno : EIO);
	struct smbc_dirent *de;
	int empty = 1;
	while (empty && (de = libsmb.smbc_getFunctionReaddir(f->x)(f->x, d)))
		if (strcmp(de->name, ".") && strcmp(de->name, ".."))
			empty = 0;
	libsmb.smbc_getFunctionClosedir(f->x)(f->x, d);
	return empty;
}

static int tfs_rmdir(void *arg, const char *rel)
{
	struct smb_tree_fs *f = arg;
	errno = 0;
	if (libsmb.smbc_getFunctionRmdir(f->x)(f->x, tree_url(f, rel)) == 0)
		return 0;
	return errno ? errno : EIO;
}

static int claim_trees(SMBCCTX *x, struct smb_target *t, unsigned nclients, const char *cmd)
{
	struct smb_tree_fs *f = malloc(sizeof(*f));
	if (!f) {
		fprintf(stderr, "%s: out of memory\n", cmd);
		return KB_EXIT_USAGE;
	}
	f->x = x;
	f->t = t;
	struct tree_fs fs = { f, tfs_mkdir, tfs_kind, tfs_empty, tfs_rmdir };
	int status = trees_claim(&fs, nclients, t->shown, cmd, &t->trees);
	free(f);
	return status;
}

static int smb_prepare(struct backend_opts *o, unsigned nclients, const char *cmd)
{
	if (!o->smb_share) {
		fprintf(stderr, "%s: -B smb needs --smb-share //SERVER/SHARE\n", cmd);
		return KB_EXIT_USAGE;
	}
	if (o->smb_user && o->smb_user_file) {
		fprintf(stderr, "%s: --smb-user and --smb-user-file: give one\n", cmd);
		return KB_EXIT_USAGE;
	}
	const char *no = o->sync_open ? "-s (write-through opens)" :
			 o->sync_dirs ? "-S (fsync of directories)" :
			 o->fsync_write ? "-F (fsync after WriteX)" :
			 o->xattr ? "-x (DOS attributes in xattrs)" : NULL;
	if (no) {
		fprintf(stderr, "%s: -B smb cannot do %s: libsmbclient has no call for it\n", cmd, no);
		return KB_EXIT_USAGE;
	}
	struct smb_target *t = calloc(1, sizeof(*t));
	if (!t) {
		fprintf(stderr, "%s: out of memory\n", cmd);
		return KB_EXIT_USAGE;
	}
	int bad = parse_share(t, o->smb_share, cmd) < 0;
	if (!bad && o->smb_user)
		bad = parse_user(t, o->smb_user, "--smb-user", cmd) < 0;
	else if (!bad && o->smb_user_file)
		bad = read_user_file(t, o->smb_user_file, cmd) < 0;
	else if (!bad && getenv("USER"))
		bad = parse_user(t, getenv("USER"), "$USER", cmd) < 0;
	if (!bad && o->directory)
		bad = parse_dir(t, o->directory, cmd) < 0;
	if (bad) {
		wipe(t);
		return KB_EXIT_USAGE;
	}
	if (!o->directory) {
		snprintf(t->dir, sizeof(t->dir), "kbench-%ld", (long)getpid());
		t->made_dir = 1;
	}
	/* the options are good: now the library, before anything is sent */
	if (libsmb_load(cmd) < 0) {
		wipe(t);
		return KB_EXIT_USAGE;
	}

	SMBCCTX *x = new_context(t);
	if (!x) {
		fprintf(stderr, "%s: -B smb: cannot set up libsmbclient: %s\n", cmd, strerror(errno));
		wipe(t);
		return KB_EXIT_USAGE;
	}
	/* the share's root: the connection, the login and the share */
	struct stat st;
	char url[URL_MAX];
	size_t n = (size_t)snprintf(url, sizeof(url), "smb://%s/", t->server);
	url_append(url, &n, t->share);
	int status = KB_EXIT_OK;
	errno = 0;
	if (libsmb.smbc_getFunctionStat(x)(x, url, &st) < 0) {
		say_unreached(t, errno ? errno : EIO, cmd);
		status = KB_EXIT_USAGE;
	}
	set_root_url(t);
	if (!status && t->made_dir) {
		errno = 0;
		if (libsmb.smbc_getFunctionMkdir(x)(x, t->root_url, 0777) < 0) {
			fprintf(stderr, "%s: -B smb: cannot make %s: %s\n", cmd, t->shown,
				strerror(errno ? errno : EIO));
			status = KB_EXIT_USAGE;
		}
	} else if (!status) {
		errno = 0;
		if (libsmb.smbc_getFunctionStat(x)(x, t->root_url, &st) < 0 || !S_ISDIR(st.st_mode)) {
			fprintf(stderr, "%s: -D %s: %s\n", cmd, t->shown,
				errno ? strerror(errno) : "not a directory");
			status = KB_EXIT_USAGE;
		} else {
			int e = note_dir(x, t);
			if (e) {
				fprintf(stderr, "%s: -D %s: cannot list it: %s\n", cmd, t->shown,
					strerror(e));
				status = KB_EXIT_USAGE;
			}
		}
	}
	if (!status)
		status = claim_trees(x, t, nclients, cmd);
	if (!status)
		note_since(x, t);
	/* the clients make their own connections: none is inherited */
	libsmb.smbc_free_context(x, 1);
	if (status) {
		wipe(t);
		return status;
	}
	o->target = t;
	return KB_EXIT_OK;
}

/* The cleanup's removal: as tree_remove(), but an entry the server says
 * was created before the run began (t->since) is neither entered nor
 * removed, and is named in one line: smbd resolves symbolic links itself,
 * so a directory of a client tree swapped for a link to what was there
 * looks like the tree's own.  Returns 0 or the first errno (EEXIST for
 * what was left so). */
static int tree_sweep(SMBCCTX *x, const struct smb_target *t, char *url, size_t len,
		      int keep_top, int *dead, const char *cmd)
{
	errno = 0;
	SMBCFILE *d = libsmb.smbc_getFunctionOpendir(x)(x, url);
	if (!d) {
		int e = errno ? errno : EIO;
		if (e == ENOENT)
			return 0;
		if (lost(e))
			*dead = 1;
		return e;
	}
	int rc = 0, e;
	const struct libsmb_file_info *fi;
	while ((fi = libsmb.smbc_getFunctionReaddirPlus(x)(x, d)) && !*dead) {
		if (!fi->name || !strcmp(fi->name, ".") || !strcmp(fi->name, ".."))
			continue;
		size_t n = len;
		url[n++] = '/';
		url[n] = '\0';
		e = url_append(url, &n, fi->name);
		if (!e && t->since.tv_sec && ts_before(&fi->btime_ts, &t->since)) {
			fprintf(stderr, "%s: -B smb: %s%s was made before the run began (a symbolic "
				"link on the server may lead there): left as it is\n", cmd, t->shown,
				url + strlen(t->root_url));
			e = EEXIST;
		} else if (!e && (fi->attrs & SMB_ATTR_DIRECTORY)) {
			e = tree_sweep(x, t, url, n, 0, dead, cmd);
		} else if (!e) {
			errno = 0;
			if (libsmb.smbc_getFunctionUnlink(x)(x, url) < 0 && errno != ENOENT)
				e = errno ? errno : EIO;
		}
		url[len] = '\0';
		if (e && lost(e))
			*dead = 1;
		if (e && !rc)
			rc = e;
	}
	libsmb.smbc_getFunctionClosedir(x)(x, d);
	if (rc || keep_top)
		return rc;
	errno = 0;
	if (libsmb.smbc_getFunctionRmdir(x)(x, url) < 0 && errno != ENOENT) {
		rc = errno ? errno : EIO;
		if (lost(rc))
			*dead = 1;
	}
	return rc;
}

static int smb_cleanup(struct backend_opts *o, unsigned nclients, const char *cmd)
{
	(void)nclients;  /* the trees prepare() claimed */
	struct smb_target *t = o->target;
	SMBCCTX *x = new_context(t);
	if (!x) {
		fprintf(stderr, "%s: -B smb: cannot clean up %s: %s\n", cmd, t->shown, strerror(errno));
		return -1;
	}
	static char url[URL_MAX];
	int dead = 0, e = 0;
	if (t->made_dir) {
		snprintf(url, sizeof(url), "%s", t->root_url);
		e = tree_sweep(x, t, url, strlen(url), 0, &dead, cmd);
	} else {
		/* only the clients' trees (the contents of one that was there,
		 * empty), and clients/ if the run made it */
		for (unsigned k = 0; k < t->trees.n && !dead; k++) {
			int n = snprintf(url, sizeof(url), "%s/clients/client%u", t->root_url, k);
			int r = tree_sweep(x, t, url, (size_t)n, t->trees.kept[k], &dead, cmd);
			e = e ? e : r;
		}
		if (!e && t->trees.made_clients &&
		    (size_t)snprintf(url, sizeof(url), "%s/clients", t->root_url) < sizeof(url)) {
			errno = 0;
			if (libsmb.smbc_getFunctionRmdir(x)(x, url) < 0 && errno != ENOENT)
				e = errno ? errno : EIO;
		}
		if (!e && !dead)
			say_new_names(x, t, cmd);
	}
	libsmb.smbc_free_context(x, 1);
	if (e) {
		fprintf(stderr, "%s: -B smb: could not remove everything the run made in %s: %s\n",
			cmd, t->shown, strerror(e));
		return -1;
	}
	return 0;
}

static void smb_release(struct backend_opts *o)
{
	if (o->target)
		wipe(o->target);
	o->target = NULL;
}

/* client_open, with the sockets it opened watched for the run's end */
static int smb_client_open_watched(struct backend_ctx *c)
{
	struct sw_snap before;
	int e = sw_snapshot(&before);
	if (e)
		return e;
	int rc = smb_client_open(c);
	e = sw_watch_new(&before, c, c->end_ns, SMB_GRACE_NS);
	return rc ? rc : e;
}

/* client_close, the watch of its sockets ended first; a client whose
 * connection was shut down sends nothing more */
static void smb_client_close_watched(struct backend_ctx *c)
{
	sw_forget(c);
	if (sw_fired())
		c->dead = 1;
	smb_client_close(c);
}

static const char *smb_describe(const struct backend_opts *o)
{
	const struct smb_target *t = o->target;
	return t ? t->shown : o->smb_share;
}

const struct backend smb_backend = {
	.name = "smb",
	.help = "SMB2/3 through libsmbclient (--smb-share //SERVER/SHARE)",
	.prepare = smb_prepare,
	.client_open = smb_client_open_watched,
	.close_all = smb_close_all,
	.client_close = smb_client_close_watched,
	.cleanup = smb_cleanup,
	.release = smb_release,
	.describe = smb_describe,
	.op = {
		[OP_NTCREATEX] = do_ntcreatex,
		[OP_CLOSE] = do_close,
		[OP_RENAME] = do_rename,
		[OP_UNLINK] = do_unlink,
		[OP_DELTREE] = do_deltree,
		[OP_RMDIR] = do_rmdir,
		[OP_MKDIR] = do_mkdir,
		[OP_QPATHINFO] = do_qpathinfo,
		[OP_QFILEINFO] = do_qfileinfo,
		[OP_QFSINFO] = do_qfsinfo,
		[OP_SFILEINFO] = do_sfileinfo,
		[OP_FIND_FIRST] = do_find_first,
		[OP_WRITEX] = do_writex,
		[OP_READX] = do_readx,
		/* LockX, UnlockX: libsmbclient has no byte-range locks; Flush:
		 * no fsync (SMB2 FLUSH).  Counted as unsupported. */
	},
};

#endif /* HAVE_LIBSMBCLIENT */
