/* kbench - micro: lmbench 2's lat_rpc, a null ONC RPC call on loopback
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * lat_rpc_udp, lat_rpc_tcp (us): one call of a remote procedure that
 *   takes one char and returns one char (lmbench's RPC_XACT: the client
 *   sends 1, the server answers 123, which is checked), over UDP or over
 *   TCP on 127.0.0.1, through libtirpc's clnt_call() and a server in a
 *   child process running svc_run(); one operation = one call and its
 *   reply.  As lmbench 2 does, the UDP client retries after 2.5 ms
 *   without an answer; the whole call may wait 5 s (lmbench: 25 ms)
 *   before the test fails, so a busy machine slows the figure instead of
 *   failing it.  lmbench registers its server with the portmapper and the
 *   client asks it for the port; here the server's socket is made before
 *   the fork and the client is given its port, so no rpcbind is needed and
 *   nothing is registered on the machine (the timed calls are the same).
 *   Placed as the other tests between processes (place.h): the server is
 *   the partner.  Built only with libtirpc's headers (configure:
 *   pkg-config libtirpc); without them the rows are absent and kbench
 *   micro says why when one is named (select.c).  libtirpc is not linked:
 *   the test dlopens it (LIBTIRPC_SONAME, src/sys/dynlib.c) when it runs,
 *   since a linked libtirpc brings libgssapi_krb5, libkrb5 and four more
 *   into every kbench process, and their relocations (about 100 KiB of
 *   dirty pages) into every forked load client.
 */
#include "config.h"
#include "micro/place.h"
#include "micro/lmbench/lmbench.h"

#ifdef HAVE_LIBTIRPC
#include <errno.h>
#include <netinet/in.h>
#include <rpc/rpc.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include "sys/dynlib.h"

/* kbench's own program number (in the range for private use); the
 * procedure is lmbench's RPC_XACT */
#define RPC_PROG 0x20004b42UL
#define RPC_VERS 1UL
#define RPC_XACT 1UL
#define RPC_ANSWER 123

/* libtirpc's functions this test calls, resolved once by tirpc_load()
 * (svc_getargs, clnt_call and clnt_destroy are macros through the
 * handles' tables, not functions) */
#define TIRPC_FUNCTIONS(X)                                                       \
	X(svc_sendreply) X(svcerr_noproc) X(svcerr_decode) X(svctcp_create)        \
	X(svcudp_create) X(svc_register) X(svc_run) X(clnt_sperrno)               \
	X(clnttcp_create) X(clntudp_create) X(clnt_spcreateerror) X(xdr_void)     \
	X(xdr_char)

static struct {
#define TIRPC_FIELD(name) __typeof__(name) *name;
	TIRPC_FUNCTIONS(TIRPC_FIELD)
#undef TIRPC_FIELD
} tirpc;

/* dlopen libtirpc and fill the table, once.  Returns 0, or -1 after one
 * line on stderr naming the library and dlerror().  A build with
 * AddressSanitizer links libtirpc instead (configure: LIBTIRPC_LINKED):
 * its interceptors of the xdr functions look the real ones up once, at
 * start-up, and a libtirpc loaded later would call them through a null
 * pointer. */
static int tirpc_load(void)
{
#ifdef LIBTIRPC_LINKED
#define TIRPC_SET(name) tirpc.name = name;
	TIRPC_FUNCTIONS(TIRPC_SET)
#undef TIRPC_SET
	return 0;
#else
#define TIRPC_NAME(name) #name,
	static const char *const names[] = { TIRPC_FUNCTIONS(TIRPC_NAME) };
#undef TIRPC_NAME
	static void *h;
	void *addr[sizeof(names) / sizeof(names[0])];
	size_t i = 0;
	int rc = dynlib_load(&h, LIBTIRPC_SONAME, names, addr, sizeof(addr) / sizeof(addr[0]),
			     "kbench micro", "lat_rpc");
	if (rc)
		return rc < 0 ? -1 : 0;
#define TIRPC_SET(name) tirpc.name = (__typeof__(tirpc.name))addr[i++];
	TIRPC_FUNCTIONS(TIRPC_SET)
#undef TIRPC_SET
	return 0;
#endif
}

struct rpc_ctx {
	CLIENT *cl;
	int sock;
};

static void dispatch(struct svc_req *rq, SVCXPRT *xp)
{
	char arg = 0, answer = RPC_ANSWER;
	if (rq->rq_proc == NULLPROC) {
		/* xdr_void takes no argument: through void (*)(void), the generic type */
		tirpc.svc_sendreply(xp, (xdrproc_t)(void (*)(void))tirpc.xdr_void, NULL);
		return;
	}
	if (rq->rq_proc != RPC_XACT) {
		tirpc.svcerr_noproc(xp);
		return;
	}
	if (!svc_getargs(xp, (xdrproc_t)tirpc.xdr_char, (char *)&arg)) {
		tirpc.svcerr_decode(xp);
		return;
	}
	tirpc.svc_sendreply(xp, (xdrproc_t)tirpc.xdr_char, &answer);
}

