#!/bin/sh
# kbench - command-line tests: compare's robust verdicts (medians and the
# Mann-Whitney U test against Welch, p-values checked with scipy), --by,
# pairing "load 5" with "load 5 mem=none", tests in one file only, nothing
# in common, --json
# SPDX-License-Identifier: GPL-3.0-or-later
. "$(dirname "$0")/lib.sh"
cd "$WORK" || exit 1

# ---- the U test and Welch disagree: hand-made files ----
# lat_pipe: one wild run of B (58.2 us) puts B's mean far off and its
# spread with it; every run of B is above every run of A, so U says worse
# (p = 2/252) while Welch sees no proven change.  load 3: three runs a
# side, far apart: Welch proves it, the U test cannot reach 95% with three
# (its smallest p is 0.1) and says so.  load 6: ties, the normal
# distribution over the choices of B's runs, ties kept (p = 0.043).
mk_results ua.json old "lat_pipe=1.87,1.90,1.92,1.95,1.89" "load 3=100,101,102" \
    "load 6=10,10,10,11,11,11"
mk_results ub.json new "lat_pipe=2.08,2.09,2.10,2.11,58.2" "load 3=110,111,112" \
    "load 6=11,11,11,12,12,12"
expect_rc "compare, the default test" 0 "$KBENCH" compare ua.json ub.json
expect_out_grep "the table says the U test was used" '^95% confidence: the change of the median against A; verdict by the Mann-Whitney U test'
expect_out_grep "U: a latency whose runs all rose is worse" '^ +B +5 +2\.10 +.* +\+10\.53%  worse \(p=0\.008, q=0\.0159\)$'
expect_out_grep "U: three runs a side cannot reach 95%" '^ +B +3 +111\.0 +.*too few runs for the U test at 95% \(3 and 3: p >= 0\.1\)$'
expect_rc "compare --test welch" 0 "$KBENCH" compare --test welch ua.json ub.json
expect_out_grep "the table says Welch was used" "verdict by Welch's t-test \(--test welch\)$"
expect_out_grep "Welch: the wild run hides the change, and says how much it hides" '^ +B +5 +2\.10 +13\.32 .* not proven \(p=0\.37, q=0\.367; could see \+-1634\.55%\)$'
expect_out_grep "Welch: three runs a side far apart are better" '^ +B +3 +111\.0 .*better: \+10\.00 '
expect_rc "--json --test utest" 0 "$KBENCH" compare --json --test utest ua.json ub.json
cp "$WORK/out" u.json
expect_rc "--json --test welch" 0 "$KBENCH" compare --json --test welch ua.json ub.json
cp "$WORK/out" w.json

# scipy: from Debian's python3-scipy, which may not be the python3 in PATH
SCIPY_PY=
for py in python3 /usr/bin/python3; do
    if "$py" -c 'import scipy.stats' 2>/dev/null; then SCIPY_PY=$py; break; fi
done
if [ -n "$SCIPY_PY" ]; then
    if "$SCIPY_PY" - u.json w.json ua.json ub.json >"$WORK/py.out" 2>&1 <<'EOF'
import json, sys
from itertools import combinations
from scipy.stats import mannwhitneyu, ttest_ind
u, w = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
fa, fb = (json.load(open(p)) for p in sys.argv[3:5])
runs = lambda f, n: [r["value"] for t in f["tests"] if t["name"] == n for r in t["runs"]]
want = {"lat_pipe": ("worse", "not_proven"), "load 3": ("too_few_runs", "better"),
        "load 6": ("better", "better")}
assert u["test"] == "utest" and w["test"] == "welch", (u["test"], w["test"])
for ru, rw in zip(u["rows"], w["rows"]):
    name = ru["test"]
    a, b = runs(fa, name), runs(fb, name)
    cu, cw = ru["files"][1], rw["files"][1]
    ties = len(set(a + b)) < len(a + b)
    m = mannwhitneyu(b, a, alternative="two-sided", method="exact")
    assert abs(cu["u"] - m.statistic) < 1e-9, (name, cu["u"], m.statistic)
    pv = m.pvalue
    if ties:
        # scipy's "exact" ignores ties: count every choice of b's runs
        pool, nb = a + b, len(b)
        us = [sum((x > y) + 0.5 * (x == y) for x in pick for y in
                  [pool[i] for i in range(len(pool)) if i not in idx])
              for idx in combinations(range(len(pool)), nb)
              for pick in [[pool[i] for i in idx]]]
        lo = sum(v <= m.statistic + 1e-9 for v in us) / len(us)
        hi = sum(v >= m.statistic - 1e-9 for v in us) / len(us)
        pv = min(1, 2 * min(lo, hi))
    assert abs(cu["p"] - pv) < 1e-9 * max(1, pv), (name, cu["p"], pv)
    assert cu["p_exact"], name
    t = ttest_ind(b, a, equal_var=False)
    assert abs(cw["p"] - t.pvalue) < 1e-6, (name, cw["p"], t.pvalue)
    assert (cu["verdict"], cw["verdict"]) == want[name], (name, cu["verdict"], cw["verdict"])
    print(name, "U", m.statistic, "p", m.pvalue, "welch p", t.pvalue)
