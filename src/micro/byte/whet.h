/* kbench - micro: double-precision Whetstone, from Curnow & Wichmann
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The Whetstone benchmark (H. J. Curnow and B. A. Wichmann, "A synthetic
 * benchmark", The Computer Journal 19(1), 1976) is a loop of modules with
 * published weights; with the loop scale I = 10 one pass is 10^6
 * Whetstone instructions.  The modules run, with their weights per I:
 *   array elements         12  (4 elements, 4 formulas with t)
 *   array as parameter     14  (a procedure doing 6 rounds of the same)
 *   conditional jumps     345
 *   integer arithmetic    210
 *   trigonometric          32  (sin, cos, atan)
 *   procedure calls       899  (a procedure of 3 formulas on x, y, z)
 *   array references      616  (a procedure moving 3 elements around)
 *   standard functions     93  (sqrt, exp, log)
 * in double precision, as the double-precision version BYTE and UnixBench
 * run ("Double-Precision Whetstone"), which reports MWIPS: millions of
 * Whetstone instructions per second.  kbench runs passes with I = 100
 * (10^7 Whetstone instructions each) until the sample ends.  This is
 * kbench's own implementation of the published modules.
 */
#ifndef KBENCH_MICRO_WHET_H
#define KBENCH_MICRO_WHET_H

#include <signal.h>

/* Whetstone instructions (millions) in one pass of whet_pass(). */
#define WHET_MWI_PER_PASS 10.0

/* The values the modules leave behind, for checks. */
struct whet_state {
	double e1[4];          /* array elements / array as parameter */
	int cj;                /* conditional jumps: j */
	int ij, ik, il;        /* integer arithmetic: j, k, l */
	double ia[4];          /* the shared array after integer arithmetic */
	double tx, ty;         /* trigonometric: x, y */
	double px, py, pz;     /* procedure calls: x, y, z */
	double ar[4];          /* array references */
	double sx;             /* standard functions: x */
};

/* Set the modules' starting values (as the benchmark sets them before
 * its loop). */
void whet_init(struct whet_state *s);

/* One pass of all the modules with loop scale I = 100 (10^7 Whetstone
 * instructions).  Each module starts from its own published starting
 * values, so every pass does the same work and leaves the same values in
 * s.  Returns a checksum (the sum of the values left in s), which
 * whet_run_until() feeds to a volatile sink. */
double whet_pass(struct whet_state *s);

/* The last checksum of whet_run_until(). */
extern volatile double whet_sink;

/* Run passes until *stop is non-zero (at least one); returns the number
 * of passes. */
unsigned long whet_run_until(struct whet_state *s, volatile sig_atomic_t *stop);

#endif
