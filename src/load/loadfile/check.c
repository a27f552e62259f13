/* kbench - "kbench load --check": what one pass of one client does
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Walks the compiled program, keeping a model of the namespace: for each
 * path the size of the file there (or that it is a directory), and which
 * handle names which path.  Only ops the loadfile expects to succeed (or
 * does not check) change the model, so an open that is meant to fail
 * opens nothing.  Directory renames move the directory entry only: the
 * files below keep their sizes, which is all the peak figure needs.
 */
#include "config.h"
#include "load/loadfile/progread.h"
#include "load/loadfile/check.h"
#include "load/loadfile/loadfile.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

struct node {
	uint64_t key;        /* (shared << 32) | arena offset, + 1; 0 = empty */
	uint64_t size;       /* bytes, for a file */
	uint8_t exists, isdir, counted_file, counted_dir;
};

struct model {
	const struct program *prog;
	struct node *n;
	size_t cap, used;
	uint64_t *handle_node;   /* per handle: node index + 1, 0 = closed */
	uint64_t open, total;
	struct lf_check *c;
};

static uint64_t mix(uint64_t x)
{
	x ^= x >> 31;
	x *= 0x9e3779b97f4a7c15ull;
	x ^= x >> 29;
	return x;
}

static int grow(struct model *m)
{
	size_t cap = m->cap ? m->cap * 2 : 1024;
	struct node *n = calloc(cap, sizeof(*n));
	if (!n)
		return -1;
	for (size_t i = 0; i < m->cap; i++) {
		if (!m->n[i].key)
			continue;
		size_t j = mix(m->n[i].key) & (cap - 1);
		while (n[j].key)
			j = (j + 1) & (cap - 1);
		n[j] = m->n[i];
	}
	/* handles point at node indexes: remap them */
	for (uint32_t h = 0; h < m->prog->nhandles; h++) {
		if (!m->handle_node[h])
			continue;
		uint64_t key = m->n[m->handle_node[h] - 1].key;
		size_t j = mix(key) & (cap - 1);
		while (n[j].key != key)
			j = (j + 1) & (cap - 1);
		m->handle_node[h] = j + 1;
	}
	free(m->n);
	m->n = n;
	m->cap = cap;
	return 0;
}

/* The node for a path, made if missing.  Returns its index or -1. */
static long node_of(struct model *m, uint32_t off, int shared)
{
	uint64_t key = (((uint64_t)(shared != 0) << 32) | off) + 1;
	if ((m->used + 1) * 2 > m->cap && grow(m) < 0)
		return -1;
	size_t j = mix(key) & (m->cap - 1);
	while (m->n[j].key && m->n[j].key != key)
		j = (j + 1) & (m->cap - 1);
	if (!m->n[j].key) {
		m->n[j].key = key;
		m->used++;
	}
	return (long)j;
}

static void drop_file(struct model *m, struct node *nd)
{
	if (nd->exists && !nd->isdir)
		m->total -= nd->size;
	nd->exists = 0;
	nd->size = 0;
}

static int under(const char *path, const char *top)
{
	if (!strcmp(top, "."))
		return 1;
	size_t n = strlen(top);
	return !strncmp(path, top, n) && (path[n] == '/' || path[n] == '\0');
}

static void deltree(struct model *m, uint32_t off, int shared)
{
	const char *top = prog_path(m->prog, off);
	for (size_t i = 0; i < m->cap; i++) {
		struct node *nd = &m->n[i];
		if (!nd->key || !nd->exists || (int)((nd->key - 1) >> 32) != (shared != 0))
			continue;
		if (under(prog_path(m->prog, (uint32_t)((nd->key - 1) & 0xffffffffu)), top))
			drop_file(m, nd);
	}
}

static void peak(struct model *m)
{
	if (m->total > m->c->peak_bytes)
		m->c->peak_bytes = m->total;
}

/* An NTCreateX: the file or directory it opens or makes (its size when
 * the open sets one), the handle it takes.  Returns 0, or -1 when out of
 * memory. */
