/* kbench - a load run's own memory in its report (see ownmem.h)
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"
#include "load/record/ownmem.h"
#include "sys/memcg.h"

static double mib(uint64_t bytes)
{
	return (double)bytes / 1048576.0;
}

static double per_op(const struct program *prog)
{
	return prog->nops ? (double)prog->code_bytes / (double)prog->nops : 0.0;
}

void ownmem_text(FILE *f, const struct run_config *cfg, const struct run_result *res)
{
	const struct run_ownmem *o = &res->own;
	if (!res->mem_limited)
		return;
	fprintf(f, "kbench's own memory (2^20): program %.2f MiB (%.1f bytes an op), "
		"parent peak %.2f MiB, ", mib(o->program_bytes), per_op(cfg->prog),
		mib(o->parent_peak_bytes));
	if (o->client_procs)
		fprintf(f, "client peak %.2f MiB; ", mib(o->client_peak_bytes));
	else
		fprintf(f, "client peak unknown; ");
	if (o->charged_bytes == MEMCG_UNKNOWN)
		fprintf(f, "charged to the limit unknown\n");
	else
		fprintf(f, "charged to the limit %.2f MiB\n", mib(o->charged_bytes));
}

json_t *ownmem_json(const struct run_config *cfg, const struct run_result *res)
{
	const struct run_ownmem *o = &res->own;
	return json_pack("{s:I, s:f, s:I, s:I, s:I, s:I, s:I, s:i, s:I, s:o}",
		"program_bytes", (json_int_t)o->program_bytes,
		"program_bytes_per_op", per_op(cfg->prog),
		"arena_bytes", (json_int_t)o->arena_bytes,
		"parent_peak_bytes", (json_int_t)o->parent_peak_bytes,
		"parse_peak_bytes", (json_int_t)o->parse_peak_bytes,
		"client_peak_bytes", (json_int_t)o->client_peak_bytes,
		"client_peak_sum_bytes", (json_int_t)o->client_peak_sum,
		"client_procs", (int)o->client_procs,
		"shared_bytes", (json_int_t)o->shared_bytes,
		"charged_bytes", o->charged_bytes == MEMCG_UNKNOWN ? json_null() :
		json_integer((json_int_t)o->charged_bytes));
}
