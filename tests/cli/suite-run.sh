#!/bin/sh
# kbench - command-line tests: kbench suite runs, its results file, the table,
# benchstat lines, an interrupted series resumed, and compare on real files
# SPDX-License-Identifier: GPL-3.0-or-later
. "$(dirname "$0")/lib.sh"

LF="$KBENCH_TOP_SRCDIR/loadfiles/smallfiles.txt"
D=$WORK/dir
mkdir -p "$D"
cd "$WORK" || exit 1
# the runs are short (0.3 s) where nothing waits on them; the series
# that is interrupted mid-way runs 1 s each (RUNS1S), so the signal finds
# it still running
SHORT="-D $D --clients 1,2 --runs 3 -t 0.3 --warmup 0 --pause 0 -c $LF"
RUNS1S="-D $D --clients 1,2 --runs 3 -t 1 --warmup 0 --pause 0 -c $LF"

# ---- a short series ----
# shellcheck disable=SC2086
expect_rc "short suite" 0 "$KBENCH" suite $SHORT --label base -o a.json
cp "$WORK/out" table.txt
cp "$WORK/err" progress.txt
expect_true "results file written" test -s a.json
expect_empty_dir "run directory left empty" "$D"
expect_true "no temporary directory left" sh -c '! ls -A "$0" | grep -q kbench-suite' "$WORK"
expect_true "no lock file left" test ! -e a.json.lock
expect_true "kind, schema, label, finished" test "$(jget a.json '(d["kind"], d["schema"], d["label"], d["finished"], d["interrupted"])')" = "('suite', 1, 'base', True, False)"
expect_true "tests in order, 3 runs each" test "$(jget a.json '[(t["name"], t["unit"], t["higher_is_better"], len(t["runs"])) for t in d["tests"]]')" = "[('load 1', 'MB/s', True, 3), ('load 2', 'MB/s', True, 3)]"
# (what a run of 0.3 s gets done depends on the machine: the figure is
# checked against the bytes and seconds its run says it measured)
expect_true "every figure is its load document's throughput, its bytes / 10^6 / seconds" test "$(jget a.json 'all(r["value"] == r["document"]["results"]["throughput_MBps"] and r["document"]["results"]["measured_s"] > 0 and abs(r["document"]["results"]["bytes"] / 1e6 / r["document"]["results"]["measured_s"] - r["value"]) <= 1e-6 * r["value"] + 1e-9 and r["document"]["kind"] == "load" for t in d["tests"] for r in t["runs"])')" = True
expect_true "load children got the clients and -t" test "$(jget a.json '[r["document"]["params"]["clients"] for t in d["tests"] for r in t["runs"]] + [d["tests"][0]["runs"][0]["document"]["params"]["timelimit_s"]]')" = "[1, 1, 1, 2, 2, 2, 0.3]"
expect_true "done counts" test "$(jget a.json 'd["done"]')" = "{'load 1': 3, 'load 2': 3}"
expect_true "command line stored" test "$(jget a.json 'd["command"][:3] + d["command"][-2:]')" = "['kbench', 'suite', '-D', '-o', 'a.json']"
expect_true "system facts" test "$(jget a.json 'sorted(k for k in ("kernel", "kernel_version", "hostname", "cpu_model", "cpus_online", "mem_total_kB", "fs_type", "fs_source", "fs_options", "directory", "cgroup_memory_limit_bytes") if k in d["system"])')" = "['cgroup_memory_limit_bytes', 'cpu_model', 'cpus_online', 'directory', 'fs_options', 'fs_source', 'fs_type', 'hostname', 'kernel', 'kernel_version', 'mem_total_kB']"
expect_true "kernel release recorded" test "$(jget a.json 'd["system"]["kernel"]')" = "$(uname -r)"
expect_true "start and end times" test "$(jget a.json 'd["started"] <= d["ended"] and d["ended"].endswith("Z")')" = True

# the progress lines: which run of how many, the figure with its unit, time left
expect_file_grep "a progress line per run: the first" progress.txt \
    '^kbench suite: \[1/6\] load 1, run 1 of 3: [0-9.]+ MB/s \(MB = 10\^6 bytes\)( \[caveats: busy\])?; about [0-9]+(s|m[0-9]+s) left$'
expect_file_grep "a progress line per run: the last" progress.txt '^kbench suite: \[6/6\] load 2, run 3 of 3: '
expect_lines "a progress line per run: six" -eq 6 progress.txt ''

