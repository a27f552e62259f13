#!/bin/sh
# kbench - command-line tests: kbench compare of micro runs: plain
# `kbench micro --json` documents (one run a side: the change, no
# verdict) and suite files of micro runs, with lmbench 2's tables, one
# row per run per file
# SPDX-License-Identifier: GPL-3.0-or-later
. "$(dirname "$0")/lib.sh"
cd "$WORK" || exit 1
mkdir -p "$WORK/tmp"

# ---- two plain micro documents ----
for f in a b; do
    TMPDIR="$WORK/tmp" run "$KBENCH" micro --quick --cpus 0 --json "$WORK/$f.json" \
        lat_syscall_null lat_pipe_1cpu byte_syscall
    expect_status "micro run $f: exit 0" 0
done
run "$KBENCH" compare "$WORK/a.json" "$WORK/b.json"
expect_status "compare of two micro documents: exit 0" 0
expect_out_grep "micro documents: A named" "^A  $WORK/a.json: label micro, kernel $(uname -r), host $(uname -n), "
expect_out_grep "micro documents: one run, no verdict" \
    "^ +B +1 .* too few runs"
expect_lines "micro documents: every test of A compared" -eq 3 "$WORK/out" "^(lat_syscall_null|lat_pipe_1cpu|byte_syscall:) "
expect_out_grep "micro documents: lmbench's banner" "^ +L M B E N C H  2 \\. 0   S U M M A R Y$"
# Mhz: the document's system.mhz (/proc/cpuinfo's), "-" when it has none
MHZ_B=$(jget "$WORK/b.json" 'd["system"].get("mhz", "-")')
expect_out_grep "micro documents: Basic system parameters, B's run" \
    "^$(uname -n) +Linux $(uname -r) B1 +$(uname -m)-linux-gnu +$MHZ_B$"
expect_py "micro documents: the tables hold each file's figures" "$WORK/a.json" "$WORK/b.json" "$WORK/out" <<'PY'
import json, re, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
out = open(sys.argv[3]).read().splitlines()
def val(d, n):
    return next(t["value"] for t in d["results"]["tests"] if t["name"] == n)
def fmt(v, w=5):
    for dec in (2 if v < 10 else 1 if v < 100 else 0, 1, 0):
        s = "%.*f" % (dec, v)
        if len(s) <= w:
            return s
i = out.index("Processor, Processes - times in microseconds - smaller is better")
rows = [l for l in out[i:i + 8] if re.search(r" Linux \S+ [AB]1 ", l)]
assert len(rows) == 2, out[i:i + 8]
for row, d, k in zip(rows, (a, b), "AB"):
    f = row.split()
    assert f[4] == str(d["system"].get("mhz", "-")), (row, d["system"].get("mhz"))
    assert f[5] == fmt(val(d, "lat_syscall_null")), (row, val(d, "lat_syscall_null"))
    assert f[3] == k + "1", row
j = out.index("*Local* Communication latencies in microseconds - smaller is better")
rows = [l for l in out[j:j + 8] if re.search(r" Linux \S+ [AB]1 ", l)]
assert [r.split()[4] for r in rows] == ["1cpu", "1cpu"], rows
assert [r.split()[5] for r in rows] == [fmt(val(a, "lat_pipe_1cpu")), fmt(val(b, "lat_pipe_1cpu"))], rows
PY

