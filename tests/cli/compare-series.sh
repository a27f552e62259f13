#!/bin/sh
# kbench - command-line tests: compare --series on fixed synthetic series
# with known steps: where each step is (test, the kernels either side), its
# size, its p against scipy's U test and its q as Benjamini-Hochberg over
# the study's split positions; the table, lkml and JSON forms, the bisect
# lines, --fail-on worse, a caveated kernel kept out, a build run again as
# the control, one run a kernel, --sort version, more than 26 files,
# --base, --plot, and the refusals
# SPDX-License-Identifier: GPL-3.0-or-later
. "$(dirname "$0")/lib.sh"
cd "$WORK" || exit 1

# gen DIR SPEC: a series of results files in DIR; SPEC is a Python dict
# {label: {test: [runs] or (runs, document)}}; files DIR/NN.json in order
gen() {
    python3 - "$1" "$2" <<'PY'
import json, os, sys
d, spec = sys.argv[1], eval(sys.argv[2])
os.makedirs(d, exist_ok=True)
for i, (label, tests) in enumerate(spec):
    rows = []
    for name, runs in tests.items():
        doc = {}
        if isinstance(runs, tuple):
            runs, doc = runs
        unit, hib = ("us", False) if name.startswith("lat") else \
            ("MiB/s", True) if name.startswith("disk") else ("MB/s", True)
        rows.append({"name": name, "unit": unit, "higher_is_better": hib,
                     "params": {"command": name.split()[0]},
                     "runs": [{"value": v, "started": "2026-01-01T00:00:00Z", "seconds": 1.0,
                               "document": doc} for v in runs]})
    json.dump({"kbench_version": "0.1.0", "kind": "suite", "schema": 1, "label": label,
               "time": "2026-01-01T00:00:00Z", "params": {},
               "system": {"kernel": label, "hostname": "h", "machine": "x86_64"},
               "started": "2026-01-01T00:00:00Z", "finished": True, "tests": rows},
              open(os.path.join(d, "%02d.json" % i), "w"))
PY
}

# 8 kernels, 6 runs each: the runs are a level times 1 + a fixed jitter
# (at most 1.5%, turned by the kernel's index so no two kernels share
# runs).  load 10 drops 18% at 2.5.44; disk -t rises 20% at 2.5.42 and
# falls back at 2.5.46; load 1 and lat_ctx do not move.
SERIES='[("2.5.%d" % (40 + k), {
    "load 1": [100 * (1 + j) for j in J(k)],
    "load 10": [(100 if k < 4 else 82) * (1 + j) for j in J(k)],
    "disk -t": [(50 if k < 2 or k >= 6 else 60) * (1 + j) for j in J(k)],
    "lat_ctx": [2 * (1 + j) for j in J(k)]}) for k in range(8)]'
JFUN='lambda k: [[0.012, -0.015, 0.004, -0.007, 0.009, -0.002][(j + k) % 6] + 0.0003 * k for j in range(6)]'
gen s "(lambda J: $SERIES)($JFUN)"
FILES="s/00.json s/01.json s/02.json s/03.json s/04.json s/05.json s/06.json s/07.json"

# ---- JSON: the steps, their p and q ----
run "$KBENCH" compare --series --json $FILES
expect_status "the series as JSON" 0
cp "$WORK/out" series.json
expect_py "three steps, each between the right two kernels, sized" series.json <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["kind"] == "series" and d["candidates"] == 28, (d["kind"], d["candidates"])
got = sorted((s["test"], s["from"], s["to"], s["direction"]) for s in d["steps"])
want = sorted([("load 10", "2.5.43", "2.5.44", "worse"), ("disk -t", "2.5.41", "2.5.42", "better"),
               ("disk -t", "2.5.45", "2.5.46", "worse")])
assert got == want, got
for s in d["steps"]:
    assert s["q"] < 0.05 and s["p"] <= s["q"], s
    assert s["ci_lo_pct"] <= s["change_pct"] <= s["ci_hi_pct"], s
    assert s["bisect"] == [s["to"], s["from"]], s
