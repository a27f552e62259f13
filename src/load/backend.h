/* kbench - replay backends: a table of functions indexed by opcode
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A backend carries out one op for one client.  It must not allocate,
 * parse strings or look anything up by name: everything it needs is in
 * the op, the program's arena and the client's context.  Only the POSIX
 * file backend (fileio.c, dbench's "fileio" semantics) exists so far.
 */
#ifndef KBENCH_BACKEND_H
#define KBENCH_BACKEND_H

#include <stdint.h>
#include "load/program.h"

/* Options that change how ops are carried out (kbench load -s -S -F -x). */
struct backend_opts {
	int sync_open;   /* -s: open files with O_SYNC */
	int sync_dirs;   /* -S: fsync the parent directory after a namespace change */
	int fsync_write; /* -F: fsync after every WriteX */
	int xattr;       /* -x: keep DOS attributes in the user.DosAttrib xattr */
};

/* One client's state as the backend sees it. */
struct backend_ctx {
	int dirfd;                      /* the client's tree, DIR/clients/clientK */
	int rootfd;                     /* the run directory DIR */
	int *fds;                       /* handle index -> fd, -1 if not open */
	uint32_t nhandles;
	char *iobuf;                    /* at least prog->max_io bytes */
	char *dentbuf;                  /* FIND_FIRST directory buffer */
	size_t dentbuf_len;
	const struct program *prog;
	const struct backend_opts *opts;
};

/* Not an errno: a ReadX or WriteX moved another number of bytes than its
 * loadfile line's ret_size (dbench's fileio calls that a failed read). */
#define BE_ESHORT 0x10000
/* Not an errno: NTCreateX opened something that is neither a regular
 * file nor a directory (a device node, a FIFO); it is closed unused. */
#define BE_ENOTREG 0x10001

/* Carry out op.  Returns 0 if it succeeded or a positive errno value if
 * it failed (EBADF for a handle that is not open, EXDEV for a path that
 * would cross into another mount, BE_ESHORT for a short transfer,
 * BE_ENOTREG for an open of a device node or FIFO).
 * *bytes receives the bytes the op moved as dbench counts them (the
 * requested ReadX/WriteX size), 0 for other ops and for failures. */
typedef int (*backend_fn)(struct backend_ctx *c, const struct op *op, uint64_t *bytes);

struct backend {
	const char *name;
	backend_fn op[OP_COUNT];   /* Sleep has none: the client loop waits,
				    * since only it knows the stop flag and
				    * the other clients of its process */
};

/* The POSIX file backend: open/pread/pwrite/rename/... relative to the
 * client's directory fd, never following symbolic links. */
extern const struct backend fileio_backend;

/* What an op's result means, for reports: strerror(), but for BE_ESHORT
 * "moved another size than the line's ret_size" and for EXDEV "crosses
 * into another mount (left alone)".  Returns a static string. */
const char *backend_strerror(int err);

/* Close every open handle of the context. */
void backend_close_all(struct backend_ctx *c);

#endif
