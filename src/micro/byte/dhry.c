/* kbench - micro: Dhrystone 2.1, written from Weicker's description
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Names follow the published description (Proc_1 .. Proc_8, Func_1 ..
 * Func_3, Int_Glob, Ptr_Glob ...) so the operations can be compared with
 * it; the code is kbench's own.
 */
#include "config.h"
#include "micro/byte/dhry.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

/* Dhrystone is two files: the main loop with Proc_1 .. Proc_5 in one
 * (the compiler may inline those, as UnixBench's build of dhry_1.c
 * does), Proc_6 .. Proc_8 and Func_1 .. Func_3 in the other.  Those of
 * the second file are kept out of line and opaque to interprocedural
 * analysis here, as a separate file keeps them (Func_3 is called only
 * from Proc_6, its own file's, and may be inlined there). */
#if defined(__clang__)
#define DHRY_PROC __attribute__((noinline))
#else
#define DHRY_PROC __attribute__((noinline, noipa))
#endif
#define DHRY_PROC_1 static

enum ident { Ident_1, Ident_2, Ident_3, Ident_4, Ident_5 };

typedef char str30[31];

struct record {
	struct record *ptr_comp;
	enum ident discr;
	union {
		struct {
			enum ident enum_comp;
			int int_comp;
			str30 str_comp;
		} v1;
		struct {
			enum ident e_comp_2;
			str30 str_2_comp;
		} v2;
		struct {
			char ch_1_comp;
			char ch_2_comp;
		} v3;
	} variant;
};

static struct record rec_a, rec_b;       /* what Dhrystone allocates */
static struct record *Ptr_Glob, *Next_Ptr_Glob;
static int Int_Glob;
static bool Bool_Glob;
static char Ch_1_Glob, Ch_2_Glob;
static int Arr_1_Glob[50];
static int Arr_2_Glob[50][50];

/* the main program's locals, kept for dhry_check() */
static int Int_1_Loc, Int_2_Loc, Int_3_Loc;
static enum ident Enum_Loc;
static str30 Str_1_Loc, Str_2_Loc;
static unsigned long Run_Index;

static const char S_SOME[] = "DHRYSTONE PROGRAM, SOME STRING";
static const char S_1ST[] = "DHRYSTONE PROGRAM, 1'ST STRING";
static const char S_2ND[] = "DHRYSTONE PROGRAM, 2'ND STRING";
static const char S_3RD[] = "DHRYSTONE PROGRAM, 3'RD STRING";

DHRY_PROC static void Proc_7(int a, int b, int *out)
{
	int loc = a + 2;
	*out = b + loc;
}

static bool Func_3(enum ident e)
{
	enum ident loc = e;
	return loc == Ident_3;
}

DHRY_PROC static void Proc_6(enum ident val, enum ident *ref)
{
	*ref = val;
	if (!Func_3(val))
		*ref = Ident_4;
	switch (val) {
	case Ident_1:
		*ref = Ident_1;
		break;
	case Ident_2:
		*ref = Int_Glob > 100 ? Ident_1 : Ident_4;
		break;
	case Ident_3:
		*ref = Ident_2;
		break;
	case Ident_4:
		break;
	case Ident_5:
		*ref = Ident_3;
		break;
	}
}

DHRY_PROC_1 void Proc_3(struct record **ref)
{
	if (Ptr_Glob != NULL)
		*ref = Ptr_Glob->ptr_comp;
	Proc_7(10, Int_Glob, &Ptr_Glob->variant.v1.int_comp);
}

DHRY_PROC_1 void Proc_1(struct record *val)
{
	struct record *next = val->ptr_comp;

	*val->ptr_comp = *Ptr_Glob;              /* record assignment */
	val->variant.v1.int_comp = 5;
	next->variant.v1.int_comp = val->variant.v1.int_comp;
	next->ptr_comp = val->ptr_comp;
	Proc_3(&next->ptr_comp);
	if (next->discr == Ident_1) {
		next->variant.v1.int_comp = 6;
		Proc_6(val->variant.v1.enum_comp, &next->variant.v1.enum_comp);
		next->ptr_comp = Ptr_Glob->ptr_comp;
		Proc_7(next->variant.v1.int_comp, 10, &next->variant.v1.int_comp);
	} else {
		*val = *val->ptr_comp;
	}
}

