#!/bin/sh
# kbench - command-line tests: compare's "same" and "not proven", what each
# row's runs could see, the spread line, --same-within and --fail-on
# not-same, on fixed results files whose outcomes are known
# SPDX-License-Identifier: GPL-3.0-or-later
. "$(dirname "$0")/lib.sh"
cd "$WORK" || exit 1

# load 1: B is A plus 0.2, 8 runs a side, every run within 5.09 (5% of
# A's median 101.75) of every other: each one-sided U test at its floor
# 1/C(16,8) = 1/12870, adjusted over 4 rows: same within 5%.
# load 2: the same center, runs 80..120: not proven.
# load 3: every run of B 20 above A's: better (p = 2/12870).
# load 4: 3 runs a side: too few, nothing it could see.
# load 5: the same median, B's runs ten times as spread: not proven, and
# Brown-Forsythe's q below 0.05: a spread line.
# lat_6 (a micro latency: a 10% margin): two of B's runs 30% up: two
# clusters appear; the spread test cannot prove it with 8 runs.
mk_results a.json a "load 1=100,101,102,103,104,100.5,101.5,102.5" \
    "load 2=80,120,90,110,100,85,115,95" "load 3=100,101,102,103,104,105,106,107" \
    "load 4=100,101,102" "load 5=100,101,99,100.5,99.5,100.2,99.8,100" \
    "lat_6=10.0,10.1,9.9,10.05,9.95,10.02,9.98,10.0"
mk_results b.json b "load 1=100.2,101.2,102.2,103.2,104.2,100.7,101.7,102.7" \
    "load 2=82,118,92,108,102,87,113,97" "load 3=120,121,122,123,124,125,126,127" \
    "load 4=100,101,102" "load 5=100,110,90,105,95,108,92,100" \
    "lat_6=10.0,10.1,9.9,10.05,10.0,10.02,12.98,13.0"

expect_rc "compare" 0 "$KBENCH" compare a.json b.json
expect_out_grep "how same is proven, and the margins" '^same: the change proven within \+-PCT of A.s median by two one-sided tests \(Schuirmann 1987, U tests on the runs\), 4 adjusted together the same way; PCT 10% \(micro latencies\) or 5% \(the rest; --same-within\); else not proven\.'
expect_out_grep "load 1: the same within 5%, and what it could see" '^ +B +8 +102\.0 +102\.0 \+- 1\.12 +\+0\.20%  same \+-5% \(p=0\.721, q=1; could see \+-1\.97%\)$'
expect_out_grep "load 2: not proven, could see 20.51%" '^ +B +8 +99\.50 .* \+2\.05%  not proven \(p=0\.959, q=1; could see \+-20\.51%\)$'
expect_out_grep "load 3: better, and no could-see" '^ +B +8 +123\.5 .* \+19\.32%  better \(p=0\.00016, q=0\.000777\)$'
expect_out_grep "load 4: too few runs" '^ +B +3 +101\.0 .*too few runs for the U test at 95% \(3 and 3: p >= 0\.1\)$'
expect_out_grep "load 5: not proven" '^ +B +8 +100\.0 +100\.0 \+- 6\.14 .*not proven \(p=1\.000, q=1; could see \+-8\.50%\)$'
expect_out_grep "load 5: its spread widened, on a line of its own" '^spread: load 5 B: CoV 0\.61% -> 7\.35% \(x12\.10\), Brown-Forsythe p=0\.00228, q=0\.0137: wider$'
expect_out_grep "lat_6: two clusters appeared, the test not proven" '^spread: lat_6 B: CoV 0\.61% -> 12\.83% \(x21\.13\), Brown-Forsythe p=0\.145, q=0\.436: not proven; two clusters appeared$'
expect_lines "no spread line for the rows whose spread held" -eq 2 "$WORK/out" '^spread: '

run "$KBENCH" compare --json a.json b.json
cp "$WORK/out" j.json
expect_py "--json: verdict, detectable_change_pct, same, spread" j.json <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
assert (d["same_within_pct"], d["same_tests_adjusted"], d["spread_tests_adjusted"]) == (None, 4, 6), d
rows = {r["test"]: r["files"][1] for r in d["rows"]}
want = {"load 1": "same", "load 2": "not_proven", "load 3": "better", "load 4": "too_few_runs",
        "load 5": "not_proven", "lat_6": "not_proven"}
