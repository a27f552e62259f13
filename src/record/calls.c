/* kbench - kbench record: the calls on descriptors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * open family -> NTCreateX (disposition from O_CREAT/O_TRUNC, options
 * 0x1 for a directory), read family -> ReadX, write family -> WriteX,
 * copy_file_range/sendfile/splice -> ReadX and WriteX on the sides that
 * are files under DIR, close -> Close (of the last descriptor of an open
 * file), fsync/fdatasync -> Flush, fstat -> QUERY_FILE_INFORMATION,
 * ftruncate/fallocate/fchmod/fchown/futimens -> SET_FILE_INFORMATION,
 * fcntl and flock locks -> LockX/UnlockX.  lseek, dup and fork are
 * followed for offsets and handles and write nothing.  Every ReadX and
 * WriteX asks for the bytes the call moved and expects them all, so a
 * replay moves exactly the recorded bytes; one larger than the
 * loadfile's largest I/O (64 MiB) is cut in pieces.
 */
#include "config.h"
#include "record/calls.h"
#include "record/paths.h"

#include <stdlib.h>
#include <string.h>

#define IO_CHUNK (64ull << 20)

/* Is there this flag in a flags argument (whole words between '|')? */
static int has_flag(const char *flags, const char *flag)
{
	size_t n = strlen(flag);
	for (const char *s = flags; s && (s = strstr(s, flag)); s += n)
		if ((s == flags || s[-1] == '|' || s[-1] == '=') && (s[n] == '|' || s[n] == '\0' ||
								   s[n] == ',' || s[n] == '}'))
			return 1;
	return 0;
}

static void do_open(struct rec *r, struct proc *p, const struct st_line *l)
{
	const char *dirarg = NULL, *patharg, *flags;
	char path[REC_PATH];
	int at = !strcmp(l->name, "openat") || !strcmp(l->name, "openat2");
	if (l->nargs < (at ? 3 : !strcmp(l->name, "creat") ? 1 : 2))
		return rec_left(r, "calls strace printed without their arguments");
	if (at)
		dirarg = l->arg[0];
	patharg = l->arg[at];
	flags = !strcmp(l->name, "creat") ? "O_WRONLY|O_CREAT|O_TRUNC" : l->arg[at + 1];
	if (l->ret_path) {
		/* the path the kernel opened, as -yy printed it (still escaped) */
		int fd;
		char *tmp = rec_must(malloc(strlen(l->ret_path) + 4));
		sprintf(tmp, "0<%s>", l->ret_path);
		if (st_fd(tmp, &fd, path, sizeof(path)) < 0)
			path[0] = '\0';
		free(tmp);
	}
	if (!l->ret_path && rec_resolve(r, p, dirarg, patharg, path) < 0)
		return rec_left(r, "calls strace printed without their arguments");
	if (l->err || !l->has_ret || l->ret < 0) {
		if (!rec_under(r, path))
			return rec_outside(r, path);
		const char *e = l->err ? l->err : "";
		if (!strcmp(e, "ENOENT") || !strcmp(e, "ENOTDIR")) {
			char lp[REC_PATH + 32];
			if (!strcmp(e, "ENOENT"))
				rec_saw_absent(r, path);
			if (rec_loadpath(r, path, lp, sizeof(lp)) < 0)
				return rec_left(r, "names a loadfile cannot hold ('\"', '\\' or a line break)");
			uint32_t h = rec_handle_new(r);
			rec_handle_free(r, h);
			rec_emit(r, l->t, R_NTCREATEX, "\"%s\" 0x%x 1 %u %s", lp,
				 has_flag(flags, "O_DIRECTORY") ? 1 : 0, h, rec_status(e));
			return;
		}
		char kind[96];
		if (!strcmp(e, "EEXIST"))
			rec_saw_old(r, path, 0);
		snprintf(kind, sizeof(kind), "failed opens (%s)", e[0] ? e : "no errno");
		return rec_left(r, kind);
	}
	if (l->ret > ST_FD_MAX)
		return rec_left(r, "descriptors numbered above 2^20");
	if (!l->ret_path) {
		r->opens_no_path++;
		return rec_left(r, "opens without -yy's path on their result");
	}
	struct ofd *o = rec_ofd_new(path);
	rec_ofd_gone(r, fdtab_set(p->tab, (int)l->ret, o, has_flag(flags, "O_CLOEXEC")), l->t);
	if (!rec_under(r, path))
		return rec_outside(r, path);
	if (rec_name(r, path)->link_made) {
		o->link = 1;
		return rec_left(r, LINK_KIND);
	}
	int creat = has_flag(flags, "O_CREAT"), trunc = has_flag(flags, "O_TRUNC");
	struct name *n = rec_name(r, path);
	if (!creat)
		rec_saw_old(r, path, has_flag(flags, "O_DIRECTORY"));
	else if (has_flag(flags, "O_EXCL") || trunc)
		rec_saw_new(r, path);
	else if (n->state == NAME_UNSEEN) {
		rec_saw_old(r, path, 0);
		n->ino->maybe_new = 1;
	}
	if (!n->ino) {
		n->ino = rec_inode(r);
		if (has_flag(flags, "O_DIRECTORY"))
			n->ino->isdir = 1;
	}
	if (trunc && !n->ino->isdir) {
		n->ino->original = 0;
		n->ino->size = 0;
	}
	o->ino = n->ino;
	o->isdir = n->ino->isdir || has_flag(flags, "O_DIRECTORY");
	o->append = (uint8_t)has_flag(flags, "O_APPEND");
	rec_open_line(r, o, l->t, creat && trunc ? 5 : creat ? 2 : trunc ? 4 : 1);
}