# the table: the runs, then min, median, mean, max, CoV (checked against the file;
# on a busy machine a note line "load 1: busy (runs ...)" follows, left out here)
# (two decimals; 4 significant digits in a row of figures all below 1)
want=$(python3 - a.json <<'EOF'
import json, sys
for t in json.load(open(sys.argv[1]))["tests"]:
    v = [r["value"] for r in t["runs"]]
    f = "%.4g" if max(abs(x) for x in v) < 1 else "%.2f"
    print(t["name"], " ".join(f % x for x in v + [min(v), sorted(v)[1], sum(v) / 3, max(v)]))
EOF
)
expect_eq "table: runs, min, median, mean, max" \
    "$(awk '$1 == "load" && $2 ~ /^[0-9]+$/ { print $1 " " $2 " " $3 " " $4 " " $5 " " $6 " " $7 " " $8 " " $9 }' table.txt)" "$want" \
    "$(cat table.txt)"
expect_file_grep "table: its heading" table.txt '^test +run1 +run2 +run3 +min +median +mean +max +CoV% +unit$'

# ---- compare: the file against itself, a copy, and a clearly different copy ----
expect_rc "compare a file with itself" 2 "$KBENCH" compare --test welch a.json a.json
expect_err_grep "same file named" "a.json: the same file as a.json"
ln a.json hardlink.json
expect_rc "compare a file with a hard link to it" 2 "$KBENCH" compare --test welch a.json hardlink.json
cp a.json copy.json
expect_rc "compare with a copy" 0 "$KBENCH" compare --test welch a.json copy.json
expect_lines "copy: no difference anywhere (same, or not proven with what the runs could see)" -eq 2 "$WORK/out" '\+0\.00%  (same \+-5%|not proven) \(p=1\.00, q=1; could see \+-[0-9]+\.[0-9]{2}%\)(  \[caveats: busy\])?$'
expect_no_grep "copy: no difference proven anywhere" "$WORK/out" 'better|worse'

# B: every figure of A plus a shift far beyond the spread, so the
# difference is the shift exactly and must be proven
python3 - a.json shifted.json <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
for t in d["tests"]:
    v = [r["value"] for r in t["runs"]]
    for r in t["runs"]:
        r["value"] += 1000
d["label"] = "shifted"
json.dump(d, open(sys.argv[2], "w"))
EOF
expect_rc "compare with a shifted copy" 0 "$KBENCH" compare --test welch a.json shifted.json
expect_lines "shifted: proven better by +1000.0" -eq 2 "$WORK/out" \
    'better: \+1000\.0 \+- [0-9.]+ \(\+[0-9.]+% \+- [0-9.]+%, p=[0-9.e-]+, q=[0-9.e-]+\)(  \[caveats: busy\])?$'
expect_rc "the other way round" 0 "$KBENCH" compare --test welch shifted.json a.json
expect_lines "reversed: proven worse" -eq 2 "$WORK/out" 'worse: -1000\.0 \+- '

# where lower is better, the same rise is worse
python3 - a.json shifted.json <<'EOF'
import json, sys
for p in sys.argv[1:]:
    d = json.load(open(p))
    for t in d["tests"]:
        t["higher_is_better"] = False
    json.dump(d, open(p.replace(".json", "-low.json"), "w"))
EOF
expect_rc "lower is better" 0 "$KBENCH" compare --test welch a-low.json shifted-low.json
expect_lines "lower is better: a rise is worse" -eq 2 "$WORK/out" 'worse: \+1000\.0 '

# --style=lkml: "test (unit) || A's mean -> B's mean change", largest gain first
expect_rc "lkml style" 0 "$KBENCH" compare --test welch --style=lkml a.json shifted.json
want=$(python3 - a.json shifted.json <<'EOF'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:])
rows = []
for ta, tb in zip(a["tests"], b["tests"]):
    ma = sum(r["value"] for r in ta["runs"]) / len(ta["runs"])
    mb = sum(r["value"] for r in tb["runs"]) / len(tb["runs"])
    rows.append((100 * (mb - ma) / ma, ta["name"]))
