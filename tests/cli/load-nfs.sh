#!/bin/sh
# kbench - command-line tests: kbench load -B nfs against a private
# nfs-ganesha (FSAL VFS) on 127.0.0.1, exporting a temporary directory
# SPDX-License-Identifier: GPL-3.0-or-later
#
# The server runs in the foreground in the background, with its own
# configuration, log, pid file and recovery directory under $WORK, on free
# ports; it registers with rpcbind (NFSv3 needs it), which this script
# starts with `rpcbind -w` when none runs, and its NLM (the locks) needs an
# rpc.statd, which this script starts with its state in $WORK when none
# runs.  All are stopped by PID on exit, also on failure.  kbench is told
# the NFS and MOUNT ports (nfsport=, mountport=); it finds NLM's through
# the portmapper.
. "$(dirname "$0")/lib.sh"
# a sanitizer build: -B nfs dlopens libnfs, as load-smb.sh says (its
# dynamic TLS and GCC 13's and older __tls_get_addr interceptor)
ASAN_OPTIONS="${ASAN_OPTIONS:-}${ASAN_OPTIONS:+:}intercept_tls_get_addr=0"
export ASAN_OPTIONS

GPID="" RPCB="" STATD="" REGISTERED="" NLM=false
stop_servers() {
    for p in $GPID; do
        kill -CONT "$p" 2>/dev/null
        kill -TERM "$p" 2>/dev/null
        wait_until 10 not_running "$p" || kill -KILL "$p" 2>/dev/null
    done
    # what a killed ganesha left registered (none of it was before it
    # started), also in an rpcbind this script started: rpcbind -w keeps
    # its registrations for the next one
    if [ -n "$REGISTERED" ]; then
        rpcinfo -d 100003 3 >/dev/null 2>&1
        rpcinfo -d 100005 3 >/dev/null 2>&1
        rpcinfo -d 100005 1 >/dev/null 2>&1
        [ "$NLM" = true ] && rpcinfo -d 100021 4 >/dev/null 2>&1
    fi
    for p in $STATD; do
        kill -TERM "$p" 2>/dev/null
        wait_until 10 not_running "$p" || kill -KILL "$p" 2>/dev/null
        rpcinfo -d 100024 1 >/dev/null 2>&1
    done
    for p in $RPCB; do
        kill -TERM "$p" 2>/dev/null
        wait_until 10 not_running "$p" || kill -KILL "$p" 2>/dev/null
    done
    GPID="" RPCB="" STATD="" REGISTERED=""
}
SHM=""
trap 'stop_servers; rm -rf "$WORK" ${SHM:+"$SHM"}' EXIT
trap 'exit 1' INT TERM HUP

skip_all() {
    skip "$1"
    finish
}

# --- what the tests need: a kbench with libnfs, ganesha with FSAL VFS, root -
run "$KBENCH" load -q --run-once -B nfs --nfs nfs://127.0.0.1/x 1
if grep -q 'built without libnfs' "$WORK/err"; then
    # the one check left: the message names the library, exit 2, one line
    expect_bad "-B nfs without libnfs" 'built without libnfs' \
        "$KBENCH" load -q --run-once -B nfs --nfs nfs://127.0.0.1/x 1
    skip "kbench was built without libnfs: no NFS run"
    finish
fi
command -v ganesha.nfsd >/dev/null 2>&1 || skip_all "nfs-ganesha is not installed (ganesha.nfsd)"
fsal=""
for f in /usr/lib/*/ganesha/libfsalvfs.so /usr/lib*/ganesha/libfsalvfs.so; do
    [ -e "$f" ] && fsal=$f
done
[ -n "$fsal" ] || skip_all "nfs-ganesha-vfs is not installed (libfsalvfs.so)"
command -v rpcbind >/dev/null 2>&1 || skip_all "rpcbind is not installed"
[ "$(id -u)" -eq 0 ] || skip_all "nfs-ganesha's FSAL VFS needs root (open_by_handle_at)"

