#!/bin/sh
# kbench - command-line tests: kbench compare --export lkp and --export
# mmtests: the figures of a results file as LKP's flat stats and mmtests'
# rows, worked out again here from the file
# SPDX-License-Identifier: GPL-3.0-or-later
. "$(dirname "$0")/lib.sh"
cd "$WORK" || exit 1

# a results file: load 4 with three runs whose documents hold
# max_latency_ms, and a disk test
mk_results r.json lbl "load 4=100,200,400" "disk -t=50.5,51.5"
python3 - r.json <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for t in d["tests"]:
    if t["name"] == "load 4":
        for r, m in zip(t["runs"], (3.5, 12.25, 7.0)):
            r["document"] = {"kind": "load", "results": {"throughput_MBps": r["value"],
                                                         "max_latency_ms": m}}
json.dump(d, open(sys.argv[1], "w"))
PY

# ---- LKP: mean, harmonic mean, the largest max_latency ----
expect_rc "--export lkp: status 0" 0 "$KBENCH" compare --export lkp r.json
WANT=$(python3 -c 'v = [100, 200, 400]
print("throughput_MB/s: %.10g" % (sum(v) / 3))
print("throughput_MB/s_harmonic_mean: %.10g" % (3 / sum(1 / x for x in v)))
print("max_latency: 12.25")')
expect_eq "--export lkp: LKP's three stats of load 4" "$(cat "$WORK/out")" "$WANT"
expect_rc "--export=lkp, the same" 0 "$KBENCH" compare --export=lkp r.json
expect_eq "--export=lkp: the same lines" "$(cat "$WORK/out")" "$WANT"
# LKP's own reading of its stats: "key: value", the value a number
expect_py "--export lkp: every line is key: number" "$WORK/out" <<'PY'
import sys
for line in open(sys.argv[1]):
    k, v = line.rstrip("\n").split(": ")
    float(v)
PY

# two load tests: each key named by its test
mk_results two.json two "load 1=10,30" "load 2=20"
expect_rc "--export lkp, two load tests: status 0" 0 "$KBENCH" compare --export lkp two.json
expect_eq "--export lkp: keys prefixed by the test" "$(cut -d: -f1 "$WORK/out" | tr '\n' ' ')" \
    "load_1.throughput_MB/s load_1.throughput_MB/s_harmonic_mean load_2.throughput_MB/s load_2.throughput_MB/s_harmonic_mean "
expect_out_grep "--export lkp: load 1's harmonic mean" '^load_1\.throughput_MB/s_harmonic_mean: 15$'

# ---- mmtests: a row a run, six tab-separated columns ----
expect_rc "--export mmtests: status 0" 0 "$KBENCH" compare --export mmtests r.json
printf 'throughput\t4\tMB/s\t1\t100\tlbl\nmax_latency\t4\tms\t1\t3.5\tlbl\nthroughput\t4\tMB/s\t2\t200\tlbl\nmax_latency\t4\tms\t2\t12.25\tlbl\nthroughput\t4\tMB/s\t3\t400\tlbl\nmax_latency\t4\tms\t3\t7\tlbl\ndisk_-t\t-\tMiB/s\t1\t50.5\tlbl\ndisk_-t\t-\tMiB/s\t2\t51.5\tlbl\n' >"$WORK/mm.want"
expect_same_file "--export mmtests: the rows" "$WORK/out" "$WORK/mm.want"
expect_eq "--export mmtests: six columns on every row" \
    "$(awk -F '\t' '{ print NF }' "$WORK/out" | sort -u)" 6

# ---- the Go format stays the default ----
expect_rc "--export: status 0" 0 "$KBENCH" compare --export r.json
expect_out_grep "--export: Go benchmark lines" '^Benchmark'

# ---- bad input, and nothing to export ----
expect_bad "--export=xml" "^kbench compare: --export xml: give go, lkp or mmtests" \
    "$KBENCH" compare --export=xml r.json
mk_results micro.json m "lat_pipe=1.5,1.6"
expect_rc "--export lkp of no load test: status 1" 1 "$KBENCH" compare --export lkp micro.json
expect_err_grep "--export lkp of no load test: said" 'holds no load run'
finish
