#!/bin/sh
# kbench - command-line tests: every stop signal (cli.h's list: SIGUSR1,
# SIGUSR2, SIGALRM, a real-time one as well as SIGINT, SIGTERM, SIGHUP)
# stops kbench load and kbench micro the same way: what the run made is
# removed, DIR is left as it was, the status is 128 + the signal, and an
# interrupted load prints its partial figure on a line that does not
# start with "Throughput"; a signal ignored at the start stays ignored,
# SIGINT too: a background kbench of this shell (no job control: SIGINT
# ignored, POSIX) runs through a SIGINT to its end; SIGQUIT is never caught
# SPDX-License-Identifier: GPL-3.0-or-later
. "$(dirname "$0")/lib.sh"

D="$WORK/dir"
L="$DATA/small.txt"

# listing DIR: every entry below DIR with its type, size and mode
listing() {
    (cd "$1" && find . -printf '%p %y %s %m\n' | LC_ALL=C sort)
}

# signum NAME: the number of signal NAME, e.g. USR1 -> 10, RTMIN -> 34
# (glibc's, which kbench sees)
signum() {
    python3 -c 'import signal, sys; print(int(getattr(signal, "SIG" + sys.argv[1])))' "$1"
}

# a DIR that holds files of its own before the run: they must be there,
# unchanged, after it
mkdir -p "$D/sub"
echo keep >"$D/keep.txt"
echo deep >"$D/sub/deep.txt"
listing "$D" >"$WORK/before"

# ---- kbench load, a stop signal after the warm-up (partial results) ----
for sig in USR1 USR2 ALRM TERM HUP; do
    n=$(signum "$sig")
    want=$((128 + n))
    rm -f "$WORK/j.json"
    bg_load -t 60 --warmup 1 --json "$WORK/j.json" -c "$L" -D "$D" 3
    wait_progress 2     # a second past the warm-up: something was measured
    kill -s "$sig" "$BG"
    wait "$BG"
    RC=$?
    expect_status "load, SIG$sig: exit $want" "$want"
    listing "$D" >"$WORK/after"
    if cmp -s "$WORK/before" "$WORK/after"; then pass "load, SIG$sig: DIR as it was"; else
        fail "load, SIG$sig: DIR as it was" "$(diff "$WORK/before" "$WORK/after" | head -20)"; fi
    expect_out_grep "load, SIG$sig: said" "^interrupted by SIG$sig: partial results over [0-9.]+ s measured$"
    expect_no_grep "load, SIG$sig: no line starts with Throughput" "$WORK/out" '^Throughput'
    expect_out_grep "load, SIG$sig: the partial figure, marked" \
        '^Interrupted after [0-9.]+ s measured: [0-9.e+]+ MB/sec \(partial, not a result\)  3 clients  3 procs  max_latency=[0-9.]+ ms$'
    expect_py "load, SIG$sig: the JSON keeps the partial figures, marked" "$WORK/j.json" "$n" <<'EOF'
import json, sys
r = json.load(open(sys.argv[1]))["results"]
assert r["interrupted_signal"] == int(sys.argv[2]), r["interrupted_signal"]
assert r["measured_s"] > 0 and r["ops_total"] > 0 and r["bytes"] > 0, r
assert r["throughput_MBps"] > 0, r["throughput_MBps"]
assert abs(r["throughput_MBps"] - r["bytes"] / 1e6 / r["measured_s"]) < 1e-6 * r["throughput_MBps"], r
EOF
done

# a real-time signal (glibc's SIGRTMIN+1), by number
rt=$(($(signum RTMIN) + 1))
bg_load -t 60 --warmup 0 -c "$L" -D "$D" 2
wait_progress
kill -"$rt" "$BG"
wait "$BG"
RC=$?
expect_status "load, SIGRTMIN+1: exit $((128 + rt))" $((128 + rt))
expect_out_grep "load, SIGRTMIN+1: named" '^interrupted by SIGRTMIN\+1: partial results'
listing "$D" >"$WORK/after"
expect_true "load, SIGRTMIN+1: DIR as it was" cmp -s "$WORK/before" "$WORK/after"

