/* kbench - unit tests of the memory cgroup text parsers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The samples are shaped like what Linux prints in /proc/self/cgroup,
 * /proc/self/mountinfo, memory.stat, memory.events and memory.oom_control
 * on a cgroup v1 machine, a cgroup v2 machine and in a container.
 */
#include "config.h"
#include "sys/memcg.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

/* A hybrid machine: memory on v1, an empty v2 mounted beside it. */
static const char proc_cgroup_v1[] =
	"9:name=systemd:/\n"
	"8:pids:/\n"
	"5:devices:/\n"
	"4:memory:/process_api/fd7f\n"
	"3:cpuset:/\n"
	"2:cpu,cpuacct:/user.slice\n"
	"0::/\n";

/* A modern distribution: one v2 line. */
static const char proc_cgroup_v2[] = "0::/user.slice/user-1000.slice/session-3.scope\n";

static void proc_cgroup_v1_line(void **state)
{
	(void)state;
	char path[256];
	assert_int_equal(memcg_parse_proc_cgroup(proc_cgroup_v1, MEMCG_V1, path, sizeof(path)), 0);
	assert_string_equal(path, "/process_api/fd7f");
	assert_int_equal(memcg_parse_proc_cgroup(proc_cgroup_v1, MEMCG_V2, path, sizeof(path)), 0);
	assert_string_equal(path, "/");
}

static void proc_cgroup_v2_only(void **state)
{
	(void)state;
	char path[256];
	assert_int_equal(memcg_parse_proc_cgroup(proc_cgroup_v2, MEMCG_V2, path, sizeof(path)), 0);
	assert_string_equal(path, "/user.slice/user-1000.slice/session-3.scope");
	/* no v1 memory hierarchy at all */
	assert_int_equal(memcg_parse_proc_cgroup(proc_cgroup_v2, MEMCG_V1, path, sizeof(path)), -1);
}

static void proc_cgroup_comounted(void **state)
{
	(void)state;
	char path[256];
	/* memory among other controllers of one hierarchy; "memory" inside
	 * another word does not count; no newline at the end */
	const char text[] = "7:nomemory_x:/a\n6:cpu,memory,blkio:/b/c";
	assert_int_equal(memcg_parse_proc_cgroup(text, MEMCG_V1, path, sizeof(path)), 0);
	assert_string_equal(path, "/b/c");
	assert_int_equal(memcg_parse_proc_cgroup(text, MEMCG_V2, path, sizeof(path)), -1);
}

static void proc_cgroup_bad(void **state)
{
	(void)state;
	char path[8];
	/* too long for the buffer, not absolute, no line at all */
	assert_int_equal(memcg_parse_proc_cgroup("0::/a/long/path\n", MEMCG_V2, path, sizeof(path)), -1);
	assert_int_equal(memcg_parse_proc_cgroup("4:memory:rel\n", MEMCG_V1, path, sizeof(path)), -1);
	assert_int_equal(memcg_parse_proc_cgroup("", MEMCG_V2, path, sizeof(path)), -1);
	assert_int_equal(memcg_parse_proc_cgroup("garbage\n", MEMCG_V2, path, sizeof(path)), -1);
}

static void mountinfo_v1(void **state)
{
	(void)state;
	struct mountinfo m;
	const char line[] = "35 31 0:32 / /sys/fs/cgroup/memory rw,nosuid,nodev,noexec,relatime "
		"shared:16 - cgroup cgroup rw,memory\n";
	assert_int_equal(mountinfo_parse_line(line, &m), 0);
	assert_string_equal(m.root, "/");
	assert_string_equal(m.point, "/sys/fs/cgroup/memory");
	assert_string_equal(m.fstype, "cgroup");
	assert_string_equal(m.super_opts, "rw,memory");
	assert_int_equal(memcg_mount_matches(&m, MEMCG_V1), 1);
	assert_int_equal(memcg_mount_matches(&m, MEMCG_V2), 0);
}

