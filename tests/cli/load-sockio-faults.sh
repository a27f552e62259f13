#!/bin/sh
# kbench - command-line tests: kbench load -B sockio when the server fails
# mid-run: its connections killed, stalled, reset, a reply of another
# size (lost sync); a signal while the server stalls; a stall at the
# opening exchange; replies trickled a byte at a time (-t, and SIGINT of
# --run-once); a request larger than a tbench server takes.  Each
# ends the run with status 1 (130 for SIGINT), the server named, the
# error counted against its loadfile line, and no client waits past the
# run's end and its grace.
# SPDX-License-Identifier: GPL-3.0-or-later
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/sockio-lib.sh"

L="$DATA/small.txt"
cd "$WORK" || exit 1

# A tbench server gone wrong, on 127.0.0.1 and a free port (printed
# first): MODE lostsync answers the first request of each connection
# right and the second with a reply one byte longer; reset resets each
# connection after its fifth request; stallopen answers the first
# connection (kbench's check) and then never answers; trickle N answers
# the first N requests of each connection at once and every later reply
# one byte every 50 ms (saying "trickling" when it starts one).
cat >fake.py <<'PY'
import socket, struct, sys, threading, time
mode = sys.argv[1]
prompt = int(sys.argv[2]) if mode == "trickle" else 0
l = socket.socket()
l.bind(("127.0.0.1", 0))
l.listen(64)
print(l.getsockname()[1], flush=True)
first = [True]
def recv_exact(c, n):
    b = b""
    while len(b) < n:
        x = c.recv(n - len(b))
        if not x:
            raise EOFError
        b += x
    return b
def serve(c, answer):
    try:
        k = 0
        while True:
            n, m = struct.unpack(">II", recv_exact(c, 8))
            recv_exact(c, n - 4)
            k += 1
            if not answer:
                time.sleep(600)
            if mode == "lostsync" and k == 2:
                m += 1
            if mode == "reset" and k == 6:
                c.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
                c.close()
                return
            if mode == "trickle" and k > prompt:
                print("trickling", flush=True)
                for b in struct.pack(">I", m) + b"\0" * m:
                    c.sendall(bytes([b]))
                    time.sleep(0.05)
                continue
            c.sendall(struct.pack(">I", m) + b"\0" * m)
    except (EOFError, OSError):
        pass
while True:
    c, _ = l.accept()
    answer = mode != "stallopen" or first[0]
    first[0] = False
    threading.Thread(target=serve, args=(c, answer), daemon=True).start()
PY

# fake MODE [N]: start fake.py MODE [N]; its pid in $FAKE, its output
# (a file of its own: nothing an earlier server wrote is read as this
# one's) in $FAKE_OUT, its port in $PORT
FAKES=0
fake() {
    FAKES=$((FAKES + 1))
    FAKE_OUT="$WORK/fake-$1-$FAKES.out"
    python3 fake.py "$@" >"$FAKE_OUT" 2>&1 &
    FAKE=$!
    SRV_PIDS="$SRV_PIDS $FAKE"
    if ! wait_until 120 grep -aqs '^[0-9][0-9]*$' "$FAKE_OUT"; then
        fail "fake $1: it prints its port" "none after 120 s: $(head -c 300 "$FAKE_OUT")"
        finish
    fi
    PORT=$(grep -a -m1 '^[0-9][0-9]*$' "$FAKE_OUT")
}

# ends_alone NAME: the background kbench load ($BG) ends by itself, long
# before its -t 600 would; its status in $RC
ends_alone() {
    if wait_until 120 not_running "$BG"; then pass "$1: the run ends by itself"; else
        fail "$1: the run ends by itself" "still running after 120 s"
        kill -KILL "$BG"
    fi
    wait "$BG"
    RC=$?
}

# ---- the connections' processes killed mid-run ----
start_server s
S=$SRV
bg_load -B sockio --server "127.0.0.1:$PORT" -c "$L" -t 600 --warmup 0 --json killed.json 2
wait_progress 1
# shellcheck disable=SC2046
kill -KILL $(children_of "$S")
ends_alone "server's processes killed"
expect_status "server's processes killed: status 1" 1
expect_err_grep "killed: the server named, what happened" \
    "^kbench load: client [01]: server 127\.0\.0\.1:$PORT: (the server closed the connection|Connection reset by peer) \(loadfile line [0-9]+, [A-Za-z_]+\)$"
expect_out_grep "killed: the clients stopped early" '^2 clients stopped early \(client [01]: '
expect_true "killed: errors counted against lines" \
    test "$(jget killed.json 'sum(e["count"] for e in d["results"]["error_lines"])')" -ge 2
