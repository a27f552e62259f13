#!/bin/sh
# kbench - command-line tests: compare's old forms (--style lkml's From/To
# blocks, --style runs, BYTE's INDEX VALUES) on hand-made files, and each
# form printed back from the imported seed reports, line for line
# SPDX-License-Identifier: GPL-3.0-or-later
#
# The seed reports are not part of kbench: they are read from
# ../shared/data/seeds beside the source tree, or from KBENCH_SEEDS.
# Without them those checks say they skipped.
. "$(dirname "$0")/lib.sh"

SEEDS=${KBENCH_SEEDS:-$KBENCH_TOP_SRCDIR/../shared/data/seeds}
cd "$WORK" || exit 1

# ---- --style runs on kbench's own files: dbench's and hdparm's words ----
mk_results k1.json 6.1.0 "load 5 mem=32M=7.5,8.25,8" "disk -T=37.431,37.4" "@mem_limits=32M"
mk_results k2.json 6.2.0 "load 5 mem=32M=9,9.5" "disk -T=38.2"
expect_rc "runs of two files" 0 "$KBENCH" compare --style runs k1.json k2.json
expect_eq "a block per memory limit (the machine: its CPU), a row per kernel and test, every run" \
    "$(sed 1d "$WORK/out")" "======================================================================
h: cpu, 32M
6.1.0:
dbench 5 7.5 8.25 8
6.2.0:
dbench 5 9 9.5
======================================================================
h: cpu
6.1.0:
hdparm -T 37.43 37.40
6.2.0:
hdparm -T 38.20"
# ---- --style lkml on kbench's own files: uname -v as the build ----
python3 -c 'import json, sys
d = json.load(open("k1.json")); d["system"]["kernel_version"] = "#1 SMP Mon Jan 5 2026"
json.dump(d, open("k1.json", "w"))'
expect_rc "lkml of two suites" 0 "$KBENCH" compare --style lkml k1.json k2.json
expect_out_grep "From: the file's uname line, with its build" '^\* Linux h 6\.1\.0 #1 SMP Mon Jan 5 2026 x86_64$'
expect_out_grep "To: without a build, the rest" '^\* Linux h 6\.2\.0 x86_64$'
expect_out_grep "the run's date: when the series started" '^\* 2026-01-01T00:00:00Z$'
expect_out_grep "a kbench test by its name and unit, its mark after the change" '^load 5 mem=32M \(MB/s\) \|\| 8\.00 -> 9\.25 \+15\.62% too-few-runs$'
expect_bad "--style bad" "^kbench compare: --style html: give table, lkml or runs" "$KBENCH" compare --style html k1.json k2.json
expect_bad "--json with runs" "^kbench compare: --json prints the comparison alone: leave out --style runs" "$KBENCH" compare --json --style runs k1.json k2.json

# ---- BYTE's index of kbench's own BYTE tests (BYTE 4.1's baselines) ----
python3 - <<'PY'
import json
def doc(path, kernel, dhry, whet):
    tests = [{"name": n, "params": {"command": "micro", "family": "byte", "title": n},
              "unit": u, "higher_is_better": True,
              "runs": [{"value": v, "started": None, "seconds": 1.0} for v in vals]}
             for n, u, vals in (("byte_dhry2", "lps", dhry), ("byte_whet", "MWIPS", whet))]
    json.dump({"kbench_version": "0.1.0", "kind": "suite", "schema": 1, "label": kernel,
               "system": {"kernel": kernel, "hostname": "h", "machine": "x86_64"},
               "finished": True, "tests": tests}, open(path, "w"))
doc("ba.json", "6.1.0", [116000, 116500, 116700, 117000], [55, 55, 55, 55])
doc("bb.json", "6.2.0", [466000, 466500, 466800, 467000], [220, 220, 220, 220])
PY
expect_rc "BYTE tests compared" 0 "$KBENCH" compare ba.json bb.json
expect_out_grep "the result and index of each file beside the other" '^Dhrystone 2 using register variables +116700\.0 +116600\.0 +10\.0 +466650\.0 +40\.0$'
expect_out_grep "BYTE's columns, a RESULT and INDEX a file" '^TEST +BASELINE +A RESULT +A INDEX +B RESULT +B INDEX$'
expect_out_grep "the final score of each file" '^FINAL SCORE +10\.0 +40\.0$'
# the scores of the medians: sqrt(466650 / 116600 x 4) = 4.0011; four runs a
# side without ties: the exact U test's smallest p, 2 / C(8, 4)
expect_out_grep "the score's change and verdict over the runs' scores" '^  B against A: \+300\.11%  better \(p=0\.029, 4 and 4 runs\)$'

