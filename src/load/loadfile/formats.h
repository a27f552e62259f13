/* kbench - the loadfile format readers, a file a format
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Each is a row of the driver's table (readers[] in loadfile.c), built
 * on the helpers of lfparse.h: fmt_dbench4.c reads dbench 4 (and 3)
 * lines and dbench 2's older form of them, fmt_dbench1.c dbench 1's SMB
 * trace.  A new format is a new fmt_*.c, its reader here and a row in
 * readers[].
 */
#ifndef KBENCH_LOAD_FORMATS_H
#define KBENCH_LOAD_FORMATS_H

#include "load/loadfile/parser.h"

extern const struct lf_reader lf_reader_dbench4, lf_reader_dbench2;  /* fmt_dbench4.c */
extern const struct lf_reader lf_reader_dbench1;                     /* fmt_dbench1.c */

#endif