stop_server "$S"

# ---- the connections' processes stopped (SIGSTOP): a stall ----
start_server s
S=$SRV
bg_load -B sockio --server "127.0.0.1:$PORT" -c "$L" -t 3 --warmup 0 --json stall.json 2
wait_progress 1
KIDS=$(children_of "$S")
# shellcheck disable=SC2086
kill -STOP $KIDS
ends_alone "a stalled server"
expect_status "a stalled server: status 1" 1
expect_err_grep "stalled: the server named" \
    "^kbench load: client [01]: server 127\.0\.0\.1:$PORT: no reply by the run's end \(the server stalled\) \(loadfile line [0-9]+, "
expect_eq "stalled: the error is a timeout, on a line" \
    "$(jget stall.json 'sorted(set(e["got"] for e in d["results"]["error_lines"]))')" "['Connection timed out']"
# shellcheck disable=SC2086
kill -CONT $KIDS
stop_server "$S"

# ---- SIGINT while the server stalls: the run stops, 130 ----
start_server s
S=$SRV
bg_load -B sockio --server "127.0.0.1:$PORT" -c "$L" -t 600 --warmup 0 2
wait_progress 1
KIDS=$(children_of "$S")
# shellcheck disable=SC2086
kill -STOP $KIDS
kill -INT "$BG"
ends_alone "SIGINT during a stall"
expect_status "SIGINT during a stall: status 130" 130
expect_out_grep "SIGINT during a stall: marked" '^interrupted by SIGINT'
# shellcheck disable=SC2086
kill -CONT $KIDS
stop_server "$S"

# ---- a reply of another size: lost sync ----
fake lostsync
kload -B sockio --server "127.0.0.1:$PORT" -c "$L" -t 600 --warmup 0 --json sync.json 1
expect_status "lost sync: status 1" 1
expect_err_grep "lost sync: said, with the server and the line" \
    "^kbench load: client 0: server 127\.0\.0\.1:$PORT: a reply of another size than asked for \(lost sync\) \(loadfile line 4, Mkdir\)$"
expect_eq "lost sync: one error, on line 4" \
    "$(jget sync.json '[(e["line"], e["count"]) for e in d["results"]["error_lines"]]')" "[(4, 1)]"
kill "$FAKE"; wait "$FAKE" 2>/dev/null

# ---- a connection reset ----
fake reset
kload -B sockio --server "127.0.0.1:$PORT" -c "$L" -t 600 --warmup 0 --json reset.json 1
expect_status "reset: status 1" 1
expect_err_grep "reset: said" \
    "^kbench load: client 0: server 127\.0\.0\.1:$PORT: Connection reset by peer \(loadfile line 8, ReadX\)$"
kill "$FAKE"; wait "$FAKE" 2>/dev/null

# ---- a stall at a client's opening exchange ----
fake stallopen
kload -B sockio --server "127.0.0.1:$PORT" -c "$L" -t 600 --warmup 0 1
expect_status "a stall at the opening exchange: status 1" 1
expect_err_grep "stall at the opening: the client could not set up, the server named, one line" \
    "^kbench load: client 0: cannot set up clients/client0 \(-B sockio, 127\.0\.0\.1:$PORT\): Connection timed out$"
kill "$FAKE"; wait "$FAKE" 2>/dev/null

# ---- a server that trickles its replies, a byte every 50 ms ----
# Every read and write gives up 2 s after the run's end (or a stop), so
# a run ends by itself within that grace, however slowly bytes come:
# the ceilings below are the run's time, the 2 s grace and 5 s to spare
# (kbench-load(1), -B sockio).  Before the clock was read after every
# partial read, a ReadX's 65,540-byte reply kept a client until it was
# killed 10 s after the end.
printf '%s\n' 'NTCreateX "\clients\client1\f" 0x40 0x5 7 NT_STATUS_OK' \
    'ReadX 7 0 65536 65536 NT_STATUS_OK' 'Close 7 NT_STATUS_OK' >trickle.txt
# the check and the opening exchange and NTCreateX answered at once, the
# ReadX trickled: it is in flight when the run ends
fake trickle 2
T0=$(date +%s)
kload -B sockio --server "127.0.0.1:$PORT" -c trickle.txt -t 2 --warmup 0 --json tr.json 1
T1=$(date +%s)
expect_status "a trickling server, -t 2: status 1" 1
expect_true "a trickling server, -t 2: ends within 2 s + the 2 s grace + 5 s" test $((T1 - T0)) -le 9
expect_err_grep "a trickling server: the server and the ReadX named" \
    "^kbench load: client 0: server 127\.0\.0\.1:$PORT: no reply by the run's end \(the server stalled\) \(loadfile line 2, ReadX\)$"
