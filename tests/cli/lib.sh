# kbench - helpers for the command-line tests (sourced by tests/cli/*.sh)
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Each test script runs checks with `check NAME COMMAND...` or the expect_*
# helpers, then calls `finish`, which prints "N passed, N failed" and exits
# 0 only if nothing failed (77, automake's SKIP, if everything was skipped).

set -u
: "${KBENCH:?KBENCH must name the kbench binary (make check sets it)}"
# A test starts over with every signal at its default action.  Started by
# nohup (SIGHUP ignored), or by any parent that ignores a signal, it would
# hand that on to each kbench it runs, and kbench keeps an inherited ignored
# signal, as programs started by shells are expected to: the checks that
# send SIGHUP would then see the run go on to its end.  (A background job
# of this non-interactive shell still starts with SIGINT ignored: those
# runs are started with env --default-signal=INT.)
if [ -z "${KBENCH_TEST_SIGDFL:-}" ]; then
    exec env --default-signal KBENCH_TEST_SIGDFL=1 "$0" "$@"
fi
# python3 (which reads the JSON in the checks, hundreds of times a script)
# is looked up once: where it is a version manager's shim (pyenv's runs
# several shell scripts at each call), the directory of the interpreter
# it picks goes first in PATH: the same interpreter, without the shim
if KB_PY=$(python3 -c 'import sys; print(sys.executable)' 2>/dev/null) &&
    [ "$(command -v python3)" != "$KB_PY" ] && [ -x "${KB_PY%/*}/python3" ]; then
    PATH="${KB_PY%/*}:$PATH"
    export PATH
fi
: "${KBENCH_TOP_SRCDIR:=$(cd "$(dirname "$0")/../.." && pwd)}"
DATA="$KBENCH_TOP_SRCDIR/tests/data"
# kbench disk's idle pauses (1 s before -T, 3 s before -t) cut to nothing:
# the tests check what is read and printed, not the idling; the checks of
# the pause itself unset it (disk-lib.sh's run_sequence --real-pause).  A
# knob for the tests only (HACKING.md), read in src/disk/timer.c.
KBENCH_TEST_PAUSE_SCALE=0
export KBENCH_TEST_PAUSE_SCALE
T_PASS=0
T_START=$(date +%s)
T_FAIL=0
T_SKIP=0
T_NAME=$(basename "$0" .sh)
WORK=$(mktemp -d "${TMPDIR:-/tmp}/kbench-test-$T_NAME.XXXXXX")
trap 'rm -rf "$WORK"' EXIT

pass() { T_PASS=$((T_PASS + 1)); echo "PASS: $T_NAME: $1"; }
fail() { T_FAIL=$((T_FAIL + 1)); echo "FAIL: $T_NAME: $1"; shift; for l in "$@"; do echo "    $l"; done; }
skip() { T_SKIP=$((T_SKIP + 1)); echo "SKIP: $T_NAME: $1"; }

# run CMD...: run a command, keep its stdout, stderr and status in
# $WORK/out, $WORK/err and $RC.
run() {
    "$@" >"$WORK/out" 2>"$WORK/err"
    RC=$?
}

# expect_rc NAME STATUS CMD...: the command exits with STATUS.
expect_rc() {
    name=$1 want=$2
    shift 2
    run "$@"
    if [ "$RC" -eq "$want" ]; then
        pass "$name"
    else
        fail "$name" "exit status $RC, expected $want: $*" "stderr: $(head -c 600 "$WORK/err")"
    fi
}

# expect_out_grep NAME REGEX: the last run's stdout matches REGEX (grep -E).
expect_out_grep() {
    if grep -Eq -- "$2" "$WORK/out"; then pass "$1"; else
        fail "$1" "stdout does not match /$2/" "stdout: $(head -c 600 "$WORK/out")"; fi
}

# expect_err_grep NAME REGEX: the last run's stderr matches REGEX.
expect_err_grep() {
    if grep -Eq -- "$2" "$WORK/err"; then pass "$1"; else
        fail "$1" "stderr does not match /$2/" "stderr: $(head -c 600 "$WORK/err")"; fi
}

# expect_status NAME STATUS: the last command's status, $RC (as `run`
# leaves it, or set from `wait`), is STATUS; else its stderr and the end
# of its stdout are shown.
expect_status() {
    if [ "$RC" -eq "$2" ]; then pass "$1"; else
        fail "$1" "exit status $RC, expected $2" "stderr: $(head -c 600 "$WORK/err")" \
            "stdout, last lines: $(tail -n 5 "$WORK/out" | tail -c 600)"; fi
}

# expect_bad NAME REGEX CMD...: bad input: the command exits with status 2,
# says so in exactly one line on stderr, matching REGEX, and prints nothing
# on stdout (so nothing was timed, run or listed).
expect_bad() {
    bname=$1 bre=$2
    shift 2
    expect_rc "$bname: exit 2" 2 "$@"
    if [ "$(wc -l <"$WORK/err")" -eq 1 ] && grep -Eq -- "$bre" "$WORK/err"; then
        pass "$bname: one line"
    else
        fail "$bname: one line" "want /$bre/" "stderr: $(head -c 600 "$WORK/err")"
    fi
    expect_empty_file "$bname: nothing on stdout" "$WORK/out"
}

