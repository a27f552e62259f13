/* kbench - suite: the machine a series ran on (sysdoc.c)
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#ifndef KBENCH_SUITE_SYSDOC_H
#define KBENCH_SUITE_SYSDOC_H

#include <jansson.h>
#include "suite/series.h"

/* The results file's "system" object for the series s: the machine
 * (sysinfo_json), system.settings.loadfile_digest (or "unknown"), the
 * kernel's uname -v, the memory cgroup's limit in bytes (null: none),
 * the directory the loads run in and its filesystem's options, and with
 * --disk system.disk (device, model, size in bytes, hdparm's settings at
 * the start with its DMA state).  Returns a new object, or NULL when out
 * of memory. */
json_t *suite_system_json(const struct suite *s);

#endif