# ---- BYTE's FINAL SCORE: a row's verdict words, what it is of, its caveats ----
# BYTE 4.1's eleven indexed tests and their baselines; every run's index is
# 100 x the run's factor in every test, so each run's score is 100 x it
python3 - <<'PY'
import json
BASE = {"byte_dhry2": 116700, "byte_whet": 55.0, "byte_fcopy_1024": 3960,
        "byte_fcopy_256": 1655, "byte_fcopy_4096": 5800, "byte_pipe_1cpu": 12440,
        "byte_context_1cpu": 4000, "byte_spawn": 126, "byte_shell8": 6, "byte_syscall": 15000}
BUSY = {"key": "busy", "text": "byte_dhry2: other processes took 78% of a CPU's time",
        "evidence": {"other_cpu_pct": 78.0, "seconds": 0.6, "test": "byte_dhry2"}}
def doc(path, kernel, factors, busy_runs=()):
    tests = [{"name": "byte_execl", "params": {"command": "micro", "family": "byte"},
              "unit": "lps", "higher_is_better": True, "runs": [],
              "skipped": "its helper kbench-execl is not executable here"}]
    for n, b in BASE.items():
        runs = []
        for j, f in enumerate(factors):
            run = {"value": b * 10 * f, "started": None, "seconds": 1.0, "run_no": j + 1}
            if n == "byte_dhry2" and j + 1 in busy_runs:
                run["document"] = {"kind": "micro", "caveats": [BUSY]}
            runs.append(run)
        tests.append({"name": n, "params": {"command": "micro", "family": "byte", "title": n},
                      "unit": "lps", "higher_is_better": True, "runs": runs})
    json.dump({"kbench_version": "0.1.0", "kind": "suite", "schema": 1, "label": kernel,
               "system": {"kernel": kernel, "hostname": "h", "machine": "x86_64"},
               "finished": True, "tests": tests}, open(path, "w"))
F = [1.00, 1.01, 0.99, 1.00, 1.02, 0.98, 1.00, 1.01]
doc("sa.json", "6.1.0", F, busy_runs=(1, 2, 3, 4, 5, 6))
doc("sb.json", "6.2.0", [f * 1.005 for f in F])
doc("sc.json", "6.3.0", [0.6, 1.4, 0.8, 1.2, 0.7, 1.3, 0.9, 1.1])
PY
expect_rc "BYTE scores of 8 runs each" 0 "$KBENCH" compare sa.json sb.json sc.json
expect_out_grep "the score of each file, with the caveats of the runs in it" \
    '^FINAL SCORE +100\.0 +100\.5 +100\.0  \[caveats A: busy\]$'
expect_out_grep "an INDEX VALUES row marked with its runs' caveats, as a table cell is" \
    '^Dhrystone 2 using register variables +116700\.0 +1167000\.0 +100\.0 +1172835\.0 +100\.5 +1167000\.0 +100\.0  \[caveats A: busy\]$'
expect_no_grep "a row without caveats carries no mark" "$WORK/out" '^System Call Overhead .*caveats'
expect_out_grep "the score says it is of 10 tests, and which one was skipped" \
    "^  \(A, B, C: the score of 10 of BYTE's 11 indexed tests; byte_execl skipped\)$"
expect_out_grep "a score proven within the margin: same, as a row says it" \
    '^  B against A: \+0\.50%  same \+-5% \(p=0\.[0-9]{3}, 8 and 8 runs; could see \+-[0-9]+\.[0-9]{2}%\)$'
expect_out_grep "a score the runs could not settle: not proven, with what they could see" \
    '^  C against A: \+0\.00%  not proven \(p=1\.000, 8 and 8 runs; could see \+-[0-9]+\.[0-9]{2}%\)$'
expect_no_grep "the retired mark is gone from the score" "$WORK/out" 'against A: .*  ~'
expect_rc "--same-within 0.1: the margin moves the score's verdict" 0 \
    "$KBENCH" compare --same-within 0.1 sa.json sb.json
