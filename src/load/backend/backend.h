/* kbench - replay backends: a table of functions indexed by opcode
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A backend carries out one op for one client.  It must not allocate,
 * parse strings or look anything up by name: everything it needs is in
 * the op, the program's arena and the client's context.
 *
 * Backends are rows of backends[] (backend.c), chosen with -B NAME.  A
 * backend is "local" (BACKEND_LOCAL: it works in the directory DIR on this
 * machine, which load.c checks, notes and cleans up) or reaches a server
 * (its prepare() checks the target before any fork, its cleanup() removes
 * what the run made there).  The POSIX file backend is fileio.c.
 */
#ifndef KBENCH_BACKEND_H
#define KBENCH_BACKEND_H

#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <popt.h>
#include "load/loadfile/program.h"

/* What every backend is given: the options that change how ops are
 * carried out (kbench load -s -S -F -x: each backend takes those its
 * protocol can do and refuses the others in its check), -D, and the
 * backend's own options (its struct, which its table filled: .opts_size
 * below; NULL for a backend without options). */
struct backend_opts {
	int sync_open;   /* -s: open files with O_SYNC */
	int sync_dirs;   /* -S: fsync the parent directory after a namespace change */
	int fsync_write; /* -F: fsync after every WriteX */
	int xattr;       /* -x: keep DOS attributes in the user.DosAttrib xattr */
	const char *directory;   /* -D DIR as given (a server's backend: inside its export) */
	const void *own;         /* the backend's own options, its type (NULL: none) */
	void *target;            /* what prepare() resolved, before any fork: the
				  * clients inherit it; the backend's own type */
};

/* The most bytes of a backend's own options struct, and the most rows of
 * its popt table (POPT_TABLEEND included). */
#define BACKEND_OPTS_MAX 64
#define BACKEND_OPT_ROWS 8
/* A backend's options(): its rows r (an array ending with POPT_TABLEEND)
 * copied into rows; a table longer than BACKEND_OPT_ROWS does not build. */
#define BACKEND_OPTS_COPY(rows, r)								\
	do {											\
		_Static_assert(sizeof(r) / sizeof((r)[0]) <= BACKEND_OPT_ROWS, "BACKEND_OPT_ROWS"); \
		memcpy(rows, r, sizeof(r));							\
	} while (0)
/* The most rows backends[] has. */
#define BACKENDS_MAX 8

/* One client's state as the backend sees it. */
struct backend_ctx {
	unsigned id;                    /* client number K (clients/clientK) */
	void *priv;                     /* the backend's own per-client state */
	int dead;                       /* set by an op that leaves the client
					 * unable to go on (its connection lost):
					 * the op's error is counted against its
					 * line and the client stops with it */
	int rootfd;                     /* a local backend's run directory DIR */
	uint32_t nhandles;              /* handle indexes: 0 .. nhandles-1 */
	char *iobuf;                    /* at least prog->max_io bytes */
	const struct program *prog;
	const struct backend_opts *opts;
	const volatile uint64_t *end_ns; /* the run's end, CLOCK_MONOTONIC ns (shared: a
					  * stop moves it earlier; 0 before the start,
					  * UINT64_MAX with --run-once): a backend that
					  * waits for a server waits no longer than this
					  * and a grace */
};

/* Not an errno: a ReadX or WriteX moved another number of bytes than its
 * loadfile line's ret_size (dbench's fileio calls that a failed read). */
#define BE_ESHORT 0x10000
/* Not an errno: NTCreateX opened something that is neither a regular
 * file nor a directory (a device node, a FIFO); it is closed unused. */
#define BE_ENOTREG 0x10001
/* Not an errno: a server's reply was not the size its protocol says
 * (tbench calls that "lost sync"); the client stops. */
#define BE_ELOSTSYNC 0x10002
/* Not an errno: the backend's protocol cannot express this op; it is
 * counted as unsupported, never carried out some other way. */
#define BE_EUNSUPPORTED 0x10003
/* Not an errno: the op failed as its line expects, by construction (a
 * tbench server answers every request alike, as the traced server did);
 * -B sockio returns it for lines that expect a failure. */
#define BE_ASTRACED 0x10004