# expect_eq NAME GOT WANT [DETAIL...]: two strings are the same; the
# DETAIL lines are shown too when they are not.
expect_eq() {
    if [ "$2" = "$3" ]; then pass "$1"; else
        en=$1 eg=$2 ew=$3
        shift 3
        fail "$en" "got:  $eg" "want: $ew" "$@"
    fi
}

# expect_file_grep NAME FILE REGEX: FILE has a line matching REGEX (grep -E).
expect_file_grep() {
    if grep -Eq -- "$3" "$2"; then pass "$1"; else
        fail "$1" "$2 does not match /$3/" "$2: $(head -c 600 "$2" 2>&1)"; fi
}

# expect_no_grep NAME FILE REGEX: no line of FILE matches REGEX (grep -E).
expect_no_grep() {
    if grep -Eq -- "$3" "$2"; then
        fail "$1" "$2 matches /$3/:" "$(grep -E -- "$3" "$2" | head -c 600)"
    else
        pass "$1"
    fi
}

# expect_empty_file NAME FILE: FILE is empty (or missing).
expect_empty_file() {
    if [ -s "$2" ]; then fail "$1" "$2 is not empty:" "$(head -c 600 "$2")"; else pass "$1"; fi
}

# expect_lines NAME TEST N FILE REGEX: the number of lines of FILE that
# match REGEX (grep -E) passes `[ COUNT TEST N ]`, e.g. -eq 2 or -ge 1.
expect_lines() {
    lc=$(grep -Ec -- "$5" "$4" 2>/dev/null)
    if [ "${lc:-0}" "$2" "$3" ]; then pass "$1"; else
        fail "$1" "${lc:-0} lines of $4 match /$5/, expected $2 $3" "$4: $(head -c 600 "$4" 2>&1)"; fi
}

# expect_same_file NAME GOT WANT: the two files hold the same bytes.
expect_same_file() {
    if cmp -s -- "$2" "$3"; then pass "$1"; else
        fail "$1" "$2 differs from $3:" "$(diff -- "$2" "$3" 2>&1 | head -c 600)"; fi
}

# expect_py NAME ARG...: the Python program on standard input, run with
# the ARGs (sys.argv[1:]), succeeds; what it printed is the failure's detail.
expect_py() {
    pyname=$1
    shift
    if python3 - "$@" >"$WORK/py.out" 2>&1; then pass "$pyname"; else
        fail "$pyname" "$(head -c 2000 "$WORK/py.out")"; fi
}

# expect_true NAME CMD...: the command succeeds.
expect_true() {
    name=$1
    shift
    if "$@"; then pass "$name"; else fail "$name" "not true: $*"; fi
}

# expect_empty_dir NAME DIR: DIR exists and holds nothing.
expect_empty_dir() {
    if [ -d "$2" ] && [ -z "$(ls -A "$2")" ]; then pass "$1"; else
        fail "$1" "$2 is not an empty directory:" "$(ls -lAR "$2" 2>&1 | head -20)"; fi
}

finish() {
    if [ "$T_PASS" -eq 0 ] && [ "$T_SKIP" -eq 0 ] && [ "$T_FAIL" -eq 0 ]; then
        fail "the script ran no check"  # a test that checks nothing cannot pass
    fi
    echo "took $(($(date +%s) - T_START)) s"
    echo "$T_PASS passed, $T_FAIL failed"
    if [ "$T_FAIL" -ne 0 ]; then exit 1; fi
    if [ "$T_PASS" -eq 0 ] && [ "$T_SKIP" -gt 0 ]; then exit 77; fi
    exit 0
}

# expect_gone NAME PID...: none of the processes is there any more.
expect_gone() {
    gname=$1
    shift
    gleft=""
    for p in "$@"; do
        if kill -0 "$p" 2>/dev/null; then gleft="$gleft $p"; fi
    done
    if [ -z "$gleft" ]; then pass "$gname"; else
        fail "$gname" "still there:$gleft" "$(ps -o pid,stat,args -p "${gleft# }" 2>&1)"; fi
}

# wait_until SECONDS CMD...: run CMD every 0.1 s until it succeeds, for at
# most about SECONDS: a guard against a hang, never a time to wait (use
# 120 s, however busy the machine).  Returns 0 once CMD succeeded, 1 if
# the guard ran out.
wait_until() {
    wu_left=$(($1 * 10))
    shift
    until "$@"; do
        if [ "$wu_left" -le 0 ]; then return 1; fi
        wu_left=$((wu_left - 1))
        sleep 0.1
    done
}

# is_stopped PID: the process is stopped (SIGSTOP; under a tracer too),
# a state it holds until it gets SIGCONT (for wait_until).
is_stopped() {
    case "$(sed 's/.*) //' "/proc/$1/stat" 2>/dev/null | cut -c1)" in
    T | t) return 0 ;;
    *) return 1 ;;
    esac
}

