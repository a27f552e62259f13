/* kbench - /proc/self/mountinfo: one parser for every reader of it
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The line format is proc(5)'s: "ID PARENT MAJ:MIN ROOT POINT OPTIONS
 * [OPTIONAL...] - FSTYPE SOURCE SUPER_OPTIONS", with blanks, tabs,
 * newlines and backslashes in the path fields written as octal escapes
 * (\040 ...).  The parser is pure (a string in, a struct out) so unit
 * tests can feed it any line.
 */
#ifndef KBENCH_MOUNTINFO_H
#define KBENCH_MOUNTINFO_H

#include <limits.h>
#include <stddef.h>

/* One mountinfo line, octal escapes undone in every field kept. */
struct mountinfo {
	char root[PATH_MAX];     /* the part of the file system the mount shows */
	char point[PATH_MAX];    /* where it is mounted */
	char opts[256];          /* per-mount options: "rw,relatime" */
	char fstype[32];         /* "ext4", "cgroup", "cgroup2", ... */
	char source[256];        /* "/dev/vda", "tmpfs", ... */
	char super_opts[256];    /* super-block options: "rw,memory" for v1 */
};

/* Parse one line (with or without its newline) into *m.  Returns 0, or
 * -1 if the line is malformed (fewer than six fields before the " - "
 * separator, none after it) or a field does not fit its buffer. */
int mountinfo_parse_line(const char *line, struct mountinfo *m);

/* The mount that holds dir: of /proc/self/mountinfo's lines, the last one
 * whose mount point is the longest prefix (by path components) of dir's
 * real path.  Returns 0 with *m filled, or -1 with errno (dir cannot be
 * resolved, mountinfo cannot be read, or no line matches: ENOENT). */
int mountinfo_find(const char *dir, struct mountinfo *m);

#endif
