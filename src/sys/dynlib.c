/* kbench - shared objects loaded at run time (dlopen), with one line on
 * failure
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"
#include "sys/dynlib.h"

#include <dlfcn.h>
#include <stdio.h>

void *dynlib_open(const char *soname, const char *cmd, const char *what)
{
	dlerror();
	void *h = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		const char *e = dlerror();
		fprintf(stderr, "%s: %s: cannot load %s: %s\n", cmd, what, soname,
			e ? e : "dlopen failed");
	}
	return h;
}

void *dynlib_sym(void *h, const char *soname, const char *name, const char *cmd,
		 const char *what)
{
	dlerror();
	void *p = dlsym(h, name);
	if (!p) {
		const char *e = dlerror();
		fprintf(stderr, "%s: %s: %s has no %s: %s\n", cmd, what, soname, name,
			e ? e : "a null address");
	}
	return p;
}

int dynlib_load(void **h, const char *soname, const char *const *names, void **addr, size_t n,
		const char *cmd, const char *what)
{
	if (*h)
		return 1;
	void *so = dynlib_open(soname, cmd, what);
	if (!so)
		return -1;
	for (size_t i = 0; i < n; i++)
		if (!(addr[i] = dynlib_sym(so, soname, names[i], cmd, what)))
			return -1;
	*h = so;
	return 0;
}
