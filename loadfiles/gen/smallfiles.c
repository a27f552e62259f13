/* kbench - genload: the smallfiles workload
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Metadata first, like mdtest: a tree of 8 x 8 directories with 40 small
 * files in each (a quarter of them empty), created, looked up in random
 * order, listed, half read back, half renamed, searched for by name,
 * some changed, then all removed with the tree.
 */
#include "gen.h"

#include <stdint.h>
#include <stdio.h>

#define MD ROOT "\\mdtest"
#define MD_TOP 8
#define MD_SUB 8
#define MD_FILES 40

static uint32_t small_size(void)
{
	if (chance(25))
		return 0;
	return (uint32_t)rnd_logsize(16, 8192);
}

static void shuffle(int *v, int n)
{
	for (int i = n - 1; i > 0; i--) {
		int j = (int)rnd((uint32_t)i + 1), t = v[i];
		v[i] = v[j];
		v[j] = t;
	}
}

static void leaf_path(int leaf, char *buf)
{
	snprintf(buf, PATHLEN, "%s\\dir%02d\\sub%02d", MD, leaf / MD_SUB, leaf % MD_SUB);
}

static void small_path(int file, int renamed, char *buf)
{
	char leaf[PATHLEN];
	leaf_path(file / MD_FILES, leaf);
	if ((size_t)snprintf(buf, PATHLEN, "%s\\file.%04d.%s", leaf, file % MD_FILES,
			     renamed ? "old" : "dat") >= PATHLEN)
		die("path too long");
}

void gen_smallfiles(void)
{
	enum { NLEAF = MD_TOP * MD_SUB, NFILE = NLEAF * MD_FILES };
	static int order[NFILE], renamed[NFILE];
	char p[PATHLEN], q[PATHLEN];

	gen_deltree(MD);
	mkdir_path(MD);
	qfsinfo(1007);
	/* the tree: half the directories by Mkdir, half by NTCreateX */
	for (int t = 0; t < MD_TOP; t++) {
		snprintf(p, PATHLEN, "%s\\dir%02d", MD, t);
		mkdir_path(p);
		for (int s = 0; s < MD_SUB; s++) {
			leaf_path(t * MD_SUB + s, p);
			if (s % 2)
				mkdir_path(p);
			else
				nt_close(nt_create(p, 0x1, 2, R_DIR, -1));
		}
	}
	/* create: each directory filled in turn, as an mdtest task does */
	for (int f = 0; f < NFILE; f++) {
		small_path(f, 0, p);
		int h = nt_create(p, 0x40, 2, R_DATA, -1);
		uint32_t n = small_size();
		if (n)
			writex(h, 0, n);
		nt_close(h);
	}
	/* stat, in random order */
	for (int f = 0; f < NFILE; f++)
		order[f] = f;
	shuffle(order, NFILE);
	for (int f = 0; f < NFILE; f++) {
		small_path(order[f], 0, p);
		qpathinfo(p, 1034);
	}
	/* list each directory; look for files that are not there */
	for (int l = 0; l < NLEAF; l++) {
		leaf_path(l, q);
		gen_join(p, q, "*");
		find_first(p, 512);
		gen_join(p, q, "*.tmp");
		find_first(p, 512);
	}
	/* read half of them back */
	shuffle(order, NFILE);
	for (int i = 0; i < NFILE / 2; i++) {
		small_path(order[i], 0, p);
		int h = nt_create(p, 0x40, 1, 0, 0);
		qfileinfo(h, 1005);
		uint64_t n = hent(h)->size;
		if (n)
			readx(h, 0, (uint32_t)n);
		nt_close(h);
	}
	/* rename half; the old names are gone */
	shuffle(order, NFILE);
	for (int i = 0; i < NFILE / 2; i++) {
		int f = order[i];
		small_path(f, 0, p);
		small_path(f, 1, q);
		rename_path(p, q);
		renamed[f] = 1;
		if (i % 4 == 0)
			qpathinfo(p, 1004);
	}
	for (int l = 0; l < NLEAF; l++) {
		leaf_path(l, q);
		gen_join(p, q, "*.old");
		find_first(p, 512);
	}
	/* searches by name: a quarter of the files, by their first name */
	shuffle(order, NFILE);
	for (int i = 0; i < NFILE / 4; i++) {
		small_path(order[i], 0, p);
		find_first(p, 1);
	}
	/* change some: set times, rewrite */
	shuffle(order, NFILE);
	for (int i = 0; i < NFILE / 8; i++) {
		int f = order[i];
		small_path(f, renamed[f], p);
		int h = nt_create(p, 0x40, i % 2 ? 5 : 1, R_DATA, -1);
		if (i % 2)
			writex(h, 0, small_size() | 1);
		sfileinfo(h);
		nt_close(h);
	}
	/* remove every file, directory by directory, then the tree */
	for (int l = 0; l < NLEAF; l++) {
		int idx[MD_FILES];
		for (int i = 0; i < MD_FILES; i++)
			idx[i] = l * MD_FILES + i;
		shuffle(idx, MD_FILES);
		for (int i = 0; i < MD_FILES; i++) {
			small_path(idx[i], renamed[idx[i]], p);
			unlink_path(p);
		}
		leaf_path(l, p);
		rmdir_path(p);
		if (l % MD_SUB == MD_SUB - 1) {
			snprintf(p, PATHLEN, "%s\\dir%02d", MD, l / MD_SUB);
			rmdir_path(p);
		}
	}
	rmdir_path(MD);
}