EOF
    then pass "U and Welch p-values and verdicts as scipy computes them"
    else fail "U and Welch p-values and verdicts as scipy computes them" "$(head -c 2000 "$WORK/py.out")"; fi
else
    skip "p-values against scipy (python3-scipy not installed)"
fi
expect_py "--json: the verdicts differ as the fixture means" u.json w.json <<'EOF'
import json, sys
u, w = (json.load(open(p)) for p in sys.argv[1:3])
v = lambda d, n: [r for r in d["rows"] if r["test"] == n][0]["files"][1]["verdict"]
assert (v(u, "lat_pipe"), v(w, "lat_pipe")) == ("worse", "not_proven")
assert (v(u, "load 3"), v(w, "load 3")) == ("too_few_runs", "better")
EOF
expect_py "--json: medians, changes of the median, the runs" u.json <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["kind"] == "compare" and d["confidence_pct"] == 95 and d["change_of"] == "median"
r = [r for r in d["rows"] if r["test"] == "lat_pipe"][0]
assert r["unit"] == "us" and r["higher_is_better"] is False
a, b = r["files"]
assert a["file"] == "A" and b["file"] == "B" and a["median"] == 1.90 and b["median"] == 2.10
assert abs(b["change_pct"] - 100 * (2.10 - 1.90) / 1.90) < 1e-9
assert b["runs"] == [2.08, 2.09, 2.10, 2.11, 58.2] and b["n"] == 5
assert abs(b["mean"] - 13.316) < 1e-9 and b["p_min"] == 2 / 252
assert b["median_ci"] is None        # five runs cannot give one at 95%
assert abs(b["shift"] - 0.20) < 1e-9 and abs(b["shift_ci"][0] - 0.15) < 1e-9
assert abs(b["shift_ci"][1] - 56.3) < 1e-9   # the differences ranked 3 and 23 of 25
EOF
expect_py "--json: Welch's interval of the difference" w.json <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["change_of"] == "mean"
r = [r for r in d["rows"] if r["test"] == "load 3"][0]["files"][1]
assert r["diff"] == 10 and 0 < r["diff_ci_half"] < 10 and r["verdict"] == "better"
EOF
mk_results ci.json six "load 1=6,1,5,2,4,3"
mk_results ci2.json six "load 1=6,1,5,2,4,3"
expect_rc "--json: a median's interval from six runs" 0 "$KBENCH" compare --json ci.json ci2.json
expect_true "[x(1), x(6)] at 95%" test "$(jget "$WORK/out" 'd["rows"][0]["files"][0]["median_ci"]')" = "[1.0, 6.0]"
expect_rc "lkml, U test" 0 "$KBENCH" compare --style lkml ua.json ub.json
expect_out_grep "lkml: medians, the verdict beside the change" '^lat_pipe \(us, lower is better\) \|\| 1\.90 -> 2\.10 \+10\.53% worse$'
expect_out_grep "lkml: no verdict: the too-few-runs mark, never a bare change" '^load 3 \(MB/s\) \|\| 101\.0 -> 111\.0 \+9\.90% too-few-runs$'
expect_out_grep "lkml: the mark explained in words" '^\(too-few-runs: with so few runs even the clearest difference could not be proven'
expect_out_grep "lkml: says what it used" '^\(medians of each; the verdict, when the runs allow one, by the Mann-Whitney U test at 95%: better, worse, same \+-PCT \(proven within it\), not-proven; could see: the smallest change the runs could have proven\)$'
expect_bad "--test bad" '^kbench compare: --test ttest: give utest or welch' "$KBENCH" compare --test ttest ua.json ub.json
expect_bad "--json with lkml" '^kbench compare: --json prints the comparison alone: leave out --style lkml' "$KBENCH" compare --json --style lkml ua.json ub.json

# ---- pairing: "load 5" is "load 5 mem=none"; one file only; nothing in common ----
mk_results pa.json nolimit "load 5=10,11,12,13,14" "disk -T=100,101,102" "only_a=1,2,3"
mk_results pb.json limits "load 5 mem=none=10,11,12,13,14" "load 5 mem=32M=5,6,7,8,9" \
    "disk -T mem=none=100,101,102" "disk -T mem=32M=50,51,52" "only_bc=1,2,3"