/* An offset argument: "123", "[123]", "[123 => 456]" (the value before
 * the call), or NULL/-1 (the file offset).  Returns 1 with *off, else 0. */
static int offset_arg(const char *a, uint64_t *off)
{
	if (!a || !strcmp(a, "NULL") || !strcmp(a, "-1"))
		return 0;
	char *e;
	*off = strtoull(a + (a[0] == '['), &e, 10);
	return e != a + (a[0] == '[');
}

/* Linux moves at most this many bytes in one call (MAX_RW_COUNT) */
#define RW_MAX 0x7ffff000ull
#define OFF_MAX ((uint64_t)INT64_MAX)

/* A ReadX or WriteX of n bytes on o: at off (explicit) or at o's offset. */
static void io_line(struct rec *r, struct ofd *o, double t, int write, uint64_t n,
		    int explicit, uint64_t off)
{
	if (!explicit)
		off = write && o->append && o->ino ? o->ino->size : o->off;
	if (n > RW_MAX || off > OFF_MAX - n)
		return rec_left(r, "transfers no Linux call makes (over 2 GiB, or past 2^63)");
	if (!explicit)
		o->off = off + n;
	struct inode *ino = o->ino;
	if (ino && !write && ino->original && off + n > ino->init_size)
		ino->init_size = off + n;  /* it held these bytes before */
	if (ino && !write && ino->original && o->handle)
		rec_inode_read(ino, off, n);
	if (ino && off + n > ino->size)
		ino->size = off + n;
	if (!o->handle)
		return;
	uint64_t done = 0;
	do {
		uint64_t k = n - done > IO_CHUNK ? IO_CHUNK : n - done;
		rec_emit(r, t, write ? R_WRITEX : R_READX, "%u %llu %llu %llu NT_STATUS_OK", o->handle,
			 (unsigned long long)(off + done), (unsigned long long)k,
			 (unsigned long long)k);
		done += k;
	} while (done < n);
	if (write)
		r->bytes_written += n;
	else
		r->bytes_read += n;
}

static void failed(struct rec *r, const struct st_line *l, struct ofd *o)
{
	char kind[96];
	if (o && !o->handle)
		return rec_outside(r, o->path);
	snprintf(kind, sizeof(kind), "failed %s (%s)", l->name, l->err ? l->err : "no result");
	rec_left(r, kind);
}

/* read, pread64, readv, preadv, preadv2 and the writes alike */
static void do_rw(struct rec *r, struct proc *p, const struct st_line *l, int write)
{
	struct ofd *o = rec_fd(r, p, l->nargs ? l->arg[0] : NULL, l->t);
	if (!o)
		return rec_left(r, "calls strace printed without their arguments");
	if (!l->has_ret || l->ret < 0)
		return failed(r, l, o);
	if (!o->handle)
		return rec_outside(r, o->path);
	uint64_t off = 0;
	int explicit = strchr(l->name, 'p') == l->name && l->nargs > 3 && offset_arg(l->arg[3], &off);
	io_line(r, o, l->t, write, (uint64_t)l->ret, explicit, off);
}

/* copy_file_range(in, off_in, out, off_out, len, flags), splice alike;
 * sendfile(out, in, off, count) */