/* Carry out op.  Returns 0 if it succeeded or a positive errno value if
 * it failed (EBADF for a handle that is not open, EXDEV for a path that
 * would cross into another mount, BE_ESHORT for a short transfer,
 * BE_ENOTREG for an open of a device node or FIFO).
 * *bytes receives the bytes the op moved as dbench counts them (the
 * requested ReadX/WriteX size), 0 for other ops and for failures. */
typedef int (*backend_fn)(struct backend_ctx *c, const struct op *op, uint64_t *bytes);

/* An op this backend's protocol cannot express: its row in the table, so
 * that every opcode has one (tests/unit/test_backends.c).  Returns
 * BE_EUNSUPPORTED: the client counts the op as unsupported. */
int backend_refuse(struct backend_ctx *c, const struct op *op, uint64_t *bytes);

/* The open(2) flags beyond the access mode for an NTCreateX of a file:
 * O_CREAT, O_CREAT | O_TRUNC or 0, from op->open. */
static inline int be_open_flags(const struct op *op)
{
	return (op->open & OPEN_CREAT ? O_CREAT : 0) | (op->open & OPEN_TRUNC ? O_TRUNC : 0);
}

/* A ReadX's outcome once n bytes came back: any n with OPF_ANYSIZE, else
 * exactly the line's ret_size (dbench's fileio: on a full disk every read
 * returns 0 bytes, which must not count as data moved).  Returns 0 with
 * *bytes = n, or BE_ESHORT. */
static inline int be_read_done(const struct op *op, uint64_t n, uint64_t *bytes)
{
	if (!(op->flags & OPF_ANYSIZE) && n != op->ret)
		return BE_ESHORT;
	*bytes = n;
	return 0;
}

/* A WriteX's outcome once its len bytes were written: a line whose
 * ret_size is another size fails.  Returns 0 with *bytes = len, or
 * BE_ESHORT. */
static inline int be_write_done(const struct op *op, uint64_t *bytes)
{
	if (op->ret != op->len)
		return BE_ESHORT;  /* the line expects another size written */
	*bytes = op->len;
	return 0;
}

#define BACKEND_LOCAL 0x1   /* works in a local DIR (load.c's directory steps) */

struct backend {
	const char *name;          /* -B NAME, and the JSON's "backend" */
	const char *help;          /* one line for -B's list */
	unsigned flags;            /* BACKEND_* */
	const char *missing;       /* non-NULL: kbench was built without it, and
				    * this names the library (-B exits 2) */
	/* Its own options: a struct of opts_size bytes (at most
	 * BACKEND_OPTS_MAX), zeroed, that options() points the rows of its
	 * popt table at (at most BACKEND_OPT_ROWS, the last POPT_TABLEEND;
	 * each a string or a flag with a long name).  kbench load's table
	 * includes them under opts_heading, and so kbench suite passes them
	 * on (load/options/options.h); the backend reads them in o->own.  NULL: it
	 * has none. */
	size_t opts_size;
	void (*options)(void *mine, struct poptOption *rows);
	const char *opts_heading;
	/* Its options that say who logs in, not what is measured: under
	 * --mpi each rank's own (load_opts_measure leaves them out).
	 * NULL-terminated long names ("--smb-user"); NULL: none. */
	const char *const *logins;
	const char *secret;        /* its option whose value holds a password
				    * ("--smb-user"): hidden from the process
				    * title, never shown or recorded; NULL: none */
	/* In the parent, before any fork: check the options and reach the
	 * target once (o->target may be set).  Returns 0, or KB_EXIT_USAGE
	 * after one line on stderr starting with cmd.  NULL: nothing to do. */
	int (*prepare)(struct backend_opts *o, unsigned nclients, const char *cmd);
	/* The options' forms alone, nothing reached, nothing loaded (-B's
	 * target given and well formed, no option the backend refuses): what
	 * prepare() checks first, and what kbench suite asks of a load
	 * child's command line before a series (load_args_check, options.h).
	 * Returns 0, or KB_EXIT_USAGE after one line on stderr starting with
	 * cmd.  NULL: nothing to check. */
	int (*check)(const struct backend_opts *o, const char *cmd);
	/* The server the options name, as TCP reaches it: host (hostlen
	 * bytes) and port (portlen bytes, the protocol's own when the option
	 * names none), for a caller that checks it answers before a run
	 * (kbench suite).  Only after check() passed.  Returns 0, or -1 when
	 * they do not fit.  NULL: the backend reaches no server. */
	int (*endpoint)(const struct backend_opts *o, char *host, size_t hostlen, char *port,
			size_t portlen);
	/* In the client process, before the barrier: the client's own
	 * connection and tree (c->id, c->prog, c->opts are set).  Returns 0
	 * or an errno (or BE_*) value.  NULL: nothing to do. */
	int (*client_open)(struct backend_ctx *c);
	/* Close every handle c holds open (at the end of a pass, and before
	 * client_close).  Never fails. */
	void (*close_all)(struct backend_ctx *c);
	/* In the client process at its end: what client_open made.  NULL:
	 * nothing to do. */
	void (*client_close)(struct backend_ctx *c);
	/* In the parent after the run, unless --skip-cleanup: remove what
	 * the run made on the server and nothing else.  Returns 0, or -1
	 * after a line on stderr.  NULL: nothing to do (or BACKEND_LOCAL). */
	int (*cleanup)(struct backend_opts *o, unsigned nclients, const char *cmd);
	/* In the parent at the end: release what prepare() holds.  NULL:
	 * nothing to do. */
	void (*release)(struct backend_opts *o);
	/* The target as reports and the JSON name it ("127.0.0.1:7003",
	 * "nfs://host/export"), never a password; NULL for a local one. */
	const char *(*describe)(const struct backend_opts *o);
	backend_fn op[OP_COUNT];   /* every opcode has a function, or
				    * backend_refuse for one the protocol
				    * cannot express; Sleep has none: the
				    * client loop waits, since only it knows
				    * the stop flag and the other clients of
				    * its process */
};

