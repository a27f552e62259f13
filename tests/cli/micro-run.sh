#!/bin/sh
# kbench - command-line tests: every lmbench test of kbench micro in quick
# mode gives a positive finite figure or a skip with a reason; the text
# tables and the JSON document carry them; nothing is left behind
# SPDX-License-Identifier: GPL-3.0-or-later
. "$(dirname "$0")/lib.sh"

mkdir -p "$WORK/tmp"
"$KBENCH" micro --list --family lmbench | awk 'NR > 1 { print $1 }' >"$WORK/lm-names"
# the family's name as the test: every lmbench test, in --list's order
TMPDIR="$WORK/tmp" run "$KBENCH" micro --quick --label "lm run" --json "$WORK/m.json" lmbench
# A figure is a measured time less a measured overhead (the clock and the
# loop, or a ring's own work); on a busy machine the overhead can come out
# no smaller, and kbench then rightly gives no figure and exits 1.  That
# outcome compares two timings, so it is accepted here, and only it: any
# other failure fails the test.
timing_only=$(python3 -c 'import json, sys
t = json.load(open(sys.argv[1]))["results"]["tests"]
e = [x["error"] for x in t if "error" in x]
print(int(bool(e) and all("is not smaller than" in m for m in e)))' "$WORK/m.json")
want_rc=0
[ "$timing_only" = 1 ] && want_rc=1
expect_eq "quick lmbench run: exit $want_rc (status)" "$RC" "$want_rc" "$(grep -v '\[[0-9]*/' "$WORK/err" | head -20)"
cp "$WORK/out" "$WORK/text"
expect_empty_dir "temporary directory removed" "$WORK/tmp"

# the JSON: every test, a positive finite value or a reason
expect_py "JSON: every lmbench test has a positive finite figure or a reason" "$WORK/m.json" "$WORK/lm-names" <<'PY'
import json, math, sys
d = json.load(open(sys.argv[1]))
bad = []
assert d["kind"] == "micro", d["kind"]
for k in ("kbench_version", "time", "params", "system", "results"):
    assert k in d, k
assert d["params"]["quick"] is True and d["params"]["intervals"] == 5
assert abs(d["params"]["enough_s"] - 0.001) < 1e-12
# placed rows: intervals 20 times --enough
assert abs(d["params"]["enough_placed_s"] - 0.02) < 1e-12
tests = d["results"]["tests"]
names = open(sys.argv[2]).read().split()
assert [t["name"] for t in tests] == names, "not --list's lmbench tests in order"
assert d["params"]["tests"] == names, d["params"]["tests"]
assert d["label"] == "lm run", d.get("label")
cpu = open("/proc/stat").readline().split()
steal_known = cpu[0] == "cpu" and len(cpu) >= 9
for t in tests:
    for k in ("name", "family", "title"):
        assert k in t, (t, k)
    assert t["family"] == "lmbench", t
    if "error" in t:
        if "is not smaller than" not in t["error"]:  # see above: a busy machine
            bad.append("%s failed: %s" % (t["name"], t["error"]))
    elif "skipped" in t:
        if not t["skipped"].strip():
            bad.append("%s skipped without a reason" % t["name"])
        if "value" in t:
            bad.append("%s skipped with a value" % t["name"])
    else:
        v = t.get("value")
        for k in ("unit", "value", "higher_is_better", "min", "max", "cov_pct", "samples"):
            if k not in t:
                bad.append("%s lacks %s" % (t["name"], k))
        if not isinstance(v, (int, float)) or not math.isfinite(v) or v <= 0:
            bad.append("%s value %r" % (t["name"], v))
        elif not (t["min"] <= v <= t["max"]):
            bad.append("%s median %r outside [%r, %r]" % (t["name"], v, t["min"], t["max"]))
        if t["samples"] != 5:
            bad.append("%s samples %r" % (t["name"], t["samples"]))
        want = {"us": False, "ns": False, "MB/s": True}.get(t["unit"])
        if want is None or t["higher_is_better"] != want:
            bad.append("%s unit %r higher_is_better %r" % (t["name"], t["unit"], t["higher_is_better"]))
        # steal: a share of a CPU's time, known wherever /proc/stat has it
        st = t.get("steal_pct", "absent")
        if st == "absent" or (st is None and steal_known):
            bad.append("%s steal_pct %r (/proc/stat has steal: %s)" % (t["name"], st, steal_known))
        elif st is not None and not (isinstance(st, (int, float)) and 0 <= st <= 100):
            bad.append("%s steal_pct %r" % (t["name"], st))
ran = [t["name"] for t in tests if "value" in t or "is not smaller than" in t.get("error", "")]
# Where sysfs lists no caches (some virtual machines), the levels are the
# rises of a latency curve kbench measures: a timing, so on a busy machine
# a level can go unseen and its tests are skipped saying so.  That skip,
# and only it, stands for a figure then.
import os
if not os.path.isdir("/sys/devices/system/cpu/cpu0/cache"):
    ran += [t["name"] for t in tests
            if t.get("skipped", "").startswith("no level ") and "seen in the latency curve" in t["skipped"]]
for must in ("lat_syscall_null", "lat_syscall_io", "lat_pipe_1cpu", "lat_ctx_2p_0k_1cpu", "bw_mem_rd",
             "lat_mem_l1", "lat_mem_rand_l1", "lat_mem_rand_main", "lat_proc_fork", "lat_fs_create_0k",
             "lat_sig_hndl"):
    if must not in ran:
        bad.append("%s gave no figure" % must)
print("\n".join(bad))
sys.exit(1 if bad else 0)
PY

# the text: lmbench's tables and one line per test
for h in "Processor, Processes - times in microseconds - smaller is better" \
         "Context switching - times in microseconds - smaller is better" \
         "\\*Local\\* Communication latencies in microseconds - smaller is better" \
         "File & VM system latencies in microseconds - smaller is better" \
         "\\*Local\\* Communication bandwidths in MB/s - bigger is better" \
         "Memory latencies in nanoseconds - smaller is better" \
         "Memory latencies in nanoseconds, random order \\(lmbench 3\\) - smaller is better"; do
    expect_file_grep "text: lmbench heading '$h'" "$WORK/text" "^$h\$"
done
expect_file_grep "text: lmbench's banner" "$WORK/text" "^ +L M B E N C H  2 \\. 0   S U M M A R Y$"
expect_file_grep "text: Basic system parameters" "$WORK/text" "^Basic system parameters$"
expect_file_grep "text: Basic system parameters' columns" "$WORK/text" "^Host +OS +Description +Mhz$"
expect_file_grep "text: Basic system parameters' row" "$WORK/text" \
    "^$(uname -n) +Linux $(uname -r) +$(uname -m)-linux(-gnu)? +[0-9-]+\\*?$"
if grep -q '^#define HAVE_LIBTIRPC 1' "$(dirname "$KBENCH")/../config.h" 2>/dev/null; then
    expect_file_grep "text: a Place column where placements are, RPC after UDP and TCP" "$WORK/text" \
        "^Host +OS +Place +2p/0K +Pipe +AF +UDP +RPC/ +TCP +RPC/ +TCP$"
    expect_eq "JSON: lat_rpc's rows ran (a figure or a reason)" \
        "$(jget "$WORK/m.json" 'sorted(t["name"] for t in d["results"]["tests"] if t["name"].startswith("lat_rpc_") and ("value" in t or "skipped" in t))')" \
        "['lat_rpc_tcp_1cpu', 'lat_rpc_tcp_2core', 'lat_rpc_tcp_2smt', 'lat_rpc_udp_1cpu', 'lat_rpc_udp_2core', 'lat_rpc_udp_2smt']"
    expect_file_grep "text: lat_rpc_udp on one CPU, a figure" "$WORK/text" "^lat_rpc_udp_1cpu +RPC/UDP +[0-9.]+ us "
else
    expect_file_grep "text: a Place column where placements are" "$WORK/text" \
        "^Host +OS +Place +2p/0K +Pipe +AF +UDP +TCP +TCP$"
fi
expect_file_grep "text: the one-CPU row" "$WORK/text" "^$(uname -n) +Linux $(uname -r) +1cpu +[0-9.]+ +[0-9.]+ "
expect_file_grep "text: processor table columns" "$WORK/text" \
    "^Host +OS +Mhz +null +null +stat +open +slct +sig +sig +fork +exec +sh$"
expect_file_grep "text: host, OS and Mhz" "$WORK/text" "^$(uname -n) +Linux $(uname -r) +[0-9-]+ "
expect_py "text: one line per test, same figures as the JSON" "$WORK/m.json" "$WORK/text" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
text = open(sys.argv[2]).read().splitlines()
bad = []
for t in d["results"]["tests"]:
    lines = [l for l in text if l.split()[:1] == [t["name"]]]
    if len(lines) != 1:
        bad.append("%s: %d lines" % (t["name"], len(lines)))
        continue
    l = lines[0]
    if "value" in t:
        f = l[len(t["name"]):].split()
        unit_at = f.index(t["unit"])
        med, mn, mx = float(f[unit_at - 1]), float(f[unit_at + 1]), float(f[unit_at + 2])
        if abs(med - t["value"]) > 1e-3 * t["value"] or abs(mn - t["min"]) > 1e-3 * t["min"]:
            bad.append("%s: text %s vs JSON %r" % (t["name"], l, t["value"]))
    elif "error" in t:
        if "is not smaller than" not in t["error"]:
            bad.append("%s failed: %s" % (t["name"], t["error"]))
    elif "skipped: " + t["skipped"] not in l:
        bad.append("%s: no reason in %r" % (t["name"], l))
print("\n".join(bad))
sys.exit(1 if bad else 0)
PY
expect_true "text: MB is 10^6 bytes" grep -q "MB = 10^6 bytes" "$WORK/text"

# ---- chosen tests only; --json - keeps stdout pure JSON ----
TMPDIR="$WORK/tmp" run "$KBENCH" micro --quick --json - lat_syscall_null bw_mem_wr
expect_status "--json -: exit 0" 0
expect_eq "--json -: the two tests, in order" \
    "$(jget "$WORK/out" '",".join(t["name"] for t in d["results"]["tests"])' 2>&1)" "lat_syscall_null,bw_mem_wr" \
    "$(head -c 300 "$WORK/out")"
expect_err_grep "--json -: the text on stderr" "^lat_syscall_null +null call "
expect_err_grep "--json -: progress on stderr" "^kbench micro: \\[2/2\\] bw_mem_wr\\.\\.\\.$"
expect_no_grep "only the tables of the chosen tests" "$WORK/err" "Context switching"
expect_empty_dir "temporary directory removed again" "$WORK/tmp"

# ---- placements: a test between processes has a row per placement, the
# placement and its CPUs in the JSON; one a set lacks is skipped with its
# reason ----
TMPDIR="$WORK/tmp" run "$KBENCH" micro --quick --cpus 0 --json "$WORK/p.json" lat_pipe byte_context
expect_status "--cpus 0: exit 0" 0
expect_eq "--cpus 0: the rows of lat_pipe and byte_context, placed" \
    "$(jget "$WORK/p.json" '" ".join("%s:%s:%s" % (t["name"], t["placement"], t.get("cpus")) for t in d["results"]["tests"])' 2>&1)" \
    "lat_pipe_1cpu:one_cpu:[0] lat_pipe_2smt:smt_siblings:None lat_pipe_2core:two_cores:None byte_context_1cpu:one_cpu:[0] byte_context_2smt:smt_siblings:None byte_context_2core:two_cores:None"
expect_eq "--cpus 0: the two-CPU rows skipped, with the reason" \
    "$(jget "$WORK/p.json" '" ".join(sorted(set(t.get("skipped", "-") for t in d["results"]["tests"])))' 2>&1)" \
    "- two SMT siblings needs two CPUs; only CPU 0 is usable two cores needs two CPUs; only CPU 0 is usable"
expect_eq "--cpus 0: params say so" "$(jget "$WORK/p.json" 'd["params"]["cpus"]' 2>&1)" "[0]"
expect_out_grep "--cpus 0: the table says the placement" "^1cpu +both ends on one CPU: CPU 0$"
expect_out_grep "--cpus 0: the per-test line says the reason" \
    "^lat_pipe_2core +Pipe +skipped: two cores needs two CPUs; only CPU 0 is usable$"
if taskset -pc $$ 2>/dev/null | grep -q ': *0[-,]1'; then
    TMPDIR="$WORK/tmp" run "$KBENCH" micro --quick --cpus 1,0 --json "$WORK/p2.json" \
        lat_ctx_2p_0k_2core bw_unix_1cpu
    expect_status "--cpus 1,0: exit 0" 0
    expect_eq "--cpus 1,0: the CPUs in the order given" \
        "$(jget "$WORK/p2.json" '[t.get("cpus", t.get("skipped")) for t in d["results"]["tests"]]' 2>&1)" \
        "$(if [ "$(cat /sys/devices/system/cpu/cpu0/topology/core_id)" = "$(cat /sys/devices/system/cpu/cpu1/topology/core_id)" ]; then
               echo "['CPUs 1,0 are all on one core', [1]]"; else echo "[[1, 0], [1]]"; fi)"
    expect_eq "--cpus 1,0: kbench's own CPUs back after the placed tests" \
        "$(jget "$WORK/p2.json" '"value" in d["results"]["tests"][1]' 2>&1)" "True"
