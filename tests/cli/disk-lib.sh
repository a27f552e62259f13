# kbench - helpers for the kbench disk shell tests (sourced after lib.sh)
# SPDX-License-Identifier: GPL-3.0-or-later
# shellcheck shell=sh
#
# The result lines have hdparm's form
#   " Timing buffered disk reads:  64 MB in  0.12 seconds = 536.09 MB/sec"
# and MB is 2^20 bytes.

MIB=1048576
if command -v python3 >/dev/null 2>&1; then HAVE_PY=1; else HAVE_PY=0; fi

# timing_lines FILE: the result lines of FILE, as "MB SECONDS RATE" each.
timing_lines() {
    sed -n 's/^ Timing [A-Za-z_ ]*reads: *\([0-9.]*\) MB in *\([0-9.]*\) seconds = *\([0-9.]*\) MB\/sec.*$/\1 \2 \3/p' "$1"
}

# expect_arith NAME FILE [COUNT]: every " Timing " line of FILE has the
# form above and its MB, seconds and MB/sec agree within the rounding of
# the printed figures (each is printed to 0.005); COUNT lines if given.
expect_arith() {
    an=$1 file=$2 want=${3:-}
    total=$(grep -c '^ Timing ' "$file")
    parsed=$(timing_lines "$file" | wc -l)
    if [ "$total" -eq 0 ] || [ "$total" -ne "$parsed" ]; then
        fail "$an" "$total Timing lines, $parsed in hdparm's form" "$(cat "$file")"
        return
    fi
    if [ -n "$want" ] && [ "$total" -ne "$want" ]; then
        fail "$an" "$total Timing lines, expected $want" "$(cat "$file")"
        return
    fi
    bad=$(timing_lines "$file" | awk '{
        mb = $1; s = $2; r = $3
        tol = 0.006 + 0.0051 * (r + s)
        d = mb - r * s; if (d < 0) d = -d
        if (d > tol || r <= 0) print "MB " mb " != " r " MB/sec x " s " s (off by " d ", allowed " tol ")"
    }')
    if [ -z "$bad" ]; then pass "$an"; else fail "$an" "$bad"; fi
}

# expect_json NAME JSONFILE TEXTFILE PYTHON: the JSON document parses; the
# Python code then runs with the document in `d` and the text's result
# lines in `lines` (tuples of MB, seconds, MB/sec strings) and must raise
# nothing.  Common checks first: every run's MB = bytes / 2^20, MB_per_s x
# seconds = MB, min <= median <= max, and the text printed the same runs (within its
# rounding).
# Skipped without python3.
expect_json() {
    an=$1 jf=$2 tf=$3 code=$4
    if [ "$HAVE_PY" -ne 1 ]; then skip "$an (no python3)"; return; fi
    timing_lines "$tf" >"$WORK/lines"
    if python3 - "$jf" "$WORK/lines" >"$WORK/py.out" 2>&1 <<EOF
import json, math, os, sys
d = json.load(open(sys.argv[1]))
lines = [tuple(l.split()) for l in open(sys.argv[2])]
assert d["kind"] == "disk", d["kind"]
assert d["units"]["MB"] == "2^20 bytes"
printed = []
for dev in d["results"]:
    for key in ("cached", "buffered"):
        if key not in dev:
            continue
        t = dev[key]
        rates = []
        for r in t["runs"]:
            assert abs(r["MB"] - r["bytes"] / 1048576.0) < 1e-9, r
            assert abs(r["MB_per_s"] * r["seconds"] - r["MB"]) <= 1e-6 * r["MB"], r
            rates.append(r["MB_per_s"])
            printed.append(r["MB_per_s"])
        if rates:
            assert t["min"] == min(rates) and t["max"] == max(rates), t
            assert t["min"] <= t["median"] <= t["max"], t
# the text rounds each rate to 0.01; the JSON keeps 10 significant digits,
# so a rate ending in 5 at the third decimal may round either way
assert len(printed) == len(lines), (printed, lines)
assert all(abs(float(l[2]) - r) <= 0.005 + 1e-6 * r for r, l in zip(printed, lines)), (printed, lines)
$code
EOF
    then pass "$an"; else fail "$an" "$(cat "$WORK/py.out")"; fi
}

# line_field N F: field F (1 MB, 2 seconds, 3 MB/sec) of the Nth result
# line of the last run's stdout, e.g. `line_field 1 1` is the first MB.
line_field() {
    timing_lines "$WORK/out" | sed -n "${1}p" | cut -d' ' -f"$2"
}

# have_strace: strace can run and inject faults here.
have_strace() {
    command -v strace >/dev/null 2>&1 && strace -qq -o /dev/null true 2>/dev/null
}

