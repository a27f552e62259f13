/* kbench - unit tests: the loadfile parser (every opcode, status, error)
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"
#include "load/loadfile/progread.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "load/loadfile/lfparse.h"
#include "load/loadfile/loadfile.h"

/* Parse text; on success return ops in *ops (caller frees). Errors go to
 * a buffer returned in *errs (caller frees). Returns loadfile's rc. */
static enum lf_format fmt = LF_AUTO;

static int parse(const char *text, size_t len, struct program *prog, struct op **ops, char **errs)
{
	char *ebuf = NULL;
	size_t elen = 0;
	FILE *ef = open_memstream(&ebuf, &elen);
	FILE *in = fmemopen((void *)text, len, "r");
	assert_non_null(ef);
	assert_non_null(in);
	int rc = loadfile_parse_stream(in, "t.txt", fmt, prog, ef, 50);
	fclose(in);
	fclose(ef);
	*errs = ebuf;
	*ops = NULL;
	if (rc == 0) {
		*ops = calloc(prog->nops + 1, sizeof(struct op));
		struct prog_cursor cur;
		prog_cursor_start(&cur);
		for (size_t got = 0; got < prog->nops;) {
			long n = prog_read_ops(prog, &cur, *ops + got, prog->nops - got);
			assert_true(n > 0);
			got += (size_t)n;
		}
		assert_int_equal(prog_read_ops(prog, &cur, *ops, 1), 0);
		assert_int_equal(cur.at, prog->code_bytes);
	}
	return rc;
}

static int parse_str(const char *text, struct program *prog, struct op **ops, char **errs)
{
	return parse(text, strlen(text), prog, ops, errs);
}

/* The error output of a text that must fail to parse. */
static char *parse_error(const char *text)
{
	struct program prog;
	struct op *ops;
	char *errs;
	int rc = parse_str(text, &prog, &ops, &errs);
	assert_true(rc > 0);
	assert_null(ops);
	return errs;
}

static void expect_error(const char *text, const char *want)
{
	fmt = LF_DBENCH4;
	char *errs = parse_error(text);
	fmt = LF_AUTO;
	if (!strstr(errs, want))
		fail_msg("for input <%s> expected error containing <%s>, got <%s>", text, want, errs);
	free(errs);
}

static void test_every_opcode(void **state)
{
	(void)state;
	const char *text =
		"NTCreateX \"\\clients\\client1\\~dmtmp\\A.DOC\" 0x40 0x5 9938 NT_STATUS_OK\n"
		"Close 9938 NT_STATUS_OK\n"
		"Rename \"\\clients\\client1\\a\" \"\\clients\\client1\\B\" NT_STATUS_OK\n"
		"Unlink \"\\clients\\client1\\b\" 0x6 NT_STATUS_OK\n"
		"Deltree \"\\clients\\client1\" NT_STATUS_OK\n"
		"Rmdir \"\\clients\\client1\\d\" NT_STATUS_OK\n"
		"Mkdir \"\\clients\" NT_STATUS_OK\n"
		"QUERY_PATH_INFORMATION \"\\clients\\client1\\x\" 1004 NT_STATUS_OBJECT_NAME_NOT_FOUND\n"
		"QUERY_FILE_INFORMATION 9938 258 NT_STATUS_OK\n"
		"QUERY_FS_INFORMATION 259 NT_STATUS_OK\n"
		"SET_FILE_INFORMATION 9938 1004 NT_STATUS_OK\n"
		"FIND_FIRST \"\\clients\\client1\\<.JNK\" 260 1366 0 NT_STATUS_NO_SUCH_FILE\n"
		"WriteX 9938 65534 1 1 NT_STATUS_OK\n"
		"ReadX 9938 0 4096 4096 NT_STATUS_OK\n"
		"LockX 9938 2147483538 1 NT_STATUS_OK\n"
		"UnlockX 9938 2147483538 1 NT_STATUS_OK\n"
		"Flush 9938 NT_STATUS_OK\n"
		"Sleep 1500 NT_STATUS_OK\n";
	struct program prog;
	struct op *ops;
	char *errs;
	assert_int_equal(parse_str(text, &prog, &ops, &errs), 0);
	assert_int_equal(prog.nops, 18);
	for (unsigned i = 0; i < OP_COUNT; i++)
		assert_int_equal(prog.count[i], 1);

	assert_int_equal(ops[0].code, OP_NTCREATEX);
	assert_string_equal(prog_path(&prog, ops[0].path1), "~dmtmp/a.doc");
	assert_int_equal(ops[0].flags & OPF_SHARED1, 0);
	assert_int_equal(ops[0].arg, 0x40);
	assert_int_equal(ops[0].aux, 5);
	/* FILE_OVERWRITE_IF of a file, decoded once: created, cut, -x's attribute */
	assert_int_equal(ops[0].open, OPEN_CREATES | OPEN_CREAT | OPEN_TRUNC);
	assert_int_equal(ops[0].line, 1);
	assert_int_equal(ops[0].expect, EXPECT_OK);
	assert_int_equal(ops[1].code, OP_CLOSE);
	assert_int_equal(ops[1].handle, ops[0].handle);
	assert_int_equal(ops[2].code, OP_RENAME);
	assert_string_equal(prog_path(&prog, ops[2].path1), "a");
	assert_string_equal(prog_path(&prog, ops[2].path2), "b");
	assert_int_equal(ops[3].code, OP_UNLINK);
	assert_int_equal(ops[3].path1, ops[2].path2);  /* interned once */
	assert_int_equal(ops[4].code, OP_DELTREE);
	assert_string_equal(prog_path(&prog, ops[4].path1), ".");
	assert_int_equal(ops[6].code, OP_MKDIR);
	assert_string_equal(prog_path(&prog, ops[6].path1), "clients");
	assert_int_equal(ops[6].flags & OPF_SHARED1, OPF_SHARED1);
	assert_int_equal(ops[7].expect, EXPECT_FAIL);
	assert_int_equal(ops[9].code, OP_QFSINFO);
	assert_int_equal(ops[9].arg, 259);
	assert_int_equal(ops[11].code, OP_FIND_FIRST);
	assert_true(ops[11].flags & OPF_WILDCARD);
	assert_string_equal(prog_path(&prog, ops[11].path1), "*.jnk");
	assert_int_equal(ops[11].arg, 1366);
	assert_int_equal(ops[12].code, OP_WRITEX);
	assert_int_equal(ops[12].off, 65534);
	assert_int_equal(ops[12].len, 1);
	assert_int_equal(ops[13].code, OP_READX);
	assert_int_equal(ops[13].len, 4096);
	assert_int_equal(ops[14].off, 2147483538ull);
	assert_int_equal(ops[14].len, 1);
	assert_int_equal(ops[17].code, OP_SLEEP);
	assert_int_equal(ops[17].off, 1500);
	assert_int_equal(prog.nhandles, 1);
	assert_int_equal(prog.max_io, 4096);
	assert_int_equal(prog.bytes_read, 4096);
	assert_int_equal(prog.bytes_written, 1);
	assert_int_equal(prog.timed, 0);
	free(ops);
	free(errs);
	prog_free(&prog);
}