else
    skip "--cpus 1,0: CPUs 0 and 1 are not both usable here"
fi
expect_empty_dir "placements: temporary directory removed" "$WORK/tmp"

# ---- a test that cannot run here is skipped with its reason, the others run ----
(ulimit -n 40 && TMPDIR="$WORK/tmp" exec "$KBENCH" micro --quick --json "$WORK/s.json" \
    lat_select_file lat_sig_prot) >"$WORK/out" 2>"$WORK/err"
RC=$?
expect_status "out of descriptors: exit 0" 0
expect_out_grep "out of descriptors: skipped with the reason" \
    "^lat_select_file +slct file +skipped: cannot open 100 descriptors: Too many open files$"
expect_out_grep "out of descriptors: the table shows -" "^$(uname -n) +Linux [^ ]+ +[0-9.]+ +-$"
expect_out_grep "out of descriptors: the next test ran" "^lat_sig_prot +prot fault +[0-9.]+ us "
jget "$WORK/s.json" '[sorted(t) for t in d["results"]["tests"]]' >"$WORK/keys" 2>&1
expect_file_grep "out of descriptors: JSON has the reason and no value" "$WORK/keys" \
    "\['family', 'higher_is_better', 'name', 'skipped', 'title', 'unit'\], \['cov_pct', 'family'"
