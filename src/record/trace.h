/* kbench - kbench record's model of the traced programs
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What a replay needs to know of the programs strace watched: each
 * process's descriptor table (threads share one: CLONE_FILES), each
 * open file description (what dup and fork share: one loadfile handle
 * and one file offset), each file's content (an inode: what its name
 * holds, through renames) and each name under DIR (whether it was there
 * before the program, and as what).  Nothing here reads a file: sizes
 * come from the trace alone (fstat's st_size, the furthest byte read).
 *
 * Invariants: a handle number is bound to one open file description
 * while it is open and is given again only after its Close; an inode is
 * "original" while it still holds what the file held before the program
 * ran (no O_TRUNC, no create), and only then do reads and stat sizes
 * grow the size the setup gives it.
 */
#ifndef KBENCH_RECORD_TRACE_H
#define KBENCH_RECORD_TRACE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* what the first call that tells shows of a name */
enum name_state { NAME_UNSEEN, NAME_OLD, NAME_NEW };

struct inode {
	uint64_t init_size;   /* bytes the setup gives it (original files) */
	uint64_t size;        /* its size as the program left it, as far as seen */
	uint8_t original;     /* still what was there before the program */
	uint8_t maybe_new;    /* opened with O_CREAT alone: old only if seen to hold bytes */
	uint8_t isdir;
	uint64_t read_end;    /* the furthest byte a ReadX reads of what was there */
	struct range { uint64_t a, b; } *rd;  /* the byte ranges [a, b) ReadX reads of
					       * what was there, unsorted */
	size_t nrd, caprd;
	char *setup_name;     /* the name it had before the program (original ones) */
};

struct name {
	char *path;           /* absolute, as strace printed it */
	enum name_state state;
	uint8_t link_made;    /* made by symlink, link or mknod: no NetBench
			       * operation makes one, so the calls on it are left out */
	struct inode *ino;    /* what it holds now, or NULL when nothing */
};

struct ofd {
	int refs;             /* descriptors that point at it */
	uint32_t handle;      /* loadfile handle (0: none, not under DIR) */
	uint64_t off;         /* the file offset */
	uint8_t append;       /* O_APPEND: writes go to the end */
	uint8_t isdir;
	uint8_t link;         /* opened a link_made name: its calls are left out */
	char *path;           /* absolute path (-yy), for paths and names */
	struct inode *ino;    /* under DIR: its content */
};

struct fdtab {
	int refs;             /* processes (threads) sharing it */
	int n;                /* entries in fd[] */
	struct ofd **fd;
	uint8_t *cloexec;
};

struct proc {
	long pid;
	struct fdtab *tab;
	char *cwd;
	long parent;          /* from pass one: the pid that cloned it, or 0 */
	int share_files;      /* cloned with CLONE_FILES (a thread) */
	int seen;             /* pass two has met it */
	char *pend_name;      /* an unfinished call: its name, the text after */
	char *pend_start;     /* "name(", and its time */
	double pend_t;
};

/* The NetBench operations a recording writes, in opcodes.def's order. */
enum rec_op {
	R_NTCREATEX, R_CLOSE, R_RENAME, R_UNLINK, R_RMDIR, R_MKDIR, R_QPATHINFO,
	R_QFILEINFO, R_QFSINFO, R_SFILEINFO, R_FIND_FIRST, R_WRITEX, R_READX, R_LOCKX,
	R_UNLOCKX, R_FLUSH, R_NOPS
};
extern const char *const rec_op_name[R_NOPS];

/* Counters of what a recording did and left out. */
#define REC_KINDS 48
struct rec_kind {
	char name[96];
	uint64_t count;
};

