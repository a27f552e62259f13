/* kbench - the commands: one function each, found by name in kbench.c
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every command takes its own argument vector, argv[0] being "kbench
 * NAME", parses it with popt and returns the process's exit status:
 * KB_EXIT_OK (0), KB_EXIT_FAIL (1: the run failed or found errors),
 * KB_EXIT_USAGE (2: bad input, nothing ran) or 128 + the signal that
 * stopped it (cli.h).  Each is defined in the file that opens with its
 * usage line.
 */
#ifndef KBENCH_COMMANDS_H
#define KBENCH_COMMANDS_H

int cmd_load(int argc, const char **argv);     /* src/load/load.c */
int cmd_disk(int argc, const char **argv);     /* src/disk/disk.c */
int cmd_micro(int argc, const char **argv);    /* src/micro/micro.c */
int cmd_suite(int argc, const char **argv);    /* src/suite/suite.c */
int cmd_compare(int argc, const char **argv);  /* src/compare/compare.c */
int cmd_import(int argc, const char **argv);  /* src/import/import.c */
int cmd_server(int argc, const char **argv);   /* src/server/server.c */
int cmd_record(int argc, const char **argv);   /* src/record/record.c */

#endif