free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# ganesha registers NFS and MOUNT with rpcbind, and unregisters them when
# it ends: an NFS server this machine already runs is not to be disturbed
if rpcinfo -p 127.0.0.1 2>/dev/null | awk '$1 == 100003 || $1 == 100005 { f = 1 } END { exit !f }'; then
    skip_all "an NFS server is registered with this machine's rpcbind: a private ganesha would replace its registration"
fi
if ! rpcinfo -p 127.0.0.1 >/dev/null 2>&1; then
    rpcbind -w -f >"$WORK/rpcbind.log" 2>&1 &
    RPCB=$!
    wait_until 30 rpcinfo -p 127.0.0.1 >/dev/null 2>&1 ||
        skip_all "rpcbind -w did not start: $(head -c 300 "$WORK/rpcbind.log")"
fi
# the locks: ganesha's NLM, with a private rpc.statd; not when this machine
# has an NLM or a statd of its own registered (a kernel NFS client's lockd,
# say), which ganesha would replace or use.  Without, every lock must fail
# with ENOLCK.
registered() {
    rpcinfo -p 127.0.0.1 2>/dev/null | awk -v p="$1" '$1 == p { f = 1 } END { exit !f }'
}
NLM=false
if registered 100021 || registered 100024; then
    echo "an NLM or statd of this machine is registered: no locks over NFS"
elif command -v rpc.statd >/dev/null 2>&1; then
    mkdir -p "$WORK/statd/sm" "$WORK/statd/sm.bak"
    rpc.statd -F -P "$WORK/statd" >"$WORK/statd.log" 2>&1 &
    STATD=$!
    if wait_until 30 registered 100024; then NLM=true; else
        echo "rpc.statd did not start: no locks over NFS: $(head -c 300 "$WORK/statd.log")"
    fi
else
    echo "rpc.statd is not installed: no locks over NFS"
fi

G="$WORK/ganesha"
mkdir -p "$G/recovery"
# the export on a tmpfs where there is one: the server's COMMITs are then
# no disk's fsync, which a busy machine can stretch past the RPC timeout
SHM=""
if [ -d /dev/shm ] && [ -w /dev/shm ]; then
    SHM=$(mktemp -d /dev/shm/kbench-test-load-nfs.XXXXXX 2>/dev/null) || SHM=""
fi
if [ -n "$SHM" ]; then EXPORT="$SHM/export"; else EXPORT="$G/export"; fi
mkdir -p "$EXPORT"
NFSPORT=$(free_port)
MNTPORT=$(free_port)
NLMPORT=$(free_port)
cat >"$G/ganesha.conf" <<EOF
NFS_CORE_PARAM {
    Bind_Addr = 127.0.0.1;
    NFS_Port = $NFSPORT;
    MNT_Port = $MNTPORT;
    NFS_Protocols = 3;
    Enable_UDP = false;
    Enable_NLM = $NLM;
    NLM_Port = $NLMPORT;
    Enable_RQUOTA = false;
}
NFSV4 {
    Graceless = true;
    RecoveryBackend = fs;
    RecoveryRoot = "$G/recovery";
}
NFS_KRB5 { Active_krb5 = false; }
EXPORT {
    Export_Id = 1;
    Path = "$EXPORT";
    Pseudo = /export;
    Access_Type = RW;
    Squash = No_Root_Squash;
    Protocols = 3;
    Transports = TCP;
    SecType = sys;
    FSAL { Name = VFS; }
}
EOF

start_ganesha() {
    : >"$G/ganesha.log"
    ganesha.nfsd -F -f "$G/ganesha.conf" -L "$G/ganesha.log" -p "$G/ganesha.pid" \
        -N NIV_EVENT >"$G/stdout" 2>&1 &
    GPID=$!
    REGISTERED=1
    wait_until 60 grep -q 'NFS SERVER INITIALIZED' "$G/ganesha.log"
}
start_ganesha ||
    skip_all "nfs-ganesha did not start: $(grep -E 'CRIT|MAJ|FATAL' "$G/ganesha.log" | grep -v DBUS | tail -3 | head -c 600)"
