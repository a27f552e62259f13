#!/bin/sh
# kbench - command-line tests: signals (at any moment, SIGHUP too unless
# ignored), stopped clients, a client's death, a full disk and symbolic
# links never take kbench load out of its directory
# SPDX-License-Identifier: GPL-3.0-or-later
. "$(dirname "$0")/lib.sh"

D="$WORK/dir"
mkdir -p "$D"
L="$DATA/small.txt"

# start kbench load in the background; its pid in $BG
bg_load() {
    : >"$WORK/out"  # not the last run's lines: wait_clients reads this file
    "$KBENCH" load "$@" >"$WORK/out" 2>"$WORK/err" &
    BG=$!
}

# wait until the clients are running (a guard against a hang: at most
# ~120 s, however busy the machine)
wait_clients() {
    i=0
    while [ $i -lt 1200 ]; do
        if grep -q ' sec  latency' "$WORK/out" 2>/dev/null; then return 0; fi
        sleep 0.1
        i=$((i + 1))
    done
    return 1
}

# no_process NAME PID...: none of the processes is there any more
no_process() {
    name=$1
    shift
    left=""
    for p in "$@"; do
        if kill -0 "$p" 2>/dev/null; then left="$left $p"; fi
    done
    if [ -z "$left" ]; then pass "$name"; else fail "$name" "still there:$left" "$(ps -o pid,stat,args -p "${left# }" 2>&1)"; fi
}

# only_line NAME LINE: the last run printed LINE and nothing else (blank
# lines aside, on standard output; nothing on standard error)
only_line() {
    got=$(grep -v '^$' "$WORK/out")
    if [ "$got" = "$2" ] && [ ! -s "$WORK/err" ]; then pass "$1"; else
        fail "$1" "stdout: $got" "stderr: $(head -c 600 "$WORK/err")"; fi
}

# sigwant SIG: the exit status a stop by SIG gives
sigwant() {
    case $1 in INT) echo 130 ;; TERM) echo 143 ;; HUP) echo 129 ;; esac
}

for sig in INT TERM HUP; do
    bg_load -t 30 --warmup 1 -c "$L" -D "$D" 2
    wait_clients
    sleep 1
    kill -s "$sig" "$BG"
    wait "$BG"
    RC=$?
    want=$(sigwant "$sig")
    if [ "$RC" -eq "$want" ]; then pass "SIG$sig exits $want"; else fail "SIG$sig exits $want" "rc=$RC" "$(cat "$WORK/err")"; fi
    expect_out_grep "SIG$sig: partial results marked" "^interrupted by SIG$sig: partial results over [0-9.]+ s measured$"
    expect_out_grep "SIG$sig: Throughput still printed" '^Throughput [0-9.]+ MB/sec  2 clients  2 procs'
    expect_empty_dir "SIG$sig: files cleaned up" "$D"
done

