#!/bin/sh
# kbench - command-line tests: kbench server speaks tbench's protocol, one
# process per connection; hostile clients (a request larger than it takes,
# half a request and a stall) cost only their own connection; 1,000
# connections at once are served; a port in use, bad options; a stop
# ends every connection's process
# SPDX-License-Identifier: GPL-3.0-or-later
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/sockio-lib.sh"

# bad input: one line, status 2, nothing on stdout
expect_bad "--port 70000" "kbench server: --port '70000'" "$KBENCH" server --port 70000
expect_bad "--port x" "kbench server: --port 'x'" "$KBENCH" server --port x
expect_bad "-T unknown word" "kbench server: -T: unknown socket option 'BOGUS'" "$KBENCH" server -T BOGUS --port 0
expect_bad "-T SO_SNDBUF without a value" "SO_SNDBUF needs a value" "$KBENCH" server -T SO_SNDBUF --port 0
expect_bad "an argument" "unexpected argument 'extra'" "$KBENCH" server extra
expect_bad "--address not on this machine" "kbench server: cannot listen on 192\.0\.2\.1:0: " \
    "$KBENCH" server --address 192.0.2.1 --port 0

if ! start_server s1; then
    fail "the server says where it listens" "$(cat "$WORK/s1.out" "$WORK/s1.err")"
    finish
fi
pass "the server says where it listens: port $PORT"
S1=$SRV
expect_true "its first line names 127.0.0.1 and the port" \
    grep -Eq "^kbench server: listening on 127\.0\.0\.1:$PORT " "$WORK/s1.out"

# the protocol: the reply has the size asked for, its first word saying it
expect_py "requests of several sizes get replies of the sizes asked for" "$PORT" <<'PY'
import socket, struct, sys
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=60)
def recv_exact(n):
    b = b""
    while len(b) < n:
        c = s.recv(n - len(b))
        if not c:
            raise SystemExit("connection closed after %d of %d bytes" % (len(b), n))
        b += c
    return b
for send, reply in ((8, 8), (59, 65595), (65595, 55), (100, 4), (70000, 70000)):
    s.sendall(struct.pack(">II", send - 4, reply - 4) + b"\x01" * (send - 8))
    r = recv_exact(reply)
    if struct.unpack(">I", r[:4])[0] != reply - 4:
        raise SystemExit("reply to %d/%d: first word %d" % (send, reply, struct.unpack(">I", r[:4])[0]))
s.settimeout(0.2)
try:
    extra = s.recv(1)
    raise SystemExit("more bytes than the reply: %r" % extra)
except socket.timeout:
    pass
print("ok")
PY

# a request announcing more than 70,000 bytes closes that connection only,
# with one line; a request for a reply that large too
for what in "request:70001:8" "reply:8:70001"; do
    kind=${what%%:*}
    sz=${what#*:}
    expect_py "a $kind of 70001 bytes: the connection is closed" "$PORT" "${sz%:*}" "${sz#*:}" <<'PY'
import socket, struct, sys
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=60)
send, reply = int(sys.argv[2]), int(sys.argv[3])
s.sendall(struct.pack(">II", send - 4, reply - 4))
try:
    b = s.recv(100)
except ConnectionResetError:
    b = b""
if b:
    raise SystemExit("got a reply: %r" % b[:16])
print("closed")
PY
done
wait_until 120 test "$(grep -c 'connection closed$' "$WORK/s1.err")" -ge 2
expect_lines "each refusal is one line" -eq 1 "$WORK/s1.err" "a request of 70001 bytes \(more than the 70000 a request may have\); connection closed$"
expect_lines "the reply's refusal is one line" -eq 1 "$WORK/s1.err" "a reply of 70001 bytes .*connection closed$"
expect_lines "nothing else on stderr" -eq 2 "$WORK/s1.err" "."

# half a request and a stall: the others are served meanwhile, each by
# its own process
expect_py "a stalled half request holds up no other connection" "$PORT" "$S1" <<'PY'
import os, socket, struct, subprocess, sys, time
port, srv = int(sys.argv[1]), sys.argv[2]
stall = socket.create_connection(("127.0.0.1", port), timeout=60)
stall.sendall(struct.pack(">II", 1000, 100) + b"x" * 10)   # 18 of 1008 bytes
others = [socket.create_connection(("127.0.0.1", port), timeout=60) for _ in range(5)]
for o in others:
    o.sendall(struct.pack(">II", 4, 96))
for o in others:
    b = b""
    while len(b) < 100:
        c = o.recv(100 - len(b))
        if not c:
            raise SystemExit("closed")
        b += c
kids = subprocess.run(["pgrep", "-P", srv], capture_output=True, text=True).stdout.split()
if len(kids) < 6:
    raise SystemExit("%d connection processes for 6 connections" % len(kids))
