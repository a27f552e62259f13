#!/bin/sh
# kbench - tests of kbench suite --runs auto --detect PCT [--max-runs N]
# [--budget TIME]: the plan worked out again here from each test's pilot
# runs as the results file holds them (counted, never timed), where it is
# said, and what the file records
# SPDX-License-Identifier: GPL-3.0-or-later
. "$(dirname "$0")/lib.sh"
cd "$WORK" || exit 1
S="$KBENCH suite --pause 0"
MICRO="--clients none --micro=lat_syscall_null,lat_sig_install --micro-quick"

# bad values: one line, status 2, nothing run
expect_bad "--runs auto without --detect" '^kbench suite: --runs auto needs --detect PCT' \
    $S $MICRO --runs auto -o bad.json
expect_bad "--detect without --runs auto" '^kbench suite: --detect plans the runs: give --runs auto too' \
    $S $MICRO --detect 5 -o bad.json
expect_bad "--budget without --runs auto" '^kbench suite: --budget plans the runs: give --runs auto too' \
    $S $MICRO --budget 1h -o bad.json
expect_bad "--detect 0" '^kbench suite: --detect 0: give a percentage above 0 and below 100' \
    $S $MICRO --runs auto --detect 0 -o bad.json
expect_bad "--detect 5x" '^kbench suite: --detect 5x: give a percentage' \
    $S $MICRO --runs auto --detect 5x -o bad.json
expect_bad "--max-runs below the pilots" '^kbench suite: --max-runs 4: give a whole number from 5 \(the pilot runs\)' \
    $S $MICRO --runs auto --detect 5 --max-runs 4 -o bad.json
expect_bad "--budget not a duration" '^kbench suite: --budget soon: give a duration above 0' \
    $S $MICRO --runs auto --detect 5 --budget soon -o bad.json
expect_bad "--until-stable beside it" '^kbench suite: --runs auto plans the runs; --until-stable adds them' \
    $S $MICRO --runs auto --detect 5 --until-stable 3 --max-runs 9 -o bad.json
expect_bad "--runs 0" '^kbench suite: --runs 0: give a whole number from 1 to 1000 or auto' \
    $S $MICRO --runs 0 -o bad.json
expect_true "no file from a refusal" test ! -e bad.json

# check_plan FILE DETECT MAXRUNS: every test's plan as the file's pilot
# runs give it (CoV of the first 5 runs; runs = 2 (z(1 - alpha/2) +
# z(0.8))^2 CoV^2 / DETECT^2 / 0.955 rounded up, at least the U test's
# floor for alpha, at most MAXRUNS; alpha = 0.05 / tests), and the runs
# made: the micro job's neediest test's
check_plan() {
    python3 - "$@" <<'EOF'
import json, math, statistics, sys
d = json.load(open(sys.argv[1]))
detect, cap = float(sys.argv[2]), int(sys.argv[3])
ra = d["runs_auto"]
tests = [t for t in d["tests"] if t["runs"] and not t.get("skipped")]
m = len(tests)
alpha = 0.05 / m
assert ra["tests"] == m and abs(ra["alpha"] - alpha) < 1e-12, ra
assert (ra["detect_pct"], ra["power"], ra["pilot_runs"], ra["max_runs"], ra["adjust"]) == \
    (detect, 0.8, 5, cap, "bh"), ra
nd = statistics.NormalDist()
z = nd.inv_cdf(1 - alpha / 2) + nd.inv_cdf(0.8)
floor, c = 1, 2.0      # the fewest n with 2 / C(2n, n) < alpha
while 2 / c >= alpha:
    c = c * (2 * floor + 1) * (2 * floor + 2) / ((floor + 1) ** 2)
    floor += 1
most = 0
for t in tests:
    pilots = [r["value"] for r in t["runs"][:5]]
    cov = 100 * statistics.stdev(pilots) / abs(statistics.mean(pilots))
    p = t["plan"]
    assert abs(p["cov_pct"] - cov) < 1e-6 * max(1, cov), (t["name"], p, cov)
    needs = max(math.ceil(2 * z * z * cov * cov / detect ** 2 / 0.955), floor)
    assert p["needs"] == needs, (t["name"], p, needs)
    assert p["runs"] == min(needs, cap), (t["name"], p)
    assert p["short_by"] == ("max_runs" if needs > cap else None), (t["name"], p)
    most = max(most, p["runs"])
for t in tests:
    assert len(t["runs"]) == max(most, 5), (t["name"], len(t["runs"]), most)
print(most)
EOF
}