print(" ".join("%s:%+.2f%%" % (n, c) for c, n in sorted(rows, reverse=True)))
EOF
)
expect_eq "lkml lines, sorted by change" \
    "$(grep -F '||' "$WORK/out" | sed -E 's/^(load [0-9]+) \(MB\/s\) \|\| [0-9.]+ -> [0-9.]+ ([+-][0-9.]+%) better(  \[caveats [^]]*\])?$/\1:\2/' | tr '\n' ' ' | sed 's/ $//')" \
    "$want" "$(cat "$WORK/out")"

# ---- the Go benchmark format ----
expect_rc "compare --export" 0 "$KBENCH" compare --export a.json
want=$(jget a.json '"\n".join("BenchmarkLoad/clients=%d 1 %.10g MB/s" % (t["params"]["clients"], r["value"]) for t in d["tests"] for r in t["runs"])')
expect_eq "export: one benchmark line per run" "$(grep '^Benchmark' "$WORK/out")" "$want"
for l in 'goos: linux' "kernel: $(uname -r)" 'label: base' 'Unit MB/s better=higher'; do
    expect_true "export: the configuration line '$l'" grep -qxF -- "$l" "$WORK/out"
done
expect_rc "suite --format=benchstat" 0 "$KBENCH" suite -D "$D" --clients 3 --runs 1 -t 0.3 --warmup 0 --pause 0 -c "$LF" --format=benchstat -o bs.json
expect_lines "suite prints benchstat lines: the run" -eq 1 "$WORK/out" '^BenchmarkLoad/clients=3 1 [0-9.e+-]* MB/s$'
expect_eq "suite prints benchstat lines: the configuration first" "$(head -1 "$WORK/out")" "goos: linux"
expect_no_grep "suite prints benchstat lines instead of the table" "$WORK/out" 'CoV'

# ---- interrupted, then resumed ----
# runs_done FILE N: the results file FILE records N runs or more
runs_done() {
    n=$(jget "$1" 'sum(d["done"].values())' 2>/dev/null || echo 0)
    [ "${n:-0}" -ge "$2" ]
}
# writing FILE PID: kbench suite PID holds FILE's lock and wrote FILE
writing() {
    [ "$(cat "$1.lock" 2>/dev/null)" = "$2" ] && [ -s "$1" ]
}
# load_child PID: kbench suite PID runs a kbench load; its pid in $child
load_child() {
    child=$(pgrep -P "$1" -f -- ' --json ')
    [ -n "$child" ]
}
# shellcheck disable=SC2086
# (SIGINT at its default, not ignored as in this shell's background jobs:
# bg_load, lib.sh)
env --default-signal=INT "$KBENCH" suite $RUNS1S -o r.json >r.out 2>r.err &
pid=$!
wait_until 120 runs_done r.json 2
kill -INT $pid
wait $pid
RC=$?
expect_eq "SIGINT: exit 130 (status)" "$RC" 130 "$(cat r.err)"
expect_file_grep "SIGINT: says how to continue" r.err \
    'interrupted by signal 2 after [0-9] of 6 runs; r\.json holds them; continue with: kbench suite --resume r\.json'