mk_results pc.json three "load 5=20,21,22,23,24" "only_bc=1,2,3"
expect_rc "load 5 against load 5 mem=none" 0 "$KBENCH" compare pa.json pb.json
expect_out_grep "load 5 paired with load 5 mem=none" '^ +B +5 +12\.00 +12\.00 \+- .* +\+0\.00%  not proven \(p=1\.000; could see \+-25\.00%\)$'
expect_no_grep "no limit and mem=none are not limits that differ" "$WORK/out" 'memory limits differ'
expect_out_grep "the other limit only in B" '^  B  load 5 mem=32M \(MB/s\), 5 runs: only in B$'
expect_out_grep "disk -T paired with disk -T mem=none" '^disk -T +MiB/s +A +3 +101\.0 '
expect_out_grep "a test of A alone: only in A" '^  A  only_a \(MB/s\), 3 runs: only in A$'
expect_rc "three files" 0 "$KBENCH" compare pa.json pb.json pc.json
expect_out_grep "a test of B and C but not A" '^  B  only_bc \(MB/s\), 3 runs: in B and C, not in A \(the baseline\)$'
expect_out_grep "and of C" '^  C  only_bc \(MB/s\), 3 runs: in B and C, not in A \(the baseline\)$'
expect_rc "--json: not compared" 0 "$KBENCH" compare --json pa.json pb.json pc.json
expect_py "--json lists what was not compared" "$WORK/out" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
left = {(e["file"], e["test"]): e for e in d["not_compared"]}
assert left[("A", "only_a")]["only_in_this_file"] is True
assert left[("B", "only_bc")]["also_in"] == "C" and left[("C", "only_bc")]["also_in"] == "B"
assert [f["file"] for f in d["files"]] == ["A", "B", "C"]
EOF
mk_results none-a.json x "load 1=1,2,3"
mk_results none-b.json y "load 2=1,2,3"
expect_rc "nothing in common: exit 1" 1 "$KBENCH" compare --plot none.svg none-a.json none-b.json
expect_err_grep "nothing in common: says why" '^kbench compare: no test of A \(none-a\.json\) is in B: nothing to compare: their tests differ in name or unit \(A: load 1, B: load 2, \.\.\.\)$'
expect_out_grep "nothing in common: each file's tests listed" '^  B  load 2 \(MB/s\), 3 runs: only in B$'
expect_true "nothing in common: no chart" test ! -e none.svg
expect_rc "nothing in common, --json: exit 1" 1 "$KBENCH" compare --json none-a.json none-b.json

# ---- the device's settings differ: said ----
mk_results ra.json a "disk -t=100,101,102,103,104"
mk_results rb.json b "disk -t=90,91,92,93,94"
python3 - <<'EOF'
import json
for path, ra in (("ra.json", 128), ("rb.json", 4096)):
    d = json.load(open(path))
    d["tests"][0]["params"] = {"command": "disk", "test": "buffered", "device": "/dev/sdb",
                               "device_info": {"read_ahead_kb": ra, "scheduler": "none"}}
    json.dump(d, open(path, "w"))
EOF
expect_rc "compare disks with other settings" 0 "$KBENCH" compare ra.json rb.json
expect_out_grep "a read-ahead that differs is said" '^note: disk -t: the device.s read_ahead_kb differs: A 128, B 4096$'
expect_no_grep "the same scheduler is not" "$WORK/out" 'scheduler differs'

# ---- --by mem: one file compared within itself ----
mk_results by.json both "@mem_limits=none,32M" "load 1 mem=32M=5,6,7,8,9" \
    "load 1 mem=none=10,11,12,13,14" "disk -T mem=32M=50,51,52,53,54" \
    "disk -T mem=none=100,101,102,103,104" "plain=1,2,3"
expect_rc "--by mem" 0 "$KBENCH" compare --by mem by.json
expect_out_grep "--by: the first value of mem_limits is A" '^A  by\.json mem=none: label both'
expect_out_grep "--by: the second is B" '^B  by\.json mem=32M: label both'
expect_out_grep "--by: load 1 at 32M against none" '^load 1 +MB/s +A +5 +12\.00 '
expect_out_grep "--by: its change and verdict" '^ +B +5 +7\.00 +7\.00 .* -41\.67%  worse \(p=0\.008, q=[0-9.]+\)$'
expect_out_grep "--by: disk -T too" '^disk -T +MiB/s +A +5 +102\.0 '
expect_rc "--by mem --json" 0 "$KBENCH" compare --by mem --json by.json
expect_py "--by --json: two files, the rows without the dimension" "$WORK/out" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
assert [f["path"] for f in d["files"]] == ["by.json mem=none", "by.json mem=32M"], d["files"]
assert sorted(r["test"] for r in d["rows"]) == ["disk -T", "load 1"]
EOF
mk_results by1.json one "load 1 mem=32M=5,6,7"
expect_rc "--by with one value: exit 1" 1 "$KBENCH" compare --by mem by1.json
expect_err_grep "--by with one value: says why" '^kbench compare: --by mem: by1\.json holds 1 value of mem .*nothing to compare$'
expect_bad "--by with two files" '^kbench compare: --by mem compares one results file within itself: give one' "$KBENCH" compare --by mem by.json by1.json
expect_bad "--by another dimension" '^kbench compare: --by clients: give mem' "$KBENCH" compare --by clients by.json

