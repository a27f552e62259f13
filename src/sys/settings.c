/* kbench - the machine's settings that move figures (see settings.h)
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Each reader takes one file of /proc or /sys and turns it into the
 * value the document records; what cannot be read stays "unknown".
 */
#include "config.h"
#include "sys/settings.h"
#include "sys/clock.h"
#include "sys/cpubusy.h"

#include <dirent.h>
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

/* root + rel into buf */
static const char *at(char *buf, size_t n, const char *root, const char *rel)
{
	snprintf(buf, n, "%s%s", root ? root : "", rel);
	return buf;
}

/* The first line of root+rel, trailing blanks and newline off, into out;
 * false (out "") when it cannot be read. */
static bool read_line(const char *root, const char *rel, char *out, size_t n)
{
	char path[PATH_MAX];
	FILE *f = fopen(at(path, sizeof(path), root, rel), "re");
	out[0] = 0;
	if (!f)
		return false;
	bool ok = fgets(out, (int)n, f) != NULL;
	fclose(f);
	size_t l = strlen(out);
	while (l && (out[l - 1] == '\n' || out[l - 1] == ' ' || out[l - 1] == '\t'))
		out[--l] = 0;
	return ok;
}

static json_t *unknown(void)
{
	return json_string(SETTINGS_UNKNOWN);
}

/* A whole number from root+rel, or "unknown". */
static json_t *num_of(const char *root, const char *rel)
{
	char line[64], *end;
	if (!read_line(root, rel, line, sizeof(line)))
		return unknown();
	long long v = strtoll(line, &end, 10);
	return end != line && !*end ? json_integer(v) : unknown();
}

/* A line of root+rel as a string, or "unknown". */
static json_t *str_of(const char *root, const char *rel)
{
	char line[1024];
	return read_line(root, rel, line, sizeof(line)) ? json_string(line) : unknown();
}

char *settings_bracketed(const char *line, char *out, size_t n)
{
	const char *o = strchr(line, '['), *c = o ? strchr(o, ']') : NULL;
	if (o && c)
		snprintf(out, n, "%.*s", (int)(c - o - 1), o + 1);
	else
		snprintf(out, n, "%s", line);
	return out;
}

static json_t *bracketed_of(const char *root, const char *rel)
{
	char line[256], w[256];
	return read_line(root, rel, line, sizeof(line)) ?
	       json_string(settings_bracketed(line, w, sizeof(w))) : unknown();
}

/* ---- the kernel's config ---- */

int settings_file_digest(const char *path, int gz, char *out, size_t n)
{
	gzFile z = gz ? gzopen(path, "rb") : NULL;
	FILE *f = gz ? NULL : fopen(path, "re");
	if (!z && !f)
		return -1;
	uint64_t h = 14695981039346656037ull;
	unsigned char buf[8192];
	int got, bad = 0;
	for (;;) {
		got = z ? gzread(z, buf, sizeof(buf)) : (int)fread(buf, 1, sizeof(buf), f);
		if (got <= 0) {
			bad = got < 0 || (f && ferror(f));
			break;
		}
		for (int i = 0; i < got; i++) {
			h ^= buf[i];
			h *= 1099511628211ull;
		}
	}
	if (z)
		gzclose(z);
	else
		fclose(f);
	if (bad)
		return -1;
	snprintf(out, n, "fnv1a64:%016llx", (unsigned long long)h);
	return 0;
}

void settings_config_scan(FILE *f, char *model, size_t n, int *dynamic, long *hz)
{
	static const struct { const char *line, *model; } models[] = {
		{ "CONFIG_PREEMPT_NONE=y", "none" }, { "CONFIG_PREEMPT_VOLUNTARY=y", "voluntary" },
		{ "CONFIG_PREEMPT=y", "full" }, { "CONFIG_PREEMPT_LAZY=y", "lazy" },
		{ "CONFIG_PREEMPT_RT=y", "rt" },
	};
	char line[256];
	model[0] = 0;
	*dynamic = 0;
	*hz = -1;
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = 0;
		for (size_t i = 0; i < sizeof(models) / sizeof(models[0]); i++)
			/* RT wins over the model it is built on */
			if (!strcmp(line, models[i].line) && strcmp(model, "rt"))
				snprintf(model, n, "%s", models[i].model);
		if (!strcmp(line, "CONFIG_PREEMPT_DYNAMIC=y"))
			*dynamic = 1;
		if (!strncmp(line, "CONFIG_HZ=", 10))
			*hz = strtol(line + 10, NULL, 10);
	}
}