expect_out_grep "within 0.1%, +0.50% is not proven" '^  B against A: \+0\.50%  not proven '
expect_rc "the BYTE scores as JSON" 0 "$KBENCH" compare --json sa.json sb.json sc.json
cp "$WORK/out" sjson.json
expect_eq "JSON: each file's score, its tests, what was left out, its caveats" \
    "$(jget sjson.json '[(round(s["score"], 3), s["tests_in_score"], s["indexed_tests_of_byte"], [(l["test"], l["as"]) for l in s["left_out"]], [(v["key"], v["tests"]) for v in s["caveats"]]) for s in d["byte_index"]["scores"]]')" \
    "[(100.0, 10, 11, [('byte_execl', 'skipped')], [('busy', ['Dhrystone 2 using register variables'])]), (100.5, 10, 11, [('byte_execl', 'skipped')], []), (100.0, 10, 11, [('byte_execl', 'skipped')], [])]"
expect_eq "JSON: the change and verdict words of B and C" \
    "$(jget sjson.json '[(round(s["change_pct"], 3), s["verdict"], s["same"]["within_pct"], len(s["run_scores"])) for s in d["byte_index"]["scores"][1:]]')" \
    "[(0.5, 'same', 5.0, 8), (0.0, 'not_proven', 5.0, 8)]"
expect_eq "JSON: an INDEX VALUES row's caveats, on the file whose runs carry them" \
    "$(jget sjson.json '[(t["title"], [[v["key"] for v in f["caveats"]] for f in t["files"]]) for t in d["byte_index"]["tests"] if t["title"].startswith("Dhry")]')" \
    "[('Dhrystone 2 using register variables', [['busy'], [], []])]"
python3 - <<'PY'
import json
d = json.load(open("sb.json"))
for t in d["tests"]:
    if t["name"] == "byte_spawn":
        t["runs"][2]["document"] = {"kind": "micro", "caveats": [
            {"key": "errors", "text": "byte_spawn: fork failed 3 times", "evidence": {"test": "byte_spawn"}}]}
json.dump(d, open("sd.json", "w"))
PY
expect_rc "a score with an unsound caveat in one of its tests (its row refused: 3)" 3 "$KBENCH" compare sa.json sd.json
expect_out_grep "not comparable, naming the caveat and whose tests carry it" \
    "^  B against A: \+0\.50%  not comparable: errors \(in B's tests\)$"
expect_out_grep "the unsound key starred on the score's line" \
    '^FINAL SCORE +100\.0 +100\.5  \[caveats A: busy; B: errors\*\]$'
expect_rc "lkml of the BYTE files" 0 "$KBENCH" compare --style lkml sa.json sb.json
expect_out_grep "lkml: one line for the score, what it is of, its mark and caveats" \
    "^FINAL SCORE \(10 of BYTE's 11 indexed tests; byte_execl skipped\) \|\| 100\.0 -> 100\.5 \+0\.50% same \+-5% \(could see \+-[0-9]+\.[0-9]{2}%\)  \[caveats A: busy\]$"

# ---- lmbench's tables of imported runs: Mhz, whole numbers, Guesses ----
cat >lm.txt <<'LM'
L M B E N C H 2 . 0 S U M M A R Y
Processor, Processes - times in microseconds - smaller is better
----------------------------------------------------------------
Host OS Mhz null null open selct sig sig fork exec sh
call I/O stat clos TCP inst hndl proc proc proc
--------- ------------- ---- ---- ---- ---- ---- ----- ---- ---- ---- ---- ----
box Linux 2.4.20 1000 0.38 0.59 26 27 19 1.20 5.95 327 1448 100184
LM
"$KBENCH" import -o lm-a.json lm.txt >/dev/null 2>&1
sed 's/2\.4\.20/2.4.21/' lm.txt >lm2.txt
"$KBENCH" import -o lm-b.json lm2.txt >/dev/null 2>&1
expect_rc "imported lmbench runs compared" 0 "$KBENCH" compare lm-a.json lm-b.json
expect_out_grep "lmbench's row: Mhz from the report, 100184 whole" '^box +Linux 2\.4\.20 A1 +1000 +0\.38 +0\.59 +26\.0 +27\.0 +19\.0 +1\.20 +5\.95 +327 +1448 +100184$'
expect_no_grep "no figure in exponent form" "$WORK/out" '[0-9]e\+'

if [ ! -d "$SEEDS" ]; then
    skip "the seed reports: none at $SEEDS (set KBENCH_SEEDS)"
    finish