# ---- suite files of micro runs: two kernels, 4 runs each; one test only
# in its old unplaced name; a skipped one ----
mkfile() {
    python3 - "$@" <<'EOF'
import json, sys
path, kernel, base = sys.argv[1], sys.argv[2], float(sys.argv[3])
def test(name, fam, unit, hib, values, skipped=None):
    t = {"name": name, "params": {"command": "micro", "family": fam, "title": name},
         "unit": unit, "higher_is_better": hib,
         "runs": [{"value": v, "started": "2026-01-01T00:00:00Z", "seconds": 1.0,
                   "document": {}} for v in values]}
    if skipped:
        t["skipped"] = skipped
    return t
tests = [test("lat_syscall_null", "lmbench", "us", False, [base + i / 100 for i in range(4)]),
         test("lat_pipe_1cpu", "lmbench", "us", False, [base * 10 + i for i in range(4)]),
         test("lat_pipe_2core", "lmbench", "us", False, [base * 100 + i for i in range(4)]),
         test("lat_ctx_2p_0k", "lmbench", "us", False, [base * 2 + i for i in range(4)]),
         test("lat_tcp_1cpu", "lmbench", "us", False, [], "no loopback"),
         test("byte_syscall", "byte", "lps", True, [1e6 + i for i in range(4)])]
doc = {"kbench_version": "0.1.0", "kind": "suite", "time": "2026-01-01T00:00:00Z",
       "schema": 1, "label": kernel, "command": ["kbench", "suite"], "cwd": "/",
       "params": {}, "system": {"kernel": kernel, "hostname": "box", "machine": "x86_64"},
       "started": "2026-01-01T00:00:00Z", "finished": True, "done": {}, "failures": [],
       "tests": tests}
json.dump(doc, open(path, "w"))
EOF
}
mkfile "$WORK/k1.json" 6.1.0 1
mkfile "$WORK/k2.json" 6.2.0 2
run "$KBENCH" compare "$WORK/k1.json" "$WORK/k2.json"
expect_status "compare of two suites of micro runs: exit 0" 0
expect_eq "suites: Basic system parameters, one row per run per kernel" \
    "$(grep -E '^box +Linux 6\.[12]\.0 [AB][1-4] +x86_64-linux-gnu' "$WORK/out" | awk '{ print $3 $4 }' | tr '\n' ' ')" \
    "6.1.0A1 6.1.0A2 6.1.0A3 6.1.0A4 6.2.0B1 6.2.0B2 6.2.0B3 6.2.0B4 "
expect_py "suites: the processor table, each run's own figure" "$WORK/out" <<'PY'
import sys
out = open(sys.argv[1]).read().splitlines()
i = out.index("Processor, Processes - times in microseconds - smaller is better")
rows = out[i + 5:i + 13]
want = ["%.2f" % (b + r / 100) for b in (1, 2) for r in range(4)]
got = [l.split()[5] for l in rows]
assert got == want, (got, want, rows)
PY
expect_py "suites: local communication, a row per run and placement, the old name unplaced" "$WORK/out" <<'PY'
import sys
out = open(sys.argv[1]).read().splitlines()
i = out.index("*Local* Communication latencies in microseconds - smaller is better")
rows = [l.split() for l in out[i + 5:] if l.startswith("box ")][:16]
# per run: the 1cpu row (2p/0K from the unplaced lat_ctx_2p_0k, Pipe,
# TCP skipped "-") and the 2core row (its Pipe; 2p/0K again: unplaced)
assert len(rows) == 16, rows
r = rows[0]
assert r[3] == "A1" and r[4] == "1cpu" and r[5] == "2.00" and r[6] == "10.0" and r[7] == "-", r
r = rows[1]
assert r[3] == "A1" and r[4] == "2core" and r[6] == "100", r
r = rows[15]
assert r[3] == "B4" and r[4] == "2core" and r[6] == "203", r
PY
expect_no_grep "suites: no BYTE test in lmbench's tables" "$WORK/out" "^box .*1000000"

