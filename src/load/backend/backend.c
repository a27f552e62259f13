/* kbench - the table of replay backends and what they share
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"
#include "load/backend/backend.h"

#include <errno.h>
#include <string.h>

const struct backend *const backends[] = {
	&fileio_backend,
	&sockio_backend,
	&nfs_backend,
	&smb_backend,
	NULL,
};

int backend_refuse(struct backend_ctx *c, const struct op *op, uint64_t *bytes)
{
	(void)c;
	(void)op;
	(void)bytes;
	return BE_EUNSUPPORTED;
}

const struct backend *backend_find(const char *name)
{
	for (size_t i = 0; backends[i]; i++)
		if (!strcmp(backends[i]->name, name))
			return backends[i];
	return NULL;
}

const char *backend_strerror(int err)
{
	switch (err) {
	case BE_ESHORT:
		return "moved another size than the line's ret_size";
	case BE_ENOTREG:
		return "not a regular file or directory (left alone)";
	case BE_ELOSTSYNC:
		return "the server's reply had another size than asked for (lost sync)";
	case BE_EUNSUPPORTED:
		return "not supported by this backend's protocol";
	case BE_ASTRACED:
		return "failed as the line expects (the tbench server answers as traced)";
	case EXDEV:
		return "crosses into another mount (left alone)";
	default:
		return strerror(err);
	}
}
