/* kbench - change points of a series of kernels, each with several runs
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A tester runs one test on kernels K0, K1, ..., each several times, and
 * asks where the figure stepped.  The change-point tools in use take one
 * value a point (e-divisive, Matteson and James 2014; PELT, Killick,
 * Fearnhead and Eckley 2012); here each kernel brings its runs, and the
 * runs are what a split is tested on.
 *
 * The method is binary segmentation (A. J. Scott and M. Knott, Biometrics
 * 30, 1974; L. J. Vostrikova, Soviet Math. Dokl. 24, 1981) with a rank
 * test per split, as in Pettitt's Mann-Whitney change-point statistic
 * (A. N. Pettitt, "A non-parametric approach to the change-point problem",
 * Applied Statistics 28, 1979), split only between kernels:
 *
 *   In a segment of kernels [lo, hi), every split "at" (the runs of
 *   [lo, at) against those of [at, hi)) gets the standardised U of the
 *   two pooled sets, z = |U - n1 n2 / 2| / sqrt(var) with the tie-corrected
 *   var of utest.h, from one ranking of the segment's runs; the split with
 *   the largest z is the candidate, and the U test (utest.h: exact up to
 *   U_EXACT_MAX runs a side, else normal) gives its two-sided p.  A
 *   candidate with p < alpha splits its segment and both halves are
 *   searched again; one at p >= alpha ends the search there.
 *
 * The p of the best of several splits is not a p of one test: the caller
 * adjusts every candidate over the study's candidate splits (tests x
 * (kernels - 1), the splits not taken counted at p = 1), which bounds
 * the scan's choice as Bonferroni over a segment's splits would, and
 * keeps a step whose q passes and whose parent (the split that made its
 * segment) was kept too (cp_accept).  A kernel with no runs (kept out by
 * the caller) is no point: no split is placed at it, and a step across it
 * is reported between its neighbours.
 */
#ifndef KBENCH_CHANGEPOINT_H
#define KBENCH_CHANGEPOINT_H

#include <stdbool.h>
#include <stddef.h>

/* One kernel's runs of one test, in any one unit (finite); n = 0: the
 * kernel is no point of the series. */
struct cp_runs {
	const double *v;
	size_t n;
};

/* A split binary segmentation proposed. */
struct cp_cand {
	size_t lo, hi;     /* the segment of kernels it was found in, [lo, hi) */
	size_t at;         /* the first kernel right of it: [lo, at) | [at, hi) */
	size_t from;       /* the last kernel with runs left of it */
	double z;          /* the standardised U of the split */
	double p;          /* the U test's two-sided p, left runs against right */
	double p_min;      /* the smallest p these run counts can give */
	int parent;        /* the candidate that made the segment; -1: the whole series */
	double q;          /* set by the caller: p adjusted over the study */
	bool accepted;     /* set by cp_accept */
};

/* The split positions of k[0..nk-1]: the kernels with runs less one
 * (0 when fewer than two have runs). */
size_t cp_positions(const struct cp_runs *k, size_t nk);

/* Binary segmentation of k[0..nk-1] (see above) at alpha (0 < alpha < 1)
 * into out[0..nk-2] (room for nk - 1 candidates), parents before their
 * children, q = 1 and accepted false in each.  *nout the count.
 * Returns 0, or -1 when memory runs out (*nout the candidates so far). */
int cp_binseg(const struct cp_runs *k, size_t nk, double alpha, struct cp_cand *out,
	      size_t *nout);

/* The best split of k[lo..hi-1] alone (the largest standardised U): the
 * first kernel right of it into *at, the last with runs left of it into
 * *from.  Used to place a kept step again between its neighbours once
 * they are known: a split chosen while a second step lay in the same
 * segment can sit a kernel off.  Returns 1 with them set, 0 when there is
 * no split (fewer than two kernels with runs, every run the same), -1
 * when memory runs out. */
int cp_best(const struct cp_runs *k, size_t lo, size_t hi, size_t *at, size_t *from);

/* Accept c[0..n-1] (cp_binseg's order, q filled): a candidate is kept
 * when q < alpha and its parent was kept (or it has none). */
void cp_accept(struct cp_cand *c, size_t n, double alpha);

/* The size of a step between the pooled runs of k[lo..at-1] (left) and
 * k[at..hi-1] (right). */
struct cp_size {
	double left, right;   /* the medians of the pooled runs, the figures' unit */
	size_t nl, nr;        /* the runs pooled on each side */
	double change_pct;    /* 100 (right - left) / |left|; NAN when left is 0 */
	double lo_pct, hi_pct;/* the interval of the shift (Hodges-Lehmann's estimate of
			       * right - left; Bauer 1972) at conf_pct, in percent of |left|;
			       * NAN when the run counts are too small for one */
};

/* The step's size (struct cp_size) at conf_pct (0 < conf_pct < 100): the
 * interval by u_shift_ci (utest.h) when it gives one, else from the
 * normal approximation of U: the sorted differences ranked c and
 * n_l n_r + 1 - c, c = floor(n_l n_r / 2 - z sqrt(n_l n_r (n_l + n_r + 1) / 12)),
 * z the standard normal's upper (1 - conf_pct/100)/2 quantile (GSL).
 * Returns 0, or -1 when a side has no runs or memory runs out. */
int cp_size_of(const struct cp_runs *k, size_t lo, size_t at, size_t hi, double conf_pct,
	       struct cp_size *out);

#endif