before=$(jget r.json 'sum(len(t["runs"]) for t in d["tests"])')
expect_true "SIGINT: file kept, not finished, fewer runs ($before)" test "$(jget r.json '(d["interrupted"], d["finished"], sum(d["done"].values()) < 6, sum(d["done"].values()) == sum(len(t["runs"]) for t in d["tests"]))')" = "(True, False, True, True)"
expect_empty_dir "SIGINT: run directory left empty" "$D"
expect_true "SIGINT: no lock file left" test ! -e r.json.lock
mkdir -p elsewhere
expect_rc "resume" 0 sh -c 'cd elsewhere && "$0" suite --resume ../r.json' "$KBENCH"
expect_true "resume: no lock file left" test ! -e r.json.lock
expect_true "resume: 3 runs of each test, the earlier ones kept" test "$(jget r.json '([len(t["runs"]) for t in d["tests"]], d["done"], d["finished"], d["interrupted"], len(d["resumed"]))')" = "([3, 3], {'load 1': 3, 'load 2': 3}, True, False, 1)"
expect_lines "resume: ran only the $((6 - before)) remaining runs" -eq $((6 - before)) "$WORK/err" ', run [0-9] of 3: '
# SIGHUP (a closed ssh session) during the pause: stopped like SIGINT
"$KBENCH" suite -D "$D" --clients 1 --runs 2 -t 1 --warmup 0 --pause 30 -c "$LF" -o hup.json >hup.out 2>hup.err &
pid=$!
wait_until 120 writing hup.json $pid    # the file is written before the first pause
kill -HUP $pid
wait $pid
RC=$?
expect_eq "SIGHUP: exit 129 (status)" "$RC" 129 "$(cat hup.err)"
expect_true "SIGHUP: file kept, interrupted, no run" test "$(jget hup.json '(d["interrupted"], d["finished"], d["done"])')" = "(True, False, {})"
expect_true "SIGHUP: no temporary directory left" sh -c '! ls -A | grep -q kbench-suite'
expect_true "SIGHUP: no lock file left" test ! -e hup.json.lock
# SIGUSR2 (any stop signal of the one list): the same
"$KBENCH" suite -D "$D" --clients 1 --runs 2 -t 1 --warmup 0 --pause 30 -c "$LF" -o usr2.json >usr2.out 2>usr2.err &
pid=$!
wait_until 120 writing usr2.json $pid
kill -USR2 $pid
wait $pid
RC=$?
expect_eq "SIGUSR2: exit 140 (status)" "$RC" 140 "$(cat usr2.err)"
expect_true "SIGUSR2: file kept, interrupted, no run" test "$(jget usr2.json '(d["interrupted"], d["finished"], d["done"])')" = "(True, False, {})"
expect_true "SIGUSR2: no temporary directory left" sh -c '! ls -A | grep -q kbench-suite'
expect_true "SIGUSR2: no lock file left" test ! -e usr2.json.lock
# SIGKILL of the suite: its running load is stopped too (SIGTERM from the
# kernel), cleans up its files and does not run on alone
"$KBENCH" suite -D "$D" --clients 1 --runs 2 -t 20 --warmup 0 --pause 0 -c "$LF" -o k9.json >k9.out 2>k9.err &
pid=$!
child=
wait_until 120 load_child $pid
wait_until 120 test -d "$D/clients/client0"    # the load has made its files
kill -KILL $pid
wait $pid 2>/dev/null
[ -z "$child" ] || wait_until 120 not_running "$child"
expect_true "SIGKILL: the load child ($child) stopped with the suite" sh -c '[ -n "$0" ] && ! kill -0 "$0" 2>/dev/null' "$child"
expect_empty_dir "SIGKILL: the load cleaned up its files" "$D"
expect_true "SIGKILL: the file still parses, no run recorded" test "$(jget k9.json '(d["finished"], d["done"])')" = "(False, {})"
left=$(ls -d .kbench-suite.$pid.* 2>/dev/null)
expect_true "SIGKILL: its temporary directory is left" test -n "$left"
expect_true "SIGKILL: its lock file is left, with its PID" test "$(cat k9.json.lock 2>/dev/null)" = "$pid"
mkdir -p .kbench-suite.$pid.keep && : >.kbench-suite.$pid.keep/mine
# the next suite beside it removes the killed one's (its pid is gone), and
# nothing but that; the killed one's lock (released by the kernel) does
# not stop a new series into its file
expect_rc "the next suite" 0 "$KBENCH" suite -D "$D" --clients 1 --runs 1 -t 0.3 --warmup 0 --pause 0 -c "$LF" -o k9.json
expect_true "the next suite: a new series in the killed one's file, its lock gone" test "$(jget k9.json '(d["finished"], d["done"])')" = "(True, {'load 1': 1})" -a ! -e k9.json.lock
expect_err_grep "the next suite: says it removed the left-over" "^kbench suite: removed $WORK/$left, left by a kbench suite that was killed\$"
expect_true "the next suite: the left-over removed" test ! -e "$left"
expect_true "the next suite: a directory holding another file kept" test -e .kbench-suite.$pid.keep/mine
rm -rf .kbench-suite.*

# ---- one writer per results file: a second one is refused, named ----
env --default-signal=INT "$KBENCH" suite -D "$D" --clients 1 --runs 1 -t 1 --warmup 0 --pause 30 -c "$LF" \
    -o same.json >same.out 2>same.err &