# a stop signal to the whole process group (as a terminal or a harness
# sends it) reaches the clients too: they leave the stop to kbench
: >"$WORK/out"
setsid "$KBENCH" load -t 60 --warmup 0 -c "$L" -D "$D" 3 >"$WORK/out" 2>"$WORK/err" &
BG=$!
wait_progress
kill -s USR2 -- -"$BG"
wait "$BG"
RC=$?
expect_status "load, SIGUSR2 to the process group: exit $((128 + $(signum USR2)))" $((128 + $(signum USR2)))
expect_no_grep "load, SIGUSR2 to the group: no client died of it" "$WORK/err" 'killed|died|signal'
listing "$D" >"$WORK/after"
expect_true "load, SIGUSR2 to the group: DIR as it was" cmp -s "$WORK/before" "$WORK/after"

# SIGUSR1 ignored when kbench starts: it stays ignored, the run completes
: >"$WORK/out"
(trap '' USR1; exec "$KBENCH" load -t 2 --warmup 0 -c "$L" -D "$D" 2 >"$WORK/out" 2>"$WORK/err") &
BG=$!
wait_progress
expect_true "load, SIGUSR1 ignored at the start: sent while the run goes" kill -s USR1 "$BG"
wait "$BG"
RC=$?
expect_status "load, SIGUSR1 ignored at the start: the run completes" 0
expect_out_grep "load, SIGUSR1 ignored: the whole run's Throughput" '^Throughput [0-9.]+ MB/sec  2 clients  2 procs'
expect_no_grep "load, SIGUSR1 ignored: not interrupted" "$WORK/out" '[Ii]nterrupted'

# a client's write past the file size limit (ulimit -f: 2 or 4 KiB, as
# the shell counts blocks; the loadfile writes 6000 bytes into a file) is
# an error the run reports, not a death by SIGXFSZ that leaves the trees;
# kbench writes to a pipe, which the limit does not bound
( ulimit -f 4; "$KBENCH" load -q -t 2 --warmup 0 -c "$L" -D "$D" 2 2>&1; echo "status $?" ) |
    cat >"$WORK/out"
expect_out_grep "load under ulimit -f: exit 1" '^status 1$'
expect_out_grep "load under ulimit -f: the writes failed, counted" 'WriteX expected success, failed: File too large'
listing "$D" >"$WORK/after"
expect_true "load under ulimit -f: DIR as it was" cmp -s "$WORK/before" "$WORK/after"

# a stop signal after the run, while the cleanup removes files: the
# cleanup finishes (DIR as it was) and the status is 128 + N all the same.
# strace sends kbench SIGTERM as it enters its 100th unlinkat, which only
# the cleanup makes (the clients, which are not traced, make none): the
# signal lands in the cleanup by construction, never by timing
python3 - "$WORK/many.txt" <<'PY'
import sys
with open(sys.argv[1], "w") as f:
    f.write('Mkdir "\\clients\\client1\\d" NT_STATUS_OK\n')
    for i in range(2000):
        f.write('NTCreateX "\\clients\\client1\\d\\f%d" 0x0 0x2 %d NT_STATUS_OK\n' % (i, 1 + i % 10))
        f.write('Close %d NT_STATUS_OK\n' % (1 + i % 10))
PY
if command -v strace >/dev/null 2>&1; then
    run env ASAN_OPTIONS="$ASAN_NOLEAK" strace -qq -o /dev/null -e trace=unlinkat \
        -e inject=unlinkat:signal=SIGTERM:when=100 \
        "$KBENCH" load -q --run-once -c "$WORK/many.txt" -D "$D" 4
    expect_status "load, SIGTERM during the cleanup: exit 143" 143
    expect_out_grep "load, SIGTERM during the cleanup: the report whole, before it" '^Throughput '
    expect_err_grep "... said: the figures were whole, the cleanup finished" \
        '^kbench load: SIGTERM after the run: the figures above are the whole run.s; the cleanup was finished$'
    listing "$D" >"$WORK/after"
    expect_true "... DIR as it was" cmp -s "$WORK/before" "$WORK/after"
else
    skip "load, SIGTERM during the cleanup: no strace"
fi

