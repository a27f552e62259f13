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
expect_lines "micro documents: every test of A compared" -eq 3 "$WORK/out" "^(lat_syscall_null|lat_pipe_1cpu|byte_syscall) "
expect_out_grep "micro documents: lmbench's banner" "^ +L M B E N C H  2 \\. 0   S U M M A R Y$"
expect_out_grep "micro documents: Basic system parameters, B's run" \
    "^$(uname -n) +Linux $(uname -r) B1 +$(uname -m)-linux-gnu +-$"
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
    assert f[4] == "-" and f[5] == fmt(val(d, "lat_syscall_null")), (row, val(d, "lat_syscall_null"))
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

# ---- bad input: a micro document without results ----
printf '{"kbench_version": "0.1.0", "kind": "micro", "time": "x"}\n' >"$WORK/bad.json"
expect_bad "a micro document without results" \
    "kbench compare: $WORK/bad.json: a kbench micro document without results.tests" \
    "$KBENCH" compare "$WORK/bad.json" "$WORK/a.json"
expect_empty_dir "no temporary directory left" "$WORK/tmp"

finish
