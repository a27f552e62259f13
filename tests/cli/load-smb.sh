#!/bin/sh
# kbench - command-line tests: kbench load -B smb against a real smbd on
# 127.0.0.1 (a private smb.conf, a free port, everything under $WORK)
# SPDX-License-Identifier: GPL-3.0-or-later
. "$(dirname "$0")/lib.sh"

PW=kb-Secret-7q   # the test user's password: it must never be printed
# a sanitizer build: libsmbclient's own leak per context is not kbench's
LSAN_OPTIONS="${LSAN_OPTIONS:-}${LSAN_OPTIONS:+:}suppressions=$KBENCH_TOP_SRCDIR/tests/cli/lsan-libsmbclient.supp:print_suppressions=0"
export LSAN_OPTIONS
# ... and -B smb dlopens libsmbclient, whose thread-local variables are
# then dynamic TLS: the __tls_get_addr interceptor of GCC 13's and older
# sanitizer runtimes can misread such a block as a glibc 2.19 header, and
# LeakSanitizer's tracer then dies at exit ("Tracer caught signal 11");
# without the interceptor it does not
ASAN_OPTIONS="${ASAN_OPTIONS:-}${ASAN_OPTIONS:+:}intercept_tls_get_addr=0"
export ASAN_OPTIONS

if ! "$KBENCH" load --help 2>&1 | grep -q 'smb-share'; then
    skip "kbench load has no -B smb"
    finish
fi
run "$KBENCH" load -B smb --smb-share //127.0.0.1/x -t 1 1
if grep -q 'built without libsmbclient' "$WORK/err"; then
    expect_bad "-B smb without libsmbclient" 'this kbench was built without libsmbclient' \
        "$KBENCH" load -B smb --smb-share //127.0.0.1/x -t 1 1
    finish
fi
SMBD=$(command -v smbd || echo /usr/sbin/smbd)
if [ ! -x "$SMBD" ] || ! command -v smbpasswd >/dev/null; then
    skip "smbd and smbpasswd are not installed (Debian: samba)"
    finish
fi
if [ "$(id -u)" -ne 0 ]; then
    skip "smbd serves a login only as root (it becomes the user)"
    finish
fi

free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}
listening() {
    python3 -c 'import socket, sys; socket.create_connection(("127.0.0.1", int(sys.argv[1])), 1)' "$1" 2>/dev/null
}

# start_smbd: a new smbd on a free port ($PORT) exporting $SHARE as "kb",
# in a session of its own (its pid is its process group: $SMBD_PID)
S="$WORK/smbd"
SHARE="$WORK/share"
SMBD_PID=""
USER_NAME=$(id -un)
mkdir -p "$S/private" "$S/lock" "$S/state" "$S/cache" "$S/run" "$S/log" "$SHARE"
write_conf() {
    PORT=$(free_port)
    cat >"$S/smb.conf" <<EOF
[global]
  smb ports = $PORT
  interfaces = lo
  bind interfaces only = yes
  private dir = $S/private
  lock directory = $S/lock
  state directory = $S/state
  cache directory = $S/cache
  pid directory = $S/run
  ncalrpc dir = $S/run/ncalrpc
  log file = $S/log/log.%m
  logging = file
  server role = standalone server
  passdb backend = tdbsam
  map to guest = never
  disable netbios = yes
  load printers = no
  printing = bsd
  printcap name = /dev/null
  disable spoolss = yes
[kb]
  path = $SHARE
  read only = no
EOF
}
start_smbd() {
    write_conf
    setsid "$SMBD" -F --no-process-group -s "$S/smb.conf" </dev/null >"$S/log/stdout" 2>&1 &
    SMBD_PID=$!
    wait_until 60 listening "$PORT"
}
stop_smbd() {
    if [ -n "$SMBD_PID" ]; then
        kill -KILL "-$SMBD_PID" 2>/dev/null &&
        wait "$SMBD_PID" 2>/dev/null
    fi
    SMBD_PID=""
}
trap 'stop_smbd; rm -rf "$WORK"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM HUP

# the user, in the private passdb ($S/private) the config names
printf '%s\n%s\n' "$PW" "$PW" >"$WORK/pw"
write_conf
if ! smbpasswd -c "$S/smb.conf" -a -s "$USER_NAME" <"$WORK/pw" >"$WORK/out" 2>&1; then
    fail "smbpasswd adds the test user" "$(head -c 600 "$WORK/out")"
    finish