kill -0 "$GPID" 2>/dev/null || skip_all "nfs-ganesha exited: $(tail -3 "$G/ganesha.log" | head -c 600)"
# kbench finds NLM through the portmapper: its registration, before a run
if [ "$NLM" = true ] && ! wait_until 30 registered 100021; then
    echo "ganesha's NLM is not registered with rpcbind after 30 s: $(rpcinfo -p 127.0.0.1 2>&1 | tr '\n' ' ' | head -c 600)"
fi

URL="nfs://127.0.0.1$EXPORT?version=3&nfsport=$NFSPORT&mountport=$MNTPORT"
LOCAL="$WORK/local"
mkdir -p "$LOCAL"

# --- the shipped client.txt, 2 clients, 2 s --------------------------------
kload -t 2 --warmup 1 -B nfs --nfs "$URL" --json "$WORK/c.json" 2
expect_out_grep "the Throughput line" '^Throughput [0-9.]+ MB/sec  2 clients  2 procs  max_latency='
# how far a short run gets depends on the machine: the checks are of what
# the run says it did (the locks themselves: locks.txt --run-once below)
expect_eq "JSON: backend nfs, server the URL, ops done: the total is the ops' sum" \
    "$(jget "$WORK/c.json" '(d["params"]["backend"], d["params"]["server"], d["results"]["ops_total"] > 0, d["results"]["ops_total"] == sum(o["count"] for o in d["results"]["ops"]))' 2>&1)" \
    "('nfs', '$URL', True, True)"
if [ "$NLM" = true ]; then
    expect_status "client.txt over NFS, 2 clients, 2 s: exit 0" 0
    expect_no_grep "no operation failed" "$WORK/out" 'did not end as the loadfile expects'
    expect_eq "JSON: no errors, no op counted as not carried out" \
        "$(jget "$WORK/c.json" '(d["results"]["errors"], d["results"].get("unsupported", {}))')" \
        "(0, {})"
    expect_empty_file "nothing on stderr" "$WORK/err"
else
    # without NLM every lock fails (ENOLCK), counted against its line (exit 1)
    expect_status "client.txt over NFS without NLM: exit 1 for the locks" 1
    errs=$(grep -E '^  .*client.txt:[0-9]+: ' "$WORK/out" | grep -Evc ': (LockX|UnlockX) expected success, failed: No locks available')
    expect_eq "every listed error is a lock the server cannot take" "$errs" 0 "$(grep -E 'client.txt:' "$WORK/out" | head -5)"
    expect_err_grep "each client says the server has no NLM" '^kbench load: client [01]: no NLM'
fi
expect_empty_dir "the export is empty afterwards" "$EXPORT"

# --- the same --run-once, same op counts as the file load -----------------
kload -q --run-once -c "$DATA/allops.txt" -D "$LOCAL" --json "$WORK/f.json" 3
expect_status "allops.txt through fileio: exit 0" 0
kload -q --run-once -c "$DATA/allops.txt" -B nfs --nfs "$URL" --json "$WORK/n.json" 3
expect_status "allops.txt over NFS: exit 0 (every expected failure failed)" 0
counts='({o["name"]: o["count"] for o in d["results"]["ops"]}, d["results"]["ops_total"], d["results"]["bytes"], d["results"]["errors"], d["results"]["passes"])'
expect_eq "op counts, bytes, errors: NFS = fileio" "$(jget "$WORK/n.json" "$counts")" "$(jget "$WORK/f.json" "$counts")"
expect_eq "... and they are the loadfile's (3 x 36 ops, 3 x 15000 bytes)" \
    "$(jget "$WORK/n.json" '(d["results"]["ops_total"], d["results"]["bytes"], d["results"]["errors"])')" "(108, 45000, 0)"
expect_empty_dir "the export is empty after --run-once" "$EXPORT"
if [ "$NLM" = true ]; then
    kload -q --run-once -c "$DATA/locks.txt" -D "$LOCAL" --json "$WORK/lf.json" 2
    expect_status "locks.txt through fileio: exit 0" 0
    kload -q --run-once -c "$DATA/locks.txt" -B nfs --nfs "$URL" --json "$WORK/ln.json" 2
    expect_status "locks.txt over NFS (NLM): exit 0" 0
    expect_eq "locks: op counts, errors: NFS = fileio" "$(jget "$WORK/ln.json" "$counts")" "$(jget "$WORK/lf.json" "$counts")"
    expect_eq "... 2 x 6 LockX, 2 x 3 UnlockX, no errors" \
        "$(jget "$WORK/ln.json" '([(o["name"], o["count"]) for o in d["results"]["ops"] if o["name"] in ("LockX", "UnlockX")], d["results"]["errors"])')" \
        "([('LockX', 12), ('UnlockX', 6)], 0)"
    expect_empty_dir "the export is empty after the locks" "$EXPORT"