/* The config's text as a stream: /proc/config.gz gunzipped into a
 * temporary file, else /boot/config-RELEASE.  *source names it. */
static FILE *config_open(const char *root, const char **source, char *boot, size_t n)
{
	char path[PATH_MAX];
	struct utsname u;
	gzFile z = gzopen(at(path, sizeof(path), root, "/proc/config.gz"), "rb");
	if (z) {
		FILE *t = tmpfile();
		char buf[8192];
		int got;
		while (t && (got = gzread(z, buf, sizeof(buf))) > 0)
			fwrite(buf, 1, (size_t)got, t);
		gzclose(z);
		if (t) {
			rewind(t);
			*source = "/proc/config.gz";
			return t;
		}
	}
	if (uname(&u) < 0)
		return NULL;
	snprintf(boot, n, "/boot/config-%s", u.release);
	FILE *f = fopen(at(path, sizeof(path), root, boot), "re");
	*source = f ? boot : NULL;
	return f;
}

/* The mode PREEMPT_DYNAMIC is in: debugfs's sched/preempt ("none
 * [voluntary] full"), else preempt= on the command line, else the
 * config's default, said so. */
static void dynamic_mode(const char *root, const char *deflt, char *out, size_t n)
{
	char line[256], w[64], cmd[4096];
	if (read_line(root, "/sys/kernel/debug/sched/preempt", line, sizeof(line)) &&
	    strchr(line, '[')) {
		snprintf(out, n, "dynamic (%s)", settings_bracketed(line, w, sizeof(w)));
		return;
	}
	const char *p = read_line(root, "/proc/cmdline", cmd, sizeof(cmd)) ? cmd : "";
	for (const char *q = strstr(p, "preempt="); q; q = strstr(q + 1, "preempt="))
		if (q == p || q[-1] == ' ') {
			snprintf(out, n, "dynamic (%.*s by preempt=)", (int)strcspn(q + 8, " "), q + 8);
			return;
		}
	snprintf(out, n, "dynamic (%s by default)", *deflt ? deflt : SETTINGS_UNKNOWN);
}

static void add_config(json_t *o, const char *root)
{
	const char *source = NULL;
	char boot[128], path[PATH_MAX], digest[40], model[32], shown[96];
	int dynamic;
	long hz;
	FILE *f = config_open(root, &source, boot, sizeof(boot));
	if (!f) {
		json_object_set_new(o, "kernel_config", unknown());
		json_object_set_new(o, "kernel_config_source", unknown());
		json_object_set_new(o, "preempt", unknown());
		json_object_set_new(o, "hz", unknown());
		return;
	}
	settings_config_scan(f, model, sizeof(model), &dynamic, &hz);
	fclose(f);
	bool gz = !strcmp(source, "/proc/config.gz");
	json_object_set_new(o, "kernel_config", settings_file_digest(at(path, sizeof(path), root,
			    source), gz, digest, sizeof(digest)) == 0 ? json_string(digest) : unknown());
	json_object_set_new(o, "kernel_config_source", json_string(source));
	if (dynamic)
		dynamic_mode(root, model, shown, sizeof(shown));
	else
		snprintf(shown, sizeof(shown), "%s", *model ? model : SETTINGS_UNKNOWN);
	json_object_set_new(o, "preempt", json_string(shown));
	json_object_set_new(o, "hz", hz > 0 ? json_integer(hz) : unknown());
}

/* ---- the CPUs ---- */

static json_t *mitigations(const char *root)
{
	char path[PATH_MAX], rel[PATH_MAX];
	DIR *d = opendir(at(path, sizeof(path), root, "/sys/devices/system/cpu/vulnerabilities"));
	if (!d)
		return unknown();
	json_t *o = json_object();
	struct dirent *e;
	while (o && (e = readdir(d))) {
		char line[512];
		if (e->d_name[0] == '.')
			continue;
		snprintf(rel, sizeof(rel), "/sys/devices/system/cpu/vulnerabilities/%s", e->d_name);
		if (read_line(root, rel, line, sizeof(line)))
			json_object_set_new(o, e->d_name, json_string(line));
	}
	closedir(d);
	return o;
}

/* Every CPU's scaling_governor: one word, or "a, b" in the order first
 * seen when they differ. */
