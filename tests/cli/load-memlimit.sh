#!/bin/sh
# kbench - command-line tests: kbench load --mem-limit (the clients in a
# memory cgroup) and --drop-caches; root and a memory controller needed
# SPDX-License-Identifier: GPL-3.0-or-later
. "$(dirname "$0")/lib.sh"

# the run's files go to the real disk: on tmpfs they could not be reclaimed
DISK=$(mktemp -d /var/tmp/kbench-memlimit.XXXXXX)
SHM=
cleanup() {
    rm -rf "$WORK" "$DISK"
    [ -n "$SHM" ] && rm -rf "$SHM"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
MIB=1048576
S=$DATA/small.txt

# ---- bad values: checked before anything else, root or not ----
for v in 0 1k banana 64X -5M; do
    expect_rc "--mem-limit $v" 2 "$KBENCH" load --mem-limit "$v" -c "$S" --run-once -D "$DISK" 1
    expect_err_grep "--mem-limit $v: named" "^kbench load: (bad --mem-limit '$v'|--mem-limit $v )"
    expect_true "--mem-limit $v: one line" [ "$(wc -l <"$WORK/err")" -eq 1 ]
    expect_empty_dir "--mem-limit $v: nothing made in DIR" "$DISK"
done

# "none" is no limit and needs no root
expect_rc "--mem-limit none" 0 "$KBENCH" load --mem-limit none -c "$S" --run-once -q \
    -D "$DISK" --json "$WORK/none.json" 1
expect_no_grep "--mem-limit none: no memory line" "$WORK/out" '^Memory limit'
expect_true "--mem-limit none: JSON memory null, limit null" [ "$(jget "$WORK/none.json" \
    '(d["results"]["memory"], d["params"]["mem_limit_bytes"], d["params"]["drop_caches"])')" = "(None, None, False)" ]

if [ "$(id -u)" -ne 0 ]; then
    skip "memory cgroups and dropping caches need root"
    finish
fi

# ---- as another user: one clear line, exit 2, no client ----
if command -v setpriv >/dev/null 2>&1; then
    AS_USER="setpriv --reuid=65534 --regid=65534 --clear-groups"
    NOBODY_DIR=$(mktemp -d /var/tmp/kbench-memlimit-nobody.XXXXXX)
    chmod 777 "$NOBODY_DIR"
    cp "$S" "$NOBODY_DIR/small.txt" && chmod 644 "$NOBODY_DIR/small.txt"
    expect_rc "--drop-caches as nobody" 2 $AS_USER "$KBENCH" load --drop-caches \
        -c "$NOBODY_DIR/small.txt" --run-once -D "$NOBODY_DIR" 1
    expect_err_grep "--drop-caches as nobody: needs root" '^kbench load: --drop-caches: needs root'
    expect_true "--drop-caches as nobody: one line" [ "$(wc -l <"$WORK/err")" -eq 1 ]
    expect_rc "--mem-limit as nobody" 2 $AS_USER "$KBENCH" load --mem-limit 64M \
        -c "$NOBODY_DIR/small.txt" --run-once -D "$NOBODY_DIR" 1
    expect_err_grep "--mem-limit as nobody: needs root" '^kbench load: --mem-limit: needs root'
    expect_true "--mem-limit as nobody: one line" [ "$(wc -l <"$WORK/err")" -eq 1 ]
    expect_true "as nobody: no client ran" [ "$(ls -A "$NOBODY_DIR")" = small.txt ]
    rm -rf "$NOBODY_DIR"
else
    skip "non-root runs (no setpriv)"
fi

# ---- --drop-caches as root ----
expect_rc "--drop-caches as root" 0 "$KBENCH" load --drop-caches -c "$S" --run-once \
    -D "$DISK" --json "$WORK/drop.json" 1
expect_out_grep "--drop-caches: said" '^sync and drop caches before the start$'
expect_true "--drop-caches: in the JSON" [ "$(jget "$WORK/drop.json" 'd["params"]["drop_caches"]')" = True ]

# ---- where kbench's memory cgroup is, found here independently ----
# v1: the hierarchy whose controllers include memory; v2: "0::PATH" with
# memory offered in cgroup.controllers.  Mounts showing the root of the
# hierarchy only.
CG=
v1path=$(awk -F: '$2 ~ /(^|,)memory(,|$)/ { print $3; exit }' /proc/self/cgroup)
if [ -n "$v1path" ]; then
    mnt=$(awk '{ for (i = 7; i <= NF && $i != "-"; i++); if ($(i + 1) == "cgroup" &&
          $(i + 3) ~ /(^|,)memory(,|$)/ && $4 == "/") { print $5; exit } }' /proc/self/mountinfo)
    [ -n "$mnt" ] && CG=$mnt$v1path
