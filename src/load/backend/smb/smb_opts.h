/* kbench - -B smb's own options, the share and the login: what its parts share of them
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Apart from smb_int.h because it needs no libsmbclient: a kbench built
 * without it still has the options' rows (the backend's row says what is
 * missing), so --help and kbench suite know them either way.
 */
#ifndef KBENCH_LOAD_SMB_OPTS_H
#define KBENCH_LOAD_SMB_OPTS_H

#include <popt.h>
#include "load/backend/backend.h"

/* -B smb's options as given (backend.h: its opts_size, o->own; NULL when
 * not given). */
struct smb_opts {
	char *share;       /* --smb-share //SERVER[:PORT]/SHARE */
	char *user;        /* --smb-user [DOMAIN/]USER%PASSWORD (the secret) */
	char *user_file;   /* --smb-user-file FILE (smbclient -A's form) */
};

#define SMB_OPTS_HEADING "-B smb's options:"
#define SMB_SECRET "--smb-user"

/* The options that say who logs in (backend.h's logins). */
extern const char *const smb_logins[];

/* backend.h's options(): the rows of -B smb's options into mine, a
 * struct smb_opts. */
void smb_options(void *mine, struct poptOption *rows);

/* The head of smb_backend's row, the same whether kbench was built with
 * libsmbclient (smb_ops.c's row) or without it (smb.c's, which adds
 * .missing): its name, help, options and logins. */
#define SMB_BACKEND_ROW								\
	.name = "smb", .help = "SMB2/3 through libsmbclient (--smb-share //SERVER/SHARE)",	\
	.opts_size = sizeof(struct smb_opts), .options = smb_options,		\
	.opts_heading = SMB_OPTS_HEADING, .logins = smb_logins, .secret = SMB_SECRET

/* o's own options, -B smb's. */
static inline const struct smb_opts *smb_opts_of(const struct backend_opts *o)
{
	return o->own;
}

#endif