# ---- steal: the run the hypervisor took most from, per file ----
# mk_micro FILE NAME=VALUE/STEAL/RUN_S ...: a plain micro document; STEAL
# "-" leaves steal_pct and run_s out (an older kbench), "null" is null
mk_micro() {
    python3 - "$@" <<'EOF2'
import json, sys
tests = []
for spec in sys.argv[2:]:
    name, rest = spec.split("=")
    v, st, rs = rest.split("/")
    t = {"name": name, "family": "lmbench", "title": name, "unit": "us",
         "higher_is_better": False, "value": float(v)}
    if st != "-":
        t["steal_pct"] = None if st == "null" else float(st)
        t["run_s"] = float(rs)
    tests.append(t)
doc = {"kbench_version": "0.1.0", "kind": "micro", "time": "2026-01-01T00:00:00Z",
       "system": {"kernel": "6.1.0", "hostname": "box", "machine": "x86_64"},
       "results": {"tests": tests}}
json.dump(doc, open(sys.argv[1], "w"))
EOF2
}
# lat_pipe_2core lost 35.44% of 2 s (a tick is 0.5% of it) and
# lat_syscall_null 5%: the larger is named; lat_pipe_1cpu's 60% of 0.01 s
# is less than one tick, not surely 1%, and is passed over
mk_micro "$WORK/st-a.json" lat_syscall_null=0.2/5/1 lat_pipe_2core=5/35.44/2 lat_pipe_1cpu=3/60/0.01
mk_micro "$WORK/st-low.json" lat_syscall_null=0.2/1.4/2 lat_pipe_2core=5/0.99/1000 lat_pipe_1cpu=3/0/1
mk_micro "$WORK/st-old.json" lat_syscall_null=0.2/-/- lat_pipe_2core=5/-/- lat_pipe_1cpu=3/-/-
mk_micro "$WORK/st-null.json" lat_syscall_null=0.2/null/1 lat_pipe_2core=5/null/2 lat_pipe_1cpu=3/null/1
run "$KBENCH" compare "$WORK/st-old.json" "$WORK/st-a.json"
expect_status "steal: micro documents: exit 0" 0
expect_out_grep "steal: micro documents: the file, its run and test, one decimal" \
    "^steal: $WORK/st-a\\.json: the hypervisor took up to 35\\.4% of a CPU.s time in run 1 of lat_pipe_2core \\(steal in /proc/stat\\): its figures are not a quiet machine.s\$"
expect_lines "steal: micro documents: one line" -eq 1 "$WORK/out" '^steal: '
expect_true "steal: micro documents: after lmbench's tables" \
    test "$(grep -n '^steal: ' "$WORK/out" | cut -d: -f1)" -gt "$(grep -n 'L M B E N C H' "$WORK/out" | cut -d: -f1)"