# ---- files that disagree on what a test is: no verdict, named ----
# B's "load 5" says lower is better, or is in us, or ran 7 clients: each
# is another test under the same name, and a 50% drop must not read as a
# change (nor pass --fail-on)
mk_results da.json a "load 5=100,101,102,103,104"
for how in hib unit clients; do
    mk_results "db-$how.json" b "load 5=50,51,52,53,54"
    python3 - "db-$how.json" "$how" <<'EOF2'
import json, sys
d = json.load(open(sys.argv[1]))
t = d["tests"][0]
if sys.argv[2] == "hib": t["higher_is_better"] = False
if sys.argv[2] == "unit": t["unit"] = "us"
if sys.argv[2] == "clients": t["params"]["clients"] = 7
json.dump(d, open(sys.argv[1], "w"))
EOF2
done
expect_rc "another direction: not comparable, status 3" 3 "$KBENCH" compare --fail-on worse da.json db-hib.json
expect_out_grep "another direction: named" '^ +B +5 +52\.00 .*  not comparable: the files disagree on what the test is \(higher_is_better: A true, B false\)  \[caveats: test_differs\*\]$'
expect_err_grep "another direction: the gate names the row" '^gate: load 5 B: not comparable: the files disagree on what the test is \(higher_is_better: A true, B false\)$'
expect_no_grep "another direction: no verdict" "$WORK/out" '(better|worse) \(p='
expect_rc "another unit: not comparable, status 3" 3 "$KBENCH" compare --fail-on change da.json db-unit.json
expect_out_grep "another unit: one row, named, no change" '^ +B +5 +52\.00 .* n/a  not comparable: the files disagree on what the test is \(unit: A "MB/s", B "us"\)'
expect_no_grep "another unit: not two tests apart" "$WORK/out" 'only in'
expect_rc "other clients: not comparable, status 3" 3 "$KBENCH" compare da.json db-clients.json
expect_out_grep "other clients: named" 'not comparable: the files disagree on what the test is \(clients: A 5, B 7\)'
expect_rc "--json: not comparable" 3 "$KBENCH" compare --json da.json db-unit.json
expect_py "--json: the verdict, the evidence, no p of mixed units" "$WORK/out" <<'EOF2'
import json, sys
d = json.load(open(sys.argv[1]))
b = d["rows"][0]["files"][1]
assert b["verdict"] == "not_comparable" and b["not_comparable"]["caveat"] == "test_differs", b
ev = [c for c in b["caveats"] if c["key"] == "test_differs"][0]["evidence"]
assert ev == {"unit": {"A": "MB/s", "B": "us"}}, ev
assert b["change_pct"] is None and "p" not in b and d["tests_adjusted"] == 0, b
EOF2

# ---- --control: not A itself; a control without runs of the test ----
mk_results ca.json a "load 5=100,101,102,103,104" "load 6=10,11,12,13,14"
mk_results cb.json b "load 5=50,51,52,53,54" "load 6=20,21,22,23,24"
mk_results cc1.json c "load 5=100"
expect_bad "--control A itself" '^kbench compare: --control ca\.json: the same file as ca\.json; the control is A run again, a series of its own$' \
    "$KBENCH" compare --control ca.json ca.json cb.json
ln -s ca.json ca-link.json
expect_bad "--control A by another name" '^kbench compare: --control ca-link\.json: the same file as ca\.json; ' \
    "$KBENCH" compare --control ca-link.json ca.json cb.json
expect_bad "--control B itself" '^kbench compare: --control \./cb\.json: the same file as cb\.json; ' \
    "$KBENCH" compare --control ./cb.json ca.json cb.json
expect_rc "a control with one run of load 5 and none of load 6" 3 "$KBENCH" compare --control cc1.json ca.json cb.json
expect_out_grep "one run: said, not drift" '^ +B +5 +52\.00 .*  not comparable: the control has 1 run of it, too few to check the change against  \[caveats: control_runs\*\]$'
expect_out_grep "none: said, not drift" '^ +B +5 +22\.00 .*  not comparable: the control has no runs of it  \[caveats: control_runs\*\]$'
expect_no_grep "no drift claimed" "$WORK/out" 'drift \('

finish
