/* kbench - suite: the children's setup notes passed on (see passon.h)
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"
#include "result/caveat.h"
#include "resultsfile/escape.h"
#include "suite/passon.h"

#include <stdbool.h>
#include <string.h>

/* Is the text after "warning: " a caveat's ("KEY: TEXT", KEY known)? */
static bool is_caveat(const char *w)
{
	char key[64];
	size_t n = strcspn(w, ":");
	if (!w[n] || n >= sizeof(key))
		return false;
	memcpy(key, w, n);
	key[n] = 0;
	return caveat_kind(key) != NULL;
}

static bool seen_before(const json_t *seen, const char *line)
{
	size_t i;
	const json_t *s;
	json_array_foreach(seen, i, s)
		if (!strcmp(json_string_value(s), line))
			return true;
	return false;
}

void passon_notes(FILE *out, const char *log, json_t *seen)
{
	char line[1024];
	FILE *f = fopen(log, "r");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		const char *w = strstr(line, "warning: ");
		line[strcspn(line, "\n")] = 0;
		if (!w || is_caveat(w + 9) || seen_before(seen, line))
			continue;
		json_array_append_new(seen, json_string(line));
		esc_put(out, line, 0);
		fputc('\n', out);
	}
	fclose(f);
}