else
    skip "locks over NFS: no NLM here"
fi

# --- -D: a directory inside the export; what was there stays ---------------
mkdir -p "$EXPORT/keep/old"
echo mine >"$EXPORT/keep/old/file"
kload -q --run-once -c "$DATA/allops.txt" -B nfs --nfs "$URL" -D /keep 2
expect_status "-D inside the export: exit 0" 0
expect_eq "-D: only what was there is left" "$(cd "$EXPORT/keep" && find . | sort | tr '\n' ' ')" ". ./old ./old/file "
kload -q --run-once -c "$DATA/allops.txt" -B nfs --nfs "$URL" --skip-cleanup -D keep 1
expect_status "--skip-cleanup: exit 0" 0
expect_true "--skip-cleanup leaves the client's tree" test -d "$EXPORT/keep/clients/client0"
rm -rf "$EXPORT/keep"
# --- symbolic links on the server: never followed, nothing outside DIR ----
# (new names for each case: ganesha caches the names of what this script
# removes under it.)  victim/ is outside every DIR; it holds what must stay.
V="$EXPORT/victim"
mkdir -p "$V/client0"
echo keep >"$V/client0/precious"
echo keep >"$V/precious"
victim_intact() {
    expect_eq "$1" "$(cd "$V" && find . | sort | tr '\n' ' ')/$(cat "$V/client0/precious" "$V/precious" 2>&1 | tr '\n' ' ')" \
        ". ./client0 ./client0/precious ./precious /keep keep " "$(ls -laR "$V" 2>&1 | head -c 600)"
}
# one line on stderr, naming the path, exit 2
refused() { # NAME PATTERN -D DIR
    kload -q --run-once -c "$DATA/allops.txt" -B nfs --nfs "$URL" -D "$3" 1
    expect_status "$1: exit 2" 2
    expect_err_grep "$1: one line naming it" "$2"
    expect_eq "$1: that one line alone" "$(wc -l <"$WORK/err")" 1 "$(head -c 600 "$WORK/err")"
    victim_intact "$1: nothing outside DIR written or removed"
}
mkdir -p "$EXPORT/l1"
ln -s ../victim "$EXPORT/l1/clients"
refused "DIR/clients a link to a tree holding client0" \
    "^kbench load: $EXPORT/l1/clients is a symbolic link, which kbench does not follow" l1
mkdir -p "$EXPORT/l2/clients"
ln -s ../../victim/client0 "$EXPORT/l2/clients/client0"
refused "DIR/clients/client0 a link" "^kbench load: $EXPORT/l2/clients/client0 is a symbolic link" l2
ln -s victim "$EXPORT/l3"
refused "DIR itself a link" "^kbench load: $EXPORT/l3 is a symbolic link" l3
mkdir -p "$EXPORT/l4"
ln -s ../victim "$EXPORT/l4/up"
refused "a link on the way to DIR" "^kbench load: $EXPORT/l4/up is a symbolic link" l4/up
mkdir -p "$EXPORT/l5/clients/client0"
ln -s ../../../victim "$EXPORT/l5/clients/client0/t"
refused "a client tree that was there, a link inside" \
    "^kbench load: $EXPORT/l5/clients/client0 was there before the run and is not empty; the run removes only what it made" l5