static void test_status_forms(void **state)
{
	(void)state;
	const char *text =
		"Close 1 NT_STATUS_OK\n"
		"Close 1 0x0\n"
		"Close 1 0x00000000\n"
		"Close 1 SUCCESS\n"
		"Close 1 NT_STATUS_OBJECT_NAME_NOT_FOUND\n"
		"Close 1 0xC0000034\n"
		"Close 1 ERROR\n"
		"Close 1 *\n";
	const uint8_t want[] = { EXPECT_OK, EXPECT_OK, EXPECT_OK, EXPECT_OK,
				 EXPECT_FAIL, EXPECT_FAIL, EXPECT_FAIL, EXPECT_ANY };
	struct program prog;
	struct op *ops;
	char *errs;
	assert_int_equal(parse_str(text, &prog, &ops, &errs), 0);
	assert_int_equal(prog.nops, 8);
	for (unsigned i = 0; i < 8; i++)
		assert_int_equal(ops[i].expect, want[i]);
	free(ops);
	free(errs);
	prog_free(&prog);
}

static void test_layout(void **state)
{
	(void)state;
	/* comments, blank lines, CRLF, tabs, timestamps, no final newline */
	const char *text =
		"# a comment\r\n"
		"\r\n"
		"   \t\n"
		"0.500 Close 7 NT_STATUS_OK\r\n"
		"\t1.25\tFlush\t7\tNT_STATUS_OK\n"
		"Close 7 NT_STATUS_OK";
	struct program prog;
	struct op *ops;
	char *errs;
	assert_int_equal(parse_str(text, &prog, &ops, &errs), 0);
	assert_int_equal(prog.nops, 3);
	assert_int_equal(prog.nlines, 6);
	assert_int_equal(ops[0].line, 4);
	assert_int_equal(ops[0].ts_ns, 500000000ull);
	assert_true(ops[0].flags & OPF_TIMED);
	assert_int_equal(ops[1].ts_ns, 1250000000ull);
	assert_int_equal(ops[1].code, OP_FLUSH);
	assert_int_equal(ops[2].line, 6);
	assert_int_equal(ops[2].expect, EXPECT_OK);  /* last char kept */
	assert_false(ops[2].flags & OPF_TIMED);
	assert_int_equal(prog.timed, 1);
	free(ops);
	free(errs);
	prog_free(&prog);
}

static void test_blank_first_line(void **state)
{
	(void)state;
	/* found by the fuzzer: an empty first line, before any buffer exists */
	struct program prog;
	struct op *ops;
	char *errs;
	assert_int_equal(parse_str("\n\nClose 1 NT_STATUS_OK\n", &prog, &ops, &errs), 0);
	assert_int_equal(prog.nblank, 2);
	assert_int_equal(ops[0].line, 3);
	free(ops);
	free(errs);
	prog_free(&prog);
	assert_true(parse_str("\n ", &prog, &ops, &errs) > 0);
	free(errs);
}

