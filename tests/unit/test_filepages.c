/* kbench - unit tests of filepages_drop (sys/filepages.h): the resident
 * pages of a read-only private file mapping leave this process's RSS and
 * read back the same; a mapping written to (copied-on-write pages, as
 * RELRO after relocation), a writable one and an anonymous one keep their
 * pages and their contents; the stack a deep call left below the
 * caller's frame is given back and works as before.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"
#include "sys/filepages.h"

#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <cmocka.h>

#define PAGES 8

/* The Rss of the mapping that starts at p, KiB, from /proc/self/smaps;
 * -1 when it is not found.  The file is read whole into a buffer that is
 * already there before it is parsed: the kernel makes smaps a chunk a
 * read, and a mapping made between two reads (stdio's buffer, a
 * sanitizer's allocator) would shift the list under them. */
static long rss_kb(const void *p)
{
	static char text[16 << 20];
	int fd = open("/proc/self/smaps", O_RDONLY | O_CLOEXEC);
	assert_true(fd >= 0);
	size_t n = 0;
	ssize_t r;
	while (n < sizeof(text) - 1 && (r = read(fd, text + n, sizeof(text) - 1 - n)) > 0)
		n += (size_t)r;
	close(fd);
	assert_true(n < sizeof(text) - 1);
	text[n] = '\0';
	int in = 0;
	long kb = -1;
	for (char *line = text, *next; line && *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		uintptr_t s, e;
		if (sscanf(line, "%lx-%lx ", &s, &e) == 2 && strchr(line, '-') &&
		    line[strspn(line, "0123456789abcdef")] == '-') {
			in = s == (uintptr_t)p;
			continue;
		}
		if (in && sscanf(line, "Rss: %ld kB", &kb) == 1)
			break;
	}
	return kb;
}

/* A file of PAGES pages, page i filled with the byte 'a' + i. */
static int make_file(char *path, size_t pg)
{
	strcpy(path, "/tmp/kbench-test-filepages-XXXXXX");
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	char *buf = malloc(pg);
	assert_non_null(buf);
	for (int i = 0; i < PAGES; i++) {
		memset(buf, 'a' + i, pg);
		assert_int_equal(write(fd, buf, pg), (ssize_t)pg);
	}
	free(buf);
	return fd;
}

static void test_drop(void **state)
{
	(void)state;
	size_t pg = (size_t)sysconf(_SC_PAGESIZE);
	char path[64];
	int fd = make_file(path, pg);
	/* read-only and only read: dropped */
	const char *ro = mmap(NULL, PAGES * pg, PROT_READ, MAP_PRIVATE, fd, 0);
	/* written, then made read-only (RELRO's way): kept */
	char *relro = mmap(NULL, PAGES * pg, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
	/* writable, only read: kept */
	const char *rw = mmap(NULL, PAGES * pg, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
	/* anonymous, written: kept */
	char *anon = mmap(NULL, PAGES * pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
			  -1, 0);
	assert_true(ro != MAP_FAILED && relro != MAP_FAILED && rw != MAP_FAILED &&
		    anon != MAP_FAILED);
	unsigned sum = 0;
	for (int i = 0; i < PAGES; i++) {
		sum += (unsigned char)ro[i * pg] + (unsigned char)rw[i * pg];
		relro[i * pg] = 'Z';
		anon[i * pg] = 'Y';
	}
	assert_int_equal(mprotect(relro, PAGES * pg, PROT_READ), 0);
	long kb = (long)(PAGES * pg / 1024);
	assert_int_equal(rss_kb(ro), kb);
	assert_int_equal(rss_kb(relro), kb);
	assert_int_equal(rss_kb(rw), kb);
	assert_int_equal(rss_kb(anon), kb);

	size_t dropped = 0;
	assert_int_equal(filepages_drop(&dropped), 0);
	assert_true(dropped >= PAGES * pg);
	assert_int_equal(rss_kb(ro), 0);
	assert_int_equal(rss_kb(relro), kb);
	assert_int_equal(rss_kb(rw), kb);
	assert_int_equal(rss_kb(anon), kb);
	/* every page reads back as it was */
	unsigned again = 0;
	for (int i = 0; i < PAGES; i++) {
		assert_int_equal(ro[i * pg + 1], 'a' + i);
		assert_int_equal(relro[i * pg], 'Z');
		assert_int_equal(relro[i * pg + 1], 'a' + i);
		assert_int_equal(anon[i * pg], 'Y');
		again += (unsigned char)ro[i * pg] + (unsigned char)rw[i * pg];
	}
	assert_int_equal(again, sum);
	munmap((void *)ro, PAGES * pg);
	munmap(relro, PAGES * pg);
	munmap((void *)rw, PAGES * pg);
	munmap(anon, PAGES * pg);
	close(fd);
	unlink(path);
}

/* A deep call's stack: 256 KiB written, then returned from. */
static void __attribute__((noinline)) deep(volatile char *out)
{
	volatile char big[256 * 1024];
	for (size_t i = 0; i < sizeof(big); i += 512)
		big[i] = (char)i;
	*out = big[4096];
}

/* The Rss of the [stack] mapping, KiB. */
static long stack_kb(void)
{
	FILE *f = fopen("/proc/self/smaps", "r");
	assert_non_null(f);
	char line[512];
	int in = 0;
	long kb = -1;
	while (fgets(line, sizeof(line), f)) {
		if (strstr(line, "[stack]")) {
			in = 1;
			continue;
		}
		if (in && sscanf(line, "Rss: %ld kB", &kb) == 1)
			break;
	}
	fclose(f);
	return kb;
}

static void test_stack(void **state)
{
	(void)state;
	volatile char c;
	deep(&c);
	long before = stack_kb();
	assert_true(before >= 256);
	assert_int_equal(filepages_drop(NULL), 0);
	long after = stack_kb();
	/* what is left: this test's frames, cmocka's, start-up's and the kept
	 * margin, well under what the deep call touched */
	assert_true(after >= 0);
	assert_true(after <= before - 200);
	deep(&c);  /* the stack is usable as before */
	assert_int_equal(c, (char)4096);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_drop),
		cmocka_unit_test(test_stack),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
