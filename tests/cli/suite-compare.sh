#!/bin/sh
# kbench - command-line tests: kbench compare on hand-made results files
# (figures checked against ministat and the t-table), bad input, plots;
# kbench suite's bad input
# SPDX-License-Identifier: GPL-3.0-or-later
. "$(dirname "$0")/lib.sh"
cd "$WORK" || exit 1


# the samples of tests/unit/test_ttest.c, as ministat saw them:
#   a: 98.2 101.5 99.7 103.1 100.4      d: 102.0 104.3 101.6 103.9 102.7 101.2
# ministat -c 90: difference 2.03667 +/- 1.71856 (pooled); none proven at 95.
# Welch (kbench): df 6.864, halves 1.849 (90%), 2.310 (95%), 3.429 (99%).
A=98.2,101.5,99.7,103.1,100.4
DD=102.0,104.3,101.6,103.9,102.7,101.2
mk_results a.json base "load 1=$A" "load 5=$A" "lat_x=1.0,1.1,0.9" "only_a=1,2,3"
mk_results b.json new "load 1=$DD" "load 5=$A" "lat_x=2.0,2.1,1.9" "only_b=1,2,3"

expect_rc "compare at 90%" 0 "$KBENCH" compare --test welch --adjust none --confidence 90 a.json b.json
expect_out_grep "90%: load 1 proven better by 2.04 +- 1.85" '^ +B +6 +102\.3 +102\.6 \+- 1\.03 +\+2\.02%  better: \+2\.04 \+- 1\.85 \(\+2\.02% \+- 1\.84%, p=0\.07[0-9]\)$'
expect_out_grep "90%: A's mean and interval" '^load 1 +MB/s +A +5 +100\.4 +100\.6 \+- 1\.76 *$'
expect_out_grep "90%: the same figures: the same within 5%" '^ +B +5 +100\.4 +100\.6 \+- 1\.76 +\+0\.00%  same \+-5% \(p=1\.00; could see \+-2\.16%\)$'
expect_out_grep "a latency that doubled is worse" '^ +B +3 +2\.00 +2\.00 \+- 0\.1686 +\+100\.00%  worse: \+1\.00 \+- '
expect_out_grep "unmatched tests listed apart (A)" '^  A  only_a \(MB/s\), 3 runs: only in A$'
expect_out_grep "unmatched tests listed apart (B)" '^  B  only_b \(MB/s\), 3 runs: only in B$'
expect_rc "compare at 95% (default)" 0 "$KBENCH" compare --test welch --adjust none a.json b.json
# no change proven, but one within 5% is: Welch's 90% interval of the
# difference (TOST at 0.05), 2.04 +- 1.85, lies inside +-5.03
expect_out_grep "95%: load 1 no change proven, the same within 5%" '^ +B +6 +102\.3 +102\.6 \+- 1\.32 +\+2\.02%  same \+-5% \(p=0\.0[78]; could see \+-2\.30%\)$'
expect_out_grep "95%: A's interval" '^load 1 +MB/s +A +5 +100\.4 +100\.6 \+- 2\.30 *$'
expect_rc "compare at 99%" 0 "$KBENCH" compare --test welch --adjust none --confidence 99 a.json b.json
expect_out_grep "99%: A's interval" '^load 1 +MB/s +A +5 +100\.4 +100\.6 \+- 3\.81 *$'
expect_out_grep "99%: load 1 no change proven, could see more than at 95%" '^ +B +6 .* \+2\.02%  same \+-5% \(p=0\.0[78]; could see \+-3\.41%\)$'

# three files: C against A too; fewer than 3 runs: no verdict
mk_results c.json two "load 1=120,121" "load 5=$A"
expect_rc "three files" 0 "$KBENCH" compare --test welch a.json b.json c.json
expect_out_grep "too few runs says so" '^ +C +2 +120\.5 .*too few runs \(3 a side needed\)$'
expect_out_grep "the third file is named C" '^C  c\.json: label two'
expect_rc "lkml with three files" 0 "$KBENCH" compare --test welch --style lkml a.json b.json c.json
expect_lines "lkml: a From/To block per pair, A against B and against C" -eq 2 "$WORK/out" '^From:$'
expect_out_grep "lkml: B's line, its verdict after the change" '^load 1 \(MB/s\) \|\| 100\.6 -> 102\.6 \+2\.02% same \+-5% \(could see \+-2\.76%\)$'
expect_out_grep "lkml: C's line, too few runs for a verdict: marked so" '^load 1 \(MB/s\) \|\| 100\.6 -> 120\.5 \+19\.81% too-few-runs$'
# largest gain first: load 1 up, load 5 unchanged, lat_x doubled (a loss)
expect_true "lkml sorted from the largest gain to the largest loss" test "$(grep -F '||' "$WORK/out" | cut -d' ' -f1,2 | tr '\n' '|')" = "load 1|load 5|lat_x (us,|load 1|load 5|"
expect_out_grep "lkml: a latency that rose is worse, and says lower is better" '^lat_x \(us, lower is better\) \|\| 1\.00 -> 2\.00 \+100\.00% worse$'
expect_out_grep "lkml: the From header" '^\* Linux [^ ]+ [^ ]+'
expect_out_grep "lkml: the marks explained" '^\(means of each; the verdict, when the runs allow one, by Welch.s t-test at 95%: better, worse, same \+-PCT \(proven within it\), not-proven; could see: the smallest change the runs could have proven\)$'
expect_rc "--sort name" 0 "$KBENCH" compare --test welch --sort name a.json b.json
expect_true "name order" test "$(grep -Eo '^(lat_x|load [0-9]+)' "$WORK/out" | tr '\n' '|')" = "lat_x|load 1|load 5|"

