#!/bin/sh
# kbench - command-line tests: kbench load -B sockio against kbench
# server: the requests and replies of a pass, byte for byte, against
# dbench's sizes per opcode computed here from the loadfile; MB/sec's
# bytes; the JSON; IPv4, IPv6 and names; bad targets refused before any
# client starts
# SPDX-License-Identifier: GPL-3.0-or-later
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/sockio-lib.sh"

L="$DATA/small.txt"
cd "$WORK" || exit 1

# bad input: one line, status 2, nothing on stdout (so no client started)
expect_bad "no --server" "kbench load: -B sockio needs --server HOST\[:PORT\]" \
    "$KBENCH" load -B sockio -c "$L" -t 1 1
expect_bad "--server without -B sockio" "kbench load: --server is for -B sockio, not -B fileio" \
    "$KBENCH" load --server 127.0.0.1 -c "$L" -t 1 1
expect_bad "a bad port" "kbench load: --server bad port 'x' \(1 to 65535\)" \
    "$KBENCH" load -B sockio --server 127.0.0.1:x -c "$L" -t 1 1
expect_bad "port 0" "kbench load: --server bad port '0'" \
    "$KBENCH" load -B sockio --server 127.0.0.1:0 -c "$L" -t 1 1
expect_bad "an unclosed [" "kbench load: --server '\[::1': an IPv6 address in \[\] is not closed" \
    "$KBENCH" load -B sockio --server '[::1' -c "$L" -t 1 1
expect_bad "a name that does not resolve" "kbench load: --server nosuch\.invalid: cannot resolve 'nosuch\.invalid': " \
    "$KBENCH" load -B sockio --server nosuch.invalid -c "$L" -t 1 1
for o in -s -S -F -x; do
    expect_bad "$o means nothing here" "kbench load: $o has no meaning with -B sockio" \
        "$KBENCH" load -B sockio --server 127.0.0.1 "$o" -c "$L" -t 1 1
done
expect_bad "-T unknown word" "kbench load: -T: unknown socket option 'TCP_FASTER'" \
    "$KBENCH" load -B sockio --server 127.0.0.1 -T "TCP_NODELAY TCP_FASTER" -c "$L" -t 1 1
expect_bad "-T SO_RCVTIMEO" "kbench load: -T: SO_RCVTIMEO is not taken" \
    "$KBENCH" load -B sockio --server 127.0.0.1 -T SO_RCVTIMEO=5 -c "$L" -t 1 1
expect_bad "-T a bad value" "kbench load: -T: SO_SNDBUF: bad value 'lots'" \
    "$KBENCH" load -B sockio --server 127.0.0.1 -T SO_SNDBUF=lots -c "$L" -t 1 1

# a port nobody listens on: a server started and stopped leaves it free
start_server gone
GONE=$PORT
stop_server "$SRV"
expect_bad "connection refused" "kbench load: --server 127\.0\.0\.1:$GONE: cannot connect to 127\.0\.0\.1:$GONE: Connection refused" \
    "$KBENCH" load -B sockio --server "127.0.0.1:$GONE" -c "$L" -t 1 1

# something that accepts and closes at once is no tbench server
python3 - >"$WORK/closer.out" 2>&1 <<'PY' &
import socket
l = socket.socket()
l.bind(("127.0.0.1", 0))
l.listen(8)
print(l.getsockname()[1], flush=True)
while True:
    c, _ = l.accept()
    c.close()
PY
CLOSER=$!
SRV_PIDS="$SRV_PIDS $CLOSER"
wait_until 120 grep -qs '^[0-9]' "$WORK/closer.out"
CPORT=$(head -1 "$WORK/closer.out")
expect_bad "a server that closes the connection" "kbench load: --server 127\.0\.0\.1:$CPORT: no tbench reply from 127\.0\.0\.1:$CPORT: the connection was closed" \
    "$KBENCH" load -B sockio --server "127.0.0.1:$CPORT" -c "$L" -t 1 1
kill "$CLOSER"

# something that accepts and never answers: kbench gives up within 5 s
python3 - >"$WORK/mute.out" 2>&1 <<'PY' &
import socket, time
l = socket.socket()
l.bind(("127.0.0.1", 0))
l.listen(8)
print(l.getsockname()[1], flush=True)
held = []
while True:
    held.append(l.accept()[0])
PY
MUTE=$!
SRV_PIDS="$SRV_PIDS $MUTE"
wait_until 120 grep -qs '^[0-9]' "$WORK/mute.out"
MPORT=$(head -1 "$WORK/mute.out")
expect_bad "a server that never answers" "kbench load: --server 127\.0\.0\.1:$MPORT: no tbench reply from 127\.0\.0\.1:$MPORT: Connection timed out" \
    "$KBENCH" load -B sockio --server "127.0.0.1:$MPORT" -c "$L" -t 1 1
kill "$MUTE"

# ---- runs against kbench server ----
start_server s
S=$SRV
kload -B sockio --server "127.0.0.1:$PORT" -c "$L" --run-once --warmup 0 --json run.json 2
expect_status "two clients, one pass each" 0
expect_out_grep "the banner names the backend and server" "^kbench [0-9.]+ load: 2 clients, loadfile .*, -B sockio 127\.0\.0\.1:$PORT$"
expect_out_grep "Throughput line" '^Throughput [0-9.]+ MB/sec  2 clients  2 procs  max_latency=[0-9.]+ ms$'
expect_eq "JSON: the backend" "$(jget run.json 'd["params"]["backend"]')" sockio
expect_eq "JSON: the server" "$(jget run.json 'd["params"]["server"]')" "127.0.0.1:$PORT"
expect_eq "JSON: no errors" "$(jget run.json 'd["results"]["errors"]')" 0
# small.txt: 6000 bytes written, 9000 read a pass: tbench counts both
expect_eq "JSON: the ReadX and WriteX bytes" "$(jget run.json 'd["results"]["bytes"]')" 30000
expect_eq "JSON: every op timed (Deltree too)" \
    "$(jget run.json 'sum(o["count"] for o in d["results"]["ops"])')" \
    "$(($(grep -Ec '^[A-Za-z_]+ ' "$L") * 2))"
