/* kbench - shared objects loaded at run time, only when they are needed
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A backend whose library is big (libsmbclient and its ~100 Samba objects,
 * libnfs) loads it with dlopen when it is chosen, not at every start: a
 * library linked into the binary has its relocations written at start-up
 * (-z now, RELRO), and every forked load client inherits those dirty pages,
 * whether it uses the library or not.  The backend keeps a table of
 * function pointers, filled once through dynlib_sym() (see nfs.c, smb.c).
 */
#ifndef KBENCH_DYNLIB_H
#define KBENCH_DYNLIB_H

#include <stddef.h>

/* Open the shared object soname (a file name the dynamic linker looks
 * up as it does a linked library's, e.g. "libnfs.so.13") with
 * RTLD_NOW | RTLD_LOCAL: every symbol of it is bound here, in the caller,
 * so a process forked later runs no lazy binding.  Returns the handle
 * (never closed), or NULL after one line on stderr:
 * "CMD: WHAT: cannot load SONAME: <dlerror>". */
void *dynlib_open(const char *soname, const char *cmd, const char *what);

/* The address of the function name in handle h (from dynlib_open of
 * soname), or NULL after one line on stderr:
 * "CMD: WHAT: SONAME has no NAME: <dlerror>". */
void *dynlib_sym(void *h, const char *soname, const char *name, const char *cmd,
		 const char *what);

/* A backend's library and its table, loaded once: with *h NULL, open
 * soname (dynlib_open) and resolve each of the n function names[] into
 * addr[] (dynlib_sym); *h is set only when all were found.  Returns 0
 * when addr[] was just filled (the caller copies it into its table), 1
 * when *h was already set (nothing done), -1 after one line on stderr as
 * the two above say. */
int dynlib_load(void **h, const char *soname, const char *const *names, void **addr, size_t n,
		const char *cmd, const char *what);

#endif