expect_empty_dir "out of descriptors: temporary directory removed" "$WORK/tmp"

# ---- no loopback (a new network namespace: lo is down): every TCP test
# is skipped with its reason, none fails ----
if unshare -n true 2>/dev/null; then
    TMPDIR="$WORK/tmp" run unshare -n "$KBENCH" micro --quick lat_connect_1cpu lat_tcp_1cpu lat_unix_1cpu
    expect_status "no loopback: exit 0" 0
    expect_out_grep "no loopback: lat_connect skipped" \
        "^lat_connect_1cpu +TCP conn +skipped: cannot connect to 127.0.0.1: Network is unreachable$"
    expect_out_grep "no loopback: lat_tcp skipped" "^lat_tcp_1cpu +TCP +skipped: "
    expect_out_grep "no loopback: lat_unix ran" "^lat_unix_1cpu +AF UNIX +[0-9.]+ us "
    expect_empty_dir "no loopback: temporary directory removed" "$WORK/tmp"
else
    skip "no loopback: cannot make a network namespace here"
fi

# ---- a full temporary file system (a private 64 KiB tmpfs): the file
# tests of both families are skipped with the reason, none fails ----
if [ "$(id -u)" -eq 0 ] && unshare -m true 2>/dev/null; then
    mkdir -p "$WORK/tiny"
    run unshare -m sh -c 'mount -t tmpfs -o size=64k tmpfs "$1" && shift &&
        TMPDIR="$0" exec "$@"' "$WORK/tiny" "$WORK/tiny" "$KBENCH" micro --quick \
        --json "$WORK/full.json" bw_file_rd byte_fcopy_1024 byte_shell1
    expect_status "full file system: exit 0" 0
    expect_out_grep "full file system: bw_file_rd skipped" "^bw_file_rd +File reread +skipped: .*No space left on device$"
    expect_out_grep "full file system: File Copy skipped" \
        "^File Copy 1024 bufsize 2000 maxblocks +- KBps +\\(writing the test file: No space left on device\\)$"
    expect_out_grep "full file system: Shell Scripts skipped" \
        "^Shell Scripts \\(1 concurrent\\) +- lpm +\\(.*: No space left on device\\)$"
    expect_eq "full file system: JSON says skipped, not error" \
        "$(jget "$WORK/full.json" '[("skipped" in t, "error" in t) for t in d["results"]["tests"]]' 2>&1)" \
        "[(True, False), (True, False), (True, False)]"