static void mountinfo_v2_no_optional(void **state)
{
	(void)state;
	struct mountinfo m;
	/* no optional fields before the separator */
	const char line[] = "41 31 0:38 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 "
		"rw,nsdelegate";
	assert_int_equal(mountinfo_parse_line(line, &m), 0);
	assert_string_equal(m.point, "/sys/fs/cgroup/unified");
	assert_string_equal(m.fstype, "cgroup2");
	assert_int_equal(memcg_mount_matches(&m, MEMCG_V2), 1);
	assert_int_equal(memcg_mount_matches(&m, MEMCG_V1), 0);
}

static void mountinfo_other(void **state)
{
	(void)state;
	struct mountinfo m;
	/* a v1 hierarchy without memory, and a file system that is no cgroup */
	assert_int_equal(mountinfo_parse_line("32 31 0:29 / /sys/fs/cgroup/cpu rw - cgroup "
						    "cgroup rw,cpu,cpuacct\n", &m), 0);
	assert_int_equal(memcg_mount_matches(&m, MEMCG_V1), 0);
	assert_int_equal(mountinfo_parse_line("26 1 254:0 / / rw,relatime shared:1 - ext4 "
						    "/dev/vda rw\n", &m), 0);
	assert_int_equal(memcg_mount_matches(&m, MEMCG_V1), 0);
	assert_int_equal(memcg_mount_matches(&m, MEMCG_V2), 0);
}

static void mountinfo_escapes(void **state)
{
	(void)state;
	struct mountinfo m;
	/* a space (\040) and a backslash (\134) in the mount point */
	const char line[] = "50 31 0:40 /sub /mnt/my\\040cg\\134x rw - cgroup2 none rw\n";
	assert_int_equal(mountinfo_parse_line(line, &m), 0);
	assert_string_equal(m.point, "/mnt/my cg\\x");
	assert_string_equal(m.root, "/sub");
}

static void mountinfo_malformed(void **state)
{
	(void)state;
	struct mountinfo m;
	/* no separator; separator with nothing after it; too few fields */
	assert_int_equal(mountinfo_parse_line("35 31 0:32 / /x rw shared:1 cgroup cgroup rw\n", &m), -1);
	assert_int_equal(mountinfo_parse_line("35 31 0:32 / /x rw - cgroup\n", &m), -1);
	assert_int_equal(mountinfo_parse_line("35 31\n", &m), -1);
	assert_int_equal(mountinfo_parse_line("", &m), -1);
}

static void dir_through_mounts(void **state)
{
	(void)state;
	struct mountinfo m;
	char dir[256];
	memset(&m, 0, sizeof(m));
	strcpy(m.root, "/");
	strcpy(m.point, "/sys/fs/cgroup/memory");
	assert_int_equal(memcg_dir_through(&m, "/process_api/fd7f", dir, sizeof(dir)), 0);
	assert_string_equal(dir, "/sys/fs/cgroup/memory/process_api/fd7f");
	assert_int_equal(memcg_dir_through(&m, "/", dir, sizeof(dir)), 0);
	assert_string_equal(dir, "/sys/fs/cgroup/memory");

	/* a container's mount shows only its own part of the hierarchy */
	strcpy(m.root, "/docker/abc");
	strcpy(m.point, "/sys/fs/cgroup");
	assert_int_equal(memcg_dir_through(&m, "/docker/abc/app", dir, sizeof(dir)), 0);
	assert_string_equal(dir, "/sys/fs/cgroup/app");
	assert_int_equal(memcg_dir_through(&m, "/docker/abc", dir, sizeof(dir)), 0);
	assert_string_equal(dir, "/sys/fs/cgroup");
	/* outside it, or a prefix that is not a whole component */
	assert_int_equal(memcg_dir_through(&m, "/docker/other", dir, sizeof(dir)), -1);
	assert_int_equal(memcg_dir_through(&m, "/docker/abcd", dir, sizeof(dir)), -1);

	/* a path out of a cgroup namespace is never followed */
	strcpy(m.root, "/");
	assert_int_equal(memcg_dir_through(&m, "/../../x", dir, sizeof(dir)), -1);
	assert_int_equal(memcg_dir_through(&m, "/a/..", dir, sizeof(dir)), -1);
	assert_int_equal(memcg_dir_through(&m, "/a/..b", dir, sizeof(dir)), 0);
	assert_string_equal(dir, "/sys/fs/cgroup/a/..b");
	/* too long for the buffer */
	assert_int_equal(memcg_dir_through(&m, "/a/b/c", dir, 10), -1);
}

