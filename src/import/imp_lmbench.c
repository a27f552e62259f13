/* kbench - import: LMbench summaries (1.0, 1.1, 1.9, 2 and 3)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * lmbench 1.0 and 1.1 print other tables than 2.0 under titles that may
 * be indented and need not say "- smaller is better"; the banner's
 * version picks their layouts, and their columns keep 1.x's own words.
 *
 * lmbench's summary ("L M B E N C H 2 . 0 S U M M A R Y") is a set of
 * tables, each a title ("Context switching - times in microseconds -
 * smaller is better"), a header ("Host OS 2p/0K ..."), a rule of dashes
 * with one group per column, and a row per run: host, OS ("Linux
 * 2.5.49"), then the figures.  Several rows of one kernel are its runs:
 * row k of every table is run k of that summary.
 *
 * Mail programs squeeze the blanks out of the tables, so the columns are
 * told by counting: the tables lmbench 2 and 3 print are known here
 * (their columns are facts of lmbench's getsummary), the rule's groups
 * say which one a table is, and a row must hold one figure per numeric
 * column.  lmbench leaves a cell blank when a test did not run: where the
 * mail kept the spacing, every figure of such a row lies wholly under one
 * dash group of the rule, and the group is its column; a row whose
 * spacing is lost (a figure straddling two groups, a tab) cannot say
 * which cell is blank, and is skipped.  A cell that is not a plain number
 * ("3.0M") is skipped alone.
 * The Mhz column is the machine's, not a test's.  Each column that a
 * kbench micro test measures the same way names it (params.lm_name), so
 * compare prints lmbench's tables of imported runs too, each run in its
 * row (its run_no).
 * The OS column is 13 characters wide: a longer name is cut ("Linux
 * 2.4.0-t"), so the row does not say its kernel and two kernels' rows may
 * look alike.  Such rows are never pooled: each is a system of its own
 * (no kernel, "row K" and the cut name its heading), said once on
 * stderr, unless --rows N,N,... groups them (row k of every table in the
 * same group).
 */
#include "config.h"
#include "import/imp_readers.h"
#include "import/imp_util.h"
#include "import/impstore.h"
#include "import/imp_lmbench.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_COLS 16

struct layout {
	const char *title;          /* how the table's title begins (blanks before it passed over) */
	const char *ver;            /* the banner's version it is of ("1.0"), or NULL for 1.9 on */
	const char *cols[MAX_COLS]; /* after Host and OS; "Mhz" the machine's, "Guesses" text */
	const char *lm[MAX_COLS];   /* the kbench micro test of each column, or NULL */
};