/* The server, in the child: never returns. */
static void serve(int s, int tcp, const struct micro_opts *o)
{
	place_partner(o);
	SVCXPRT *xp = tcp ? tirpc.svctcp_create(s, 0, 0) : tirpc.svcudp_create(s);
	/* protocol 0: not registered with the portmapper */
	if (!xp || !tirpc.svc_register(xp, RPC_PROG, RPC_VERS, dispatch, 0))
		_exit(1);
	tirpc.svc_run();
	_exit(1);
}

static int run_calls(void *ctx, uint64_t n, char *why)
{
	struct rpc_ctx *c = ctx;
	struct timeval total = { 5, 0 };
	for (uint64_t i = 0; i < n; i++) {
		char arg = 1, res = 0;
		enum clnt_stat st = clnt_call(c->cl, RPC_XACT, (xdrproc_t)tirpc.xdr_char, (char *)&arg,
					      (xdrproc_t)tirpc.xdr_char, (char *)&res, total);
		if (st != RPC_SUCCESS) {
			snprintf(why, 160, "RPC call: %s", tirpc.clnt_sperrno(st));
			return -1;
		}
		if (res != RPC_ANSWER) {
			snprintf(why, 160, "RPC call: the answer was %d, not %d", res, RPC_ANSWER);
			return -1;
		}
	}
	return 0;
}

/* The server's socket on 127.0.0.1, port 0 (the kernel's choice), its
 * address in *sa.  Returns the socket or -1 with errno. */
static int server_socket(int tcp, struct sockaddr_in *sa)
{
	socklen_t len = sizeof(*sa);
	memset(sa, 0, sizeof(*sa));
	sa->sin_family = AF_INET;
	sa->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	int s = socket(AF_INET, (tcp ? SOCK_STREAM : SOCK_DGRAM), 0);
	if (s < 0)
		return -1;
	if (bind(s, (struct sockaddr *)sa, sizeof(*sa)) < 0 ||
	    (tcp && listen(s, 16) < 0) || getsockname(s, (struct sockaddr *)sa, &len) < 0) {
		int e = errno;
		close(s);
		errno = e;
		return -1;
	}
	return s;
}

int lm_lat_rpc(const struct micro_test *t, const struct micro_opts *o, struct micro_result *r)
{
	int tcp = *(const int *)t->arg == LM_TCP;
	if (tirpc_load() < 0)
		return lm_note(r, -1, "cannot load %s", LIBTIRPC_SONAME);
	struct sockaddr_in sa;
	int s = server_socket(tcp, &sa);
	if (s < 0)
		return lm_note(r, lm_resource_errno(errno) ? 0 : -1, "no %s on 127.0.0.1: %s",
			       tcp ? "TCP" : "UDP", strerror(errno));
	pid_t pid = micro_fork();
	if (pid < 0) {
		int e = errno;
		close(s);
		return lm_note(r, lm_resource_errno(e) ? 0 : -1, "fork: %s", strerror(e));
	}
	if (pid == 0)
		serve(s, tcp, o);
	close(s);
	struct rpc_ctx c = { .sock = RPC_ANYSOCK };
	struct timeval retry = { 0, 2500 };
	c.cl = tcp ? tirpc.clnttcp_create(&sa, RPC_PROG, RPC_VERS, &c.sock, 0, 0) :
		     tirpc.clntudp_create(&sa, RPC_PROG, RPC_VERS, retry, &c.sock);
	int rc;
	if (!c.cl) {
		const char *why = tirpc.clnt_spcreateerror("127.0.0.1");
		rc = lm_note(r, -1, "cannot make the RPC client: %.*s", (int)strcspn(why, "\n"),
			     why);
	} else {
		struct harness_bench b = { .run = run_calls, .ctx = &c, .unit = HARNESS_US,
					   .ops_per_iter = 1 };
		rc = harness_run(o, &b, r);
		clnt_destroy(c.cl);
	}
	kill(pid, SIGKILL);
	micro_reap(pid);
	return rc;
}

#else

/* no libtirpc: the table has no row that calls this */
int lm_lat_rpc(const struct micro_test *t, const struct micro_opts *o, struct micro_result *r)
{
	(void)t, (void)o;
	return lm_note(r, 0, "this kbench was built without libtirpc");
}

#endif