/* The start of a v1 memory.stat: the group's own figures, then the
 * hierarchical total_ ones. */
static const char stat_v1[] =
	"cache 106496\n"
	"rss 1683456\n"
	"rss_huge 0\n"
	"shmem 0\n"
	"mapped_file 0\n"
	"hierarchical_memory_limit 67108864\n"
	"total_cache 41943040\n"
	"total_rss 1683456\n";

static const char stat_v2[] =
	"anon 1048576\n"
	"file 42070016\n"
	"kernel 2506752\n"
	"file_mapped 0\n"
	"file_dirty 8192\n";

static const char events_v2[] =
	"low 0\n"
	"high 7\n"
	"max 1234\n"
	"oom 2\n"
	"oom_kill 1\n"
	"oom_group_kill 0\n";

static const char oom_control_v1[] = "oom_kill_disable 0\nunder_oom 0\noom_kill 3\n";

static void key_values(void **state)
{
	(void)state;
	uint64_t v;
	assert_int_equal(memcg_key_value(stat_v1, "total_cache", &v), 0);
	assert_true(v == 41943040);
	assert_int_equal(memcg_key_value(stat_v1, "cache", &v), 0);
	assert_true(v == 106496);
	assert_int_equal(memcg_key_value(stat_v2, "file", &v), 0);
	assert_true(v == 42070016);
	assert_int_equal(memcg_key_value(events_v2, "max", &v), 0);
	assert_true(v == 1234);
	assert_int_equal(memcg_key_value(events_v2, "high", &v), 0);
	assert_true(v == 7);
	assert_int_equal(memcg_key_value(events_v2, "oom_kill", &v), 0);
	assert_true(v == 1);
	assert_int_equal(memcg_key_value(events_v2, "oom", &v), 0);
	assert_true(v == 2);
	assert_int_equal(memcg_key_value(oom_control_v1, "oom_kill", &v), 0);
	assert_true(v == 3);
	/* a key is a whole word: "file" is not "file_dirty", "rss" not
	 * "rss_huge"; missing keys and bad values fail */
	assert_int_equal(memcg_key_value("file_dirty 5\n", "file", &v), -1);
	assert_int_equal(memcg_key_value(stat_v1, "swap", &v), -1);
	assert_int_equal(memcg_key_value("oom_kill x\n", "oom_kill", &v), -1);
	assert_int_equal(memcg_key_value("oom_kill -1\n", "oom_kill", &v), -1);
	assert_int_equal(memcg_key_value("oom_kill 12a\n", "oom_kill", &v), -1);
	assert_int_equal(memcg_key_value("", "max", &v), -1);
	/* the last line without a newline */
	assert_int_equal(memcg_key_value("a 1\nmax 18446744073709551615", "max", &v), 0);
	assert_true(v == UINT64_MAX);
}

static void limits(void **state)
{
	(void)state;
	uint64_t v = 0;
	assert_int_equal(memcg_parse_limit("67108864\n", &v), 0);
	assert_true(v == 67108864);
	assert_int_equal(memcg_parse_limit("9223372036854771712\n", &v), 0);
	assert_true(v == 9223372036854771712ull);
	assert_int_equal(memcg_parse_limit("max\n", &v), 0);
	assert_true(v == MEMCG_UNKNOWN);
	assert_int_equal(memcg_parse_limit("", &v), -1);
	assert_int_equal(memcg_parse_limit("64M\n", &v), -1);
	assert_int_equal(memcg_parse_limit("maximum\n", &v), -1);
}

static void words(void **state)
{
	(void)state;
	assert_int_equal(memcg_has_word("cpuset cpu io memory hugetlb pids\n", "memory", " \n"), 1);
	assert_int_equal(memcg_has_word("cpuset cpu io memory\n", "memory", " \n"), 1);
	assert_int_equal(memcg_has_word("hugetlb\n", "memory", " \n"), 0);
	assert_int_equal(memcg_has_word("", "memory", " \n"), 0);
	assert_int_equal(memcg_has_word("rw,memory", "memory", ","), 1);
	assert_int_equal(memcg_has_word("rw,memory_x,xmemory", "memory", ","), 0);
}