static const struct layout layouts[] = {
	/* lmbench 1.0 and 1.1 print fewer tables and other columns, under
	 * titles indented and not always ending in "- smaller is better";
	 * their columns keep the words they print (1.x's "Null call" is a
	 * byte written to /dev/null, not 2.0's null call), and no kbench
	 * micro test is said to be one of them */
	{ "Processor, Processes", "1.0", { "Mhz", "Null Syscall", "Null Process",
		"Simple Process", "/bin/sh Process", "Mmap lat", "2-proc ctxsw", "8-proc ctxsw" },
	  { NULL } },
	{ "Processor, Processes", "1.1", { "Mhz", "Null call", "sig inst", "sig hndl",
		"fork Proc", "exec Proc", "sh Proc" }, { NULL } },
	{ "*Local* Communication latencies", "1.0", { "Pipe", "UDP", "RPC/UDP", "TCP", "RPC/TCP" },
	  { NULL } },
	{ "*Local* Communication latencies", "1.1", { "2p/0K ctxsw", "Pipe", "UDP", "RPC/UDP",
		"TCP", "RPC/TCP", "TCP conn" }, { NULL } },
	{ "*Local* Communication bandwidths", "1.0 1.1", { "Pipe", "TCP", "File reread",
		"Mmap reread", "Bcopy (libc)", "Bcopy (hand)", "Mem read", "Mem write" }, { NULL } },
	{ "Memory latencies", "1.0", { "Mhz", "L1 $", "L2 $", "Main mem", "TLB", "Guesses" },
	  { NULL } },
	{ "Processor, Processes", NULL, { "Mhz", "null call", "null I/O", "stat", "open clos",
		"slct TCP", "sig inst", "sig hndl", "fork proc", "exec proc", "sh proc" },
	  { NULL, "lat_syscall_null", "lat_syscall_io", "lat_syscall_stat", "lat_syscall_open",
	    "lat_select_tcp", "lat_sig_install", "lat_sig_hndl", "lat_proc_fork", "lat_proc_exec",
	    "lat_proc_shell" } },
	{ "Basic integer operations", NULL, { "intgr bit", "intgr add", "intgr mul", "intgr div",
		"intgr mod"  }, { NULL } },
	{ "Basic uint64 operations", NULL, { "int64 bit", "int64 add", "int64 mul", "int64 div",
		"int64 mod"  }, { NULL } },
	{ "Basic float operations", NULL, { "float add", "float mul", "float div",
		"float bogo"  }, { NULL } },
	{ "Basic double operations", NULL, { "double add", "double mul", "double div",
		"double bogo"  }, { NULL } },
	{ "Context switching", NULL, { "2p/0K ctxsw", "2p/16K ctxsw", "2p/64K ctxsw", "8p/16K ctxsw",
		"8p/64K ctxsw", "16p/16K ctxsw", "16p/64K ctxsw" },
	  { "lat_ctx_2p_0k", "lat_ctx_2p_16k", "lat_ctx_2p_64k", "lat_ctx_8p_16k", "lat_ctx_8p_64k",
	    "lat_ctx_16p_16k", "lat_ctx_16p_64k" } },
	{ "*Local* Communication latencies", NULL, { "2p/0K ctxsw", "Pipe", "AF UNIX", "UDP",
		"RPC/UDP", "TCP", "RPC/TCP", "TCP conn" },
	  { "lat_ctx_2p_0k", "lat_pipe", "lat_unix", "lat_udp", "lat_rpc_udp", "lat_tcp", "lat_rpc_tcp",
	    "lat_connect" } },
	{ "File & VM system latencies", NULL, { "0K File Create", "0K File Delete", "10K File Create",
		"10K File Delete", "Mmap Latency", "Prot Fault", "Page Fault" },
	  { "lat_fs_create_0k", "lat_fs_delete_0k", "lat_fs_create_10k", "lat_fs_delete_10k",
	    "lat_mmap", "lat_sig_prot", "lat_pagefault" } },
	{ "File & VM system latencies", NULL, { "0K File Create", "0K File Delete", "10K File Create",
		"10K File Delete", "Mmap Latency", "Prot Fault", "Page Fault", "100fd selct" },
	  { "lat_fs_create_0k", "lat_fs_delete_0k", "lat_fs_create_10k", "lat_fs_delete_10k",
	    "lat_mmap", "lat_sig_prot", "lat_pagefault", "lat_select_file" } },
	{ "*Local* Communication bandwidths", NULL, { "Pipe", "AF UNIX", "TCP", "File reread",
		"Mmap reread", "Bcopy (libc)", "Bcopy (hand)", "Mem read", "Mem write" },
	  { "bw_pipe", "bw_unix", "bw_tcp", "bw_file_rd", "bw_mmap_rd", "bw_mem_bcopy_libc",
	    "bw_mem_bcopy_loop", "bw_mem_rd", "bw_mem_wr" } },
	{ "Memory latencies", NULL, { "Mhz", "L1 $", "L2 $", "Main mem", "Guesses" },
	  { NULL, "lat_mem_l1", "lat_mem_l2", "lat_mem_main" } },
	{ "Memory latencies", NULL, { "Mhz", "L1 $", "L2 $", "Main mem", "Rand mem", "Guesses" },
	  { NULL, "lat_mem_l1", "lat_mem_l2", "lat_mem_main", "lat_mem_rand_main" } },
};

static size_t ncols(const struct layout *l)
{
	size_t n = 0;
	while (n < MAX_COLS && l->cols[n])
		n++;
	return n;
}

/* The unit of a table by its title, and its direction. */
static const char *unit_of(const char *title, bool *hib)
{
	/* lmbench 1.0's titles do not say; a bandwidth is bigger-better */
	*hib = strstr(title, "bigger is better") || strstr(title, "bandwidths");
	if (strstr(title, "nanoseconds"))
		return "ns";
	if (strstr(title, "microseconds"))
		return "us";
	if (strstr(title, "MB/s") || strstr(title, "megabytes/second"))
		return "MB/s";
	return NULL;
}