fi
if ! start_smbd; then
    fail "smbd starts and listens" "$(tail -5 "$S/log/stdout" "$S"/log/log.* 2>&1 | head -c 600)"
    finish
fi
pass "smbd listens on 127.0.0.1:$PORT"
# serving, not only listening: a one-client pass gets through (a guard, at
# most a minute)
smb_ready() {
    "$KBENCH" load -B smb --smb-share "//127.0.0.1:$PORT/kb" --smb-user "$USER_NAME%$PW" \
        -q -c "$DATA/small.txt" --run-once 1 >/dev/null 2>&1
}
if wait_until 60 smb_ready; then pass "smbd serves the share"; else
    fail "smbd serves the share" "$(tail -5 "$S"/log/log.* 2>&1 | head -c 600)"; fi

smbload() {
    kload -B smb --smb-share "//127.0.0.1:$PORT/kb" --smb-user "$USER_NAME%$PW" "$@"
}

# --- the shipped client.txt, 2 clients for 2 s -----------------------------
smbload -t 2 --warmup 0 --json "$WORK/r.json" 2
expect_status "client.txt, 2 clients, 2 s: exit 0" 0
expect_out_grep "the banner names the backend and share" "-B smb //127.0.0.1:$PORT/kb/kbench-[0-9]+$"
expect_out_grep "Throughput line" '^Throughput [0-9.]+ MB/sec  2 clients  2 procs  max_latency='
expect_eq "no error" "$(jget "$WORK/r.json" 'd["results"]["errors"]')" 0
expect_eq "JSON: backend smb, the share" \
    "$(jget "$WORK/r.json" 'd["params"]["backend"] + " " + d["params"]["server"]')" \
    "smb //127.0.0.1:$PORT/kb/$(jget "$WORK/r.json" 'd["params"]["server"].rsplit("/", 1)[1]')"
# how far a short run gets depends on the machine: the checks are of what
# the run says it did (Flush itself: the small loadfile's --run-once below)
expect_eq "JSON: what is counted as not carried out has no count among the ops" \
    "$(jget "$WORK/r.json" 'all(o["count"] == 0 for o in d["results"]["ops"] if o["name"] in d["results"]["unsupported"])')" True
expect_eq "the report says what was not carried out, as the JSON counts it" \
    "$(sed -n 's/^  \([A-Za-z_]*\) \([0-9]*\) times$/\1 \2/p' "$WORK/out" | LC_ALL=C sort)" \
    "$(jget "$WORK/r.json" '"\n".join(sorted("%s %d" % (k, v) for k, v in d["results"]["unsupported"].items()))')"
expect_empty_dir "the share is empty afterwards" "$SHARE"
expect_no_grep "no password on stdout" "$WORK/out" "$PW"
expect_no_grep "no password on stderr" "$WORK/err" "$PW"
expect_no_grep "no password in the JSON" "$WORK/r.json" "$PW"

