/* kbench - the NFS backend: the NetBench ops over NFS through libnfs
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * kbench load -B nfs --nfs nfs://SERVER/EXPORT[?ARGS] replays the
 * loadfile straight over the protocol, as dbench 4's nfs backend does:
 * no kernel mount, no root.  Every client has its own libnfs context and
 * mount (its own TCP connection: N clients are N clients of the server)
 * and works in DIR/clients/clientK, DIR being -D (a directory inside the
 * export) or a new kbench-PID directory that prepare() makes and cleanup()
 * removes.  The sync API is used: a client does one op at a time, as the
 * file load's clients do.
 *
 * NFSv3 only: libnfs documents its NFSv4 client as not yet functional,
 * and against nfs-ganesha its OPEN with O_CREAT is an exclusive create,
 * SETATTR of a directory fails, WRITEs after some opens fail, and its LOCK
 * does not advance the open owner's seqid (every later OPEN and CLOSE then
 * fails with NFS4ERR_BAD_SEQID); prepare() refuses version=4.
 *
 * What each op sends is in kbench-load(1), BACKENDS, nfs.  Byte-range
 * locks are NLM version 4 (RFC 1813, appendix II):
 * libnfs's file API has none, so each client makes its own NLM connection
 * at its first lock (the server's portmapper names the port) and sends
 * LOCK and UNLOCK through libnfs's raw NLM calls, waiting for the reply
 * itself; a close of a file the client holds locks on sends an UNLOCK of
 * the whole file first, as a kernel client does.
 *
 * Timeouts: every RPC times out after NFS_TIMEOUT_MS and the connection is
 * never re-established (autoreconnect 0), so a killed or stalled server
 * ends each client's op within that time; the client then stops (dead),
 * as a soft mount's client gives up, and close_all() sends nothing more.
 *
 * The backend is in four files along its seams (nfs_int.h says which
 * holds what); this one has the library's table, contexts and errors,
 * paths, and each client's mount.
 */
#include "config.h"
#include "load/backend.h"
#include "load/trees.h"
#include "cli.h"
#include "sys/clock.h"

#include <stdio.h>
#include <string.h>

#ifndef HAVE_LIBNFS

const struct backend nfs_backend = {
	.name = "nfs",
	.help = "an NFS export (--nfs), through libnfs",
	.missing = "libnfs",
};

#else

#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <limits.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <poll.h>
#include <unistd.h>
#include "load/nfs_int.h"
#include "sys/dynlib.h"

struct libnfs_fns libnfs;

/* dlopen libnfs and resolve the table, once.  Returns 0, or -1 after one
 * line on stderr naming the library and dlerror(). */
int libnfs_load(const char *cmd)
{
#define LIBNFS_NAME(name) #name,
	static const char *const names[] = { LIBNFS_FUNCTIONS(LIBNFS_NAME) };
#undef LIBNFS_NAME
	static void *h;
	void *addr[sizeof(names) / sizeof(names[0])];
	size_t i = 0;
	int rc = dynlib_load(&h, LIBNFS_SONAME, names, addr, sizeof(addr) / sizeof(addr[0]),
			     cmd, "-B nfs");
	if (rc)
		return rc < 0 ? -1 : 0;
#define LIBNFS_SET(name) libnfs.name = (__typeof__(libnfs.name))addr[i++];
	LIBNFS_FUNCTIONS(LIBNFS_SET)
#undef LIBNFS_SET
	return 0;
}

/* Contexts whose connection failed, kept to the process's end.  libnfs's
 * synchronous calls that end with the transport ("nfs_service failed", a
 * timeout) leave their request queued, its callback data in the stack
 * frame of the call that has returned; nfs_destroy_context() would then
 * complete it there and corrupt whatever the stack holds now (seen as a
 * SIGSEGV in rpc_destroy_context after a server was killed mid-run).  Such
 * a context is not destroyed: the process ends soon after (a client, or
 * the parent after its cleanup), and the lists keep the memory reachable
 * until then. */
