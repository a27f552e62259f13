#!/bin/sh
# kbench - command-line tests: interoperation with Debian's dbench package,
# both ways, the same client.txt: kbench load -B sockio against tbench_srv,
# and tbench against kbench server, each with no error; and tbench's
# requests, size for size, are the first of kbench's
# SPDX-License-Identifier: GPL-3.0-or-later
#
# tbench_srv and tbench know only port 7003.  So that no other program's
# port 7003 is used (or taken), the script runs in a network namespace of
# its own, where 127.0.0.1 is its alone, when it can make one (root,
# unshare -n); else on this machine's 7003 if it is free, else it skips.
if [ -z "${KBENCH_IN_NETNS:-}" ] && command -v unshare >/dev/null 2>&1 &&
    command -v ip >/dev/null 2>&1 && unshare -n ip link set lo up 2>/dev/null; then
    KBENCH_IN_NETNS=1 exec unshare -n sh -c 'ip link set lo up && exec sh "$0"' "$0"
fi
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/sockio-lib.sh"

if ! command -v tbench >/dev/null 2>&1 || ! command -v tbench_srv >/dev/null 2>&1; then
    skip "Debian's tbench and tbench_srv (package dbench) are not installed"
    finish
fi
port_free() {
    ! python3 -c 'import socket; s = socket.socket(); s.settimeout(2); s.connect(("127.0.0.1", 7003))' 2>/dev/null
}
if ! port_free; then
    skip "port 7003 is in use here (and no network namespace of our own)"
    finish
fi
LF="$KBENCH_TOP_SRCDIR/loadfiles/client.txt"
cd "$WORK" || exit 1

# ---- kbench load -B sockio against tbench_srv ----
tbench_srv >"$WORK/tbs.out" 2>&1 &
TBS=$!
SRV_PIDS="$SRV_PIDS $TBS"
wait_until 120 python3 -c 'import socket; s = socket.socket(); s.connect(("127.0.0.1", 7003))'
kload -B sockio --server 127.0.0.1 -c "$LF" -t 2 --warmup 0 --json k.json 2
expect_status "kbench load -B sockio against tbench_srv: status 0" 0
expect_out_grep "against tbench_srv: Throughput" '^Throughput [0-9.]+ MB/sec  2 clients  2 procs'
expect_eq "against tbench_srv: no errors" "$(jget k.json 'd["results"]["errors"]')" 0
# how far a short run gets depends on the machine: the checks are of what
# each run says it did
expect_eq "against tbench_srv: ops done, the total the ops' sum" \
    "$(jget k.json '(d["results"]["ops_total"] > 0, d["results"]["ops_total"] == sum(o["count"] for o in d["results"]["ops"]))')" \
    "(True, True)"
expect_no_grep "tbench_srv saw no overflow" "$WORK/tbs.out" overflow
pkill -KILL -P "$TBS" 2>/dev/null
kill -KILL "$TBS"
wait "$TBS" 2>/dev/null
wait_until 120 port_free

# ---- tbench against kbench server ----
start_server s --port 7003
S=$SRV
(exec timeout 120 tbench -t 2 -c "$LF" 2 127.0.0.1) >"$WORK/tb.out" 2>&1
RC=$?
expect_status "tbench against kbench server: status 0" 0
expect_file_grep "tbench: Throughput" "$WORK/tb.out" '^Throughput [0-9.]+ MB/sec  2 clients'
# tbench's own SysV barrier failing to be made (its "failed to create
# barrier semaphore": its clients then start unsynchronised) is no fault
# of the wire between the two: every other error line is
grep -v '^failed to create barrier semaphore' "$WORK/tb.out" >"$WORK/tb.wire"
expect_no_grep "tbench: no lost sync, no error" "$WORK/tb.wire" 'lost sync|error|failed'
stop_server "$S"
expect_status "kbench server stops, status 0" 0
expect_empty_file "kbench server: nothing on stderr" "$WORK/s.err"
expect_file_grep "kbench server served tbench's two connections" "$WORK/s.out" \
    '^kbench server: stopped by SIGTERM: 2 connections, [1-9][0-9]* requests'

# ---- the same requests: tbench's sizes are kbench's, in order ----
if command -v strace >/dev/null 2>&1; then
    start_server s2 --port 7003
    ASAN_OPTIONS=$ASAN_NOLEAK strace -ff -s 0 -e trace=sendto -o tb.trace timeout 120 tbench -t 2 -c "$LF" 1 127.0.0.1 >/dev/null 2>&1
    stop_server "$SRV"
    served=$(sed -n 's/^kbench server: stopped by SIGTERM: 1 connections, \([0-9]*\) requests.*/\1/p' "$WORK/s2.out")
    start_server s3 --port 7003
    ASAN_OPTIONS=$ASAN_NOLEAK strace -ff -s 0 -e trace=sendto -o kb.trace "$KBENCH" load -q -B sockio --server 127.0.0.1 \
        -c "$LF" --run-once --warmup 0 1 >/dev/null 2>&1
    stop_server "$SRV"
    # the sizes of the sends of the one process of each that sent the most
    # (a client: kbench's parent sends only its check of the server)
    for t in tb kb; do
        for f in "$t".trace.*; do
            sed -n 's/^sendto([0-9]*, ""*\.*, \([0-9]*\), .*/\1/p' "$f" >"$f.sizes"
        done
        wc -l "$t".trace.*.sizes | grep -v ' total$' | sort -n | tail -1 | awk '{print $2}' | xargs cat >"$t.sizes"
    done
    n=$(wc -l <tb.sizes)
    expect_true "tbench sent requests, as many as kbench server says it served ($n, ${served:-none})" \
        test "$n" -gt 0 -a "$n" = "${served:-none}"
    head -n "$n" kb.sizes >kb.head
    expect_same_file "kbench's first $n requests have tbench's sizes" kb.head tb.sizes
else
    skip "strace is not installed: request sizes not compared"
fi

finish