DHRY_PROC_1 void Proc_2(int *ref)
{
	int loc = *ref + 10;
	enum ident e = Ident_2;

	do {
		if (Ch_1_Glob == 'A') {
			loc -= 1;
			*ref = loc - Int_Glob;
			e = Ident_1;
		}
	} while (e != Ident_1);
}

DHRY_PROC_1 void Proc_4(void)
{
	bool loc = Ch_1_Glob == 'A';
	Bool_Glob = loc | Bool_Glob;
	Ch_2_Glob = 'B';
}

DHRY_PROC_1 void Proc_5(void)
{
	Ch_1_Glob = 'A';
	Bool_Glob = false;
}

DHRY_PROC static void Proc_8(int a1[50], int a2[50][50], int p1, int p2)
{
	int loc = p1 + 5;

	a1[loc] = p2;
	a1[loc + 1] = a1[loc];
	a1[loc + 30] = loc;
	for (int i = loc; i <= loc + 1; i++)
		a2[loc][i] = loc;
	a2[loc][loc - 1] += 1;
	a2[loc + 20][loc] = a1[loc];
	Int_Glob = 5;
}

DHRY_PROC static enum ident Func_1(char c1, char c2)
{
	char loc1 = c1;
	char loc2 = loc1;

	if (loc2 != c2)
		return Ident_1;
	Ch_1_Glob = loc1;
	return Ident_2;
}

DHRY_PROC static bool Func_2(const char *s1, const char *s2)
{
	int loc = 2;
	char ch = 'A';

	while (loc <= 2)
		if (Func_1(s1[loc], s2[loc + 1]) == Ident_1) {
			ch = 'A';
			loc += 1;
		}
	if (ch >= 'W' && ch < 'Z')
		loc = 7;
	if (ch == 'R')
		return true;
	if (strcmp(s1, s2) > 0) {
		loc += 7;
		Int_Glob = loc;
		return true;
	}
	return false;
}

void dhry_init(void)
{
	memset(&rec_a, 0, sizeof rec_a);
	memset(&rec_b, 0, sizeof rec_b);
	memset(Arr_1_Glob, 0, sizeof Arr_1_Glob);
	memset(Arr_2_Glob, 0, sizeof Arr_2_Glob);
	Next_Ptr_Glob = &rec_b;
	Ptr_Glob = &rec_a;
	Ptr_Glob->ptr_comp = Next_Ptr_Glob;
	Ptr_Glob->discr = Ident_1;
	Ptr_Glob->variant.v1.enum_comp = Ident_3;
	Ptr_Glob->variant.v1.int_comp = 40;
	strcpy(Ptr_Glob->variant.v1.str_comp, S_SOME);
	strcpy(Str_1_Loc, S_1ST);
	Arr_2_Glob[8][7] = 10;
	Int_Glob = 0;
	Bool_Glob = false;
	Ch_1_Glob = Ch_2_Glob = '\0';
	Run_Index = 0;
}

/* One Dhrystone loop with loop index idx. */
static inline void dhry_loop(unsigned long idx)
{
	Proc_5();
	Proc_4();
	Int_1_Loc = 2;
	Int_2_Loc = 3;
	strcpy(Str_2_Loc, S_2ND);
	Enum_Loc = Ident_2;
	Bool_Glob = !Func_2(Str_1_Loc, Str_2_Loc);
	while (Int_1_Loc < Int_2_Loc) {
		Int_3_Loc = 5 * Int_1_Loc - Int_2_Loc;
		Proc_7(Int_1_Loc, Int_2_Loc, &Int_3_Loc);
		Int_1_Loc += 1;
	}
	Proc_8(Arr_1_Glob, Arr_2_Glob, Int_1_Loc, Int_3_Loc);
	Proc_1(Ptr_Glob);
	for (char ch = 'A'; ch <= Ch_2_Glob; ++ch) {
		if (Enum_Loc == Func_1(ch, 'C')) {
			Proc_6(Ident_1, &Enum_Loc);
			strcpy(Str_2_Loc, S_3RD);
			Int_2_Loc = (int)idx;
			Int_Glob = (int)idx;
		}
	}
	Int_2_Loc = Int_2_Loc * Int_1_Loc;
	Int_1_Loc = Int_2_Loc / Int_3_Loc;
	Int_2_Loc = 7 * (Int_2_Loc - Int_3_Loc) - Int_1_Loc;
	Proc_2(&Int_1_Loc);
}