# --- op counts: the same --run-once as the file load ------------------------
L="$WORK/ops.txt"
cat >"$L" <<'EOF'
Deltree "\clients\client1\t" NT_STATUS_OK
Mkdir "\clients\client1\t" NT_STATUS_OK
Mkdir "\clients\client1\t\sub" NT_STATUS_OK
NTCreateX "\clients\client1\t\d" 0x1 0x2 3 NT_STATUS_OK
QUERY_FILE_INFORMATION 3 1004 NT_STATUS_OK
Close 3 NT_STATUS_OK
NTCreateX "\clients\client1\t\A.DAT" 0x40 0x5 7 NT_STATUS_OK
WriteX 7 0 4000 4000 NT_STATUS_OK
WriteX 7 4000 2000 2000 NT_STATUS_OK
Flush 7 NT_STATUS_OK
LockX 7 0 100 NT_STATUS_OK
UnlockX 7 0 100 NT_STATUS_OK
ReadX 7 0 4500 4500 NT_STATUS_OK
ReadX 7 1000 4500 4500 NT_STATUS_OK
ReadX 7 5000 4500 1000 NT_STATUS_OK
QUERY_FILE_INFORMATION 7 1004 NT_STATUS_OK
SET_FILE_INFORMATION 7 1004 NT_STATUS_OK
Close 7 NT_STATUS_OK
QUERY_PATH_INFORMATION "\clients\client1\t\a.dat" 1004 NT_STATUS_OK
QUERY_PATH_INFORMATION "\clients\client1\t\none" 1004 NT_STATUS_OBJECT_NAME_NOT_FOUND
QUERY_FS_INFORMATION 1007 NT_STATUS_OK
FIND_FIRST "\clients\client1\t\*.DAT" 260 1366 0 NT_STATUS_OK
FIND_FIRST "\clients\client1\t\a.dat" 260 1366 0 NT_STATUS_OK
FIND_FIRST "\clients\client1\t\*.xyz" 260 1366 0 NT_STATUS_NO_SUCH_FILE
Rename "\clients\client1\t\a.dat" "\clients\client1\t\sub\b.dat" NT_STATUS_OK
NTCreateX "\clients\client1\t\a.dat" 0x40 0x1 8 NT_STATUS_OBJECT_NAME_NOT_FOUND
NTCreateX "\clients\client1\t\sub\b.dat" 0x40 0x1 8 NT_STATUS_OK
Close 8 NT_STATUS_OK
Unlink "\clients\client1\t\sub\b.dat" 0x6 NT_STATUS_OK
Unlink "\clients\client1\t\sub\b.dat" 0x6 NT_STATUS_OBJECT_NAME_NOT_FOUND
NTCreateX "\clients\client1\t\sub\c.dat" 0x40 0x2 9 NT_STATUS_OK
Close 9 NT_STATUS_OK
NTCreateX "\clients\client1\t\50% off#1;a@b+c d.dat" 0x40 0x2 10 NT_STATUS_OK
WriteX 10 0 100 100 NT_STATUS_OK
Close 10 NT_STATUS_OK
QUERY_PATH_INFORMATION "\clients\client1\t\50% off#1;a@b+c d.dat" 1004 NT_STATUS_OK
FIND_FIRST "\clients\client1\t\50%<" 260 1366 0 NT_STATUS_OK
Rename "\clients\client1\t\50% off#1;a@b+c d.dat" "\clients\client1\t\%41.dat" NT_STATUS_OK
QUERY_PATH_INFORMATION "\clients\client1\t\a.dat" 1004 NT_STATUS_OBJECT_NAME_NOT_FOUND
QUERY_PATH_INFORMATION "\clients\client1\t\%41.dat" 1004 NT_STATUS_OK
Rmdir "\clients\client1\t\d" NT_STATUS_OK
Deltree "\clients\client1\t" NT_STATUS_OK
EOF
counts() {
    jget "$1" '" ".join("%s=%d" % (o["name"], o["count"]) for o in d["results"]["ops"])'
}
# same_counts NAME FILE: one --run-once of FILE by 2 clients through fileio
# and through -B smb: what fileio carried out, -B smb carried out too, but
# Flush and the locks, which it counts as not carried out, as often
same_counts() {
    rm -rf "$WORK/fdir" && mkdir -p "$WORK/fdir"
    kload -c "$2" --run-once -D "$WORK/fdir" --json "$WORK/f.json" 2
    expect_status "$1 through fileio" 0
    smbload -c "$2" --run-once --json "$WORK/s.json" 2
    expect_status "$1 through -B smb" 0
    want=$(jget "$WORK/f.json" '" ".join("%s=%d" % (o["name"], 0 if o["name"] in ("Flush", "LockX", "UnlockX") else o["count"]) for o in d["results"]["ops"])')
    expect_eq "$1: op counts of -B smb = fileio's for the same --run-once" "$(counts "$WORK/s.json")" "$want"
    expect_eq "$1: Flush, LockX, UnlockX not carried out, as often as fileio did them" \
        "$(jget "$WORK/s.json" 'sorted(d["results"]["unsupported"].items())')" \
        "$(jget "$WORK/f.json" 'sorted((o["name"], o["count"]) for o in d["results"]["ops"] if o["name"] in ("Flush", "LockX", "UnlockX") and o["count"])')"
    expect_eq "$1: no error in either" \
        "$(jget "$WORK/f.json" 'd["results"]["errors"]') $(jget "$WORK/s.json" 'd["results"]["errors"]')" "0 0"
    expect_eq "$1: as many ops as fileio" \
        "$(jget "$WORK/s.json" 'd["results"]["ops_total"] + sum(d["results"]["unsupported"].values())')" \
        "$(jget "$WORK/f.json" 'd["results"]["ops_total"]')"
}
same_counts "the small loadfile" "$L"
expect_eq "the small loadfile: Flush counted as not carried out, twice (the JSON, the report)" \
    "$(jget "$WORK/s.json" 'd["results"]["unsupported"].get("Flush")') $(grep -c '^  Flush 2 times$' "$WORK/out")" "2 1"
