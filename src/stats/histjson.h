/* kbench - latency histograms in JSON documents, sparse
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A histogram (hist.h's scheme) is stored as one JSON string of its
 * non-empty buckets in order, "LOWER_NS:COUNT LOWER_NS:COUNT ...": the
 * bucket's lower bound in ns names it, so a reader needs no table of the
 * scheme.  A string, not an array of pairs, because the documents are
 * written indented (result.h) and kbench suite keeps every run's document
 * in its results file: indented, a pair takes four lines and about 60
 * bytes, as a string about 12.
 */
#ifndef KBENCH_HISTJSON_H
#define KBENCH_HISTJSON_H

#include <jansson.h>
#include "stats/hist.h"

/* The scheme as a JSON object (its name, exact range, buckets per power
 * of two, the largest relative error of a bucket's midpoint).  Returns a
 * new reference, NULL when out of memory. */
json_t *histjson_scheme(void);

/* h's non-empty buckets as a string "LOWER_NS:COUNT ...".  Returns a new
 * reference, NULL when out of memory. */
json_t *histjson_of(const struct hist *h);

/* The same of n buckets given as indexes idx[] and counts cnt[]. */
json_t *histjson_sparse(const uint32_t *idx, const uint64_t *cnt, unsigned n);

/* Add the buckets of a, written by histjson_of, into h (initialised):
 * counts and h->count; h->min_ns and h->max_ns become the lower bound of
 * the first non-empty bucket and the upper bound of the last (a caller
 * that knows the exact extremes sets them after).  Returns 0, or -1 when
 * a is not such a string: not a string, a pair not two decimal integers, a
 * lower bound that is no bucket's, buckets out of order, a count below 1
 * or a total above 2^62.  h is unchanged on -1.  An empty string is an
 * empty histogram. */
int histjson_read(const json_t *a, struct hist *h);

#endif