fi
S000=$(ls "$SEEDS"/000_*.txt) S001=$(ls "$SEEDS"/001_*.txt) S002=$(ls "$SEEDS"/002_*.txt)
S003=$(ls "$SEEDS"/003_*.txt)

# ---- 000: the index side by side ----
"$KBENCH" import -o 'b-%k.json' "$S000" >/dev/null 2>&1
expect_rc "000 compared" 0 "$KBENCH" compare b-2.4.0-test6-30.json b-2.4.0-test6-31.json b-2.4.0-test6-32.json
expect_out_grep "000: FINAL SCORE of the three kernels, as printed" '^FINAL SCORE +136\.5\* +135\.7\* +129\.6\*$'
expect_out_grep "000: kbench's working beside the printed scores" \
    '^  \(\* as the report printed it; kbench.s working from the index values above: A 136\.5 B 135\.7 C 129\.6\)$'
# one change for one score: the table's row of the printed score and the
# index block's line say the same
expect_out_grep "000: the table's row of the printed score: -0.59%" '^ +B +1 +135\.7 +135\.7 \+- - +-0\.59%  '
expect_out_grep "000: the index block says the same -0.59%" '^  B against A: -0\.59%  too few runs$'
expect_out_grep "000: an index line, the result and index of each file" '^Process Creation +126\.0 +2073\.1 +164\.5 +2064\.7 +163\.9 +1545\.4 +122\.7$'
expect_out_grep "000: the score's change (the printed scores'); one run each is too few for a verdict" '^  C against A: -5\.05%  too few runs$'
expect_out_grep "000: too few runs said once for B and C" '^  \(too few runs for the U test at 95% against A: B, C; 1 score of A.s runs\)$'
expect_out_grep "000: 'p >= X, q >= Y' explained in words once" '^too few runs: p >= X is the smallest p-value the U test can give so few runs'
expect_lines "000: the eleven indexed tests" -eq 11 "$WORK/out" '^[A-Z].* [0-9]+\.0( +[0-9]+\.[0-9]){6}$'

# ---- 001: the lkml form, block for block ----
"$KBENCH" import -o 'c-%k.json' "$S001" >/dev/null 2>&1
awk '/^--8</ { n++ } n >= 1 && n <= 3' "$S001" >seed-blocks
for from in c-1.3.11-22 c-1.3.10-20 c-1.2.10-59; do
    "$KBENCH" compare --style lkml "$from.json" c-1.3.12-23.json | awk '/^--8</ { n++ } n == 1'
done >ours-marked
# every line carries its verdict's mark after the percentage, where the
# seed's layout has room: one run a kernel is too few for any verdict
expect_lines "001: every test line marked too-few-runs" -eq "$(grep -c ' || ' ours-marked)" \
    ours-marked ' [|][|] .*% too-few-runs$'
sed 's/ too-few-runs$//' ours-marked >ours-blocks
expect_same_file "001: each pair's block is the seed's, line for line (less the mark)" ours-blocks seed-blocks

# ---- 002: the table of runs, and a verdict on it ----
"$KBENCH" import -o 't-%k.json' "$S002" >/dev/null 2>&1
P=t-133_MHz_Pentium_DMA M=t-400_MHz_Mobile_Pentium_II_UDMA_33
expect_rc "002: the runs of the eight files" 0 "$KBENCH" compare --style runs "$P-2.2.16-22.json" "$P-2.2.18.json" \
    "$P-2.2.19pre3.json" "$P-2.4.0-prerelease.json" "$M-2.2.18.json" "$M-2.2.19pre3.json" \
    "$M-2.4.0-prerelease.json" "$M-2.4.0-prerelease_+_prerelease-diff_153405_bytes.json"
sed 1d "$WORK/out" >ours-table
sed -n '/^\[All numbers/,/^Wow/p' "$S002" | sed '1d;$d' >seed-table
expect_same_file "002: the table of runs is the seed's, line for line" ours-table seed-table
expect_rc "002: 2.4.0-prerelease against 2.2.18" 0 "$KBENCH" compare "$P-2.2.18.json" "$P-2.4.0-prerelease.json"
expect_out_grep "002: at 10 clients and 32M, better beyond the noise" '^dbench 10 mem=32M +MB/s +A +5 +2\.86 '
expect_true "002: its verdict" grep -Eq '^ +B +5 +4\.20 .* \+46\.83%  better \(p=0\.008, q=0\.0132\)$' "$WORK/out"

