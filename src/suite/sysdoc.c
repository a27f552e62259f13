/* kbench - suite: the machine a series ran on, for its results file
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The results file's "system": what every run's document records of the
 * machine (result/sysinfo.h, its settings among them), and what only the
 * series knows: the loadfile's digest, the directory's filesystem, and
 * for --disk the device and hdparm's settings of it at the start.
 */
#include "config.h"
#include "disk/devinfo.h"
#include "result/sysinfo.h"
#include "suite/sysdoc.h"
#include "sys/settings.h"

#include <limits.h>
#include <stdlib.h>

json_t *suite_system_json(const struct suite *s)
{
	struct kb_sysinfo si;
	struct kb_sysinfo_extra x;
	const char *dir = s->dir;
	if (!dir)
		dir = getenv("TMPDIR") && *getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
	sysinfo_collect(&si, dir);
	sysinfo_extra_collect(&x, dir, s->disk);
	json_t *o = sysinfo_json(&si);
	if (!o)
		return NULL;
	/* the loadfile's text: the same name may hold other work */
	char digest[40];
	json_t *set = json_object_get(o, "settings");
	if (set && s->loadfile_path)
		json_object_set_new(set, "loadfile_digest", settings_file_digest(s->loadfile_path,
				    0, digest, sizeof(digest)) == 0 ? json_string(digest) :
				    json_string(SETTINGS_UNKNOWN));
	json_object_set_new(o, "kernel_version", json_string(x.kernel_version));
	json_object_set_new(o, "cgroup_memory_limit_bytes", x.cgroup_mem_limit >= 0 ?
			    json_integer(x.cgroup_mem_limit) : json_null());
	char real[PATH_MAX];
	json_object_set_new(o, "directory", json_string(realpath(dir, real) ? real : dir));
	json_object_set_new(o, "fs_options", json_string(x.fs_options));
	if (s->disk) {
		json_t *d = json_pack("{s:s, s:s, s:I}", "device", s->disk, "model", x.disk_model,
				      "size_bytes", (json_int_t)x.disk_size_bytes);
		struct dev_info di;
		char why[200];
		/* hdparm DEV's settings at the start (kbench disk --info) */
		if (d && devinfo_collect(s->disk, &di, why, sizeof(why)) == 0) {
			json_t *ds = devinfo_json(s->disk, &di);
			char dma[96];
			if (ds)   /* hdparm's using_dma, where the kernel shows it */
				json_object_set_new(ds, "dma", json_string(settings_dma_of(s->disk,
						    dma, sizeof(dma))));
			json_object_set_new(d, "settings", ds);
		}
		json_object_set_new(o, "disk", d);
	}
	return o;
}
