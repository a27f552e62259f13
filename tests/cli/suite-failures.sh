#!/bin/sh
# kbench - failures that stay small in kbench suite: a load run killed
# mid-series (its trees removed, only those, and the next run runs), a
# reader that goes away (SIGPIPE ignored: the file saved, no lock or
# temporary directory left), a results file whose plan was edited or whose
# directory became another (--resume refuses it in one line)
# SPDX-License-Identifier: GPL-3.0-or-later
. "$(dirname "$0")/lib.sh"
cd "$WORK" || exit 1
LF="$KBENCH_TOP_SRCDIR/loadfiles/smallfiles.txt"
mkdir d

# the series' load child (the suite's only child once DIR/clients/client0
# is there: the checks' children have ended), for kill
load_of() {
    pgrep -P "$1" 2>/dev/null | head -n 1
}

# ---- a load killed (SIGKILL) in each of two runs ----
# what was in DIR before stays: a file, clients/ itself, another tree
mkdir -p d/clients/other
echo keep >d/keep.txt
echo keep >d/clients/other/f
# -t 60: each run holds its trees until the test has killed it
"$KBENCH" suite -D d --clients 1 --runs 2 -t 60 --warmup 0 --pause 0 -c "$LF" -o k.json \
    >k.out 2>k.err &
SP=$!
for run in 1 2; do
    if [ "$run" = 2 ]; then
        # run 1's failure is said after its trees went
        wait_until 120 grep -q '\[1/2\] load 1, run 1 of 2: FAILED' k.err ||
            fail "killed: run 1's failure line" "$(cat k.err)"
    fi
    if wait_until 120 test -d d/clients/client0 && LP=$(load_of "$SP") && [ -n "$LP" ]; then
        kill -KILL "$LP"
        pass "killed: run $run's load killed while it held its tree"
    else
        fail "killed: run $run's load and tree" "$(cat k.err)"
    fi
done
wait_until 120 not_running "$SP"
wait "$SP"
RC=$?
expect_eq "killed: the series exits 1" "$RC" 1
expect_lines "killed: said twice which trees it removed" -eq 2 k.err \
    '^kbench suite: removed the client trees the failed run left in d: 1 \(clients/client0\)$'
expect_lines "killed: both runs failed by the signal, none refused" -eq 2 k.err \
    'load 1, run [12] of 2: FAILED, exit status 137: '
expect_eq "killed: both failures recorded as 137" "$(jget k.json '[f["exit_status"] for f in d["failures"]]')" "[137, 137]"
expect_eq "killed: DIR holds what it held before, nothing else" \
    "$(cd d && find . | sort | tr '\n' ' ')" ". ./clients ./clients/other ./clients/other/f ./keep.txt "
rm -rf d/clients d/keep.txt

# ---- a reader that goes away: stdout a pipe nobody reads ----
# the suite starts stopped, its stdout the pipe; the test closes the only
# reader, then lets it go on: every write to stdout fails (EPIPE)
mkfifo pipe
exec 3<>pipe
sh -c 'kill -STOP $$; exec "$@"' sh "$KBENCH" suite -D d --clients 1 --runs 2 -t 0.3 \
    --warmup 0 --pause 0 -c "$LF" -o p.json >pipe 2>p.err 3<&- &
SP=$!
wait_until 120 is_stopped "$SP" || fail "pipe: the suite stopped before it starts"
exec 3<&-
kill -CONT "$SP"
wait "$SP"
RC=$?
expect_eq "pipe: exit 1, not killed by SIGPIPE (141)" "$RC" 1
expect_file_grep "pipe: the failed write said" p.err '^kbench suite: cannot write the output: Broken pipe$'
expect_lines "pipe: both runs made" -eq 2 p.err 'load 1, run [12] of 2: [0-9.]+ MB/s'
expect_eq "pipe: the file finished, not interrupted" "$(jget p.json '(d["finished"], d["interrupted"], d["done"])')" \
    "(True, False, {'load 1': 2})"
expect_true "pipe: no lock file left" test ! -e p.json.lock
expect_true "pipe: no temporary directory left" sh -c '! ls -A | grep -q kbench-suite'
expect_empty_dir "pipe: DIR empty" d

# ---- --resume: the plan as the series started it, in its directory ----
# edit NEW PYTHON: p.json resumable (run 2 not made yet), changed by PYTHON (d)
edit() {
    python3 - "$1" "$2" <<'PY'
import json, sys
d = json.load(open("p.json"))
d["finished"] = False
d["done"]["load 1"] = 1
d["tests"][0]["runs"].pop()
exec(sys.argv[2])
json.dump(d, open(sys.argv[1], "w"))
PY
}
# resume_bad NAME FILE REGEX: refused in one line, nothing run, FILE untouched
resume_bad() {
    sum=$(cksum <"$2")
    expect_bad "$1" "$3" "$KBENCH" suite --resume "$2"
    expect_eq "$1: the file untouched" "$(cksum <"$2")" "$sum"
    expect_true "$1: no lock left" test ! -e "$2.lock"
    expect_empty_dir "$1: nothing ran in DIR" d
}
edit ok.json 'pass'
edit cwd.json 'd["cwd"] = "/etc"'
resume_bad "an edited cwd" cwd.json 'cwd\.json: its plan \(command line, directory, parameters\) changed since the series started: cannot resume it$'
edit dir.json 'c = d["command"]; c[c.index("-D") + 1] = "/etc"'
resume_bad "an edited -D" dir.json 'dir\.json: its plan .* changed since the series started: cannot resume it$'
edit par.json 'd["params"]["timelimit_s"] = 30'
resume_bad "edited params" par.json 'par\.json: its plan .* changed since the series started: cannot resume it$'
edit nod.json 'del d["plan_digest"]'
resume_bad "no digest" nod.json 'nod\.json: its plan .* has no digest: cannot resume it$'
# the directory itself swapped for a link to another
mv d d.was
mkdir other
ln -s other d
resume_bad "DIR now another directory" ok.json "ok\\.json: its directory d is now $WORK/other, not $WORK/d, where the series started: cannot resume it\$"
rm d
rmdir other
mv d.was d
expect_rc "the unedited file resumes" 0 "$KBENCH" suite --resume ok.json
expect_eq "resumed: its one missing run made" "$(jget ok.json '(d["finished"], d["done"], len(d["tests"][0]["runs"]))')" \
    "(True, {'load 1': 2}, 2)"

finish
