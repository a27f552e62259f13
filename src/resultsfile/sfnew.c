/* kbench - a new results document: its skeleton (sfnew.h)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * jansson keeps an object's keys in the order they were set (the files
 * are written with JSON_PRESERVE_ORDER), so the order here is the file's.
 */
#include "config.h"
#include "result/result.h"
#include "resultsfile/sfnew.h"

json_t *sf_new(struct sf_head *h)
{
	json_t *doc = result_new("suite");
	const char *keys[] = { "command", "cwd", "units", "params", "system", "started",
			       "ended" };
	json_t *vals[] = { h->command, h->cwd, h->units, h->params, h->system, h->started,
			   h->ended };
	const size_t n = sizeof(keys) / sizeof(keys[0]);
	bool bad = !doc || !h->command || !h->params || !h->system || !h->started ||
		   !h->ended || json_object_set_new(doc, "schema", json_integer(SUITE_SCHEMA)) ||
		   json_object_set_new(doc, "label", json_string(h->label));
	for (size_t i = 0; i < n; i++) {
		if (bad || !vals[i])
			json_decref(vals[i]);
		else
			bad = json_object_set_new(doc, keys[i], vals[i]) != 0;
	}
	if (bad || json_object_set_new(doc, "finished", json_boolean(h->finished)) ||
	    json_object_set_new(doc, "interrupted", json_false()) ||
	    json_object_set_new(doc, "done", json_object()) ||
	    json_object_set_new(doc, "failures", json_array()) ||
	    json_object_set_new(doc, "tests", json_array())) {
		json_decref(doc);
		return NULL;
	}
	return doc;
}