pid=$!
wait_until 120 writing same.json $pid
expect_true "the lock beside the results file holds the suite's PID" test "$(cat same.json.lock 2>/dev/null)" = "$pid"
sum=$(cksum <same.json)
expect_rc "a second suite into the same file: exit 2" 2 "$KBENCH" suite -D "$D" --clients 1 --runs 1 -t 1 --warmup 0 --pause 0 -c "$LF" -o same.json
expect_err_grep "a second suite: the holder named" "^kbench suite: -o same\.json: kbench suite \(PID $pid\) is writing it \(lock same\.json\.lock\)\$"
mkdir -p sub
expect_rc "a second suite, the file by another name: exit 2" 2 "$KBENCH" suite -D "$D" --clients 1 --runs 1 -t 1 --warmup 0 --pause 0 -c "$LF" -o "$WORK/sub/../same.json"
expect_err_grep "another name: the holder named" "kbench suite \(PID $pid\) is writing it"
expect_rc "--resume of the file being written: exit 2" 2 "$KBENCH" suite --resume same.json
expect_err_grep "--resume: the holder named" "^kbench suite: --resume same\.json: kbench suite \(PID $pid\) is writing it \(lock $WORK/same\.json\.lock\)\$"
expect_true "the refused ones left the file and the lock alone" test "$(cksum <same.json)" = "$sum" -a "$(cat same.json.lock)" = "$pid"
kill -INT $pid
wait $pid
rc=$?
expect_true "the holder: interrupted as usual (exit $rc), no lock left" test $rc -eq 130 -a ! -e same.json.lock
expect_true "the holder's series is its own" test "$(jget same.json '(d["interrupted"], d["done"], d["command"][-1])')" = "(True, {}, 'same.json')"
# an error after the lock was taken removes it too
expect_rc "an error after the lock" 2 "$KBENCH" suite -D nothere --pause 0 -o err.json
expect_true "an error: no lock and no results file left" test ! -e err.json.lock -a ! -e err.json
# a file of that name that is not a lock is not taken for one (-D
# nothere: the lock is checked first, nothing would run anyway)
echo "my notes" >mine.json.lock
expect_rc "a FILE.lock that is not a lock: exit 2" 2 "$KBENCH" suite -D nothere --pause 0 -o mine.json
expect_err_grep "a FILE.lock that is not a lock: said" "^kbench suite: -o mine\.json: mine\.json\.lock is there and is not a kbench lock file; remove it or name the results file otherwise\$"
expect_true "a FILE.lock that is not a lock: kept" test "$(cat mine.json.lock)" = "my notes"
expect_rc "resume a finished suite" 2 "$KBENCH" suite --resume r.json
expect_err_grep "finished suite refused" "r.json: this suite is finished; nothing to resume"
expect_rc "resume a missing file" 2 "$KBENCH" suite --resume missing.json
expect_rc "resume with other options" 2 "$KBENCH" suite --resume r.json --runs 2
expect_err_grep "resume takes no other options" "--resume takes no other options"
"$KBENCH" load -q -t 0.3 --warmup 0 -c "$LF" -D "$D" --json load.json 1 >/dev/null 2>&1
expect_rc "resume a kbench load document" 2 "$KBENCH" suite --resume load.json
expect_err_grep "not a suite file" "load.json: not a kbench suite results file \(kind \"load\""

