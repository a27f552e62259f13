#!/bin/sh
# kbench - command-line tests: kbench micro stopped by SIGINT or SIGTERM
# in the middle kills and reaps its children, removes its temporary
# directory and prints no figure
# SPDX-License-Identifier: GPL-3.0-or-later
. "$(dirname "$0")/lib.sh"

if ! command -v setsid >/dev/null 2>&1; then
    skip "no setsid to give kbench its own session"
    finish
fi

# in_session SID: how many live processes are in session SID (from /proc,
# so no ps is needed; a process that exits meanwhile is not counted, nor a
# zombie: a dead grandchild (a BYTE shell script's job) waits there for
# init to reap it)
in_session() {
    cat /proc/[0-9]*/stat 2>/dev/null |
        awk -v s="$1" '{ sub(/^.*\) /, ""); split($0, f, " "); if (f[4] == s && f[1] != "Z") n++ } END { print n + 0 }'
}

# session_has SID N: N processes or more in session SID (how many in $kids)
session_has() {
    kids=$(in_session "$1")
    [ "$kids" -ge "$2" ]
}

# session_empty SID: no live process in session SID (how many in $left)
session_empty() {
    left=$(in_session "$1")
    [ "$left" -eq 0 ]
}

# stop SIG AT PROCS: start a run of test AT in its own session, wait for
# its progress line and for PROCS processes in the session, send SIG, wait
# (intervals of 2 s: the test is still running when the signal comes,
# however busy the machine)
stop() {
    sig=$1 at=$2 want=$3
    rm -rf "$WORK/tmp" && mkdir -p "$WORK/tmp"
    # SIGINT at its default, not ignored as in this shell's background
    # jobs (bg_load, lib.sh)
    TMPDIR="$WORK/tmp" setsid env --default-signal=INT "$KBENCH" micro --enough 2 "$at" lat_syscall_null \
        >"$WORK/out" 2>"$WORK/err" &
    pid=$!
    wait_until 120 grep -qs "\\[1/2\\] $at" "$WORK/err"
    sid=$pid     # setsid made kbench the leader of a new session
    wait_until 120 session_has "$sid" "$want"
    sleep 0.1
    kill -"$sig" "$pid"
    wait "$pid"
    RC=$?
    SID=$sid
    KIDS=$kids
}

for case in "INT 130 lat_ctx_16p_64k_1cpu 16" "TERM 143 lat_ctx_8p_16k_1cpu 8" "INT 130 lat_tcp_1cpu 2" \
            "TERM 143 lat_fs_create_10k 1" "HUP 129 byte_shell8 4"; do
    set -- $case
    stop "$1" "$3" "$4"
    name="SIG$1 during $3"
    expect_status "$name: exit $2" "$2"
    case $3 in
        lat_ctx_16p_64k_1cpu) expect_true "$name: the ring was running ($KIDS processes)" [ "$KIDS" -ge 16 ] ;;
    esac
    # kbench reaps its children before it exits; what they started (a
    # shell script's jobs) dies with them, but not at once: wait for it
    # (a guard, ~60 s), never for a set time
    wait_until 60 session_empty "$SID"
    expect_eq "$name: no process left (processes in session $SID)" "$left" 0
    expect_empty_dir "$name: no temporary directory left" "$WORK/tmp"
    expect_err_grep "$name: said so" "^kbench micro: interrupted; children stopped, temporary files removed, no figures reported$"
    expect_empty_file "$name: no figure printed" "$WORK/out"
done

# ---- SIGTERM during 300 copies: every copy killed and reaped before kbench
# exits (none left, not even a zombie, the moment it is gone) ----
all_in_session() {
    cat /proc/[0-9]*/stat 2>/dev/null |
        awk -v s="$1" '{ sub(/^.*\) /, ""); split($0, f, " "); if (f[4] == s) n++ } END { print n + 0 }'
}
rm -rf "$WORK/tmp" && mkdir -p "$WORK/tmp"
TMPDIR="$WORK/tmp" setsid "$KBENCH" micro --copies 300 byte_pipe_1cpu >"$WORK/out" 2>"$WORK/err" &
pid=$!
wait_until 120 session_has "$pid" 301
kill -TERM "$pid"
wait "$pid"
RC=$?
left=$(all_in_session "$pid")
expect_true "SIGTERM during 300 copies: all were running ($kids processes)" [ "$kids" -ge 301 ]
expect_status "SIGTERM during 300 copies: exit 143" 143
expect_eq "SIGTERM during 300 copies: every copy reaped (processes left in session $pid)" "$left" 0
expect_empty_dir "SIGTERM during 300 copies: no temporary directory left" "$WORK/tmp"

# ---- an ignored SIGHUP (nohup) stays ignored ----
rm -rf "$WORK/tmp" && mkdir -p "$WORK/tmp"
(trap '' HUP; TMPDIR="$WORK/tmp" exec setsid "$KBENCH" micro byte_shell1 \
    lat_syscall_null >"$WORK/out" 2>"$WORK/err") &
pid=$!
wait_until 120 grep -qs "\\[1/2\\] byte_shell1" "$WORK/err"
sleep 0.2
kill -HUP "$pid"
sleep 0.3
if kill -0 "$pid" 2>/dev/null; then pass "ignored SIGHUP: still running"; else
    fail "ignored SIGHUP: still running" "$(cat "$WORK/err")"; fi
kill -TERM "$pid"
wait "$pid"
RC=$?
expect_status "ignored SIGHUP: SIGTERM still stops it" 143
expect_empty_dir "ignored SIGHUP: no temporary directory left" "$WORK/tmp"

finish
