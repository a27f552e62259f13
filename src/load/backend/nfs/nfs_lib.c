/* kbench - -B nfs: the bottom layer the other NFS files share: libnfs's
 * table and its loader, contexts and the ones kept after a failed
 * transport, the errors, paths, and the handle lookup
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Nothing here calls into the backend's other files (nfs.c, nfs_ops.c,
 * nfs_lock.c, nfs_export.c); they all call into this one.
 */
#include "config.h"

#ifdef HAVE_LIBNFS

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "load/backend/nfs/nfs_int.h"
#include "sys/dynlib.h"

struct libnfs_fns libnfs;

/* dlopen the library and fill libnfs, once (sys/dynlib.h) */
DYNLIB_LOADER(libnfs_load, libnfs, LIBNFS_FUNCTIONS, LIBNFS_SONAME, "-B nfs")

/* Contexts whose connection failed, kept to the process's end.  libnfs's
 * synchronous calls that end with the transport ("nfs_service failed", a
 * timeout) leave their request queued, its callback data in the stack
 * frame of the call that has returned; nfs_destroy_context() would then
 * complete it there and corrupt whatever the stack holds now (seen as a
 * SIGSEGV in rpc_destroy_context after a server was killed mid-run).  Such
 * a context is not destroyed: the process ends soon after (a client, or
 * the parent after its cleanup), and the lists keep the memory reachable
 * until then (nfs.c keeps its clients' so on `abandoned`). */
static struct kept_context {
	struct nfs_context *nfs;
	struct kept_context *next;
} *kept;

/* 1 if nfs's last error is the transport's: a message that names no
 * NFS3ERR or MNT3ERR status from the server (libnfs keeps the last
 * message; none is set before a failure). */
int kbnfs_transport_failed(struct nfs_context *nfs)
{
	const char *msg = libnfs.nfs_get_error(nfs);
	return msg && *msg && !strstr(msg, "ERR");
}

/* nfs_destroy_context(nfs), or nfs kept on `kept` when its transport
 * failed (above). */
void kbnfs_drop_context(struct nfs_context *nfs)
{
	if (kbnfs_transport_failed(nfs)) {
		struct kept_context *k = malloc(sizeof(*k));
		if (k) {
			k->nfs = nfs;
			k->next = kept;
			kept = k;
		}
		return;  /* without memory for the node, the context is lost, not destroyed */
	}
	libnfs.nfs_destroy_context(nfs);
}

/* A new context for url, with kbench's timeouts; NULL after a line on
 * stderr.  *urlp receives the parsed URL (nfs_destroy_url it). */
struct nfs_context *kbnfs_open_context(const char *url, const char *cmd,
					    struct nfs_url **urlp)
{
	struct nfs_context *nfs = libnfs.nfs_init_context();
	if (!nfs) {
		fprintf(stderr, "%s: --nfs: cannot make an NFS context\n", cmd);
		return NULL;
	}
	struct nfs_url *u = libnfs.nfs_parse_url_dir(nfs, url);
	if (!u) {
		fprintf(stderr, "%s: --nfs '%s': %s\n", cmd, url, libnfs.nfs_get_error(nfs));
		libnfs.nfs_destroy_context(nfs);
		return NULL;
	}
	libnfs.nfs_set_timeout(nfs, NFS_TIMEOUT_MS);
	libnfs.nfs_set_autoreconnect(nfs, 0);
	libnfs.nfs_set_tcp_syncnt(nfs, NFS_SYN_COUNT);
	libnfs.nfs_set_dircache(nfs, 0);   /* every FIND_FIRST asks the server */
	*urlp = u;
	return nfs;
}

/* 1 if the connection is gone or timed out: the client cannot go on. */
int kbnfs_lost(int e, struct nfs_context *nfs)
{
	if (e == EINTR || e == ETIMEDOUT)
		return 1;  /* libnfs: "Command timed out" */
	const char *msg = libnfs.nfs_get_error(nfs);
	/* a status from the server names it (NFS3ERR_IO); the transport's
	 * failures ("nfs_service failed") do not */
	return e == EIO && (!msg || !strstr(msg, "ERR"));
}

/* A libnfs result r < 0 as kbench's error: a positive errno; a lost
 * connection sets c->dead and reads ENOTCONN, a timeout ETIMEDOUT. */
int kbnfs_fail(struct backend_ctx *c, int r)
{
	struct nfs_client *nc = c->priv;
	int e = r < 0 ? -r : EIO;
	if (kbnfs_lost(e, nc->nfs)) {
		c->dead = 1;
		return e == EINTR || e == ETIMEDOUT ? ETIMEDOUT : ENOTCONN;
	}
	return e;
}

/* base "/" rel into buf (PATH_MAX); "." is base itself, and "" (the
 * export's root) reads "/". */
int kbnfs_join(char *buf, const char *base, size_t blen, const char *rel)
{
	if (!strcmp(rel, ".")) {
		if (!blen)
			strcpy(buf, "/");
		else
			memcpy(buf, base, blen + 1);
		return 0;
	}
	size_t rl = strlen(rel);
	if (blen + 1 + rl + 1 > PATH_MAX)
		return ENAMETOOLONG;
	memcpy(buf, base, blen);
	buf[blen] = '/';
	memcpy(buf + blen + 1, rel, rl + 1);
	return 0;
}

int kbnfs_path_of(struct nfs_client *nc, char *buf, int shared, uint32_t off,
		   const struct backend_ctx *c)
{
	const char *rel = prog_path(c->prog, off);
	return shared ? kbnfs_join(buf, nc->root, nc->rootlen, rel) : kbnfs_join(buf, nc->tree, nc->treelen, rel);
}

struct nfs_handle *kbnfs_handle(struct backend_ctx *c, const struct op *op)
{
	struct nfs_client *nc = c->priv;
	if (op->handle >= c->nhandles || !nc->h[op->handle].open)
		return NULL;
	return &nc->h[op->handle];
}

#endif /* HAVE_LIBNFS */
