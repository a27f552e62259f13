/* kbench - unit tests of the machine's settings (sys/settings.h), read
 * from a made-up /proc and /sys under a temporary root: each file's
 * value as the document records it, "unknown" for each file that is not
 * there, and the warnings before a series
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"
#include "sys/settings.h"

#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>
#include <cmocka.h>

static char root[PATH_MAX];

/* root/rel with text in it, the directories above made */
static void put(const char *rel, const char *text)
{
	char path[PATH_MAX];
	snprintf(path, sizeof(path), "%s%s", root, rel);
	for (char *p = path + strlen(root) + 1; (p = strchr(p, '/')); p++) {
		*p = 0;
		mkdir(path, 0755);
		*p = '/';
	}
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static int make_root(void **state)
{
	(void)state;
	snprintf(root, sizeof(root), "%s/kbench-settings-XXXXXX",
		 getenv("TMPDIR") && *getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	assert_non_null(mkdtemp(root));
	return 0;
}

static int remove_root(void **state)
{
	(void)state;
	char cmd[PATH_MAX + 16];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	return system(cmd) == 0 ? 0 : -1;
}

static const char *str(const json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));
	return s ? s : "(not a string)";
}

static void bracketed(void **state)
{
	(void)state;
	char w[32];
	assert_string_equal(settings_bracketed("always [madvise] never", w, sizeof(w)), "madvise");
	assert_string_equal(settings_bracketed("[always] defer madvise never", w, sizeof(w)), "always");
	assert_string_equal(settings_bracketed("performance", w, sizeof(w)), "performance");
}

static void config_scan(void **state)
{
	(void)state;
	char model[32];
	int dyn;
	long hz;
	FILE *f = tmpfile();
	fputs("# CONFIG_PREEMPT_VOLUNTARY is not set\nCONFIG_PREEMPT_NONE=y\n"
	      "CONFIG_PREEMPT_DYNAMIC=y\nCONFIG_HZ_250=y\nCONFIG_HZ=250\n", f);
	rewind(f);
	settings_config_scan(f, model, sizeof(model), &dyn, &hz);
	assert_string_equal(model, "none");
	assert_int_equal(dyn, 1);
	assert_int_equal(hz, 250);
	fclose(f);
	f = tmpfile();
	fputs("CONFIG_PREEMPT_RT=y\nCONFIG_PREEMPT=y\nCONFIG_HZ=1000\n", f);
	rewind(f);
	settings_config_scan(f, model, sizeof(model), &dyn, &hz);
	assert_string_equal(model, "rt");      /* RT over the model beneath it */
	assert_int_equal(dyn, 0);
	assert_int_equal(hz, 1000);
	fclose(f);
}

/* An empty root: every setting unknown, none guessed. */
static void all_unknown(void **state)
{
	(void)state;
	json_t *s = settings_collect(root);
	static const char *const keys[] = { "cmdline", "mitigations", "governor", "boost",
					    "cpu_mhz", "smt", "numa_nodes", "thp_enabled",
					    "thp_defrag", "swappiness", "dirty_ratio" };
	assert_non_null(s);
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		assert_string_equal(str(s, keys[i]), SETTINGS_UNKNOWN);
	assert_non_null(strstr(str(s, "build"), "optimised"));
	json_decref(s);
}