static json_t *governor(const char *root)
{
	char all[256] = "", rel[128], g[64];
	for (int cpu = 0; cpu < 4096; cpu++) {
		snprintf(rel, sizeof(rel), "/sys/devices/system/cpu/cpu%d", cpu);
		char path[PATH_MAX];
		if (access(at(path, sizeof(path), root, rel), F_OK) < 0)
			break;
		strcat(rel, "/cpufreq/scaling_governor");
		if (!read_line(root, rel, g, sizeof(g)) || !*g)
			continue;
		size_t l = strlen(g);
		bool have = false;
		for (const char *p = strstr(all, g); p && !have; p = strstr(p + 1, g))
			have = (p == all || p[-1] == ' ') && (p[l] == ',' || !p[l]);
		if (!have && strlen(all) + l + 3 < sizeof(all))
			snprintf(all + strlen(all), sizeof(all) - strlen(all), "%s%s", *all ? ", " : "", g);
	}
	return *all ? json_string(all) : unknown();
}

static json_t *boost(const char *root)
{
	char line[32];
	if (read_line(root, "/sys/devices/system/cpu/cpufreq/boost", line, sizeof(line)))
		return json_string(!strcmp(line, "1") ? "on" : "off");
	if (read_line(root, "/sys/devices/system/cpu/intel_pstate/no_turbo", line, sizeof(line)))
		return json_string(!strcmp(line, "1") ? "off" : "on");
	return unknown();
}

static void add_clock(json_t *o, const char *root)
{
	char line[256], path[PATH_MAX];
	if (read_line(root, "/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq", line,
		      sizeof(line)) && atol(line) > 0) {
		json_object_set_new(o, "cpu_mhz", json_integer((atol(line) + 500) / 1000));
		json_object_set_new(o, "cpu_mhz_from", json_string("cpuinfo_max_freq"));
		return;
	}
	FILE *f = fopen(at(path, sizeof(path), root, "/proc/cpuinfo"), "re");
	while (f && fgets(line, sizeof(line), f)) {
		char *v = strchr(line, ':');
		if (v && !strncmp(line, "cpu MHz", 7) && atof(v + 1) > 0) {
			json_object_set_new(o, "cpu_mhz", json_integer((json_int_t)(atof(v + 1) + 0.5)));
			json_object_set_new(o, "cpu_mhz_from", json_string("cpuinfo"));
			fclose(f);
			return;
		}
	}
	if (f)
		fclose(f);
	json_object_set_new(o, "cpu_mhz", unknown());
	json_object_set_new(o, "cpu_mhz_from", unknown());
}

static json_t *numa_nodes(const char *root)
{
	char path[PATH_MAX];
	DIR *d = opendir(at(path, sizeof(path), root, "/sys/devices/system/node"));
	if (!d)
		return unknown();
	long n = 0;
	struct dirent *e;
	while ((e = readdir(d)))
		n += !strncmp(e->d_name, "node", 4) && e->d_name[4] >= '0' && e->d_name[4] <= '9';
	closedir(d);
	return n ? json_integer(n) : unknown();
}

/* "gcc 12.2.0, optimised, address sanitizer, libnfs, ..." */
static json_t *build(void)
{
	char b[512];
	snprintf(b, sizeof(b), "%s %s%s%s%s%s%s%s",
#ifdef __clang__
		 "clang",
#else
		 "gcc",
#endif
		 __VERSION__,
#ifdef __OPTIMIZE__
		 ", optimised",
#else
		 ", not optimised",
#endif
#if defined(__SANITIZE_ADDRESS__)
		 ", address sanitizer",
#else
		 "",
#endif
#ifdef HAVE_LIBNFS
		 ", libnfs",
#else
		 "",
#endif
#ifdef HAVE_LIBSMBCLIENT
		 ", libsmbclient",
#else
		 "",
#endif
#ifdef HAVE_LIBTIRPC
		 ", libtirpc",
#else
		 "",
#endif
#ifdef HAVE_MPI
		 ", mpi"
#else
		 ""
#endif
		);
	return json_string(b);
}

json_t *settings_collect(const char *root)
{
	json_t *o = json_object();
	if (!o)
		return NULL;
	json_object_set_new(o, "cmdline", str_of(root, "/proc/cmdline"));
	add_config(o, root);
	json_object_set_new(o, "mitigations", mitigations(root));
	json_object_set_new(o, "governor", governor(root));
	json_object_set_new(o, "boost", boost(root));
	add_clock(o, root);
	json_object_set_new(o, "smt", str_of(root, "/sys/devices/system/cpu/smt/control"));
	json_object_set_new(o, "numa_nodes", numa_nodes(root));
	json_object_set_new(o, "thp_enabled",
			    bracketed_of(root, "/sys/kernel/mm/transparent_hugepage/enabled"));
	json_object_set_new(o, "thp_defrag",
			    bracketed_of(root, "/sys/kernel/mm/transparent_hugepage/defrag"));
	static const char *const vm[] = { "swappiness", "dirty_ratio", "dirty_background_ratio",
					  "dirty_bytes", "dirty_background_bytes" };
	for (size_t i = 0; i < sizeof(vm) / sizeof(vm[0]); i++) {
		char rel[64];
		snprintf(rel, sizeof(rel), "/proc/sys/vm/%s", vm[i]);
		json_object_set_new(o, vm[i], num_of(root, rel));
	}
	json_object_set_new(o, "build", build());
	return o;
}

