/* kbench - shared objects loaded at run time, only when they are needed
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A backend whose library is big (libsmbclient and its ~100 Samba objects,
 * libnfs) loads it with dlopen when it is chosen, not at every start: a
 * library linked into the binary has its relocations written at start-up
 * (-z now, RELRO), and every forked load client inherits those dirty pages,
 * whether it uses the library or not.  The backend keeps a table of
 * function pointers, filled once through dynlib_sym() (DYNLIB_LOADER
 * below; see nfs_lib.c, smb_lib.c).
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

/* A library's table, written once for every backend that dlopens one.
 * FUNCTIONS(X) names each function of the library once, X(name) ...;
 * DYNLIB_TABLE(TAG, FUNCTIONS) is struct TAG, a pointer a function,
 * typed from the library's own header (a direct call would not link);
 * DYNLIB_LOADER(FN, TABLE, FUNCTIONS, SONAME, WHAT) defines
 * int FN(const char *cmd), which fills TABLE through dynlib_load the
 * first time and returns 0, or -1 after one line on stderr. */
#define DYNLIB_POINTER_(name) __typeof__(name) *name;
#define DYNLIB_NAME_(name) #name,
#define DYNLIB_SET_(name) t_->name = (__typeof__(t_->name))addr_[i_++];
#define DYNLIB_TABLE(tag, FUNCTIONS) struct tag { FUNCTIONS(DYNLIB_POINTER_) }
#define DYNLIB_LOADER(fn, table, FUNCTIONS, soname, what)				\
	int fn(const char *cmd)								\
	{										\
		static const char *const names_[] = { FUNCTIONS(DYNLIB_NAME_) };	\
		static void *h_;							\
		void *addr_[sizeof(names_) / sizeof(names_[0])];			\
		__typeof__(&(table)) t_ = &(table);					\
		size_t i_ = 0;								\
		int rc_ = dynlib_load(&h_, soname, names_, addr_,			\
				      sizeof(addr_) / sizeof(addr_[0]), cmd, what);	\
		if (rc_)								\
			return rc_ < 0 ? -1 : 0;					\
		FUNCTIONS(DYNLIB_SET_)							\
		return 0;								\
	}

#endif