expect_eq "a trickling server: the client stopped by itself, none killed; a timeout on line 2" \
    "$(jget tr.json '(d["results"]["stuck_killed"], [(e["line"], e["got"]) for e in d["results"]["error_lines"]])')" \
    "(0, [(2, 'Connection timed out')])"
expect_no_grep "a trickling server: no client killed" "$WORK/err" 'killing it'
# one NTCreateX completed and no byte was read: the figure is the 0
# measured, but the client lost its connection, so it is partial: no line
# a harness would take as a result
expect_out_grep "a trickling server: the 0 bytes measured, on the partial line" \
    '^Stopped early after [0-9.]+ s measured: 0 MB/sec \(partial, not a result\)  1 clients  1 procs '
expect_no_grep "a trickling server: no Throughput line" "$WORK/out" '^Throughput'
expect_eq "a trickling server: the JSON says the same" \
    "$(jget tr.json '(d["results"]["throughput_MBps"], d["results"]["ops_total"], d["results"]["bytes"])')" "(0.0, 1, 0)"

# SIGINT of a --run-once run while the ReadX trickles: the stop moves the
# end, and the reads give up 2 s after it
# (a server of its own, with its own output: the first run's connection
# may still be trickling its reply there)
kill "$FAKE"; wait "$FAKE" 2>/dev/null
fake trickle 2
bg_load -B sockio --server "127.0.0.1:$PORT" -c trickle.txt --run-once --warmup 0 1
wait_until 120 grep -q trickling "$FAKE_OUT"
T0=$(date +%s)
kill -INT "$BG"
ends_alone "SIGINT while a reply trickles"
T1=$(date +%s)
expect_status "SIGINT while a reply trickles: status 130" 130
expect_true "SIGINT while a reply trickles: ends within the 2 s grace + 5 s" test $((T1 - T0)) -le 7
expect_no_grep "SIGINT while a reply trickles: no client killed" "$WORK/err" 'killing it'
kill "$FAKE"; wait "$FAKE" 2>/dev/null

# every reply trickled, the opening exchange's too: the first NTCreateX's
# reply (87 bytes, 4.35 s) is not whole 2 s after a 2 s run; no op
# completed, so there is no figure
fake trickle 0
T0=$(date +%s)
kload -B sockio --server "127.0.0.1:$PORT" -c trickle.txt -t 2 --warmup 0 --json tr0.json 1
T1=$(date +%s)
expect_status "no op completed: status 1" 1
expect_true "no op completed: ends within 2 s + the 2 s grace + 5 s" test $((T1 - T0)) -le 9
expect_err_grep "no op completed: the NTCreateX named" \
    "^kbench load: client 0: server 127\.0\.0\.1:$PORT: no reply by the run's end \(the server stalled\) \(loadfile line 1, NTCreateX\)$"
expect_no_grep "no op completed: no Throughput line" "$WORK/out" '^Throughput'
expect_out_grep "no op completed: the client named as stopped early" \
    '^1 client stopped early \(client 0: Connection timed out\): partial results$'
expect_eq "no op completed: JSON figure null, no op, none killed" \
    "$(jget tr0.json '(d["results"]["throughput_MBps"], d["results"]["ops_total"], d["results"]["stuck_killed"])')" "(None, 0, 0)"
kill "$FAKE"; wait "$FAKE" 2>/dev/null

# ---- a request larger than a tbench server takes: that op fails ----
printf '%s\n' 'NTCreateX "\clients\client1\big" 0x40 0x5 7 NT_STATUS_OK' \
    'WriteX 7 0 69942 69942 NT_STATUS_OK' 'WriteX 7 0 69941 69941 NT_STATUS_OK' \
    'Close 7 NT_STATUS_OK' >big.txt
start_server s
kload -B sockio --server "127.0.0.1:$PORT" -c big.txt --run-once --warmup 0 --json big.json 1
expect_status "a 70,001-byte request: status 1" 1
expect_eq "a 70,001-byte request: line 2 failed, not sent" \
    "$(jget big.json '[(e["line"], e["got"]) for e in d["results"]["error_lines"]]')" "[(2, 'Message too long')]"
expect_eq "a 70,001-byte request: the others went on" \
    "$(jget big.json 'd["results"]["bytes"]')" 69941
stop_server "$SRV"
expect_no_grep "the server saw no request over 70000 bytes" "$WORK/s.err" 'connection closed'
expect_file_grep "the server served the rest: the check, the opening, 3 requests" "$WORK/s.out" \
    'stopped by SIGTERM: 2 connections, 5 requests,'

finish