stall.close()
for o in others:
    o.close()
print("ok")
PY

# 1,000 connections open at once, each with a request outstanding
expect_py "1,000 connections at once are all served" "$PORT" <<'PY'
import resource, selectors, socket, struct, sys, time
soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 4096), hard))
port = int(sys.argv[1])
N = 1000
socks = []
for i in range(N):
    socks.append(socket.create_connection(("127.0.0.1", port), timeout=120))
for i, s in enumerate(socks):
    s.sendall(struct.pack(">II", 4 + i % 50, 200 + i) + b"z" * (i % 50))
sel = selectors.DefaultSelector()
want = {}
for i, s in enumerate(socks):
    s.setblocking(False)
    want[s] = [204 + i, b""]
    sel.register(s, selectors.EVENT_READ)
deadline = time.monotonic() + 120
while want and time.monotonic() < deadline:
    for key, _ in sel.select(timeout=1):
        s = key.fileobj
        c = s.recv(65536)
        if not c:
            raise SystemExit("a connection was closed with %d replies missing" % len(want))
        w = want[s]
        w[1] += c
        if len(w[1]) == w[0]:
            if struct.unpack(">I", w[1][:4])[0] != w[0] - 4:
                raise SystemExit("a wrong first word")
            sel.unregister(s)
            del want[s]
if want:
    raise SystemExit("%d of %d connections got no full reply in 120 s" % (len(want), N))
for s in socks:
    s.close()
print("ok")
PY

# a port in use: status 2, one line
expect_bad "a port in use" "kbench server: cannot listen on 127\.0\.0\.1:$PORT: Address already in use" \
    "$KBENCH" server --address 127.0.0.1 --port "$PORT"

# a stop with connections open: every connection's process ends, status 0
python3 - "$PORT" >"$WORK/held.out" 2>&1 <<'PY' &
import socket, struct, sys, time
s = [socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=60) for _ in range(3)]
s[0].sendall(struct.pack(">II", 100, 4))   # half a request
print("open", flush=True)
time.sleep(300)
PY
HOLD=$!
wait_until 120 grep -q open "$WORK/held.out"
wait_until 120 test "$(children_of "$S1" | wc -l)" -ge 3
KIDS=$(children_of "$S1")
expect_true "three connections held open: three processes" test "$(echo "$KIDS" | wc -l)" -ge 3
stop_server "$S1"
expect_status "SIGTERM: the server exits 0" 0
# shellcheck disable=SC2086
expect_gone "SIGTERM: every connection's process is gone" $KIDS
expect_file_grep "SIGTERM: it says what it served" "$WORK/s1.out" \
    '^kbench server: stopped by SIGTERM: [0-9]+ connections, [0-9]+ requests, [0-9]+ bytes received, [0-9]+ bytes sent; CPU of the connections'"'"' processes: user [0-9.]+ s, system [0-9.]+ s$'
kill "$HOLD" 2>/dev/null
wait "$HOLD" 2>/dev/null

# the counts: two requests, of 8 and 100 bytes, replies of 8 and 1000
start_server s2
S2=$SRV
expect_py "two requests" "$PORT" <<'PY'
import socket, struct, sys
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=60)
for send, reply in ((8, 8), (100, 1000)):
    s.sendall(struct.pack(">II", send - 4, reply - 4) + b"\0" * (send - 8))
    n = 0
    while n < reply:
        c = s.recv(reply - n)
        if not c:
            raise SystemExit("closed")
        n += len(c)
print("ok")
PY
kill -INT "$S2"
wait_until 120 not_running "$S2"
wait "$S2"
RC=$?
expect_status "SIGINT: the server exits 0" 0
expect_file_grep "the requests and bytes counted" "$WORK/s2.out" \
    '^kbench server: stopped by SIGINT: 1 connections, 2 requests, 108 bytes received, 1008 bytes sent;'

# IPv6, where this machine has ::1
if python3 -c 'import socket; s = socket.socket(socket.AF_INET6); s.bind(("::1", 0))' 2>/dev/null; then
    start_server s6 --address ::1
    expect_true "IPv6: it listens on [::1]" grep -Eq '^kbench server: listening on \[::1\]:[0-9]+ ' "$WORK/s6.out"
    expect_py "IPv6: a request and its reply" "$PORT" <<'PY'
import socket, struct, sys
s = socket.create_connection(("::1", int(sys.argv[1])), timeout=60)
s.sendall(struct.pack(">II", 4, 12))
b = b""
while len(b) < 16:
    c = s.recv(16 - len(b))
    if not c:
        raise SystemExit("closed")
    b += c
print("ok")
PY
    stop_server "$SRV"
    expect_status "IPv6: stopped, status 0" 0
else
    skip "IPv6: no ::1 here"
fi

finish
