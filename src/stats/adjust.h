/* kbench - adjusted p-values: many tests at once without many false alarms
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A study compares tens of tests at once.  Tested one by one at 95%,
 * about one in twenty of the unchanged ones comes out "better" or
 * "worse".  Adjusting each p-value for the m tests made together bounds
 * that:
 *
 * - Benjamini-Hochberg (Y. Benjamini and Y. Hochberg, "Controlling the
 *   false discovery rate: a practical and powerful approach to multiple
 *   testing", J. R. Statist. Soc. B 57, 1995): sort the p-values
 *   p(1) <= ... <= p(m); the adjusted value (the q-value) of p(i) is
 *   min over j >= i of min(1, m p(j) / j).  Flagging every test with
 *   q < alpha flags exactly those of the step-up rule (the largest k with
 *   p(k) < k alpha / m, and every smaller p), and keeps the expected share
 *   of false changes among the flagged at most alpha (for independent
 *   tests, or positively dependent ones).
 * - Holm (S. Holm, "A simple sequentially rejective multiple test
 *   procedure", Scand. J. Statist. 6, 1979): the adjusted value of p(i) is
 *   max over j <= i of min(1, (m - j + 1) p(j)).  Flagging q < alpha
 *   keeps the chance of even one false change at most alpha, whatever the
 *   dependence.
 *
 * Equal p-values get equal adjusted values under both (the formulas above
 * do not depend on how ties are ordered).  With m = 1 both return p.
 */
#ifndef KBENCH_ADJUST_H
#define KBENCH_ADJUST_H

#include <stddef.h>

enum p_adjust {
	P_ADJ_BH,        /* Benjamini-Hochberg (the default of kbench compare) */
	P_ADJ_HOLM,      /* Holm */
	P_ADJ_NONE,      /* each p as it is */
};

/* The adjusted p-values of p[0..m-1] (each in [0, 1]) into q[0..m-1],
 * in the same order (q may be p).  m = 0 does nothing.  Returns 0, or -1
 * when memory runs out (q untouched). */
int p_adjust(const double *p, size_t m, enum p_adjust how, double *q);

/* The name --adjust takes for how ("bh", "holm", "none"), and back:
 * p_adjust_parse returns 0 with *how set, or -1 for an unknown word. */
const char *p_adjust_name(enum p_adjust how);
int p_adjust_parse(const char *word, enum p_adjust *how);

/* The method's name for people: "Benjamini-Hochberg", "Holm", "none". */
const char *p_adjust_title(enum p_adjust how);

#endif