static int exists(const char *dir, const char *name)
{
	char path[PATH_MAX];
	struct stat st;
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return stat(path, &st) == 0;
}

/* memcg_sweep on a plain directory standing for the site: rmdir works the
 * same (an entry inside a directory stands for a process in a cgroup) */
static void sweep_leftovers(void **state)
{
	(void)state;
	struct memcg_site site = { .version = MEMCG_V2 };
	char tmpl[] = "/tmp/kbench-test-memcg.XXXXXX", name[64], dead[64], busy[64], path[PATH_MAX];
	assert_non_null(mkdtemp(tmpl));
	snprintf(site.dir, sizeof(site.dir), "%s", tmpl);
	/* a process that has exited and been waited for: its number is free */
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0)
		_exit(0);
	assert_int_equal(waitpid(pid, NULL, 0), pid);
	snprintf(dead, sizeof(dead), "kbench-%ld", (long)pid);
	snprintf(name, sizeof(name), "kbench-%ld", (long)getpid());
	snprintf(busy, sizeof(busy), "kbench-%ld", (long)pid);
	const char *dirs[] = { dead, name, "kbench-1", "kbench-abc", "kbench-12x", "other-99999999" };
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", tmpl, dirs[i]);
		assert_int_equal(mkdir(path, 0755), 0);
	}
	char note[PATH_MAX + 128];
	assert_int_equal(memcg_sweep(&site, "kbench-", note, sizeof(note)), 1);
	assert_string_equal(note, "");
	assert_false(exists(tmpl, dead));
	assert_true(exists(tmpl, name));          /* this process: alive */
	assert_true(exists(tmpl, "kbench-1"));    /* init: alive */
	assert_true(exists(tmpl, "kbench-abc"));
	assert_true(exists(tmpl, "kbench-12x"));
	assert_true(exists(tmpl, "other-99999999"));
	/* a dead run's cgroup that still holds something stays, and is said */
	snprintf(path, sizeof(path), "%s/%s", tmpl, busy);
	assert_int_equal(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/%s/x", tmpl, busy);
	assert_int_equal(mkdir(path, 0755), 0);
	assert_int_equal(memcg_sweep(&site, "kbench-", note, sizeof(note)), 0);
	assert_true(exists(tmpl, busy));
	char want[PATH_MAX + 128];
	snprintf(want, sizeof(want), "1 cgroup of killed kbench runs still holds processes, "
		 "left alone: %s/%s", tmpl, busy);
	assert_string_equal(note, want);
	assert_int_equal(rmdir(path), 0);
	snprintf(path, sizeof(path), "%s/%s", tmpl, busy);
	assert_int_equal(rmdir(path), 0);
	const char *rest[] = { name, "kbench-1", "kbench-abc", "kbench-12x", "other-99999999" };
	for (size_t i = 0; i < sizeof(rest) / sizeof(rest[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", tmpl, rest[i]);
		assert_int_equal(rmdir(path), 0);
	}
	assert_int_equal(rmdir(tmpl), 0);
	/* no such site */
	snprintf(site.dir, sizeof(site.dir), "%s", tmpl);
	assert_int_equal(memcg_sweep(&site, "kbench-", note, sizeof(note)), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(proc_cgroup_v1_line),
		cmocka_unit_test(proc_cgroup_v2_only),
		cmocka_unit_test(proc_cgroup_comounted),
		cmocka_unit_test(proc_cgroup_bad),
		cmocka_unit_test(mountinfo_v1),
		cmocka_unit_test(mountinfo_v2_no_optional),
		cmocka_unit_test(mountinfo_other),
		cmocka_unit_test(mountinfo_escapes),
		cmocka_unit_test(mountinfo_malformed),
		cmocka_unit_test(dir_through_mounts),
		cmocka_unit_test(key_values),
		cmocka_unit_test(limits),
		cmocka_unit_test(words),
		cmocka_unit_test(sweep_leftovers),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