static int model_open(struct model *m, const struct op *op)
{
	uint32_t h = op->handle;
	long i;
	struct node *nd;

	if ((i = node_of(m, op->path1, (op->flags & OPF_SHARED1) != 0)) < 0)
		return -1;
	nd = &m->n[i];
	if (op->open & OPEN_DIR) {
		nd->isdir = 1;
		nd->exists = 1;
		if (!nd->counted_dir) {
			nd->counted_dir = 1;
			m->c->dirs++;
		}
	} else {
		int creates = (op->open & OPEN_CREAT) != 0;
		if (!nd->counted_file) {
			nd->counted_file = 1;
			m->c->files++;
		}
		if ((op->open & OPEN_TRUNC) && nd->exists)
			drop_file(m, nd);
		if (creates || !nd->exists) {
			nd->exists = 1;
			nd->isdir = 0;
		}
		if (op->flags & OPF_SETSIZE) {
			m->total += op->off;  /* the open gives it this size */
			m->total -= nd->size;
			nd->size = op->off;
			peak(m);
		}
	}
	if (h < m->prog->nhandles) {
		if (!m->handle_node[h])
			m->open++;
		m->handle_node[h] = (uint64_t)i + 1;
		if (m->open > m->c->max_open)
			m->c->max_open = m->open;
	}
	return 0;
}

/* What op does to the model of the tree and the handles.  Returns 0, or
 * -1 when out of memory. */
static int step(struct model *m, const struct op *op)
{
	int sh1 = (op->flags & OPF_SHARED1) != 0, sh2 = (op->flags & OPF_SHARED2) != 0;
	long i, j;
	struct node *nd;
	uint32_t h = op->handle;
	int hv = h < m->prog->nhandles;

	if (op->ts_ns > m->c->duration_ns && (op->flags & OPF_TIMED))
		m->c->duration_ns = op->ts_ns;
	if (op->expect == EXPECT_FAIL)
		return 0;  /* meant to fail: changes nothing */

	switch (op->code) {
	case OP_NTCREATEX:
		return model_open(m, op);
	case OP_CLOSE:
		if (hv && m->handle_node[h]) {
			m->handle_node[h] = 0;
			m->open--;
		}
		break;
	case OP_WRITEX:
		if (hv && m->handle_node[h]) {
			nd = &m->n[m->handle_node[h] - 1];
			uint64_t end = op->off + op->len;
			if (nd->exists && !nd->isdir && end > nd->size) {
				m->total += end - nd->size;
				nd->size = end;
				peak(m);
			}
		}
		break;
	case OP_UNLINK:
		if ((i = node_of(m, op->path1, sh1)) < 0)
			return -1;
		drop_file(m, &m->n[i]);
		break;
	case OP_RENAME:
		if ((i = node_of(m, op->path1, sh1)) < 0 || (j = node_of(m, op->path2, sh2)) < 0)
			return -1;
		if (m->n[i].exists && i != j) {
			drop_file(m, &m->n[j]);
			m->n[j].exists = 1;
			m->n[j].isdir = m->n[i].isdir;
			m->n[j].size = m->n[i].size;
			m->n[i].exists = 0;
			m->n[i].size = 0;
		}
		break;
	case OP_MKDIR:
		if ((i = node_of(m, op->path1, sh1)) < 0)
			return -1;
		m->n[i].exists = m->n[i].isdir = 1;
		if (!m->n[i].counted_dir) {
			m->n[i].counted_dir = 1;
			m->c->dirs++;
		}
		break;
	case OP_RMDIR:
		if ((i = node_of(m, op->path1, sh1)) < 0)
			return -1;
		m->n[i].exists = 0;
		break;
	case OP_DELTREE:
		deltree(m, op->path1, sh1);
		break;
	default:
		break;
	}
	return 0;
}