struct lm_ctx {
	char tool[40];
	char run[300];           /* the summary's banner, where */
	const struct layout *lay;
	const char *rule;        /* the table's rule of dash groups */
	const char *unit;
	bool hib;
	size_t row;              /* rows of this table so far */
	bool cut_said;           /* the cut OS column named (once a summary) */
};

/* lmbench's getsummary prints the OS column 13 characters wide and cuts a
 * longer name there ("Linux 2.4.0-test9" as "Linux 2.4.0-t") */
#define OS_WIDTH 13

/* The cells of a row with blanks, by where its figures stand: cell[i]
 * set to the figure under the rule's column i (after Host and OS), NULL
 * for a blank.  False when the spacing is lost: a tab, a figure not
 * wholly under one dash group, two figures under one group. */
static bool cells_by_place(const char *row, const char *rule, size_t nnum, bool guesses,
			   char **w, size_t n, char **cell)
{
	size_t gs[MAX_COLS + 4], ge[MAX_COLS + 4], ng = 0, k = 0;
	if (strchr(row, '\t') || strchr(rule, '\t'))
		return false;
	for (size_t i = 0; rule[i] && ng < MAX_COLS + 4;) {
		while (rule[i] == ' ')
			i++;
		if (!rule[i])
			break;
		gs[ng] = i;
		while (rule[i] && rule[i] != ' ')
			i++;
		ge[ng++] = i;  /* one past the group's last dash */
	}
	if (ng != nnum + 2 + (guesses ? 1 : 0))
		return false;
	for (size_t i = 0; i < nnum; i++)
		cell[i] = NULL;
	/* the row's words in order, found again in the line for their places */
	const char *p = row;
	for (size_t j = 0; j < n; j++) {
		while (*p && isspace((unsigned char)*p))
			p++;
		size_t at = (size_t)(p - row), len = strlen(w[j]);
		p += len;
		if (j < 3)
			continue;
		while (k < ng && ge[k] < at + len)
			k++;
		if (k >= ng || at < gs[k] || k < 2)
			return false;
		if (k - 2 >= nnum)  /* the Guesses column's words */
			break;
		if (cell[k - 2])
			return false;
		cell[k - 2] = w[j];
	}
	return true;
}

/* The OS column's width: its dash group in the table's rule (a summary
 * made with a wider column, as some lmbench 3 trees print, cuts nothing
 * at 13), else OS_WIDTH where the rule is lost or one run of dashes. */
static size_t os_width(const char *rule)
{
	size_t g = 0, len = 0;
	for (size_t i = 0; rule && rule[i];) {
		while (rule[i] == ' ')
			i++;
		size_t at = i;
		while (rule[i] && rule[i] != ' ')
			i++;
		if (i > at && ++g == 2)
			len = i - at;
	}
	return g >= 3 && len >= OS_WIDTH ? len : OS_WIDTH;
}