static void test_long_tokens_and_handles(void **state)
{
	(void)state;
	/* a 200-character file name (dbench overflows at 100) and handle
	 * numbers far beyond 32 bits */
	char name[201];
	memset(name, 'q', 200);
	name[200] = '\0';
	char text[1024];
	snprintf(text, sizeof(text),
		 "NTCreateX \"\\clients\\client1\\%s\" 0x0 0x2 18446744073709551615 NT_STATUS_OK\n"
		 "NTCreateX \"\\clients\\client1\\b\" 0x0 0x2 4294967296 NT_STATUS_OK\n"
		 "Close 18446744073709551615 NT_STATUS_OK\n",
		 name);
	struct program prog;
	struct op *ops;
	char *errs;
	assert_int_equal(parse_str(text, &prog, &ops, &errs), 0);
	assert_string_equal(prog_path(&prog, ops[0].path1), name);
	assert_int_equal(prog.nhandles, 2);
	assert_int_equal(ops[0].handle, ops[2].handle);
	assert_int_not_equal(ops[0].handle, ops[1].handle);
	free(ops);
	free(errs);
	prog_free(&prog);
}

static void test_many_handles(void **state)
{
	(void)state;
	/* 5000 handles open at once: the dense map grows */
	size_t cap = 5000 * 64, len = 0;
	char *text = malloc(cap);
	for (unsigned i = 0; i < 5000; i++)
		len += (size_t)snprintf(text + len, cap - len,
					"NTCreateX \"\\clients\\client1\\f%u\" 0x0 0x2 %u NT_STATUS_OK\n",
					i, 1000000 + i * 7);
	struct program prog;
	struct op *ops;
	char *errs;
	assert_int_equal(parse(text, len, &prog, &ops, &errs), 0);
	assert_int_equal(prog.nhandles, 5000);
	for (unsigned i = 0; i < 5000; i++)
		assert_int_equal(ops[i].handle, i);
	free(ops);
	free(errs);
	free(text);
	prog_free(&prog);
}

static void test_errors(void **state)
{
	(void)state;
	expect_error("Frobnicate 1 NT_STATUS_OK\n", "t.txt:1: unknown operation 'Frobnicate'");
	expect_error("Close 1\n", "t.txt:1: Close: missing expected status");
	expect_error("ReadX 1 0 NT_STATUS_OK\n", "t.txt:1: ReadX: too few arguments");
	expect_error("Close 1 2 3 NT_STATUS_OK\n", "t.txt:1: Close: too many arguments");
	expect_error("Close 1 NT_STATUS_bogus\n", "t.txt:1: Close: bad status 'NT_STATUS_bogus'");
	expect_error("Close 1 0xZZ\n", "bad status '0xZZ'");
	expect_error("Close 1 OK\n", "bad status 'OK'");
	expect_error("ReadX 1 -5 10 10 NT_STATUS_OK\n", "offset: negative value '-5'");
	expect_error("ReadX 1 0 -1 10 NT_STATUS_OK\n", "size: negative value '-1'");
	expect_error("ReadX 1 9223372036854775808 1 1 NT_STATUS_OK\n", "offset: '9223372036854775808' is out of range");
	expect_error("ReadX 1 9223372036854775807 1 1 NT_STATUS_OK\n", "offset + size is past 2^63");
	expect_error("WriteX 1 0 67108865 1 NT_STATUS_OK\n", "size: '67108865' is out of range");
	expect_error("Close 99999999999999999999999 NT_STATUS_OK\n", "handle: '99999999999999999999999' is out of range");
	expect_error("Close abc NT_STATUS_OK\n", "handle: 'abc' is not a number");
	expect_error("Close 0x NT_STATUS_OK\n", "handle: '0x' is not a number");
	expect_error("NTCreateX \"\\clients\\client1\\a 0x0 0x2 1 NT_STATUS_OK\n", "unterminated quote");
	expect_error("NTCreateX \"\\clients\\client1\\a\" 0x0 0x9 1 NT_STATUS_OK\n", "disposition: '0x9' is out of range (max 5)");
	expect_error("Unlink \"\\clients\\client1\\..\\..\\..\\etc\\passwd\" 0x6 NT_STATUS_OK\n",
		     "path climbs out of the directory");
	expect_error("Unlink \"\\..\" 0x6 NT_STATUS_OK\n", "path climbs out of the directory");
	expect_error("1.5\n", "timestamp without an operation");
	expect_error("1.2.3 Close 1 NT_STATUS_OK\n", "bad timestamp '1.2.3'");
	expect_error("# only a comment\n\n", "t.txt:2: no operations in loadfile");
	char many[256] = "Close";
	for (int i = 0; i < 33; i++)
		strcat(many, " 1");
	strcat(many, "\n");
	expect_error(many, "too many tokens (more than 32)");
	fmt = LF_DBENCH4;
	char *plain = parse_error(many);
	fmt = LF_AUTO;
	assert_null(strstr(plain, "carriage"));
	free(plain);
	/* CR-only line ends: the whole file is one line */
	char cr[512] = "";
	for (int i = 0; i < 12; i++)
		strcat(cr, "Close 1 NT_STATUS_OK\r");
	strcat(cr, "\n");
	expect_error(cr, "t.txt:1: carriage return inside the line: lines end with LF or CRLF, "
		     "not CR alone\n");
	fmt = LF_DBENCH4;
	char *one = parse_error(cr);
	fmt = LF_AUTO;
	assert_null(strchr(strchr(one, '\n') + 1, '\n'));  /* that line alone */
	free(one);
	/* binary bytes beside a CR are not CR-only text: the format's checks */
	expect_error("Close 1\r\001 NT_STATUS_OK\n", "t.txt:1: ");
	fmt = LF_DBENCH4;
	char *bin = parse_error("Close 1\r\001 NT_STATUS_OK\n");
	fmt = LF_AUTO;
	assert_null(strstr(bin, "carriage"));
	free(bin);
	/* a CR inside a later line is left to the format's own checks */
	expect_error("Close 1 NT_STATUS_OK\nClose 1\rx NT_STATUS_OK\n", "t.txt:2: ");
	expect_error("FIND_FIRST \"\\clients\\client1\\*\\x\" 260 10 0 NT_STATUS_OK\n",
		     "wildcard outside the last path component");
	expect_error("1e3 Close 1 NT_STATUS_OK\n", "bad timestamp '1e3'");
	expect_error("0x10 Close 1 NT_STATUS_OK\n", "bad timestamp '0x10'");
	expect_error("Deltree \"\\\" NT_STATUS_OK\n", "Deltree of the run directory itself is refused");
	expect_error("Rmdir \"\\clients\\..\" NT_STATUS_OK\n", "Rmdir of the run directory itself is refused");
	char longname[400];
	snprintf(longname, sizeof(longname), "Unlink \"\\clients\\client1\\%0300d\" 0x6 NT_STATUS_OK\n", 0);
	expect_error(longname, "path component longer than 255 bytes");
}