# inject_eio PATH N CMD...: run CMD under strace with the Nth read() on
# PATH failing with EIO (no leak check: ASAN_NOLEAK).
inject_eio() {
    p=$1 nth=$2
    shift 2
    ASAN_OPTIONS=$ASAN_NOLEAK strace -qq -o /dev/null -P "$p" -e trace=read -e inject=read:error=EIO:when="$nth" "$@"
}

# run_sequence [--real-pause] ARGS...: run `kbench disk ARGS...` under
# strace and print what one run does from its flush on, as words: "flush"
# (BLKFLSBUF, or fadvise DONTNEED on a file), "pauseN" (a sleep of N whole
# seconds), "lseek" and "readN" (a read of N bytes) on the timed
# descriptor, up to and including the first read, e.g. "flush pause3 lseek
# read2097152".  The pause is the tests' (lib.sh: "pause0") unless
# --real-pause asks for kbench's own.
run_sequence() {
    rs_scale=$KBENCH_TEST_PAUSE_SCALE
    if [ "${1:-}" = --real-pause ]; then
        rs_scale=
        shift
    fi
    KBENCH_TEST_PAUSE_SCALE=$rs_scale ASAN_OPTIONS=$ASAN_NOLEAK strace -qq -o "$WORK/seq.trace" \
        -e trace='/^(ioctl|fadvise64.*|clock_nanosleep|nanosleep|lseek|read)$' \
        "$KBENCH" disk "$@" >/dev/null 2>&1
    awk '
        function fdof(l) { sub(/^[a-z0-9_]+\(/, "", l); sub(/,.*/, "", l); return l }
        /^ioctl\([0-9]+, BLKFLSBUF/ || /^fadvise64[_0-9]*\([0-9]+, 0, 0, POSIX_FADV_DONTNEED/ {
            fd = fdof($0); out = "flush"; next
        }
        out == "" { next }
        /nanosleep\(/ && match($0, /tv_sec=[0-9]+/) { out = out " pause" substr($0, RSTART + 7, RLENGTH - 7); next }
        /^lseek\(/ && fdof($0) == fd { out = out " lseek"; next }
        /^read\(/ && fdof($0) == fd {
            n = $0; sub(/\) += .*$/, "", n); sub(/.*, /, "", n)
            print out " read" n; exit
        }' "$WORK/seq.trace"
}

# resize_stop: kill what a resize_during left running (for the scripts'
# EXIT traps: a failure half-way must not leave a stopped kbench behind).
RS_STRACE=
resize_stop() {
    [ -z "$RS_STRACE" ] || kill -KILL "$(cat "$WORK/rs.pid" 2>/dev/null)" "$RS_STRACE" 2>/dev/null
}

# expect_resized NAME PATH LABEL AFTER ENDED: the last run (of test LABEL,
# "buffered disk reads" or "cached reads", on PATH of 8 MiB at the start)
# saw the size change to AFTER bytes: exit 1, that one line on stderr
# (ENDED: ", the data ended at byte N" when the reads found the end
# early, else empty), no figure.
expect_resized() {
    rname=$1 rpath=$2 label=$3 after=$4 ended=$5
    expect_status "$rname: exit 1" 1
    expect_err_grep "$rname: said in one line" \
        "^kbench disk: $rpath: $label: the size changed during the run \\(8388608 bytes at the start, $after after$ended\\); no figure\$"
    expect_true "$rname: one line on stderr" [ "$(wc -l <"$WORK/err")" -eq 1 ]
    expect_no_grep "$rname: no figure printed" "$WORK/out" '^ Timing'
}

# resize_during PATH RESIZE CMD...: run CMD under strace, stopped (SIGSTOP
# injected) right after its first read() of PATH, which is the first timed
# read; while it is stopped, run the shell command RESIZE (which changes
# the size of PATH), then let CMD go on.  The change thus always falls
# after kbench measured the size and before its timed reads end, whatever
# the machine's speed.  Status and output as `run` leaves them; the wait
# for the stop gives up (status 124) only after 120 s.
resize_during() {
    p=$1 resize=$2
    shift 2
    rm -f "$WORK/rs.trace" "$WORK/rs.pid"
    ASAN_OPTIONS=$ASAN_NOLEAK strace -qq -o "$WORK/rs.trace" -P "$p" -e trace=read \
        -e inject=read:signal=SIGSTOP:when=1 \
        sh -c 'echo $$ >"$0"; exec "$@"' "$WORK/rs.pid" "$@" >"$WORK/out" 2>"$WORK/err" &
    RS_STRACE=$!
    if ! wait_until 120 grep -qs 'stopped by SIGSTOP' "$WORK/rs.trace"; then
        kill -KILL "$(cat "$WORK/rs.pid" 2>/dev/null)" "$RS_STRACE" 2>/dev/null
        wait "$RS_STRACE"
        RS_STRACE=
        RC=124
        return
    fi
    eval "$resize"
    kill -CONT "$(cat "$WORK/rs.pid")"
    wait "$RS_STRACE"
    RC=$?
    RS_STRACE=
}