/* One op of the pass: its bytes, then what it does to the model. */
static int check_op(void *arg, const struct op *op)
{
	struct model *m = arg;
	struct lf_check *c = m->c;
	c->ops++;
	/* bytes that move: not those of an op meant to fail */
	if (op->expect != EXPECT_FAIL && op->code == OP_READX)
		c->bytes_read += op->len;
	else if (op->expect != EXPECT_FAIL && op->code == OP_WRITEX)
		c->bytes_written += op->len;
	if (step(m, op) < 0) {
		errno = ENOMEM;
		return -1;
	}
	return 0;
}

int lf_check_compute(const struct program *prog, struct lf_check *c)
{
	struct model m = { .prog = prog, .c = c };
	int rc = 0;
	memset(c, 0, sizeof(*c));
	m.handle_node = calloc(prog->nhandles ? prog->nhandles : 1, sizeof(*m.handle_node));
	if (!m.handle_node || grow(&m) < 0) {
		rc = -1;
		errno = ENOMEM;
	} else {
		rc = prog_for_each(prog, check_op, &m);
	}
	free(m.n);
	free(m.handle_node);
	return rc;
}

void lf_check_print(FILE *f, const struct program *prog, const struct lf_check *c)
{
	fprintf(f, "%s: %s format, valid\n", prog->source ? prog->source : "loadfile",
		lf_format_name(prog->format));
	fprintf(f, "lines:       %llu (%llu operations, %llu comments, %llu blank, %llu ignored",
		(unsigned long long)prog->nlines, (unsigned long long)c->ops,
		(unsigned long long)prog->ncomments, (unsigned long long)prog->nblank,
		(unsigned long long)prog->ignored_total);
	if (prog->format == LF_DBENCH1)
		fprintf(f, ", %llu paired lines", (unsigned long long)prog->npaired);
	fprintf(f, ")\n");
	fprintf(f, "\nper pass of one client:\n");
	fprintf(f, " %-24s %10s %8s\n", "Operation", "Count", "Share");
	for (unsigned i = 0; i < OP_COUNT; i++) {
		if (!prog->count[i])
			continue;
		fprintf(f, " %-24s %10llu %7.2f%%\n", op_file_name(i),
			(unsigned long long)prog->count[i],
			100.0 * (double)prog->count[i] / (double)c->ops);
	}
	fprintf(f, "\nbytes read:     %12.3f MB\n", (double)c->bytes_read / 1e6);
	fprintf(f, "bytes written:  %12.3f MB", (double)c->bytes_written / 1e6);
	if (c->bytes_written && c->bytes_read)
		fprintf(f, "   (written : read = 1 : %.2f)", (double)c->bytes_read /
			(double)c->bytes_written);
	fprintf(f, "\nhandles open:   %12llu at most\n", (unsigned long long)c->max_open);
	fprintf(f, "distinct files: %12llu\n", (unsigned long long)c->files);
	fprintf(f, "directories:    %12llu\n", (unsigned long long)c->dirs);
	fprintf(f, "peak on disk:   %12.3f MB (file data)\n", (double)c->peak_bytes / 1e6);
	if (c->duration_ns)
		fprintf(f, "duration:       %12.3f s (timestamped)\n", (double)c->duration_ns / 1e9);
	else
		fprintf(f, "duration:       not timestamped (runs as fast as it can)\n");
	fprintf(f, "(MB = 10^6 bytes)\n");
	if (prog->ignored_total) {
		fprintf(f, "\nlines kbench does not model (%llu):\n",
			(unsigned long long)prog->ignored_total);
		for (uint32_t i = 0; i < prog->nignored_kinds; i++)
			fprintf(f, "  %-32s %10llu   (first at line %llu)\n", prog->ignored[i].name,
				(unsigned long long)prog->ignored[i].count,
				(unsigned long long)prog->ignored[i].first_line);
		if (prog->ignored_other)
			fprintf(f, "  %-32s %10llu\n", "(other kinds)",
				(unsigned long long)prog->ignored_other);
	} else {
		fprintf(f, "\nlines kbench does not model: none\n");
	}
}