static void test_error_line_numbers_all_reported(void **state)
{
	(void)state;
	char *errs = parse_error("Close 1 NT_STATUS_OK\nBad 1 x\nClose 1 NT_STATUS_OK\nClose x NT_STATUS_OK\n");
	assert_non_null(strstr(errs, "t.txt:2: unknown operation 'Bad'"));
	assert_non_null(strstr(errs, "t.txt:4: handle: 'x' is not a number"));
	free(errs);
}

static void test_nul_byte(void **state)
{
	(void)state;
	static const char text[] = "Close 1 NT_STATUS_OK\nClo\0se 1 NT_STATUS_OK\n";
	struct program prog;
	struct op *ops;
	char *errs;
	assert_true(parse(text, sizeof(text) - 1, &prog, &ops, &errs) > 0);
	assert_non_null(strstr(errs, "t.txt:2: NUL byte"));
	free(errs);
}

static void test_huge_line(void **state)
{
	(void)state;
	/* a 1 MB line is an error with a line number, not a crash */
	size_t n = 1 << 20;
	char *text = malloc(n + 64);
	strcpy(text, "Close 1 NT_STATUS_OK\nUnlink \"");
	size_t at = strlen(text);
	memset(text + at, 'a', n);
	strcpy(text + at + n, "\" 0x6 NT_STATUS_OK\n");
	struct program prog;
	struct op *ops;
	char *errs;
	assert_true(parse_str(text, &prog, &ops, &errs) > 0);
	assert_non_null(strstr(errs, "t.txt:2: path component longer than 255 bytes"));
	free(errs);
	free(text);
}

static void test_lines_across_reads(void **state)
{
	(void)state;
	/* lines that straddle the reader's chunks, and a comment longer
	 * than its first buffer (the unread part moved, the buffer grown):
	 * every line is seen whole, in order, the last one without '\n' */
	size_t nclose = 3000, nflush = 20000, ncomment = 700 << 10;
	const char *cl = "Close 7 NT_STATUS_OK\n", *fl = "Flush 7 NT_STATUS_OK\n";
	size_t cap = (nclose + nflush) * 32 + ncomment + 64, at = 0;
	char *text = malloc(cap);
	assert_non_null(text);
	for (size_t i = 0; i < nclose; i++)
		at += (size_t)sprintf(text + at, "%s", cl);
	text[at++] = '#';
	memset(text + at, 'c', ncomment);
	at += ncomment;
	text[at++] = '\n';
	for (size_t i = 0; i < nflush; i++)
		at += (size_t)sprintf(text + at, "%s", fl);
	at += (size_t)sprintf(text + at, "Close 7 NT_STATUS_OK");
	struct program prog;
	struct op *ops;
	char *errs;
	assert_int_equal(parse(text, at, &prog, &ops, &errs), 0);
	assert_int_equal(prog.nops, nclose + nflush + 1);
	assert_int_equal(prog.nlines, nclose + nflush + 2);
	assert_int_equal(prog.ncomments, 1);
	assert_int_equal(ops[nclose - 1].code, OP_CLOSE);
	assert_int_equal(ops[nclose].code, OP_FLUSH);
	assert_int_equal(ops[nclose].line, nclose + 2);
	for (size_t i = nclose; i < nclose + nflush; i++)
		if (ops[i].code != OP_FLUSH || ops[i].line != i + 2)
			fail_msg("op %zu: code %d line %u", i, (int)ops[i].code, (unsigned)ops[i].line);
	assert_int_equal(ops[nclose + nflush].code, OP_CLOSE);
	assert_int_equal(ops[nclose + nflush].line, nclose + nflush + 2);
	free(ops);
	free(errs);
	free(text);
	prog_free(&prog);
}