# a run under --mem-limit against one without: matched when each side has
# one such test, with a note; two limits of the same test are not guessed
mk_results m.json lim "load 1 mem=12M=$DD" "load 5 mem=12M=$A" "load 5 mem=64M=$A"
expect_rc "compare across a memory limit" 0 "$KBENCH" compare --test welch --confidence 90 a.json m.json
expect_out_grep "the limited test is matched" '^ +B +6 +102\.3 +102\.6 \+- 1\.03 +\+2\.02%  better: '
expect_out_grep "and the match is said" '^note: load 1 of A compared with load 1 mem=12M of B \(memory limits differ\)$'
expect_out_grep "two limits of one test stay apart" '^  B  load 5 mem=64M \(MB/s\), 5 runs: only in B$'
expect_out_grep "both of them" '^  B  load 5 mem=12M \(MB/s\), 5 runs: only in B$'

# large figures in full (not cut to the column), a zero baseline gives no change
mk_results big-a.json big "load 1=3e12,3.1e12,2.9e12" "lat_z=0,0,0"
mk_results big-b.json big "load 1=3e12,3.1e12,2.95e12" "lat_z=0,0,1"
expect_rc "large figures" 0 "$KBENCH" compare --test welch big-a.json big-b.json
expect_out_grep "large figures whole, never in exponent form" '^ +B +3 +3000000000000 3016666666667 \+- 189729151680 +\+0\.56%  not proven \(p=0\.83, q=0\.831; could see \+-8\.77%\)$'
expect_rc "lkml, zero baseline" 0 "$KBENCH" compare --test welch --style lkml big-a.json big-b.json
expect_out_grep "lkml: no change against a zero mean: n/a" '^lat_z \(us, lower is better\) \|\| 0 -> 0\.3333 n/a not-proven \(could see n/a\)$'
expect_true "lkml: never nan" sh -c '! grep -qi nan "$0"' "$WORK/out"
# a difference proven against a zero mean: its size, but no percentage
mk_results zero-a.json zero "lat_z=0,0,0" "load 1=0,0,0"
mk_results zero-b.json five "lat_z=5,5.1,4.9" "load 1=1,2,3"
expect_rc "a proven change against a zero mean" 0 "$KBENCH" compare --test welch zero-a.json zero-b.json
expect_out_grep "table: the change is n/a" '^ +B +3 +5\.00 +5\.00 \+- 0\.2484 +n/a  worse: \+5\.00 \+- 0\.2[0-9]+ \(n/a, p=[0-9.e-]+, q=0\.000267\)$'
expect_out_grep "table: n/a for MB/s too" '^ +B +3 +2\.00 +2\.00 \+- 2\.48 +n/a  not proven \(p=0\.07, q=0\.0742; could see n/a\)$'
expect_true "table: never nan or inf" sh -c '! grep -Eqi "nan|inf" "$0"' "$WORK/out"
expect_rc "lkml: a proven change against a zero mean" 0 "$KBENCH" compare --test welch --style=lkml zero-a.json zero-b.json
expect_true "lkml: n/a on every line" test "$(grep -c ' n/a [-a-z?]*\( (could see n/a)\)\?$' "$WORK/out")" -eq 2

# a long name of two-byte characters is cut at a character in the Go form
mk_results utf.json utf "$(python3 -c 'print("\u00e9" * 100)')=1,2,3"
expect_rc "--export of a long UTF-8 name" 0 "$KBENCH" compare --test welch --export utf.json
expect_true "the Go form is valid UTF-8" python3 -c 'import sys; open(sys.argv[1], encoding="utf-8", errors="strict").read()' "$WORK/out"
expect_out_grep "the name cut after 63 characters" "^BenchmarkMicro/test=$(python3 -c 'print("\u00e9" * 63)') 1 1 MB/s$"

