/* kbench - kbench load as the rest of kbench sees it: its one front door
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Nothing outside src/load includes a header of a folder inside it: what
 * load offers is this header, and the headers it names below are the
 * parts of load the others use, each for the reason given.  kbench suite
 * runs kbench load as a child: it takes load's options (struct load_opts
 * and its table of options passed through, options/options.h; a backend's
 * password kept out of the process title, options/optrows.h), checks a
 * child's command line as load would (load_args_check), knows load's
 * rules, defaults and the keys of its JSON document (rules.h), the
 * loadfile's largest I/O (below) and the names of the client trees a
 * failed child may leave (backend/trees.h).  kbench server speaks the
 * tbench protocol load's sockio backend speaks (backend/tbproto.h).
 */
#ifndef KBENCH_LOAD_H
#define KBENCH_LOAD_H

#include <stdint.h>

#include "load/rules.h"
#include "load/options/options.h"
#include "load/options/optrows.h"
#include "load/backend/trees.h"
#include "load/backend/tbproto.h"

/* The largest ReadX or WriteX of the loadfile at path (NULL: the one
 * kbench load reads without -c, load_loadfile_path), in bytes, into
 * *max_io: what --mem-limit's floor needs (load_mem_floor).  The file is
 * read and compiled as kbench load would (its format told by its first
 * line).  Returns 0, or -1 when it cannot be read or compiled (the caller
 * says so in its own words). */
int load_loadfile_max_io(const char *path, uint32_t *max_io);

#endif