else
    skip "full file system: needs root and a mount namespace"
fi

# ---- BYTE in JSON: every unit explained, the index and the final score
# recomputed from the figures and the published baselines ----
for base in byte4 unixbench5; do
    TMPDIR="$WORK/tmp" run "$KBENCH" micro --quick --baseline "$base" --json "$WORK/b.json" \
        byte_syscall byte_whet byte_shell1 byte_hanoi
    expect_status "BYTE JSON ($base): exit 0" 0
    expect_py "BYTE JSON ($base): units, index and score check" "$WORK/b.json" "$base" <<'PY'
import json, math, sys
d = json.load(open(sys.argv[1]))
base = {"byte4": {"byte_syscall": 15000.0, "byte_whet": 55.0},
        "unixbench5": {"byte_syscall": 15000.0, "byte_whet": 55.0, "byte_shell1": 42.4}}[sys.argv[2]]
tests = d["results"]["tests"]
for t in tests:
    assert t["unit"] in d["units"], ("unit not explained", t["unit"], d["units"])
    assert math.isfinite(t["value"]) and t["value"] > 0, t
ix = d["results"]["index"]
assert ix["baseline"] == sys.argv[2], ix
assert sorted(t["name"] for t in ix["tests"]) == sorted(base), ix["tests"]
assert ix["partial"] is True, ix
val = {t["name"]: t["value"] for t in tests}
logs = []
for t in ix["tests"]:
    want = val[t["name"]] / base[t["name"]] * 10
    assert t["baseline_value"] == base[t["name"]], t
    assert abs(t["index"] - want) <= 1e-6 * want, (t, want)
    logs.append(math.log(want))