# ---- strings from a file never reach the terminal raw: escaped ----
# plain FILE [ALSO]: valid UTF-8 without a control character but the
# newline (and the characters of ALSO)
plain() {
    python3 -c 'import sys; t = open(sys.argv[1], "rb").read().decode("utf-8"); sys.exit(any((ord(c) < 32 and c not in "\n" + sys.argv[2]) or 0x7f <= ord(c) <= 0x9f for c in t))' "$1" "${2:-}"
}
python3 - <<'EOF'
import json
osc = "\u001b]0;owned\u0007"    # sets the terminal's title
for path, vals in (("esc-a.json", [1, 2, 3]), ("esc-b.json", [2, 3, 4])):
    d = {"kbench_version": "0.1.0", "kind": "suite", "schema": 1, "label": "lab" + osc,
         "started": "2026\u001b[2J", "params": {"loadfile": "lf\u007f" + path},
         "system": {"kernel": "k\u009b31m", "hostname": "h\u001b[31m"}, "finished": True,
         "tests": [{"name": "t" + osc, "params": {"command": "micro"}, "unit": "u\u001b[1m",
                    "higher_is_better": True, "runs": [{"value": v} for v in vals]},
                   {"name": "only-" + path + "\u001b[5m", "params": {"command": "micro"},
                    "unit": "us", "higher_is_better": False, "runs": [{"value": 1}]}]}
    json.dump(d, open(path, "w"))
EOF
cp esc-b.json "$(printf 'e\033[2J\377.json')"
expect_rc "escapes: compare" 0 "$KBENCH" compare --test welch esc-a.json "$(printf 'e\033[2J\377.json')"
expect_true "escapes: the table is plain text" plain "$WORK/out"
expect_out_grep "escapes: label, kernel, host, start shown escaped" '^A  esc-a\.json: label lab\\x1b\]0;owned\\x07, kernel k\\u009b31m, host h\\x1b\[31m, started 2026\\x1b\[2J$'
expect_out_grep "escapes: a file name with an escape and a byte that is not UTF-8" '^B  e\\x1b\[2J\\xff\.json: label '
expect_out_grep "escapes: the test and its unit, columns in line" '^t\\x1b\]0;owned\\x07  u\\x1b\[1m  A +3 +2\.00 '
expect_out_grep "escapes: a note of params" '^note: loadfile differs: A "lf\\x7fesc-a\.json", B "lf\\x7fesc-b\.json"$'
expect_out_grep "escapes: a test not compared" '^  A  only-esc-a\.json\\x1b\[5m \(us\), 1 run: only in A$'
expect_rc "escapes: lkml" 0 "$KBENCH" compare --test welch --style lkml esc-a.json esc-b.json
expect_true "escapes: the lkml lines are plain text" plain "$WORK/out"
expect_out_grep "escapes: the lkml line" '^t\\x1b\]0;owned\\x07 \(u\\x1b\[1m\) \|\| 2\.00 -> 3\.00 \+50\.00% not-proven \(could see \+-113\.35%\)$'
expect_rc "escapes: --export" 0 "$KBENCH" compare --test welch --export esc-a.json
expect_true "escapes: the Go form is plain text" plain "$WORK/out"
expect_out_grep "escapes: --export label" '^label: lab\\x1b\]0;owned\\x07$'
expect_out_grep "escapes: --export benchmark line" '^BenchmarkMicro/test=t\\x1b\]0;owned\\x07 1 1 u\\x1b\[1m$'
python3 -c 'import json; d = json.load(open("esc-a.json")); d["tests"][1]["name"] = d["tests"][0]["name"]; d["tests"][1]["unit"] = d["tests"][0]["unit"]; json.dump(d, open("esc-dup.json", "w"))'
expect_rc "escapes: an error naming a test" 2 "$KBENCH" compare --test welch esc-a.json esc-dup.json
expect_true "escapes: the error line is plain text" plain "$WORK/err"
expect_err_grep "escapes: the error names the test escaped" "^kbench compare: esc-dup\.json: test 't\\\\x1b\\]0;owned\\\\x07' \\(u\\\\x1b\\[1m\\) appears twice$"
expect_rc "escapes: a missing file named with an escape" 2 "$KBENCH" compare --test welch esc-a.json "$(printf 'no\033[2J.json')"
expect_true "escapes: its error line is plain text" plain "$WORK/err"
if command -v gnuplot >/dev/null 2>&1; then
    expect_rc "escapes: --plot" 0 "$KBENCH" compare --test welch --plot esc.svg esc-a.json esc-b.json
    expect_true "escapes: the picture is plain text (gnuplot's tabs aside)" plain esc.svg "$(printf '\t')"
    expect_true "escapes: the picture shows the escapes" grep -qF 't\x1b]0;owned\x07 (u\x1b[1m)' esc.svg
fi