byto = {s["to"]: s for s in d["steps"]}
assert abs(byto["2.5.44"]["change_pct"] + 18) < 0.2, byto["2.5.44"]
assert abs(byto["2.5.42"]["change_pct"] - 20) < 0.3, byto["2.5.42"]
assert abs(byto["2.5.46"]["change_pct"] + 100 / 6) < 0.3, byto["2.5.46"]
assert byto["2.5.44"]["left_runs"] == 24 and byto["2.5.44"]["right_runs"] == 24
t = {x["name"]: x for x in d["tests"]}
assert t["load 1"]["steps"] == [] and t["lat_ctx"]["steps"] == []
assert [x["positions"] for x in d["tests"]] == [7, 7, 7, 7]
PY
expect_py "q is Benjamini-Hochberg over the 28 split positions" series.json <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
# every candidate that passed, with the others of the study at p = 1 (they
# cannot change a passing q: BH's q of p(i) is the least m p(j) / j over j >= i)
ps = sorted(s["p"] for s in d["steps"])
m = d["candidates"]
for s in d["steps"]:
    i = ps.index(s["p"]) + 1
    want = min(min(1, m * ps[j - 1] / j) for j in range(i, len(ps) + 1))
    assert abs(s["q"] - want) <= 1e-12 * max(1, want), (s, want)
PY
expect_py "load 10's p is the U test of its 24 runs against 24" series.json <<'PY'
import json, math, sys
d = json.load(open(sys.argv[1]))
J = lambda k: [[0.012, -0.015, 0.004, -0.007, 0.009, -0.002][(j + k) % 6] + 0.0003 * k for j in range(6)]
left = [100 * (1 + j) for k in range(4) for j in J(k)]
right = [82 * (1 + j) for k in range(4, 8) for j in J(k)]
try:
    from scipy.stats import mannwhitneyu
    p = mannwhitneyu(left, right, alternative="two-sided", method="asymptotic",
                     use_continuity=True).pvalue
except ImportError:
    # no ties here: var = n1 n2 (n1 + n2 + 1) / 12, z with the continuity correction
    u = sum(1 for a in left for b in right if b > a)
    n1, n2 = len(left), len(right)
    z = (abs(u - n1 * n2 / 2) - 0.5) / math.sqrt(n1 * n2 * (n1 + n2 + 1) / 12)
    p = math.erfc(z / math.sqrt(2))
s = [s for s in d["steps"] if s["test"] == "load 10"][0]
assert abs(s["p"] - p) <= 1e-9 * p, (s["p"], p)
PY

# ---- lkml lines and the table ----
expect_rc "lkml lines" 0 "$KBENCH" compare --series --style lkml $FILES
expect_lines "one line a step" -eq 3 "$WORK/out" '^(load 10|disk -t): [-+][0-9.]+% between 2\.5\.4[0-9] and 2\.5\.4[0-9] \(q=[0-9.e-]+\)$'
expect_out_grep "load 10's line" '^load 10: -17\.90% between 2\.5\.43 and 2\.5\.44 \(q=[0-9.e-]+\)$'
expect_out_grep "the largest step first" '^disk -t: \+20\.[0-9]+% between 2\.5\.41 and 2\.5\.42'
expect_out_grep "the tests without a step" '^no step in the other 2 tests$'
expect_rc "the table" 0 "$KBENCH" compare --series $FILES
expect_out_grep "a kernel a column" '^test +unit +2\.5\.40 +2\.5\.41 +2\.5\.42 .* 2\.5\.47$'
expect_out_grep "the step marked between its two columns" '^load 10 +MB/s( +[0-9.]+){4} \| +82\.[0-9]+ '
expect_out_grep "both steps of disk -t marked" '^disk -t +MiB/s +[0-9.]+ +[0-9.]+ \| +[0-9.]+( +[0-9.]+){3} \| '
expect_out_grep "no mark where nothing stepped" '^load 1 +MB/s( +[0-9.]+){8}$'
expect_out_grep "the bisect range of load 10" '^  bisect: git bisect start 2\.5\.44 2\.5\.43$'
expect_out_grep "the interval and p of a step" '^load 10: -17\.90% between 2\.5\.43 and 2\.5\.44 \(q=[0-9.e-]+\) worse, 95% interval -[0-9.]+% to -[0-9.]+%, p=[0-9.e-]+, 24 and 24 runs$'
expect_out_grep "the tests that did not step" '^no step: load 1, lat_ctx$'
expect_out_grep "the study's candidate splits" '28 candidate splits'

# ---- the gate ----
expect_rc "--fail-on worse: the newest kernel is in a worse segment" 4 \
    "$KBENCH" compare --series --fail-on worse --style lkml $FILES
