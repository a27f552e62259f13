#!/bin/sh
# kbench - command-line tests: kbench server speaks tbench's protocol, one
# process per connection; hostile clients (a request larger than it takes,
# half a request and a stall) cost only their own connection, and an idle
# one only until --idle-timeout; --max-connections refuses one more; it
# listens on every address unless --address narrows it; 1,000
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
expect_bad "--idle-timeout -1" "kbench server: --idle-timeout '-1': a duration of 0 \(never\) to 86400 s" \
    "$KBENCH" server --idle-timeout -1 --port 0
expect_bad "--idle-timeout x" "kbench server: --idle-timeout 'x'" "$KBENCH" server --idle-timeout x --port 0
expect_bad "--idle-timeout over a day" "kbench server: --idle-timeout '2d'" \
    "$KBENCH" server --idle-timeout 2d --port 0
expect_bad "--max-connections 0" "kbench server: --max-connections '0': a whole number, 1 to 1000000" \
    "$KBENCH" server --max-connections 0 --port 0
expect_bad "--max-connections x" "kbench server: --max-connections 'x'" \
    "$KBENCH" server --max-connections x --port 0
expect_bad "--max-connections -1" "kbench server: --max-connections '-1'" \
    "$KBENCH" server --max-connections -1 --port 0
expect_bad "--address not on this machine" "kbench server: cannot listen on 192\.0\.2\.1:0: " \
    "$KBENCH" server --address 192.0.2.1 --port 0

if ! start_server s1; then
    fail "the server says where it listens" "$(cat "$WORK/s1.out" "$WORK/s1.err")"
    finish
fi
pass "the server says where it listens: port $PORT"
S1=$SRV
expect_true "its first line names 127.0.0.1, the port, this address only, the limits" \
    grep -Eq "^kbench server: listening on 127\.0\.0\.1:$PORT \(this address only; tbench protocol, a process per connection, at most 1024 at once, closed after 3600 s idle or a header not whole in 5 s\)$" "$WORK/s1.out"
if command -v ss >/dev/null; then
    ss -ltnH "sport = :$PORT" >"$WORK/ss.out" 2>&1
    expect_eq "--address 127.0.0.1: ss shows one listening socket, on 127.0.0.1 only" \
        "$(awk '{ print $4 }' "$WORK/ss.out")" "127.0.0.1:$PORT"
else
    skip "--address: no ss(8) here"
fi

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

# every address by default, and the first line says so
: >"$WORK/any.out"
"$KBENCH" server --port 0 >"$WORK/any.out" 2>"$WORK/any.err" &
SA=$!
SRV_PIDS="$SRV_PIDS $SA"
wait_until 120 grep -q 'listening on' "$WORK/any.out"
PA=$(sed -n '1s/^kbench server: listening on .*:\([0-9][0-9]*\) .*/\1/p' "$WORK/any.out")
expect_true "no --address: the first line says every address and the port" \
    grep -Eq "^kbench server: listening on (\[::\]:$PA \(every IPv6 and IPv4 address|0\.0\.0\.0:$PA \(every IPv4 address); " "$WORK/any.out"
if command -v ss >/dev/null && [ -n "$PA" ]; then
    expect_true "no --address: ss shows it listening on the wildcard address" \
        sh -c "ss -ltnH 'sport = :$PA' | awk '{ print \$4 }' | grep -Eqx '(\*|\[::\]|0\.0\.0\.0):$PA'"
fi
expect_py "no --address: 127.0.0.1 is served" "${PA:-0}" <<'PY'
import socket, struct, sys
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=60)
s.sendall(struct.pack(">II", 4, 12))
b = b""
while len(b) < 16:
    c = s.recv(16 - len(b))
    if not c:
        raise SystemExit("closed")
    b += c
print("ok")
PY
stop_server "$SA"
expect_status "no --address: stopped, status 0" 0

# an idle connection is closed after --idle-timeout, with one line: half a
# header and nothing more, and one that had a reply and then went quiet
start_server si --idle-timeout 1
SI=$SRV
expect_true "--idle-timeout 1: the first line says so" \
    grep -Eq "closed after 1 s idle or a header not whole in 5 s\)$" "$WORK/si.out"
expect_py "--idle-timeout 1: idle connections get EOF" "$PORT" <<'PY'
import socket, struct, sys, time
port = int(sys.argv[1])
half = socket.create_connection(("127.0.0.1", port), timeout=60)
half.sendall(b"\0\0")                       # half a length word
done = socket.create_connection(("127.0.0.1", port), timeout=60)
done.sendall(struct.pack(">II", 4, 12))
b = b""
while len(b) < 16:
    c = done.recv(16 - len(b))
    if not c:
        raise SystemExit("closed before the reply")
    b += c