score = math.exp(sum(logs) / len(logs))
assert abs(ix["final_score"] - score) <= 1e-6 * score, (ix["final_score"], score)
b = d["build"]
assert b["cc"] and b["cc_version"] and b["tests"] == ["byte_dhry2", "byte_whet"], b
assert b["cflags"].endswith("-O3 -ffast-math") or b["cflags"].endswith("-O3 -ffast-math -march=native"), b
PY
    if [ "$base" = byte4 ]; then
        expect_out_grep "BYTE 4.1 form: how Whetstone was built" \
            "^  Dhrystone and Whetstone built by [^ ]+, .*, with .*-O3 -ffast-math"
        # the header, in BYTE 4.1's order, then the tests with 4.1's names
        expect_py "BYTE 4.1 form: header, test lines, index table" "$WORK/out" "$(uname -a | cut -d' ' -f1-3)" <<'PY'
import re, sys
lines = open(sys.argv[1]).read().splitlines()
start = next(i for i, l in enumerate(lines) if l.startswith("  BYTE UNIX Benchmarks (Version 4.1"))
h = lines[start + 1:start + 7]
assert h[0].startswith("  System -- " + sys.argv[2] + " "), h[0]
assert re.match(r"^  Start Benchmark Run: \w{3} \w{3} [ \d]\d \d\d:\d\d:\d\d ", h[1]), h[1]
assert re.match(r"^   \d+ interactive users\.$", h[2]), h[2]
assert re.match(r"^   \d\d:\d\d:\d\d up .*,  \d+ users?,  load average: \d+\.\d\d, \d+\.\d\d, \d+\.\d\d$", h[3]), h[3]
assert re.match(r"^  /bin/sh(: | -> )", h[4]), h[4]
assert re.match(r"^  \S+ +\d+ +\d+ +\d+ +\d+% /", h[5]), h[5]
for name, unit in (("System Call Overhead", "lps"), ("Double-Precision Whetstone", "MWIPS"),
                   ("Shell Scripts \\(1 concurrent\\)", "lpm"), ("Recursion Test--Tower of Hanoi", "lps")):
    assert any(re.match(r"^%s +\d+\.\d %s +\(\d+\.\d secs, \d+ samples\)" % (name, unit), l) for l in lines), name
