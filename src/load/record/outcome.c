/* kbench - load: the run's outcome, the one rule every output form follows
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A run's figure is a result only when the run went its whole course and
 * every operation ended as its line expects.  The text report, dbench's
 * forms, the JSON document and the exit status all ask run_failure(), so
 * no form can print a Throughput line for a run another form calls
 * failed.
 */
#include "config.h"
#include "cli.h"
#include "load/backend/backend.h"
#include "load/record/outcome.h"

#include <math.h>
#include <stdio.h>

const char *run_failure(const struct run_result *res, char *buf, size_t len)
{
	char sig[CLI_SIGNAME_LEN];
	if (res->job_broken)
		snprintf(buf, len, "the job lost a rank");
	else if (res->interrupted)
		snprintf(buf, len, "interrupted by %s", cli_signal_name(res->interrupted, sig));
	else if (res->setup_failed)
		snprintf(buf, len, "clients could not start");
	else if (res->died)
		snprintf(buf, len, "%s", res->died_msg);
	else if (res->nfatal)
		snprintf(buf, len, "client %u stopped early: %s", res->fatal_client,
			 backend_strerror(res->fatal_err));
	else if (res->stuck)
		snprintf(buf, len, "%s did not stop and was killed", res->stuck_msg);
	else if (res->strict_stop)
		snprintf(buf, len, "stopped at the first error (--strict)");
	else if (res->nranks && res->stop_rank >= 0 && (unsigned)res->stop_rank < res->nranks)
		snprintf(buf, len, "rank %d stopped the job early", res->stop_rank);
	else if (res->errors && !res->unchecked)
		snprintf(buf, len, "%llu operation%s did not end as the loadfile expects",
			 (unsigned long long)res->errors, res->errors == 1 ? "" : "s");
	else if (res->measured_s <= 0 || !res->ops || !isfinite(res->mbps))
		snprintf(buf, len, "nothing was measured");
	else if (res->mem_left)
		snprintf(buf, len, "its memory cgroup could not be removed");
	else if (res->report_failed)
		snprintf(buf, len, "%s", res->report_failed);
	else
		return NULL;
	return buf;
}
