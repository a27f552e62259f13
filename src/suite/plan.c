/* kbench - suite: sealing a series' plan, and checking it on --resume
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The digest is FNV-1a (Fowler, Noll and Vo's public-domain hash, 64-bit
 * offset basis and prime) over one canonical dump of the plan: enough to
 * see an edited file, which is all --resume needs to refuse one.
 */
#include "config.h"
#include "suite/plan.h"
#include "resultsfile/escape.h"

#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PLAN_DIGEST_LEN 32

/* The plan's digest into out ("fnv1a64:HEX"); -1 when doc lacks a part
 * or out of memory. */
static int digest(const json_t *doc, char out[PLAN_DIGEST_LEN])
{
	static const char *keys[] = { "command", "cwd", "params", "directory_real" };
	json_t *plan = json_array();
	for (size_t i = 0; plan && i < sizeof(keys) / sizeof(keys[0]); i++) {
		json_t *v = json_object_get(doc, keys[i]);
		if (!v || json_array_append(plan, v) < 0) {
			json_decref(plan);
			return -1;
		}
	}
	char *text = plan ? json_dumps(plan, JSON_COMPACT | JSON_SORT_KEYS | JSON_ENSURE_ASCII |
				       JSON_ENCODE_ANY) : NULL;
	json_decref(plan);
	if (!text)
		return -1;
	uint64_t h = 14695981039346656037ull;
	for (const unsigned char *p = (const unsigned char *)text; *p; p++) {
		h ^= *p;
		h *= 1099511628211ull;
	}
	free(text);
	snprintf(out, PLAN_DIGEST_LEN, "fnv1a64:%016llx", (unsigned long long)h);
	return 0;
}

int plan_seal(const char *cmd, json_t *doc, const char *dir)
{
	char real[PATH_MAX], d[PLAN_DIGEST_LEN], shown[300];
	if (!realpath(dir, real)) {
		fprintf(stderr, "%s: -D %s: %s\n", cmd, esc_str(shown, sizeof(shown), dir),
			strerror(errno));
		return -1;
	}
	if (json_object_set_new(doc, "directory_real", json_string(real)) < 0 ||
	    digest(doc, d) < 0 || json_object_set_new(doc, "plan_digest", json_string(d)) < 0) {
		fprintf(stderr, "%s: out of memory\n", cmd);
		return -1;
	}
	return 0;
}

int plan_check(const char *cmd, const char *shown, const json_t *doc, const char *dir)
{
	char d[PLAN_DIGEST_LEN], real[PATH_MAX], a[300], b[300], c[300];
	const char *stored = json_string_value(json_object_get(doc, "plan_digest"));
	const char *was = json_string_value(json_object_get(doc, "directory_real"));
	if (!stored || !was || digest(doc, d) < 0 || strcmp(stored, d)) {
		fprintf(stderr, "%s: %s: its plan (command line, directory, parameters) %s: "
			"cannot resume it\n", cmd, shown, stored && was ?
			"changed since the series started" : "has no digest");
		return -1;
	}
	if (!realpath(dir, real)) {
		fprintf(stderr, "%s: %s: its directory %s: %s: cannot resume it\n", cmd, shown,
			esc_str(a, sizeof(a), dir), strerror(errno));
		return -1;
	}
	if (strcmp(real, was)) {
		fprintf(stderr, "%s: %s: its directory %s is now %s, not %s, where the series "
			"started: cannot resume it\n", cmd, shown, esc_str(a, sizeof(a), dir),
			esc_str(b, sizeof(b), real), esc_str(c, sizeof(c), was));
		return -1;
	}
	return 0;
}