static void a_machine(void **state)
{
	(void)state;
	put("/proc/cmdline", "BOOT_IMAGE=/vmlinuz root=/dev/sda1 mitigations=off preempt=full\n");
	put("/sys/devices/system/cpu/vulnerabilities/meltdown", "Vulnerable\n");
	put("/sys/devices/system/cpu/vulnerabilities/spectre_v2", "Vulnerable; IBPB: disabled\n");
	put("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor", "powersave\n");
	put("/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq", "3600000\n");
	put("/sys/devices/system/cpu/cpu1/cpufreq/scaling_governor", "performance\n");
	put("/sys/devices/system/cpu/cpu2/cpufreq/scaling_governor", "powersave\n");
	put("/sys/devices/system/cpu/intel_pstate/no_turbo", "0\n");
	put("/sys/devices/system/cpu/smt/control", "on\n");
	put("/sys/devices/system/node/node0/x", "");
	put("/sys/devices/system/node/node1/x", "");
	put("/sys/devices/system/node/possible", "0-1\n");
	put("/sys/kernel/mm/transparent_hugepage/enabled", "[always] madvise never\n");
	put("/sys/kernel/mm/transparent_hugepage/defrag", "always defer defer+madvise [madvise] never\n");
	put("/proc/sys/vm/swappiness", "10\n");
	put("/proc/sys/vm/dirty_ratio", "40\n");
	char path[PATH_MAX + 32];   /* root is a PATH_MAX buffer */
	snprintf(path, sizeof(path), "%s/proc/config.gz", root);
	gzFile z = gzopen(path, "wb");
	assert_non_null(z);
	gzputs(z, "CONFIG_PREEMPT_VOLUNTARY=y\nCONFIG_PREEMPT_DYNAMIC=y\nCONFIG_HZ=300\n");
	gzclose(z);

	json_t *s = settings_collect(root);
	assert_string_equal(str(s, "cmdline"),
			    "BOOT_IMAGE=/vmlinuz root=/dev/sda1 mitigations=off preempt=full");
	const json_t *m = json_object_get(s, "mitigations");
	assert_int_equal(json_object_size(m), 2);
	assert_string_equal(str(m, "spectre_v2"), "Vulnerable; IBPB: disabled");
	assert_string_equal(str(s, "governor"), "powersave, performance");
	assert_string_equal(str(s, "boost"), "on");             /* no_turbo 0 */
	assert_int_equal(json_integer_value(json_object_get(s, "cpu_mhz")), 3600);
	assert_string_equal(str(s, "cpu_mhz_from"), "cpuinfo_max_freq");
	assert_string_equal(str(s, "smt"), "on");
	assert_int_equal(json_integer_value(json_object_get(s, "numa_nodes")), 2);
	assert_string_equal(str(s, "thp_enabled"), "always");
	assert_string_equal(str(s, "thp_defrag"), "madvise");
	assert_int_equal(json_integer_value(json_object_get(s, "swappiness")), 10);
	assert_int_equal(json_integer_value(json_object_get(s, "dirty_ratio")), 40);
	assert_string_equal(str(s, "dirty_bytes"), SETTINGS_UNKNOWN);
	assert_string_equal(str(s, "kernel_config_source"), "/proc/config.gz");
	/* FNV-1a 64 of the gunzipped text, worked out apart */
	char want[40];
	uint64_t h = 14695981039346656037ull;
	for (const char *p = "CONFIG_PREEMPT_VOLUNTARY=y\nCONFIG_PREEMPT_DYNAMIC=y\nCONFIG_HZ=300\n";
	     *p; p++) {
		h ^= (unsigned char)*p;
		h *= 1099511628211ull;
	}
	snprintf(want, sizeof(want), "fnv1a64:%016llx", (unsigned long long)h);
	assert_string_equal(str(s, "kernel_config"), want);
	assert_string_equal(str(s, "preempt"), "dynamic (full by preempt=)");
	assert_int_equal(json_integer_value(json_object_get(s, "hz")), 300);
	json_decref(s);

	/* debugfs's word over the command line's */
	put("/sys/kernel/debug/sched/preempt", "none [voluntary] full\n");
	s = settings_collect(root);
	assert_string_equal(str(s, "preempt"), "dynamic (voluntary)");
	json_decref(s);

	/* cpufreq/boost over intel_pstate */
	put("/sys/devices/system/cpu/cpufreq/boost", "0\n");
	s = settings_collect(root);
	assert_string_equal(str(s, "boost"), "off");
	json_decref(s);
}

static void dma(void **state)
{
	(void)state;
	char out[64];
	put("/sys/class/ata_device/dev3.0/xfer_mode", "UDMA/133\n");
	put("/sys/class/ata_device/dev4.0/xfer_mode", "PIO4\n");
	assert_string_equal(settings_dma(root, "/sys/devices/pci0000:00/0000:00:1f.2/ata3/host2/"
					 "target2:0:0/2:0:0:0/block/sda", out, sizeof(out)),
			    "on (UDMA/133)");
	assert_string_equal(settings_dma(root, "/sys/devices/pci0000:00/0000:00:1f.2/ata4/host3/"
					 "target3:0:0/3:0:0:0/block/sdb", out, sizeof(out)),
			    "off (PIO4)");
	/* NVMe, virtio, loop: the kernel shows no DMA state */
	assert_string_equal(settings_dma(root, "/sys/devices/virtual/block/loop0", out, sizeof(out)),
			    SETTINGS_UNKNOWN);
	assert_string_equal(settings_dma(root, "/sys/devices/pci0000:00/0000:00:1f.2/ata9/host8/"
					 "target8:0:0/8:0:0:0/block/sdc", out, sizeof(out)),
			    SETTINGS_UNKNOWN);
}

static void warnings(void **state)
{
	(void)state;
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	/* a_machine left powersave on two CPUs and boost off */
	assert_int_equal(settings_warn_noisy(out, "kbench suite", root, 0), 1);
	fflush(out);
	assert_non_null(strstr(buf, "kbench suite: warning: the CPU frequency governor is "
				    "powersave, performance: "));
	assert_non_null(strstr(buf, "cpupower frequency-set -g performance"));
	fclose(out);
	free(buf);
	put("/sys/devices/system/cpu/cpufreq/boost", "1\n");
	put("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor", "performance\n");
	put("/sys/devices/system/cpu/cpu2/cpufreq/scaling_governor", "performance\n");
	out = open_memstream(&buf, &len);
	assert_int_equal(settings_warn_noisy(out, "kbench suite", root, 0), 1);
	fflush(out);
	assert_non_null(strstr(buf, "kbench suite: warning: boost (turbo) is on: "));
	fclose(out);
	free(buf);
	put("/sys/devices/system/cpu/cpufreq/boost", "0\n");
	out = open_memstream(&buf, &len);
	assert_int_equal(settings_warn_noisy(out, "kbench suite", root, 0), 0);
	fclose(out);
	assert_int_equal(len, 0);
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(bracketed),
		cmocka_unit_test(config_scan),
		cmocka_unit_test(all_unknown),
		cmocka_unit_test(a_machine),
		cmocka_unit_test(dma),
		cmocka_unit_test(warnings),
	};
	return cmocka_run_group_tests(tests, make_root, remove_root);
}