# SIGHUP ignored when kbench starts (nohup): the run goes on to its end
rm -rf "$D"; mkdir -p "$D"
(trap '' HUP; exec "$KBENCH" load -q -t 2 --warmup 0 -c "$L" -D "$D" 2 >"$WORK/out" 2>"$WORK/err") &
BG=$!
i=0
while [ -z "$(pgrep -P "$BG")" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
sleep 0.5
kill -HUP "$BG"
wait "$BG"
RC=$?
if [ "$RC" -eq 0 ]; then pass "SIGHUP ignored at the start: the run completes"; else
    fail "SIGHUP ignored at the start: the run completes" "rc=$RC" "$(cat "$WORK/err")"; fi
expect_out_grep "SIGHUP ignored: the whole run's Throughput" '^Throughput [0-9.]+ MB/sec  2 clients'
if grep -q interrupted "$WORK/out"; then fail "SIGHUP ignored: not interrupted" "$(cat "$WORK/out")"; else
    pass "SIGHUP ignored: not interrupted"; fi
expect_empty_dir "SIGHUP ignored: files cleaned up" "$D"

# a signal while the clients are being forked: strace makes each fork of
# kbench take 0.1 s, so the signal comes when the first client is there
# and 39 are still to come; no more are forked, those there are killed
# (LeakSanitizer cannot run under ptrace: a sanitizer build's leak check is
# left out for these runs)
if command -v strace >/dev/null 2>&1 &&
   strace -o /dev/null -e trace=clone,clone3 -e inject=clone,clone3:delay_exit=1 true 2>/dev/null; then
    noleak="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
    for sig in INT TERM HUP; do
        want=$(sigwant "$sig")
        rm -rf "$D"; mkdir -p "$D"
        ASAN_OPTIONS=$noleak strace -o "$WORK/strace" -e trace=clone,clone3 -e inject=clone,clone3:delay_exit=100000 \
            "$KBENCH" load -t 4 --warmup 0 -q -c "$L" -D "$D" 40 >"$WORK/out" 2>"$WORK/err" &
        ST=$!
        KB=""
        i=0
        while [ $i -lt 200 ]; do
            KB=$(pgrep -P "$ST" | head -1)
            if [ -n "$KB" ] && [ -n "$(pgrep -P "$KB")" ]; then break; fi
            sleep 0.05
            i=$((i + 1))
        done
        kill -s "$sig" "$KB"
        wait "$ST"
        RC=$?
        forked=$(grep -c '^clone.* = [0-9]' "$WORK/strace")
        if [ "$RC" -eq "$want" ]; then pass "SIG$sig while forking: exit $want"; else
            fail "SIG$sig while forking: exit $want" "rc=$RC" "$(cat "$WORK/err")"; fi
        if [ "$forked" -lt 40 ]; then pass "SIG$sig while forking: no more clients forked ($forked of 40)"; else
            fail "SIG$sig while forking: no more clients forked" "$forked of 40 forked"; fi
        only_line "SIG$sig while forking: one line, no figures" "interrupted by SIG$sig before anything was measured"
        no_process "SIG$sig while forking: every client gone" $(sed -n 's/^clone.* = \([0-9][0-9]*\).*/\1/p' "$WORK/strace")
        expect_empty_dir "SIG$sig while forking: files cleaned up" "$D"
    done

    # a signal while the loadfile is being read (each read of kbench takes
    # 0.3 s): nothing has been made yet, kbench says so and ends at once
    rm -rf "$D"; mkdir -p "$D"
    ASAN_OPTIONS=$noleak strace -o "$WORK/strace" -e trace=openat,read -e inject=read:delay_exit=300000 \
        "$KBENCH" load -t 2 --warmup 0 -q -c "$L" -D "$D" 2 >"$WORK/out" 2>"$WORK/err" &
    ST=$!
    i=0
    while ! grep -q "small.txt" "$WORK/strace" 2>/dev/null && [ $i -lt 400 ]; do sleep 0.05; i=$((i + 1)); done
    kill -INT "$(pgrep -P "$ST" | head -1)"
    wait "$ST"
    RC=$?
    if [ "$RC" -eq 130 ]; then pass "SIGINT while reading the loadfile: exit 130"; else
        fail "SIGINT while reading the loadfile: exit 130" "rc=$RC" "$(tail -3 "$WORK/out")"; fi
    only_line "SIGINT while reading the loadfile: one line" "interrupted by SIGINT before anything was measured"
    if grep -q '^clone' "$WORK/strace" || [ -n "$(ls -A "$D")" ]; then
        fail "SIGINT while reading the loadfile: nothing started, nothing made" "$(ls -A "$D")"
    else
        pass "SIGINT while reading the loadfile: nothing started, nothing made"
    fi
else
    skip "signals while forking and while reading the loadfile (needs strace and ptrace)"
fi

# a stopped client cannot hold the run past its time limit: 10 s after it
# the client is named and killed, and the run fails
rm -rf "$D"; mkdir -p "$D"
bg_load -q -t 2 --warmup 0 --json "$WORK/stuck.json" -c "$L" -D "$D" 2
i=0
while [ -z "$(pgrep -P "$BG")" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
sleep 0.5
pids=$(pgrep -P "$BG" | tr '\n' ' ')
stuck=${pids%% *}
kill -STOP "$stuck"
i=0
while kill -0 "$BG" 2>/dev/null && [ $i -lt 250 ]; do sleep 0.1; i=$((i + 1)); done
if kill -0 "$BG" 2>/dev/null; then
    fail "a stopped client: the run ends by itself" "still running 25 s after its start"
    kill -KILL "$BG" $pids 2>/dev/null
    wait "$BG"
else
    wait "$BG"
    RC=$?
    if [ "$RC" -eq 1 ]; then pass "a stopped client: the run ends by itself, exit 1"; else
        fail "a stopped client: the run ends by itself, exit 1" "rc=$RC" "$(cat "$WORK/err")"; fi
fi
expect_err_grep "the stopped client is named" "^kbench load: client [0-9]+ \\(pid $stuck\\) did not stop within 10 s of the time limit; killing it$"
expect_out_grep "the report says the run failed" "^client [0-9]+ \\(pid $stuck\\) did not stop and was killed: partial results$"
expect_true "the JSON counts it, not as a death" \
    test "$(jget "$WORK/stuck.json" '(d["results"]["stuck_killed"], d["results"]["died"])')" = "(1, False)"
no_process "a stopped client: no client process left" $pids
expect_empty_dir "a stopped client: no client tree left" "$D"

# a stopped client cannot hang the run: it is killed after the grace period
bg_load -t 60 --warmup 0 -c "$L" -D "$D" 2
wait_clients
stuck=$(ps -o pid= --ppid "$BG" | sed -n 1p | tr -d ' ')
kill -STOP "$stuck"
kill -INT "$BG"
wait "$BG"       # returns: the stopped client did not hang the run
RC=$?
if [ "$RC" -eq 130 ]; then pass "a stopped client is killed; exit 130"; else
    fail "a stopped client is killed" "rc=$RC"; fi
expect_err_grep "the kill is reported" 'did not stop within 10 s; killing it'
if kill -0 "$stuck" 2>/dev/null; then fail "the stopped client is gone" "pid $stuck still there"; else
    pass "the stopped client is gone"; fi
expect_empty_dir "stopped client: files cleaned up" "$D"

# interrupted before anything is measured: no table of made-up figures
bg_load -t 5 --warmup 60 -c "$L" -D "$D" 200
wait_clients
kill -INT "$BG"
wait "$BG"
RC=$?
if [ "$RC" -eq 130 ]; then pass "SIGINT during warm-up exits 130"; else fail "SIGINT during warm-up" "rc=$RC"; fi
if grep -Eq '^ (NTCreateX|ReadX) ' "$WORK/out" || grep -q '^Throughput' "$WORK/out"; then
    fail "no figures when nothing was measured" "$(cat "$WORK/out")"
else
    pass "no figures when nothing was measured"
fi
expect_out_grep "the report says so" '^interrupted by SIGINT before anything was measured$'
expect_empty_dir "warm-up interrupt: files cleaned up" "$D"

# a client killed: the run stops, names the client, cleans up, exits 1
bg_load -t 30 --warmup 0 -c "$L" -D "$D" 3
wait_clients
victim=$(ps -o pid= --ppid "$BG" | sed -n 2p | tr -d ' ')
if [ -n "$victim" ]; then
    kill -KILL "$victim"
    wait "$BG"
    RC=$?
    if [ "$RC" -eq 1 ]; then pass "client death exits 1"; else fail "client death exits 1" "rc=$RC"; fi
    expect_err_grep "dead client named" "^kbench load: client [0-9]+ \\(pid $victim\\) was killed by signal 9"
    expect_out_grep "report marks partial results" "^stopped because client [0-9]+ \\(pid $victim\\) was killed by signal 9.*: partial results$"
    expect_empty_dir "client death: files cleaned up" "$D"
else
    kill "$BG"; wait "$BG"
    fail "client death" "could not find a client process"
fi

# symbolic links planted in the client's tree and in DIR are never followed
mkdir -p "$WORK/outside" "$D/clients/client0"
echo precious >"$WORK/outside/keep"
ln -s "$WORK/outside" "$D/clients/client0/link"
ln -s "$WORK/outside" "$D/nbsimuld"
cat >"$WORK/evil.txt" <<'EOT'
NTCreateX "\clients\client1\link\made" 0x0 0x5 1 *
Unlink "\clients\client1\link\keep" 0x6 *
Rename "\clients\client1\link\keep" "\clients\client1\stolen" *
Mkdir "\clients\client1\link\newdir" *
NTCreateX "\nbsimuld\made2" 0x0 0x5 2 *
Unlink "\nbsimuld\keep" 0x6 *
Deltree "\nbsimuld" *
Deltree "\clients\client1\link" *
EOT
kload -q --run-once --skip-cleanup -c "$WORK/evil.txt" -D "$D" 1
if [ "$(ls -A "$WORK/outside")" = keep ] && [ "$(cat "$WORK/outside/keep")" = precious ]; then
    pass "nothing outside DIR created, changed or removed through links"
else
    fail "links followed out of DIR" "$(ls -lA "$WORK/outside")"
fi
rm -rf "$D"; mkdir -p "$D"

# what the run creates inside directories that were already there goes;
# what was there stays
mkdir -p "$D/pre/old" "$D/clients/other"
echo keep >"$D/pre/old/keep.txt"
echo keep >"$D/clients/other/keep.txt"
cat >"$WORK/shared.txt" <<'EOT'
Mkdir "\clients" NT_STATUS_OK
NTCreateX "\pre\new.txt" 0x0 0x5 1 NT_STATUS_OK
WriteX 1 0 100 100 NT_STATUS_OK
Close 1 NT_STATUS_OK
Mkdir "\pre\old\newdir" NT_STATUS_OK
Mkdir "\clients\client1\..\client7" NT_STATUS_OK
NTCreateX "\clients\other\junk" 0x0 0x5 2 NT_STATUS_OK
Close 2 NT_STATUS_OK
EOT
kload -q --run-once -c "$WORK/shared.txt" -D "$D" 2
left=$(cd "$D" && find . | sort | tr '\n' ' ')
want=". ./clients ./clients/other ./clients/other/keep.txt ./pre ./pre/old ./pre/old/keep.txt "
if [ "$RC" -eq 0 ] && [ "$left" = "$want" ]; then pass "cleanup inside existing directories"; else
    fail "cleanup inside existing directories" "rc=$RC" "left: $left" "want: $want"; fi
rm -rf "$D"; mkdir -p "$D"

# another file system mounted inside DIR is never entered or emptied
if [ "$(id -u)" -eq 0 ] && mkdir -p "$D/clients/client0" "$D/shared" &&
   mount -t tmpfs kbench-test "$D/clients/client0" 2>/dev/null; then
    mount -t tmpfs kbench-test "$D/shared"
    echo keep >"$D/clients/client0/p"
    echo keep >"$D/shared/q"
    printf 'Deltree "\\clients\\client1" *\nDeltree "\\shared" *\n' >"$WORK/dtm.txt"
    kload -q --run-once -c "$WORK/dtm.txt" -D "$D" 1
    if [ -f "$D/clients/client0/p" ] && [ -f "$D/shared/q" ]; then pass "mounts inside DIR not emptied"; else
        fail "a mount inside DIR was emptied" "$(ls -la "$D/clients/client0" "$D/shared" 2>&1)"; fi
    expect_err_grep "what was left is said" 'could not remove everything'
    umount "$D/clients/client0"
    umount "$D/shared"
    rm -rf "$D"; mkdir -p "$D"
else
    skip "mounts inside DIR (needs root)"
fi

# a report that cannot be written is a failure
if [ -w /dev/full ]; then
    "$KBENCH" load -q --run-once -c "$L" -D "$D" 1 >/dev/full 2>"$WORK/err"
    RC=$?
    if [ "$RC" -eq 1 ]; then pass "report to a full device: exit 1"; else fail "report to a full device" "rc=$RC"; fi
    expect_err_grep "the lost report is said" 'cannot write the report'
fi

# a full filesystem: ENOSPC is counted against the op, never a crash
if [ "$(id -u)" -eq 0 ] && mkdir -p "$WORK/small" && mount -t tmpfs -o size=256k kbench-test "$WORK/small" 2>/dev/null; then
    cat >"$WORK/big.txt" <<'EOT'
NTCreateX "\clients\client1\big" 0x0 0x5 1 NT_STATUS_OK
WriteX 1 0 1048576 1048576 NT_STATUS_OK
Close 1 NT_STATUS_OK
Unlink "\clients\client1\big" 0x6 NT_STATUS_OK
EOT
    kload -q --run-once -c "$WORK/big.txt" -D "$WORK/small" 1
    if [ "$RC" -eq 1 ]; then pass "ENOSPC: exit 1"; else fail "ENOSPC: exit 1" "rc=$RC" "$(cat "$WORK/err")"; fi
    expect_out_grep "ENOSPC counted against its line" 'big.txt:2: WriteX expected success, failed: No space left on device \(1 times\)'
    expect_empty_dir "ENOSPC: cleaned up" "$WORK/small"
    umount "$WORK/small"
else
    skip "ENOSPC (needs root to mount a small tmpfs)"
fi

# a progress line counts the bytes of its own second, however late the
# parent prints it: writes of 1 MB at least 1.5 s apart (Sleep), so no
# second can hold two, and the parent held up for 3 s
cat >"$WORK/paced.txt" <<'EOT'
NTCreateX "\clients\client1\p" 0x0 0x5 1 NT_STATUS_OK
WriteX 1 0 1000000 1000000 NT_STATUS_OK
Sleep 1500000 NT_STATUS_OK
WriteX 1 0 1000000 1000000 NT_STATUS_OK
Sleep 1500000 NT_STATUS_OK
WriteX 1 0 1000000 1000000 NT_STATUS_OK
Sleep 1500000 NT_STATUS_OK
Close 1 NT_STATUS_OK
EOT
bg_load -t 5 --warmup 0 -c "$WORK/paced.txt" -D "$D" 1
sleep 0.5
kill -STOP "$BG"
sleep 3
kill -CONT "$BG"
wait "$BG"
most=$(awk '/ MB\/sec  avg / { if ($3 + 0 > m) m = $3 + 0 } END { print m + 0 }' "$WORK/out")
lines=$(grep -c ' MB/sec  avg ' "$WORK/out")
expect_true "a parent held up 3 s: every second keeps its own bytes (largest $most MB in $lines lines)" \
    awk -v m="$most" -v n="$lines" 'BEGIN { exit !(m > 0 && m < 2 && n >= 4) }'

finish
