/* kbench - kbench record: the loadfile written, and what it says of itself
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The setup makes, in path order (a directory before what it holds),
 * every name the trace showed was there before the program: directories
 * by Mkdir, files by NTCreateX (FILE_OVERWRITE_IF), WriteX of their
 * size in 1 MiB pieces, and Close.  Those WriteX lines are bytes a
 * replay writes that the program did not: the summary gives them apart.
 * Of a file, only the byte ranges the loadfile's ReadX lines read of what
 * it held are written, the rest left as holes (its whole recorded size
 * with --full-sizes): no replayed operation looks elsewhere, and writing
 * the rest would swamp the program's own bytes (git status stats a whole
 * tree and maps pack files of hundreds of MB, of which it reads a few
 * bytes with pread, far apart).
 */
#include "config.h"
#include "record/out.h"

#include <stdlib.h>
#include <string.h>

#define SETUP_CHUNK (1u << 20)

/* WriteX lines for [rg->a, rg->b), in pieces of SETUP_CHUNK */
static void setup_range(struct rec *r, FILE *f, const struct range *rg)
{
	for (uint64_t off = rg->a; off < rg->b; off += SETUP_CHUNK) {
		uint64_t k = rg->b - off < SETUP_CHUNK ? rg->b - off : SETUP_CHUNK;
		fprintf(f, "WriteX 1 %llu %llu %llu NT_STATUS_OK\n", (unsigned long long)off,
			(unsigned long long)k, (unsigned long long)k);
		r->setup_ops[R_WRITEX]++;
		r->setup_bytes += k;
	}
}

static int by_path(const void *a, const void *b)
{
	const struct inode *x = *(const struct inode *const *)a, *y = *(const struct inode *const *)b;
	return strcmp(x->setup_name, y->setup_name);
}

int rec_setup(struct rec *r, FILE *f)
{
	struct inode **v = rec_must(calloc(r->ninodes + 1, sizeof(*v)));
	size_t n = 0;
	for (size_t i = 0; i < r->ninodes; i++) {
		struct inode *ino = r->inodes[i];
		if (!ino->setup_name || strlen(ino->setup_name) <= r->dirlen)
			continue;  /* made by the program, or DIR itself */
		if (!ino->isdir && ino->maybe_new && !ino->init_size)
			continue;  /* O_CREAT, and nothing says it held anything */
		v[n++] = ino;
	}
	qsort(v, n, sizeof(*v), by_path);
	char lp[4200];
	for (size_t i = 0; i < n; i++) {
		if (rec_loadpath(r, v[i]->setup_name, lp, sizeof(lp)) < 0)
			continue;  /* counted when a call named it */
		if (v[i]->isdir) {
			fprintf(f, "Mkdir \"%s\" NT_STATUS_OK\n", lp);
			r->setup_ops[R_MKDIR]++;
			r->setup_dirs++;
			continue;
		}
		fprintf(f, "NTCreateX \"%s\" 0x0 5 1 NT_STATUS_OK\n", lp);
		struct inode *ino = v[i];
		if (r->full_sizes) {
			struct range whole = { 0, ino->init_size };
			setup_range(r, f, &whole);
		} else {
			size_t nr = rec_inode_ranges(ino);
			uint64_t wrote = 0;
			for (size_t k = 0; k < nr; k++) {
				setup_range(r, f, &ino->rd[k]);
				wrote += ino->rd[k].b - ino->rd[k].a;
			}
			if (ino->init_size > wrote) {
				r->setup_unread++;
				r->setup_unread_bytes += ino->init_size - wrote;
			}
		}
		fprintf(f, "Close 1 NT_STATUS_OK\n");
		r->setup_ops[R_NTCREATEX]++;
		r->setup_ops[R_CLOSE]++;
		r->setup_files++;
	}
	free(v);
	return ferror(f) ? -1 : 0;
}

static uint64_t total(const struct rec_kind *k, int n)
{
	uint64_t t = 0;
	for (int i = 0; i < n; i++)
		t += k[i].count;
	return t;
}