static void do_copy(struct rec *r, struct proc *p, const struct st_line *l)
{
	int sf = !strncmp(l->name, "sendfile", 8);
	if (l->nargs < (sf ? 4 : 5))
		return rec_left(r, "calls strace printed without their arguments");
	struct ofd *in = rec_fd(r, p, l->arg[sf ? 1 : 0], l->t);
	struct ofd *out = rec_fd(r, p, l->arg[sf ? 0 : 2], l->t);
	if (!in || !out)
		return rec_left(r, "calls strace printed without their arguments");
	if (!l->has_ret || l->ret < 0)
		return failed(r, l, in->handle ? in : out);
	if (!in->handle && !out->handle)
		return rec_outside(r, in->path);
	uint64_t n = (uint64_t)l->ret, oi = 0, oo = 0;
	int ei = offset_arg(l->arg[sf ? 2 : 1], &oi), eo = !sf && offset_arg(l->arg[3], &oo);
	io_line(r, in, l->t, 0, n, ei, oi);
	if (n)
		io_line(r, out, l->t, 1, n, eo, oo);
	else if (out->handle)
		rec_folded(r, "copies that reached the end (a ReadX of 0 bytes, no WriteX)");
	if (!in->handle || !out->handle)
		rec_folded(r, "copies between a file under DIR and something else (its side only)");
}

static void do_close(struct rec *r, struct proc *p, const struct st_line *l)
{
	int fd;
	char path[REC_PATH];
	if (!l->nargs || st_fd(l->arg[0], &fd, path, sizeof(path)) < 0)
		return rec_left(r, "calls strace printed without their arguments");
	struct ofd *o = fdtab_get(p->tab, fd);
	r->cur_link = o && o->link;
	if (!o) {
		if (rec_under(r, path))
			rec_folded(r, "closes of descriptors open before the trace");
		else
			r->not_fs++;
		return;
	}
	if (!o->handle)
		rec_outside(r, o->path);
	else if (o->refs > 1)
		rec_folded(r, "closes of one of several descriptors of a file");
	rec_ofd_gone(r, fdtab_drop(p->tab, fd), l->t);
}

/* dup, dup2, dup3, fcntl F_DUPFD: a second descriptor for the same file */
static void do_dup(struct rec *r, struct proc *p, const struct st_line *l)
{
	struct ofd *o = rec_fd(r, p, l->nargs ? l->arg[0] : NULL, l->t);
	if (!o || !l->has_ret || l->ret < 0)
		return o && o->handle ? failed(r, l, o) : (void)r->not_fs++;
	if (l->ret > ST_FD_MAX)
		return rec_left(r, "descriptors numbered above 2^20");
	if (o->handle)
		rec_folded(r, "dups (the new descriptor shares the handle)");
	else
		rec_outside(r, o->path);
	o->refs++;  /* held while the old one at ret is let go */
	rec_ofd_gone(r, fdtab_set(p->tab, (int)l->ret, o, strstr(l->arg[l->nargs - 1], "CLOEXEC") != NULL),
		 l->t);
	o->refs--;
}

static uint64_t field(const char *s, const char *key)
{
	const char *f = strstr(s, key);
	return f ? strtoull(f + strlen(key), NULL, 0) : 0;
}

static void lock_line(struct rec *r, struct ofd *o, const struct st_line *l, int unlock,
		      uint64_t off, uint64_t len)
{
	if (!l->has_ret || l->ret < 0)
		return rec_left(r, "failed locks (the replay's lone client meets no conflict)");
	if (off > OFF_MAX || len > OFF_MAX - off)
		return rec_left(r, "lock ranges past 2^63");
	rec_emit(r, l->t, unlock ? R_UNLOCKX : R_LOCKX, "%u %llu %llu NT_STATUS_OK", o->handle,
		 (unsigned long long)off, (unsigned long long)len);
}

