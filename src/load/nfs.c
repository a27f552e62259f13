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
#include <nfsc/libnfs.h>
#include <nfsc/libnfs-raw.h>
#include <nfsc/libnfs-raw-nlm.h>
#include "sys/dynlib.h"

/* libnfs is not linked into kbench: prepare() dlopens LIBNFS_SONAME (what
 * configure read from libnfs.so) and fills this table once, before any
 * client forks, so a run of another backend never maps it.  Each call
 * below is libnfs.NAME(...), NAME being the function of libnfs's headers
 * whose type the pointer has. */
#define LIBNFS_FUNCTIONS(X) \
	X(nfs_init_context) X(nfs_destroy_context) X(nfs_parse_url_dir) \
	X(nfs_destroy_url) X(nfs_get_error) X(nfs_set_timeout) \
	X(nfs_set_autoreconnect) X(nfs_set_tcp_syncnt) X(nfs_set_dircache) \
	X(nfs_mount) X(nfs_open2) X(nfs_close) X(nfs_pread) X(nfs_pwrite) \
	X(nfs_fsync) X(nfs_ftruncate) X(nfs_fstat64) X(nfs_stat64) \
	X(nfs_lstat64) X(nfs_statvfs64) X(nfs_utimes) X(nfs_mkdir2) \
	X(nfs_rmdir) X(nfs_unlink) X(nfs_rename) X(nfs_opendir) \
	X(nfs_readdir) X(nfs_closedir) X(nfs_get_fh) \
	X(rpc_init_context) X(rpc_destroy_context) X(rpc_get_error) \
	X(rpc_get_fd) X(rpc_which_events) X(rpc_service) \
	X(rpc_connect_program_async) X(rpc_nlm4_lock_async) X(rpc_nlm4_unlock_async)

static struct {
#define LIBNFS_POINTER(name) __typeof__(name) *name;
	LIBNFS_FUNCTIONS(LIBNFS_POINTER)
#undef LIBNFS_POINTER
} libnfs;

/* dlopen libnfs and resolve the table, once.  Returns 0, or -1 after one
 * line on stderr naming the library and dlerror(). */