# dbench 1 (opens that set a size, SMBsetatr by name, reads of any size)
# and dbench 2 lines
same_counts "dbench1.txt" "$DATA/dbench1.txt"
same_counts "dbench2.txt" "$DATA/dbench2.txt"
expect_empty_dir "the share is empty after the small loadfiles" "$SHARE"

# --- -D: a directory inside the share; only the run's trees go --------------
mkdir -p "$SHARE/in/keep" && echo x >"$SHARE/in/keep/f"
smbload -c "$L" --run-once -D in 2
expect_status "-D in the share" 0
expect_eq "-D: what was there stays, the run's trees go" "$(cd "$SHARE" && find . | sort | tr '\n' ' ')" \
    ". ./in ./in/keep ./in/keep/f "
# a shared path (outside \clients\client1) the run makes in DIR is named
# and stays: cleanup over SMB removes the clients' trees only
printf 'NTCreateX "\\top.dat" 0x40 0x2 1 NT_STATUS_OK\nClose 1 NT_STATUS_OK\n' >"$WORK/shared.txt"
smbload -c "$WORK/shared.txt" --run-once -D in 1
expect_status "-D, a shared path" 0
expect_err_grep "-D: the shared file the run made is named" '/kb/in/top\.dat was not there before the run and stays'
expect_no_grep "-D: what was there is not named" "$WORK/err" 'keep'
expect_true "-D: the shared file stays" test -f "$SHARE/in/top.dat"
rm -rf "${SHARE:?}/in"
smbload -c "$L" --run-once -D nosuch 1
expect_status "-D that is not in the share: exit 2" 2
expect_lines "-D missing: one line naming it" -eq 1 "$WORK/err" 'nosuch'

# --- symbolic links in the share's directory: smbd follows them itself, so
# kbench sees a directory; the rule (a client tree that was there and holds
# anything is refused, exit 2) keeps what they lead to -----------------------
V="$SHARE/victim"
mkdir -p "$V/client0"
echo keep >"$V/client0/precious"
victim_intact() {
    expect_eq "$1" "$(cd "$V" && find . | sort | tr '\n' ' ')/$(cat "$V/client0/precious" 2>&1)" \
        ". ./client0 ./client0/precious /keep" "$(ls -laR "$V" 2>&1 | head -c 600)"
}
mkdir -p "$SHARE/sl1"
ln -s ../victim "$SHARE/sl1/clients"
smbload -c "$L" --run-once -D sl1 1
expect_status "DIR/clients a link to a tree holding client0: exit 2" 2
expect_lines "... one line naming the tree" -eq 1 "$WORK/err" \
    "^kbench load: //127.0.0.1:$PORT/kb/sl1/clients/client0 was there before the run and is not empty"
victim_intact "... nothing outside DIR written or removed"
mkdir -p "$SHARE/sl2/clients"
ln -s ../../victim/client0 "$SHARE/sl2/clients/client1"
smbload -c "$L" --run-once -D sl2 2
expect_status "DIR/clients/client1 a link to a full directory: exit 2" 2
expect_lines "... one line naming it" -eq 1 "$WORK/err" "/kb/sl2/clients/client1 was there before the run"
victim_intact "... nothing outside DIR written or removed"
expect_eq "... client0, made before the refusal, is gone again" \
    "$(cd "$SHARE/sl2" && find . | sort | tr '\n' ' ')" ". ./clients ./clients/client1 "