expect_empty_file "steal: micro documents: nothing on standard error" "$WORK/err"
run "$KBENCH" compare "$WORK/st-low.json" "$WORK/st-old.json" "$WORK/st-null.json"
expect_status "steal: below the rule, absent, null: exit 0" 0
expect_no_grep "steal: below the rule, absent, null: no line" "$WORK/out" 'steal'
expect_empty_file "steal: below the rule, absent, null: nothing on standard error" "$WORK/err"
run "$KBENCH" compare --json "$WORK/st-a.json" "$WORK/st-null.json"
expect_status "steal: micro documents --json: exit 0" 0
expect_py "steal: --json is one document, with each file's steal" "$WORK/out" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
st = [f["steal"] for f in d["files"]]
assert st[0] == {"pct": 35.44, "wall_s": 2.0, "run": 1, "test": "lat_pipe_2core"}, st
assert st[1] is None, st
PY
expect_no_grep "micro documents --json: the document alone, no lmbench tables after it" "$WORK/out" 'L M B E N C H'
# suite files of micro runs: each run's document holds every test, and a
# row under a memory limit is the document's test with " mem=32M" added
mk_suite() {
    python3 - "$@" <<'EOF2'
import json, sys
path, steal = sys.argv[1], sys.argv[2]
def micro(i):
    tests = []
    for name, v in (("lat_syscall_null", 0.2 + i / 100), ("lat_pipe_2core", 5.0 + i)):
        t = {"name": name, "family": "lmbench", "title": name, "unit": "us",
             "higher_is_better": False, "value": v}
        if steal != "old":
            # run 3 of lat_pipe_2core lost 35.44% of 2 s, run 2 of
            # lat_syscall_null 12% of 1 s; "low": every share below the rule
            big = {("lat_pipe_2core", 2): 35.44, ("lat_syscall_null", 1): 12.0}.get((name, i), 0.0)
            t["steal_pct"] = None if steal == "null" else 1.2 if steal == "low" else big
            t["run_s"] = 2.0 if name == "lat_pipe_2core" else 1.0
        tests.append(t)
    return {"kbench_version": "0.1.0", "kind": "micro", "time": "2026-01-01T00:00:00Z",
            "results": {"tests": tests}}
docs = [micro(i) for i in range(4)]
rows = []
for name in ("lat_syscall_null", "lat_pipe_2core"):
    rows.append({"name": name + " mem=32M",
                 "params": {"command": "micro", "family": "lmbench", "title": name,
                            "mem_limit": "32M"},
                 "unit": "us", "higher_is_better": False,
                 "runs": [{"value": next(t["value"] for t in d["results"]["tests"]
                                         if t["name"] == name),
                           "started": "2026-01-01T00:00:00Z", "seconds": 3.0, "document": d}
                          for d in docs]})
doc = {"kbench_version": "0.1.0", "kind": "suite", "time": "2026-01-01T00:00:00Z",
       "schema": 1, "label": steal, "command": ["kbench", "suite"], "cwd": "/",
       "params": {"mem_limits": ["32M"]}, "system": {"kernel": "6.1.0", "hostname": "box",
       "machine": "x86_64"}, "started": "2026-01-01T00:00:00Z", "finished": True,
       "done": {}, "failures": [], "tests": rows}
json.dump(doc, open(path, "w"))
EOF2
}
for k in old steal low null; do mk_suite "$WORK/sm-$k.json" "$k"; done
run "$KBENCH" compare "$WORK/sm-old.json" "$WORK/sm-steal.json" "$WORK/sm-low.json" "$WORK/sm-null.json"
expect_status "steal: suites of micro runs: exit 0" 0
expect_out_grep "steal: suites: the file, the run and the test of the largest" \
    "^steal: $WORK/sm-steal\\.json: the hypervisor took up to 35\\.4% of a CPU.s time in run 3 of lat_pipe_2core mem=32M \\(steal in /proc/stat\\): its figures are not a quiet machine.s\$"
expect_lines "steal: suites: one line, none for older, low or null steal" -eq 1 "$WORK/out" '^steal: '

# ---- a test the suite skipped: its reason, not "no runs" ----
mk_results "$WORK/sk1.json" a "score x=10,11,12,13"
python3 - "$WORK/sk1.json" "$WORK/sk2.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["tests"].append({"name": "byte_dc", "params": {"command": "micro", "family": "byte"},
                   "unit": "lpm", "higher_is_better": True, "runs": [], "skipped": "no dc in PATH"})
json.dump(d, open(sys.argv[1], "w"))
d["label"] = "b"
json.dump(d, open(sys.argv[2], "w"))
PY
run "$KBENCH" compare "$WORK/sk1.json" "$WORK/sk2.json"
expect_out_grep "skipped: the row says why, with its unit" '^byte_dc: Dc: sqrt\(2\) to 99 decimal places +lpm +A +0 +- +- +-  skipped: no dc in PATH$'
expect_no_grep "skipped: never 'no runs'" "$WORK/out" 'no runs$'

# ---- bad input: a micro document without results ----
printf '{"kbench_version": "0.1.0", "kind": "micro", "time": "x"}\n' >"$WORK/bad.json"
expect_bad "a micro document without results" \
    "kbench compare: $WORK/bad.json: a kbench micro document without results.tests" \
    "$KBENCH" compare "$WORK/bad.json" "$WORK/a.json"
expect_empty_dir "no temporary directory left" "$WORK/tmp"

finish
