/* kbench - latency histograms in JSON documents (see histjson.h)
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"
#include "stats/histjson.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

json_t *histjson_scheme(void)
{
	return json_pack("{s:s, s:s, s:i, s:i, s:I, s:f, s:s}",
		"kind", "log-linear",
		"unit", "ns",
		"exact_below_ns", (int)HIST_LINEAR,
		"buckets_per_power_of_two", 1 << HIST_SUB_BITS,
		"top_ns", (json_int_t)(UINT64_C(1) << HIST_MAX_BIT),
		"relative_error", 1.0 / 128.0,
		"form", "\"LOWER_NS:COUNT ...\", a pair per non-empty bucket in order; a value is within "
			"relative_error of its bucket's midpoint (exact below exact_below_ns); "
			"top_ns and above share the last bucket");
}

json_t *histjson_sparse(const uint32_t *idx, const uint64_t *cnt, unsigned n)
{
	char *buf = malloc((size_t)n * 42 + 1);   /* two 20-digit numbers, ':' and ' ' */
	if (!buf)
		return NULL;
	size_t len = 0;
	buf[0] = '\0';
	for (unsigned k = 0; k < n; k++) {
		uint64_t lo, hi;
		hist_bucket_range(idx[k], &lo, &hi);
		len += (size_t)sprintf(buf + len, "%s%llu:%llu", k ? " " : "",
				       (unsigned long long)lo, (unsigned long long)cnt[k]);
	}
	json_t *s = json_stringn(buf, len);
	free(buf);
	return s;
}

json_t *histjson_of(const struct hist *h)
{
	uint32_t *idx = malloc(HIST_BUCKETS * sizeof(*idx));
	uint64_t *cnt = malloc(HIST_BUCKETS * sizeof(*cnt));
	json_t *s = idx && cnt ? histjson_sparse(idx, cnt, hist_sparse(h, idx, cnt)) : NULL;
	free(idx);
	free(cnt);
	return s;
}

/* One decimal number at *p (digits only, at most 19); advances *p.
 * Returns 0 or -1. */
static int number(const char **p, uint64_t *v)
{
	const char *s = *p;
	uint64_t x = 0;
	int n = 0;
	while (*s >= '0' && *s <= '9' && n < 19) {
		x = x * 10 + (uint64_t)(*s++ - '0');
		n++;
	}
	if (!n || (*s >= '0' && *s <= '9'))
		return -1;
	*p = s;
	*v = x;
	return 0;
}

/* Walk the pairs of s; with h, add them.  Returns 0 or -1. */
static int walk(const char *s, struct hist *h)
{
	uint64_t total = 0;
	long prev = -1;
	while (*s) {
		uint64_t lo, c, blo, bhi;
		if (prev >= 0 && *s++ != ' ')
			return -1;
		if (number(&s, &lo) < 0 || *s++ != ':' || number(&s, &c) < 0)
			return -1;
		unsigned i = hist_bucket_of(lo);
		hist_bucket_range(i, &blo, &bhi);
		if (blo != lo || (long)i <= prev || c < 1 || c > (UINT64_C(1) << 62) - total)
			return -1;
		prev = (long)i;
		total += c;
		if (!h)
			continue;
		h->bucket[i] += c;
		h->count += c;
		if (blo < h->min_ns)
			h->min_ns = blo;
		if (bhi > h->max_ns)
			h->max_ns = bhi;
	}
	return 0;
}

int histjson_read(const json_t *a, struct hist *h)
{
	if (!json_is_string(a) || strlen(json_string_value(a)) != json_string_length(a))
		return -1;
	/* checked first: h is left alone on bad input */
	if (walk(json_string_value(a), NULL) < 0)
		return -1;
	return walk(json_string_value(a), h);
}