static void do_fcntl(struct rec *r, struct proc *p, const struct st_line *l)
{
	if (l->nargs < 2)
		return rec_left(r, "calls strace printed without their arguments");
	if (!strncmp(l->arg[1], "F_DUPFD", 7))
		return do_dup(r, p, l);
	struct ofd *o = rec_fd(r, p, l->arg[0], l->t);
	if (!o || !o->handle)
		return o ? rec_outside(r, o->path) : (void)r->not_fs++;
	if (strstr(l->arg[1], "SETLK") && l->nargs > 2) {
		const char *a = l->arg[2];
		uint64_t start = field(a, "l_start="), len = field(a, "l_len=");
		if (strstr(a, "SEEK_CUR"))
			start += o->off;
		else if (strstr(a, "SEEK_END") && o->ino)
			start += o->ino->size;
		return lock_line(r, o, l, strstr(a, "F_UNLCK") != NULL, start, len);
	}
	int fd;
	char path[REC_PATH];
	if (!strcmp(l->arg[1], "F_SETFD") && l->nargs > 2 && st_fd(l->arg[0], &fd, path, sizeof(path)) == 0 &&
	    fd >= 0 && fd < p->tab->n && l->has_ret && l->ret == 0)
		p->tab->cloexec[fd] = strstr(l->arg[2], "FD_CLOEXEC") != NULL;
	if (!strcmp(l->arg[1], "F_GETFD") || !strcmp(l->arg[1], "F_SETFD") ||
	    !strcmp(l->arg[1], "F_GETFL") || !strcmp(l->arg[1], "F_SETFL"))
		return rec_folded(r, "fcntl of a descriptor's flags (followed for O_CLOEXEC)");
	char kind[96];
	snprintf(kind, sizeof(kind), "fcntl %.24s on a file under DIR", l->arg[1]);
	rec_left(r, kind);
}

static void do_flock(struct rec *r, struct proc *p, const struct st_line *l)
{
	struct ofd *o = rec_fd(r, p, l->nargs > 1 ? l->arg[0] : NULL, l->t);
	if (!o || !o->handle)
		return o ? rec_outside(r, o->path) : (void)r->not_fs++;
	lock_line(r, o, l, strstr(l->arg[1], "LOCK_UN") != NULL, 0, 0);
}

/* fsync, fdatasync, fstat, ftruncate, ...: one op on the handle */
static void handle_op(struct rec *r, struct proc *p, const struct st_line *l, enum rec_op op,
		      int level)
{
	struct ofd *o = rec_fd(r, p, l->nargs ? l->arg[0] : NULL, l->t);
	if (!o)
		return rec_left(r, "calls strace printed without their arguments");
	if (!o->handle)
		return rec_outside(r, o->path);
	if (!l->has_ret || l->ret < 0)
		return failed(r, l, o);
	if (op == R_QFILEINFO && o->ino) {
		for (int i = 1; i < l->nargs; i++) {
			const char *sz = strstr(l->arg[i], "st_size=");
			if (!sz)
				sz = strstr(l->arg[i], "stx_size=");
			uint64_t v = sz ? strtoull(strchr(sz, '=') + 1, NULL, 10) : 0;
			if (sz && o->ino->original && !o->isdir && v > o->ino->init_size)
				o->ino->init_size = v;
			if (sz && v > o->ino->size)
				o->ino->size = v;
		}
	}
	if (op == R_SFILEINFO && !strcmp(l->name, "ftruncate") && l->nargs > 1 && o->ino)
		o->ino->size = strtoull(l->arg[1], NULL, 10);
	if (op == R_FLUSH)
		rec_emit(r, l->t, op, "%u NT_STATUS_OK", o->handle);
	else
		rec_emit(r, l->t, op, "%u %d NT_STATUS_OK", o->handle, level);
}

static void do_lseek(struct rec *r, struct proc *p, const struct st_line *l)
{
	struct ofd *o = rec_fd(r, p, l->nargs ? l->arg[0] : NULL, l->t);
	if (!o || !o->handle)
		return o ? rec_outside(r, o->path) : (void)r->not_fs++;
	if (!l->has_ret || l->ret < 0)
		return failed(r, l, o);
	o->off = (uint64_t)l->ret;
	rec_folded(r, "lseeks (followed for the offsets of later reads and writes)");
}

/* mmap, ioctl, fadvise64, ...: a call with no NetBench operation */
static void no_op(struct rec *r, struct proc *p, const struct st_line *l, int fdarg)
{
	char kind[96];
	int fd;
	char path[REC_PATH];
	if (fdarg >= l->nargs || st_fd(l->arg[fdarg], &fd, path, sizeof(path)) < 0 || fd < 0) {
		r->not_fs++;
		return;
	}
	struct ofd *o = fdtab_get(p->tab, fd);
	const char *pa = o ? o->path : path;
	r->cur_link = o && o->link;
	if (r->cur_link)
		return rec_outside(r, pa);
	if (!rec_under(r, pa))
		return pa[0] ? rec_outside(r, pa) : (void)r->not_fs++;
	snprintf(kind, sizeof(kind), "%s of a file under DIR", l->name);
	rec_left(r, kind);
}

