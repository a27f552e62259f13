/* kbench - the machine's settings that move figures, as the system shows them
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A kernel comparison is only about the kernel when everything else held
 * still.  The seeds said what else they held ("133 MHz Pentium, DMA,
 * 80M"); today a figure moves with a governor left on powersave, a boot
 * with mitigations=off, transparent huge pages, the dirty ratios, a
 * disk's scheduler or write cache.  This module reads them where Linux
 * publishes them (/proc/cmdline, /proc/config.gz or /boot/config-RELEASE,
 * /sys/devices/system/cpu/{vulnerabilities,cpufreq,smt},
 * /sys/devices/system/node, /sys/kernel/mm/transparent_hugepage,
 * /proc/sys/vm, /sys/class/ata_device) into one JSON object that every
 * run's document carries under system.settings.
 *
 * Invariant: a setting the system does not show is the string "unknown",
 * never a guess; every other value is the system's own word or number.
 * Reading never fails and never needs root (a file root may not read is
 * unknown).  Every path is read under a root directory ("" for the real
 * one) so the parsers are tested on a made-up tree.
 */
#ifndef KBENCH_SETTINGS_H
#define KBENCH_SETTINGS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <jansson.h>

#define SETTINGS_UNKNOWN "unknown"

/* The settings under root ("" or NULL: this machine) as a new object:
 *   cmdline                 /proc/cmdline, as the kernel shows it
 *   kernel_config           "fnv1a64:HEX", FNV-1a 64 over the config's text
 *                           (Fowler, Noll and Vo; public domain)
 *   kernel_config_source    "/proc/config.gz" or "/boot/config-RELEASE"
 *   preempt                 the preemption model: "none", "voluntary",
 *                           "full", "lazy", "rt", or with PREEMPT_DYNAMIC
 *                           "dynamic (MODE)", MODE the one in force
 *                           (debugfs's sched/preempt, else the command
 *                           line's preempt=, else the config's default,
 *                           said so: "dynamic (none by default)")
 *   hz                      CONFIG_HZ (ticks a second), a number
 *   mitigations             {VULNERABILITY: its state line}, every file of
 *                           /sys/devices/system/cpu/vulnerabilities
 *   governor                cpufreq's scaling_governor of every CPU ("a, b"
 *                           when they differ)
 *   boost                   "on" or "off": cpufreq/boost, else intel_pstate's
 *                           no_turbo (turned)
 *   cpu_mhz                 the CPU's clock, MHz (10^6 Hz), a number: cpu0's
 *                           cpuinfo_max_freq, else /proc/cpuinfo's "cpu MHz"
 *   cpu_mhz_from            "cpuinfo_max_freq" or "cpuinfo" (the latter is the
 *                           clock at that instant where cpufreq is absent)
 *   smt                     smt/control: "on", "off", "forceoff",
 *                           "notsupported", "notimplemented"
 *   numa_nodes              nodes in /sys/devices/system/node, a number
 *   thp_enabled thp_defrag  transparent_hugepage's choice in brackets
 *   swappiness dirty_ratio dirty_background_ratio dirty_bytes
 *   dirty_background_bytes  /proc/sys/vm's, numbers
 *   build                   how this kbench was built: compiler, optimised
 *                           or not, sanitizers, the optional libraries
 * Each unreadable one is "unknown".  NULL only when out of memory. */
json_t *settings_collect(const char *root);

/* The DMA state of the block device whose sysfs directory (the real path
 * under /sys/devices) is devdir, where the kernel shows it: libata's
 * transfer mode of the ATA device above it (/sys/class/ata_device/
 * devN.M/xfer_mode: "UDMA/133", "PIO4") as "on (UDMA/133)" or "off
 * (PIO4)"; SETTINGS_UNKNOWN for every other device (NVMe, virtio, loop:
 * the kernel shows no such state).  Into out (n bytes); returns out. */
char *settings_dma(const char *root, const char *devdir, char *out, size_t n);

/* settings_dma of the block device path is, or of the one holding the
 * regular file path (its sysfs directory found by /sys/dev/block/MAJ:MIN;
 * a partition's ATA device is its disk's).  Into out; returns out. */
char *settings_dma_of(const char *path, char *out, size_t n);

/* The word in brackets of a sysfs choice line ("always [madvise] never"
 * gives "madvise"), into out (n bytes); the whole line, trimmed, when it
 * has no brackets.  Returns out. */
char *settings_bracketed(const char *line, char *out, size_t n);

/* FNV-1a 64 of the file at path, gunzipped when gz is set (zlib), as
 * "fnv1a64:HEX" into out (n bytes).  Returns 0, or -1 when the file
 * cannot be read (out untouched). */
int settings_file_digest(const char *path, int gz, char *out, size_t n);

/* The preemption model and CONFIG_HZ of the kernel config text in f (the
 * lines "CONFIG_PREEMPT_NONE=y" ... "CONFIG_HZ=250"): model into out
 * ("none", "voluntary", "full", "lazy", "rt", or "" when the config names
 * none), *dynamic set when CONFIG_PREEMPT_DYNAMIC=y, *hz to CONFIG_HZ or
 * -1. */
void settings_config_scan(FILE *f, char *model, size_t n, int *dynamic, long *hz);

/* Before a series: the settings known to make figures noisy, each a line
 * "CMD: warning: WHAT; HOW TO CHANGE IT" to out: a governor other than
 * performance (powersave, ondemand, schedutil...: the clock follows the
 * load), boost/turbo on (the clock follows the temperature), and a busy
 * machine (other processes' CPU time over busy_s seconds, measured here:
 * at least a quarter of a CPU).  busy_s 0 skips the busy check; the test
 * suite's KBENCH_TEST_PAUSE_SCALE (HACKING.md) scales it.  Returns
 * the number of lines printed. */
int settings_warn_noisy(FILE *out, const char *cmd, const char *root, double busy_s);

#endif
