/* kbench - give back the pages of files mapped read-only that a process
 * no longer needs resident
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Start-up touches pages of every mapped library that the rest of a run
 * never uses again: the dynamic linker reads each library's symbol tables
 * and runs its IFUNC resolvers (libm's run over some 250 KiB of its text),
 * option parsing and the loadfile's parse run code of kbench's own that a
 * run does not need after.  Those pages stay mapped, and counted in the
 * process's RSS and PSS, until it exits.  filepages_drop() unmaps them
 * from this process (madvise MADV_DONTNEED): the pages stay in the page
 * cache, shared with whoever else maps them, and what is used again
 * comes back on its first touch (a minor fault, no I/O).  The same call
 * gives back the stack below its caller's frame: the deep calls before
 * (start-up, option parsing, the set-up; some 60 KiB) leave it dirty, and
 * a process forked after would carry those pages too.
 */
#ifndef KBENCH_FILEPAGES_H
#define KBENCH_FILEPAGES_H

#include <stddef.h>

/* Bytes of the stack below the caller's frame that filepages_drop keeps:
 * room for its own calls and the red zone. */
#define FILEPAGES_STACK_KEEP (16 * 1024)

/* Drop the resident pages of every private mapping of a file that is not
 * writable and holds no anonymous (copied-on-write) page, as
 * /proc/self/smaps shows them at the call: text and read-only data of
 * the binary and its libraries; never a mapping that was written to
 * (RELRO after relocation, .data), shared mappings, the heap or the
 * stack.  Call it single-threaded.  *dropped (may be NULL) gets the
 * bytes that were resident in the mappings dropped (their Rss).
 * Returns 0, or -1 with errno set when /proc/self/smaps cannot be read
 * (nothing dropped then); a mapping madvise refuses is left as it is. */
int filepages_drop(size_t *dropped);

#endif
