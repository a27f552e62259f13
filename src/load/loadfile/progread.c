/* kbench - load: the compiled program read back, a window at a time
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * One pread of at most 4 KiB a window (on the stack), the ops unpacked
 * with progcode_get and an NTCreateX's open bits decoded again, as the
 * parser decoded them (op_open_bits): the packed form does not store them.
 */
#include "config.h"
#include "load/loadfile/progcode.h"
#include "load/loadfile/progread.h"
#include "sys/textgroup.h"

#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

KB_CLIENT_TEXT
void prog_cursor_start(struct prog_cursor *cur)
{
	cur->index = 0;
	cur->at = 0;
	progcode_start(&cur->prev);
}

/* The packed bytes one read takes: 24 an op (client.txt averages 7, its
 * NTCreateX lines 12: a window of 128 ops is then one read, as it was
 * when ops were stored whole), and room for one whole op at the least */
#define READ_PER_OP 24
#define READ_MAX 4096

KB_CLIENT_TEXT
long prog_read_ops(const struct program *p, struct prog_cursor *cur, struct op *buf, size_t max)
{
	unsigned char raw[READ_MAX];
	if (cur->index >= p->nops)
		return 0;
	if (max > p->nops - cur->index)
		max = p->nops - cur->index;
	size_t want = max * READ_PER_OP + PROGCODE_MAX;
	if (want > sizeof(raw))
		want = sizeof(raw);
	if (cur->at >= p->code_bytes) {
		errno = EIO;
		return -1;
	}
	if (want > p->code_bytes - cur->at)
		want = (size_t)(p->code_bytes - cur->at);
	size_t got = 0;
	while (got < want) {
		ssize_t n = pread(p->fd, raw + got, want - got, (off_t)(cur->at + got));
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		if (n == 0)
			break;
		got += (size_t)n;
	}
	size_t used = 0, k = 0;
	while (k < max) {
		long n = progcode_get(raw + used, got - used, &cur->prev, &buf[k]);
		if (n <= 0)
			break;
		if (buf[k].code == OP_NTCREATEX)  /* not stored: decoded again */
			buf[k].open = op_open_bits(&buf[k]);
		cur->prev = buf[k++];
		used += (size_t)n;
	}
	if (!k) {
		errno = EIO;  /* short, or not ops */
		return -1;
	}
	cur->index += k;
	cur->at += used;
	return (long)k;
}

KB_CLIENT_TEXT
int prog_for_each(const struct program *p, int (*fn)(void *arg, const struct op *op), void *arg)
{
	enum { FOREACH_WINDOW = 1024 };
	struct op *win = malloc(FOREACH_WINDOW * sizeof(*win));
	int rc = 0;
	if (!win) {
		errno = ENOMEM;
		return -1;
	}
	struct prog_cursor cur;
	prog_cursor_start(&cur);
	while (cur.index < p->nops && !rc) {
		long n = prog_read_ops(p, &cur, win, FOREACH_WINDOW);
		if (n <= 0) {
			if (n == 0)
				errno = EIO;  /* shorter than nops says */
			rc = -1;
			break;
		}
		for (long k = 0; k < n && !rc; k++)
			rc = fn(arg, &win[k]);
	}
	free(win);
	return rc;
}