expect_true "... and the link is still there" test -L "$EXPORT/l5/clients/client0/t"
mkdir -p "$EXPORT/l6/clients"
ln -s nowhere "$EXPORT/l6/clients/client0"
refused "a dangling link as the tree" "^kbench load: $EXPORT/l6/clients/client0 is a symbolic link" l6
mkdir -p "$EXPORT/l7/clients"
ln -s client0 "$EXPORT/l7/clients/client0"
refused "a link loop as the tree" "^kbench load: $EXPORT/l7/clients/client0 is a symbolic link" l7
mkdir -p "$EXPORT/l8"
ln -s ../victim/precious "$EXPORT/l8/clients"
refused "a link to a file as DIR/clients" "^kbench load: $EXPORT/l8/clients is a symbolic link" l8
mkdir -p "$EXPORT/l9/clients/client0"
ln "$V/precious" "$EXPORT/l9/clients/client0/hard"
refused "a hard link in a tree that was there" "l9/clients/client0 was there before the run and is not empty" l9
expect_eq "... the hard link's data is whole" "$(cat "$EXPORT/l9/clients/client0/hard")" keep
# an empty tree that was there (dbench leaves them): used, emptied, kept
mkdir -p "$EXPORT/e1/clients/client0"
kload -q --run-once -c "$DATA/allops.txt" -B nfs --nfs "$URL" -D e1 2
expect_status "an empty client tree that was there: exit 0" 0
expect_eq "... it stays, empty; the tree the run made goes" \
    "$(cd "$EXPORT/e1" && find . | sort | tr '\n' ' ')" ". ./clients ./clients/client0 "
rm -rf "$EXPORT"/l? "$EXPORT/e1"

# a directory of the client tree swapped for a link to victim/ while the
# run goes (as another NFS client could): the cleanup neither follows nor
# removes it, says so, and the run fails; the target's own files stay (the
# run's ops between the swap and the end may have gone through it:
# kbench-load(1) says so)
# (swap_in_link: lib.sh)
cat >"$WORK/swap.txt" <<'EOT'
Mkdir "\clients\client1\w" *
NTCreateX "\clients\client1\w\f.dat" 0x0 0x5 1 *
WriteX 1 0 4096 4096 *
Close 1 *
Unlink "\clients\client1\w\f.dat" 0x6 *
EOT
mkdir -p "$EXPORT/s1" "$EXPORT/victim2"
echo keep >"$EXPORT/victim2/precious"
"$KBENCH" load -q -t 8 --warmup 0 -c "$WORK/swap.txt" -B nfs --nfs "$URL" -D s1 1 >"$WORK/out" 2>"$WORK/err" &
BG=$!
if wait_until 60 test -d "$EXPORT/s1/clients/client0/w" &&
   swap_in_link "$EXPORT/s1/clients/client0/w" ../../../victim2 "$EXPORT/swap.link"; then
    wait "$BG"
    RC=$?
    expect_status "a link swapped in mid-run: exit 1" 1
    expect_err_grep "... the cleanup names it and leaves it" \
        "^kbench load: $EXPORT/s1/clients/client0/w is a symbolic link the run did not make: left as it is, not followed"
    expect_true "... the link is still there" test -L "$EXPORT/s1/clients/client0/w"
    expect_eq "... the files that were in the link's target stay" "$(cat "$EXPORT/victim2/precious" 2>&1)" keep
else
    kill "$BG" 2>/dev/null
    wait "$BG"
    fail "a link swapped in mid-run" "no client tree, or no swap: $(head -c 600 "$WORK/err")"
fi
rm -rf "$EXPORT/s1" "$V" "$EXPORT/victim2" "$EXPORT/swap.link"

# --- bad input: one line, exit 2, before any client, nothing made ----------
expect_bad "-B nfs without --nfs" 'needs --nfs' "$KBENCH" load -q -B nfs 1
expect_bad "not an nfs:// URL" "--nfs 'http://127.0.0.1/x': not an nfs://" \
    "$KBENCH" load -q -B nfs --nfs http://127.0.0.1/x 1
expect_bad "a URL without an export" "--nfs 'nfs://127.0.0.1'" \
    "$KBENCH" load -q -B nfs --nfs nfs://127.0.0.1 1
expect_bad "version=4 is refused" 'version=4: libnfs.s NFSv4 client is not usable' \
    "$KBENCH" load -q -B nfs --nfs "nfs://127.0.0.1/export?version=4&nfsport=$NFSPORT" 1