/* One row of a known table. */
static int lm_row(struct imp *im, const struct imp_file *f, size_t ln, struct lm_ctx *c)
{
	char copy[1024], *w[40], run[400], name[80], bad[200] = "";
	size_t n = imp_words(copy, w, (snprintf(copy, sizeof(copy), "%s", f->line[ln - 1]), 40));
	size_t nc = ncols(c->lay), nnum = nc, added = 0;
	bool guesses = !strcmp(c->lay->cols[nc - 1], "Guesses");
	double v;
	c->row++;
	if (guesses)
		nnum--;
	size_t cells = n >= 3 ? n - 3 : 0, numeric = 0;
	while (numeric < cells && (imp_number(w[3 + numeric], &v) ||
				   isdigit((unsigned char)w[3 + numeric][0])))
		numeric++;
	char *cell[MAX_COLS];
	for (size_t i = 0; i < nnum && i + 3 < n; i++)
		cell[i] = w[3 + i];
	if (n < 3 || numeric != nnum || (!guesses && cells != nnum)) {
		if (n < 3 || numeric > nnum || !c->rule ||
		    !cells_by_place(f->line[ln - 1], c->rule, nnum, guesses, w, n, cell)) {
			imp_skip(im, f, ln, "%zu figures for the %zu columns of '%s': the spacing "
				 "is lost, so which cell is blank is not known", numeric, nnum,
				 c->lay->title);
			return 0;
		}
	}
	struct imp_sys sys = { 0 };
	snprintf(sys.host, sizeof(sys.host), "%s", w[0]);
	snprintf(sys.kernel, sizeof(sys.kernel), "%s", w[2]);
	snprintf(run, sizeof(run), "%s | row %zu", c->run, c->row);
	size_t width = os_width(c->rule);
	if (strlen(w[1]) + 1 + strlen(w[2]) >= width) {
		/* the name is cut: it may be two kernels' ("2.4.0-test9",
		 * "2.4.0-test10") or hide which this one is; the rows are kept
		 * apart, each its own system, or grouped by --rows */
		size_t first, last;
		int g = imp_rows_group(im, c->row, &first, &last);
		if (im->nrows && g < 0) {
			imp_skip(im, f, ln, "--rows places fewer rows than this table's %zu", c->row);
			im->bad = true;
			return 0;
		}
		if (!c->cut_said) {
			c->cut_said = true;
			imp_warn(im, f, ln, "OS column cut at %zu characters ('%s %s'): which kernel "
				 "each row is, is not printed; %s", width, w[1], w[2],
				 im->nrows ? "rows grouped by --rows" :
				 "each row kept apart, their split into kernels not proven "
				 "(--rows N,N,... groups them)");
		}
		sys.kernel[0] = '\0';
		if (g >= 0)
			snprintf(sys.desc, sizeof(sys.desc), "rows %zu-%zu, OS '%.20s %.40s' cut",
				 first, last, w[1], w[2]);
		else
			snprintf(sys.desc, sizeof(sys.desc), "row %zu, OS '%.20s %.40s' cut (split "
				 "not proven)", c->row, w[1], w[2]);
	}
	for (size_t i = 0; i < nnum; i++) {
		const char *col = c->lay->cols[i];
		if (!cell[i])  /* blank: the test did not run */
			continue;
		if (!imp_number(cell[i], &v)) {
			snprintf(bad + strlen(bad), sizeof(bad) - strlen(bad), "%s%s '%s'",
				 bad[0] ? ", " : "", col, cell[i]);
			continue;
		}
		if (!strcmp(col, "Mhz")) {
			snprintf(sys.mhz, sizeof(sys.mhz), "%s", cell[i]);
			continue;
		}
		snprintf(name, sizeof(name), "lmbench: %s", col);
		struct imp_fig fig = { name, col, c->unit, c->hib, c->tool, NULL, 0, v, ln, run,
				       NULL, NULL, c->row, c->lay->lm[i] };
		if (imp_add(im, f, &sys, &fig) < 0)
			return -1;
		added++;
	}
	if (bad[0])
		imp_skip(im, f, ln, "not a plain figure: %s (the row's other figures are read)",
			 bad);
	imp_used(im, ln);
	return (int)added;
}

/* The layout of the table whose title is at ln: its header and rule
 * follow; *rows is set to the first row's line.  NULL when unknown (the
 * title's line is then named). */
/* Is the layout of the summary whose banner gave version ver ("1.0")? */
static bool of_version(const struct layout *l, const char *ver)
{
	size_t n = strlen(ver);
	for (const char *p = l->ver ? strstr(l->ver, ver) : NULL; p; p = strstr(p + 1, ver))
		if ((p == l->ver || p[-1] == ' ') && (!p[n] || p[n] == ' '))
			return true;
	return !l->ver;
}

/* Does t begin with the title of a table lmbench prints? */
static bool known_title(const char *t)
{
	for (size_t k = 0; k < sizeof(layouts) / sizeof(layouts[0]); k++)
		if (!strncmp(t, layouts[k].title, strlen(layouts[k].title)))
			return true;
	return false;
}

static const struct layout *find_layout(struct imp *im, const struct imp_file *f, size_t ln,
					const char *ver, size_t *rows, const char **rule)
{
	const char *title = f->line[ln - 1] + strspn(f->line[ln - 1], " \t");
	size_t i = ln + 1;
	while (i <= f->nlines && strncmp(f->line[i - 1], "Host", 4))
		if (i++ > ln + 3)
			return NULL;
	while (i <= f->nlines && f->line[i - 1][0] != '-')
		if (i++ > ln + 6)
			return NULL;
	if (i > f->nlines)
		return NULL;
	char copy[1024], *w[MAX_COLS + 4];
	snprintf(copy, sizeof(copy), "%s", f->line[i - 1]);
	size_t groups = imp_words(copy, w, MAX_COLS + 4);
	for (size_t k = ln; k <= i; k++)
		imp_used(im, k);
	*rows = i + 1;
	*rule = f->line[i - 1];
	for (size_t k = 0; k < sizeof(layouts) / sizeof(layouts[0]); k++)
		if (!strncmp(title, layouts[k].title, strlen(layouts[k].title)) &&
		    ncols(&layouts[k]) + 2 == groups && of_version(&layouts[k], ver))
			return &layouts[k];
	imp_skip(im, f, ln, "a table of %zu columns lmbench %s does not print under this "
		 "title", groups, ver);
	return NULL;
}

