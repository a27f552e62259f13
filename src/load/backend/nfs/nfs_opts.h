/* kbench - -B nfs's own option, --nfs: what its parts share of it
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Apart from nfs_int.h because it needs no libnfs: a kbench built
 * without it still has the option's row (the backend's row says what is
 * missing), so --help and kbench suite know it either way.
 */
#ifndef KBENCH_LOAD_NFS_OPTS_H
#define KBENCH_LOAD_NFS_OPTS_H

#include <popt.h>
#include "load/backend/backend.h"

/* -B nfs's options as given (backend.h: its opts_size, o->own). */
struct nfs_opts {
	char *url;   /* --nfs nfs://SERVER/EXPORT[?OPTIONS] */
};

#define NFS_OPTS_HEADING "-B nfs's options:"

/* backend.h's options(): the rows of --nfs into mine, a struct nfs_opts. */
void nfs_options(void *mine, struct poptOption *rows);

/* The head of nfs_backend's row, the same whether kbench was built with
 * libnfs (nfs_ops.c's row) or without it (nfs.c's, which adds .missing):
 * its name, help and options. */
#define NFS_BACKEND_ROW							\
	.name = "nfs", .help = "an NFS export (--nfs), through libnfs",	\
	.opts_size = sizeof(struct nfs_opts), .options = nfs_options,	\
	.opts_heading = NFS_OPTS_HEADING

/* --nfs's URL as given (NULL when not given). */
static inline const char *nfs_url(const struct backend_opts *o)
{
	return ((const struct nfs_opts *)o->own)->url;
}

#endif
