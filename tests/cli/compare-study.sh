#!/bin/sh
# kbench - command-line tests: a study's verdicts across many rows.
# Synthetic results files (a seeded generator, so every count below is
# the same at every run): A/A studies of 80 tests, 6 runs a side, both
# files drawn from one distribution, and a study where 8 of 80 tests
# moved by 4 standard deviations; compare's adjustment (--adjust), the
# gate (--fail-on, --min-change) and its exit statuses, a not-comparable
# row under the gate, the ties case of the exact U test.
# SPDX-License-Identifier: GPL-3.0-or-later
. "$(dirname "$0")/lib.sh"
cd "$WORK" || exit 1

# gen PREFIX STUDIES SHIFTED SEED: STUDIES pairs PREFIX-N-a.json and
# PREFIX-N-b.json of 80 tests "t01" .. "t80" (MB/s, higher is better), 6
# runs each from a normal distribution (mean 1000, sd 10, rounded to
# 0.001: no ties); in B the first SHIFTED tests are 4 sd higher.
gen() {
    python3 - "$@" <<'EOF'
import json, random, sys
prefix, studies, shifted, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
rng = random.Random(seed)
def doc(label, tests):
    return {"kbench_version": "0.1.0", "kind": "suite", "time": "2026-01-01T00:00:00Z",
            "schema": 1, "label": label, "command": ["kbench", "suite"], "cwd": "/",
            "params": {"timelimit_s": 60.0},
            "system": {"kernel": label, "hostname": "h", "machine": "x86_64", "cpu_model": "cpu"},
            "started": "2026-01-01T00:00:00Z", "finished": True, "done": {}, "failures": [],
            "tests": tests}
def test(name, values):
    return {"name": name, "params": {"command": "micro"}, "unit": "MB/s",
            "higher_is_better": True,
            "runs": [{"value": v, "started": "2026-01-01T00:00:00Z", "seconds": 1.0,
                      "document": {}} for v in values]}
for s in range(1, studies + 1):
    for side in "ab":
        tests = []
        for i in range(1, 81):
            up = 40 if side == "b" and i <= shifted else 0
            tests.append(test("t%02d" % i, [round(rng.gauss(1000 + up, 10), 3) for _ in range(6)]))
        json.dump(doc(side, tests), open("%s-%d-%s.json" % (prefix, s, side), "w"))
EOF
}

# ---- 20 A/A studies: before and after the adjustment ----
gen aa 20 0 37
for s in $(seq 1 20); do
    for how in none bh holm; do
        "$KBENCH" compare --json --adjust $how "aa-$s-a.json" "aa-$s-b.json" >"aa-$s-$how.out" ||
            fail "A/A study $s --adjust $how: exit status $?"
    done