static int libnfs_load(const char *cmd)
{
	static void *h;
	if (h)
		return 0;
	void *so = dynlib_open(LIBNFS_SONAME, cmd, "-B nfs");
	if (!so)
		return -1;
	void *p;
#define LIBNFS_RESOLVE(name) \
	if (!(p = dynlib_sym(so, LIBNFS_SONAME, #name, cmd, "-B nfs"))) \
		return -1; \
	libnfs.name = (__typeof__(libnfs.name))p;
	LIBNFS_FUNCTIONS(LIBNFS_RESOLVE)
#undef LIBNFS_RESOLVE
	h = so;
	return 0;
}

/* NTCreateX create_options and dispositions (MS-SMB), as fileio.c */
#define FILE_DIRECTORY_FILE 0x0001
#define FILE_CREATE 2
#define FILE_OVERWRITE 4
#define FILE_OVERWRITE_IF 5

/* ftype3 NF3DIR, NF3LNK (RFC 1813), the types libnfs gives directory entries */
#define NFS_TYPE_DIR 2
#define NFS_TYPE_LNK 5

/* every RPC (libnfs takes whole seconds): below the 10 s a client has
 * after the time limit, so an op a stalled server never answers ends in
 * time; above what a busy server's COMMIT takes */
#define NFS_TIMEOUT_MS 8000
#define NFS_SYN_COUNT 3       /* SYNs before a connect gives up */

/* libnfs's struct nfs_fh, what libnfs.nfs_get_fh() returns for its raw calls:
 * the same two fields from libnfs 4.0 to its current release, declared
 * in its private header only */
struct kb_nfs_fh {
	int len;
	char *val;
};

/* The end of an NLM call, written by its callback (kept in the client,
 * not on a stack: libnfs calls back a call it cancels when its context is
 * destroyed). */
struct nlm_reply {
	int done;
	int status;          /* RPC_STATUS_* */
	int nlm;             /* nlmstat4 of a reply */
};

/* What prepare() resolved, inherited by the clients. */
struct nfs_target {
	const char *url;       /* --nfs as given (no secret in an NFS URL) */
	int version;           /* the URL's version=, 3 when it has none */
	char dir[PATH_MAX];    /* DIR inside the export: "" is its root,
				* else "/a/b" (no trailing '/') */
	int made_dir;          /* prepare() made DIR (kbench-PID) */
	int cleaned;           /* cleanup() ran */
	char export[PATH_MAX];     /* the export's path on the server */
	char shown[2 * PATH_MAX];  /* DIR as the server names it: the
				    * export's path and dir, for messages */
	struct tree_claim trees;   /* the client trees prepare() made */
	char **noted;          /* -D: DIR's top-level names before the run */
	size_t nnoted;
};

/* A loadfile handle: an open file, or a directory (NFS has no open of a
 * directory: its ops go by the path it was opened by). */
struct nfs_handle {
	struct nfsfh *fh;      /* NULL for a directory */
	uint32_t path;         /* arena offset of the path it was opened by */
	uint8_t shared;        /* the path is relative to DIR, not the tree */
	uint8_t open;
	uint8_t isdir;
	uint32_t locks;        /* NLM locks granted on it, less those undone */
};

struct nfs_client {
	struct nfs_context *nfs;
	struct nfs_handle *h;      /* nhandles */
	size_t rootlen, treelen;
	char root[PATH_MAX];       /* DIR */
	char tree[PATH_MAX];       /* DIR/clients/clientK */
	char p1[PATH_MAX], p2[PATH_MAX], work[PATH_MAX];
	/* NLM: connected at the first lock */
	struct rpc_context *nlm;
	int nlm_err;               /* its connect failed: every lock fails so */
	struct nlm_reply reply;
	uint32_t cookie;
	char server[256];          /* the URL's server */
	char host[256];            /* caller_name: this machine */
	char owner[64];            /* oh: this client */
	struct nfs_client *next;   /* on `abandoned` */
};

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
static int transport_failed(struct nfs_context *nfs)
{
	const char *msg = libnfs.nfs_get_error(nfs);
	return msg && *msg && !strstr(msg, "ERR");
}

/* nfs_destroy_context(nfs), or nfs kept on `kept` when its transport
 * failed (above). */
static void drop_context(struct nfs_context *nfs)
{
	if (transport_failed(nfs)) {
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
static struct nfs_context *nfs_open_context(const char *url, const char *cmd,
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
static int lost(int e, struct nfs_context *nfs)
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
static int fail(struct backend_ctx *c, int r)
{
	struct nfs_client *nc = c->priv;
	int e = r < 0 ? -r : EIO;
	if (lost(e, nc->nfs)) {
		c->dead = 1;
		return e == EINTR || e == ETIMEDOUT ? ETIMEDOUT : ENOTCONN;
	}
	return e;
}

/* base "/" rel into buf (PATH_MAX); "." is base itself, and "" (the
 * export's root) reads "/". */
static int join(char *buf, const char *base, size_t blen, const char *rel)
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

static int path_of(struct nfs_client *nc, char *buf, int shared, uint32_t off,
		   const struct backend_ctx *c)
{
	const char *rel = prog_path(c->prog, off);
	return shared ? join(buf, nc->root, nc->rootlen, rel) : join(buf, nc->tree, nc->treelen, rel);
}

static int path1(struct backend_ctx *c, const struct op *op)
{
	struct nfs_client *nc = c->priv;
	return path_of(nc, nc->p1, (op->flags & OPF_SHARED1) != 0, op->path1, c);
}

static struct nfs_handle *handle(struct backend_ctx *c, const struct op *op)
{
	struct nfs_client *nc = c->priv;
	if (op->handle >= c->nhandles || !nc->h[op->handle].open)
		return NULL;
	return &nc->h[op->handle];
}

/* Write len bytes of buf at off through fh, however many calls it takes. */
static int write_all(struct backend_ctx *c, struct nfsfh *fh, const char *buf,
		     size_t len, uint64_t off)
{
	struct nfs_client *nc = c->priv;
	size_t done = 0;
	while (done < len) {
		int n = libnfs.nfs_pwrite(nc->nfs, fh, off + done, len - done, buf + done);
		if (n < 0)
			return fail(c, n);
		if (n == 0)
			return EIO;
		done += (size_t)n;
	}
	return 0;
}

/* OPF_SETSIZE: grow the file by writing the data pattern, or cut it
 * (SETATTR size), as fileio.c does. */
static int set_size(struct backend_ctx *c, struct nfsfh *fh, uint64_t have, uint64_t want)
{
	struct nfs_client *nc = c->priv;
	if (want < have) {
		int r = libnfs.nfs_ftruncate(nc->nfs, fh, want);
		return r < 0 ? fail(c, r) : 0;
	}
	size_t chunk = c->prog->max_io < SETSIZE_CHUNK ? c->prog->max_io : SETSIZE_CHUNK;
	if (!chunk)
		return 0;
	for (; have < want; have += chunk) {
		size_t n = want - have < chunk ? (size_t)(want - have) : chunk;
		int e = write_all(c, fh, c->iobuf, n, have);
		if (e)
			return e;
	}
	return 0;
}

/* A directory at path: 0, ENOTDIR, or the lookup's error. */
static int is_dir(struct backend_ctx *c, const char *path)
{
	struct nfs_client *nc = c->priv;
	struct nfs_stat_64 st;
	int r = libnfs.nfs_stat64(nc->nfs, path, &st);
	if (r < 0)
		return fail(c, r);
	return S_ISDIR(st.nfs_mode) ? 0 : ENOTDIR;
}

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
static int nlm_unlock_all(struct backend_ctx *c, struct nfs_handle *h)
{
	h->locks = 0;
	return c->dead ? 0 : nlm_call(c, h, 1, 0, 0);
}

static int do_lock(struct backend_ctx *c, const struct op *op, int unlock)
{
	struct nfs_handle *h = handle(c, op);
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

static int do_lockx(struct backend_ctx *c, const struct op *op, uint64_t *bytes)
{
	(void)bytes;
	return do_lock(c, op, 0);
}

static int do_unlockx(struct backend_ctx *c, const struct op *op, uint64_t *bytes)
{
	(void)bytes;
	return do_lock(c, op, 1);
}

static int do_ntcreatex(struct backend_ctx *c, const struct op *op, uint64_t *bytes)
{
	struct nfs_client *nc = c->priv;
	int creates = op->aux == FILE_CREATE || op->aux == FILE_OVERWRITE ||
		      op->aux == FILE_OVERWRITE_IF;
	struct nfsfh *fh = NULL;
	int isdir = 0, r, e;
	(void)bytes;

	if (op->handle >= c->nhandles && op->handle != NO_HANDLE)
		return EBADF;
	if ((e = path1(c, op)))
		return e;
	if (op->arg & FILE_DIRECTORY_FILE) {
		if (creates) {
			r = libnfs.nfs_mkdir2(nc->nfs, nc->p1, 0777);
			if (r < 0 && r != -EEXIST)
				return fail(c, r);
		}
		if ((e = is_dir(c, nc->p1)))
			return e;
		isdir = 1;
	} else {
		int flags = O_RDWR;
		if (op->aux == FILE_CREATE || (op->flags & OPF_OPEN_IF))
			flags |= O_CREAT;
		else if (op->aux == FILE_OVERWRITE || op->aux == FILE_OVERWRITE_IF)
			flags |= O_CREAT | O_TRUNC;
		if (c->opts->sync_open)
			flags |= O_SYNC;
		r = libnfs.nfs_open2(nc->nfs, nc->p1, flags, 0600, &fh);
		if (r == -EISDIR || r == -EEXIST) {
			/* a directory: its open fails (EISDIR), or its CREATE
			 * does (EEXIST); fileio opens it as a directory then */
			if ((e = is_dir(c, nc->p1)))
				return e == ENOTDIR ? fail(c, r) : e;
			isdir = 1;
			fh = NULL;
		} else if (r < 0) {
			return fail(c, r);
		}
	}
	if (fh) {
		/* only files and directories are the load's (one GETATTR) */
		struct nfs_stat_64 st;
		r = libnfs.nfs_fstat64(nc->nfs, fh, &st);
		e = r < 0 ? fail(c, r) : 0;
		if (!e && S_ISDIR(st.nfs_mode)) {
			/* NFSv3 "opens" a directory: it is used by its path */
			if (!c->dead)
				libnfs.nfs_close(nc->nfs, fh);
			fh = NULL;
			isdir = 1;
		} else if (!e && !S_ISREG(st.nfs_mode)) {
			e = BE_ENOTREG;
		} else if (!e && (op->flags & OPF_SETSIZE)) {
			e = set_size(c, fh, st.nfs_size, op->off);
		}
		if (e) {
			if (!c->dead)
				libnfs.nfs_close(nc->nfs, fh);
			return e;
		}
	}
	if (op->handle == NO_HANDLE) {
		if (fh && (r = libnfs.nfs_close(nc->nfs, fh)) < 0)
			return fail(c, r);
		return 0;  /* an open that was meant to fail binds nothing */
	}
	struct nfs_handle *h = &nc->h[op->handle];
	if (h->open && h->fh) {
		if (h->locks)
			nlm_unlock_all(c, h);
		if (!c->dead)
			libnfs.nfs_close(nc->nfs, h->fh);
	}
	h->locks = 0;
	h->fh = fh;
	h->path = op->path1;
	h->shared = (op->flags & OPF_SHARED1) != 0;
	h->isdir = (uint8_t)isdir;
	h->open = 1;
	return 0;
}

static int do_close(struct backend_ctx *c, const struct op *op, uint64_t *bytes)
{
	struct nfs_client *nc = c->priv;
	struct nfs_handle *h = handle(c, op);
	(void)bytes;
	if (!h)
		return EBADF;
	h->open = 0;
	if (!h->fh)
		return 0;  /* a directory: nothing was open on the server */
	int e = h->locks ? nlm_unlock_all(c, h) : 0;
	if (c->dead) {
		h->fh = NULL;  /* left to the process's end */
		return e;
	}
	int r = libnfs.nfs_close(nc->nfs, h->fh);
	h->fh = NULL;
	return r < 0 ? fail(c, r) : e;
}

static int do_rename(struct backend_ctx *c, const struct op *op, uint64_t *bytes)
{
	struct nfs_client *nc = c->priv;
	int e;
	(void)bytes;
	if ((e = path1(c, op)) || (e = path_of(nc, nc->p2, (op->flags & OPF_SHARED2) != 0, op->path2, c)))
		return e;
	int r = libnfs.nfs_rename(nc->nfs, nc->p1, nc->p2);
	return r < 0 ? fail(c, r) : 0;
}

static int do_unlink(struct backend_ctx *c, const struct op *op, uint64_t *bytes)
{
	struct nfs_client *nc = c->priv;
	int e;
	(void)bytes;
	if ((e = path1(c, op)))
		return e;
	int r = libnfs.nfs_unlink(nc->nfs, nc->p1);
	return r < 0 ? fail(c, r) : 0;
}

static int do_rmdir(struct backend_ctx *c, const struct op *op, uint64_t *bytes)
{
	struct nfs_client *nc = c->priv;
	int e;
	(void)bytes;
	if ((e = path1(c, op)))
		return e;
	int r = libnfs.nfs_rmdir(nc->nfs, nc->p1);
	return r < 0 ? fail(c, r) : 0;
}

static int do_mkdir(struct backend_ctx *c, const struct op *op, uint64_t *bytes)
{
	struct nfs_client *nc = c->priv;
	int e;
	(void)bytes;
	if ((e = path1(c, op)))
		return e;
	int r = libnfs.nfs_mkdir2(nc->nfs, nc->p1, 0777);
	/* a directory already there is what the loadfile asked for (as
	 * fileio); something else there is not */
	if (r == -EEXIST)
		return is_dir(c, nc->p1);
	return r < 0 ? fail(c, r) : 0;
}

/* What rm_tree() does with a symbolic link it meets: during the run (a
 * loadfile's Deltree) it is removed as a link, as fileio does; at the
 * cleanup it is left and named, for the run never makes one: someone put
 * it there, and the run's ops may have gone through it. */
struct rm_links {
	const char *cmd;       /* NULL: remove links; else name them, keep them */
	const char *shown;     /* DIR as the server names it */
	size_t dirlen;         /* the length of DIR's path in buf */
};

/* At the cleanup: the link at buf is left, in one line. */
static int link_left(const struct rm_links *lk, const char *buf)
{
	fprintf(stderr, "%s: %s%s is a symbolic link the run did not make: left as it is, not "
		"followed (the run's operations may have gone through it)\n", lk->cmd, lk->shown,
		buf + lk->dirlen);
	return -EEXIST;
}

/* Remove the tree at buf (len bytes, a PATH_MAX buffer it extends and
 * restores) over the protocol: READDIRPLUS, REMOVE for what is not a
 * directory, RMDIR.  A symbolic link is never followed (lk says whether
 * it is removed or left).  Before it lists a directory, it asks what the
 * path names (LOOKUP, no link followed): a directory swapped for a link
 * since READDIRPLUS said its type is not entered.  With keep_top only the
 * contents go.  A missing path is not an error.  Returns 0 or a libnfs
 * result (< 0) of the first failure. */
static int rm_tree(struct nfs_context *nfs, char *buf, size_t len, int keep_top,
		   const struct rm_links *lk)
{
	struct nfsdir *d;
	struct nfs_stat_64 st;
	int r = libnfs.nfs_lstat64(nfs, len ? buf : "/", &st);
	if (r == -ENOENT)
		return 0;
	if (r < 0)
		return r;
	if (S_ISLNK(st.nfs_mode) && lk->cmd)
		return link_left(lk, buf);
	if (!S_ISDIR(st.nfs_mode))
		return keep_top ? -ENOTDIR : libnfs.nfs_unlink(nfs, buf);
	r = libnfs.nfs_opendir(nfs, len ? buf : "/", &d);
	if (r < 0)
		return r;
	struct nfsdirent *de;
	int first = 0;
	while ((de = libnfs.nfs_readdir(nfs, d))) {
		if (!strcmp(de->name, ".") || !strcmp(de->name, ".."))
			continue;
		size_t nl = strlen(de->name);
		if (len + 1 + nl + 1 > PATH_MAX) {
			first = first ? first : -ENAMETOOLONG;
			continue;
		}
		buf[len] = '/';
		memcpy(buf + len + 1, de->name, nl + 1);
		if (de->type == NFS_TYPE_DIR)
			r = rm_tree(nfs, buf, len + 1 + nl, 0, lk);
		else if (de->type == NFS_TYPE_LNK && lk->cmd)
			r = link_left(lk, buf);
		else
			r = libnfs.nfs_unlink(nfs, buf);
		buf[len] = '\0';
		if (r < 0 && r != -ENOENT && !first)
			first = r;
		if (r == -EIO || r == -EINTR)
			break;  /* the server is gone: do not go on asking it */
	}
	libnfs.nfs_closedir(nfs, d);
	if (first)
		return first;
	if (!keep_top) {
		r = libnfs.nfs_rmdir(nfs, buf);
		if (r < 0 && r != -ENOENT)
			return r;
	}
	return 0;
}

static int do_deltree(struct backend_ctx *c, const struct op *op, uint64_t *bytes)
{
	struct nfs_client *nc = c->priv;
	int e;
	(void)bytes;
	if ((e = path1(c, op)))
		return e;
	const char *rel = prog_path(c->prog, op->path1);
	size_t len = strlen(nc->p1);
	if (len == 1 && nc->p1[0] == '/')
		len = 0;
	memcpy(nc->work, nc->p1, len + 1);
	/* the root of a tree stays, as fileio */
	static const struct rm_links remove_links = { NULL, NULL, 0 };
	int r = rm_tree(nc->nfs, nc->work, len, strcmp(rel, ".") == 0, &remove_links);
	return r < 0 ? fail(c, r) : 0;
}

static int do_qpathinfo(struct backend_ctx *c, const struct op *op, uint64_t *bytes)
{
	struct nfs_client *nc = c->priv;
	struct nfs_stat_64 st;
	int e;
	(void)bytes;
	if ((e = path1(c, op)))
		return e;
	int r = libnfs.nfs_lstat64(nc->nfs, nc->p1, &st);
	return r < 0 ? fail(c, r) : 0;
}

/* The attributes of what handle h names: GETATTR of the file, or of the
 * directory by its path. */
static int handle_stat(struct backend_ctx *c, const struct nfs_handle *h, struct nfs_stat_64 *st)
{
	struct nfs_client *nc = c->priv;
	int r, e;
	if (h->fh) {
		r = libnfs.nfs_fstat64(nc->nfs, h->fh, st);
	} else {
		if ((e = path_of(nc, nc->p2, h->shared, h->path, c)))
			return e;
		r = libnfs.nfs_stat64(nc->nfs, nc->p2, st);
	}
	return r < 0 ? fail(c, r) : 0;
}

static int do_qfileinfo(struct backend_ctx *c, const struct op *op, uint64_t *bytes)
{
	struct nfs_stat_64 st;
	struct nfs_handle *h = handle(c, op);
	(void)bytes;
	if (!h)
		return EBADF;
	return handle_stat(c, h, &st);
}

static int do_qfsinfo(struct backend_ctx *c, const struct op *op, uint64_t *bytes)
{
	struct nfs_client *nc = c->priv;
	struct nfs_statvfs_64 sv;
	(void)op;
	(void)bytes;
	int r = libnfs.nfs_statvfs64(nc->nfs, nc->tree, &sv);
	return r < 0 ? fail(c, r) : 0;
}

/* Set the times of path to what st says they are: SETATTR, the metadata
 * write a client's "set basic info" causes, nothing visible changed
 * (microseconds: what libnfs's utimes carries). */
static int set_times(struct backend_ctx *c, const char *path, const struct nfs_stat_64 *st)
{
	struct nfs_client *nc = c->priv;
	struct timeval tv[2] = {
		{ .tv_sec = (time_t)st->nfs_atime, .tv_usec = (suseconds_t)(st->nfs_atime_nsec / 1000) },
		{ .tv_sec = (time_t)st->nfs_mtime, .tv_usec = (suseconds_t)(st->nfs_mtime_nsec / 1000) },
	};
	int r = libnfs.nfs_utimes(nc->nfs, path, tv);
	return r < 0 ? fail(c, r) : 0;
}

static int do_sfileinfo(struct backend_ctx *c, const struct op *op, uint64_t *bytes)
{
	struct nfs_client *nc = c->priv;
	struct nfs_stat_64 st;
	int e, r;
	(void)bytes;
	if (op->flags & OPF_BYPATH) {
		if ((e = path1(c, op)))
			return e;
		r = libnfs.nfs_stat64(nc->nfs, nc->p1, &st);
		if (r < 0)
			return fail(c, r);
		return set_times(c, nc->p1, &st);
	}
	struct nfs_handle *h = handle(c, op);
	if (!h)
		return EBADF;
	if ((e = handle_stat(c, h, &st)))
		return e;
	/* libnfs sets times by path only: the path the handle was opened by */
	if ((e = path_of(nc, nc->p2, h->shared, h->path, c)))
		return e;
	return set_times(c, nc->p2, &st);
}

/* FIND_FIRST: a plain name is a lookup; a pattern lists the directory
 * (READDIRPLUS, libnfs's directory cache off) and succeeds if anything
 * matches, counting at most maxcnt matches, as fileio. */
static int do_find_first(struct backend_ctx *c, const struct op *op, uint64_t *bytes)
{
	struct nfs_client *nc = c->priv;
	struct nfs_stat_64 st;
	int e, r;
	(void)bytes;
	if ((e = path1(c, op)))
		return e;
	if (!(op->flags & OPF_WILDCARD)) {
		r = libnfs.nfs_lstat64(nc->nfs, nc->p1, &st);
		return r < 0 ? fail(c, r) : 0;
	}
	/* p1 is BASE/[DIR/]PATTERN: the pattern is after the last '/' */
	char *slash = strrchr(nc->p1, '/');
	const char *pat = slash + 1;
	memcpy(nc->p2, nc->p1, (size_t)(slash - nc->p1));
	nc->p2[slash - nc->p1] = '\0';
	struct nfsdir *d;
	r = libnfs.nfs_opendir(nc->nfs, nc->p2[0] ? nc->p2 : "/", &d);
	if (r < 0)
		return fail(c, r);
	uint32_t matches = 0, maxcnt = op->arg ? op->arg : UINT32_MAX;
	struct nfsdirent *de;
	while (matches < maxcnt && (de = libnfs.nfs_readdir(nc->nfs, d)))
		if (fnmatch(pat, de->name, FNM_CASEFOLD) == 0)
			matches++;
	libnfs.nfs_closedir(nc->nfs, d);
	return matches ? 0 : ENOENT;
}

static int do_writex(struct backend_ctx *c, const struct op *op, uint64_t *bytes)
{
	struct nfs_client *nc = c->priv;
	struct nfs_handle *h = handle(c, op);
	if (!h)
		return EBADF;
	if (!h->fh)
		return EBADF;  /* a directory, opened read-only (as fileio) */
	int e = write_all(c, h->fh, c->iobuf, op->len, op->off);
	if (e)
		return e;
	if (c->opts->fsync_write) {
		int r = libnfs.nfs_fsync(nc->nfs, h->fh);
		if (r < 0)
			return fail(c, r);
	}
	if (op->ret != op->len)
		return BE_ESHORT;  /* the line expects another size written */
	*bytes = op->len;
	return 0;
}

static int do_readx(struct backend_ctx *c, const struct op *op, uint64_t *bytes)
{
	struct nfs_client *nc = c->priv;
	struct nfs_handle *h = handle(c, op);
	if (!h)
		return EBADF;
	if (!h->fh)
		return EISDIR;
	int n = libnfs.nfs_pread(nc->nfs, h->fh, op->off, op->len, c->iobuf);
	if (n < 0)
		return fail(c, n);
	if (op->flags & OPF_ANYSIZE) {
		*bytes = (uint64_t)n;
		return 0;
	}
	/* another size than the line's ret_size fails, as in fileio */
	if ((uint64_t)n != op->ret)
		return BE_ESHORT;
	*bytes = (uint64_t)n;
	return 0;
}

static int do_flush(struct backend_ctx *c, const struct op *op, uint64_t *bytes)
{
	struct nfs_client *nc = c->priv;
	struct nfs_handle *h = handle(c, op);
	(void)bytes;
	if (!h)
		return EBADF;
	if (!h->fh)
		return 0;  /* a directory: NFS servers commit namespace changes
			    * before they reply; there is nothing to send */
	int r = libnfs.nfs_fsync(nc->nfs, h->fh);
	return r < 0 ? fail(c, r) : 0;
}

/* ---- paths that go through no symbolic link ----
 * libnfs resolves a path one LOOKUP at a time from the export's root and
 * follows a symbolic link it meets on the way.  DIR and the client trees
 * are checked here instead, a LOOKUP of each prefix from the top with no
 * link followed (libnfs's lstat): each later LOOKUP then goes through
 * directories just seen to be directories.  Another NFS client can still
 * swap one for a link afterwards (kbench-load(1) says what that means). */

/* Check every component of path ("" or "/a/b", absolute in the export):
 * a directory, not a symbolic link.  Returns 0; -ELOOP with *bad set to
 * the length of the prefix that is a link; -ENOTDIR for one that is not a
 * directory (also *bad); or libnfs's error for the lookup that failed. */
static int nolink_path(struct nfs_context *nfs, const char *path, size_t *bad)
{
	char pre[PATH_MAX];
	size_t len = strlen(path), i = 0;
	if (len >= sizeof(pre))
		return -ENAMETOOLONG;
	while (i < len) {
		i += 1 + strcspn(path + i + 1, "/");
		memcpy(pre, path, i);
		pre[i] = '\0';
		struct nfs_stat_64 st;
		int r = libnfs.nfs_lstat64(nfs, pre, &st);
		*bad = i;
		if (r < 0)
			return r;
		if (S_ISLNK(st.nfs_mode))
			return -ELOOP;
		if (!S_ISDIR(st.nfs_mode))
			return -ENOTDIR;
	}
	return 0;
}

/* The client trees as trees.c sees them: rel below DIR, over the
 * protocol.  A LOOKUP of rel goes through DIR (checked) and clients/
 * (judged a directory before any clientK is made). */
struct nfs_tree_fs {
	struct nfs_context *nfs;
	const char *dir;
	char buf[PATH_MAX];
};

static const char *tree_path(struct nfs_tree_fs *f, const char *rel)
{
	snprintf(f->buf, sizeof(f->buf), "%s/%s", f->dir, rel);
	return f->buf;
}

static int tfs_mkdir(void *arg, const char *rel)
{
	struct nfs_tree_fs *f = arg;
	int r = libnfs.nfs_mkdir2(f->nfs, tree_path(f, rel), 0777);
	return r < 0 ? -r : 0;
}

static int tfs_kind(void *arg, const char *rel)
{
	struct nfs_tree_fs *f = arg;
	struct nfs_stat_64 st;
	int r = libnfs.nfs_lstat64(f->nfs, tree_path(f, rel), &st);
	if (r < 0)
		return r == -ENOENT ? TREE_MISSING : r;
	return S_ISLNK(st.nfs_mode) ? TREE_LINK : S_ISDIR(st.nfs_mode) ? TREE_DIR : TREE_OTHER;
}

static int tfs_empty(void *arg, const char *rel)
{
	struct nfs_tree_fs *f = arg;
	struct nfsdir *d;
	int r = libnfs.nfs_opendir(f->nfs, tree_path(f, rel), &d);
	if (r < 0)
		return r;
	struct nfsdirent *de;
	int empty = 1;
	while (empty && (de = libnfs.nfs_readdir(f->nfs, d)))
		if (strcmp(de->name, ".") && strcmp(de->name, ".."))
			empty = 0;
	libnfs.nfs_closedir(f->nfs, d);
	return empty;
}

static int tfs_rmdir(void *arg, const char *rel)
{
	struct nfs_tree_fs *f = arg;
	int r = libnfs.nfs_rmdir(f->nfs, tree_path(f, rel));
	return r < 0 ? -r : 0;
}

/* DIR (t->dir) goes through no link, and the client trees are the run's:
 * trees_claim() over the protocol.  Returns 0, or KB_EXIT_USAGE after one
 * line on stderr. */
static int claim_trees(struct nfs_context *nfs, struct nfs_target *t, unsigned nclients,
		       const char *cmd)
{
	size_t bad = 0;
	int r = nolink_path(nfs, t->dir, &bad);
	if (r == -ELOOP) {
		char rel[PATH_MAX];
		snprintf(rel, sizeof(rel), "%.*s", (int)bad - 1, t->dir + 1);
		trees_say_link(cmd, t->export, rel);
		return KB_EXIT_USAGE;
	}
	if (r < 0) {
		fprintf(stderr, "%s: -D %s: %s on %s\n", cmd, t->dir + 1,
			r == -ENOTDIR ? "not a directory" : libnfs.nfs_get_error(nfs), t->url);
		return KB_EXIT_USAGE;
	}
	struct nfs_tree_fs *f = malloc(sizeof(*f));
	if (!f) {
		fprintf(stderr, "%s: out of memory\n", cmd);
		return KB_EXIT_USAGE;
	}
	f->nfs = nfs;
	f->dir = t->dir;
	struct tree_fs fs = { f, tfs_mkdir, tfs_kind, tfs_empty, tfs_rmdir };
	int status = trees_claim(&fs, nclients, t->shown, cmd, &t->trees);
	free(f);
	return status;
}

static int nfs_client_open(struct backend_ctx *c)
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
	nc->nfs = nfs_open_context(t->url, "kbench load", &u);
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
	if ((r = nolink_path(nc->nfs, nc->tree, &bad)) == -ELOOP) {
		fprintf(stderr, "kbench load: client %u: %s%.*s is a symbolic link, which kbench "
			"does not follow\n", c->id, t->export, (int)bad, nc->tree);
		return ELOOP;
	}
	return r < 0 ? fail(c, r) : 0;
}

static void nfs_close_all(struct backend_ctx *c)
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
				nlm_unlock_all(c, h);
			int r = c->dead ? 0 : libnfs.nfs_close(nc->nfs, h->fh);  /* COMMIT when dirty */
			if (r < 0 && lost(-r, nc->nfs))
				c->dead = 1;
		}
		h->open = 0;
		h->locks = 0;
		h->fh = NULL;
	}
}

static void nfs_client_close(struct backend_ctx *c)
{
	struct nfs_client *nc = c->priv;
	if (!nc)
		return;
	c->priv = NULL;
	if (nc->nfs && (c->dead || transport_failed(nc->nfs))) {
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

/* The version the URL asks for: 3 (libnfs's default, also when the URL
 * says none), 4, or 0 for any other value or for more than one version=
 * (libnfs takes the last, so a first version=3 would hide a version=4). */
static int url_version(const char *url)
{
	const char *q = strchr(url, '?');
	int v = 3, seen = 0;
	while (q) {
		q++;
		if (!strncmp(q, "version=", 8)) {
			q += 8;
			if (seen++ || !((q[0] == '3' || q[0] == '4') && (q[1] == '\0' || q[1] == '&')))
				return 0;
			v = q[0] - '0';
		}
		q = strchr(q, '&');
	}
	return v;
}

/* -D as a path inside the export: "" for its root, else "/a/b"; no ".."
 * component.  Returns 0 or -1. */
static int export_path(const char *d, char *out, size_t len)
{
	size_t n = 0;
	out[0] = '\0';
	while (*d) {
		while (*d == '/')
			d++;
		if (!*d)
			break;
		size_t cl = strcspn(d, "/");
		if (cl == 2 && !strncmp(d, "..", 2))
			return -1;
		if (!(cl == 1 && d[0] == '.')) {
			if (n + 1 + cl + 1 > len)
				return -1;
			out[n++] = '/';
			memcpy(out + n, d, cl);
			n += cl;
			out[n] = '\0';
		}
		d += cl;
	}
	return 0;
}

static void target_free(struct nfs_target *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->nnoted; i++)
		free(t->noted[i]);
	free(t->noted);
	trees_free(&t->trees);
	free(t);
}

/* -D: note DIR's top-level names (cleanup() removes the others). */
static int note_dir(struct nfs_context *nfs, struct nfs_target *t, const char *cmd)
{
	struct nfsdir *d;
	int r = libnfs.nfs_opendir(nfs, t->dir[0] ? t->dir : "/", &d);
	if (r < 0) {
		fprintf(stderr, "%s: -D %s: cannot list it on %s: %s\n", cmd, t->dir[0] ? t->dir : "/",
			t->url, libnfs.nfs_get_error(nfs));
		return -1;
	}
	struct nfsdirent *de;
	size_t cap = 0;
	int rc = 0;
	while ((de = libnfs.nfs_readdir(nfs, d))) {
		if (!strcmp(de->name, ".") || !strcmp(de->name, ".."))
			continue;
		if (t->nnoted == cap) {
			size_t ncap = cap ? 2 * cap : 64;
			char **nn = realloc(t->noted, ncap * sizeof(*nn));
			if (!nn) {
				rc = -1;
				break;
			}
			t->noted = nn;
			cap = ncap;
		}
		if (!(t->noted[t->nnoted] = strdup(de->name))) {
			rc = -1;
			break;
		}
		t->nnoted++;
	}
	libnfs.nfs_closedir(nfs, d);
	if (rc)
		fprintf(stderr, "%s: out of memory\n", cmd);
	return rc;
}

/* Mount url once in the parent: the target, and a context on it (the
 * caller destroys it), or NULL after a line on stderr. */
static struct nfs_context *mount_once(const char *url, const char *cmd)
{
	struct nfs_url *u = NULL;
	struct nfs_context *nfs = nfs_open_context(url, cmd, &u);
	if (!nfs)
		return NULL;
	int r = libnfs.nfs_mount(nfs, u->server, u->path);
	libnfs.nfs_destroy_url(u);
	if (r < 0) {
		const char *msg = libnfs.nfs_get_error(nfs);
		fprintf(stderr, "%s: --nfs %s: cannot mount the export: %s%s\n", cmd, url, msg,
			msg && !strcmp(msg, "nfs_service failed") ?
			" (no NFS server answers there, or it closed the connection)" : "");
		drop_context(nfs);
		return NULL;
	}
	return nfs;
}

static int nfs_prepare(struct backend_opts *o, unsigned nclients, const char *cmd)
{
	if (!o->nfs_url)
		return cli_usage_error(cmd, "-B nfs needs --nfs nfs://SERVER/EXPORT");
	if (strncmp(o->nfs_url, "nfs://", 6))
		return cli_usage_error(cmd, "--nfs '%s': not an nfs://SERVER/EXPORT URL", o->nfs_url);
	if (o->xattr)
		return cli_usage_error(cmd, "-x: NFS has no extended attributes for the DOS "
				       "attributes (not with -B nfs)");
	if (o->sync_dirs)
		return cli_usage_error(cmd, "-S: an NFS server commits a namespace change before "
				       "it replies; there is no directory fsync to send (not with -B nfs)");
	struct nfs_target *t = calloc(1, sizeof(*t));
	if (!t) {
		fprintf(stderr, "%s: out of memory\n", cmd);
		return KB_EXIT_USAGE;
	}
	t->url = o->nfs_url;
	t->version = url_version(o->nfs_url);
	if (!t->version) {
		target_free(t);
		return cli_usage_error(cmd, "--nfs %s: version= takes 3 (or 4, which is refused), once",
				       o->nfs_url);
	}
	if (t->version == 4) {
		target_free(t);
		return cli_usage_error(cmd, "--nfs %s: version=4: libnfs's NFSv4 client is not "
				       "usable (its own documentation says so; against nfs-ganesha its "
				       "OPEN, WRITE, SETATTR and LOCK fail): use version=3", o->nfs_url);
	}
	if (o->directory && export_path(o->directory, t->dir, sizeof(t->dir)) < 0) {
		target_free(t);
		return cli_usage_error(cmd, "-D %s: not a path inside the export (no '..', "
				       "shorter than %d bytes)", o->directory, PATH_MAX - 64);
	}
	/* the options are good: now the library, before anything is sent */
	if (libnfs_load(cmd) < 0) {
		target_free(t);
		return KB_EXIT_USAGE;
	}
	struct nfs_context *nfs = mount_once(o->nfs_url, cmd);
	if (!nfs) {
		target_free(t);
		return KB_EXIT_USAGE;
	}
	/* the export's path, as the URL gives it: DIR's name in messages */
	const char *ep = strchr(o->nfs_url + 6, '/');
	snprintf(t->export, sizeof(t->export), "%.*s", ep ? (int)strcspn(ep, "?") : 0, ep ? ep : "");
	snprintf(t->shown, sizeof(t->shown), "%s%s", t->export, t->dir);
	int status = 0;
	if (o->directory) {
		struct nfs_stat_64 st;
		int r = libnfs.nfs_stat64(nfs, t->dir[0] ? t->dir : "/", &st);
		if (r < 0 || !S_ISDIR(st.nfs_mode)) {
			fprintf(stderr, "%s: -D %s: %s on %s\n", cmd, o->directory,
				r < 0 ? libnfs.nfs_get_error(nfs) : "not a directory", o->nfs_url);
			status = KB_EXIT_USAGE;
		} else if (note_dir(nfs, t, cmd) < 0) {
			status = KB_EXIT_USAGE;
		}
	} else {
		snprintf(t->dir, sizeof(t->dir), "/kbench-%ld", (long)getpid());
		int r = libnfs.nfs_mkdir2(nfs, t->dir, 0777);
		if (r < 0) {
			fprintf(stderr, "%s: --nfs %s: cannot make %s in the export: %s\n", cmd,
				o->nfs_url, t->dir + 1, libnfs.nfs_get_error(nfs));
			status = KB_EXIT_USAGE;
		} else {
			t->made_dir = 1;
			snprintf(t->shown, sizeof(t->shown), "%s%s", t->export, t->dir);
		}
	}
	if (!status)
		status = claim_trees(nfs, t, nclients, cmd);
	/* the clients make their own connections: none is shared across fork */
	drop_context(nfs);
	if (status) {
		target_free(t);
		return status;
	}
	o->target = t;
	return 0;
}

static int noted(const struct nfs_target *t, const char *name)
{
	for (size_t i = 0; i < t->nnoted; i++)
		if (!strcmp(t->noted[i], name))
			return 1;
	return 0;
}

/* The client trees: each goes whole (an empty one that was there before
 * the run only loses its contents), unless a symbolic link now stands on
 * its way (named, left). */
static int remove_trees(struct nfs_context *nfs, const struct nfs_target *t,
			const struct rm_links *lk, char *buf)
{
	int first = 0;
	for (unsigned k = 0; k < t->trees.n; k++) {
		size_t n = (size_t)snprintf(buf, PATH_MAX, "%s/clients/client%u", t->dir, k), bad = 0;
		int r = nolink_path(nfs, buf, &bad);
		if (r == -ELOOP) {
			buf[bad] = '\0';
			r = link_left(lk, buf);
		} else if (r != -ENOENT) {
			r = rm_tree(nfs, buf, n, t->trees.kept[k], lk);
		}
		if (r < 0 && r != -ENOENT && !first)
			first = r;
		if (r == -EIO || r == -EINTR || r == -ETIMEDOUT)
			break;  /* the server is gone */
	}
	return first;
}

static int nfs_cleanup(struct backend_opts *o, unsigned nclients, const char *cmd)
{
	struct nfs_target *t = o->target;
	char buf[PATH_MAX];
	(void)nclients;  /* the trees prepare() claimed */
	if (!t)
		return 0;
	t->cleaned = 1;
	struct nfs_context *nfs = mount_once(t->url, cmd);
	if (!nfs) {
		fprintf(stderr, "%s: the run's files are left in %s on %s\n", cmd,
			t->dir[0] ? t->dir + 1 : "the export's root", t->url);
		return -1;
	}
	struct rm_links lk = { cmd, t->export, 0 };
	size_t dl = strlen(t->dir), bad = 0;
	/* nothing is removed through a link on the way to DIR */
	int r = nolink_path(nfs, t->dir, &bad);
	if (r == -ELOOP) {
		memcpy(buf, t->dir, bad);
		buf[bad] = '\0';
		link_left(&lk, buf);
	}
	if (r >= 0)
		r = remove_trees(nfs, t, &lk, buf);
	memcpy(buf, t->dir, dl + 1);
	if (r >= 0 && t->made_dir) {
		r = rm_tree(nfs, buf, dl, 0, &lk);
	} else if (r >= 0) {
		/* -D: what was not there before */
		struct nfsdir *d;
		if ((r = libnfs.nfs_opendir(nfs, dl ? buf : "/", &d)) >= 0) {
			struct nfsdirent *de;
			while ((de = libnfs.nfs_readdir(nfs, d)) && (r >= 0 || r == -EEXIST)) {
				if (!strcmp(de->name, ".") || !strcmp(de->name, "..") || noted(t, de->name))
					continue;
				size_t n = (size_t)snprintf(buf, sizeof(buf), "%s/%s", t->dir, de->name);
				int e = n < sizeof(buf) ? rm_tree(nfs, buf, n, 0, &lk) : -ENAMETOOLONG;
				if (e < 0 && r >= 0)
					r = e;  /* the first failure; a link left does not stop the rest */
			}
			libnfs.nfs_closedir(nfs, d);
		}
	}
	if (r < 0)
		fprintf(stderr, "%s: cannot remove the run's files from %s on %s: %s\n", cmd,
			t->dir[0] ? t->dir + 1 : "the export's root", t->url,
			r == -EEXIST || r == -ELOOP ? "a symbolic link is on the way (above)" :
			libnfs.nfs_get_error(nfs));
	drop_context(nfs);
	return r < 0 ? -1 : 0;
}

static void nfs_release(struct backend_opts *o)
{
	struct nfs_target *t = o->target;
	if (t && t->made_dir && !t->cleaned) {
		/* no run, or --skip-cleanup: a DIR the run never used goes (an
		 * RMDIR, which leaves one that holds anything) */
		struct nfs_url *u = NULL;
		struct nfs_context *nfs = nfs_open_context(t->url, "kbench load", &u);
		if (nfs && libnfs.nfs_mount(nfs, u->server, u->path) == 0)
			libnfs.nfs_rmdir(nfs, t->dir);
		if (u)
			libnfs.nfs_destroy_url(u);
		if (nfs)
			drop_context(nfs);
	}
	target_free(o->target);
	o->target = NULL;
}

static const char *nfs_describe(const struct backend_opts *o)
{
	return o->nfs_url;
}

const struct backend nfs_backend = {
	.name = "nfs",
	.help = "an NFS export (--nfs), through libnfs",
	.prepare = nfs_prepare,
	.client_open = nfs_client_open,
	.close_all = nfs_close_all,
	.client_close = nfs_client_close,
	.cleanup = nfs_cleanup,
	.release = nfs_release,
	.describe = nfs_describe,
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
		[OP_LOCKX] = do_lockx,
		[OP_UNLOCKX] = do_unlockx,
		[OP_FLUSH] = do_flush,
	},
};

#endif /* HAVE_LIBNFS */