# an empty directory reached through a link is used (kbench cannot tell):
# what the run put there goes, the directory stays
mkdir -p "$SHARE/sl3/clients" "$SHARE/empty"
ln -s ../../empty "$SHARE/sl3/clients/client0"
smbload -c "$L" --run-once -D sl3 1
expect_status "a link to an empty directory as a tree: exit 0" 0
expect_eq "... the run's files are gone from it, it stays" "$(cd "$SHARE/empty" && find . | tr '\n' ' ')" ". "
victim_intact "... victim untouched"
rm -rf "$SHARE/sl1" "$SHARE/sl2" "$SHARE/sl3" "$SHARE/empty" "$V"
# a directory of a client tree swapped for a link while the run goes:
# kbench cannot see the link, but the cleanup leaves what the server says
# was made before the run began, and names it; the run fails
# (swap_in_link: lib.sh)
cat >"$WORK/swap.txt" <<'EOT'
Mkdir "\clients\client1\w" *
NTCreateX "\clients\client1\w\f.dat" 0x0 0x5 1 *
WriteX 1 0 4096 4096 *
Close 1 *
Unlink "\clients\client1\w\f.dat" 0x6 *
EOT
mkdir -p "$SHARE/sw1" "$SHARE/victim4/sub"
echo keep >"$SHARE/victim4/precious"
echo keep >"$SHARE/victim4/sub/deep"
"$KBENCH" load -B smb --smb-share "//127.0.0.1:$PORT/kb" --smb-user "$USER_NAME%$PW" -q -t 8 \
    --warmup 0 -c "$WORK/swap.txt" -D sw1 1 >"$WORK/out" 2>"$WORK/err" &
BG=$!
if wait_until 60 test -d "$SHARE/sw1/clients/client0/w" &&
   swap_in_link "$SHARE/sw1/clients/client0/w" ../../../victim4 "$SHARE/swap.link"; then
    wait "$BG"
    RC=$?
    expect_status "a link swapped in mid-run: exit 1" 1
    expect_eq "... what its target held before stays" \
        "$(cat "$SHARE/victim4/precious" "$SHARE/victim4/sub/deep" 2>&1 | tr '\n' ' ')" "keep keep " \
        "$(ls -laR "$SHARE/victim4" 2>&1 | head -c 600)"
    expect_err_grep "... the cleanup names what it left" \
        "^kbench load: -B smb: //127.0.0.1:$PORT/kb/sw1/clients/client0/w(/precious)? was made before the run began"
else
    kill "$BG" 2>/dev/null
    wait "$BG"
    fail "a link swapped in mid-run" "no client tree, or no swap: $(head -c 600 "$WORK/err")"
fi
rm -rf "$SHARE/sw1" "$SHARE/victim4" "$SHARE/swap.link"

# --- every client its own connection, also K in one process ----------------
conns() {
    ss -Htn state established "( dport = :$PORT )" 2>/dev/null | wc -l
}
two_conns() { [ "$(conns)" -eq 2 ]; }
BGARGS="-B smb --smb-share //127.0.0.1:$PORT/kb --smb-user $USER_NAME%$PW"
# shellcheck disable=SC2086
bg_load $BGARGS -t 60 --warmup 0 --clients-per-process 2 2
if wait_progress && wait_until 60 two_conns; then
    pass "2 clients in one process: 2 connections to smbd"
else
    fail "2 clients in one process: 2 connections to smbd" "$(conns) connections" "$(head -c 600 "$WORK/err")"
fi
if [ -r "/proc/$BG/cmdline" ] && tr '\0' ' ' <"/proc/$BG/cmdline" | grep -q -- "$PW"; then
    fail "the password is not in the process title" "$(tr '\0' ' ' <"/proc/$BG/cmdline")"
else
    pass "the password is not in the process title"
fi
kill -INT "$BG"
wait "$BG"
RC=$?
expect_status "stopped by SIGINT" 130
expect_empty_dir "the share is empty after SIGINT" "$SHARE"

# --- the login from a file (smbclient -A) and from the environment ----------
printf 'username = %s\npassword = %s\n' "$USER_NAME" "$PW" >"$WORK/cred"
kload -B smb --smb-share "//127.0.0.1:$PORT/kb" --smb-user-file "$WORK/cred" -c "$L" --run-once 1
expect_status "--smb-user-file" 0
RC=0
USER="$USER_NAME" PASSWD="$PW" "$KBENCH" load -B smb --smb-share "//127.0.0.1:$PORT/kb" \
    -c "$L" --run-once 1 >"$WORK/out" 2>"$WORK/err" || RC=$?