static struct nfs_client *abandoned;
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

int nfs_client_open(struct backend_ctx *c)
{
	const struct nfs_target *t = c->opts->target;
	struct nfs_client *nc = calloc(1, sizeof(*nc));
	if (!nc)
		return ENOMEM;
	c->priv = nc;
	nc->h = calloc(c->nhandles ? c->nhandles : 1, sizeof(*nc->h));
	if (!nc->h)
		return ENOMEM;
	struct nfs_url *u = NULL;
	/* the URL was good in prepare(): a failure here is the server's */
	nc->nfs = kbnfs_open_context(t->url, "kbench load", &u);
	if (!nc->nfs)
		return EINVAL;
	snprintf(nc->server, sizeof(nc->server), "%s", u->server);
	if (gethostname(nc->host, sizeof(nc->host) - 1) < 0 || !nc->host[0])
		strcpy(nc->host, "kbench");
	snprintf(nc->owner, sizeof(nc->owner), "kbench pid %ld client %u", (long)getpid(), c->id);
	int r = libnfs.nfs_mount(nc->nfs, u->server, u->path);
	libnfs.nfs_destroy_url(u);
	if (r < 0) {
		fprintf(stderr, "kbench load: client %u: cannot mount %s: %s\n", c->id, t->url,
			libnfs.nfs_get_error(nc->nfs));
		return -r;
	}
	nc->rootlen = strlen(t->dir);
	memcpy(nc->root, t->dir, nc->rootlen + 1);
	size_t n = (size_t)snprintf(nc->tree, sizeof(nc->tree), "%s/clients/client%u", t->dir, c->id);
	if (n >= sizeof(nc->tree))
		return ENAMETOOLONG;
	nc->treelen = n;
	/* prepare() made the tree; nothing on the way to it may have become
	 * a symbolic link since */
	size_t bad = 0;
	if ((r = kbnfs_nolink_path(nc->nfs, nc->tree, &bad)) == -ELOOP) {
		fprintf(stderr, "kbench load: client %u: %s%.*s is a symbolic link, which kbench "
			"does not follow\n", c->id, t->export, (int)bad, nc->tree);
		return ELOOP;
	}
	return r < 0 ? kbnfs_fail(c, r) : 0;
}

void nfs_close_all(struct backend_ctx *c)
{
	struct nfs_client *nc = c->priv;
	if (!nc || !nc->h)
		return;
	uint64_t until = kb_now_ns() + NFS_TIMEOUT_MS * 1000000ull;
	for (uint32_t i = 0; i < c->nhandles; i++) {
		struct nfs_handle *h = &nc->h[i];
		/* a lost server is not asked again, and a slow one for no
		 * longer than one RPC's timeout in all (each close of a file
		 * written since its COMMIT sends one): the client must stop
		 * within the 10 s after the time limit.  A handle not closed
		 * then is left to the process's end. */
		if (h->open && h->fh && !c->dead && kb_now_ns() < until) {
			if (h->locks)
				kbnfs_nlm_unlock_all(c, h);
			int r = c->dead ? 0 : libnfs.nfs_close(nc->nfs, h->fh);  /* COMMIT when dirty */
			if (r < 0 && kbnfs_lost(-r, nc->nfs))
				c->dead = 1;
		}
		h->open = 0;
		h->locks = 0;
		h->fh = NULL;
	}
}

void nfs_client_close(struct backend_ctx *c)
{
	struct nfs_client *nc = c->priv;
	if (!nc)
		return;
	c->priv = NULL;
	if (nc->nfs && (c->dead || kbnfs_transport_failed(nc->nfs))) {
		nc->next = abandoned;
		abandoned = nc;
		return;
	}
	if (nc->nlm)
		libnfs.rpc_destroy_context(nc->nlm);
	if (nc->nfs)
		libnfs.nfs_destroy_context(nc->nfs);
	free(nc->h);
	free(nc);
}

#endif /* HAVE_LIBNFS */
