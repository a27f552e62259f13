/* kbench - compare: the recorded settings in which two results files differ (see cmpparams.h)
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"
#include "result/caveat.h"
#include "compare/judge/cmpparams.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

/* ev's keys, ", " between them, into list (n bytes): as many whole keys
 * as fit.  The keys are kbench's option and field names, [a-z_]. */
static void key_list(const json_t *ev, char *list, size_t n)
{
	size_t used = 0;
	const char *key;
	const json_t *v;
	list[0] = 0;
	json_object_foreach((json_t *)ev, key, v) {
		int w = snprintf(list + used, n - used, "%s%s", used ? ", " : "", key);
		if (w < 0 || (size_t)w >= n - used) {
			list[used] = 0;
			break;
		}
		used += (size_t)w;
	}
}

static bool in(const char *key, const char *const *list)
{
	for (; *list; list++)
		if (!strcmp(key, *list))
			return true;
	return false;
}

/* Does setting key decide the work of a test run by command? */
static bool touches(const char *key, const char *command)
{
	static const char *const series[] = { "runs", "pause_s", "clients", "micro_tests", "micro",
					      "mem_limits", "until_stable_pct", "max_runs", NULL };
	static const char *const disk[] = { "disk", "drop_caches", NULL };
	static const char *const micro[] = { "micro_quick", "micro_copies", "drop_caches", NULL };
	if (in(key, series))
		return false;
	if (!command)
		return true;
	if (!strcmp(command, "disk"))
		return in(key, disk);
	if (!strcmp(command, "micro"))
		return in(key, micro);
	return strcmp(key, "disk") && strcmp(key, "micro_quick") && strcmp(key, "micro_copies");
}

/* A setting's value as the work takes it: an absent backend is fileio. */
static const json_t *value_of(const json_t *params, const char *key, json_t *fileio)
{
	const json_t *v = json_object_get(params, key);
	return !v && !strcmp(key, "backend") ? fileio : v;
}

/* Add key's difference to ev, if any. */
static int compare_key(const json_t *pa, const json_t *pb, const char *key, char letter,
		       json_t *fileio, json_t *ev)
{
	const json_t *va = value_of(pa, key, fileio), *vb = value_of(pb, key, fileio);
	if ((!va && !vb) || (va && vb && json_equal(va, vb)))
		return 0;
	char lb[2] = { letter, 0 };
	json_t *d = json_pack("{s:O, s:O}", "A", va ? va : json_null(), lb, vb ? vb : json_null());
	return d && json_object_set_new(ev, key, d) == 0 ? 0 : -1;
}

int cmp_params_caveats(const json_t *a, const json_t *b, const char *command, char letter,
		       json_t *cav)
{
	const json_t *pa = json_object_get(a, "params"), *pb = json_object_get(b, "params");
	json_t *ev = json_object(), *fileio = json_string("fileio");
	const char *key;
	const json_t *v;
	int rc = ev && fileio ? 0 : -1;
	for (int side = 0; !rc && side < 2; side++)
		json_object_foreach((json_t *)(side ? pb : pa), key, v)
			if (!json_object_get(ev, key) && touches(key, command) &&
			    compare_key(pa, pb, key, letter, fileio, ev) < 0)
				rc = -1;
	bool backend = !rc && json_object_get(ev, "backend");
	if (!rc && json_object_size(ev)) {
		/* "fsync, backend": the keys are load's option names, [a-z_] */
		char list[512];
		key_list(ev, list, sizeof(list));
		if (backend && caveat_add(cav, "other_backend", json_incref(json_object_get(ev,
				"backend")), "the load ran through another backend than A's: "
				"another kind of work") < 0)
			rc = -1;
		if (!rc && caveat_add(cav, "params_differ", json_incref(ev), "settings differ from "
				      "A's: %s", list) < 0)
			rc = -1;
	}
	json_decref(ev);
	json_decref(fileio);
	return rc;
}

/* Add {"A": va, letter: vb} under key to ev. */
static int put_pair(json_t *ev, const char *key, json_t *va, json_t *vb, char letter)
{
	char lb[2] = { letter, 0 };
	json_t *d = va && vb ? json_pack("{s:O, s:O}", "A", va, lb, vb) : NULL;
	json_decref(va);
	json_decref(vb);
	return d && json_object_set_new(ev, key, d) == 0 ? 0 : -1;
}

/* A test's params that say which work it is: another value is another
 * test, whatever the name.  The command only between kbench's own
 * (load, disk, micro): an imported figure transcribes one of theirs. */
static bool defines_test(const char *key, const json_t *va, const json_t *vb)
{
	static const char *const keys[] = { "clients", "test", "family", NULL };
	if (!strcmp(key, "command"))
		return strcmp(json_string_value(va) ? json_string_value(va) : "", "import") &&
		       strcmp(json_string_value(vb) ? json_string_value(vb) : "", "import");
	return in(key, keys);
}

int cmp_test_caveats(const struct sf_test *a, const struct sf_test *b, char letter, json_t *cav)
{
	json_t *ev = json_object();
	int rc = ev ? 0 : -1;
	const char *key;
	const json_t *va;
	if (!rc && strcmp(a->unit, b->unit))
		rc = put_pair(ev, "unit", json_string(a->unit), json_string(b->unit), letter);
	if (!rc && a->higher_is_better != b->higher_is_better)
		rc = put_pair(ev, "higher_is_better", json_boolean(a->higher_is_better),
			      json_boolean(b->higher_is_better), letter);
	json_object_foreach(a->params, key, va) {
		const json_t *vb = json_object_get(b->params, key);
		if (rc || !vb || json_equal(va, vb) || !defines_test(key, va, vb))
			continue;
		rc = put_pair(ev, key, json_incref((json_t *)va), json_incref((json_t *)vb), letter);
	}
	if (!rc && json_object_size(ev)) {
		char list[256];
		key_list(ev, list, sizeof(list));
		rc = caveat_add(cav, "test_differs", json_incref(ev), "the files disagree on what "
				"the test is: its %s", list) < 0 ? -1 : 1;
	}
	json_decref(ev);
	return rc;
}
