/* kbench - a plain kbench micro document read as a results file (sfmicro.h)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * suitefile_read takes `kbench micro --json` documents as well as kbench
 * suite's results files, so compare (and anything else that reads
 * results files) treats a micro run as a series of one run.
 */
#include "config.h"
#include "resultsfile/sfmicro.h"
#include "resultsfile/sfnew.h"

#include <math.h>
#include <string.h>

int sfmicro_is_micro(const json_t *doc)
{
	const char *k = json_string_value(json_object_get(doc, "kind"));
	return k && !strcmp(k, "micro");
}

static json_t *copy_or_null(const json_t *v)
{
	return v ? json_deep_copy(v) : json_null();
}

json_t *sfmicro_as_suite(json_t *doc)
{
	const json_t *tests = json_object_get(json_object_get(doc, "results"), "tests"), *t;
	if (!json_is_array(tests))
		return NULL;
	json_t *time = json_object_get(doc, "time");
	struct sf_head h = {
		.label = "micro", .command = json_pack("[s]", "micro"),
		.params = copy_or_null(json_object_get(doc, "params")),
		.system = copy_or_null(json_object_get(doc, "system")),
		.started = copy_or_null(time), .ended = copy_or_null(time), .finished = true,
	};
	/* the micro run's own version and time, not this kbench's now */
	json_t *out = sf_new(&h);
	if (!out || json_object_set(out, "kbench_version", json_object_get(doc, "kbench_version")) ||
	    json_object_set_new(out, "time", copy_or_null(time))) {
		json_decref(out);
		return NULL;
	}
	json_t *dst = json_object_get(out, "tests");
	size_t i;
	json_array_foreach(tests, i, t) {
		const char *name = json_string_value(json_object_get(t, "name"));
		const char *unit = json_string_value(json_object_get(t, "unit"));
		json_t *v = json_object_get(t, "value"), *skipped = json_object_get(t, "skipped");
		int has = json_is_number(v) && isfinite(json_number_value(v)) && unit;
		if (!name || (!has && !json_is_string(skipped)))
			continue;
		json_t *row = json_pack("{s:s, s:{s:s, s:o, s:o}, s:s, s:b, s:[]}", "name", name,
					"params", "command", "micro",
					"family", copy_or_null(json_object_get(t, "family")),
					"title", copy_or_null(json_object_get(t, "title")),
					"unit", unit ? unit : "", "higher_is_better",
					json_is_true(json_object_get(t, "higher_is_better")), "runs");
		if (!row || json_array_append_new(dst, row)) {
			json_decref(out);
			return NULL;
		}
		if (has)
			json_array_append_new(json_object_get(row, "runs"),
					      json_pack("{s:f, s:O, s:f, s:O}", "value",
							json_number_value(v), "started",
							time ? time : json_null(), "seconds", 0.0,
							"document", doc));
		else
			json_object_set(row, "skipped", skipped);
	}
	return out;
}
