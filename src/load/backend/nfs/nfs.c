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
 * The backend is in five files along its seams (nfs_int.h says which
 * holds what); this one has each client's mount and its end.
 */
#include "config.h"
#include "load/backend/backend.h"
#include "load/backend/nfs/nfs_opts.h"
#include "load/backend/trees.h"
#include "cli.h"
#include "sys/clock.h"

#include <stdio.h>
#include <string.h>

void nfs_options(void *mine, struct poptOption *rows)
{
	struct nfs_opts *no = mine;
	const struct poptOption r[] = {
		{ "nfs", 0, POPT_ARG_STRING, &no->url, 0,
		  "-B nfs: the export over NFSv3, through libnfs", "nfs://SERVER/EXPORT[?OPTIONS]" },
		POPT_TABLEEND
	};
	BACKEND_OPTS_COPY(rows, r);
}

#ifndef HAVE_LIBNFS

const struct backend nfs_backend = { NFS_BACKEND_ROW, .missing = "libnfs" };

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
#include "load/backend/nfs/nfs_int.h"

/* Clients whose connection failed, kept to the process's end for the
 * reason nfs_lib.c gives for its contexts. */
static struct nfs_client *abandoned;

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
