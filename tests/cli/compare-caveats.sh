#!/bin/sh
# kbench - command-line tests: kbench compare and the caveats of runs
# (results files whose run documents are doctored to carry each caveat,
# by the fields kbench derives it from or by the list itself): the
# verdicts in text and JSON, the exit status; self-compare and a tripled
# copy as controls
# SPDX-License-Identifier: GPL-3.0-or-later
. "$(dirname "$0")/lib.sh"
cd "$WORK" || exit 1

A=100,101,102,103
B3=300,303,306,309
mk_results a.json base "load 1=$A"
mk_results b.json new "load 1=$B3"

# ---- the controls: a tripled copy is better with 4 runs a side; a
# self-compare never reports a change ----
expect_rc "tripled: exit 0" 0 "$KBENCH" compare a.json b.json
expect_out_grep "tripled: better at p=0.029 with 4 runs a side" '^ +B +4 +304\.5 .* \+200\.00%  better \(p=0\.029\)$'
cp a.json a2.json
expect_rc "self-compare: exit 0" 0 "$KBENCH" compare a.json a2.json
# same within 5%: every run of B within 5.075 of every run of A, each
# one-sided U test at its floor 1/70; the 4 and 4 runs could see the
# half-width of the differences' range at c = 1, 3 of 101.5
expect_out_grep "self-compare: the same within 5%" '^ +B +4 +101\.5 .* \+0\.00%  same \+-5% \(p=1\.000; could see \+-2\.96%\)$'
expect_no_grep "self-compare: no better or worse" "$WORK/out" 'better|worse|not comparable'

# doctor IN OUT SIDE PYTHON: OUT is IN with each run's document (r: the
# run, i: its index from 0, d: its document) changed by PYTHON.
doctor() {
    python3 - "$1" "$2" "$3" <<EOF
import json, sys
f = json.load(open(sys.argv[1]))
for t in f["tests"]:
    for i, r in enumerate(t["runs"]):
        d = r["document"] = {"kbench_version": "0.1.0", "kind": "load",
                             "system": {"kernel": "k1", "hostname": "h"}, "results": {}}
        res = d["results"]
        $3
json.dump(f, open(sys.argv[2], "w"))
EOF
}

# A's runs, documents without a caveat: made once, copied for each case
doctor a.json a-plain.json "pass"
# caveat NAME KEY PYTHON VERDICT: B's runs doctored by PYTHON carry KEY;
# the row's verdict in text matches VERDICT (a regex), in JSON too.
caveat() {
    cname=$1 key=$2 code=$3 verdict=$4
    doctor b.json "b-$key.json" "$code"
    cp a-plain.json "a-$key.json"
    case $verdict in 'not comparable'*) st=3 ;; *) st=0 ;; esac
    expect_rc "$cname: exit $st" $st "$KBENCH" compare "a-$key.json" "b-$key.json"
    expect_out_grep "$cname: verdict" "^ +B +4 +304\\.5 .* \\+200\\.00%  $verdict  \\[caveats: ([a-z_*]+, )*$key\\*?(, [a-z_*]+)*\\]\$"
    run "$KBENCH" compare --json "a-$key.json" "b-$key.json"
    expect_true "$cname: JSON" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
b = d["rows"][0]["files"][1]
keys = [c["key"] for c in b["caveats"]]
assert sys.argv[2] in keys, keys
if sys.argv[3] == "3":
    assert b["verdict"] == "not_comparable", b
    assert b["not_comparable"] == {"caveat": sys.argv[2], "in": "B"}, b
else:
    assert b["verdict"] == "better" and "not_comparable" not in b, b
assert d["rows"][0]["files"][0]["caveats"] == []
' "$WORK/out" "$key" "$st"
}

# the unsound ones: no verdict, the figures still shown
caveat "disk flush failed" flush_failed 'd.update(kind="disk", results=[{"device": "/dev/x", "buffered": {"runs": [{"cache_flushed": False, "not_flushed": {"why": "BLKFLSBUF: EPERM", "flush_failed": True}}]}}])' \
    'not comparable: flush_failed \(B.s runs 1, 2, 3, 4\)'
caveat "disk cache timed" cache_timed 'd.update(kind="disk", results=[{"device": "/dev/x", "buffered": {"runs": [{"cache_flushed": False, "not_flushed": {"why": "90% still cached", "flush_failed": False}}]}}])' \
    'not comparable: cache_timed \(B.s runs 1, 2, 3, 4\)'
caveat "disk sparse file" sparse_file 'd.update(kind="disk", results=[{"device": "/dev/x", "buffered": {"runs": [{"cache_flushed": True, "first_hole_byte": 0}]}}])' \
    'not comparable: sparse_file \(B.s runs 1, 2, 3, 4\)'
caveat "load errors in run 3" errors 'res["errors"] = 5 if i == 2 else 0' \
    'not comparable: errors \(B.s run 3\)'