done
# for each adjustment: the studies with any better or worse, and the rows
counts=$(python3 -c 'import json, sys
for how in ("none", "bh", "holm"):
    n = [sum(f.get("verdict") in ("better", "worse") for r in json.load(open("aa-%d-%s.out" % (s, how)))["rows"]
             for f in r["files"][1:]) for s in range(1, 21)]
    print(sum(x > 0 for x in n), sum(n), end=" ")')
set -- $counts
none=$1 bh=$3 holm=$5
echo "A/A, 20 studies of 80 tests, 6 runs a side: studies (rows) with a better/worse:" \
    "none $1 ($2), bh $3 ($4), holm $5 ($6)"
expect_true "A/A without adjustment: the false alarms are there to remove (>= 10 studies)" \
    test "$none" -ge 10
expect_true "A/A, Benjamini-Hochberg (the default): at most 3 of 20 studies flag anything" \
    test "$bh" -le 3
expect_true "A/A, Holm: at most 3 of 20 studies flag anything" test "$holm" -le 3
expect_py "A/A: the JSON carries the adjustment, each row's p and adjusted p" aa-1-bh.out <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["adjust"] == "bh" and d["tests_adjusted"] == 80, (d["adjust"], d["tests_adjusted"])
for r in d["rows"]:
    b = r["files"][1]
    assert b["p_adjusted"] >= b["p"], b
# no change: every row is too few runs under BH (a lone 2/924 times 80 is
# above 0.05) or "same"
assert all(r["files"][1]["verdict"] in ("same", "too_few_runs") for r in d["rows"])
EOF

# the text: the line above the table, a row undecidable at its run count
expect_rc "A/A study 1 as text" 0 "$KBENCH" compare aa-1-a.json aa-1-b.json
expect_out_grep "the line above the table: 80 tests, Benjamini-Hochberg" \
    '^80 tests \(every row and file against A\) adjusted together by Benjamini-Hochberg \(--adjust bh\): a verdict needs q < 0\.05'
expect_out_grep "6 runs a side under BH over 80: undecidable, said" \
    'too few runs for Benjamini-Hochberg over 80 tests at 95% \(6 and 6: p >= 0\.0022, q >= 0\.17\)$'
expect_out_grep "runs needed under the adjustment: 7 a side (2/3432 x 80 < 0.05)" \
    '^runs: (t[0-9]+ |[0-9]+ tests )B: too few runs: the U test needs 7 runs a side at 95% under Benjamini-Hochberg \(A has 6, B 6(, each)?\)'
expect_rc "A/A study 1, --adjust none" 0 "$KBENCH" compare --adjust none aa-1-a.json aa-1-b.json
expect_out_grep "none: said above the table" \
    '^80 tests, each on its own at 95% \(--adjust none\): about 1 in 20 unchanged rows reads better or worse$'
expect_no_grep "none: no adjusted p in the cells" "$WORK/out" 'q='

# ---- 8 of 80 tests moved by 4 sd ----
gen sh 1 8 41
expect_rc "shifted study" 0 "$KBENCH" compare --json sh-1-a.json sh-1-b.json
expect_py "shifted: at least 7 of the 8 flagged better, and no other test" "$WORK/out" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
hit = {r["test"] for r in d["rows"] if r["files"][1]["verdict"] in ("better", "worse")}
moved = {"t%02d" % i for i in range(1, 9)}
assert hit <= moved, sorted(hit - moved)
assert len(hit) >= 7, sorted(hit)
assert all(r["files"][1]["verdict"] == "better" for r in d["rows"] if r["test"] in hit)
EOF
expect_rc "shifted study as text" 0 "$KBENCH" compare sh-1-a.json sh-1-b.json
expect_out_grep "a flagged row shows p and q" '^ +B +6 .*  better \(p=0\.00[0-9], q=0\.0[0-9]+\)$'
cp "$WORK/out" shifted.txt
# the lkml lines: only what passes the adjusted test is "better"
expect_rc "shifted study, --style lkml" 0 "$KBENCH" compare --style lkml sh-1-a.json sh-1-b.json
expect_lines "lkml: the moved tests alone read better" -eq "$(grep -c '  better (p=' shifted.txt)" "$WORK/out" '^t0[1-8] \(MB/s\) \|\| .* better$'
expect_no_grep "lkml: no other test reads better or worse" "$WORK/out" '^t([1-7][0-9]|80|09) .*(better|worse)$'

# ---- the gate ----
# B worse: the moved tests the other way round (A is the higher)
expect_rc "--fail-on worse: B worse, status 4" 4 "$KBENCH" compare --fail-on worse sh-1-b.json sh-1-a.json
expect_err_grep "--fail-on: a line per row that trips it" '^gate: t0[1-8] B: worse -[0-9.]+% \(adjusted p 0\.0[0-9]+\)$'
expect_err_grep "--fail-on: the outcome" '^gate: failed: [78] rows proven worse; 0 not comparable \(status 3 unless the gate failed\), [0-9]+ with too few runs to judge$'
expect_rc "--fail-on worse: B better, status 0" 0 "$KBENCH" compare --fail-on worse sh-1-a.json sh-1-b.json
expect_err_grep "--fail-on: passed, said" '^gate: passed: 0 rows proven worse; '
expect_rc "--fail-on change: B better, status 4" 4 "$KBENCH" compare --fail-on change sh-1-a.json sh-1-b.json
expect_rc "--min-change 10: a 4% move does not trip it" 0 "$KBENCH" compare --fail-on worse --min-change 10 sh-1-b.json sh-1-a.json
expect_err_grep "--min-change: the smaller ones counted" '^gate: passed: 0 rows proven worse by 10% or more \([78] smaller\); '
expect_rc "--min-change 1: a 4% move trips it" 4 "$KBENCH" compare --fail-on worse --min-change 1 sh-1-b.json sh-1-a.json
expect_rc "--fail-on with --json: the JSON stands, status 4" 4 "$KBENCH" compare --json --fail-on worse sh-1-b.json sh-1-a.json
expect_py "--fail-on with --json: stdout is the document" "$WORK/out" <<'EOF'
import json, sys
assert json.load(open(sys.argv[1]))["kind"] == "compare"
EOF
expect_rc "no --fail-on: the same files, status 0" 0 "$KBENCH" compare sh-1-b.json sh-1-a.json
expect_empty_file "no --fail-on: no gate lines" "$WORK/err"

# a not-comparable row: B's runs of t80 carry errors
python3 - sh-1-a.json nc-b.json <<'EOF'
import json, sys
f = json.load(open(sys.argv[1]))
for t in f["tests"]:
    if t["name"] == "t80":
        for r in t["runs"]:
            r["document"] = {"kbench_version": "0.1.0", "kind": "load",
                             "system": {"kernel": "k1", "hostname": "h"}, "results": {"errors": 3}}
json.dump(f, open(sys.argv[2], "w"))
EOF
expect_rc "a not-comparable row, no change: status 3 (neither pass nor fail)" 3 \
    "$KBENCH" compare --fail-on worse sh-1-a.json nc-b.json
expect_err_grep "the gate counts it" '^gate: passed: 0 rows proven worse; 1 not comparable \(status 3 unless the gate failed\)'
python3 - sh-1-b.json nc-a.json <<'EOF'
import json, sys
f = json.load(open(sys.argv[1]))
for t in f["tests"]:
    if t["name"] == "t80":
        for r in t["runs"]:
            r["document"] = {"kbench_version": "0.1.0", "kind": "load",
                             "system": {"kernel": "k1", "hostname": "h"}, "results": {"errors": 3}}
json.dump(f, open(sys.argv[2], "w"))
EOF
expect_rc "a not-comparable row and a worse one: status 4" 4 \
    "$KBENCH" compare --fail-on worse nc-a.json sh-1-a.json

# bad input
expect_bad "--adjust bonferroni" '^kbench compare: --adjust bonferroni: give bh, holm or none \(see' \
    "$KBENCH" compare --adjust bonferroni sh-1-a.json sh-1-b.json
expect_bad "--fail-on better" '^kbench compare: --fail-on better: give worse, change or not-same \(see' \
    "$KBENCH" compare --fail-on better sh-1-a.json sh-1-b.json
expect_bad "--min-change without --fail-on" 'give --fail-on too \(see' \
    "$KBENCH" compare --min-change 5 sh-1-a.json sh-1-b.json
expect_bad "--min-change -1" '^kbench compare: --min-change -1: give a percentage from 0 \(see' \
    "$KBENCH" compare --fail-on worse --min-change -1 sh-1-a.json sh-1-b.json
expect_bad "--fail-on with --style runs" 'leave out --style runs \(see' \
    "$KBENCH" compare --fail-on worse --style runs sh-1-a.json sh-1-b.json

# ---- ties: 10 10 10 20 against 20 30 30 30 is p = 4/70, no verdict ----
mk_results ta.json a "disk -T=10,10,10,20"
mk_results tb.json b "disk -T=20,30,30,30"
expect_rc "ties: compare" 0 "$KBENCH" compare ta.json tb.json
expect_out_grep "ties: the exact p 4/70 = 0.057, no verdict at 95%" '^ +B +4 .*  not proven \(p=0\.057; could see \+-100\.00%\)$'

# ---- settings that differ: named on the row; another backend not comparable ----
mk_results pa.json a "load 1=100,101,102,103,104" "disk -T=5,6,7,8,9"
mk_results pb.json b "load 1=90,91,92,93,94" "disk -T=5,6,7,8,9"
python3 -c 'import json
d = json.load(open("pb.json")); d["params"]["fsync"] = True; json.dump(d, open("pf.json", "w"))
d["params"]["backend"] = "sockio"; json.dump(d, open("ps.json", "w"))'
expect_rc "fsync against none: compared" 0 "$KBENCH" compare pa.json pf.json
expect_out_grep "fsync: named on the load row, the verdict stands" \
    '^ +B +5 +92\.00 .*  worse \(p=0\.008, q=0\.0159\)  \[caveats: params_differ fsync\]$'
expect_out_grep "fsync: not on the disk row (load's setting)" '^ +B +5 +7\.00 .*not proven \(p=1\.000, q=1; could see \+-42\.86%\)$'
expect_rc "sockio against fileio: status 3" 3 "$KBENCH" compare pa.json ps.json
expect_out_grep "another backend: not comparable" \
    '^ +B +5 +92\.00 .*  not comparable: other_backend \(B.s series\)  \[caveats: other_backend\*, params_differ fsync backend\]$'
run "$KBENCH" compare --json pa.json ps.json
expect_py "--json: each differing setting with both values" "$WORK/out" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
b = d["rows"][0]["files"][1]
cav = {c["key"]: c["evidence"] for c in b["caveats"]}
assert b["verdict"] == "not_comparable", b["verdict"]
assert cav["params_differ"] == {"fsync": {"A": None, "B": True},
                                "backend": {"A": "fileio", "B": "sockio"}}, cav
assert d["rows"][1]["files"][1]["caveats"] == [], d["rows"][1]
EOF

# ---- a control: A run again after the others ----
# drift: A' (dc-1-b) and B (dr-1-b) both 4 sd above A (dr-1-a) on every
# test: B's change against A is none against A'
gen dr 1 80 43
gen dc 1 80 44
expect_rc "drift: A' and B moved together: status 3" 3 \
    "$KBENCH" compare --json --control dc-1-b.json dr-1-a.json dr-1-b.json
expect_py "drift: no better or worse; the rows carry drift, B against A' and A' against A" "$WORK/out" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["control"] == "dc-1-b.json", d["control"]
v = [r["files"][1]["verdict"] for r in d["rows"]]
assert not [x for x in v if x in ("better", "worse")], v
drift = [c for r in d["rows"] for c in r["files"][1]["caveats"] if c["key"] == "drift"]
assert len(drift) >= 76, len(drift)
assert all(r["files"][1]["not_comparable"] == {"caveat": "drift", "in": "B"}
           for r in d["rows"] if r["files"][1]["verdict"] == "not_comparable")
assert all(c["evidence"]["control"] == "dc-1-b.json" and 2 < c["evidence"]["control_change_pct"] < 6
           and abs(c["evidence"]["change_pct"]) < 2 and c["evidence"]["p_adjusted"] >= 0.05
           for c in drift), drift[:2]
print("rows with drift:", len(drift))
EOF
expect_rc "drift: the same without a control reads as change" 0 \
    "$KBENCH" compare dr-1-a.json dr-1-b.json
expect_out_grep "drift: without a control, said once above the table" \
    '^no control \(--control FILE, A run again after the others\): a drift of the machine between the series would read as a change$'
expect_lines "drift: ... and every moved row reads better" -ge 76 "$WORK/out" '  better \(p='
# no drift: A' (dc-1-a) like A; B (sh-1-b) moved 8 of 80
expect_rc "no drift: A' like A" 0 "$KBENCH" compare --json --control dc-1-a.json sh-1-a.json sh-1-b.json
expect_py "no drift: B's real moves still found, and no other" "$WORK/out" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
hit = {r["test"] for r in d["rows"] if r["files"][1]["verdict"] in ("better", "worse")}
moved = {"t%02d" % i for i in range(1, 9)}
assert hit <= moved and len(hit) >= 7, sorted(hit)
EOF
expect_rc "--control as text" 0 "$KBENCH" compare --control dc-1-a.json sh-1-a.json sh-1-b.json
expect_out_grep "--control: said above the table" '^control: dc-1-a\.json \(A run again\): a row where it differs from A carries drift and gets no verdict$'
expect_bad "--control with --by" '^kbench compare: --control is A run again: leave out --by' \
    "$KBENCH" compare --by mem --control dc-1-a.json sh-1-a.json

finish