static void test_lock_lengths_and_brackets(void **state)
{
	(void)state;
	const char *text =
		"LockX 1 0 8589934593 NT_STATUS_OK\n"
		"FIND_FIRST \"\\clients\\client1\\[a]*.TXT\" 260 10 0 NT_STATUS_OK\n"
		"FIND_FIRST \"\\clients\\client1\\x*\" 260 1366 7 NT_STATUS_OK\n";
	struct program prog;
	struct op *ops;
	char *errs;
	assert_int_equal(parse_str(text, &prog, &ops, &errs), 0);
	/* a lock length above 2^32 keeps its high bits */
	assert_int_equal(((uint64_t)ops[0].arg << 32) | ops[0].len, 8589934593ull);
	/* '[' is a plain character for DOS: escaped for fnmatch */
	assert_string_equal(prog_path(&prog, ops[1].path1), "\\[a\\]*.txt");
	/* FIND_FIRST keeps the count of entries its line says came back
	 * (tbench's reply size), and maxcnt */
	assert_int_equal(ops[1].ret, 0);
	assert_int_equal(ops[2].ret, 7);
	assert_int_equal(ops[2].arg, 1366);
	free(ops);
	free(errs);
	prog_free(&prog);
}

static void test_dbench2_and_dbench1(void **state)
{
	(void)state;
	const char *d2 =
		"NTCreateX \\clients\\client1\\A.TXT 0x40 0x1 -1\n"
		"NTCreateX \\clients\\client1\\A.TXT 0x40 0x2 12\n"
		"FIND_FIRST \\clients\\client1\\A\"*\n"
		"QUERY_PATH_INFORMATION \\clients\\client1\\A.TXT\n"
		"Close 12\n";
	struct program prog;
	struct op *ops;
	char *errs;
	assert_int_equal(parse_str(d2, &prog, &ops, &errs), 0);
	assert_int_equal(prog.format, LF_DBENCH2);
	assert_int_equal(ops[0].expect, EXPECT_FAIL);
	assert_int_equal(ops[0].handle, NO_HANDLE);
	assert_int_equal(ops[1].expect, EXPECT_OK);
	assert_string_equal(prog_path(&prog, ops[2].path1), "a.*");
	assert_true(ops[2].flags & OPF_WILDCARD);
	assert_int_equal(ops[3].expect, EXPECT_ANY);
	assert_int_equal(ops[4].handle, ops[1].handle);
	free(ops);
	free(errs);
	prog_free(&prog);

	const char *d1 =
		"SMBopenX REQUEST Path \\CLIENTS\\CLIENT1\\X.DOC\n"
		"SMBopenX REPLY ERRDOS ERRbadfile\n"
		"CREATE REQUEST Path \\CLIENTS\\CLIENT1\\X.DOC Size 2500000\n"
		"SMBopenX REQUEST Path \\CLIENTS\\CLIENT1\\X.DOC\n"
		"SMBopenX REPLY Handle 9 Size 2500000\n"
		"SMBwritebraw REQUEST Handle 9 Size 100 Offset 7\n"
		"SMBtconX REQUEST Path \\\\SERVER\\SHARE\n";
	assert_int_equal(parse_str(d1, &prog, &ops, &errs), 0);
	assert_int_equal(prog.format, LF_DBENCH1);
	assert_int_equal(prog.nops, 8);  /* open, create+3 writes+close, open, write */
	assert_int_equal(ops[0].code, OP_NTCREATEX);
	assert_int_equal(ops[0].expect, EXPECT_FAIL);
	assert_int_equal(ops[0].line, 2);  /* acts on the REPLY */
	assert_int_equal(ops[2].code, OP_WRITEX);
	assert_int_equal(ops[4].len, 2500000 - 2 * 1048576);
	assert_int_equal(ops[5].code, OP_CLOSE);
	assert_true(ops[6].flags & OPF_OPEN_IF);
	assert_int_equal(ops[6].open, OPEN_CREAT);  /* FILE_OPEN, made if missing, not cut */
	assert_int_equal(ops[7].off, 7);
	assert_int_equal(ops[7].len, 100);
	assert_int_equal(ops[7].handle, ops[6].handle);
	assert_int_equal(prog.ignored_total, 1);
	assert_string_equal(prog.ignored[0].name, "SMBtconX");
	free(ops);
	free(errs);
	prog_free(&prog);
}

/* The ignored-line count of one kind, or 0. */
static uint64_t ignored(const struct program *prog, const char *kind)
{
	for (uint32_t i = 0; i < prog->nignored_kinds; i++)
		if (strcmp(prog->ignored[i].name, kind) == 0)
			return prog->ignored[i].count;
	return 0;
}