caveat "a client died" errors 'res["died"] = i == 0' \
    'not comparable: errors \(B.s run 1\)'
caveat "interrupted" interrupted 'res["interrupted_signal"] = 2 if i == 3 else 0' \
    'not comparable: interrupted \(B.s run 4\)'
caveat "mixed kernels" mixed_kernels 'd["system"]["kernel"] = "k2" if i == 1 else "k1"' \
    'not comparable: mixed_kernels \(B.s series\)'
caveat "mixed hosts" mixed_hosts 'd["system"]["hostname"] = "other" if i == 1 else "h"' \
    'not comparable: mixed_hosts \(B.s series\)'
caveat "a caveats list as written" cache_timed 'd["caveats"] = [{"key": "cache_timed", "text": "t", "evidence": {}}]' \
    'not comparable: cache_timed \(B.s runs 1, 2, 3, 4\)'
# the sound ones: shown beside the verdict, which stands
caveat "stuck clients" stuck_clients 'res["stuck_killed"] = 1' 'better \(p=0\.029\)'
caveat "OOM kill" oom 'res["oom_killed"] = True' 'better \(p=0\.029\)'
caveat "steal" steal 'res.update(steal_pct=30.0, measured_s=60.0)' 'better \(p=0\.029\)'
caveat "mixed builds" mixed_builds 'd["kbench_version"] = "0.0.9" if i == 1 else "0.1.0"' 'better \(p=0\.029\)'
caveat "unsteady: a rising series" unsteady 'res["series"] = {"interval_s": 1, "points": [{"t": t, "warmup": t <= 2, "bytes": 1000000 * t, "ops": 10} for t in range(1, 13)]}' \
    'better \(p=0\.029\)'
caveat "an unknown key from a newer kbench: shown, sound" zz_new 'd["caveats"] = [{"key": "zz_new", "text": "t", "evidence": {}}]' 'better \(p=0\.029\)'

# a steady series gives no unsteady caveat; steal below 1% none either
doctor b.json b-steady.json 'res.update(steal_pct=0.5, measured_s=60.0, series={"interval_s": 1, "points": [{"t": t, "warmup": t <= 2, "bytes": 1000000 + (t % 2) * 1000, "ops": 10} for t in range(1, 13)]})'
expect_rc "steady series: better" 0 "$KBENCH" compare a.json b-steady.json
expect_no_grep "steady series: no caveat" "$WORK/out" 'caveats'

# a caveat of A's runs refuses every other file's verdict
doctor a.json a-err.json 'res["errors"] = 1 if i == 0 else 0'
expect_rc "A with errors: exit 3" 3 "$KBENCH" compare a-err.json b.json
expect_out_grep "A with errors: named as A's" '^ +B +4 .*  not comparable: errors \(A.s run 1\)$'
expect_out_grep "A with errors: beside A's figures" '^load 1 +MB/s +A +4 +101\.5 .*  \[caveats: errors\*\]$'
expect_rc "A with errors: lkml" 3 "$KBENCH" compare --style lkml a-err.json b.json
expect_out_grep "lkml: the mark, and the caveat of A's runs" '^load 1 \(MB/s\) \|\| 101\.5 -> 304\.5 \+200\.00% not-comparable  \[caveats A: errors\*\]$'
expect_out_grep "lkml: the mark explained" '^\(not-comparable: a caveat of the runs'

# --by mem: one file, a series each; too few runs is still refused
mk_results m.json lim "load 1 mem=none=$A" "load 1 mem=48M=$B3"
doctor m.json m-sp.json 'd.update(kind="disk", results=[{"device": "/dev/x", "buffered": {"runs": [{"cache_flushed": True, "first_hole_byte": 4096}]}}]) if "48M" in t["name"] else None'
expect_rc "--by mem: exit 3" 3 "$KBENCH" compare --by mem m-sp.json
expect_out_grep "--by mem: not comparable" '^ +B +4 .*  not comparable: sparse_file \(B.s runs 1, 2, 3, 4\)  \[caveats: sparse_file\*\]$'

# a disk run's busy caveat names hdparm's timing (cached, buffered): it
# reaches the row of that timing (suite's disk -T, disk -t) and no other
mk_results dk.json dk "disk -T=$A" "disk -t=$A"
doctor dk.json dk-busy.json 'd.update(kind="disk", results=[{"device": "/dev/x", "cached": {"runs": [{"other_cpu_pct": 130.0, "window_s": 2.0}]}, "buffered": {"runs": [{"cache_flushed": True, "other_cpu_pct": 0.0, "window_s": 3.0}]}}])'
cp dk-busy.json dk-busy2.json
run "$KBENCH" compare --json dk-busy.json dk-busy2.json
expect_eq "disk -T busy: the -T row carries it, the -t row not" \
    "$(jget "$WORK/out" '[(r["test"], sorted({c["key"] for c in r["files"][0]["caveats"]})) for r in d["rows"]]')" \
    "[('disk -T', ['busy']), ('disk -t', [])]"