void rec_header(const struct rec *r, FILE *f, const char *how)
{
	fprintf(f, "# kbench record %s: the file-system calls of a program under one directory,\n"
		   "# as a dbench 4 loadfile for kbench load (kbench-record(1))\n", PACKAGE_VERSION);
	fprintf(f, "# %s\n", how);
	fprintf(f, "# directory: %s (its names appear under \\clients\\client1)\n", r->dir);
	if (r->untimed)
		fprintf(f, "# timestamps: none (--untimed): a replay runs as fast as it can\n");
	else
		fprintf(f, "# timestamps: seconds from the first traced call; the setup lines have none\n");
	fprintf(f, "# setup: %llu directories and %llu files (%llu bytes) the program found there,\n"
		   "#   made first, with the sizes the trace showed (nothing was read to learn them)\n",
		(unsigned long long)r->setup_dirs, (unsigned long long)r->setup_files,
		(unsigned long long)r->setup_bytes);
	if (r->setup_unread)
		fprintf(f, "#   %llu files made only where the ReadX lines read (%llu bytes left as holes)\n",
			(unsigned long long)r->setup_unread, (unsigned long long)r->setup_unread_bytes);
	uint64_t ops = 0;
	for (int i = 0; i < R_NOPS; i++)
		ops += r->ops[i];
	fprintf(f, "# program: %llu calls traced in %zu processes and threads, %llu operations,\n"
		   "#   %llu bytes read, %llu bytes written, %.6f s\n",
		(unsigned long long)r->calls, r->nprocs, (unsigned long long)ops,
		(unsigned long long)r->bytes_read, (unsigned long long)r->bytes_written,
		r->t_last - r->t0);
	fprintf(f, "# left out, by kind (%llu calls):\n", (unsigned long long)total(r->left, r->nleft));
	for (int i = 0; i < r->nleft; i++)
		fprintf(f, "#   %-70s %10llu\n", r->left[i].name, (unsigned long long)r->left[i].count);
	fprintf(f, "# followed, not replayed (%llu calls):\n",
		(unsigned long long)total(r->folded, r->nfolded));
	for (int i = 0; i < r->nfolded; i++)
		fprintf(f, "#   %-70s %10llu\n", r->folded[i].name, (unsigned long long)r->folded[i].count);
	fprintf(f, "# calls that touch no file (process, memory, signals): %llu\n",
		(unsigned long long)r->not_fs);
}

void rec_summary(const struct rec *r, FILE *f, const char *out)
{
	uint64_t s = 0, p = 0;
	fprintf(f, "kbench record: wrote %s (dbench 4 loadfile)\n\n", out);
	fprintf(f, " %-24s %10s %10s %10s\n", "Operation", "Setup", "Program", "Total");
	for (int i = 0; i < R_NOPS; i++) {
		if (!r->ops[i] && !r->setup_ops[i])
			continue;
		fprintf(f, " %-24s %10llu %10llu %10llu\n", rec_op_name[i],
			(unsigned long long)r->setup_ops[i], (unsigned long long)r->ops[i],
			(unsigned long long)(r->setup_ops[i] + r->ops[i]));
		s += r->setup_ops[i];
		p += r->ops[i];
	}
	fprintf(f, " %-24s %10llu %10llu %10llu\n", "(all)", (unsigned long long)s,
		(unsigned long long)p, (unsigned long long)(s + p));
	fprintf(f, "\nbytes read:    %14llu (program)\n", (unsigned long long)r->bytes_read);
	fprintf(f, "bytes written: %14llu (program) + %llu (setup: %llu files, %llu directories)\n",
		(unsigned long long)r->bytes_written, (unsigned long long)r->setup_bytes,
		(unsigned long long)r->setup_files, (unsigned long long)r->setup_dirs);
	if (r->setup_unread)
		fprintf(f, "               (%llu files found there written only where ReadX reads, %llu bytes"
			   " not: --full-sizes writes them whole)\n",
			(unsigned long long)r->setup_unread, (unsigned long long)r->setup_unread_bytes);
	fprintf(f, "calls traced:  %14llu in %zu processes and threads, %.3f s\n",
		(unsigned long long)r->calls, r->nprocs, r->t_last - r->t0);
	fprintf(f, "\nleft out (%llu calls):\n", (unsigned long long)total(r->left, r->nleft));
	for (int i = 0; i < r->nleft; i++)
		fprintf(f, "  %-70s %10llu\n", r->left[i].name, (unsigned long long)r->left[i].count);
	if (!r->nleft)
		fprintf(f, "  none\n");
	fprintf(f, "followed, not replayed (%llu calls):\n",
		(unsigned long long)total(r->folded, r->nfolded));
	for (int i = 0; i < r->nfolded; i++)
		fprintf(f, "  %-70s %10llu\n", r->folded[i].name, (unsigned long long)r->folded[i].count);
	fprintf(f, "calls that touch no file: %llu\n", (unsigned long long)r->not_fs);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void rec_case_clashes(struct rec *r)
{
	char **v = rec_must(calloc(r->nnames + 1, sizeof(*v)));
	size_t n = 0;
	for (size_t i = 0; i < r->cap; i++) {
		struct name *nm = r->names[i];
		if (!nm || !rec_under(r, nm->path))
			continue;
		char *s = rec_must(strdup(nm->path));
		for (char *c = s; *c; c++)
			if (*c >= 'A' && *c <= 'Z')
				*c = (char)(*c + 32);
		v[n++] = s;
	}
	qsort(v, n, sizeof(*v), cmp_str);
	for (size_t i = 1; i < n; i++)
		if (!strcmp(v[i], v[i - 1]))
			rec_left(r, "names that differ from another only in case (the loadfile folds case)");
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}
