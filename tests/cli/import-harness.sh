#!/bin/sh
# kbench - command-line tests: kbench import of LKP's stats.json and
# matrix.json and of what kbench compare --export lkp and --export mmtests
# write: the figures read back are the results file's
# SPDX-License-Identifier: GPL-3.0-or-later
. "$(dirname "$0")/lib.sh"
cd "$WORK" || exit 1

# a results file: load 1 (three runs) and load 4 (two), each run's
# document with its max_latency_ms
mk_results r.json lbl "load 1=100,200,300" "load 4=50,70"
python3 - r.json <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
lat = {"load 1": (3.5, 12.25, 7.0), "load 4": (1.0, 2.0)}
for t in d["tests"]:
    for r, m in zip(t["runs"], lat[t["name"]]):
        r["document"] = {"kind": "load", "results": {"throughput_MBps": r["value"],
                                                     "max_latency_ms": m}}
json.dump(d, open(sys.argv[1], "w"))
PY
# compare's rows of a test, B's against A's: "N median mean" of each
table() {
    "$KBENCH" compare "$1" "$2" | awk -v t="$3" '
        $1 " " $2 == t { s = 1; print $5, $6, $7; next }
        s && $1 == "B" { print $2, $3, $4; s = 0 }'
}

# ---- mmtests rows: every run back ----
"$KBENCH" compare --export mmtests r.json >r.mm
expect_rc "mmtests rows: status 0" 0 "$KBENCH" import -o mm.json r.mm
expect_eq "mmtests rows: the runs of each test" \
    "$(jget mm.json '[(t["name"], t["unit"], [r["value"] for r in t["runs"]]) for t in d["tests"]]')" \
    "[('load 1', 'MB/s', [100.0, 200.0, 300.0]), ('load 1 max_latency', 'ms', [3.5, 12.25, 7.0]), ('load 4', 'MB/s', [50.0, 70.0]), ('load 4 max_latency', 'ms', [1.0, 2.0])]"
expect_eq "mmtests rows: each run's file, line and tool" \
    "$(jget mm.json '[(r["source"]["file"], r["source"]["line"], r["tool"]) for r in d["tests"][2]["runs"]]')" \
    "[('r.mm', 7, 'kbench load (mmtests rows)'), ('r.mm', 9, 'kbench load (mmtests rows)')]"
expect_eq "mmtests rows: compare shows load 1 as before" "$(table r.json mm.json 'load 1')" \
    "$(printf '3 200.0 200.0\n3 200.0 200.0')"
expect_eq "mmtests rows: compare shows load 4 as before" "$(table r.json mm.json 'load 4')" \
    "$(printf '2 60.00 60.00\n2 60.00 60.00')"
printf 'disk_-t\t-\tMiB/s\t1\t50.5\tlbl\n' >>r.mm
expect_rc "an mmtests row of another test: still status 0" 0 "$KBENCH" import -o mm2.json r.mm
expect_err_grep "it is skipped with its line" "r.mm:11: skipped: mmtests row 'disk_-t': which way is better"

# ---- LKP's flat stats from kbench: the mean as one run ----
"$KBENCH" compare --export lkp r.json >r.lkp
expect_rc "LKP stats: status 0" 0 "$KBENCH" import -o lkp.json r.lkp
expect_eq "LKP stats: the mean and max_latency of each test" \
    "$(jget lkp.json '[(t["name"], [r["value"] for r in t["runs"]], [r["source"]["line"] for r in t["runs"]]) for t in d["tests"]]')" \
    "[('load 1', [200.0], [1]), ('load 1 max_latency', [12.25], [3]), ('load 4', [60.0], [4]), ('load 4 max_latency', [2.0], [6])]"
expect_eq "LKP stats: compare's medians and means as before" "$(table r.json lkp.json 'load 4')" \
    "$(printf '2 60.00 60.00\n1 60.00 60.00')"
printf 'throughput_MB/s: 5\n' >bare.lkp
expect_rc "a stat with no test before it: nothing read" 1 "$KBENCH" import -o x.json bare.lkp
expect_err_grep "it cannot be placed, and says so" "bare.lkp:1: skipped: throughput_MB/s: no 'load_N.'"
expect_true "nothing written" test ! -e x.json

# ---- LKP's matrix.json and stats.json ----
cat >matrix.json <<'EOF'
{
  "dbench.throughput-MB/s": [301.5, 299.25, 310],
  "dbench.max_latency": [4.5, 6, 5.25],
  "tbench.throughput-MB/s": [800.5, 790],
  "time.elapsed_time": [61, 60, 61]
}
EOF
expect_rc "matrix.json, --clients 8: status 0" 0 "$KBENCH" import --clients 8 -o m.json matrix.json
expect_eq "matrix.json: three runs of dbench 8, two of tbench 8" \
    "$(jget m.json '[(t["name"], t["unit"], [r["value"] for r in t["runs"]]) for t in d["tests"]]')" \
    "[('dbench 8', 'MB/s', [301.5, 299.25, 310.0]), ('dbench 8 max_latency', 'ms', [4.5, 6.0, 5.25]), ('tbench 8', 'MB/s', [800.5, 790.0])]"
expect_eq "matrix.json: each run's file, the key's line and the tool" \
    "$(jget m.json '[(r["source"]["file"], r["source"]["line"], r["tool"]) for r in d["tests"][2]["runs"]]')" \
    "[('matrix.json', 4, 'tbench (LKP JSON)'), ('matrix.json', 4, 'tbench (LKP JSON)')]"
expect_rc "matrix.json without --clients: nothing placed" 1 "$KBENCH" import -o x.json matrix.json
expect_err_grep "each key says it cannot be placed" \
    'matrix.json:2: skipped: "dbench.throughput-MB/s": the file does not say how many clients ran'
printf '{"tbench.throughput-MB/s": 412.75, "tbench.max_latency": 9.5}\n' >stats.json
expect_rc "stats.json: status 0" 0 "$KBENCH" import --clients 2 -o s.json stats.json
expect_eq "stats.json: one run a key" "$(jget s.json '[(t["name"], [r["value"] for r in t["runs"]]) for t in d["tests"]]')" \
    "[('tbench 2', [412.75]), ('tbench 2 max_latency', [9.5])]"

# ---- bad input: one line, status 2, nothing written ----
printf '{"dbench.throughput-MB/s": [301.5, "fast"]}\n' >nonnum.json
expect_bad "a JSON value not a number" '^kbench import: nonnum.json:1: "dbench.throughput-MB/s": a value that is not a number$' \
    "$KBENCH" import --clients 8 -o x.json nonnum.json
printf '{"dbench.throughput-MB/s": [301.5,\n 299' >trunc.json
expect_bad "a truncated JSON" '^kbench import: trunc.json:2: not a JSON object' \
    "$KBENCH" import --clients 8 -o x.json trunc.json
printf 'throughput\t4\tMB/s\t1\tfast\tlbl\n' >nonnum.mm
expect_bad "an mmtests value not a number" "^kbench import: nonnum.mm:1: throughput: value 'fast' is not a number$" \
    "$KBENCH" import -o x.json nonnum.mm
printf 'load_4.throughput_MB/s: 1e\n' >nonnum.lkp
expect_bad "an LKP stat not a number" "^kbench import: nonnum.lkp:1: load_4.throughput_MB/s: '1e' is not a number$" \
    "$KBENCH" import -o x.json nonnum.lkp
expect_true "nothing written" test ! -e x.json
expect_bad "--clients -1" "^kbench import: --clients -1: give a count of 1 or more" \
    "$KBENCH" import --clients -1 -o x.json stats.json
finish