# ---- kbench micro: its temporary directory goes, whatever the signal ----
# lat_syscall_null with --enough 10 times intervals of 10 s: once its
# line is printed the run holds its directory until the signal ends it
for sig in USR1 USR2 ALRM TERM HUP; do
    n=$(signum "$sig")
    rm -rf "$WORK/tmp" && mkdir -p "$WORK/tmp"
    # emptied here, not by the redirection in the child: the wait must
    # never see the last run's line
    : >"$WORK/out"
    : >"$WORK/err"
    TMPDIR="$WORK/tmp" "$KBENCH" micro --enough 10 lat_syscall_null >"$WORK/out" 2>"$WORK/err" &
    pid=$!
    wait_until 120 grep -qs "\\[1/1\\] lat_syscall_null" "$WORK/err" ||
        fail "micro, SIG$sig: its progress line" "$(cat "$WORK/err")"
    expect_true "micro, SIG$sig: its temporary directory there" \
        test -n "$(find "$WORK/tmp" -mindepth 1 -print -quit)"
    kill -s "$sig" "$pid"
    wait "$pid"
    RC=$?
    expect_status "micro, SIG$sig: exit $((128 + n))" $((128 + n))
    expect_empty_dir "micro, SIG$sig: no temporary directory left" "$WORK/tmp"
    expect_err_grep "micro, SIG$sig: said so" "^kbench micro: interrupted; children stopped, temporary files removed, no figures reported$"
    expect_empty_file "micro, SIG$sig: no figure printed" "$WORK/out"
done

# SIGALRM ignored when kbench starts: the tests run to their end
rm -rf "$WORK/tmp" && mkdir -p "$WORK/tmp"
: >"$WORK/out"
: >"$WORK/err"
(trap '' ALRM; TMPDIR="$WORK/tmp" exec "$KBENCH" micro --enough 0.05 lat_syscall_null \
    lat_sig_send >"$WORK/out" 2>"$WORK/err") &
pid=$!
wait_until 120 grep -qs "\\[1/2\\] lat_syscall_null" "$WORK/err"
expect_true "micro, SIGALRM ignored at the start: sent while the run goes" kill -s ALRM "$pid"
wait "$pid"
RC=$?
expect_status "micro, SIGALRM ignored at the start: the run completes" 0
expect_out_grep "micro, SIGALRM ignored: figures printed" 'lat_sig_send'
expect_empty_dir "micro, SIGALRM ignored: no temporary directory left" "$WORK/tmp"

# ---- SIGINT: ignored at the start, it stays ignored (every command) ----
# A background job of this shell (no job control) starts with SIGINT
# ignored (POSIX): kbench keeps it so, as dbench does, and runs through a
# SIGINT to its end; given its default action (env --default-signal, as
# in an interactive shell's job) SIGINT stops it with 130 and no figure.
# The ignored SIGINT is sent while kbench is held by SIGSTOP after the
# run has printed a line: it comes before the run's end, certainly.
# SIGQUIT is not caught either way (its core dump).

