/* kbench - import: whose runs a block of dbench, tbench or hdparm runs is
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Runs are one system only when one kernel line (or the report's single
 * kernel) heads them all.  imp_tput.c's reader keeps what the lines above
 * named; this file says where that stops holding.  A block of runs is
 * the runs of one quote class that no prose, no change of quote level and
 * no kernel line or heading interrupts.  A block after prose, or at
 * another quote level, that no kernel line or heading of its own heads
 * is not the block above's unless nothing else could be (the report
 * names at most one kernel and no heading named the block above): it is
 * a system of its own, named by the words right above it, its kernel the
 * report's single one or none ("kernel not proven"), said on stderr.  The
 * same words over two blocks are one heading, one system.  A kernel line
 * right above a block heads it whatever its quote marks (the poster's
 * own output set off by "| ").  Also here: a line naming several kernels
 * over runs, and --rows' split of them.
 */
#include "config.h"
#include "import/imp_util.h"
#include "import/impstore.h"
#include "import/imp_tblock.h"

#include <stdio.h>
#include <string.h>

/* Under a split not proven, the system --rows places the run of test
 * name on line ln in: kernel i of the line when --rows gives as many
 * groups as it named kernels, else "runs A-B of each test".  false, and
 * im->bad after a line, when --rows places fewer runs; sys alone without
 * --rows. */
bool tput_rows_sys(struct imp *im, const struct imp_file *f, size_t ln,
		     const struct tput_ctx *c, const char *name, struct imp_sys *sys)
{
	struct split_runs *r = c->runs;
	size_t t = 0, first, last;
	if (!c->split || !im->nrows)
		return true;
	while (t < r->ntests && strcmp(r->test[t], name))
		t++;
	if (t == r->ntests) {
		if (t == SPLIT_TESTS) {
			imp_skip(im, f, ln, "more than %d tests under one split", SPLIT_TESTS);
			im->bad = true;
			return false;
		}
		snprintf(r->test[t], sizeof(r->test[t]), "%s", name);
		r->runs[t] = 0;
		r->ntests++;
	}
	int g = imp_rows_group(im, ++r->runs[t], &first, &last);
	if (g < 0) {
		imp_skip(im, f, ln, "%s's run %zu: --rows places fewer runs of each test", name,
			 r->runs[t]);
		im->bad = true;
		return false;
	}
	memset(sys, 0, sizeof(*sys));
	if (im->nrows == r->nkernels)
		snprintf(sys->kernel, sizeof(sys->kernel), "%s", r->kernel[g]);
	else
		snprintf(sys->desc, sizeof(sys->desc), "runs %zu-%zu of each test (--rows)", first,
			 last);
	return true;
}

/* Said once, at the first figure under it: the line above that named
 * several kernels leaves their split unproven. */
void tput_say_split(struct imp *im, const struct imp_file *f, struct tput_ctx *c)
{
	if (!c->split || c->split_said)
		return;
	c->split_said = true;
	if (im->nrows)
		imp_warn(im, f, c->split, "names several kernels: each test's runs below split "
			 "between them by --rows, in the order printed");
	else
		imp_warn(im, f, c->split, "names several kernels: the runs below are kept together "
			 "in the order printed, their split between them not proven (--rows N,N,... "
			 "splits them)");
}


bool tput_is_run(const char *l)
{
	const char *t = strstr(l, "Throughput ");
	char w[64];
	double v;
	if (t && sscanf(t + 11, "%63s", w) == 1 && imp_number(w, &v) && strstr(t, "MB/sec"))
		return true;
	t = strstr(l, "Timing ");
	return t && strchr(t, ':') && strchr(t, '=');
}

/* The quote level of line ln: how many marks its prefix held ("> > ",
 * ">> ", "| ", "~ ", " ES> "), 0 for the poster's own lines. */
static size_t depth_of(const struct imp_file *f, size_t ln)
{
	const char *text = f->line[ln - 1], *p = text;
	size_t d = 0;
	if (!(f->flag[ln - 1] & IMP_LINE_QUOTED))
		return 0;
	while (p > f->buf && p[-1])  /* back to where the line began */
		p--;
	for (; p < text; p++)
		d += strchr(">|~:", *p) != NULL;
	return d ? d : 1;
}

