#!/bin/sh
# kbench - command-line tests: signals (at any moment, SIGHUP too unless
# ignored), stopped clients, a client's death, a full disk and symbolic
# links never take kbench load out of its directory
# SPDX-License-Identifier: GPL-3.0-or-later
. "$(dirname "$0")/lib.sh"

D="$WORK/dir"
mkdir -p "$D"
L="$DATA/small.txt"

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
    wait_progress 2     # a second past the warm-up: something was measured
    kill -s "$sig" "$BG"
    wait "$BG"
    RC=$?
    want=$(sigwant "$sig")
    expect_status "SIG$sig exits $want" "$want"
    expect_out_grep "SIG$sig: partial results marked" "^interrupted by SIG$sig: partial results over [0-9.]+ s measured$"
    expect_out_grep "SIG$sig: the partial figure on its own line" '^Interrupted after [0-9.]+ s measured: [0-9.e+]+ MB/sec \(partial, not a result\)  2 clients  2 procs'
    expect_no_grep "SIG$sig: no Throughput line (harnesses take it as a result)" "$WORK/out" '^Throughput'
    expect_empty_dir "SIG$sig: files cleaned up" "$D"
done

# SIGHUP ignored when kbench starts (nohup): the run goes on to its end
rm -rf "$D"; mkdir -p "$D"
(trap '' HUP; exec "$KBENCH" load -q -t 2 --warmup 0 -c "$L" -D "$D" 2 >"$WORK/out" 2>"$WORK/err") &
BG=$!
wait_until 120 test -d "$D/clients/client1"   # both clients set up: the run goes on
kill -HUP "$BG"
wait "$BG"
RC=$?
expect_status "SIGHUP ignored at the start: the run completes" 0
expect_out_grep "SIGHUP ignored: the whole run's Throughput" '^Throughput [0-9.]+ MB/sec  2 clients'
expect_no_grep "SIGHUP ignored: not interrupted" "$WORK/out" interrupted
expect_empty_dir "SIGHUP ignored: files cleaned up" "$D"

# a signal while the clients are being forked, sent by strace itself as
# the third fork begins (inject=...:signal=, when=3; the first is the
# loadfile's parse, kbench-parse, ended by then): the first client is
# there and 39 are still to come, whatever the machine's load; no more
# are forked, those there are killed (no leak check under strace:
# ASAN_NOLEAK).  The test waits for nothing and races no clock.
if command -v strace >/dev/null 2>&1 &&
   strace -o /dev/null -e trace=clone,clone3 -e inject=clone,clone3:signal=USR1:when=9 true 2>/dev/null; then
    for sig in INT TERM HUP; do
        want=$(sigwant "$sig")
        rm -rf "$D"; mkdir -p "$D"
        # SIGINT at its default, not ignored as in this shell's
        # background jobs (bg_load, lib.sh)
        RC=0
        ASAN_OPTIONS=$ASAN_NOLEAK env --default-signal=INT strace -o "$WORK/strace" \
            -e trace=clone,clone3 -e inject=clone,clone3:signal="$sig":when=3 \
            "$KBENCH" load -t 4 --warmup 0 -q -c "$L" -D "$D" 40 >"$WORK/out" 2>"$WORK/err" || RC=$?
        forked=$(grep -c '^clone.* = [0-9]' "$WORK/strace")
        expect_status "SIG$sig while forking: exit $want" "$want"
        expect_true "SIG$sig while forking: the signal came as client 2 was forked ($forked forks: the parse, 2 clients, the report)" [ "$forked" -le 4 ]
        only_line "SIG$sig while forking: one line, no figures" "interrupted by SIG$sig before anything was measured"
        expect_gone "SIG$sig while forking: every client gone" $(sed -n 's/^clone.* = \([0-9][0-9]*\).*/\1/p' "$WORK/strace")
        expect_empty_dir "SIG$sig while forking: files cleaned up" "$D"
    done

    # a signal while the loadfile is being read (the parse, in a child named
    # kbench-parse, waits on a FIFO no one writes): nothing has been made
    # yet, kbench says so and ends at once, and the parse ends with it
    rm -rf "$D"; mkdir -p "$D"
    FIFO="$WORK/fifo.txt"
    rm -f "$FIFO"; mkfifo "$FIFO"
    ASAN_OPTIONS=$ASAN_NOLEAK env --default-signal=INT \
        "$KBENCH" load -t 2 --warmup 0 -q -c "$FIFO" -D "$D" 2 >"$WORK/out" 2>"$WORK/err" &
    KB=$!
    wait_until 120 pgrep -x kbench-parse -P "$KB"
    parse=$(pgrep -x kbench-parse -P "$KB")
    kill -INT "$KB"
    wait "$KB"
    RC=$?
    expect_status "SIGINT while reading the loadfile: exit 130" 130
    only_line "SIGINT while reading the loadfile: one line" "interrupted by SIGINT before anything was measured"
    expect_empty_dir "SIGINT while reading the loadfile: nothing made" "$D"
    parse_gone() {
        [ -n "$1" ] && { [ ! -e "/proc/$1" ] || grep -q '^State:.*Z' "/proc/$1/status"; }
    }
    wait_until 10 parse_gone "$parse"
    expect_true "SIGINT while reading the loadfile: the parse (pid $parse) ended with kbench" \
        parse_gone "$parse"
    rm -f "$FIFO"
