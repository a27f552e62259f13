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
 * none for byte-range locks, so Flush, LockX and UnlockX are refused
 * (backend_refuse): the client loop counts them as unsupported
 * (BE_EUNSUPPORTED) and does not carry them out.
 *
 * The backend is in four files along its seams (smb_int.h says which
 * holds what); this one has the library's table, URLs, contexts and
 * errors, and each client's connection.
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
#include "load/smb_int.h"
#include "load/sockwatch.h"
#include "sys/dynlib.h"

struct libsmb_fns libsmb;

/* dlopen libsmbclient and resolve the table, once.  Returns 0, or -1
 * after one line on stderr naming the library and dlerror(). */
int libsmb_load(const char *cmd)
{
#define LIBSMB_NAME(name) #name,
	static const char *const names[] = { LIBSMB_FUNCTIONS(LIBSMB_NAME) };
#undef LIBSMB_NAME
	static void *h;
	void *addr[sizeof(names) / sizeof(names[0])];
	size_t i = 0;
	int rc = dynlib_load(&h, SMBCLIENT_SONAME, names, addr, sizeof(addr) / sizeof(addr[0]),
			     cmd, "-B smb");
	if (rc)
		return rc < 0 ? -1 : 0;
#define LIBSMB_SET(name) libsmb.name = (__typeof__(libsmb.name))addr[i++];
	LIBSMB_FUNCTIONS(LIBSMB_SET)
#undef LIBSMB_SET
	return 0;
}

/* ---- URLs ---- */

/* Append s to buf (length *len, capacity URL_MAX) with the characters
 * libsmbclient's URL parser would take for syntax ('%', '?') escaped.
 * Returns 0, or ENAMETOOLONG. */
int smb_url_append(char *buf, size_t *len, const char *s)
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
int smb_url_of(struct smb_client *sc, char *buf, int shared, const char *path)
{
	size_t len = shared ? sc->root_len : sc->tree_len;
	memcpy(buf, shared ? sc->root : sc->tree, len + 1);
	if (!strcmp(path, "."))
		return 0;
	buf[len++] = '/';
	buf[len] = '\0';
	return smb_url_append(buf, &len, path);
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
SMBCCTX *smb_new_context(struct smb_target *t)
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
int smb_lost(int e)
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
int smb_fail(struct backend_ctx *c)
{
	if (sw_fired()) {
		c->dead = 1;  /* the run's end and its grace are past */
		return ETIMEDOUT;
	}
	int e = errno ? errno : EIO;
	if (smb_lost(e))
		c->dead = 1;
	return e;
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
	sc->x = smb_new_context(t);
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

void smb_close_all(struct backend_ctx *c)
{
	struct smb_client *sc = SC(c);
	if (!sc || !sc->h)
		return;
	for (uint32_t i = 0; i < c->nhandles; i++) {
		if (sc->h[i].open && c->dead) {
			sc->h[i].f = NULL;
			sc->h[i].open = 0;
		} else if (sc->h[i].open) {
			smb_unbind(sc, &sc->h[i]);
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

/* client_open, with the sockets it opened watched for the run's end */
int smb_client_open_watched(struct backend_ctx *c)
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
void smb_client_close_watched(struct backend_ctx *c)
{
	sw_forget(c);
	if (sw_fired())
		c->dead = 1;
	smb_client_close(c);
}

#endif /* HAVE_LIBSMBCLIENT */