expect_err_grep "load 10 trips it, with its bisect range" '^gate: load 10: 2\.5\.47 sits in a segment -17\.90% worse than before 2\.5\.44 \(q=[0-9.e-]+\); git bisect start 2\.5\.44 2\.5\.43$'
expect_err_grep "disk -t's fall back trips it" '^gate: disk -t: 2\.5\.47 sits in a segment -16\.[0-9]+% worse than before 2\.5\.46'
expect_err_grep "the outcome" '^gate: failed: 2 of 4 tests proven worse at the newest kernel$'
expect_rc "--fail-on worse: up to 2.5.45 disk -t last rose, load 10 fell" 4 \
    "$KBENCH" compare --series --fail-on worse s/00.json s/01.json s/02.json s/03.json s/04.json s/05.json
expect_err_grep "one test worse" '^gate: failed: 1 of 4 tests proven worse'
expect_rc "--fail-on worse: 2.5.40 to 2.5.43, disk -t's rise alone" 0 \
    "$KBENCH" compare --series --fail-on worse s/00.json s/01.json s/02.json s/03.json
expect_err_grep "passed" '^gate: passed: 0 of 4 tests proven worse'

# ---- a machine setting that differs from the first kernel's ----
# 2.5.43 ran with the powersave governor (it moves every timing) and its
# load 10 30% low: every test of it kept out as settings_differ, no step
# made of it; 2.5.44's governor not known: it never differs
gen g "(lambda J: (lambda S: S[:3] + [('2.5.43', dict(S[3][1], **{'load 1': [70 * (1 + j) for j in J(3)]}))] + S[4:6])($SERIES))($JFUN)"
python3 - g <<'PY'
import json, sys
for i, gov in enumerate(["performance", "performance", "performance", "powersave", "unknown", "performance"]):
    p = "%s/%02d.json" % (sys.argv[1], i)
    d = json.load(open(p))
    d["system"]["settings"] = {"governor": gov, "thp_enabled": "madvise"}
    json.dump(d, open(p, "w"))
PY
GF="g/00.json g/01.json g/02.json g/03.json g/04.json g/05.json"
expect_rc "a series with a kernel on another governor" 0 "$KBENCH" compare --series $GF
expect_out_grep "that kernel named and kept out of every test, the setting named" \
    '^kept out: load 1 on 2\.5\.43 \(settings_differ\): its runs make no step$'
run "$KBENCH" compare --series --json $GF
expect_py "JSON: 2.5.43 kept out of each test as settings_differ, no other; no step in load 1" "$WORK/out" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
t = {x["name"]: x for x in d["tests"]}
assert all(x["kept_out"] == [{"kernel": "2.5.43", "caveat": "settings_differ"}] for x in t.values()), \
    [(n, x["kept_out"]) for n, x in t.items()]
assert t["load 1"]["steps"] == [], t["load 1"]["steps"]
PY

# ---- a kernel kept out, a control ----
# 2.5.43's load 1 runs were busy and 30% low: kept out, no step; 2.5.40
# run again at the end with load 1 10% up: drift, and no point
BUSY="{'caveats': [{'key': 'busy', 'text': 'other processes ran', 'evidence': {}}]}"
gen c "(lambda J: (lambda S: S[:3] + [('2.5.43', dict(S[3][1], **{'load 1': ([70 * (1 + j) for j in J(3)], $BUSY)}))] + S[4:] + [('2.5.40', dict(S[0][1], **{'load 1': [110 * (1 + j) for j in J(0)]}))])($SERIES))($JFUN)"
CF="c/00.json c/01.json c/02.json c/03.json c/04.json c/05.json c/06.json c/07.json c/08.json"
expect_rc "a series with a busy kernel and a control" 0 "$KBENCH" compare --series $CF
expect_out_grep "the busy kernel named and kept out" '^kept out: load 1 on 2\.5\.43 \(busy\): its runs make no step$'
expect_out_grep "its median in parentheses" '^load 1 +MB/s( +[0-9.]+){3} +\(70\.[0-9]+\)'
expect_out_grep "the build run again differs: drift" '^drift: load 1: 2\.5\.40 run again differs from itself by \+10\.[0-9]+% \(q=[0-9.e-]+\): its steps are not proven$'
expect_out_grep "the control is no point" "^control: 2\\.5\\.40' is 2\\.5\\.40 run again"
expect_out_grep "the control's column" "2\\.5\\.47 +2\\.5\\.40'$"
expect_out_grep "the split positions leave the control and kept-out kernel out" '27 candidate splits'
run "$KBENCH" compare --series --json $CF
cp "$WORK/out" c.json
expect_py "JSON: load 1 no step, its kept-out kernel, drift; the same three steps" c.json <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
t = {x["name"]: x for x in d["tests"]}
assert t["load 1"]["steps"] == [], t["load 1"]["steps"]
assert t["load 1"]["kept_out"] == [{"kernel": "2.5.43", "caveat": "busy"}]
assert t["load 1"]["drift"]["control"] == "2.5.40" and t["load 1"]["drift"]["q"] < 0.05
assert t["load 10"]["drift"] is None
assert d["kernels"][8]["control_of"] == "2.5.40" and d["kernels"][0]["control_of"] is None
assert sorted((s["test"], s["from"], s["to"]) for s in d["steps"]) == sorted(
    [("load 10", "2.5.43", "2.5.44"), ("disk -t", "2.5.41", "2.5.42"), ("disk -t", "2.5.45", "2.5.46")])
