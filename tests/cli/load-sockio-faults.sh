#!/bin/sh
# kbench - command-line tests: kbench load -B sockio when the server fails
# mid-run: its connections killed, stalled, reset, a reply of another
# size (lost sync); a signal while the server stalls; a stall at the
# opening exchange; a request larger than a tbench server takes.  Each
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
# connection (kbench's check) and then never answers.
cat >fake.py <<'PY'
import socket, struct, sys, threading, time
mode = sys.argv[1]
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
            c.sendall(struct.pack(">I", m) + b"\0" * m)
    except (EOFError, OSError):
        pass
while True:
    c, _ = l.accept()
    answer = mode != "stallopen" or first[0]
    first[0] = False
    threading.Thread(target=serve, args=(c, answer), daemon=True).start()
PY

# fake MODE: start fake.py MODE; its pid in $FAKE, port in $PORT
fake() {
    python3 fake.py "$1" >"$WORK/fake-$1.out" 2>&1 &
    FAKE=$!
    SRV_PIDS="$SRV_PIDS $FAKE"
    wait_until 120 grep -qs '^[0-9]' "$WORK/fake-$1.out"
    PORT=$(head -1 "$WORK/fake-$1.out")
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
kill "$FAKE"

# ---- a connection reset ----
fake reset
kload -B sockio --server "127.0.0.1:$PORT" -c "$L" -t 600 --warmup 0 --json reset.json 1
expect_status "reset: status 1" 1
expect_err_grep "reset: said" \
    "^kbench load: client 0: server 127\.0\.0\.1:$PORT: Connection reset by peer \(loadfile line 8, ReadX\)$"
kill "$FAKE"

# ---- a stall at a client's opening exchange ----
fake stallopen
kload -B sockio --server "127.0.0.1:$PORT" -c "$L" -t 600 --warmup 0 1
expect_status "a stall at the opening exchange: status 1" 1
expect_err_grep "stall at the opening: the client could not set up, the server named, one line" \
    "^kbench load: client 0: cannot set up clients/client0 \(-B sockio, 127\.0\.0\.1:$PORT\): Connection timed out$"
kill "$FAKE"

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
