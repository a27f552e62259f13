#!/bin/sh
# kbench - command-line tests: no operation and no cleanup step of kbench
# load enters a mount other than DIR's own, bind mounts of the same
# filesystem included, whether the mount was there before the run or
# appeared during it; each mount met is named and the run exits 1
# SPDX-License-Identifier: GPL-3.0-or-later
. "$(dirname "$0")/lib.sh"

if [ "$(id -u)" -ne 0 ] || ! mkdir -p "$WORK/probe/a" "$WORK/probe/b" ||
   ! mount --bind "$WORK/probe/a" "$WORK/probe/b" 2>/dev/null; then
    skip "bind mounts (needs root and mount)"
    finish
fi
umount "$WORK/probe/b"

D="$WORK/run"
O="$WORK/outside"
MOUNTS=""
# every mount this script makes is undone, also when it fails half-way
cleanup_mounts() {
    for m in $MOUNTS; do umount -l "$m" 2>/dev/null; done
    MOUNTS=""
}
trap 'cleanup_mounts; rm -rf "$WORK"' EXIT
bind() {
    mount --bind "$1" "$2" && MOUNTS="$2 $MOUNTS"
}
fresh() {
    cleanup_mounts
    rm -rf "$D" "$O"
    mkdir -p "$D" "$O"
    echo keep >"$O/precious"
}
# the outside directory holds exactly its one file, unchanged
outside_intact() {
    expect_eq "$1" "$(ls -A "$O")/$(cat "$O/precious" 2>&1 | head -c 100)" precious/keep "$(ls -lA "$O")"
}

# 1. DIR/clients/client0 is a bind mount of another directory
fresh
mkdir -p "$D/clients/client0"
bind "$O" "$D/clients/client0"
kload -t 1 --warmup 0 -q -D "$D" 1
expect_status "client tree on a bind mount: exit 2, before any client" 2
outside_intact "client tree on a bind mount: nothing outside removed"
expect_err_grep "the mount is named" "^kbench load: $D/clients/client0 is a mount point; the client trees go"

# 2. a file bind-mounted over a file of a directory in DIR (a client tree
#    that was there would be refused): not truncated, written, retimed,
#    renamed or unlinked
fresh
mkdir -p "$D/pre/t"
: >"$D/pre/t/f.dat"
bind "$O/precious" "$D/pre/t/f.dat"
cat >"$WORK/file.txt" <<'EOT'
NTCreateX "\pre\t\f.dat" 0x0 0x5 1 NT_STATUS_OK
WriteX 1 0 100 100 NT_STATUS_OK
Close 1 NT_STATUS_OK
NTCreateX "\pre\t\f.dat" 0x0 0x1 2 NT_STATUS_OK
QUERY_PATH_INFORMATION "\pre\t\f.dat" 1004 NT_STATUS_OK
Rename "\pre\t\f.dat" "\pre\t\g.dat" NT_STATUS_OK
Unlink "\pre\t\f.dat" 0x6 NT_STATUS_OK
Deltree "\pre\t" NT_STATUS_OK
EOT
kload -q --run-once -c "$WORK/file.txt" -D "$D" 1
expect_status "file bind mount: exit 1" 1
outside_intact "file bind mount: the mounted file is not truncated, moved or removed"
expect_out_grep "the open that would cross is counted against its line" \
    'file.txt:1: NTCreateX expected success, failed: crosses into another mount \(left alone\)'
expect_out_grep "the stat that would look inside is counted" \
    'file.txt:5: QUERY_PATH_INFORMATION expected success, failed: crosses into another mount'
expect_err_grep "cleanup names the file mount" "$D/pre/t/f.dat is a mount point: left alone"

# 3. a directory mount deep in the tree: the loadfile's own Deltree, Rename,
#    Mkdir, FIND_FIRST and creates inside it, then cleanup
fresh
mkdir -p "$D/pre/t/m"
bind "$O" "$D/pre/t/m"
cat >"$WORK/dir.txt" <<'EOT'
NTCreateX "\pre\t\m\new.dat" 0x0 0x5 1 NT_STATUS_OK
Mkdir "\pre\t\m\sub" NT_STATUS_OK
Mkdir "\pre\t\m" NT_STATUS_OK
FIND_FIRST "\pre\t\m\*" 260 1366 0 NT_STATUS_OK
Unlink "\pre\t\m\precious" 0x6 NT_STATUS_OK
Rename "\pre\t\m\precious" "\pre\t\stolen" NT_STATUS_OK
Deltree "\pre\t\m" NT_STATUS_OK
Deltree "\pre\t" NT_STATUS_OK
Deltree "\pre" NT_STATUS_OK
EOT
kload -q --run-once -c "$WORK/dir.txt" -D "$D" 1
expect_status "directory mount: exit 1" 1
outside_intact "directory mount: the loadfile's Deltree and Rename leave it whole"
expect_out_grep "Deltree of the mount point is counted" \
    'dir.txt:7: Deltree expected success, failed: crosses into another mount'
