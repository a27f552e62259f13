/* kbench - compare --fail-on: the gate (see cmpgate.h)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The status keeps compare's other meanings: 0 passed, 3 a verdict was
 * refused (a not-comparable row is neither a pass nor a fail: a bisect
 * script maps it to "skip"), 4 tripped, which outranks 3.
 */
#include "config.h"
#include "compare/judge/cmpcav.h"
#include "compare/judge/cmpgate.h"
#include "resultsfile/escape.h"
#include "compare/judge/cmpsame.h"

#include <math.h>
#include <string.h>

int cmp_fail_on_parse(const char *word, enum cmp_fail_on *on)
{
	if (!strcmp(word, "worse"))
		*on = CMP_FAIL_WORSE;
	else if (!strcmp(word, "change"))
		*on = CMP_FAIL_CHANGE;
	else if (!strcmp(word, "not-same"))
		*on = CMP_FAIL_NOT_SAME;
	else
		return -1;
	return 0;
}

static bool proven_change(const struct cmp_row *r, size_t k)
{
	return r->v[k] == T_WORSE || r->v[k] == T_BETTER;
}

static bool trips(enum cmp_fail_on on, const struct cmp_row *r, size_t k, double min_pct)
{
	if (on == CMP_FAIL_NOT_SAME && r->v[k] != T_REFUSED && !(r->v[k] == T_SAME && r->same[k]))
		return (r->v[k] != T_WORSE && r->v[k] != T_BETTER) || !(fabs(r->change[k]) < min_pct);
	if (r->v[k] != T_WORSE && (on != CMP_FAIL_CHANGE || r->v[k] != T_BETTER))
		return false;
	return !(fabs(r->change[k]) < min_pct);
}

int cmp_gate(FILE *out, const struct cmp *c, enum cmp_fail_on on, double min_change_pct)
{
	size_t tripped = 0, refused = 0, too_few = 0, small = 0;
	for (size_t i = 0; i < c->nrows; i++)
		for (size_t k = 1; k < c->nf; k++) {
			const struct cmp_row *r = &c->rows[i];
			if (!r->t[k])
				continue;
			refused += r->v[k] == T_REFUSED;
			too_few += r->v[k] == T_TOO_FEW;
			if (on == CMP_FAIL_NEVER)
				continue;
			if (r->v[k] == T_REFUSED) {
				/* named, so that no one reads the status as a pass */
				char why[300];
				cmp_refused_text(r, k, why, sizeof(why));
				fputs("gate: ", out);
				esc_put(out, r->name, 0);
				fprintf(out, " %c: %s\n", (int)('A' + k), why);
				continue;
			}
			if (!trips(on, r, k, min_change_pct)) {
				small += trips(on, r, k, 0);
				continue;
			}
			tripped++;
			fputs("gate: ", out);
			esc_put(out, r->name, 0);
			fprintf(out, " %c: %s", (int)('A' + k), cmp_verdict_key(r, k));
			if (isfinite(r->change[k]))
				fprintf(out, " %+.2f%%", r->change[k]);
			if (isfinite(r->q[k]))
				fprintf(out, " (adjusted p %.3g)", r->q[k]);
			if (!proven_change(r, k)) {
				char see[40];
				fprintf(out, " (%s)", cmp_could_see(r, k, see, sizeof(see)));
			}
			fputc('\n', out);
		}
	if (on == CMP_FAIL_NEVER)
		return refused ? CMP_EXIT_NOT_COMPARABLE : 0;
	fprintf(out, "gate: %s: %zu row%s %s", tripped ? "failed" : "passed", tripped,
		tripped == 1 ? "" : "s", on == CMP_FAIL_WORSE ? "proven worse" :
		on == CMP_FAIL_CHANGE ? "proven changed" : "not proven the same");
	if (min_change_pct > 0)
		fprintf(out, " by %g%% or more (%zu smaller)", min_change_pct, small);
	fprintf(out, "; %zu not comparable (status %d unless the gate failed), %zu with too few "
		"runs to judge\n", refused, CMP_EXIT_NOT_COMPARABLE, too_few);
	return tripped ? CMP_EXIT_GATE : refused ? CMP_EXIT_NOT_COMPARABLE : 0;
}