# ---- --resume of a file whose progress does not add up: refused ----
# edit FILE PYTHON: a copy of a.json, not finished, changed by PYTHON (d)
edit() {
    python3 - "$1" "$2" <<'EOF'
import json, sys
d = json.load(open("a.json"))
d["finished"] = False
d["interrupted"] = True
exec(sys.argv[2])
json.dump(d, open(sys.argv[1], "w"))
EOF
}
# expect_resume_bad NAME FILE REGEX: --resume FILE exits 2 with one line
# matching REGEX, runs nothing and leaves FILE as it was
expect_resume_bad() {
    sum=$(cksum <"$2")
    expect_bad "$1" "$3" "$KBENCH" suite --resume "$2"
    expect_eq "$1: the file untouched (cksum)" "$(cksum <"$2")" "$sum"
    expect_true "$1: no lock left" [ ! -e "$2.lock" ]
}
edit p1.json 'd["done"]["load 1"] = 1'
expect_resume_bad "done 1 with 3 runs" p1.json "^kbench suite: .*/p1\.json: test 'load 1': done counts 1 run, but it holds 3 runs and 0 failures; cannot resume it\$"
edit p2.json 'd["done"]["load 2"] = 4; d["tests"][1]["runs"].append(d["tests"][1]["runs"][0])'
expect_resume_bad "more runs than --runs" p2.json "^kbench suite: .*/p2\.json: test 'load 2': done counts 4 runs, more than its --runs 3; cannot resume it\$"
edit p3.json 'd["done"]["load 2"] = 2; d["tests"][1]["runs"].pop()'
expect_true "the file for a consistent resume" test "$(jget p3.json '(d["done"], [len(t["runs"]) for t in d["tests"]])')" = "({'load 1': 3, 'load 2': 2}, [3, 2])"
edit p4.json 'd["done"]["load 2"] = 2'
expect_resume_bad "done 2 with 3 runs" p4.json "test 'load 2': done counts 2 runs, but it holds 3 runs and 0 failures"
edit p5.json 'd["tests"].append(dict(d["tests"][0], name="load 7"))'
expect_resume_bad "a test its command line does not make" p5.json "test 'load 7' is not a test of its command line"
edit p6.json 'd["done"]["load 9"] = 1'
expect_resume_bad "a done count of no test" p6.json "done counts runs of 'load 9', which is not a test of its command line"
edit p7.json 'd["done"]["load 1"] = -1'
expect_resume_bad "a negative done count" p7.json "test 'load 1': done is not a whole number of runs"
edit p8.json 'd["failures"].append({"test": "load 1", "run": 4, "exit_status": 1, "message": "x", "started": "s"})'
expect_resume_bad "a failure beyond done" p8.json "test 'load 1': done counts 3 runs, but it holds 3 runs and 1 failure"
edit p9.json 'd["command"][d["command"].index("--label") + 1] = "b\u001b]0;x\u0007"'
expect_resume_bad "a stored command line with an escape" p9.json "its stored command line holds a control character or invalid UTF-8 \('b\\\\x1b\\]0;x\\\\x07'\): cannot resume it"
expect_true "the error line shows no escape raw" sh -c '! grep -q "$(printf "\033")" "$0"' "$WORK/err"
# consistent: a failure counts as a run attempted; its message (from the
# file) is shown escaped; nothing is left to run
edit pok.json 'd["done"]["load 2"] = 3; d["tests"][1]["runs"].pop(); d["failures"].append({"test": "load 2", "run": 3, "exit_status": 1, "message": "gone \u001b[2J\u001b]0;x\u0007 \u009b", "started": "s"})'
expect_rc "resume with a failure and nothing left to run: exit 1" 1 "$KBENCH" suite --resume pok.json
expect_true "nothing ran" test "$(grep -c ', run [0-9] of 3: ' "$WORK/err")" -eq 0
expect_out_grep "the failure's message shown escaped" '^  load 2 run 3: exit status 1: gone \\x1b\[2J\\x1b\]0;x\\x07 \\u009b$'
expect_true "the table holds no escape raw" python3 -c 'import sys; t = open(sys.argv[1], "rb").read().decode("utf-8"); sys.exit(any((ord(c) < 32 and c != "\n") or 0x7f <= ord(c) <= 0x9f for c in t))' "$WORK/out"
expect_true "resumed and finished, no lock left" test "$(jget pok.json '(d["finished"], len(d["resumed"]))')" = "(True, 1)" -a ! -e pok.json.lock

# ---- a failed run: reported, counted, no figure, exit 1 ----
printf 'Unlink "\\clients\\client1\\gone.dat" 0x6 NT_STATUS_OK\n' >failing.txt
expect_rc "failing runs: exit 1" 1 "$KBENCH" suite -D "$D" --clients 1 --runs 2 -t 0.3 --warmup 0 --pause 0 -c failing.txt -o f.json
expect_err_grep "failure line: which run, exit status, why" '\[2/2\] load 1, run 2 of 2: FAILED, exit status 1: [0-9]+ operations did not end as the loadfile expects \(first: line 1, Unlink expected success, got No such file or directory\); about '
expect_out_grep "failures listed after the table, with the reason" '^  load 1 run 1: exit status 1: [0-9]+ operations did not end as the loadfile expects \(first: line 1, '
expect_true "failures recorded, no figure" test "$(jget f.json '(len(d["failures"]), d["tests"][0]["runs"], d["failures"][0]["run"], d["failures"][0]["exit_status"])')" = "(2, [], 1, 1)"
expect_rc "compare refuses a file without runs" 2 "$KBENCH" compare a.json f.json
expect_err_grep "no runs named" "f.json: no runs recorded"

finish