# ---- 003: lmbench 2.0's summary, a row per run ----
"$KBENCH" import -o 'l-%k.json' "$S003" >/dev/null 2>&1
expect_rc "003 compared" 0 "$KBENCH" compare l-2.5.49.json l-2.5.50.json
expect_out_grep "003: a row of the seed's, Mhz and every figure" '^benchtest +Linux 2\.5\.50 B1 +790 +0\.45 +0\.80 +27\.0 +29\.0 +37\.0 +1\.29 +6\.53 +435 +1687 +8182$'
expect_no_grep "003: the row skipped on import is not shown as another's" "$WORK/out" '^benchtest +Linux 2\.5\.49 A1 +790 +0\.40'
expect_out_grep "003: the memory table's warning" '^    \(WARNING - may not be correct, check graphs\)$'
expect_out_grep "003: and its Guesses column" '^Host +OS +Mhz +L1 \$ +L2 \$ +L3 \$ +Main +Guesses$'
expect_out_grep "003: the bandwidths of a run" '^benchtest +Linux 2\.5\.49 A1 +419 +138 +23\.0 +301 +355 +124 +113 +356 +170$'
# lkml: a title two rows share names its test; a lower-is-better one says so
for f in ta tb; do
    python3 - "$f.json" <<'EOF2'
import json, sys
f = 1.0 if sys.argv[1].startswith("ta") else 1.5
rows = [("lat_pipe_1cpu", "Pipe", "us", False, 5.0), ("bw_pipe_1cpu", "Pipe", "MB/s", True, 3000.0),
        ("lat_syscall_stat", "stat", "us", False, 1.6)]
tests = [{"name": n, "params": {"command": "micro", "family": "lmbench", "title": t}, "unit": u,
          "higher_is_better": h, "runs": [{"value": v * f * s} for s in (0.99, 1.0, 1.01)]}
         for n, t, u, h, v in rows]
# a test that gave a figure in run 2 alone of the micro job's 3
tests.append({"name": "lat_mem_l2", "params": {"command": "micro", "family": "lmbench", "title": "L2 $"},
              "unit": "ns", "higher_is_better": False, "runs": [{"value": 3.25 * f, "run_no": 2}]})
json.dump({"kbench_version": "0.1.0", "kind": "suite", "schema": 1, "label": sys.argv[1][:2],
           "tests": tests}, open(sys.argv[1], "w"))
EOF2
done
expect_rc "lkml of rows sharing a title" 0 "$KBENCH" compare --style lkml ta.json tb.json
expect_out_grep "a shared title names its test, unit, direction" '^Pipe \(lat_pipe_1cpu, us, lower is better\) \|\| 5\.00 -> 7\.50 \+50\.00% '
expect_out_grep "... and the other row's" '^Pipe \(bw_pipe_1cpu, MB/s\) \|\| 3000\.0 -> 4500\.0 \+50\.00% '
expect_rc "runs form of micro tests" 0 "$KBENCH" compare --style runs ta.json tb.json
expect_out_grep "runs: a micro test's unit, every run in its place" '^lat_pipe_1cpu \(us\) 4\.95 5 5\.05$'
expect_out_grep "runs: a run without a figure is a -" '^lat_mem_l2 \(ns\) - 3\.25 -$'
expect_out_grep "runs: which MB and which KB" "^\\[MB/s: 10\\^6 bytes a second \\(dbench, tbench, kbench load, lmbench's bandwidths\\); MiB/s: 2\\^20 \\(hdparm, kbench disk\\); KBps: 1024 bytes a second \\(BYTE\\); "
expect_rc "the table of micro tests" 0 "$KBENCH" compare ta.json tb.json
expect_out_grep "the table: which MB and which KB" "^MB = 10\\^6 bytes \\(kbench load, lmbench's bandwidths\\), MiB = 2\\^20 bytes \\(kbench disk\\), KB = 1024 bytes \\(BYTE's KBps\\)"
expect_rc "lkml of rows sharing a title, again" 0 "$KBENCH" compare --style lkml ta.json tb.json
expect_out_grep "a title of its own: the unit and direction only" '^stat \(us, lower is better\) \|\| 1\.60 -> 2\.40 \+50\.00% '

finish