/* The forms of the client.txt dbench 1 shipped: its size keys, its
 * TRANSACT2_ names, OldPath/NewPath, replies that come after other
 * requests, and the lines a packet capture leaves without their half. */
/* The I/O buffer each client allocates holds the largest ReadX or WriteX
 * and the chunks an open that sets a size writes: an open of a small file
 * after a large read must not shrink it. */
static void test_max_io_never_shrinks(void **state)
{
	(void)state;
	struct program prog;
	struct op *ops;
	char *errs;
	const char *d1 =
		"SMBopenX REQUEST  Size 0 Path \\CLIENTS\\CLIENT1\\A.DOC\n"
		"SMBopenX REPLY  Handle 5 Size 100000\n"
		"SMBread REQUEST  Handle 5 Offset 0 Size 40000\n"
		"SMBopenX REQUEST  Size 0 Path \\CLIENTS\\CLIENT1\\B.DOC\n"
		"SMBopenX REPLY  Handle 6 Size 10\n";
	assert_int_equal(parse_str(d1, &prog, &ops, &errs), 0);
	assert_int_equal(prog.max_io, 65536);  /* the SETSIZE chunk, not 10 */
	free(ops);
	free(errs);
	prog_free(&prog);
	const char *d2 =
		"SMBopenX REQUEST  Size 0 Path \\CLIENTS\\CLIENT1\\A.DOC\n"
		"SMBopenX REPLY  Handle 5 Size 0\n"
		"SMBread REQUEST  Handle 5 Offset 0 Size 4096\n"
		"SMBopenX REQUEST  Size 0 Path \\CLIENTS\\CLIENT1\\B.DOC\n"
		"SMBopenX REPLY  Handle 6 Size 10\n";
	assert_int_equal(parse_str(d2, &prog, &ops, &errs), 0);
	assert_int_equal(prog.max_io, 4096);   /* the read's size, not 10 */
	free(ops);
	free(errs);
	prog_free(&prog);
}

