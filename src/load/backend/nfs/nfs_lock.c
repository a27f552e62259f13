/* kbench - -B nfs: byte-range locks over NLM version 4 (libnfs's raw calls)
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#ifdef HAVE_LIBNFS

#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>
#include "sys/clock.h"
#include "load/backend/nfs/nfs_int.h"

static void nlm_cb(struct rpc_context *rpc, int status, void *data, void *priv)
{
	struct nlm_reply *w = priv;
	(void)rpc;
	w->status = status;
	/* NLM4_LOCKres and NLM4_UNLOCKres: the cookie, then the status */
	if (status == RPC_STATUS_SUCCESS && data)
		w->nlm = (int)((NLM4_LOCKres *)data)->status;
	w->done = 1;
}

/* Wait for the NLM call in flight, at most NFS_TIMEOUT_MS.  Returns 0
 * (nc->reply says how it ended), ETIMEDOUT or ENOTCONN. */
static int nlm_wait(struct nfs_client *nc)
{
	uint64_t until = kb_now_ns() + NFS_TIMEOUT_MS * 1000000ull;
	while (!nc->reply.done) {
		if (kb_now_ns() >= until)
			return ETIMEDOUT;
		struct pollfd p = { .fd = libnfs.rpc_get_fd(nc->nlm), .events = (short)libnfs.rpc_which_events(nc->nlm) };
		if (poll(&p, 1, 100) < 0 && errno != EINTR)
			return ENOTCONN;
		if (libnfs.rpc_service(nc->nlm, p.revents) < 0)
			return ENOTCONN;
	}
	return 0;
}

/* The client's NLM connection, made once: 0, or ENOLCK when the server
 * offers none (every lock then fails so, without asking again). */
static int nlm_connect(struct backend_ctx *c)
{
	struct nfs_client *nc = c->priv;
	if (nc->nlm)
		return 0;
	if (nc->nlm_err)
		return nc->nlm_err;
	nc->nlm_err = ENOLCK;
	if (!(nc->nlm = libnfs.rpc_init_context()))
		return ENOLCK;
	nc->reply = (struct nlm_reply){ 0 };
	if (libnfs.rpc_connect_program_async(nc->nlm, nc->server, NLM_PROGRAM, NLM_V4, nlm_cb,
				      &nc->reply) < 0 ||
	    nlm_wait(nc) || nc->reply.status != RPC_STATUS_SUCCESS) {
		fprintf(stderr, "kbench load: client %u: no NLM (byte-range locks) on %s: %s\n",
			c->id, nc->server, libnfs.rpc_get_error(nc->nlm));
		libnfs.rpc_destroy_context(nc->nlm);
		nc->nlm = NULL;
		return ENOLCK;
	}
	nc->nlm_err = 0;
	return 0;
}

/* nlmstat4 as an errno, as fcntl(F_SETLK) would say it */
static int nlm_errno(int st)
{
	switch (st) {
	case NLM4_GRANTED:
		return 0;
	case NLM4_DENIED:
	case NLM4_BLOCKED:
	case NLM4_DENIED_GRACE_PERIOD:
		return EAGAIN;
	case NLM4_DEADLCK:
		return EDEADLK;
	case NLM4_ROFS:
		return EROFS;
	case NLM4_STALE_FH:
		return ESTALE;
	case NLM4_FBIG:
		return EFBIG;
	default:
		return ENOLCK;  /* DENIED_NOLOCKS, FAILED */
	}
}

/* One NLM LOCK (exclusive, not blocking) or UNLOCK of len bytes at off
 * (len 0: to the end) on h.  Returns 0 or an errno; a server that does
 * not answer, or whose connection is gone, stops the client. */
static int nlm_call(struct backend_ctx *c, struct nfs_handle *h, int unlock,
		    uint64_t off, uint64_t len)
{
	struct nfs_client *nc = c->priv;
	int e = nlm_connect(c);
	if (e)
		return e;
	struct kb_nfs_fh *fh = (struct kb_nfs_fh *)libnfs.nfs_get_fh(h->fh);
	uint32_t cookie = ++nc->cookie;
	nlm4_lock lk = {
		.caller_name = nc->host,
		.fh = { .data = { .data_len = (u_int)fh->len, .data_val = fh->val } },
		.oh = nc->owner,
		.svid = c->id + 1,
		.l_offset = off,
		.l_len = len,
	};
	nlm_cookie ck = { .data = { .data_len = sizeof(cookie), .data_val = (char *)&cookie } };
	nc->reply = (struct nlm_reply){ 0 };
	int r;
	if (unlock) {
		NLM4_UNLOCKargs a = { .cookie = ck, .lock = lk };
		r = libnfs.rpc_nlm4_unlock_async(nc->nlm, nlm_cb, &a, &nc->reply);
	} else {
		NLM4_LOCKargs a = { .cookie = ck, .block = 0, .exclusive = 1, .lock = lk };
		r = libnfs.rpc_nlm4_lock_async(nc->nlm, nlm_cb, &a, &nc->reply);
	}
	if (r < 0)
		return ENOLCK;
	e = nlm_wait(nc);
	if (!e && nc->reply.status != RPC_STATUS_SUCCESS)
		e = ENOTCONN;
	if (e) {
		c->dead = 1;
		return e;
	}
	return nlm_errno(nc->reply.nlm);
}

/* Before h is closed: UNLOCK the whole file, what a kernel client sends
 * when a process closes a file it holds locks on. */
int kbnfs_nlm_unlock_all(struct backend_ctx *c, struct nfs_handle *h)
{
	h->locks = 0;
	return c->dead ? 0 : nlm_call(c, h, 1, 0, 0);
}

static int do_lock(struct backend_ctx *c, const struct op *op, int unlock)
{
	struct nfs_handle *h = kbnfs_handle(c, op);
	if (!h)
		return EBADF;
	if (!h->fh)
		return unlock ? 0 : EBADF;  /* a directory, as fileio's read-only fd */
	int e = nlm_call(c, h, unlock, op->off, ((uint64_t)op->arg << 32) | op->len);
	if (!e && !unlock)
		h->locks++;
	else if (!e && h->locks)
		h->locks--;
	return e;
}

int kbnfs_lockx(struct backend_ctx *c, const struct op *op, uint64_t *bytes)
{
	(void)bytes;
	return do_lock(c, op, 0);
}

int kbnfs_unlockx(struct backend_ctx *c, const struct op *op, uint64_t *bytes)
{
	(void)bytes;
	return do_lock(c, op, 1);
}

#endif /* HAVE_LIBNFS */