# ---- how many runs: what a row could have seen, what "too few" needs ----
# 100..104 both sides.  The U test: 5 and 5 at 0.05 (one test: the
# study's threshold is 0.05) give c = 3 (P(U <= 2) = 4/252), the 3rd and
# 23rd of the 25 differences -3 and +3: +-3 of 102, 2.94%; each run twice:
# c = 24 of 100 differences, -2 and +2: 1.96%.  Welch: s 1.5811, se 1,
# df 8, t 2.3060: +-2.26% of 102; each run twice: s 1.4907, se 0.6667,
# df 18, t 2.1009: +-1.37%.  Every run within 5.1 of every other: the
# same within 5% (each one-sided U test at its floor).
mk_results s5a.json a "load 1=100,101,102,103,104"
mk_results s5b.json b "load 1=104,103,102,101,100"
mk_results s10a.json a "load 1=100,101,102,103,104,100,101,102,103,104"
mk_results s10b.json b "load 1=104,103,102,101,100,104,103,102,101,100"
expect_rc "5 runs a side: same" 0 "$KBENCH" compare s5a.json s5b.json
expect_out_grep "5 runs a side: the same, and the smallest change they could see" '^ +B +5 +102\.0 .*  same \+-5% \(p=1\.000; could see \+-2\.94%\)$'
expect_no_grep "no runs: line for a row with a verdict" "$WORK/out" '^runs: '
run "$KBENCH" compare --json s5a.json s5b.json
d5=$(jget "$WORK/out" 'd["rows"][0]["files"][1]["detectable_change_pct"]')
expect_eq "the JSON says same" "$(jget "$WORK/out" 'd["rows"][0]["files"][1]["verdict"]')" same
run "$KBENCH" compare --json s10a.json s10b.json
d10=$(jget "$WORK/out" 'd["rows"][0]["files"][1]["detectable_change_pct"]')
expect_true "the detectable change: 2.94% with 5 runs a side ($d5)" awk -v x="$d5" 'BEGIN { exit !(x > 2.9411 && x < 2.9412) }'
expect_true "falls to 1.96% with 10 ($d10)" awk -v x="$d10" 'BEGIN { exit !(x > 1.9607 && x < 1.9608) }'
run "$KBENCH" compare --test welch --json s5a.json s5b.json
d5=$(jget "$WORK/out" 'd["rows"][0]["files"][1]["detectable_change_pct"]')
run "$KBENCH" compare --test welch --json s10a.json s10b.json
d10=$(jget "$WORK/out" 'd["rows"][0]["files"][1]["detectable_change_pct"]')
expect_true "Welch: 2.26% with 5 runs a side ($d5)" awk -v x="$d5" 'BEGIN { exit !(x > 2.2605 && x < 2.2612) }'
expect_true "Welch: falls to 1.37% with 10 ($d10)" awk -v x="$d10" 'BEGIN { exit !(x > 1.3728 && x < 1.3734) }'
mk_results f3a.json a "load 1=100,101,102"
mk_results f3b.json b "load 1=300,301,302"
expect_rc "3 runs a side: too few" 0 "$KBENCH" compare f3a.json f3b.json
expect_out_grep "too few: the U test needs 4 a side at 95%" '^runs: load 1 B: too few runs: the U test needs 4 runs a side at 95% \(A has 3, B 3\)$'
expect_rc "3 runs a side at 99%" 0 "$KBENCH" compare --confidence 99 --json f3a.json f3b.json
expect_true "at 99%: 5 a side" test "$(jget "$WORK/out" 'd["rows"][0]["files"][1]["runs_needed_each_side"]')" = 5
expect_rc "3 runs a side, Welch" 0 "$KBENCH" compare --test welch f3a.json s5b.json
expect_no_grep "Welch decides with 3: no too-few line" "$WORK/out" 'too few'

# ---- two clusters: reported with both centres, the verdict stands ----
mk_results bi.json bi "load 1=4400,1000,1010,4390,990"
mk_results bi-a.json base "load 1=1000,1001,1002,1003,1004"
expect_rc "bimodal: exit 0" 0 "$KBENCH" compare bi-a.json bi.json
expect_out_grep "bimodal: both centres beside B" '^ +B +5 +1010\.0 .*  \[caveats: bimodal 1000 \(3 runs\) and 4395 \(2 runs\)\]$'
run "$KBENCH" compare --json bi-a.json bi.json
expect_true "bimodal: --json evidence" test "$(jget "$WORK/out" '(lambda e: (e["low_center"], e["low_runs"], e["high_center"], e["high_runs"]))(d["rows"][0]["files"][1]["caveats"][0]["evidence"])')" = "(1000.0, 3, 4395.0, 2)"
expect_true "bimodal: not A's" test "$(jget "$WORK/out" 'd["rows"][0]["files"][0]["caveats"]')" = "[]"

finish