# ---- steal: a run the hypervisor took time from is said, per file ----
# mk_load FILE LABEL TEST=STEAL/MEASURED,... ...: a results file of load
# runs (figures 100, 101, ...) whose documents record results.steal_pct
# over results.measured_s; "-" leaves both keys out (an older kbench),
# "null" is a steal_pct of null
mk_load() {
    python3 - "$@" <<'EOF2'
import json, sys
path, label = sys.argv[1], sys.argv[2]
tests = []
for spec in sys.argv[3:]:
    name, runs = spec.rsplit("=", 1)
    rr = []
    for i, r in enumerate(runs.split(",")):
        res = {"throughput_MBps": 100.0 + i}
        if r != "-":
            st, ms = r.split("/")
            res["steal_pct"] = None if st == "null" else float(st)
            res["measured_s"] = float(ms)
        rr.append({"value": 100.0 + i, "started": "2026-01-01T00:00:00Z", "seconds": 1.0,
                   "document": {"kbench_version": "0.1.0", "kind": "load", "results": res}})
    params = {"command": "load", "clients": int(name.split()[1])}
    if " mem=" in name:
        params["mem_limit"] = name.split(" mem=")[1]
    tests.append({"name": name, "params": params, "unit": "MB/s", "higher_is_better": True,
                  "runs": rr})
doc = {"kbench_version": "0.1.0", "kind": "suite", "time": "2026-01-01T00:00:00Z",
       "schema": 1, "label": label, "command": ["kbench", "suite"], "cwd": "/",
       "params": {"timelimit_s": 60.0}, "system": {"kernel": label, "hostname": "h"},
       "started": "2026-01-01T00:00:00Z", "finished": True, "done": {}, "failures": [],
       "tests": tests}
json.dump(doc, open(path, "w"))
EOF2
}
# B: run 2 of load 1 lost 12.34% of 60 s, run 4 of load 5 3.06%: the
# larger is named; the others' steal is below the rule (a tick of 1/100 s
# is 1% of 1 s: 1.5% of 1 s is not surely 1%), null, or absent
mk_load ld-a.json old "load 1=-,-,-,-,-" "load 5=-,-,-,-,-"
mk_load ld-b.json new "load 1=0/60,12.34/60,0.2/60,0/60,0/60" "load 5=0/60,0/60,0/60,3.06/60,0/60"
mk_load ld-low.json low "load 1=1.5/1,0.9/60,0.5/600,50/0,0/60" "load 5=null/60,-,-,-,-"
mk_load ld-null.json null "load 1=null/60,null/60,null/60,null/60,null/60" "load 5=-,-,-,-,-"
STEAL_B='^steal: ld-b\.json: the hypervisor took up to 12\.3% of a CPU.s time in run 2 of load 1 \(steal in /proc/stat\): its figures are not a quiet machine.s$'
expect_rc "steal: compare, B with steal" 0 "$KBENCH" compare ld-a.json ld-b.json
expect_out_grep "steal: B's largest notable steal is said: file, run, test, one decimal" "$STEAL_B"
expect_lines "steal: one line, for B alone" -eq 1 "$WORK/out" '^steal: '
expect_true "steal: the line comes last" test "$(tail -n 1 "$WORK/out" | cut -c1-7)" = "steal: "
expect_out_grep "steal: the verdicts are as without it, the caveat beside them" '^ +B +5 +102\.0 +102\.0 .* \+0\.00%  same \+-5% \(p=1\.000, q=1; could see \+-2\.94%\)  \[caveats: steal\]$'
expect_empty_file "steal: nothing on standard error" "$WORK/err"
expect_rc "steal: B first, as A" 0 "$KBENCH" compare ld-b.json ld-low.json ld-a.json
expect_lines "steal: the file named wherever it stands, the others not" -eq 1 "$WORK/out" '^steal: ld-b\.json: .* run 2 of load 1 '
expect_lines "steal: below the rule, no line" -eq 1 "$WORK/out" '^steal: '
expect_rc "steal: below the rule, null, absent" 0 "$KBENCH" compare ld-low.json ld-null.json ld-a.json
expect_no_grep "steal: no line for steal below the rule, null or absent" "$WORK/out" 'steal'
expect_empty_file "steal: and nothing on standard error" "$WORK/err"
expect_rc "steal: lkml" 0 "$KBENCH" compare --style lkml ld-a.json ld-b.json
expect_out_grep "steal: after the lkml lines too" "$STEAL_B"
expect_rc "steal: --json" 0 "$KBENCH" compare --json ld-a.json ld-b.json ld-low.json ld-null.json
expect_py "steal: --json gives each file's steal, null without" "$WORK/out" <<'EOF2'
import json, sys
d = json.load(open(sys.argv[1]))
st = [f["steal"] for f in d["files"]]
assert st[0] is None and st[2] is None and st[3] is None, st
assert st[1] == {"pct": 12.34, "wall_s": 60.0, "run": 2, "test": "load 1"}, st[1]
EOF2
expect_no_grep "steal: --json prints no text line" "$WORK/out" '^steal: '
mk_results none-st.json x "load 2=1,2,3"
expect_rc "steal: nothing in common, still said" 1 "$KBENCH" compare ld-b.json none-st.json
expect_out_grep "steal: nothing in common, the line" "$STEAL_B"
# --by mem: each limit is a file of its own, and so is its steal
mk_load ld-by.json by "load 1 mem=none=0/60,0/60,0/60" "load 1 mem=32M=0/60,0/60,7.26/30"
expect_rc "steal: --by mem" 0 "$KBENCH" compare --by mem ld-by.json
expect_out_grep "steal: --by mem names the limit's file and the test as compared" '^steal: ld-by\.json mem=32M: the hypervisor took up to 7\.3% of a CPU.s time in run 3 of load 1 \(steal'
expect_lines "steal: --by mem, one line" -eq 1 "$WORK/out" '^steal: '
# names from the file and the file's name escaped
python3 -c 'import json; d = json.load(open("ld-b.json")); d["tests"][0]["name"] = "load 1\u001b[2J"; json.dump(d, open("ld-esc.json", "w"))'
cp ld-esc.json "$(printf 'st\033]0;x\007.json')"
expect_rc "steal: escapes" 0 "$KBENCH" compare ld-a.json "$(printf 'st\033]0;x\007.json')"
expect_out_grep "steal: the file and the test escaped" '^steal: st\\x1b\]0;x\\x07\.json: the hypervisor took up to 12\.3% of a CPU.s time in run 2 of load 1\\x1b\[2J \(steal'