char *settings_dma(const char *root, const char *devdir, char *out, size_t n)
{
	char rel[128], mode[64];
	const char *a = strstr(devdir, "/ata");
	snprintf(out, n, "%s", SETTINGS_UNKNOWN);
	if (!a || a[4] < '0' || a[4] > '9')
		return out;
	long port = strtol(a + 4, NULL, 10);
	/* the port's first device (devN.0: a disk without a port multiplier) */
	snprintf(rel, sizeof(rel), "/sys/class/ata_device/dev%ld.0/xfer_mode", port);
	if (!read_line(root, rel, mode, sizeof(mode)) || !*mode)
		return out;
	snprintf(out, n, "%s (%s)", strstr(mode, "DMA") ? "on" : "off", mode);
	return out;
}

char *settings_dma_of(const char *path, char *out, size_t n)
{
	struct stat st;
	char sys[64], real[PATH_MAX];
	snprintf(out, n, "%s", SETTINGS_UNKNOWN);
	if (stat(path, &st) < 0 || !(S_ISBLK(st.st_mode) || S_ISREG(st.st_mode)))
		return out;
	dev_t dev = S_ISBLK(st.st_mode) ? st.st_rdev : st.st_dev;
	snprintf(sys, sizeof(sys), "/sys/dev/block/%u:%u", major(dev), minor(dev));
	return realpath(sys, real) ? settings_dma("", real, out, n) : out;
}

/* ---- before a series ---- */

int settings_warn_noisy(FILE *out, const char *cmd, const char *root, double busy_s)
{
	int lines = 0;
	json_t *g = governor(root), *b = boost(root);
	const char *gv = json_string_value(g);
	if (strcmp(gv, SETTINGS_UNKNOWN) && strcmp(gv, "performance")) {
		fprintf(out, "%s: warning: the CPU frequency governor is %s: the clock follows the load, "
			"and figures with it; for steady figures: cpupower frequency-set -g "
			"performance (or write performance to /sys/devices/system/cpu/cpu*/cpufreq/"
			"scaling_governor)\n", cmd, gv);
		lines++;
	}
	if (!strcmp(json_string_value(b), "on")) {
		fprintf(out, "%s: warning: boost (turbo) is on: the clock follows the temperature and "
			"the other cores' load; for steady figures: echo 0 > /sys/devices/system/cpu/"
			"cpufreq/boost (intel_pstate: echo 1 > /sys/devices/system/cpu/intel_pstate/"
			"no_turbo)\n", cmd);
		lines++;
	}
	json_decref(g);
	json_decref(b);
	/* the test suite's knob (HACKING.md), as kbench disk's pauses take it */
	const char *scale = getenv("KBENCH_TEST_PAUSE_SCALE");
	char *end;
	double f = scale && *scale ? strtod(scale, &end) : 1;
	if (scale && *scale && !*end && f >= 0 && f <= 1)
		busy_s *= f;
	if (busy_s > 0) {
		struct cpubusy_snap s0, s1;
		long hz = sysconf(_SC_CLK_TCK);
		double t0 = kb_now_s();
		cpubusy_take(&s0, NULL, 0);
		struct timespec ts = { (time_t)busy_s, (long)((busy_s - (double)(time_t)busy_s) * 1e9) };
		nanosleep(&ts, NULL);
		cpubusy_take(&s1, NULL, 0);
		double wall = kb_now_s() - t0, pct = cpubusy_other_pct(&s0, &s1, wall, hz);
		if (cpubusy_notable(pct, wall, hz)) {
			fprintf(out, "%s: warning: the machine is busy: other processes took %.0f%% of a "
				"CPU over %.1f s before the first run; their time is taken from the "
				"runs: stop them (top or ps -eo pid,pcpu,comm --sort=-pcpu shows "
				"which) and start again\n", cmd, pct, wall);
			lines++;
		}
	}
	return lines;
}