struct rec {
	const char *dir;      /* DIR, absolute, no trailing '/' */
	size_t dirlen;
	FILE *body;           /* the program's lines (open_memstream) */
	double t0;            /* time of the first call, seconds */
	int have_t0;
	double t_last;
	/* names and inodes */
	struct name **names;  /* open-addressing hash, cap entries */
	size_t nnames, cap;
	struct inode **inodes;
	size_t ninodes, inocap;
	/* processes */
	struct proc **procs;  /* open-addressing hash by pid; each proc stays put */
	size_t nprocs, proccap;
	/* handles */
	uint8_t *hused;
	uint32_t hcap;
	char *start_cwd;      /* the cwd of a process whose parent is not traced */
	/* counts */
	uint64_t calls;                 /* lines of calls read */
	uint64_t ops[R_NOPS];           /* the program's ops, by enum rec_op */
	uint64_t bytes_read, bytes_written;  /* the program's */
	struct rec_kind left[REC_KINDS];     /* left out, by kind */
	int nleft;
	struct rec_kind folded[REC_KINDS];   /* followed, not replayed (lseek, chdir, ...) */
	int nfolded;
	uint64_t not_fs;                /* calls that touch no file */
	uint64_t opens_no_path;         /* opens with no -yy path on the result */
	uint64_t lines;                 /* lines of the log */
	int cur_link;                   /* the call in hand is on a link_made name */
	/* setup, filled by rec_setup() */
	uint64_t setup_dirs, setup_files, setup_bytes, setup_ops[R_NOPS];
	int full_sizes;                 /* --full-sizes: every file at its size */
	int untimed;                    /* --untimed: lines without their times */
	uint64_t setup_unread, setup_unread_bytes;  /* files made empty: never read */
};

/* The process pid, made (empty, cwd NULL) when first asked for. */
struct proc *rec_proc(struct rec *r, long pid);
/* The name for an absolute path, made (NAME_UNSEEN) when first asked for. */
struct name *rec_name(struct rec *r, const char *path);
/* A new inode (original = 0). */
struct inode *rec_inode(struct rec *r);
/* Is path DIR or below it? */
int rec_under(const struct rec *r, const char *path);
/* The loadfile path of an absolute path under DIR, written to out:
 * \clients\client1\REST.  Returns 0, or -1 when it cannot be written
 * (a '"', a '\\' or a line break in it, or too long). */
int rec_loadpath(const struct rec *r, const char *path, char *out, size_t outsz);

/* Descriptor tables. */
struct fdtab *fdtab_new(void);
struct fdtab *fdtab_copy(const struct fdtab *t);
struct ofd *fdtab_get(const struct fdtab *t, int fd);
/* Bind fd to o (o->refs grows); an ofd it held is released first.
 * Returns the released ofd when that was its last reference (the caller
 * closes its handle and frees it), else NULL; -1 as a pointer on ENOMEM
 * is never returned: out of memory aborts. */
struct ofd *fdtab_set(struct fdtab *t, int fd, struct ofd *o, int cloexec);
/* Drop fd; returns the ofd when that was its last reference, else NULL. */
struct ofd *fdtab_drop(struct fdtab *t, int fd);

/* A ReadX reads [off, off + n) of what ino held before the program. */
void rec_inode_read(struct inode *ino, uint64_t off, uint64_t n);
/* Sort and merge ino's ranges; returns how many are left. */
size_t rec_inode_ranges(struct inode *ino);

/* A free handle number (1 up), marked used; and its release. */
uint32_t rec_handle_new(struct rec *r);
void rec_handle_free(struct rec *r, uint32_t h);

/* Count one call of a kind left out, or one followed and folded. */
void rec_left(struct rec *r, const char *kind);
void rec_folded(struct rec *r, const char *kind);

/* The first call that shows whether a name existed before the program:
 * it existed (old, with isdir) or not (new).  Later calls change
 * nothing, but that a name found there is a directory.  An old name's directories are old too, unless the program
 * made them. */
void rec_saw_old(struct rec *r, const char *path, int isdir);
void rec_saw_new(struct rec *r, const char *path);

/* A call that failed with ENOENT on path: it was not there (if nothing
 * said otherwise before); its directories are left unknown. */
void rec_saw_absent(struct rec *r, const char *path);

/* p, or the end of kbench with "out of memory" (status 1) when p is NULL:
 * a partial loadfile would be worse than none. */
void *rec_must(void *p);

void rec_free(struct rec *r);

#endif