else
    skip "signals while forking and while reading the loadfile (needs strace and ptrace)"
fi

# a stopped client cannot hold the run past its time limit: 10 s after it
# the client is named and killed, and the run fails
rm -rf "$D"; mkdir -p "$D"
# (-t 8: the client is stopped within the run, however late a loaded
# machine lets this shell see its first second)
bg_load -t 8 --warmup 0 --json "$WORK/stuck.json" -c "$L" -D "$D" 2
wait_progress      # the run has started: both clients were ready
pids=$(pgrep -P "$BG" | tr '\n' ' ')
stuck=${pids%% *}
kill -STOP "$stuck"
if wait_until 90 not_running "$BG"; then
    wait "$BG"
    RC=$?
    expect_status "a stopped client: the run ends by itself, exit 1" 1
else
    fail "a stopped client: the run ends by itself" "still running 90 s after its first second"
    kill -KILL "$BG" $pids 2>/dev/null
    wait "$BG"
fi
expect_err_grep "the stopped client is named" "^kbench load: client [0-9]+ \\(pid $stuck\\) did not stop within 10 s of the time limit; killing it$"
expect_out_grep "the report says the run failed" "^client [0-9]+ \\(pid $stuck\\) did not stop and was killed: partial results$"
expect_true "the JSON counts it, not as a death" \
    test "$(jget "$WORK/stuck.json" '(d["results"]["stuck_killed"], d["results"]["died"])')" = "(1, False)"
expect_gone "a stopped client: no client process left" $pids
expect_empty_dir "a stopped client: no client tree left" "$D"

# a stopped client cannot hang the run: it is killed after the grace period
# (the signal comes in the warm-up, which ends while the stopped client
# holds the run: nothing was measured, so no steal either)
bg_load -t 60 --warmup 5 --json "$WORK/held.json" -c "$L" -D "$D" 2
wait_progress
stuck=$(ps -o pid= --ppid "$BG" | sed -n 1p | tr -d ' ')
kill -STOP "$stuck"
kill -INT "$BG"
wait "$BG"       # returns: the stopped client did not hang the run
RC=$?
expect_status "a stopped client is killed; exit 130" 130
expect_err_grep "the kill is reported" 'did not stop within 10 s; killing it'
expect_gone "the stopped client is gone" "$stuck"
expect_eq "stopped in the warm-up: no window, no steal_pct" \
    "$(jget "$WORK/held.json" '(d["results"]["measured_s"], d["results"]["steal_pct"])')" "(0.0, None)"
expect_empty_dir "stopped client: files cleaned up" "$D"

# interrupted before anything is measured: no table of made-up figures
bg_load -t 5 --warmup 60 -c "$L" -D "$D" 200
wait_progress
kill -INT "$BG"
wait "$BG"
RC=$?
expect_status "SIGINT during warm-up exits 130" 130
expect_no_grep "no figures when nothing was measured" "$WORK/out" '^( (NTCreateX|ReadX) |Throughput)'
expect_out_grep "the report says so" '^interrupted by SIGINT before anything was measured$'
expect_empty_dir "warm-up interrupt: files cleaned up" "$D"

