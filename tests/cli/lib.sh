# kbench - helpers for the command-line tests (sourced by tests/cli/*.sh)
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Each test script runs checks with `check NAME COMMAND...` or the expect_*
# helpers, then calls `finish`, which prints "N passed, N failed" and exits
# 0 only if nothing failed (77, automake's SKIP, if everything was skipped).

set -u
: "${KBENCH:?KBENCH must name the kbench binary (make check sets it)}"
: "${KBENCH_TOP_SRCDIR:=$(cd "$(dirname "$0")/../.." && pwd)}"
DATA="$KBENCH_TOP_SRCDIR/tests/data"
T_PASS=0
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
    echo "$T_PASS passed, $T_FAIL failed"
    if [ "$T_FAIL" -ne 0 ]; then exit 1; fi
    if [ "$T_PASS" -eq 0 ] && [ "$T_SKIP" -gt 0 ]; then exit 77; fi
    exit 0
}

# jget FILE EXPR: evaluate a Python expression over the JSON document d
# in FILE and print the result (python3 is a test dependency).
jget() {
    python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"
}

# kload ARGS...: run kbench load quietly in the test's work directory.
kload() {
    run "$KBENCH" load "$@"
}