# ---- steal no measurement gives: the file refused, one line, exit 2 ----
# set_doc IN OUT TEST RUN KEY VALUE: IN with key KEY of the results of run
# RUN (from 1) of test TEST's document set to the JSON VALUE ("-": removed)
set_doc() {
    python3 - "$@" <<'EOF2'
import json, sys
src, dst, test, run, key, val = sys.argv[1:]
d = json.load(open(src))
res = [t for t in d["tests"] if t["name"] == test][0]["runs"][int(run) - 1]["document"]["results"]
if val == "-":
    del res[key]
else:
    res[key] = json.loads(val)
json.dump(d, open(dst, "w"))
EOF2
}
for v in '"12.34"' '-0.5' '100.01' '1e300' '[12]' '{}' 'true'; do
    set_doc ld-b.json ld-bad.json "load 1" 2 steal_pct "$v"
    expect_bad "steal: a steal_pct of $v refused" '^kbench compare: ld-bad\.json: test .load 1.: run 2: the steal_pct of its load document is (not a number|-0\.5|100\.01|1e\+300): a share of a CPU.s time is a number from 0 to 100$' \
        "$KBENCH" compare ld-a.json ld-bad.json
done
for v in '"60"' '-1'; do
    set_doc ld-b.json ld-bad.json "load 1" 2 measured_s "$v"
    expect_bad "steal: a measured_s of $v refused" '^kbench compare: ld-bad\.json: test .load 1.: run 2: the measured_s of its load document is (not a number|-1): seconds are a number of 0 or more$' \
        "$KBENCH" compare ld-a.json ld-bad.json
done
# a share of all of it is a figure; seconds missing, null or 0 judge nothing
set_doc ld-b.json ld-all.json "load 1" 2 steal_pct 100
expect_rc "steal: 100% of 60 s" 0 "$KBENCH" compare ld-a.json ld-all.json
expect_out_grep "steal: 100% is said" '^steal: ld-all\.json: the hypervisor took up to 100\.0% of a CPU.s time in run 2 of load 1 '
for w in - null 0; do
    set_doc ld-b.json ld-now.json "load 1" 2 measured_s "$w"
    set_doc ld-now.json ld-now.json "load 5" 4 measured_s "$w"
    expect_rc "steal: measured_s $w" 0 "$KBENCH" compare ld-a.json ld-now.json
    expect_no_grep "steal: measured_s $w, no line" "$WORK/out" 'steal'
done