# not_running PID: the process is gone (for wait_until).
not_running() {
    ! kill -0 "$1" 2>/dev/null
}

# ASAN_NOLEAK: ASAN_OPTIONS with the leak check off, for a command run
# under strace (LeakSanitizer cannot run under ptrace), as
# `ASAN_OPTIONS=$ASAN_NOLEAK strace ...` (a sanitizer build checks leaks
# in every other run)
ASAN_NOLEAK="${ASAN_OPTIONS:-}${ASAN_OPTIONS:+:}detect_leaks=0"

# jget FILE EXPR: evaluate a Python expression over the JSON document d
# in FILE and print the result (python3 is a test dependency).
jget() {
    python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"
}

# kload ARGS...: run kbench load quietly in the test's work directory.
kload() {
    run "$KBENCH" load "$@"
}

# bg_load ARGS...: kbench load ARGS in the background, its stdout and
# stderr in $WORK/out and $WORK/err (emptied first: wait_progress reads
# them), its pid in $BG.  SIGINT has its default action there, as in an
# interactive shell's job: a background job of this shell (no job
# control) starts with SIGINT ignored, and kbench keeps it ignored
# (coreutils' env >= 8.31 execs kbench in the same process, $BG).
bg_load() {
    : >"$WORK/out"
    : >"$WORK/err"
    env --default-signal=INT "$KBENCH" load "$@" >"$WORK/out" 2>"$WORK/err" &
    BG=$!
}

# wait_progress [SEC]: until the background kbench load has printed its
# progress line of second SEC (any progress line without SEC): the clients
# are running.  Returns 1 if none came within 120 s.
wait_progress() {
    wait_until 120 grep -Eqs -- " ${1:-[0-9]+} sec  latency" "$WORK/out"
}

# mk_results FILE LABEL TEST=v1,v2,... ...: a kbench suite results file with
# these figures (unit: us for lat*, points for score*, MiB/s for disk*, else
# MB/s); an item @mem_limits=none,32M sets params.mem_limits instead
mk_results() {
    python3 - "$@" <<'EOF'
import json, sys
path, label = sys.argv[1], sys.argv[2]
tests = []
doc_params = {"timelimit_s": 60.0}
for spec in sys.argv[3:]:
    if spec.startswith("@mem_limits="):
        doc_params["mem_limits"] = spec.split("=", 1)[1].split(",")
        continue
    name, values = spec.rsplit("=", 1)
    unit, hib = ("us", False) if name.startswith("lat") else \
        ("points", True) if name.startswith("score") else \
        ("MiB/s", True) if name.startswith("disk") else ("MB/s", True)
    params = {"command": "load", "clients": int(name.split()[1])} if name.startswith("load") \
        else {"command": "micro"}
    runs = [{"value": float(v), "started": "2026-01-01T00:00:00Z", "seconds": 1.0,
             "document": {}} for v in values.split(",") if v]
    tests.append({"name": name, "params": params, "unit": unit, "higher_is_better": hib,
                  "runs": runs})
doc = {"kbench_version": "0.1.0", "kind": "suite", "time": "2026-01-01T00:00:00Z",
       "schema": 1, "label": label, "command": ["kbench", "suite"], "cwd": "/",
       "params": doc_params, "system": {"kernel": label, "hostname": "h",
       "machine": "x86_64", "cpu_model": "cpu"},
       "started": "2026-01-01T00:00:00Z", "finished": True, "done": {}, "failures": [],
       "tests": tests}
json.dump(doc, open(path, "w"))
EOF
}

# swap_in_link DIRPATH TARGET SPARE: put a symbolic link to TARGET where
# the directory DIRPATH is, in one step (renameat2 RENAME_EXCHANGE: a run
# that makes DIRPATH again at each pass has no moment between a move and
# a link to do it in); the link is made first as SPARE (a path outside
# the run's tree: a run that ends first never finds it), which then
# holds the directory.  Where the filesystem cannot exchange, a move then
# a link, at most 50 tries.  Returns 0 when the link is in place.
swap_in_link() {
    rm -f "$3"
    ln -sT "$2" "$3" || return 1
    python3 -c '
import ctypes, sys
libc = ctypes.CDLL(None, use_errno=True)
AT_FDCWD, RENAME_EXCHANGE = -100, 2
if libc.renameat2(AT_FDCWD, sys.argv[1].encode(), AT_FDCWD, sys.argv[2].encode(), RENAME_EXCHANGE):
    sys.exit(1)
' "$3" "$1" 2>/dev/null && return 0
    rm -f "$3"
    local n=0
    while [ $n -lt 50 ]; do
        n=$((n + 1))
        mv -T "$1" "$1.gone$n" 2>/dev/null || continue
        ln -sT "$2" "$1" 2>/dev/null && return 0
    done
    return 1
}
