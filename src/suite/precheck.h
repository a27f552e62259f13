/* kbench - suite: what every job needs, checked before the first run
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A series that cannot succeed says so before it starts: for every job
 * of s (jobs_build has made them), the memory its child needs under its
 * --mem-limit, the memory controller that limit needs, the disk, the
 * server of a network load job, and the tools a micro test needs.
 */
#ifndef KBENCH_PRECHECK_H
#define KBENCH_PRECHECK_H

#include "suite/suite.h"

/* The port a network job's server is reached on when its option names
 * none: sockio's is tbench's (dbench's tbench_srv listens on 7003); NFS
 * 2049 (RFC 7530); SMB over TCP 445 (MS-SMB2, direct TCP transport). */
#define PRECHECK_SOCKIO_PORT "7003"
#define PRECHECK_NFS_PORT "2049"
#define PRECHECK_SMB_PORT "445"

/* The host and port of a network load job's server from s's options:
 * --server HOST[:PORT] ([V6ADDR]:PORT too), --nfs nfs://SERVER[:PORT]/...
 * (its nfsport= comes first: the port libnfs connects to),
 * --smb-share //SERVER/SHARE.  Fills host and port (hostlen, portlen
 * bytes) and returns 1; 0 when no network backend is named; -1 when the
 * option's form is wrong (host empty). */
int precheck_server(const struct suite *s, char *host, size_t hostlen, char *port,
		    size_t portlen);

/* Check every job of s.  The memory controller is found (s->memcg_site,
 * have_memcg_site) when a job has a size as its limit.  Returns 0, or
 * KB_EXIT_USAGE after one line "CMD: JOB: what is missing; nothing was
 * run" naming the first job that cannot run. */
int precheck_jobs(struct suite *s);

#endif