# ---- bad input: one line naming the file, exit 2 ----
echo 'not json' >text.json
expect_bad "not JSON" '^kbench compare: text\.json: not a kbench results file: not JSON \(line 1' "$KBENCH" compare --test welch a.json text.json
echo '{"kbench_version": "0.1.0", "kind": "load", "results": {}}' >load.json
expect_bad "a load document" '^kbench compare: load\.json: not a kbench suite results file \(kind "load"' "$KBENCH" compare --test welch load.json a.json
echo '{"a": 1}' >other.json
expect_bad "some other JSON" '^kbench compare: other\.json: not a kbench results file$' "$KBENCH" compare --test welch a.json other.json
python3 -c 'import json; d = json.load(open("a.json")); d["schema"] = 2; json.dump(d, open("new.json", "w"))'
expect_bad "a newer schema" '^kbench compare: new\.json: schema 2 is newer than this kbench reads \(1\)' "$KBENCH" compare --test welch a.json new.json
mk_results empty.json empty "load 1=" "load 5="
expect_bad "no runs" '^kbench compare: empty\.json: no runs recorded' "$KBENCH" compare --test welch a.json empty.json
mk_results dup.json dup "load 1=1,2,3" "load 1=4,5,6"
expect_bad "a test twice" "^kbench compare: dup\.json: test 'load 1' \(MB/s\) appears twice$" "$KBENCH" compare --test welch a.json dup.json
mk_results huge.json huge "load 1=1e308,1e308,1e308"
expect_bad "figures whose sum overflows" "^kbench compare: huge\.json: test 'load 1': its figures are too large to average$" "$KBENCH" compare --test welch a.json huge.json
mk_results spread.json spread "score=1e200,-1e200,1e200"
expect_bad "figures whose spread overflows" "^kbench compare: spread\.json: test 'score': its figures are too large to average$" "$KBENCH" compare --test welch spread.json a.json
# figures no measurement gives: a negative throughput, rate or time
mk_results neg.json neg "load 1=100,-5,101"
expect_bad "a negative MB/s" "^kbench compare: neg\.json: test 'load 1': run 2 is -5 MB/s, and a figure in MB/s cannot be negative$" "$KBENCH" compare --test welch a.json neg.json
mk_results neglat.json neg "lat_x=1,2,-0.5"
expect_bad "a negative latency" "^kbench compare: neglat\.json: test 'lat_x': run 3 is -0\.5 us, and a figure in us cannot be negative$" "$KBENCH" compare --test welch neglat.json a.json
python3 - a.json <<'EOF'
import json, sys
for unit in ("MiB/s", "lps", "KBps", "ns/op", "s"):
    d = json.load(open(sys.argv[1]))
    d["tests"][0]["unit"] = unit
    d["tests"][0]["runs"][1]["value"] = -1
    json.dump(d, open("neg-%s.json" % unit.replace("/", "_"), "w"))
EOF
for u in MiB_s lps KBps ns_op s; do
    expect_bad "a negative figure in $u" "^kbench compare: neg-$u\.json: test 'load 1': run 2 is -1 .*cannot be negative$" "$KBENCH" compare --test welch a.json "neg-$u.json"
done
mk_results negscore.json score "score=-3,-2,-4" "load 1=1,2,3"
mk_results negscore2.json score "score=-3,-2,-4.5" "load 1=1,2,3"
expect_rc "a negative figure in a unit that may have one" 0 "$KBENCH" compare --test welch negscore.json negscore2.json
# not numbers at all: JSON has no NaN or infinity, so the file is no JSON
python3 -c 'import json; d = json.load(open("a.json")); d["tests"][0]["runs"][0]["value"] = float("nan"); json.dump(d, open("nan.json", "w"))'
expect_bad "a NaN figure" '^kbench compare: nan\.json: not a kbench results file: not JSON \(line 1: .*NaN' "$KBENCH" compare --test welch a.json nan.json
python3 -c 'import json; d = json.load(open("a.json")); d["tests"][0]["runs"][0]["value"] = float("inf"); json.dump(d, open("inf.json", "w"))'
expect_bad "an infinite figure" '^kbench compare: inf\.json: not a kbench results file: not JSON \(line 1: .*Infinity' "$KBENCH" compare --test welch a.json inf.json
sed 's/98\.2/1e999/' a.json >huge-literal.json
expect_bad "a figure beyond a double" '^kbench compare: huge-literal\.json: not a kbench results file: not JSON \(line 1: real number overflow' "$KBENCH" compare --test welch a.json huge-literal.json
expect_bad "same file twice" '^kbench compare: \./a\.json: the same file as a\.json' "$KBENCH" compare --test welch a.json ./a.json
mkdir -p adir.json
expect_bad "a directory" '^kbench compare: adir\.json: Is a directory$' "$KBENCH" compare --test welch a.json adir.json
: >zero.json
expect_bad "an empty file" '^kbench compare: zero\.json: not a kbench results file: not JSON' "$KBENCH" compare --test welch a.json zero.json
head -c 200 a.json >cut.json
expect_bad "a truncated file" '^kbench compare: cut\.json: not a kbench results file: not JSON \(line 1: premature end of input' "$KBENCH" compare --test welch a.json cut.json
ln -sf a.json link.json
expect_bad "the same file by a symbolic link" '^kbench compare: link\.json: the same file as a\.json' "$KBENCH" compare --test welch a.json link.json
expect_bad "missing file" '^kbench compare: nope\.json: No such file' "$KBENCH" compare --test welch a.json nope.json
expect_bad "one file" 'give at least two results files' "$KBENCH" compare --test welch a.json
expect_bad "--confidence 80" '--confidence 80: give 90, 95 or 99' "$KBENCH" compare --test welch --confidence 80 a.json b.json
expect_bad "--style" '--style html: give table, lkml or runs' "$KBENCH" compare --test welch --style html a.json b.json
expect_bad "--sort" '--sort size: give change or name' "$KBENCH" compare --test welch --sort size a.json b.json
expect_bad "--plot extension" '--plot x\.pdf: the name must end in \.svg or \.png' "$KBENCH" compare --test welch --plot x.pdf a.json b.json
expect_bad "--plot name with a newline" '--plot: the name holds a control character' "$KBENCH" compare --test welch --plot "$(printf 'p\nq.svg')" a.json b.json
expect_bad "--export with two files" '--export takes one results file' "$KBENCH" compare --test welch --export a.json b.json