unsigned long dhry_run_until(volatile sig_atomic_t *stop)
{
	unsigned long n = 0;
	do {
		dhry_loop(++Run_Index);
		n++;
	} while (!*stop);
	return n;
}

unsigned long dhry_run(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		dhry_loop(++Run_Index);
	return n;
}

#define CHECK_INT(what, got, want) \
	do { \
		if ((long)(got) != (long)(want)) { \
			snprintf(err, errlen, "Dhrystone check: %s is %ld, should be %ld", \
				 what, (long)(got), (long)(want)); \
			return -1; \
		} \
	} while (0)
#define CHECK_STR(what, got, want) \
	do { \
		if (strcmp(got, want)) { \
			snprintf(err, errlen, "Dhrystone check: %s is \"%s\"", what, got); \
			return -1; \
		} \
	} while (0)

int dhry_check(char *err, size_t errlen)
{
	CHECK_INT("Int_Glob", Int_Glob, 5);
	CHECK_INT("Bool_Glob", Bool_Glob, 1);
	CHECK_INT("Ch_1_Glob", Ch_1_Glob, 'A');
	CHECK_INT("Ch_2_Glob", Ch_2_Glob, 'B');
	CHECK_INT("Arr_1_Glob[8]", Arr_1_Glob[8], 7);
	CHECK_INT("Arr_2_Glob[8][7]", Arr_2_Glob[8][7], (long)Run_Index + 10);
	if (Ptr_Glob->ptr_comp != Next_Ptr_Glob || Next_Ptr_Glob->ptr_comp != Next_Ptr_Glob) {
		snprintf(err, errlen, "Dhrystone check: record pointers");
		return -1;
	}
	CHECK_INT("Ptr_Glob->Discr", Ptr_Glob->discr, Ident_1);
	CHECK_INT("Ptr_Glob->Enum_Comp", Ptr_Glob->variant.v1.enum_comp, Ident_3);
	CHECK_INT("Ptr_Glob->Int_Comp", Ptr_Glob->variant.v1.int_comp, 17);
	CHECK_STR("Ptr_Glob->Str_Comp", Ptr_Glob->variant.v1.str_comp, S_SOME);
	CHECK_INT("Next_Ptr_Glob->Discr", Next_Ptr_Glob->discr, Ident_1);
	CHECK_INT("Next_Ptr_Glob->Enum_Comp", Next_Ptr_Glob->variant.v1.enum_comp, Ident_2);
	CHECK_INT("Next_Ptr_Glob->Int_Comp", Next_Ptr_Glob->variant.v1.int_comp, 18);
	CHECK_STR("Next_Ptr_Glob->Str_Comp", Next_Ptr_Glob->variant.v1.str_comp, S_SOME);
	CHECK_INT("Int_1_Loc", Int_1_Loc, 5);
	CHECK_INT("Int_2_Loc", Int_2_Loc, 13);
	CHECK_INT("Int_3_Loc", Int_3_Loc, 7);
	CHECK_INT("Enum_Loc", Enum_Loc, Ident_2);
	CHECK_STR("Str_1_Loc", Str_1_Loc, S_1ST);
	CHECK_STR("Str_2_Loc", Str_2_Loc, S_2ND);
	return 0;
}

/* KB_CPU_CFLAGS_USED comes from this file's own compile line (local.am);
 * configure's record of the flags stands in where it is missing */
#ifndef KB_CPU_CFLAGS_USED
#define KB_CPU_CFLAGS_USED KB_CPU_CFLAGS
#endif

const char *dhry_build_cc(void)
{
	return KB_CPU_CC;
}

const char *dhry_build_cc_version(void)
{
	return KB_CPU_CC_VERSION;
}

const char *dhry_build_cflags(void)
{
	return KB_CPU_CFLAGS_USED;
}