expect_out_grep "Deltree of a tree holding it is counted" \
    'dir.txt:8: Deltree expected success, failed: crosses into another mount'
expect_err_grep "cleanup names the directory mount" "$D/pre/t/m is a mount point: left alone"
cleanup_mounts
expect_eq "directory mount: everything else the run made is gone" "$(cd "$D" && find . | sort | tr '\n' ' ')" \
    ". ./pre ./pre/t ./pre/t/m "

# 4. shared paths into a bind mount at DIR's top level
fresh
mkdir -p "$D/nbsimuld"
bind "$O" "$D/nbsimuld"
cat >"$WORK/shared.txt" <<'EOT'
NTCreateX "\nbsimuld\made" 0x0 0x5 1 *
Unlink "\nbsimuld\precious" 0x6 *
Deltree "\nbsimuld" *
EOT
kload -q --run-once -c "$WORK/shared.txt" -D "$D" 1
outside_intact "shared paths: the mount at DIR's top is left whole"
expect_err_grep "cleanup names the shared mount" "$D/nbsimuld is a mount point: left alone"

# 5. a mount that appears while the clients run
fresh
cat >"$WORK/loop.txt" <<'EOT'
Mkdir "\clients\client1\w" NT_STATUS_OK
NTCreateX "\clients\client1\w\f.dat" 0x0 0x5 1 NT_STATUS_OK
WriteX 1 0 4096 4096 NT_STATUS_OK
Close 1 NT_STATUS_OK
Unlink "\clients\client1\w\f.dat" 0x6 NT_STATUS_OK
EOT
"$KBENCH" load -t 4 --warmup 0 -q -c "$WORK/loop.txt" -D "$D" 1 >"$WORK/out" 2>"$WORK/err" &
BG=$!
wait_until 120 test -d "$D/clients/client0/w"
if bind "$O" "$D/clients/client0/w"; then
    wait "$BG"
    RC=$?
    expect_status "mount during the run: exit 1" 1
    outside_intact "mount during the run: nothing made or removed in it"
    expect_err_grep "mount during the run: named at cleanup" "$D/clients/client0/w is a mount point: left alone"
else
    kill "$BG"; wait "$BG"
    fail "mount during the run" "could not mount on $D/clients/client0/w"
fi

# 6. a device node or a FIFO left in DIR is never opened for the load's
#    writes (here a node for /dev/zero's device and a FIFO, both harmless
#    if the check failed)
fresh
mkdir -p "$D/shared"
mknod "$D/shared/dev" c 1 5
mkfifo "$D/shared/fifo"
cat >"$WORK/dev.txt" <<'EOT'
NTCreateX "\shared\dev" 0x0 0x1 1 NT_STATUS_OK
WriteX 1 0 4096 4096 NT_STATUS_OK
Close 1 NT_STATUS_OK
NTCreateX "\shared\fifo" 0x0 0x5 2 NT_STATUS_OK
WriteX 2 0 4096 4096 NT_STATUS_OK
Close 2 NT_STATUS_OK
EOT
kload -q --run-once --json "$WORK/dev.json" -c "$WORK/dev.txt" -D "$D" 1
expect_true "device node and FIFO: exit 1" [ "$RC" -eq 1 ]
expect_out_grep "the device node is refused" \
    'dev.txt:1: NTCreateX expected success, failed: not a regular file or directory \(left alone\)'
expect_out_grep "the FIFO is refused" \
    'dev.txt:4: NTCreateX expected success, failed: not a regular file or directory'
expect_true "nothing written through them" [ "$(jget "$WORK/dev.json" "d['results']['bytes']")" = 0 ]
expect_true "and they stay" [ -c "$D/shared/dev" -a -p "$D/shared/fifo" ]

# 7. --json inside DIR by another name: a bind mount of DIR elsewhere
fresh
mkdir -p "$WORK/alias"
bind "$D" "$WORK/alias"
kload -q --run-once -c "$DATA/small.txt" -D "$D" --json "$WORK/alias/r.json" 1
expect_true "--json in a bind mount of DIR: exit 2" [ "$RC" -eq 2 ]
expect_err_grep "it is inside the run directory" 'inside the run directory'
cleanup_mounts

# 8. DIR itself may be a mount point, a bind mount or not: that is DIR's
#    own mount, and the run is normal
fresh
mkdir -p "$WORK/real"
bind "$WORK/real" "$D"
kload -q --run-once -c "$DATA/small.txt" -D "$D" 2
expect_status "DIR on a bind mount: exit 0" 0
expect_empty_dir "DIR on a bind mount: cleaned up" "$D"
cleanup_mounts

finish
