#!/bin/sh
# kbench - kbench server's two bounds: a request's header must be whole
# --header-timeout after its first byte (half-sent headers cannot hold
# --max-connections for long), while a connection quiet between requests
# is kept for --idle-timeout (an hour by default: load -R's slow clients)
# SPDX-License-Identifier: GPL-3.0-or-later
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/sockio-lib.sh"

expect_bad "--header-timeout -1" \
    "kbench server: --header-timeout '-1': a duration of 0 \(only the idle bound\) to 86400 s" \
    "$KBENCH" server --header-timeout -1 --port 0
expect_bad "--header-timeout over a day" "kbench server: --header-timeout '2d'" \
    "$KBENCH" server --header-timeout 2d --port 0

# N half-sent headers fill --max-connections; each is closed at its
# header deadline (the test waits for the server's N lines, never for a
# time), and a new client is then served; a connection that had a reply
# and stayed quiet meanwhile (past the header deadline) is still served
N=50
if ! start_server sh --header-timeout 1 --max-connections $((N + 1)); then
    fail "the server starts" "$(cat "$WORK/sh.out" "$WORK/sh.err")"
    finish
fi
SH=$SRV
expect_true "the first line names both bounds" \
    grep -Eq "closed after 3600 s idle or a header not whole in 1 s\)$" "$WORK/sh.out"
expect_py "half headers closed at their deadline, the quiet connection kept" "$PORT" "$N" "$WORK/sh.err" <<'PY'
import socket, struct, sys, time
port, n, err = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]

def ask(s, reply):
    s.sendall(struct.pack(">II", 4, reply))
    b = b""
    while len(b) < reply + 4:
        c = s.recv(reply + 4 - len(b))
        if not c:
            raise SystemExit("closed before the reply (%d of %d bytes)" % (len(b), reply + 4))
        b += c

quiet = socket.create_connection(("127.0.0.1", port), timeout=60)
ask(quiet, 12)
half = []
for i in range(n):
    s = socket.create_connection(("127.0.0.1", port), timeout=60)
    s.sendall(b"\0\0\0")                  # three bytes of an 8-byte header
    half.append(s)
# the server has said it closed each (guard: 120 s, not a wait)
for _ in range(1200):
    lines = [l for l in open(err) if "--header-timeout" in l]
    if len(lines) >= n:
        break
    time.sleep(0.1)
else:
    raise SystemExit("%d header lines of %d after 120 s" % (len(lines), n))
for s in half:
    try:
        got = s.recv(100)
    except ConnectionResetError:
        got = b""
    if got:
        raise SystemExit("a half header got %r, not the end" % got)
# the places are free again: a new client is served
new = socket.create_connection(("127.0.0.1", port), timeout=60)
ask(new, 100)
# the quiet one, past the header deadline, still served
ask(quiet, 20)
print("ok")
PY
expect_lines "one line for each half header" -eq "$N" "$WORK/sh.err" \
    "^kbench server: 127\.0\.0\.1:[0-9]+: a request's header was not whole 1 s after its first byte \(--header-timeout\); connection closed$"
expect_lines "nothing else on stderr (no refusal, no idle close)" -eq "$N" "$WORK/sh.err" "."
stop_server "$SH"
expect_status "stopped: status 0" 0
expect_file_grep "the quiet and the new connection's requests counted" "$WORK/sh.out" \
    "^kbench server: stopped by SIGTERM: $((N + 2)) connections, 3 requests,"

finish
