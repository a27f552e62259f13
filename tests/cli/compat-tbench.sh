#!/bin/sh
# kbench - command-line tests: kbench as tbench and tbench_srv, run as LKP
# runs them (tbench_srv, then tbench N SERVER) and parsed as LKP's
# programs/tbench/parse does, beside Debian's tbench and tbench_srv on
# the same loadfile: the same fields, types, clients and procs
# SPDX-License-Identifier: GPL-3.0-or-later
#
# tbench and tbench_srv know only port 7003: the script runs in a network
# namespace of its own (root, unshare -n), as sockio-interop.sh does, else
# on this machine's 7003 if it is free, else it skips.
if [ -z "${KBENCH_IN_NETNS:-}" ] && command -v unshare >/dev/null 2>&1 &&
    command -v ip >/dev/null 2>&1 && unshare -n ip link set lo up 2>/dev/null; then
    KBENCH_IN_NETNS=1 exec unshare -n sh -c 'ip link set lo up && exec sh "$0"' "$0"
fi
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/compat-lib.sh"
. "$(dirname "$0")/sockio-lib.sh"

port_free() {
    ! python3 -c 'import socket, sys; s = socket.socket(); s.settimeout(2); s.connect(("127.0.0.1", int(sys.argv[1])))' "$1" 2>/dev/null
}
port_open() {
    ! port_free "$1"
}
if ! port_free 7003; then
    skip "port 7003 is in use here (and no network namespace of our own)"
    finish
fi
LF="$KBENCH_TOP_SRCDIR/loadfiles/client.txt"
HAVE_DEB=
if command -v tbench >/dev/null 2>&1 && command -v tbench_srv >/dev/null 2>&1; then HAVE_DEB=1; fi
cd "$WORK" || exit 1

# srv NAME CMD...: a server in the background on 7003 (or the port its
# -p says), its pid in $SRV (killed with its connections at the end)
srv() {
    sn=$1
    shift
    "$@" >"$WORK/$sn.out" 2>"$WORK/$sn.err" &
    SRV=$!
    SRV_PIDS="$SRV_PIDS $SRV"
}
# unsrv PORT: stop $SRV and its connections, until PORT is free
unsrv() {
    pkill -KILL -P "$SRV" 2>/dev/null
    kill -KILL "$SRV" 2>/dev/null
    wait "$SRV" 2>/dev/null
    wait_until 120 port_free "$1"
}
# tb OUT CMD...: a tbench run, bounded, its output in $WORK/OUT, status in $RC
tb() {
    to=$1
    shift
    (exec timeout 120 "$@") >"$WORK/$to" 2>&1
    RC=$?
}

# ---- tbench_srv (kbench's): Debian's tbench, and kbench's tbench, against it ----
srv ksrv "$B/tbench_srv"
wait_until 120 port_open 7003
tb k.out "$B/tbench" -t 2 -c "$LF" 2 127.0.0.1
expect_status "LKP: tbench against tbench_srv: status 0" 0
lkp_parse "$WORK/k.out" >"$WORK/k.lkp"
expect_eq "LKP: one record: MB/s clients procs max_latency" "$(shape <"$WORK/k.lkp")" "float int int float"
expect_eq "LKP: 2 clients, 2 procs" "$(awk '{ print $2, $3 }' "$WORK/k.lkp")" "2 2"
if [ -n "$HAVE_DEB" ]; then
    tb d.out tbench -t 2 -c "$LF" 2 127.0.0.1
    expect_status "Debian's tbench against kbench's tbench_srv: status 0" 0
    lkp_parse "$WORK/d.out" >"$WORK/d.lkp"
    expect_eq "the same fields, clients and procs as Debian's tbench" \
        "$(shape <"$WORK/d.lkp") $(awk '{ print $2, $3 }' "$WORK/d.lkp")" \
        "$(shape <"$WORK/k.lkp") $(awk '{ print $2, $3 }' "$WORK/k.lkp")"
    expect_no_grep "Debian's tbench: no lost sync, no error" "$WORK/d.out" 'lost sync|ERROR|failed'
fi
unsrv 7003
expect_empty_file "kbench's tbench_srv: nothing on stderr" "$WORK/ksrv.err"

# ---- kbench's tbench against Debian's tbench_srv ----
if [ -n "$HAVE_DEB" ]; then
    srv dsrv tbench_srv
    wait_until 120 port_open 7003
    tb k2.out "$B/tbench" -t 2 -c "$LF" 1 127.0.0.1
    expect_status "kbench's tbench against Debian's tbench_srv: status 0" 0
    expect_eq "against Debian's tbench_srv: 1 client 1 proc" \
        "$(lkp_parse "$WORK/k2.out" | awk '{ print $2, $3 }')" "1 1"
    unsrv 7003
else
    skip "Debian's tbench and tbench_srv (package dbench) are not installed"
fi

# ---- tbench_srv -p PORT, tbench SERVER:PORT; -t OPTIONS; an argument
# that tbench_srv ignores ----
srv p "$B/tbench_srv" -p 7011 -t TCP_NODELAY foo
wait_until 120 port_open 7011
tb p.out "$B/tbench" -t 2 -c "$LF" 1 127.0.0.1:7011
expect_status "tbench_srv -p 7011: status 0" 0
expect_eq "tbench_srv -p 7011: a figure" "$(pts_dbench "$WORK/p.out" | shape)" "float"
unsrv 7011

# ---- no server: no figure, status non-zero ----
tb none.out "$B/tbench" -t 2 -c "$LF" 1 127.0.0.1
expect_true "no server: status non-zero ($RC)" test "$RC" -ne 0
expect_eq "no server: nothing for LKP's parser" "$(lkp_parse "$WORK/none.out")" ""

# ---- bad input ----
expect_rc "tbench: no NPROCS: dbench's status 1" 1 "$B/tbench"
expect_out_grep "tbench: no NPROCS: dbench's words" '^You need to specify NPROCS$'
expect_bad "tbench_srv: a bad option" '^tbench_srv: ' "$B/tbench_srv" --bogus
finish
