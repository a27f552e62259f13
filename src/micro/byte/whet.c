/* kbench - micro: double-precision Whetstone, from Curnow & Wichmann
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Each pass is one whole run of the benchmark's module sequence with loop
 * scale I = 100: every module sets its own starting values first, as the
 * published program does, so every pass does the same work and leaves the
 * same values (unit tests check both).  The constants are those of the
 * double-precision version: t = 0.49999975, t1 = 0.50000025, t2 = 2.0.
 */
#include "config.h"
#include "micro/byte/whet.h"

#include <math.h>

#define WHET_I 100             /* loop scale: 10^7 Whetstone instructions */

#if defined(__clang__)
#define WHET_PROC __attribute__((noinline))
#else
#define WHET_PROC __attribute__((noinline, noipa))
#endif
/* the benchmark's own procedures (pa, p3, p0) are in the one file with
 * its modules, as in the published program: the compiler may inline
 * them, as it does UnixBench's */
#define WHET_INNER static

/* the constants, read from memory each pass so nothing folds them */
static volatile double c_t = 0.49999975, c_t1 = 0.50000025, c_t2 = 2.0;

/* "array as parameter": six rounds of the four formulas on e */
WHET_INNER void pa(double e[4], double t, double t2)
{
	for (int r = 0; r < 6; r++) {
		e[0] = (e[0] + e[1] + e[2] - e[3]) * t;
		e[1] = (e[0] + e[1] - e[2] + e[3]) * t;
		e[2] = (e[0] - e[1] + e[2] + e[3]) * t;
		e[3] = (-e[0] + e[1] + e[2] + e[3]) / t2;
	}
}

/* "procedure calls": three formulas on x, y, z */
WHET_INNER void p3(double *x, double *y, double *z, double t, double t1, double t2)
{
	double a = *y, b = *z;
	a = t * (a + b);
	b = t1 * (a + b);
	*x = a;
	*y = b;
	*z = (a + b) / t2;
}

/* "array references": three elements moved around */
WHET_INNER void p0(double e[4], int j, int k, int l)
{
	e[j] = e[k];
	e[k] = e[l];
	e[l] = e[j];
}

void whet_init(struct whet_state *s)
{
	for (int i = 0; i < 4; i++)
		s->e1[i] = s->ia[i] = s->ar[i] = 0;
	s->cj = s->ij = s->ik = s->il = 0;
	s->tx = s->ty = s->px = s->py = s->pz = s->sx = 0;
}

WHET_PROC double whet_pass(struct whet_state *s)
{
	const double t = c_t, t1 = c_t1, t2 = c_t2;
	double *e = s->e1;

	/* array elements */
	e[0] = 1.0;
	e[1] = -1.0;
	e[2] = -1.0;
	e[3] = -1.0;
	for (int i = 0; i < 12 * WHET_I; i++) {
		e[0] = (e[0] + e[1] + e[2] - e[3]) * t;
		e[1] = (e[0] + e[1] - e[2] + e[3]) * t;
		e[2] = (e[0] - e[1] + e[2] + e[3]) * t;
		e[3] = (-e[0] + e[1] + e[2] + e[3]) * t;
	}

	/* array as parameter */
	for (int i = 0; i < 14 * WHET_I; i++)
		pa(e, t, t2);

	/* conditional jumps */
	int j = 1;
	for (int i = 0; i < 345 * WHET_I; i++) {
		j = j == 1 ? 2 : 3;
		j = j > 2 ? 0 : 1;
		j = j < 1 ? 1 : 0;
	}
	s->cj = j;

	/* integer arithmetic */
	j = 1;
	int k = 2, l = 3;
	for (int i = 0; i < 210 * WHET_I; i++) {
		j = j * (k - j) * (l - k);
		k = l * k - (l - j) * k;
		l = (l - k) * (k + j);
		e[l - 2] = j + k + l;
		e[k - 2] = j * k * l;
	}
	s->ij = j;
	s->ik = k;
	s->il = l;
	for (int i = 0; i < 4; i++)
		s->ia[i] = e[i];

	/* trigonometric functions */
	double x = 0.5, y = 0.5;
	for (int i = 0; i < 32 * WHET_I; i++) {
		x = t * atan(t2 * sin(x) * cos(x) / (cos(x + y) + cos(x - y) - 1.0));
		y = t * atan(t2 * sin(y) * cos(y) / (cos(x + y) + cos(x - y) - 1.0));
	}
	s->tx = x;
	s->ty = y;

	/* procedure calls */
	x = y = 1.0;
	double z = 1.0;
	for (int i = 0; i < 899 * WHET_I; i++)
		p3(&x, &y, &z, t, t1, t2);
	s->px = x;
	s->py = y;
	s->pz = z;

	/* array references */
	double *a = s->ar;
	a[0] = 1.0;
	a[1] = 2.0;
	a[2] = 3.0;
	a[3] = 0.0;
	for (int i = 0; i < 616 * WHET_I; i++)
		p0(a, 0, 1, 2);

	/* standard functions */
	x = 0.75;
	for (int i = 0; i < 93 * WHET_I; i++)
		x = sqrt(exp(log(x) / t1));
	s->sx = x;

	return e[0] + e[1] + e[2] + e[3] + s->cj + s->ij + s->ik + s->il + s->tx + s->ty +
	       s->px + s->py + s->pz + a[0] + a[1] + a[2] + s->sx;
}

/* where the checksums go, so no pass is dead code */
volatile double whet_sink;

unsigned long whet_run_until(struct whet_state *s, volatile sig_atomic_t *stop)
{
	unsigned long n = 0;
	do {
		whet_sink = whet_pass(s);
		n++;
	} while (!*stop);
	return n;
}