/* Every backend this kbench knows, built in or not, NULL-terminated;
 * backends[0] is the default (fileio). */
extern const struct backend *const backends[];

/* The backend called name, or NULL for a name no row has. */
const struct backend *backend_find(const char *name);

/* The POSIX file backend: open/pread/pwrite/rename/... relative to the
 * client's directory fd, never following symbolic links. */
extern const struct backend fileio_backend;
/* Directory fds each fileio client keeps open at most (its cache of the
 * directories of its tree, fileio.c), besides one fd per handle. */
#define FILEIO_DIRCACHE_MAX 256u

/* tbench's network load (sockio.c): one TCP connection per client to
 * --server, one request and reply per op, with dbench's sizes. */
extern const struct backend sockio_backend;
/* NFSv3 through libnfs (nfs.c and its parts); .missing when built without it. */
extern const struct backend nfs_backend;
/* SMB through libsmbclient (smb.c and its parts): one context and connection per
 * client; .missing is "libsmbclient" when kbench was built without it. */
extern const struct backend smb_backend;

/* The hooks of a backend whose files are more than one (nfs, smb): P_check,
 * P_endpoint, P_prepare, P_cleanup, P_release, P_describe, P_client_open,
 * P_close_all and P_client_close, each what struct backend's member of
 * that name says; its shared header declares them with BACKEND_HOOKS(P)
 * and its row names them. */
#define BACKEND_HOOKS(p)									\
	int p##_check(const struct backend_opts *o, const char *cmd);				\
	int p##_endpoint(const struct backend_opts *o, char *host, size_t hostlen, char *port,	\
			 size_t portlen);							\
	int p##_prepare(struct backend_opts *o, unsigned nclients, const char *cmd);		\
	int p##_cleanup(struct backend_opts *o, unsigned nclients, const char *cmd);		\
	void p##_release(struct backend_opts *o);						\
	const char *p##_describe(const struct backend_opts *o);					\
	int p##_client_open(struct backend_ctx *c);						\
	void p##_close_all(struct backend_ctx *c);						\
	void p##_client_close(struct backend_ctx *c)

/* What an op's result means, for reports: strerror(), but for BE_ESHORT
 * "moved another size than the line's ret_size", for EXDEV "crosses into
 * another mount (left alone)", and the other BE_* values' meanings.
 * Returns a static string. */
const char *backend_strerror(int err);

#endif