# a client killed: the run stops, names the client, cleans up, exits 1
bg_load -t 30 --warmup 0 -c "$L" -D "$D" 3
wait_progress
victim=$(ps -o pid= --ppid "$BG" | sed -n 2p | tr -d ' ')
if [ -n "$victim" ]; then
    kill -KILL "$victim"
    wait "$BG"
    RC=$?
    expect_status "client death exits 1" 1
    expect_err_grep "dead client named" "^kbench load: client [0-9]+ \\(pid $victim\\) was killed by signal 9"
    expect_out_grep "report marks partial results" "^stopped because client [0-9]+ \\(pid $victim\\) was killed by signal 9.*: partial results$"
    expect_empty_dir "client death: files cleaned up" "$D"
else
    kill "$BG"; wait "$BG"
    fail "client death" "could not find a client process"
fi

# a client tree that was there and holds anything is refused, before any
# client starts: the run removes only what it made
mkdir -p "$WORK/outside" "$D/clients/client0"
echo precious >"$WORK/outside/keep"
ln -s "$WORK/outside" "$D/clients/client0/link"
kload -q --run-once -D "$D" 1
expect_status "a client tree that was there, not empty: exit 2" 2
expect_err_grep "... said in one line" "^kbench load: $D/clients/client0 was there before the run and is not empty"
expect_true "... and left as it was" test -L "$D/clients/client0/link"
rm -rf "$D"; mkdir -p "$D"

# symbolic links planted in DIR are never followed
mkdir -p "$D/pre"
ln -s "$WORK/outside" "$D/pre/link"
ln -s "$WORK/outside" "$D/nbsimuld"
cat >"$WORK/evil.txt" <<'EOT'
NTCreateX "\pre\link\made" 0x0 0x5 1 *
Unlink "\pre\link\keep" 0x6 *
Rename "\pre\link\keep" "\clients\client1\stolen" *
Mkdir "\pre\link\newdir" *
NTCreateX "\nbsimuld\made2" 0x0 0x5 2 *
Unlink "\nbsimuld\keep" 0x6 *
Deltree "\nbsimuld" *
Deltree "\pre\link" *
EOT
kload -q --run-once --skip-cleanup -c "$WORK/evil.txt" -D "$D" 1
expect_eq "nothing outside DIR created, changed or removed through links" \
    "$(ls -A "$WORK/outside")/$(cat "$WORK/outside/keep")" keep/precious "$(ls -lA "$WORK/outside")"
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
expect_status "cleanup inside existing directories: exit 0" 0
expect_eq "cleanup inside existing directories" "$(cd "$D" && find . | sort | tr '\n' ' ')" \
    ". ./clients ./clients/other ./clients/other/keep.txt ./pre ./pre/old ./pre/old/keep.txt "
rm -rf "$D"; mkdir -p "$D"

# another file system mounted inside DIR is never entered or emptied; as a
# client tree it is refused before any client starts
if [ "$(id -u)" -eq 0 ] && mkdir -p "$D/clients/client0" "$D/shared" &&
   mount -t tmpfs kbench-test "$D/clients/client0" 2>/dev/null; then
    mount -t tmpfs kbench-test "$D/shared"
    echo keep >"$D/clients/client0/p"
    echo keep >"$D/shared/q"
    printf 'Deltree "\\clients\\client1" *\nDeltree "\\shared" *\n' >"$WORK/dtm.txt"
    kload -q --run-once -c "$WORK/dtm.txt" -D "$D" 1
    expect_status "a client tree that is a mount point: exit 2" 2
    expect_err_grep "... said" "$D/clients/client0 is a mount point"
    umount "$D/clients/client0"
    rm -rf "$D/clients"
    kload -q --run-once -c "$WORK/dtm.txt" -D "$D" 1
    expect_eq "mounts inside DIR not emptied" "$(cat "$D/shared/q" 2>&1)" keep "$(ls -la "$D/shared" 2>&1)"
    expect_err_grep "what was left is said" 'could not remove everything'
    expect_status "what was left: the run failed, exit 1" 1
    expect_no_grep "what was left: no figure line" "$WORK/out" '^ *Throughput'
    umount "$D/shared"
    rm -rf "$D"; mkdir -p "$D"
else
    skip "mounts inside DIR (needs root)"
fi

# a report that cannot be written is a failure
if [ -w /dev/full ]; then
    : >"$WORK/out"
    "$KBENCH" load -q --run-once -c "$L" -D "$D" 1 >/dev/full 2>"$WORK/err"
    RC=$?
    expect_status "report to a full device: exit 1" 1
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
    expect_status "ENOSPC: exit 1" 1
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