int imp_read_lmbench(struct imp *im, const struct imp_file *f)
{
	struct lm_ctx c;
	int added = 0;
	bool in = false;
	memset(&c, 0, sizeof(c));
	for (size_t ln = 1; ln <= f->nlines; ln++) {
		const char *l = f->line[ln - 1];
		if (strstr(l, "L M B E N C H ")) {
			const char *v = strstr(l, "L M B E N C H ") + 14;
			char ver[16] = "";
			for (size_t k = 0; *v && *v != 'S' && k + 1 < sizeof(ver); v++)
				if (*v != ' ')
					ver[k++] = *v, ver[k] = '\0';
			snprintf(c.tool, sizeof(c.tool), "lmbench %s", ver);
			snprintf(c.run, sizeof(c.run), "%s:%zu", f->path, ln);
			c.cut_said = false;
			in = true;
			imp_used(im, ln);
			continue;
		}
		if (!in)
			continue;
		if (!strncmp(l, "Basic system parameters", 23)) {
			imp_used(im, ln);
			continue;
		}
		bool hib;
		size_t rows;
		const char *unit = unit_of(l, &hib);
		if (!unit || (!strstr(l, " - ") && !known_title(l + strspn(l, " \t"))) ||
		    !(c.lay = find_layout(im, f, ln, c.tool + 8, &rows, &c.rule)))
			continue;
		/* the rows: up to a blank line or one that is no row (a rule, prose) */
		c.unit = unit;
		c.hib = hib;
		c.row = 0;
		for (ln = rows; !im->bad && ln <= f->nlines &&
			     isalnum((unsigned char)f->line[ln - 1][0]); ln++) {
			int rc = lm_row(im, f, ln, &c);
			if (rc < 0)
				return -1;
			added += rc;
		}
	}
	return added;
}

/* The rule under a table's header: a line of dash groups. */
static bool dash_rule(const char *l)
{
	size_t len = strlen(l);
	return len && l[0] == '-' && strspn(l, "- \t") == len && strstr(l, "- -");
}

bool imp_lmbench_near(const struct imp_file *f, char *out, size_t n)
{
	size_t banner = 0;
	for (size_t ln = 1; ln <= f->nlines; ln++) {
		const char *l = f->line[ln - 1], *t = l + strspn(l, " \t");
		bool hib;
		if (strstr(l, "L M B E N C H ")) {
			banner = ln;
			continue;
		}
		if (!known_title(t) || !unit_of(t, &hib))
			continue;
		size_t host = 0, rule = 0;
		for (size_t i = ln + 1; i <= f->nlines && i <= ln + 3 && !host; i++)
			if (!strncmp(f->line[i - 1], "Host", 4))
				host = i;
		for (size_t i = host + 1; host && i <= f->nlines && i <= host + 3 && !rule; i++)
			if (dash_rule(f->line[i - 1]))
				rule = i;
		if (!banner)
			snprintf(out, n, "line %zu: an LMbench table title with no 'L M B E N C H ... "
				 "S U M M A R Y' banner above it", ln);
		else if (!host)
			snprintf(out, n, "line %zu: an LMbench table title without the 'Host  OS ...' "
				 "header lmbench prints under it", ln);
		else if (!rule)
			snprintf(out, n, "line %zu: an LMbench table heading without the column rule "
				 "LMbench 2.0 prints (a line of dash groups, one a column)", host);
		else
			snprintf(out, n, "line %zu: an LMbench table whose columns no lmbench version "
				 "kbench import knows prints under this title", ln);
		return true;
	}
	if (banner)
		snprintf(out, n, "line %zu: an LMbench banner with no table title under it that "
			 "lmbench 1.0 to 3 prints", banner);
	return banner != 0;
}