/* The words right above line ln, blank lines, hdparm's "/dev/sda:" and
 * elisions ("...") passed over, without a closing ':' into out; "" when
 * a run is right above or nothing is. */
static void words_above(const struct imp_file *f, size_t ln, char *out, size_t n)
{
	out[0] = '\0';
	for (size_t i = ln - 1; i >= 1 && i + 8 >= ln; i--) {
		const char *l = f->line[i - 1] + strspn(f->line[i - 1], " \t");
		size_t len = strlen(l);
		if (!len || strspn(l, ".-=_ \t") == len ||
		    (!strncmp(l, "/dev/", 5) && l[len - 1] == ':' && !strchr(l, ' ')))
			continue;
		if (tput_is_run(l))
			return;
		while (len && strchr(" \t:", l[len - 1]))
			len--;
		imp_trim_copy(out, n, l, len);
		return;
	}
}

void tput_block_begin(struct imp *im, const struct imp_file *f, size_t ln, struct tput_ctx *c)
{
	bool q = f->flag[ln - 1] & IMP_LINE_QUOTED;
	struct tput_block *b = &c->blk[q];
	struct imp_sys *to = q ? &c->qsys : &c->sys, k;
	size_t depth = depth_of(f, ln);
	bool moved = b->last && b->depth != depth, first = !b->last;
	char h[160];
	/* a kernel line or heading at another quote level heads no runs here */
	if (b->fresh && b->fresh_depth != depth)
		b->fresh = false, moved = true;
	/* the report's one kernel, on lines of this class or else of the other */
	size_t kq = c->kern->n[q] ? q : !q, nk = c->kern->n[kq];
	if (!first && !b->fresh && !b->stale && !moved) {
		b->last = ln;  /* the same block */
		return;
	}
	words_above(f, ln, h, sizeof(h));
	if (!b->fresh && h[0] && imp_kernel_line(h, &k) && !c->split) {
		/* a kernel line right above heads the block, whatever its marks */
		if (!k.build[0] && imp_kernel_worded(c->kern, k.kernel))
			snprintf(k.desc, sizeof(k.desc), "%s", h);
		*to = k;
	} else if (!b->fresh && (first ? !to->kernel[0] && !to->desc[0] && nk >= 2 :
				 strcmp(h, b->heading) && (nk >= 2 || to->desc[0]))) {
		/* prose or another quote level since the block above, and no
		 * line heads this one: whose runs they are is not proven */
		memset(to, 0, sizeof(*to));
		if (nk == 1)
			snprintf(to->kernel, sizeof(to->kernel), "%s", c->kern->first[kq]);
		if (!h[0])
			snprintf(h, sizeof(h), "runs from line %zu", ln);
		snprintf(to->desc, sizeof(to->desc), "%.120s%s", h,
			 to->kernel[0] ? "" : " (kernel not proven)");
		c->split = 0;
		imp_warn(im, f, ln, "no kernel line heads the runs from here (%s): kept apart "
			 "as '%s'%s", first ? "the report names several kernels" : moved ?
			 "another quote level than the runs above" : "prose since the runs above",
			 h, to->kernel[0] ? ", the report's one kernel" : ", kernel not proven");
	}
	snprintf(b->heading, sizeof(b->heading), "%s", h);
	b->fresh = b->stale = false;
	b->depth = depth;
	b->last = ln;
}

void tput_block_noted(struct tput_ctx *c, const struct imp_file *f, size_t ln)
{
	bool q = f->flag[ln - 1] & IMP_LINE_QUOTED;
	c->blk[q].fresh = true;
	c->blk[q].fresh_depth = depth_of(f, ln);
	c->blk[q].stale = false;
	c->blk[!q].stale = true;  /* it may head the other class's runs too */
}

void tput_block_prose(struct imp *im, const struct imp_file *f, size_t ln, struct tput_ctx *c)
{
	const char *l = f->line[ln - 1];
	if ((im->used && im->used[ln - 1]) || !imp_prose_line(l))
		return;
	c->blk[0].stale = c->blk[1].stale = true;
}

void tput_kernel_heads(const struct imp_file *f, struct imp_kernels *k)
{
	char h[160];
	for (size_t ln = 1; ln <= f->nlines; ln++)
		if (tput_is_run(f->line[ln - 1]) && (words_above(f, ln, h, sizeof(h)), h[0]))
			imp_kernels_heads(k, h);
}
