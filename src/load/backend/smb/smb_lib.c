/* kbench - -B smb: the bottom layer the other SMB files share:
 * libsmbclient's table and its loader, URLs, contexts and errors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Nothing here calls into the backend's other files (smb.c, smb_ops.c,
 * smb_share.c, smb_clean.c); they all call into this one.
 */
#include "config.h"

#ifdef HAVE_LIBSMBCLIENT

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <libsmbclient.h>
#include "load/backend/smb/smb_int.h"
#include "load/backend/sockwatch.h"
#include "sys/dynlib.h"

struct libsmb_fns libsmb;

/* dlopen the library and fill libsmb, once (sys/dynlib.h) */
DYNLIB_LOADER(libsmb_load, libsmb, LIBSMB_FUNCTIONS, SMBCLIENT_SONAME, "-B smb")

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

#endif /* HAVE_LIBSMBCLIENT */
