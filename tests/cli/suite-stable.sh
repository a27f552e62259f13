#!/bin/sh
# kbench - tests of kbench suite --until-stable PCT --max-runs N: the runs a
# test gets (counted, never timed), what the results file and the text say
# SPDX-License-Identifier: GPL-3.0-or-later
. "$(dirname "$0")/lib.sh"
cd "$WORK" || exit 1
S="$KBENCH suite --pause 0"
MICRO="--clients none --micro=lat_syscall_null --micro-quick"

# bad values: one line, status 2, nothing run
expect_bad "PCT 0" '^kbench suite: --until-stable 0: give a percentage above 0' \
    $S $MICRO --until-stable 0 --max-runs 8 -o bad.json
expect_bad "PCT negative" '^kbench suite: --until-stable -1: give a percentage above 0' \
    $S $MICRO --until-stable -1 --max-runs 8 -o bad.json
expect_bad "PCT not a number" '^kbench suite: --until-stable 5x: give a percentage' \
    $S $MICRO --until-stable 5x --max-runs 8 -o bad.json
expect_bad "PCT nan" '^kbench suite: --until-stable nan: give a percentage' \
    $S $MICRO --until-stable nan --max-runs 8 -o bad.json
expect_bad "N below --runs" '^kbench suite: --max-runs 6: give a whole number from 7 \(--runs 7;' \
    $S $MICRO --runs 7 --until-stable 5 --max-runs 6 -o bad.json
expect_bad "N below the interval's 6 runs" \
    "^kbench suite: --max-runs 5: give a whole number from 6 \(--runs 2; the median's 95% interval needs 6 runs\)" \
    $S $MICRO --runs 2 --until-stable 5 --max-runs 5 -o bad.json
expect_bad "--max-runs without --until-stable" '^kbench suite: --max-runs is the limit of --until-stable' \
    $S $MICRO --max-runs 8 -o bad.json
expect_bad "--until-stable without --max-runs" '^kbench suite: --until-stable needs --max-runs N' \
    $S $MICRO --until-stable 5 -o bad.json
expect_bad "--resume with --until-stable" '^kbench suite: --resume takes no other options' \
    "$KBENCH" suite --resume x.json --until-stable 5
expect_true "no file from a refusal" test ! -e bad.json

# a huge PCT: the planned 6 runs are all a test gets
run $S $MICRO --runs 6 --until-stable 1000000 --max-runs 9 -o huge.json
expect_status "huge PCT: status 0" 0
expect_eq "huge PCT: 6 runs" "$(jget huge.json 'len(d["tests"][0]["runs"])')" 6
expect_eq "huge PCT: done 6" "$(jget huge.json 'd["done"]["micro"]')" 6
expect_eq "huge PCT: recorded" \
    "$(jget huge.json '[d["tests"][0]["until_stable"][k] for k in ("pct", "max_runs", "runs", "attempts", "within", "hit_max_runs")]')" \
    "[1000000.0, 9, 6, 6, True, False]"
expect_eq "huge PCT: params" "$(jget huge.json '[d["params"]["until_stable_pct"], d["params"]["max_runs"]]')" \
    "[1000000.0, 9]"
expect_out_grep "huge PCT: no test hit N" '^no test hit --max-runs$'
expect_out_grep "huge PCT: the test's line" '^  lat_syscall_null: 6 runs, median \+-[0-9.]+%$'
expect_lines "huge PCT: no added run" -eq 0 "$WORK/err" 'until stable'

# --runs 2: a load test goes on to the 6 runs the median's interval needs
run $S --clients 1 -t 1 --warmup 0 --runs 2 --until-stable 1000000 --max-runs 9 -o load.json
expect_status "load, --runs 2: status 0" 0
expect_eq "load, --runs 2: 6 runs" "$(jget load.json 'len(d["tests"][0]["runs"])')" 6
expect_eq "load, --runs 2: within, not hit" \
    "$(jget load.json '[d["tests"][0]["until_stable"][k] for k in ("runs", "within", "hit_max_runs")]')" \
    "[6, True, False]"
expect_lines "load, --runs 2: 4 added runs" -eq 4 "$WORK/err" \
    '^kbench suite: \[[3-6]/[3-6]\] load 1, run [3-6] of at most 9, until stable: '

# a tiny PCT on a real test (its runs differ): to --max-runs, and said so
run $S $MICRO --runs 2 --until-stable 0.0001 --max-runs 8 -o tiny.json
expect_status "tiny PCT: status 0" 0
expect_eq "tiny PCT: 8 runs" "$(jget tiny.json 'len(d["tests"][0]["runs"])')" 8
expect_eq "tiny PCT: done 8" "$(jget tiny.json 'd["done"]["micro"]')" 8
expect_eq "tiny PCT: recorded" \
    "$(jget tiny.json '[d["tests"][0]["until_stable"][k] for k in ("pct", "max_runs", "runs", "attempts", "within", "hit_max_runs")]')" \
    "[0.0001, 8, 8, 8, False, True]"
# at 8 runs the interval is [min, max] and the median the mean of the middle two
expect_eq "tiny PCT: the half-width is the figures'" \
    "$(jget tiny.json '(lambda v: abs(d["tests"][0]["until_stable"]["median_ci_half_pct"] - 100 * (v[7] - v[0]) / 2 / ((v[3] + v[4]) / 2)) < 1e-6)(sorted(r["value"] for r in d["tests"][0]["runs"]))')" \
    "True"
expect_out_grep "tiny PCT: the end says which test hit N" '^hit --max-runs 8: lat_syscall_null$'
expect_out_grep "tiny PCT: the test's line" '^  lat_syscall_null: 8 runs, median \+-[0-9.]+%, hit --max-runs$'
expect_lines "tiny PCT: 6 added runs" -eq 6 "$WORK/err" 'micro, run [3-8] of at most 8, until stable: '

# --resume: a job at --max-runs gets no run; a count above it is refused
python3 -c 'import json; d = json.load(open("tiny.json")); d["finished"] = False; d["interrupted"] = True; json.dump(d, open("res.json", "w"))'
run "$KBENCH" suite --resume res.json
expect_status "resume at N: status 0" 0
expect_eq "resume at N: still 8 runs" "$(jget res.json '[len(d["tests"][0]["runs"]), d["done"]["micro"]]')" "[8, 8]"
python3 -c 'import json; d = json.load(open("tiny.json")); d["finished"] = False; d["done"]["micro"] = 9; json.dump(d, open("res9.json", "w"))'
run "$KBENCH" suite --resume res9.json
expect_status "resume above N: status 2" 2
expect_err_grep "resume above N: said" "done counts 9 runs, more than its --max-runs 8"

finish
