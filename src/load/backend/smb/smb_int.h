/* kbench - -B smb: what its parts share (smb_ops.c, smb.c, smb_share.c,
 * smb_clean.c, smb_lib.c); only with libsmbclient (HAVE_LIBSMBCLIENT)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Top to bottom (each file calls only those below it): smb_ops.c: the
 * ops and the backend's row; smb.c: each client's connection, its
 * handles' close and its end; smb_share.c: the target (--smb-share,
 * --smb-user, -D) checked and reached once in prepare(); smb_clean.c:
 * what was there before the run, the client trees, the removal of a tree
 * (Deltree and the cleanup); smb_lib.c: the library's table and loader,
 * URLs, contexts, errors.
 */
#ifndef KBENCH_LOAD_SMB_INT_H
#define KBENCH_LOAD_SMB_INT_H

#include <limits.h>
#include <stddef.h>
#include <time.h>
#include <libsmbclient.h>
#include "load/backend/backend.h"
#include "load/backend/smb/smb_opts.h"
#include "load/backend/trees.h"
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

DYNLIB_TABLE(libsmb_fns, LIBSMB_FUNCTIONS);
extern struct libsmb_fns libsmb;

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

#define SC(c) ((struct smb_client *)(c)->priv)

/* dlopen libsmbclient and fill libsmb, once.  Returns 0, or -1 after one
 * line on stderr naming the library and dlerror(). */
int libsmb_load(const char *cmd);

/* Append s to buf (length *len, capacity URL_MAX) with the characters
 * libsmbclient's URL parser would take for syntax ('%', '?') escaped.
 * Returns 0, or ENAMETOOLONG. */
int smb_url_append(char *buf, size_t *len, const char *s);

/* buf = the client's tree (or DIR when shared) + "/" + path ("." is the
 * base itself).  Returns 0 or ENAMETOOLONG. */
int smb_url_of(struct smb_client *sc, char *buf, int shared, const char *path);

/* A context of its own for t: its server cache, hence its own
 * connection.  Returns it, or NULL with errno. */
SMBCCTX *smb_new_context(struct smb_target *t);

/* 1 when errno value e means the connection is gone (or the server
 * stalled past the timeout), else 0. */
int smb_lost(int e);

/* The errno of a failed libsmbclient call (ETIMEDOUT once sockwatch shut
 * the connection), c->dead set when the connection is lost. */
int smb_fail(struct backend_ctx *c);

/* Remove the tree at url (length len, room URL_MAX; restored on return):
 * its entries depth first, then itself unless keep_top.  With t (the
 * cleanup), an entry the server says was made before the run began
 * (t->since) is neither entered nor removed but named on stderr (cmd),
 * and the sweep goes on past an error; without t (Deltree), url may be a
 * file, which is unlinked, and the first error stops it.  *dead is set
 * when the connection is lost.  Returns 0 or the first errno (ENOENT is
 * none; EEXIST for what was left). */
int smb_tree_rm(SMBCCTX *x, const struct smb_target *t, char *url, size_t len, int keep_top,
		int *dead, const char *cmd);

/* -D: the names in DIR before the run (t->noted), so that the cleanup can
 * name what appeared there.  Returns 0, or an errno. */
int smb_note_dir(SMBCCTX *x, struct smb_target *t);

/* After the run with -D: name on stderr (cmd) what is in DIR now and was
 * not before (the loadfile's shared paths, or another writer): it stays. */
void smb_say_new_names(SMBCCTX *x, const struct smb_target *t, const char *cmd);

/* t->since: when the run began on the server's clock, the creation time
 * of the first directory it made (DIR, DIR/clients or a client's tree). */
void smb_note_since(SMBCCTX *x, struct smb_target *t);

/* The nclients client trees under DIR made the run's: trees_claim() over
 * the protocol (t->trees).  Returns trees_claim's status (trees.h). */
int smb_claim_trees(SMBCCTX *x, struct smb_target *t, unsigned nclients, const char *cmd);

/* Close h's file (if any) and mark it unused. */
void smb_unbind(struct smb_client *sc, struct smb_handle *h);

/* The port an SMB server is reached on when --smb-share names none (SMB
 * over TCP's 445, MS-SMB2's direct TCP transport). */
#define SMB_PORT 445u
/* backend.h's check and endpoint of -B smb (smb_share.c): the share's
 * form, the login (--smb-user or --smb-user-file, read; or $USER), -D,
 * -s -S -F -x refused; the server's host and port.  These and the
 * other hooks of smb_backend, each what backend.h says. */
BACKEND_HOOKS(smb);

#endif