static void test_dbench1_trace_forms(void **state)
{
	(void)state;
	const char *d1 =
		"SMBopenX REQUEST  Size 0 Path \\CLIENTS\\CLIENT1\\A.DOC\n"        /* 1 */
		"SMBlockingX REQUEST  Handle 4\n"                                  /* 2 */
		"SMBgetatr REQUEST  Path \\CLIENTS\\CLIENT1\\B.DOC\n"              /* 3 */
		"SMBgetatr REPLY  Size 0\n"                                        /* 4 */
		"SMBopenX REPLY  Handle 4252 Size 260096\n"                        /* 5 */
		"SMBwrite REQUEST  Handle 4252 ByteCount 512 Offset 2048\n"        /* 6 */
		"SMBreadbraw REQUEST  Handle 4252 Offset 4096 MaxCount 16384\n"    /* 7 */
		"SMBwritebraw REQUEST  Handle 4252 Offset 65535 DataSize 65475 DataOff 60\n"
		"SMBwritebraw REPLY \n"                                            /* 9 */
		"SMBread REQUEST  Handle 4252 ByteCount 2820 Offset 1696\n"        /* 10 */
		"SMBlockingX REQUEST  Handle 4252 Offset 2147483520 Offset -1609890800 Offset 7\n"
		"SMBread REPLY  Count 2820\n"                                      /* 12 */
		"SMBlockingX REPLY \n"                                             /* 13 */
		"SMBtrans2 REQUEST  TRANSACT2_FINDFIRST DataOff 0 File \\CLIENTS\\CLIENT1\\*.DOC\n"
		"SMBtrans2 REPLY  TRANSACT2_FINDFIRST DataOff 70 Handle 0x100 Count 1\n"
		"SMBtrans2 REQUEST  TRANSACT2_FINDNEXT DataOff 0\n"                /* 16 */
		"SMBtrans2 REQUEST  TRANSACT2_QFILEINFO DataOff 0\n"               /* 17 */
		"SMBmv REQUEST  OldPath \\CLIENTS\\CLIENT1\\A.DOC NewPath \\CLIENTS\\CLIENT1\\C.DOC\n"
		"SMBgetatr REPLY  ERRbadfile\n"                                    /* 19 */
		"SMBopenX REQUEST  Size 0 Path \\CLIENTS\\CLIENT1\\C.DOC\n"        /* 20 */
		"SMBopenX REPLY  ERRfilexists\n"                                   /* 21 */
		"SMBopenX REQUEST  Size 0 Path \\CLIENTS\\CLIENT1\\D.DOC\n"        /* 22 */
		"SMBopenX REPLY  ERRbadfile\n"                                     /* 23 */
		"SMBclose REPLY \n";                                               /* 24 */
	struct program prog;
	struct op *ops;
	char *errs;
	fmt = LF_AUTO;
	assert_int_equal(parse_str(d1, &prog, &ops, &errs), 0);
	assert_string_equal(errs, "");
	assert_int_equal(prog.format, LF_DBENCH1);
	assert_int_equal(prog.nops, 12);
	/* the getatr that came between the open's request and reply */
	assert_int_equal(ops[0].code, OP_QPATHINFO);
	assert_int_equal(ops[0].line, 4);
	assert_int_equal(ops[0].expect, EXPECT_OK);
	assert_string_equal(prog_path(&prog, ops[0].path1), "b.doc");
	/* the open, at its reply, on the path of its own request */
	assert_int_equal(ops[1].code, OP_NTCREATEX);
	assert_int_equal(ops[1].line, 5);
	assert_int_equal(ops[1].expect, EXPECT_OK);
	assert_true(ops[1].flags & OPF_OPEN_IF);
	assert_string_equal(prog_path(&prog, ops[1].path1), "a.doc");
	uint32_t h = ops[1].handle;
	/* ByteCount, MaxCount, DataSize are sizes; DataOff is not a key */
	assert_int_equal(ops[2].code, OP_WRITEX);
	assert_int_equal(ops[2].handle, h);
	assert_int_equal(ops[2].off, 2048);
	assert_int_equal(ops[2].len, 512);
	assert_int_equal(ops[3].code, OP_READX);
	assert_int_equal(ops[3].off, 4096);
	assert_int_equal(ops[3].len, 16384);
	assert_int_equal(ops[4].code, OP_WRITEX);
	assert_int_equal(ops[4].off, 65535);
	assert_int_equal(ops[4].len, 65475);
	assert_int_equal(ops[5].code, OP_READX);
	assert_int_equal(ops[5].off, 1696);
	assert_int_equal(ops[5].len, 2820);
	/* a key given twice: the first value (a later one may be garbage) */
	assert_int_equal(ops[6].code, OP_LOCKX);
	assert_int_equal(ops[6].handle, h);
	assert_int_equal(ops[6].off, 2147483520u);
	assert_int_equal(ops[6].len, 1);
	/* TRANSACT2_ names; File is a path key; FINDNEXT lists it again */
	assert_int_equal(ops[7].code, OP_FIND_FIRST);
	assert_string_equal(prog_path(&prog, ops[7].path1), "*.doc");
	assert_true(ops[7].flags & OPF_WILDCARD);
	assert_int_equal(ops[8].code, OP_FIND_FIRST);
	assert_int_equal(ops[8].line, 16);
	assert_int_equal(ops[8].path1, ops[7].path1);
	/* OldPath and NewPath */
	assert_int_equal(ops[9].code, OP_RENAME);
	assert_string_equal(prog_path(&prog, ops[9].path1), "a.doc");
	assert_string_equal(prog_path(&prog, ops[9].path2), "c.doc");
	/* ERRfilexists: the file was there, so opening it must work */
	assert_int_equal(ops[10].code, OP_NTCREATEX);
	assert_int_equal(ops[10].line, 21);
	assert_int_equal(ops[10].expect, EXPECT_OK);
	assert_int_equal(ops[10].handle, NO_HANDLE);
	assert_false(ops[10].flags & OPF_OPEN_IF);
	/* any other error: the open must fail */
	assert_int_equal(ops[11].code, OP_NTCREATEX);
	assert_int_equal(ops[11].line, 23);
	assert_int_equal(ops[11].expect, EXPECT_FAIL);
	assert_int_equal(ops[11].handle, NO_HANDLE);
	/* counted, not replayed: a lock with no range, a QFILEINFO with no
	 * handle, replies whose request the capture lost */
	assert_int_equal(ignored(&prog, "SMBlockingX (no range)"), 1);
	assert_int_equal(ignored(&prog, "SMBtrans2 QFILEINFO (no Handle)"), 1);
	assert_int_equal(ignored(&prog, "SMBgetatr REPLY without REQUEST"), 1);
	assert_int_equal(prog.ignored_total, 3);
	/* the REPLY lines of modelled commands (9, 12, 13, 15, 24) and of
	 * the reply-driven requests (1, 3, 20, 22) */
	assert_int_equal(prog.npaired, 9);
	assert_int_equal(prog.bytes_written, 512 + 65475);
	assert_int_equal(prog.bytes_read, 16384 + 2820);
	free(ops);
	free(errs);
	prog_free(&prog);
}

static void test_path_rewrite(void **state)
{
	(void)state;
	char out[4096];
	int shared;
	assert_null(loadfile_path("\\clients\\client1\\~dmtmp\\X.DOC", out, sizeof(out), &shared));
	assert_string_equal(out, "~dmtmp/x.doc");
	assert_int_equal(shared, 0);
	assert_null(loadfile_path("\\CLIENTS\\CLIENT1\\~DMTMP\\WORD", out, sizeof(out), &shared));
	assert_string_equal(out, "~dmtmp/word");
	assert_int_equal(shared, 0);
	assert_null(loadfile_path("\\clients\\client1", out, sizeof(out), &shared));
	assert_string_equal(out, ".");
	assert_int_equal(shared, 0);
	assert_null(loadfile_path("\\clients", out, sizeof(out), &shared));
	assert_string_equal(out, "clients");
	assert_int_equal(shared, 1);
	assert_null(loadfile_path("\\NBSIMULD\\a", out, sizeof(out), &shared));
	assert_string_equal(out, "nbsimuld/a");
	assert_int_equal(shared, 1);
	assert_null(loadfile_path("\\clients\\client12\\a", out, sizeof(out), &shared));
	assert_string_equal(out, "clients/client12/a");
	assert_int_equal(shared, 1);
	assert_null(loadfile_path("\\clients\\client1\\a\\.\\b\\..\\c\\\\d", out, sizeof(out), &shared));
	assert_string_equal(out, "a/c/d");
	assert_int_equal(shared, 0);
	/* climbing out of the client tree but not out of DIR: a shared path */
	assert_null(loadfile_path("\\clients\\client1\\..\\client2\\x", out, sizeof(out), &shared));
	assert_string_equal(out, "clients/client2/x");
	assert_int_equal(shared, 1);
	assert_null(loadfile_path("", out, sizeof(out), &shared));
	assert_string_equal(out, ".");
	assert_int_equal(shared, 1);
	assert_non_null(loadfile_path("\\a\\..\\..", out, sizeof(out), &shared));
	assert_non_null(loadfile_path("..\\x", out, sizeof(out), &shared));
	assert_non_null(loadfile_path("\\clients\\client1\\x", out, 4, &shared));
}