assert {t: f["verdict"] for t, f in rows.items()} == want, rows
# every row that is not a proven change says what it could see (null: nothing)
assert "detectable_change_pct" not in rows["load 3"]
assert rows["load 4"]["detectable_change_pct"] is None
assert abs(rows["load 1"]["detectable_change_pct"] - 1.9656019656) < 1e-9
assert abs(rows["load 2"]["detectable_change_pct"] - 20.5128205128) < 1e-9
assert abs(rows["load 5"]["detectable_change_pct"] - 8.5) < 1e-9
# the two one-sided tests: at the floor 1/12870, adjusted over 4
s = rows["load 1"]["same"]
assert s["within_pct"] == 5 and abs(s["p"] - 1 / 12870) < 1e-12, s
assert abs(s["p_adjusted"] - 4 / 12870) < 1e-12, s
assert rows["lat_6"]["same"]["within_pct"] == 10
assert rows["load 5"]["spread"]["changed"] and not rows["load 1"]["spread"]["changed"]
assert rows["lat_6"]["spread"]["two_clusters"] and not rows["lat_6"]["spread"]["two_clusters_a"]
# 3 runs a side are tested for spread too: the same runs, p 1
assert rows["load 4"]["spread"]["p"] == 1 and not rows["load 4"]["spread"]["changed"]
EOF

expect_rc "lkml" 0 "$KBENCH" compare --style lkml a.json b.json
expect_out_grep "lkml: same, with what it could see" '^load 1 \(MB/s\) \|\| 101\.8 -> 102\.0 \+0\.20% same \+-5% \(could see \+-1\.97%\)$'
expect_out_grep "lkml: not-proven, one word" '^load 2 \(MB/s\) \|\| 97\.50 -> 99\.50 \+2\.05% not-proven \(could see \+-20\.51%\)$'

# --same-within: a margin smaller than the runs can prove
expect_rc "--same-within 0.1" 0 "$KBENCH" compare --same-within 0.1 a.json b.json
expect_out_grep "--same-within 0.1: load 1 not proven" '^ +B +8 +102\.0 .*  not proven \(p=0\.721, q=1; could see \+-1\.97%\)$'
expect_no_grep "--same-within 0.1: nothing same" "$WORK/out" ' same \+-'
expect_bad "--same-within abc" '^kbench compare: --same-within abc: give a percentage above 0' \
    "$KBENCH" compare --same-within abc a.json b.json
expect_bad "--same-within 0" '^kbench compare: --same-within 0: give a percentage above 0' \
    "$KBENCH" compare --same-within 0 a.json b.json

# --fail-on not-same: every row but load 1 fails it, too few runs too
expect_rc "--fail-on not-same: exit 4" 4 "$KBENCH" compare --fail-on not-same a.json b.json
expect_err_grep "--fail-on not-same: a not-proven row named, with what it could see" '^gate: load 2 B: not_proven \+2\.05% \(adjusted p 1\) \(could see \+-20\.51%\)$'
expect_err_grep "--fail-on not-same: a change is not the same either" '^gate: load 3 B: better \+19\.32% \(adjusted p 0\.000777\)$'
expect_err_grep "--fail-on not-same: too few runs fail it" '^gate: load 4 B: too_few_runs \+0\.00% \(could see no change\)$'
expect_err_grep "--fail-on not-same: the outcome" '^gate: failed: 5 rows not proven the same; 0 not comparable'
mk_results a1.json a "load 1=100,101,102,103,104,100.5,101.5,102.5"
mk_results b1.json b "load 1=100.2,101.2,102.2,103.2,104.2,100.7,101.7,102.7"
expect_rc "--fail-on not-same: all the same, exit 0" 0 "$KBENCH" compare --fail-on not-same a1.json b1.json
expect_err_grep "--fail-on not-same: passed" '^gate: passed: 0 rows not proven the same; '
expect_rc "--fail-on not-same --same-within 0.1: exit 4" 4 "$KBENCH" compare --fail-on not-same --same-within 0.1 a1.json b1.json

# Welch: the 90% interval of the difference, 0.2 +- 1.26 (t 1.761, se
# 0.669), lies inside +-5.09; one test: t(0.975, 14) 2.1448 x 0.669 =
# 1.435, 1.41% of the mean 101.75
expect_rc "--test welch" 0 "$KBENCH" compare --test welch a1.json b1.json
expect_out_grep "Welch: same within 5%, could see 1.41%" '^ +B +8 +102\.0 .*  same \+-5% \(p=0\.77; could see \+-1\.41%\)$'
finish
