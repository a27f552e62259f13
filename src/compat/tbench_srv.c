/* kbench - the tbench_srv personality: its command line as kbench server's
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * usage: tbench_srv [-t OPTIONS] [-p PORT]
 *
 * Debian's tbench_srv takes -t, dbench's socket option words, and listens
 * on port 7003 on every address; -p PORT (also kbench server's) moves it.
 * Other arguments are ignored, as tbench_srv ignores them.
 * The server itself is kbench server: a process per connection, the same
 * protocol (load/backend/tbproto.h), requests bounded at 70,000 bytes as
 * tbench_srv's buffer is.
 */
#include "config.h"
#include "cli.h"
#include "commands.h"
#include "compat/compat.h"

#include <popt.h>
#include <stdlib.h>

int compat_tbench_srv(int argc, char **argv)
{
	char *tcp = NULL, *tcp_long = NULL, *port = NULL;
	struct poptOption options[] = {
		{ NULL, 't', POPT_ARG_STRING, &tcp, 0, "set socket options", "options" },
		{ "tcp-options", 'T', POPT_ARG_STRING, &tcp_long, 0, "set socket options (as -t)",
		  "options" },
		{ "port", 'p', POPT_ARG_STRING, &port, 0, "TCP port (default 7003)", "PORT" },
		POPT_AUTOHELP
		POPT_TABLEEND
	};
	const char *tool = "tbench_srv";
	poptContext ctx = poptGetContext(tool, argc, (const char **)argv, options, 0);
	poptSetOtherOptionHelp(ctx, "[-t OPTIONS] [-p PORT]");
	/* tbench_srv reads no argument but its options and ignores the rest */
	int status = cli_popt_done(ctx, tool, cli_popt_next_last(ctx, options));
	struct argvec a = { 0 };
	if (!status) {
		av_push(&a, tool);
		if (port) {
			av_push(&a, "--port");
			av_push(&a, port);
		}
		if (tcp || tcp_long) {
			av_push(&a, "-T");
			av_push(&a, tcp_long ? tcp_long : tcp);
		}
		status = compat_run(tool, cmd_server, &a);
	}
	av_free(&a);
	free(tcp);
	free(tcp_long);
	free(port);
	poptFreeContext(ctx);
	return status;
}