else
    v2path=$(awk -F: '$1 == "0" && $2 == "" { print $3; exit }' /proc/self/cgroup)
    mnt=$(awk '{ for (i = 7; i <= NF && $i != "-"; i++); if ($(i + 1) == "cgroup2" && $4 == "/") {
          print $5; exit } }' /proc/self/mountinfo)
    if [ -n "$v2path" ] && [ -n "$mnt" ] && grep -qw memory "$mnt$v2path/cgroup.controllers" 2>/dev/null; then
        CG=$mnt$v2path
    fi
fi
CG=$(echo "$CG" | sed 's|//*|/|g; s|/$||')
if [ -z "$CG" ] || [ ! -d "$CG" ]; then
    expect_rc "no memory controller: exit 2" 2 "$KBENCH" load --mem-limit 64M -c "$S" --run-once -D "$DISK" 1
    expect_err_grep "no memory controller: said" '^kbench load: --mem-limit: .*memory controller'
    skip "no memory controller for this process (cgroup v1 memory or v2 with memory)"
    finish
fi
echo "memory cgroup of this process: $CG"
BEFORE=$(ls -d "$CG"/kbench-* 2>/dev/null | sort)

# no_new_cgroup NAME: no kbench-PID directory under $CG that was not there
# before this test, except one of a kbench still running (another test's)
no_new_cgroup() {
    now=$(ls -d "$CG"/kbench-* 2>/dev/null | sort)
    left=
    for d in $now; do
        if printf '%s\n' "$BEFORE" | grep -qxF "$d"; then continue; fi
        pid=${d##*/kbench-}
        [ "$(cat "/proc/$pid/comm" 2>/dev/null)" = kbench ] || left="$left $d"
    done
    expect_eq "$1" "$left" "" "(kbench-* cgroups made since the start and not a running kbench's)"
}

# ---- a limit below what the clients need to start ----
expect_rc "--mem-limit 1M for 4 clients" 2 "$KBENCH" load --mem-limit 1M -c "$S" --run-once -D "$DISK" 4
expect_err_grep "below the floor: named" "^kbench load: --mem-limit 1M is below the 2\\.[0-9]+ MiB \\(2\\^20 bytes\\) 4 clients need to start \\(512 KiB a client process"
no_new_cgroup "bad limits made no cgroup"

# check_members NAME: while the run goes, the clients (children of $BG)
# are in kbench-$BG and kbench itself is not
check_members() {
    procs=$CG/kbench-$BG/cgroup.procs
    if [ ! -r "$procs" ]; then
        fail "$1: cgroup kbench-$BG exists during the run" "$(ls "$CG" | head)"
        return
    fi
    pass "$1: cgroup kbench-$BG exists during the run"
    members=$(cat "$procs")
    echo "$members" >"$WORK/members"
    bad=
    for m in $members; do
        pp=$(awk '$1 == "PPid:" { print $2 }' "/proc/$m/status" 2>/dev/null)
        [ "$pp" = "$BG" ] || bad="$bad $m(ppid $pp)"
    done
    expect_true "$1: it has members" [ -n "$members" ]
    expect_eq "$1: its members are kbench's clients (members not clients)" "$bad" ""
    expect_no_grep "$1: kbench itself stays outside" "$WORK/members" "^$BG\$"
    expect_eq "$1: every client is in it (members, children)" "$(echo "$members" | sort)" \
        "$(ps -o pid= --ppid "$BG" | tr -d ' ' | sort)"
}

# ---- a load far above the limit, a fixed amount of it: one pass that
# writes a 128 MiB file in 1 MiB requests and reads it back, under 64 MiB
# (how much a timed run moves would depend on the machine's speed; who is
# in the cgroup is checked in the runs below) ----
{
    printf '%s\n' 'NTCreateX "\clients\client1\big.dat" 0x40 0x2 1 NT_STATUS_OK'
    i=0
    while [ $i -lt 128 ]; do echo "WriteX 1 $((i * MIB)) $MIB $MIB NT_STATUS_OK"; i=$((i + 1)); done
    echo 'Flush 1 NT_STATUS_OK'
    i=0
    while [ $i -lt 128 ]; do echo "ReadX 1 $((i * MIB)) $MIB $MIB NT_STATUS_OK"; i=$((i + 1)); done
    echo 'Close 1 NT_STATUS_OK'
} >"$WORK/big.txt"
run "$KBENCH" load -c "$WORK/big.txt" --run-once --mem-limit 64M -D "$DISK" --json "$WORK/lim.json" 1
expect_status "64M: exit 0" 0
expect_out_grep "64M: the memory line, limit hit" \
    '^Memory limit 64\.00 MiB \(2\^20\): peak [0-9]+\.[0-9]{2} MiB, limit hit [1-9][0-9]* times?, 0 OOM kills, page cache [0-9]+\.[0-9]{2} MiB at end$'
expect_out_grep "64M: a throughput" '^Throughput [0-9.]+ MB/sec  1 clients  1 procs'
expect_true "64M: JSON limit, hits, peak, cache" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
m = d["results"]["memory"]
MIB = 1048576
assert d["params"]["mem_limit_bytes"] == 64 * MIB, d["params"]
assert m["limit_bytes"] == 64 * MIB, m
assert m["limit_hits"] > 0, m
assert m["oom_kills"] == 0, m
# the run moved far more than the limit: the peak reached it, not beyond
assert 48 * MIB < m["peak_bytes"] <= 64 * MIB, m
assert 0 < m["cache_bytes"] <= 64 * MIB, m
assert d["results"]["bytes"] == 2 * 128 * MIB, d["results"]["bytes"]
assert d["results"]["oom_killed"] is False
' "$WORK/lim.json"
expect_out_grep "64M: kbench's own memory line" \
    "^kbench's own memory \\(2\\^20\\): program [0-9]+\\.[0-9]{2} MiB \\([0-9]+\\.[0-9] bytes an op\\), parent peak [0-9]+\\.[0-9]{2} MiB, client peak [0-9]+\\.[0-9]{2} MiB; charged to the limit [0-9]+\\.[0-9]{2} MiB\$"
expect_py "64M: JSON own memory: charged, below the cgroup's peak" "$WORK/lim.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["results"]
o, m = r["own_memory"], r["memory"]
# the clients' own memory (anonymous, stacks, page tables) and the slots
# they wrote: something, and far below what the page cache took
assert 0 < o["charged_bytes"] < m["peak_bytes"], (o, m)
assert o["shared_bytes"] < o["charged_bytes"], o
assert o["charged_bytes"] < 16 * 1048576, o
assert 0 < o["program_bytes"] <= 16 * 258, o   # big.txt: 258 ops
assert o["client_procs"] == 1 and o["client_peak_bytes"] > 0, o
assert o["parent_peak_bytes"] > 0, o
PY
# the text line and the JSON give the same count
hits=$(sed -n 's/^Memory limit.* limit hit \([0-9]*\) time.*/\1/p' "$WORK/out")
expect_true "64M: text and JSON agree ($hits hits)" [ "$hits" = "$(jget "$WORK/lim.json" 'd["results"]["memory"]["limit_hits"]')" ]
no_new_cgroup "64M: its cgroup removed, no kbench-* cgroup left"
expect_empty_dir "64M: files cleaned up" "$DISK"

# ---- SIGINT in the middle: the cgroup goes too ----
bg_load -c stream.txt --mem-limit 64M -t 30 --warmup 0 -D "$DISK" 2
if wait_progress; then check_members "SIGINT"; else fail "SIGINT: the run started" "$(cat "$WORK/err")"; fi
wait_progress 2
kill -INT "$BG"
wait "$BG"
RC=$?
expect_status "SIGINT: exit 130" 130
expect_out_grep "SIGINT: partial results marked" '^interrupted by SIGINT: partial results over [0-9.]+ s measured$'
expect_out_grep "SIGINT: the memory line" '^Memory limit 64\.00 MiB \(2\^20\): peak '
expect_true "SIGINT: cgroup kbench-$BG removed" [ ! -e "$CG/kbench-$BG" ]
no_new_cgroup "SIGINT: no kbench-* cgroup left"
expect_empty_dir "SIGINT: files cleaned up" "$DISK"

# ---- SIGTERM, with --drop-caches too ----
bg_load -c "$S" --mem-limit 64M --drop-caches -t 30 --warmup 0 -D "$DISK" 1
if wait_progress; then check_members "SIGTERM"; else fail "SIGTERM: the run started" "$(cat "$WORK/err")"; fi
kill -TERM "$BG"
wait "$BG"
RC=$?
expect_status "SIGTERM: exit 143" 143
expect_true "SIGTERM: cgroup kbench-$BG removed" [ ! -e "$CG/kbench-$BG" ]
no_new_cgroup "SIGTERM: no kbench-* cgroup left"
expect_empty_dir "SIGTERM: files cleaned up" "$DISK"

# ---- SIGKILL of kbench: its clients die with it, the empty cgroup is
# left, and the next run with --mem-limit removes it and says so ----
bg_load -c "$S" --mem-limit 64M -t 30 --warmup 0 -D "$DISK" 2
if wait_progress; then check_members "SIGKILL"; else fail "SIGKILL: the run started" "$(cat "$WORK/err")"; fi
KILLED=$BG
kill -KILL "$KILLED"
wait "$KILLED"
wait_until 120 test ! -s "$CG/kbench-$KILLED/cgroup.procs"
expect_true "SIGKILL: the clients died with kbench" [ ! -s "$CG/kbench-$KILLED/cgroup.procs" ]
expect_true "SIGKILL: its empty cgroup is left" [ -d "$CG/kbench-$KILLED" ]
rm -rf "${DISK:?}"/*
expect_rc "the next run" 0 "$KBENCH" load --mem-limit 64M -c "$S" --run-once -q -D "$DISK" 1
expect_err_grep "the next run: says it removed the left-over" \
    '^kbench load: --mem-limit: removed [0-9]+ empty cgroups? left by killed kbench runs$'
expect_true "the next run: kbench-$KILLED removed" [ ! -e "$CG/kbench-$KILLED" ]
no_new_cgroup "SIGKILL: no kbench-* cgroup left after the next run"
expect_empty_dir "the next run: files cleaned up" "$DISK"

# ---- the OOM killer: files on tmpfs cannot be reclaimed without swap ----
swap=$(awk '$1 == "SwapTotal:" { print $2 }' /proc/meminfo)
if [ "$swap" = 0 ] && [ -d /dev/shm ] && [ "$(stat -f -c %T /dev/shm)" = tmpfs ] &&
    SHM=$(mktemp -d /dev/shm/kbench-memlimit.XXXXXX); then
    # a whole pass (1 GiB written) cannot fit: the OOM kill comes whatever the speed
    bg_load -c stream.txt --mem-limit 64M --run-once -D "$SHM" --json "$WORK/oom.json" 1
    wait "$BG"
    RC=$?
    expect_status "OOM: exit 1" 1
    expect_err_grep "OOM: said, with the limit" \
        '^kbench load: client 0 \(pid [0-9]+\) was killed by the OOM killer at the 64 MiB memory limit$'
    expect_out_grep "OOM: the memory line counts it" ', [1-9][0-9]* OOM kills?, '
    expect_no_grep "OOM: no Throughput line" "$WORK/out" '^Throughput'
    expect_true "OOM: JSON" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
r = d["results"]
assert r["oom_killed"] is True and r["died"] is True, r
assert r["throughput_MBps"] is None, r
assert r["memory"]["oom_kills"] >= 1, r["memory"]
' "$WORK/oom.json"
    expect_true "OOM: cgroup kbench-$BG removed" [ ! -e "$CG/kbench-$BG" ]
    no_new_cgroup "OOM: no kbench-* cgroup left"
    expect_empty_dir "OOM: files cleaned up" "$SHM"
else
    skip "OOM kill (needs tmpfs /dev/shm and no swap)"
fi

# ---- kbench itself in a cgroup too small for its loadfile ----
# (not --mem-limit: the tester's own limit, as systemd-run -p MemoryMax
# sets) the parse child is the OOM killer's choice, named as such, and
# nothing is left behind
# (a sanitizer build's parent alone outgrows a cgroup sized for the parse)
TINY=$CG/kbench-test-tiny-$$
if grep -q __asan_init "$KBENCH" 2>/dev/null; then
    skip "own cgroup too small (a sanitizer build: its parent is as large as the parse)"
elif mkdir "$TINY" 2>/dev/null &&
   { echo 1M >"$TINY/memory.limit_in_bytes" || echo 1M >"$TINY/memory.max"; } 2>/dev/null; then
    for i in 1 2 3 4; do cat "$KBENCH_LOADFILE_DIR/client.txt"; done >"$WORK/big.txt"
    mkdir -p "$WORK/tinyd"
    sh -c 'echo $$ >"$1/cgroup.procs" && exec "$2" load -t 1 --warmup 0 -c "$3" -D "$4" 2' \
        sh "$TINY" "$KBENCH" "$WORK/big.txt" "$WORK/tinyd" >"$WORK/out" 2>"$WORK/err"
    RC=$?
    expect_eq "own cgroup too small: exit 2" "$RC" 2 "stderr: $(head -c 300 "$WORK/err")"
    expect_err_grep "own cgroup too small: the OOM killer named, with the cgroup" \
        "^kbench load: .*big\\.txt: the parse process was killed by the OOM killer \\(memory cgroup .*kbench-test-tiny-$$\\)\$"
    expect_empty_dir "own cgroup too small: nothing made" "$WORK/tinyd"
    rmdir "$TINY" 2>/dev/null || true
else
    rmdir "$TINY" 2>/dev/null
    skip "own cgroup too small (cannot make a limited cgroup under $CG)"
fi

finish