static void do_exec(struct rec *r, struct proc *p, const struct st_line *l)
{
	if (!l->has_ret || l->ret != 0)
		return;
	for (int fd = 0; fd < p->tab->n; fd++)
		if (p->tab->fd[fd] && p->tab->cloexec[fd]) {
			if (p->tab->fd[fd]->handle && p->tab->fd[fd]->refs == 1)
				rec_folded(r, "closes by exec (O_CLOEXEC) or by a process's end");
			rec_ofd_gone(r, fdtab_drop(p->tab, fd), l->t);
		}
}

void rec_exit(struct rec *r, struct proc *p, double t)
{
	if (!p->tab)
		return;
	if (--p->tab->refs == 0) {
		for (int fd = 0; fd < p->tab->n; fd++) {
			if (p->tab->fd[fd] && p->tab->fd[fd]->handle && p->tab->fd[fd]->refs == 1)
				rec_folded(r, "closes by exec (O_CLOEXEC) or by a process's end");
			rec_ofd_gone(r, fdtab_drop(p->tab, fd), t);
		}
		free(p->tab->fd);
		free(p->tab->cloexec);
		free(p->tab);
	}
	p->tab = NULL;
}

void rec_call(struct rec *r, struct proc *p, const struct st_line *l)
{
	const char *n = l->name;
	r->calls++;
	r->cur_link = 0;
	if (l->nargs && !strncmp(l->arg[0], "AT_FDCWD<", 9)) {
		/* -yy shows the cwd: the best source of it (a log's first
		 * process has no other) */
		char cwd[REC_PATH];
		int fd;
		if (st_fd(l->arg[0], &fd, cwd, sizeof(cwd)) == 0 && cwd[0] == '/' &&
		    (!p->cwd || strcmp(p->cwd, cwd))) {
			free(p->cwd);
			p->cwd = rec_must(strdup(cwd));
		}
	}
	if (!strncmp(n, "open", 4) || !strcmp(n, "creat"))
		return do_open(r, p, l);
	if (!strcmp(n, "read") || !strncmp(n, "pread", 5) || !strcmp(n, "readv"))
		return do_rw(r, p, l, 0);
	if (!strcmp(n, "write") || !strncmp(n, "pwrite", 6) || !strcmp(n, "writev"))
		return do_rw(r, p, l, 1);
	if (!strcmp(n, "copy_file_range") || !strncmp(n, "sendfile", 8) || !strcmp(n, "splice"))
		return do_copy(r, p, l);
	if (!strcmp(n, "close"))
		return do_close(r, p, l);
	if (!strncmp(n, "dup", 3))
		return do_dup(r, p, l);
	if (!strncmp(n, "fcntl", 5))
		return do_fcntl(r, p, l);
	if (!strcmp(n, "flock"))
		return do_flock(r, p, l);
	if (!strcmp(n, "lseek") || !strcmp(n, "_llseek"))
		return do_lseek(r, p, l);
	if (!strcmp(n, "fsync") || !strcmp(n, "fdatasync"))
		return handle_op(r, p, l, R_FLUSH, 0);
	if (!strcmp(n, "fstat") || !strcmp(n, "fstat64"))
		return handle_op(r, p, l, R_QFILEINFO, 1005);
	if (!strcmp(n, "ftruncate") || !strcmp(n, "ftruncate64"))
		return handle_op(r, p, l, R_SFILEINFO, 1020);
	if (!strcmp(n, "fallocate"))
		return handle_op(r, p, l, R_SFILEINFO, 1019);
	if (!strcmp(n, "fchmod") || !strcmp(n, "fchown") || !strcmp(n, "fchown32"))
		return handle_op(r, p, l, R_SFILEINFO, 1004);
	if (!strcmp(n, "utimensat") && l->nargs > 1 && !strcmp(l->arg[1], "NULL"))
		return handle_op(r, p, l, R_SFILEINFO, 1004);  /* futimens */
	if (!strncmp(n, "execve", 6))
		return do_exec(r, p, l);
	if (rec_path_call(r, p, l))
		return;
	if (!strcmp(n, "mmap") || !strcmp(n, "mmap2"))
		return no_op(r, p, l, 4);
	no_op(r, p, l, 0);
}