static void test_missing_file(void **state)
{
	(void)state;
	char *ebuf = NULL;
	size_t elen = 0;
	FILE *ef = open_memstream(&ebuf, &elen);
	struct program prog;
	assert_int_equal(loadfile_load("/nonexistent/kbench.txt", LF_AUTO, &prog, ef, 5), -1);
	fclose(ef);
	assert_non_null(strstr(ebuf, "/nonexistent/kbench.txt: cannot open loadfile: No such file"));
	free(ebuf);
}

/* Every path knows the directory holding it and its last component;
 * each directory of a path is interned once, with its own index. */
static void test_path_dirs(void **state)
{
	(void)state;
	const char *text =
		"NTCreateX \"\\clients\\client1\\a\\b\\c.doc\" 0x0 0x5 1 NT_STATUS_OK\n"
		"QUERY_PATH_INFORMATION \"\\clients\\client1\\a\\b\" 1004 NT_STATUS_OK\n"
		"FIND_FIRST \"\\clients\\client1\\a\\*.doc\" 260 1366 0 NT_STATUS_OK\n"
		"Unlink \"\\clients\\client1\\top.doc\" 0x6 NT_STATUS_OK\n"
		"Unlink \"\\shared\\a\\x\" 0x6 NT_STATUS_OK\n";
	struct program prog;
	struct op *ops;
	char *errs;
	assert_int_equal(parse_str(text, &prog, &ops, &errs), 0);
	/* the base, a, a/b, shared */
	assert_int_equal(prog.ndirs, 5);
	assert_int_equal(prog.dirs[0], NO_PATH);
	const struct path_info *c = prog_info(&prog, ops[0].path1);
	assert_string_equal(prog_path(&prog, ops[0].path1) + c->leaf, "c.doc");
	assert_int_equal(c->self, 0);
	assert_string_equal(prog_path(&prog, prog.dirs[c->dir]), "a/b");
	/* a/b is a path of its own too: the same string, with its index */
	const struct path_info *ab = prog_info(&prog, ops[1].path1);
	assert_int_equal(ab->self, c->dir);
	assert_int_equal(prog.dirs[ab->self], ops[1].path1);
	assert_string_equal(prog_path(&prog, ops[1].path1) + ab->leaf, "b");
	assert_string_equal(prog_path(&prog, prog.dirs[ab->dir]), "a");
	assert_int_equal(prog_info(&prog, prog.dirs[ab->dir])->dir, 0);
	const struct path_info *pat = prog_info(&prog, ops[2].path1);
	assert_int_equal(pat->dir, ab->dir);
	assert_string_equal(prog_path(&prog, ops[2].path1) + pat->leaf, "*.doc");
	const struct path_info *top = prog_info(&prog, ops[3].path1);
	assert_int_equal(top->dir, 0);
	assert_int_equal(top->leaf, 0);
	/* a shared path's directories are strings of their own */
	const struct path_info *sh = prog_info(&prog, ops[4].path1);
	assert_string_equal(prog_path(&prog, prog.dirs[sh->dir]), "shared/a");
	assert_int_not_equal(sh->dir, ab->dir);
	free(ops);
	free(errs);
	prog_free(&prog);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_opcode),
		cmocka_unit_test(test_path_dirs),
		cmocka_unit_test(test_status_forms),
		cmocka_unit_test(test_layout),
		cmocka_unit_test(test_blank_first_line),
		cmocka_unit_test(test_long_tokens_and_handles),
		cmocka_unit_test(test_many_handles),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_error_line_numbers_all_reported),
		cmocka_unit_test(test_nul_byte),
		cmocka_unit_test(test_huge_line),
		cmocka_unit_test(test_lock_lengths_and_brackets),
		cmocka_unit_test(test_dbench2_and_dbench1),
		cmocka_unit_test(test_dbench1_trace_forms),
		cmocka_unit_test(test_max_io_never_shrinks),
		cmocka_unit_test(test_lines_across_reads),
		cmocka_unit_test(test_path_rewrite),
		cmocka_unit_test(test_missing_file),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