PY

# ---- one run a kernel (imported reports) ----
gen one6 '[("k%d" % k, {"score x": [100.0 + k if k < 3 else 50.0 + k]}) for k in range(6)]'
expect_rc "six kernels of one run" 0 "$KBENCH" compare --series one6/0[0-5].json
expect_out_grep "a single run cannot prove it" '^one run a kernel: score x: a single run cannot tell a kernel.s change from its run-to-run noise; no step proven over 6 kernels$'
gen one16 '[("k%02d" % k, {"score x": [100.0 + k if k < 8 else 50.0 + k]}) for k in range(16)]'
run "$KBENCH" compare --series --style lkml one16/*.json
expect_status "sixteen kernels of one run" 0
expect_out_grep "enough points: the step, said to rest on one run a kernel" '^score x: -[0-9.]+% between k07 and k08 \(q=[0-9.e-]+\) \[one run a kernel\]$'

# ---- --sort version, and more than 26 files ----
gen v '[(l, {"load 1": [10, 11, 12]}) for l in ["2.4.0", "2.4.0-test10", "2.2.16", "2.4.0-test9", "2.4.0-prerelease"]]'
expect_rc "--sort version" 0 "$KBENCH" compare --series --sort version v/*.json
expect_out_grep "releases in order, -test and -pre before the release" '^test +unit +2\.2\.16 +2\.4\.0-test9 +2\.4\.0-test10 +2\.4\.0-prerelease +2\.4\.0$'
gen many '[("v%02d" % k, {"load 1": [(100 if k < 17 else 90) + j * 0.1 + k * 0.001 for j in range(4)]}) for k in range(30)]'
run "$KBENCH" compare --series --style lkml many/*.json
expect_status "30 files in one series" 0
expect_out_grep "the step between the 17th and 18th" '^load 1: -(9\.9[0-9]|10\.0[0-9])% between v16 and v17 \(q=[0-9.e-]+\)$'

# ---- --base: every file against one that is not the first ----
expect_rc "--base LABEL" 0 "$KBENCH" compare --base 2.5.43 s/00.json s/01.json s/03.json
expect_out_grep "the base is A" '^A  s/03\.json: label 2\.5\.43'
expect_out_grep "the others follow in order" '^B  s/00\.json: label 2\.5\.40'
expect_rc "--base FILE" 0 "$KBENCH" compare --base s/01.json s/00.json s/01.json s/03.json
expect_out_grep "the file named is A" '^A  s/01\.json: label 2\.5\.41'
expect_bad "--base no file has" 'compare: --base 9\.9: no file given has that path, label or kernel' \
    "$KBENCH" compare --base 9.9 s/00.json s/01.json

# ---- --plot ----
if command -v gnuplot >/dev/null 2>&1; then
    expect_rc "--plot: a chart a stepping test" 0 "$KBENCH" compare --series --plot st.svg $FILES
    expect_file_grep "the first stepping test's chart" st.svg 'load 10'
    expect_file_grep "the second's in st-2.svg" st-2.svg 'disk -t'
    expect_file_grep "kernels along x" st.svg '2\.5\.47'
    expect_true "no third chart (two tests stepped)" test ! -e st-3.svg
else
    skip "--plot: gnuplot is not installed"
fi

# ---- refusals ----
expect_bad "two files are no series" 'at least three results files' \
    "$KBENCH" compare --series s/00.json s/01.json
expect_bad "the same file twice" 'the same file as' \
    "$KBENCH" compare --series s/00.json s/01.json s/00.json
expect_bad "a label three times is one kernel" '1 kernels \(labels\) among 3 files' \
    "$KBENCH" compare --series c/00.json c/08.json s/00.json
expect_bad "--fail-on change is not the series' gate" '--fail-on change: give worse' \
    "$KBENCH" compare --series --fail-on change $FILES
expect_bad "--sort change" '--sort change: give file or version' \
    "$KBENCH" compare --series --sort change $FILES
finish
