/* kbench - unit tests: the packed form of a program's ops (progcode.c)
 * and reading it back through a cursor (program.c): every field at its
 * extremes comes back as it went in, a cut op is never half decoded,
 * bytes that are not ops are refused, and dbench's usual lines take at
 * most 16 bytes an op
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

#include "load/loadfile/loadfile.h"
#include "load/loadfile/progcode.h"

static struct op plain(enum opcode code, uint32_t line)
{
	struct op o;
	progcode_start(&o);
	o.code = (uint8_t)code;
	o.line = line;
	return o;
}

/* put then get: the same op, and the bytes put are the bytes taken */
static size_t round_trip(const struct op *o, const struct op *prev)
{
	unsigned char buf[PROGCODE_MAX + 8];
	memset(buf, 0xee, sizeof(buf));
	size_t n = progcode_put(o, prev, buf);
	assert_true(n >= 2 && n <= PROGCODE_MAX);
	struct op back;
	memset(&back, 0x55, sizeof(back));
	assert_int_equal(progcode_get(buf, sizeof(buf), prev, &back), (long)n);
	struct op want = *o;
	if (want.code == OP_NTCREATEX)
		want.open = 0;  /* not stored: prog_read_ops decodes it again */
	assert_memory_equal(&back, &want, sizeof(want));
	/* every shorter prefix holds no whole op */
	for (size_t k = 0; k < n; k++)
		assert_int_equal(progcode_get(buf, k, prev, &back), 0);
	return n;
}

static void test_extremes(void **state)
{
	(void)state;
	struct op prev, o;
	progcode_start(&prev);
	prev.line = 7;
	prev.ts_ns = 5000000000ull;

	o = plain(OP_READX, 8);  /* the next line: no line bytes */
	o.ts_ns = prev.ts_ns;    /* the same time: no time bytes */
	o.handle = 3;
	o.off = 1234567;
	o.len = o.ret = 65536;
	assert_int_equal(round_trip(&o, &prev), 1 + 1 + 1 + 3 + 3);

	o = plain(OP_RENAME, UINT32_MAX);
	o.expect = EXPECT_ANY;
	o.flags = 0xff;
	o.aux = 0xff;
	o.handle = NO_HANDLE;
	o.path1 = 0;
	o.path2 = UINT32_MAX - 1;
	o.arg = UINT32_MAX;
	o.off = UINT64_MAX;
	o.len = UINT32_MAX;
	o.ret = 17;
	o.ts_ns = 0;  /* before the op before: a negative difference */
	round_trip(&o, &prev);
	o.ts_ns = UINT64_MAX;
	round_trip(&o, &prev);

	o = plain(OP_NTCREATEX, 3);  /* a line before the one before */
	o.expect = EXPECT_FAIL;
	o.path1 = 40;
	o.arg = FILE_DIRECTORY_FILE;
	o.aux = FILE_CREATE;
	o.open = 0x55;  /* not stored */
	round_trip(&o, &prev);

	o = plain(OP_SLEEP, 8);
	o.ts_ns = prev.ts_ns;
	assert_int_equal(round_trip(&o, &prev), 2);  /* head and an empty mask */
}

static void test_refused(void **state)
{
	(void)state;
	struct op prev, o;
	progcode_start(&prev);
	unsigned char bad_code[] = { OP_COUNT, 0 };
	assert_int_equal(progcode_get(bad_code, sizeof(bad_code), &prev, &o), -1);
	unsigned char bad_expect[] = { 3 << 5, 0 };
	assert_int_equal(progcode_get(bad_expect, sizeof(bad_expect), &prev, &o), -1);
	unsigned char bad_mask[] = { OP_CLOSE, 0x80, 0x40 };  /* a field bit beyond the last */
	assert_int_equal(progcode_get(bad_mask, sizeof(bad_mask), &prev, &o), -1);
	/* a handle of more than 32 bits */
	unsigned char wide[] = { OP_CLOSE, 1, 0xff, 0xff, 0xff, 0xff, 0x1f };
	assert_int_equal(progcode_get(wide, sizeof(wide), &prev, &o), -1);
	/* a varint of 11 bytes */
	unsigned char endless[] = { OP_READX, 8, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
				    0xff, 0xff, 0x01 };
	assert_int_equal(progcode_get(endless, sizeof(endless), &prev, &o), -1);
}

static int parse_text(const char *text, struct program *prog)
{
	FILE *in = fmemopen((void *)text, strlen(text), "r");
	assert_non_null(in);
	int rc = loadfile_parse_stream(in, "t.txt", LF_DBENCH4, prog, stderr, 10);
	fclose(in);
	return rc;
}

/* dbench 4 lines as client.txt has them, many times over: at most 16
 * bytes an op, and read back in windows of any size, the same ops */
static void test_program_windows(void **state)
{
	(void)state;
	static const char *const lines[] = {
		"NTCreateX \"\\clients\\client1\\~dmtmp\\word\\chap7.doc\" 0x00200044 0x5 1234 NT_STATUS_OK\n",
		"QUERY_FILE_INFORMATION 1234 1034 NT_STATUS_OK\n",
		"WriteX 1234 0 65536 65536 NT_STATUS_OK\n",
		"ReadX 1234 131072 4096 4096 NT_STATUS_OK\n",
		"ReadX 1234 200000 4096 1000 NT_STATUS_OK\n",
		"QUERY_PATH_INFORMATION \"\\clients\\client1\\~dmtmp\\word\" 1004 NT_STATUS_OK\n",
		"FIND_FIRST \"\\clients\\client1\\~dmtmp\\word\\*.*\" 260 1366 7 NT_STATUS_OK\n",
		"Close 1234 NT_STATUS_OK\n",
		"Unlink \"\\clients\\client1\\~dmtmp\\word\\chap7.doc\" 0x6 NT_STATUS_OK\n",
	};
	enum { ROUNDS = 400, N = 9 * ROUNDS };
	size_t cap = 1 << 20, len = 0;
	char *text = malloc(cap);
	assert_non_null(text);
	for (int r = 0; r < ROUNDS; r++)
		for (size_t i = 0; i < 9; i++)
			len += (size_t)snprintf(text + len, cap - len, "%s", lines[i]);
	struct program prog;
	assert_int_equal(parse_text(text, &prog), 0);
	assert_int_equal(prog.nops, N);
	assert_true(prog.code_bytes <= 16u * N);
	assert_true(prog.code_bytes >= 2u * N);

	struct op *one = calloc(N, sizeof(*one)), *win = calloc(N, sizeof(*win));
	assert_non_null(one);
	assert_non_null(win);
	struct prog_cursor cur;
	prog_cursor_start(&cur);
	for (size_t k = 0; k < N; k++)
		assert_int_equal(prog_read_ops(&prog, &cur, &one[k], 1), 1);
	assert_int_equal(prog_read_ops(&prog, &cur, one, 1), 0);
	assert_int_equal(one[N - 1].line, N);
	assert_int_equal(one[4].ret, 1000);
	assert_int_equal(one[3].ret, 4096);
	const size_t sizes[] = { 7, 128, 1024, N };
	for (size_t s = 0; s < 4; s++) {
		prog_cursor_start(&cur);
		for (size_t got = 0; got < N;) {
			long n = prog_read_ops(&prog, &cur, win + got, sizes[s]);
			assert_true(n > 0 && (size_t)n <= sizes[s]);
			got += (size_t)n;
		}
		assert_memory_equal(win, one, N * sizeof(*one));
		assert_int_equal(cur.at, prog.code_bytes);
	}
	free(one);
	free(win);
	free(text);
	prog_free(&prog);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_extremes),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_program_windows),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