# sigbit FIELD PID N: bit N (a signal 1..8) of /proc/PID/status's FIELD
# (SigIgn, SigCgt), 1 or 0; the last two hex digits alone (the whole
# mask may not fit the shell's arithmetic)
sigbit() {
    sb=$(sed -n "s/^$1:[[:space:]]*//p" "/proc/$2/status")
    sb=${sb#"${sb%??}"}
    echo $(( (0x${sb:-0} >> ($3 - 1)) & 1 ))
}
INT=$(signum INT)
QUIT=$(signum QUIT)

# held_int NAME PID: PID stopped, its SIGINT ignored, not caught, and
# SIGQUIT not caught; SIGINT sent, then SIGCONT
held_int() {
    kill -STOP "$2"
    wait_until 120 is_stopped "$2"
    expect_eq "$1: SIGINT ignored by its shell, ignored still" "$(sigbit SigIgn "$2" "$INT")" 1
    expect_eq "$1: SIGINT not caught" "$(sigbit SigCgt "$2" "$INT")" 0
    expect_eq "$1: SIGQUIT not caught" "$(sigbit SigCgt "$2" "$QUIT")" 0
    expect_true "$1: SIGINT sent while the run goes (held)" kill -s INT "$2"
    kill -s CONT "$2"
}

# load: the run completes, its Throughput line, status 0
bg_plain() {
    : >"$WORK/out"
    : >"$WORK/err"
    "$KBENCH" load "$@" >"$WORK/out" 2>"$WORK/err" &
    BG=$!
}
bg_plain -t 2 --warmup 0 -c "$L" -D "$D" 2
wait_progress      # the clients run
held_int "load, SIGINT ignored" "$BG"
wait "$BG"
RC=$?
expect_status "load, SIGINT ignored: the run completes, status 0" 0
expect_out_grep "load, SIGINT ignored: the whole run's Throughput" '^Throughput [0-9.]+ MB/sec  2 clients  2 procs'
expect_no_grep "load, SIGINT ignored: not interrupted" "$WORK/out" '[Ii]nterrupted'
listing "$D" >"$WORK/after"
expect_true "load, SIGINT ignored: DIR as it was" cmp -s "$WORK/before" "$WORK/after"

# load, SIGINT at its default: stopped in the warm-up (600 s), 130, no figure
bg_load -t 5 --warmup 600 -c "$L" -D "$D" 2
wait_progress      # in the warm-up
expect_eq "load, SIGINT at its default: caught" "$(sigbit SigCgt "$BG" "$INT")" 1
expect_eq "load, SIGINT at its default: SIGQUIT not caught" "$(sigbit SigCgt "$BG" "$QUIT")" 0
kill -s INT "$BG"
wait "$BG"
RC=$?
expect_status "load, SIGINT at its default: exit 130" 130
expect_out_grep "load, SIGINT at its default: said" '^interrupted by SIGINT before anything was measured$'
expect_no_grep "load, SIGINT at its default: no figure (no table, Throughput or partial line)" \
    "$WORK/out" '^(Throughput|Interrupted after| *(NTCreateX|ReadX|WriteX) )'
listing "$D" >"$WORK/after"
expect_true "load, SIGINT at its default: DIR as it was" cmp -s "$WORK/before" "$WORK/after"

# micro: the tests run to their end, their figures, status 0
rm -rf "$WORK/tmp" && mkdir -p "$WORK/tmp"
: >"$WORK/out"
: >"$WORK/err"
TMPDIR="$WORK/tmp" "$KBENCH" micro --enough 0.05 lat_syscall_null lat_sig_send \
    >"$WORK/out" 2>"$WORK/err" &
pid=$!
wait_until 120 grep -qs "\\[1/2\\] lat_syscall_null" "$WORK/err" ||
    fail "micro, SIGINT ignored: its progress line" "$(cat "$WORK/err")"
held_int "micro, SIGINT ignored" "$pid"
wait "$pid"
RC=$?
expect_status "micro, SIGINT ignored: the run completes, status 0" 0
expect_out_grep "micro, SIGINT ignored: figures printed" 'lat_sig_send'
expect_no_grep "micro, SIGINT ignored: not interrupted" "$WORK/err" 'interrupted'
expect_empty_dir "micro, SIGINT ignored: no temporary directory left" "$WORK/tmp"

# micro, SIGINT at its default: 130, no figure, its directory gone
rm -rf "$WORK/tmp" && mkdir -p "$WORK/tmp"
: >"$WORK/out"
: >"$WORK/err"
TMPDIR="$WORK/tmp" env --default-signal=INT "$KBENCH" micro --enough 10 lat_syscall_null \
    >"$WORK/out" 2>"$WORK/err" &
pid=$!
wait_until 120 grep -qs "\\[1/1\\] lat_syscall_null" "$WORK/err" ||
    fail "micro, SIGINT at its default: its progress line" "$(cat "$WORK/err")"
expect_eq "micro, SIGINT at its default: caught" "$(sigbit SigCgt "$pid" "$INT")" 1
expect_eq "micro, SIGINT at its default: SIGQUIT not caught" "$(sigbit SigCgt "$pid" "$QUIT")" 0
kill -s INT "$pid"
wait "$pid"
RC=$?
expect_status "micro, SIGINT at its default: exit 130" 130
expect_err_grep "micro, SIGINT at its default: said so" "^kbench micro: interrupted; children stopped, temporary files removed, no figures reported$"
expect_empty_file "micro, SIGINT at its default: no figure printed" "$WORK/out"
expect_empty_dir "micro, SIGINT at its default: no temporary directory left" "$WORK/tmp"

finish