# a 20% change: a few runs more than the pilots, or the floor
run $S $MICRO --runs auto --detect 20 --max-runs 9 -o a.json
if [ "$RC" -eq 0 ]; then
    pass "--runs auto --detect 20 --max-runs 9"
    expect_true "the plan as the pilots give it, the runs as planned" check_plan a.json 20 9
    expect_err_grep "the plan said: tests, change, power, threshold" \
        '^kbench suite: plan: 2 tests; runs to find a 20% change in any one of them with 80% power \(U test, p below 0\.025: Benjamini-Hochberg at 95%\); [0-9]+ short of their need; the most: [0-9]+ runs of micro$'
    expect_true "said up front: after the pilots, before any planned run" awk '
        /plan: 2 tests/ { plan = NR } /\(planned\)/ && !first { first = NR }
        /\(pilot\)/ { pilot = NR }
        END { exit !(plan && pilot < plan && (!first || plan < first)) }' "$WORK/err"
    expect_lines "five pilot runs" -eq 5 "$WORK/err" 'run [1-5] of [0-9]+ \(pilot\)'
    expect_true "each run keeps the micro document with its own test's entry alone" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
n = 0
for t in d["tests"]:
    for r in t["runs"]:
        doc = r["document"]
        assert doc["kind"] == "micro" and "system" in doc and "params" in doc, doc.keys()
        assert [e["name"] for e in doc["results"]["tests"]] == [t["name"]], (t["name"], doc["results"])
        n += 1
assert n >= 10, n' a.json
    expect_out_grep "the table says what was planned" '^Runs planned to find a 20% change in any one of 2 tests \(80% power, p below 0\.025\), from 5 pilot runs:$'
else
    fail "--runs auto --detect 20 --max-runs 9" "exit $RC" "$(head -c 600 "$WORK/err")"
fi

# --resume keeps the plan: the last two runs dropped, as an interrupted
# series leaves them, are made again and no more
if [ -s a.json ]; then
    python3 -c 'import json, sys
d = json.load(open(sys.argv[1])); d["finished"] = False
for t in d["tests"]: t["runs"] = t["runs"][:-2]
d["done"] = {k: v - 2 for k, v in d["done"].items()}
json.dump(d, open(sys.argv[2], "w"))' a.json r.json
    made=$(jget a.json 'd["done"]["micro"]')
    expect_rc "--resume of a planned series" 0 "$KBENCH" suite --resume r.json
    expect_true "--resume: the plan's runs made again, no more" python3 -c 'import json, sys
d, a = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
assert d["done"]["micro"] == int(sys.argv[3]), (d["done"], sys.argv[3])
assert d["runs_auto"] == a["runs_auto"], (d.get("runs_auto"), a.get("runs_auto"))
assert all(len(t["runs"]) == int(sys.argv[3]) for t in d["tests"])' r.json a.json "$made"
    # the pilots are runs 1 to 5: the two dropped are pilots again only
    # where the plan (the pilots' spread, a timing) asked for under 7 runs
    left=$((made - 2 < 5 ? 5 - (made - 2) : 0))
    expect_lines "--resume: a pilot run again only where one was dropped ($left)" -eq "$left" "$WORK/err" '\(pilot\)'
fi

# a 0.01% change no test's runs reach: every test short of its need, at --max-runs
run $S $MICRO --runs auto --detect 0.01 --max-runs 6 -o b.json
if [ "$RC" -eq 0 ]; then
    expect_true "0.01%: the plan, every test at --max-runs 6" check_plan b.json 0.01 6
    expect_err_grep "0.01%: the bound that falls short is named up front" \
        '^kbench suite: plan: lat_syscall_null needs [0-9]+ runs for 0\.01% \(CoV [0-9.]+%\); --max-runs 6$'
    expect_out_grep "0.01%: and under the table" '^  lat_sig_install: needs [0-9]+ runs, planned 6 \(--max-runs\)$'
else
    fail "--runs auto --detect 0.01 --max-runs 6" "exit $RC" "$(head -c 600 "$WORK/err")"
fi

# a budget the pilots alone use up: no run beyond them
run $S $MICRO --runs auto --detect 0.01 --budget 0.001 -o c.json
if [ "$RC" -eq 0 ]; then
    expect_py "--budget spent by the pilots: 5 runs, short by the budget" c.json <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["runs_auto"]["budget_s"] == 0.001
for t in d["tests"]:
    assert len(t["runs"]) == 5 and t["plan"]["runs"] == 5, t["name"]
    assert t["plan"]["short_by"] == "budget" and t["plan"]["needs"] > 5, t["plan"]
EOF
    expect_err_grep "--budget: named up front" '^kbench suite: plan: lat_syscall_null needs [0-9]+ runs for 0\.01% \(CoV [0-9.]+%\); --budget 0\.001 leaves 5$'
else
    fail "--runs auto --budget 0.001" "exit $RC" "$(head -c 600 "$WORK/err")"
fi
finish
