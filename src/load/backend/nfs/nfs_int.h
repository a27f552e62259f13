/* kbench - -B nfs: what its parts share (nfs_ops.c, nfs.c, nfs_lock.c,
 * nfs_export.c, nfs_lib.c); only with libnfs (HAVE_LIBNFS)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Top to bottom (each file calls only those below it): nfs_ops.c: the
 * ops and the backend's row; nfs.c: each client's mount and its end;
 * nfs_lock.c: byte-range locks over NLM v4; nfs_export.c: DIR and the
 * trees checked and claimed in prepare() (no link followed), the removal
 * of a tree (Deltree and the cleanup), the cleanup; nfs_lib.c: the
 * library's table and loader, contexts, errors, paths, the handle lookup.
 */
#ifndef KBENCH_LOAD_NFS_INT_H
#define KBENCH_LOAD_NFS_INT_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <nfsc/libnfs.h>
#include <nfsc/libnfs-raw.h>
#include <nfsc/libnfs-raw-nlm.h>
#include "load/backend/backend.h"
#include "load/backend/nfs/nfs_opts.h"
#include "load/backend/trees.h"
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

DYNLIB_TABLE(libnfs_fns, LIBNFS_FUNCTIONS);
extern struct libnfs_fns libnfs;

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

/* dlopen libnfs and fill libnfs, once.  Returns 0, or -1 after one line
 * on stderr naming the library and dlerror(). */
int libnfs_load(const char *cmd);

/* 1 if nfs's last error is the transport's (no NFS3ERR or MNT3ERR status
 * from the server in libnfs's message), else 0. */
int kbnfs_transport_failed(struct nfs_context *nfs);

/* nfs_destroy_context(nfs), or nfs kept to the process's end when its
 * transport failed (a queued request would be completed into a stack
 * frame that has gone, nfs_lib.c says more). */
void kbnfs_drop_context(struct nfs_context *nfs);

/* A new context for url with kbench's timeouts (no reconnection); *urlp
 * receives the parsed URL (the caller frees it with nfs_destroy_url).
 * Returns it, or NULL after one line on stderr starting with cmd. */
struct nfs_context *kbnfs_open_context(const char *url, const char *cmd,
				       struct nfs_url **urlp);

/* 1 if the connection is gone or timed out (e, a positive errno, with
 * nfs's last message): the client cannot go on; else 0. */
int kbnfs_lost(int e, struct nfs_context *nfs);

/* A libnfs result r < 0 as kbench's error: a positive errno; a lost
 * connection sets c->dead and reads ENOTCONN, a timeout ETIMEDOUT. */
int kbnfs_fail(struct backend_ctx *c, int r);

/* buf = base (blen bytes) + "/" + rel (PATH_MAX); "." is base itself,
 * "" reads "/".  Returns 0 or ENAMETOOLONG. */
int kbnfs_join(char *buf, const char *base, size_t blen, const char *rel);

/* buf = the client's tree (or DIR when shared) joined with the arena's
 * path at off.  Returns kbnfs_join's. */
int kbnfs_path_of(struct nfs_client *nc, char *buf, int shared, uint32_t off,
		  const struct backend_ctx *c);

/* op's handle when it is open, else NULL. */
struct nfs_handle *kbnfs_handle(struct backend_ctx *c, const struct op *op);

/* A directory at path: 0, ENOTDIR, or the lookup's error. */
int kbnfs_is_dir(struct backend_ctx *c, const char *path);

/* Before h is closed: UNLOCK the whole file, what a kernel client sends
 * when a process closes a file it holds locks on.  Returns 0 or an errno. */
int kbnfs_nlm_unlock_all(struct backend_ctx *c, struct nfs_handle *h);

/* LockX and UnlockX over NLM (backend_fn). */
int kbnfs_lockx(struct backend_ctx *c, const struct op *op, uint64_t *bytes);
int kbnfs_unlockx(struct backend_ctx *c, const struct op *op, uint64_t *bytes);

/* What kbnfs_rm_tree does with a symbolic link it meets: during the run (a
 * loadfile's Deltree) it is removed as a link, as fileio does; at the
 * cleanup it is left and named, for the run never makes one: someone put
 * it there, and the run's ops may have gone through it. */
struct rm_links {
	const char *cmd;       /* NULL: remove links; else name them, keep them */
	const char *shown;     /* DIR as the server names it */
	size_t dirlen;         /* the length of DIR's path in buf */
};

/* The tree at buf (length len, room PATH_MAX; restored on return)
 * removed depth first, then itself unless keep_top; a symbolic link met
 * is removed or left as lk says, never followed.  A missing path is no
 * error.  Returns 0, or libnfs's result (< 0) of the first failure. */
int kbnfs_rm_tree(struct nfs_context *nfs, char *buf, size_t len, int keep_top,
		  const struct rm_links *lk);

/* Check every component of path ("" or "/a/b", absolute in the export):
 * a directory, not a symbolic link.  Returns 0; -ELOOP with *bad set to
 * the length of the prefix that is a link; -ENOTDIR for one that is not a
 * directory (also *bad); or libnfs's error for the lookup that failed. */
int kbnfs_nolink_path(struct nfs_context *nfs, const char *path, size_t *bad);

/* DIR (t->dir) goes through no link, and the client trees are the run's:
 * trees_claim() over the protocol.  Returns 0, or KB_EXIT_USAGE after one
 * line on stderr. */
int kbnfs_claim_trees(struct nfs_context *nfs, struct nfs_target *t, unsigned nclients,
		      const char *cmd);

/* The port an NFS server is reached on when --nfs names none (RFC 1813's
 * 2049). */
#define NFS_PORT "2049"
/* backend.h's check and endpoint of -B nfs (nfs_export.c): --nfs's form
 * (nfs://SERVER[:PORT]/EXPORT, its version=, nfsport=), -x and -S
 * refused, -D a path inside the export; the server's host and port.
 * These and the other hooks of nfs_backend, each what backend.h says. */
BACKEND_HOOKS(nfs);

#endif