expect_status "USER and PASSWD from the environment" 0

# DOMAIN/USER%PASSWORD in --smb-user=VALUE form: the login works and the
# password is gone from the process title
bg_load -B smb --smb-share "//127.0.0.1:$PORT/kb" "--smb-user=WORKGROUP/$USER_NAME%$PW" -t 60 --warmup 0 1
if wait_progress; then pass "--smb-user=DOMAIN/USER%PASSWORD logs in"; else
    fail "--smb-user=DOMAIN/USER%PASSWORD logs in" "$(head -c 600 "$WORK/err")"; fi
if [ -r "/proc/$BG/cmdline" ] && tr '\0' ' ' <"/proc/$BG/cmdline" | grep -q -- "$PW"; then
    fail "--smb-user=...: the password is not in the process title" "$(tr '\0' ' ' <"/proc/$BG/cmdline")"
else
    pass "--smb-user=...: the password is not in the process title"
fi
kill -INT "$BG"
wait "$BG"

# --- bad input and a failed login: one line, exit 2, no password -----------
expect_bad "wrong password" 'login refused' \
    "$KBENCH" load -B smb --smb-share "//127.0.0.1:$PORT/kb" --smb-user "$USER_NAME%not-$PW" -t 1 1
expect_no_grep "wrong password: not printed" "$WORK/err" "not-$PW"
expect_bad "no such share" 'no such share' \
    "$KBENCH" load -B smb --smb-share "//127.0.0.1:$PORT/nosuch" --smb-user "$USER_NAME%$PW" -t 1 1
expect_no_grep "no such share: no password" "$WORK/err" "$PW"
expect_bad "server unreachable" 'unreachable' \
    "$KBENCH" load -B smb --smb-share "//127.0.0.1:$(free_port)/kb" --smb-user "$USER_NAME%$PW" -t 1 1
expect_bad "share not //SERVER/SHARE" "not //SERVER\[:PORT\]/SHARE" \
    "$KBENCH" load -B smb --smb-share "127.0.0.1/kb" -t 1 1
expect_bad "port out of range" "bad port" "$KBENCH" load -B smb --smb-share "//127.0.0.1:70000/kb" -t 1 1
expect_bad "no --smb-share" "needs --smb-share" "$KBENCH" load -B smb -t 1 1
expect_bad "-F: no fsync over libsmbclient" "cannot do -F" \
    "$KBENCH" load -B smb --smb-share "//127.0.0.1:$PORT/kb" --smb-user "$USER_NAME%$PW" -F -t 1 1
expect_bad "--smb-user and --smb-user-file" "give one" \
    "$KBENCH" load -B smb --smb-share "//127.0.0.1:$PORT/kb" --smb-user "$USER_NAME%$PW" \
    --smb-user-file "$WORK/cred" -t 1 1
printf 'user = x\n' >"$WORK/badcred"
expect_bad "a bad --smb-user-file line" "badcred:1: not username=" \
    "$KBENCH" load -B smb --smb-share "//127.0.0.1:$PORT/kb" --smb-user-file "$WORK/badcred" -t 1 1
# a device that never ends (before, its NULs were read as blank lines for ever)
expect_bad "--smb-user-file /dev/zero" "/dev/zero: not a regular file of at most 65536 bytes" \
    timeout 60 "$KBENCH" load -B smb --smb-share "//127.0.0.1:$PORT/kb" --smb-user-file /dev/zero -t 1 1
expect_empty_dir "nothing made by bad input" "$SHARE"

# --- a server killed mid-run: status 1, in bounded time ---------------------
# shellcheck disable=SC2086
: >"$WORK/out"
timeout 120 "$KBENCH" load $BGARGS -t 60 --warmup 0 --json "$WORK/k.json" 2 >"$WORK/out" 2>"$WORK/err" &
BG=$!
wait_progress
kill -KILL "-$SMBD_PID"
wait "$SMBD_PID" 2>/dev/null
SMBD_PID=""
wait "$BG"
RC=$?
expect_status "smbd killed mid-run: exit 1 (not the 120 s guard)" 1
expect_out_grep "the clients stopped early" 'clients? stopped early'
expect_eq "the window ends with the clients, not at the 60 s limit; none killed" \
    "$(jget "$WORK/k.json" '0 < d["results"]["measured_s"] < 60 and d["results"]["errors"] >= 1 and d["results"]["stuck_killed"] == 0')" True