# ---- plots ----
expect_rc "--plot without gnuplot: exit 1" 1 env PATH=/nonexistent "$KBENCH" compare --test welch --plot p.svg a.json b.json
expect_err_grep "--plot without gnuplot: how to install it" 'gnuplot is not installed; install it \(Debian: apt-get install gnuplot-nox\)'
expect_true "--plot without gnuplot: nothing drawn" test ! -e p.svg
if command -v gnuplot >/dev/null 2>&1; then
    expect_rc "--plot SVG" 0 "$KBENCH" compare --test welch --plot p.svg a.json b.json c.json
    expect_true "SVG written, both charts, every file in the key" sh -c 'grep -q "<svg" p.svg && grep -q "mean MB/s against clients" p.svg && grep -q "change of the mean against A" p.svg && grep -q "A: base" p.svg && grep -q "C: two" p.svg'
    expect_rc "--plot PNG" 0 "$KBENCH" compare --test welch --plot p.png a.json b.json
    expect_true "PNG written" sh -c 'head -c 8 p.png | od -An -c | grep -q "P   N   G"'
    # names from a results file never reach gnuplot as commands: a newline
    # in a test name or unit would end the datablock line and start one
    python3 - <<'EOF'
import json
evil = 'x"\nEOD\nsystem("touch gp-pwned-name")\n$Z << EOD\n'
unit = 'us\nEOD\nsystem("touch gp-pwned-unit")\n$Y << EOD\n'
for path, vals in (("ev-a.json", [1, 2, 3]), ("ev-b.json", [1, 2, 4])):
    d = json.load(open("a.json"))
    d["label"] = 'l\nsystem("touch gp-pwned-label")\n'
    d["tests"] = [{"name": evil, "params": {"command": "micro"}, "unit": unit,
                   "higher_is_better": True, "runs": [{"value": v} for v in vals]}]
    json.dump(d, open(path, "w"))
EOF
    expect_rc "--plot with newlines in names" 0 "$KBENCH" compare --test welch --plot ev.svg ev-a.json ev-b.json
    expect_true "no gnuplot command from a test name, unit or label" sh -c '! ls gp-pwned-* 2>/dev/null | grep -q .'
    expect_true "the bar is drawn, its name on one line, escaped" grep -q 'x.\\x0aEOD\\x0asystem' ev.svg
    # an output name starting with '|' is a file, not a command for gnuplot
    expect_rc "--plot '|...svg'" 0 "$KBENCH" compare --test welch --plot '|touch gp-pwned-pipe #.svg' a.json b.json
    expect_true "--plot '|...': no command run" test ! -e gp-pwned-pipe
    expect_true "--plot '|...': the file of that name written" grep -q '<svg' '|touch gp-pwned-pipe #.svg'
    expect_rc "--plot with quotes and blanks in the name" 0 "$KBENCH" compare --test welch --plot "it's a \"plot\".svg" a.json b.json
    expect_true "--plot with quotes and blanks: written" grep -q '<svg' "it's a \"plot\".svg"
else
    skip "--plot (gnuplot not installed)"
fi