for name, s in (("half a header", half), ("after a reply", done)):
    try:
        got = s.recv(100)                     # the guard: 60 s
    except socket.timeout:
        raise SystemExit("%s: still open after 60 s" % name)
    except ConnectionResetError:
        got = b""
    if got:
        raise SystemExit("%s: got %r, not the end" % (name, got))
print("ok")
PY
wait_until 120 test "$(grep -c 'idle-timeout' "$WORK/si.err")" -ge 2
expect_lines "--idle-timeout: one line for each idle connection closed" -eq 2 "$WORK/si.err" \
    "^kbench server: \[?[0-9a-f.:]+\]?:[0-9]+: no byte received for 1 s \(--idle-timeout\); connection closed$"
expect_lines "--idle-timeout: nothing else on stderr" -eq 2 "$WORK/si.err" "."
wait_until 120 test -z "$(children_of "$SI")"
expect_eq "--idle-timeout: their processes are gone" "$(children_of "$SI" | wc -l)" 0
stop_server "$SI"
expect_file_grep "--idle-timeout: the two connections counted" "$WORK/si.out" \
    '^kbench server: stopped by SIGTERM: 2 connections, 1 requests,'

# a client that asks for replies and reads none: the send gives up after
# --idle-timeout too, with its own line
start_server sr --idle-timeout 1
SR=$SRV
expect_py "--idle-timeout 1: a client that reads no reply is closed" "$PORT" "$WORK/sr.err" <<'PY'
import socket, struct, sys, time
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=60)
s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
try:
    for i in range(2000):                     # 140 MB of replies asked for
        s.sendall(struct.pack(">II", 4, 69996))
except (ConnectionResetError, BrokenPipeError):
    pass
except socket.timeout:
    raise SystemExit("sending: still blocked after 60 s")
# no reply is read: the server's send must give up on its own
end = time.time() + 60
while time.time() < end:
    with open(sys.argv[2]) as f:
        if "took no byte" in f.read():
            print("ok")
            sys.exit(0)
    time.sleep(0.1)
raise SystemExit("not closed within 60 s")
PY
wait_until 120 grep -q 'idle-timeout' "$WORK/sr.err"
expect_lines "--idle-timeout: one line for the reply nobody took" -eq 1 "$WORK/sr.err" \
    "^kbench server: 127\.0\.0\.1:[0-9]+: the client took no byte of its reply for 1 s \(--idle-timeout\); connection closed$"
stop_server "$SR"

# at most --max-connections at once: a fourth is refused, with one line,
# and the three are still served
start_server sm --max-connections 3
SM=$SRV
expect_py "--max-connections 3: a fourth connection is closed, the three served" "$PORT" <<'PY'
import socket, struct, sys
port = int(sys.argv[1])
def ask(s, n):
    s.sendall(struct.pack(">II", 4, n - 4))
    b = b""
    while len(b) < n:
        c = s.recv(n - len(b))
        if not c:
            raise SystemExit("a served connection was closed")
        b += c
three = [socket.create_connection(("127.0.0.1", port), timeout=60) for _ in range(3)]
for s in three:
    ask(s, 20)                                # each has its process now
fourth = socket.create_connection(("127.0.0.1", port), timeout=60)
try:
    fourth.sendall(struct.pack(">II", 4, 16))
    got = fourth.recv(100)
except (ConnectionResetError, BrokenPipeError):
    got = b""
except socket.timeout:
    raise SystemExit("the fourth connection is still open after 60 s")
if got:
    raise SystemExit("the fourth connection got %r" % got)
for s in three:
    ask(s, 30)
print("ok")
PY
wait_until 120 grep -q refused "$WORK/sm.err"
expect_lines "--max-connections 3: one line for the refusal" -eq 1 "$WORK/sm.err" \
    "^kbench server: 127\.0\.0\.1:[0-9]+: refused: 3 connections are served already \(--max-connections 3\)$"
expect_lines "--max-connections 3: nothing else on stderr" -eq 1 "$WORK/sm.err" "."
stop_server "$SM"
expect_file_grep "--max-connections 3: three connections served, six requests" "$WORK/sm.out" \
    '^kbench server: stopped by SIGTERM: 3 connections, 6 requests,'

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