stop_server "$S"
expect_status "the server stops, status 0" 0

# What dbench's tbench sends and receives for each line (its sockio.c's
# sizes; a name is -D, "." by default, then the path with "client1" made
# the client's own), worked out here from the file, for NCLIENTS
# clients, plus the 8-byte exchange that opens each connection and
# kbench's check of the server before the run.
expected() {
    python3 - "$1" "$2" "${3:-.}" <<'PY'
import shlex, sys
path, n, d = sys.argv[1], int(sys.argv[2]), sys.argv[3]
req = rep = count = 0
for k in range(n):
    for line in [l for l in open(path) if l.strip() and not l.startswith("#")]:
        t = shlex.split(line.replace("\\", "/"), posix=True)
        op, a = t[0], t[1:-1]
        L = lambda p: len(d + p.replace("client1", "client%d" % k))
        s = {
            "NTCreateX": lambda: (70 + 2 + 2 * L(a[0]) + 2, 39 + 12 * 4),
            "Close": lambda: (39 + 8, 39),
            "Rename": lambda: (39 + 8 + 2 * L(a[0]) + 2 * L(a[1]), 39),
            "Unlink": lambda: (39 + 2 + 2 * L(a[0]) + 2, 39),
            "Mkdir": lambda: (39 + 2 + 2 * L(a[0]) + 2, 39),
            "Rmdir": lambda: (39 + 2 + 2 * L(a[0]) + 2, 39),
            "QUERY_PATH_INFORMATION": lambda: (39 + 16 + 2 * L(a[0]), 39 + 32),
            "QUERY_FILE_INFORMATION": lambda: (39 + 20, 39 + 32),
            "QUERY_FS_INFORMATION": lambda: (39 + 20, 39 + 32),
            "SET_FILE_INFORMATION": lambda: (39 + 32, 39 + 8),
            "FIND_FIRST": lambda: (39 + 20 + 2 * L(a[0]), 39 + 90 * int(a[3])),
            "WriteX": lambda: (39 + 20 + int(a[2]), 39 + 16),
            "ReadX": lambda: (39 + 20, 39 + 20 + int(a[3])),
            "LockX": lambda: (39 + 12, 39),
            "UnlockX": lambda: (39 + 12, 39),
            "Flush": lambda: (39 + 2, 39),
        }.get(op)
        if op == "Deltree":
            continue
        if s is None:
            raise SystemExit("no size for " + op)
        q, r = s()
        req += q; rep += r; count += 1
count += n + 1; req += 8 * (n + 1); rep += 8 * (n + 1)
print("%d connections, %d requests, %d bytes received, %d bytes sent;" % (n + 1, count, req, rep))
PY
}

# a pass of the shipped client.txt and of small.txt, byte for byte
for lf in "$L:1" "$KBENCH_TOP_SRCDIR/loadfiles/client.txt:3" "$L:12"; do
    f=${lf%:*}
    n=${lf##*:}
    start_server bytes
    kload -q -B sockio --server "127.0.0.1:$PORT" -c "$f" --run-once --warmup 0 "$n"
    expect_status "$(basename "$f"), $n clients, a pass: status 0" 0
    stop_server "$SRV"
    want=$(expected "$f" "$n")
    got=$(sed -n 's/^kbench server: stopped by SIGTERM: \(.*;\).*/\1/p' "$WORK/bytes.out")
    expect_eq "$(basename "$f"), $n clients: the requests and bytes tbench's sizes give" "$got" "$want"
done

# -D's length is in every name, as in tbench
start_server dlen
kload -q -B sockio --server "127.0.0.1:$PORT" -c "$L" -D /some/longer/dir --run-once --warmup 0 1
expect_status "-D DIR: status 0" 0
stop_server "$SRV"
expect_eq "-D DIR: its length in every name" \
    "$(sed -n 's/^kbench server: stopped by SIGTERM: \(.*;\).*/\1/p' "$WORK/dlen.out")" \
    "$(expected "$L" 1 /some/longer/dir)"

# a time-limited run: lines that expect a failure are not errors (the
# server answers as traced)
start_server s
kload -B sockio --server "127.0.0.1:$PORT" -c "$L" -t 2 --warmup 0 -T "TCP_NODELAY,SO_SNDBUF=65536 SO_RCVBUF=131072" --json t.json 3
expect_status "-t 2, 3 clients, -T with buffer sizes: status 0" 0
expect_eq "-t 2: no errors" "$(jget t.json 'd["results"]["errors"]')" 0
expect_true "-t 2: several passes" test "$(jget t.json 'd["results"]["passes"]')" -ge 3

# names and IPv6 addresses
kload -q -B sockio --server "localhost:$PORT" -c "$L" --run-once --warmup 0 1
expect_status "a host name (localhost)" 0
stop_server "$SRV"
if python3 -c 'import socket; s = socket.socket(socket.AF_INET6); s.bind(("::1", 0))' 2>/dev/null; then
    start_server s6 --address ::1
    kload -q -B sockio --server "[::1]:$PORT" -c "$L" --run-once --warmup 0 --json v6.json 2
    expect_status "IPv6 [::1]:PORT" 0
    expect_eq "IPv6: the JSON's server" "$(jget v6.json 'd["params"]["server"]')" "[::1]:$PORT"
    stop_server "$SRV"
else
    skip "IPv6: no ::1 here"
fi

finish