i = lines.index("                     INDEX VALUES")
assert re.match(r"^TEST +BASELINE +RESULT +INDEX$", lines[i + 1]), lines[i + 1]
assert lines[i + 2] == ""
rows = lines[i + 3:i + 5]
# in the run's order
assert rows[0].startswith("System Call Overhead ") and rows[1].startswith("Double-Precision Whetstone "), rows
assert lines[i + 5].strip() == "=========", lines[i + 5]
assert re.match(r"^     FINAL SCORE +\d+\.\d$", lines[i + 6]), lines[i + 6]
assert "System Benchmarks Index" not in "\n".join(lines)
PY
    else
        expect_out_grep "BYTE text ($base): how Whetstone was built" \
            "^\\(Dhrystone and Whetstone built by [^ ]+, .*, with .*-O3 -ffast-math.*\\)$"
        expect_out_grep "UnixBench 5 form: its score line" "^System Benchmarks Index Score \\(Partial Only\\) +[0-9.]+$"
        expect_no_grep "UnixBench 5 form: no BYTE 4.1 table" "$WORK/out" "FINAL SCORE"
    fi
done
expect_empty_dir "BYTE JSON: temporary directory removed" "$WORK/tmp"

# ---- BYTE 4.1's tools: C compiler and dc, skipped with the reason where
# missing ----
TMPDIR="$WORK/tmp" run env PATH=/nonexistent "$KBENCH" micro --quick --baseline byte4 byte_cc byte_dc
expect_status "no cc, no dc: exit 0" 0
expect_out_grep "no cc: skipped" "^C Compiler Throughput +- lpm +\\(no cc in PATH\\)$"
expect_out_grep "no dc: skipped" "^Dc: sqrt\\(2\\) to 99 decimal places +- lpm +\\(no dc in PATH\\)$"
if command -v cc >/dev/null && command -v dc >/dev/null; then
    TMPDIR="$WORK/tmp" run "$KBENCH" micro --quick --baseline byte4 byte_cc byte_dc
    expect_status "cc and dc: exit 0" 0
    # the seconds are what the samples took: above 1 s when one compile
    # is slow on a busy machine
    expect_out_grep "cc: a figure" "^C Compiler Throughput +[0-9.]+ lpm +\\([0-9]+\\.[0-9] secs, 2 samples\\)"
    expect_out_grep "dc: a figure" "^Dc: sqrt\\(2\\) to 99 decimal places +[0-9.]+ lpm "
else
    skip "cc and dc: not both installed"
fi
expect_empty_dir "cc and dc: temporary directory removed" "$WORK/tmp"

# ---- --copies 256 on one CPU: every copy starts, reports and is reaped,
# and a figure comes out.  How that figure compares with one copy's is a
# timing claim, judged by bench/timing-claims on an idle machine; how the
# copies' work is combined (late starters do not count as running alone)
# is checked in tests/unit/test_byte.c on made-up reports. ----
if command -v taskset >/dev/null 2>&1 && cpu=$(taskset -pc $$ 2>/dev/null | sed 's/.*: *//; s/[-,].*//') &&
   [ -n "$cpu" ]; then
    TMPDIR="$WORK/tmp" run taskset -c "$cpu" "$KBENCH" micro --quick --copies 256 --json "$WORK/c.json" \
        byte_syscall
    expect_status "--copies 256 on one CPU: exit 0" 0
    expect_out_grep "--copies 256 on one CPU: a figure" "^System Call Overhead +[0-9.]+ lps "
    expect_true "--copies 256: the JSON says 256 copies" \
        test "$(jget "$WORK/c.json" 'd["params"]["copies"]' 2>&1)" = 256
    expect_empty_dir "--copies: temporary directory removed" "$WORK/tmp"
else
    skip "--copies on one CPU: no taskset"
fi

finish