# --- a server stalled mid-run: the timeout ends every client ----------------
if start_smbd && wait_until 60 smb_ready; then
    BGARGS="-B smb --smb-share //127.0.0.1:$PORT/kb --smb-user $USER_NAME%$PW"
    : >"$WORK/out"
    # shellcheck disable=SC2086
    timeout 120 "$KBENCH" load $BGARGS -t 60 --warmup 0 --json "$WORK/st.json" 2 >"$WORK/out" 2>"$WORK/err" &
    BG=$!
    wait_progress
    kill -STOP "-$SMBD_PID"
    wait "$BG"
    RC=$?
    kill -CONT "-$SMBD_PID"
    expect_status "smbd stopped (SIGSTOP) mid-run: exit 1 (not the 120 s guard)" 1
    expect_err_grep "a client stopped on the timeout" 'timed out'
    # each client ended by itself, within its timeout: none had to be
    # killed 10 s after the run's end
    expect_eq "smbd stopped: no client had to be killed" \
        "$(jget "$WORK/st.json" 'd["results"]["stuck_killed"] == 0 and d["results"]["errors"] >= 1')" True
else
    fail "smbd starts again"
fi

# --- a server stalled just before the run's end, or before a stop -----------
# No request waits past 2 s after the run's end (or a stop): the client's
# connection is then shut down and it stops by itself (kbench-load(1),
# -B smb).  The ceilings are counted from the stall: the rest of the run
# (at most 1 s: the progress line of second 1 of a 2 s run came first),
# that grace, and 4.5 s to spare (5.5 s after a SIGINT, which ends the
# run at once); both stay under the 8 s a stalled request waited before,
# when it had only its own timeout (and a call of several requests 8 s
# for each, past the 10 s after the end at which a client is killed).
# --skip-cleanup: the cleanup's own connection to the stalled server is
# not what is timed here.
now_ms() { date +%s%3N; }
if [ -n "$SMBD_PID" ] && wait_until 60 smb_ready; then
    # shellcheck disable=SC2086
    bg_load $BGARGS -t 2 --warmup 0 --skip-cleanup --json "$WORK/se.json" 4
    wait_progress 1
    T0=$(now_ms)
    kill -STOP "-$SMBD_PID"
    if wait_until 120 not_running "$BG"; then :; else kill -KILL "$BG"; fi
    wait "$BG"
    RC=$?
    T1=$(now_ms)
    kill -CONT "-$SMBD_PID"
    expect_status "smbd stopped 1 s before the end: exit 1" 1
    expect_true "smbd stopped before the end: ends within 1 s + the 2 s grace + 4.5 s ($((T1 - T0)) ms)" \
        test $((T1 - T0)) -le 7500
    expect_no_grep "smbd stopped before the end: no client killed" "$WORK/err" 'killing it'
    expect_eq "smbd stopped before the end: none killed, the stalled requests timed out" \
        "$(jget "$WORK/se.json" 'd["results"]["stuck_killed"] == 0 and d["results"]["errors"] >= 1 and all(e["got"] == "Connection timed out" for e in d["results"]["error_lines"])')" True
    rm -rf "${SHARE:?}"/kbench-*
fi
if [ -n "$SMBD_PID" ] && wait_until 60 smb_ready; then
    # shellcheck disable=SC2086
    bg_load $BGARGS --run-once --warmup 0 --skip-cleanup 4
    wait_progress 1
    kill -STOP "-$SMBD_PID"
    T0=$(now_ms)
    kill -INT "$BG"
    if wait_until 120 not_running "$BG"; then :; else kill -KILL "$BG"; fi
    wait "$BG"
    RC=$?
    T1=$(now_ms)
    kill -CONT "-$SMBD_PID"
    expect_status "SIGINT of --run-once while smbd is stopped: exit 130" 130
    expect_true "SIGINT while smbd is stopped: ends within the 2 s grace + 5.5 s ($((T1 - T0)) ms)" \
        test $((T1 - T0)) -le 7500
    expect_no_grep "SIGINT while smbd is stopped: no client killed" "$WORK/err" 'killing it'
    rm -rf "${SHARE:?}"/kbench-*
else
    fail "smbd serves again after SIGCONT"
fi

finish