expect_bad "version=5" 'version= takes 3' "$KBENCH" load -q -B nfs --nfs "nfs://127.0.0.1/x?version=5" 1
expect_bad "version= twice (libnfs would take the last: 4)" 'version= takes 3 .*once' \
    "$KBENCH" load -q -B nfs --nfs "nfs://127.0.0.1/x?version=3&version=4&nfsport=$NFSPORT&mountport=$MNTPORT" 1
expect_bad "an export the server refuses" 'cannot mount the export: .*MNT3ERR' \
    "$KBENCH" load -q -B nfs --nfs "nfs://127.0.0.1/no/such/export?version=3&nfsport=$NFSPORT&mountport=$MNTPORT" 1
closed=$(free_port)
expect_bad "no server on the port" 'cannot mount the export: .*no NFS server answers there' \
    "$KBENCH" load -q -B nfs --nfs "nfs://127.0.0.1/x?version=3&nfsport=$closed&mountport=$closed" 1
expect_bad "a host that does not resolve" 'cannot mount the export' \
    "$KBENCH" load -q -B nfs --nfs "nfs://no-such-host.invalid/x?version=3" 1
expect_bad "-D missing in the export" '-D nothere: .*NOENT' \
    "$KBENCH" load -q -B nfs --nfs "$URL" -D nothere 1
expect_bad "-D with .." "-D \\.\\./x: not a path inside the export" \
    "$KBENCH" load -q -B nfs --nfs "$URL" -D ../x 1
expect_bad "-S has no NFS counterpart" '^kbench load: -S: ' "$KBENCH" load -q -B nfs --nfs "$URL" -S 1
expect_bad "-x has no NFS counterpart" '^kbench load: -x: ' "$KBENCH" load -q -B nfs --nfs "$URL" -x 1
expect_empty_dir "bad input made nothing in the export" "$EXPORT"

# --- a stalled server: every client times out, the run fails, bounded -----
"$KBENCH" load -t 4 --warmup 0 -B nfs --nfs "$URL" 2 >"$WORK/out" 2>"$WORK/err" &
BG=$!
if wait_progress; then
    kill -STOP "$GPID"
    # the run's end (4 s) and the 10 s grace bound it; the RPC timeout
    # (8 s) ends each client before that: a generous guard against a hang
    wait_until 120 not_running "$BG"
    wait "$BG"
    RC=$?
    kill -CONT "$GPID"
    expect_status "a stalled server: exit 1" 1
    expect_out_grep "the clients say they timed out" 'failed: Connection timed out'
    expect_no_grep "no client had to be killed" "$WORK/err" 'did not stop'
else
    fail "a stalled server: no progress line" "$(head -c 600 "$WORK/err")"
    kill "$BG" 2>/dev/null
    wait "$BG"
fi
rm -rf "${EXPORT:?}"/* 2>/dev/null

# --- a server killed mid-run: errors counted, status 1, bounded ------------
: >"$WORK/out"
: >"$WORK/err"
timeout 60 "$KBENCH" load -t 20 --warmup 0 -B nfs --nfs "$URL" 2 >"$WORK/out" 2>"$WORK/err" &
BG=$!
if wait_progress; then
    kill -KILL "$GPID"
    wait "$GPID" 2>/dev/null
    GPID=""
    wait "$BG"
    RC=$?
    # 124 would be timeout's: the run did not end by itself within 60 s
    expect_status "a killed server: exit 1, by itself (not timeout's 124)" 1
    expect_out_grep "the lost connection is counted against a line" \
        'client.txt:[0-9]+: [A-Za-z_]+ expected (success|failure), failed: Transport endpoint is not connected'
    expect_out_grep "the clients stopped early" 'stopped early'
    # a lost connection's queued request is not completed in a dead frame
    expect_no_grep "no client died of a signal" "$WORK/out" 'killed by signal'
    expect_err_grep "the cleanup says what it left" "the run's files are left in kbench-[0-9]+ on "
    expect_no_grep "no client had to be killed" "$WORK/err" 'did not stop'
else
    fail "a killed server: no progress line" "$(head -c 600 "$WORK/err")"
    kill "$BG" 2>/dev/null
    wait "$BG"
fi

finish