# ---- kbench suite: bad input, nothing run ----
expect_bad "suite --runs 0" '--runs 0: give a whole number from 1 to 1000' "$KBENCH" suite --runs 0 --pause 0
expect_bad "suite --clients" "--clients 1,x: 'x' is not a client count" "$KBENCH" suite --clients 1,x --pause 0
expect_bad "suite --clients empty item" '--clients 1,,2: give up to 64 client counts' "$KBENCH" suite --clients 1,,2 --pause 0
expect_bad "suite -t 0" '-t 0: give a duration above 0' "$KBENCH" suite -t 0
expect_bad "suite --format" '--format xml: give text or benchstat' "$KBENCH" suite --format xml
expect_bad "suite -D missing" '-D nothere: No such file or directory' "$KBENCH" suite -D nothere
expect_bad "suite --disk missing" '--disk /nonexistent: No such file' "$KBENCH" suite --disk /nonexistent
expect_bad "suite --mem-limit bad" "--mem-limit: '12Q' is neither a size" "$KBENCH" suite --mem-limit 32M,12Q
expect_bad "suite --clients twice" '--clients 1,5,01: 1 is given twice' "$KBENCH" suite --clients 1,5,01
expect_bad "suite --mem-limit twice" "--mem-limit: '32M' is given twice" "$KBENCH" suite --mem-limit 32M,none,32M
expect_bad "suite --mem-limit 0" "--mem-limit: '0' would let no load run" "$KBENCH" suite --mem-limit none,0
expect_bad "suite --mem-limit too long" "--mem-limit: '0000000000.*\\.\\.\\.' is too long for a size" "$KBENCH" suite --mem-limit "$(printf '0%.0s' $(seq 1 90))64M,$(printf '0%.0s' $(seq 1 90))65M"
expect_bad "suite argument" "unexpected argument 'extra'" "$KBENCH" suite extra
mkdir -p d
expect_bad "suite results inside DIR" 'd/r\.json: inside the run directory d' "$KBENCH" suite -D d -o d/r.json
cp "$DATA/bad-line.txt" bad.txt
mkfifo fifo.json
expect_bad "suite results into a FIFO" '^kbench suite: -o fifo\.json: not a regular file' "$KBENCH" suite -o fifo.json
expect_true "the FIFO stays one" test -p fifo.json
expect_bad "suite results into a directory" '^kbench suite: -o d: not a regular file' "$KBENCH" suite -o d
ln -s /dev/null devnull.json
expect_bad "suite results onto a link to a device" '^kbench suite: -o devnull\.json: a symbolic link, which kbench does not follow' "$KBENCH" suite -o devnull.json
expect_true "the device stays one" test -c /dev/null
expect_bad "suite results over the loadfile" '^kbench suite: -o bad\.txt: that is bad\.txt$' "$KBENCH" suite -c bad.txt -o bad.txt
expect_true "the loadfile is kept" cmp -s bad.txt "$DATA/bad-line.txt"
# the loadfile kbench load reads (the default, or a bare -c name of a
# shipped one) is never written over; -D nothere: were -o not refused,
# the suite would stop at the directory, still before writing anything
mkdir -p ldir
"$KBENCH" load -q -t 1 --warmup 0 -D ldir --json ld.json 1 >/dev/null 2>&1
deflf=$(jget ld.json 'd["params"]["loadfile"]')
defsum=$(cksum <"$deflf")
expect_bad "suite results over the default loadfile" "^kbench suite: -o .*/client\.txt: that is .*/client\.txt\$" "$KBENCH" suite -D nothere --clients 1 --runs 1 -t 1 --pause 0 -o "$deflf"
expect_bad "suite results over the default loadfile, named -c client.txt" "^kbench suite: -o .*/client\.txt: that is .*/client\.txt\$" "$KBENCH" suite -D nothere -c client.txt -o "$deflf"
smalllf="$(dirname "$deflf")/smallfiles.txt"
expect_bad "suite results over a shipped loadfile named -c smallfiles.txt" "^kbench suite: -o .*/smallfiles\.txt: that is .*/smallfiles\.txt\$" "$KBENCH" suite -D nothere -c smallfiles.txt -o "$smalllf"
expect_true "the default loadfile is kept" test "$(cksum <"$deflf")" = "$defsum"
expect_bad "suite results where a bare -c name would then be found" "^kbench suite: -o smallfiles\.txt: kbench load would take it for the loadfile -c smallfiles\.txt \(a bare name is looked for here first\)" "$KBENCH" suite -D nothere -c smallfiles.txt -o smallfiles.txt
expect_true "nothing made in its place" test ! -e smallfiles.txt
head -c 65536 /dev/zero >disk.img
expect_bad "suite results over the disk" '^kbench suite: -o disk\.img: that is disk\.img$' "$KBENCH" suite --disk disk.img -o disk.img
expect_bad "suite results to standard output" '^kbench suite: -o -: the results file is rewritten' "$KBENCH" suite -o -
expect_bad "suite loadfile refused" "-c bad.txt: kbench load --check refuses it" "$KBENCH" suite -c bad.txt
if "$KBENCH" help load | grep -q -- --mem-limit; then
    skip "--mem-limit refused (this kbench load has it)"
else
    expect_bad "suite --mem-limit without load's option" "--mem-limit: this kbench's load command has no --mem-limit option" "$KBENCH" suite --mem-limit 32M,none
fi
if "$KBENCH" help micro >/dev/null 2>&1; then
    skip "--micro refused (this kbench has micro)"
else
    expect_bad "suite --micro without micro" '--micro: this kbench has no micro command' "$KBENCH" suite --micro
fi
if [ "$(id -u)" -ne 0 ]; then
    expect_bad "suite --drop-caches as a user" '--drop-caches: needs root' "$KBENCH" suite --drop-caches
elif command -v setpriv >/dev/null 2>&1; then
    chmod 777 "$WORK"
    expect_bad "suite --drop-caches as nobody" '--drop-caches: needs root' setpriv --reuid=65534 --regid=65534 --clear-groups "$KBENCH" suite --drop-caches
else
    skip "--drop-caches as a user (root without setpriv)"
fi
expect_true "no results file left by refused suites" sh -c '! ls kbench-*.json 2>/dev/null | grep -q .'
expect_true "no temporary directory left" sh -c '! ls -A . | grep -q kbench-suite'

finish
