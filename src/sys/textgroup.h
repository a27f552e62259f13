/* kbench - the code a load client runs, kept together in the binary
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The kernel maps a file's pages around each one a process first touches
 * (fault-around, 64 KiB by default), so a client that runs a few dozen
 * functions scattered over kbench's ~460 KiB of text has most of it in
 * its RSS, and the run's PSS holds every page any of its processes
 * touched.  The functions of a client's replay loop (client.c, the fileio
 * backend, the program's reader and decoder, the recorder, the tree
 * helpers they call) are placed in one section, .text.hot.kbench_client,
 * which the linker's default script puts together ahead of .text: a
 * client touches some tens of KiB of kbench's text instead.  Nothing
 * else changes: it is placement only, not an optimisation hint.
 */
#ifndef KBENCH_TEXTGROUP_H
#define KBENCH_TEXTGROUP_H

/* Put the function it starts the definition of with a client's code. */
#define KB_CLIENT_TEXT __attribute__((section(".text.hot.kbench_client")))

#endif
