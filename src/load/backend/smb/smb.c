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
 * The backend is in five files along its seams (smb_int.h says which
 * holds what); this one has each client's connection and its end.
 *
 * libsmbclient addresses everything by URL, smb://SERVER/SHARE/PATH: each
 * client keeps its tree's URL and the run directory's as prefixes and
 * writes an op's path after one of them into a buffer of its own, so an
 * op builds no string on the heap (the library itself allocates per call).
 */
#include "config.h"
#include "load/backend/backend.h"
#include "load/backend/trees.h"
#include "load/backend/smb/smb_opts.h"
#include "cli.h"

#include <string.h>

const char *const smb_logins[] = { "--smb-user", "--smb-user-file", NULL };

void smb_options(void *mine, struct poptOption *rows)
{
	struct smb_opts *so = mine;
	const struct poptOption r[] = {
		{ "smb-share", 0, POPT_ARG_STRING, &so->share, 0,
		  "-B smb: the share, through libsmbclient", "//SERVER/SHARE" },
		{ "smb-user", 0, POPT_ARG_STRING, &so->user, 0,
		  "-B smb: who logs in", "[DOMAIN/]USER%PASSWORD" },
		{ "smb-user-file", 0, POPT_ARG_STRING, &so->user_file, 0,
		  "-B smb: who logs in, from a file as smbclient -A reads "
		  "(username=, password=, domain=)", "FILE" },
		POPT_TABLEEND
	};
	BACKEND_OPTS_COPY(rows, r);
}

#ifndef HAVE_LIBSMBCLIENT

const struct backend smb_backend = { SMB_BACKEND_ROW, .missing = "libsmbclient" };

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
#include "load/backend/smb/smb_int.h"
#include "load/backend/sockwatch.h"

/* ---- the client ---- */

/* mkdir url; one that is there already will do. */
static int mkdir_there(struct smb_client *sc, const char *url)
{
	errno = 0;
	if (sc->mkdir(sc->x, url, 0777) < 0 && errno != EEXIST)
		return errno ? errno : EIO;
	return 0;
}

static int smb_connect(struct backend_ctx *c)
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

void smb_unbind(struct smb_client *sc, struct smb_handle *h)
{
	if (h->f)
		sc->close(sc->x, h->f);
	h->f = NULL;
	h->open = 0;
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

static void smb_disconnect(struct backend_ctx *c)
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
int smb_client_open(struct backend_ctx *c)
{
	struct sw_snap before;
	int e = sw_snapshot(&before);
	if (e)
		return e;
	int rc = smb_connect(c);
	e = sw_watch_new(&before, c, c->end_ns, SMB_GRACE_NS);
	return rc ? rc : e;
}

/* client_close, the watch of its sockets ended first; a client whose
 * connection was shut down sends nothing more */
void smb_client_close(struct backend_ctx *c)
{
	sw_forget(c);
	if (sw_fired())
		c->dead = 1;
	smb_disconnect(c);
}

#endif /* HAVE_LIBSMBCLIENT */
