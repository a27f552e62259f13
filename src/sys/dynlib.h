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

#endif
