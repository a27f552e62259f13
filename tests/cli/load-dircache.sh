#!/bin/sh
# kbench - command-line tests: the fileio client's directory fds.  A call
# on a name costs one system call (the directory is opened once); the
# loadfile's own Rename, Rmdir and Deltree are seen by later ops; and
# what another process does to a directory the client holds (renames it,
# out of DIR too, removes it, puts a symbolic link or a mount in its
# place) never leads an op to a symbolic link's target or into a mount:
# the ops go on in the directory the client opened, as kbench-load(1)
# promises
# SPDX-License-Identifier: GPL-3.0-or-later
. "$(dirname "$0")/lib.sh"

D="$WORK/run"
O="$WORK/outside"
MOUNTS=""
cleanup_mounts() {
    for m in $MOUNTS; do umount -l "$m" 2>/dev/null; done
    MOUNTS=""
}
trap 'cleanup_mounts; rm -rf "$WORK"' EXIT
fresh() {
    cleanup_mounts
    rm -rf "$D" "$O" "$WORK/elsewhere"
    mkdir -p "$D" "$O" "$WORK/elsewhere"
    echo keep >"$O/keep"
}
# the outside directory holds exactly its one file, unchanged
outside_intact() {
    expect_eq "$1" "$(ls -A "$O")/$(cat "$O/keep" 2>&1 | head -c 100)" keep/keep "$(ls -lA "$O")"
}

# 1. the loadfile's own namespace changes: every op ends as its line
#    expects, so no fd the client keeps names a directory that moved or went
cat >"$WORK/own.txt" <<'EOT'
Mkdir "\clients\client1\d" NT_STATUS_OK
NTCreateX "\clients\client1\d\x.dat" 0x0 0x5 1 NT_STATUS_OK
Close 1 NT_STATUS_OK
FIND_FIRST "\clients\client1\d\*.new" 260 1366 0 NT_STATUS_NO_SUCH_FILE
NTCreateX "\clients\client1\d\a.new" 0x0 0x5 1 NT_STATUS_OK
Close 1 NT_STATUS_OK
FIND_FIRST "\clients\client1\d\*.new" 260 1366 0 NT_STATUS_OK
Rename "\clients\client1\d" "\clients\client1\e" NT_STATUS_OK
QUERY_PATH_INFORMATION "\clients\client1\e\x.dat" 1004 NT_STATUS_OK
QUERY_PATH_INFORMATION "\clients\client1\d\x.dat" 1004 NT_STATUS_OBJECT_PATH_NOT_FOUND
Mkdir "\clients\client1\d" NT_STATUS_OK
NTCreateX "\clients\client1\d\y.dat" 0x0 0x5 1 NT_STATUS_OK
Close 1 NT_STATUS_OK
FIND_FIRST "\clients\client1\d\*.dat" 260 1366 0 NT_STATUS_OK
FIND_FIRST "\clients\client1\d\x*" 260 1366 0 NT_STATUS_NO_SUCH_FILE
QUERY_PATH_INFORMATION "\clients\client1\e\y.dat" 1004 NT_STATUS_OBJECT_NAME_NOT_FOUND
Unlink "\clients\client1\d\y.dat" 0x6 NT_STATUS_OK
Rmdir "\clients\client1\d" NT_STATUS_OK
NTCreateX "\clients\client1\d\z.dat" 0x0 0x5 1 NT_STATUS_OBJECT_PATH_NOT_FOUND
Mkdir "\clients\client1\d" NT_STATUS_OK
NTCreateX "\clients\client1\d\z.dat" 0x0 0x5 1 NT_STATUS_OK
Close 1 NT_STATUS_OK
Deltree "\clients\client1\e" NT_STATUS_OK
QUERY_PATH_INFORMATION "\clients\client1\e\x.dat" 1004 NT_STATUS_OBJECT_PATH_NOT_FOUND
Mkdir "\clients\client1\e" NT_STATUS_OK
FIND_FIRST "\clients\client1\e\*.dat" 260 1366 0 NT_STATUS_NO_SUCH_FILE
NTCreateX "\clients\client1\e\w.dat" 0x0 0x5 1 NT_STATUS_OK
Close 1 NT_STATUS_OK
FIND_FIRST "\clients\client1\e\*.dat" 260 1366 0 NT_STATUS_OK
Deltree "\clients\client1" NT_STATUS_OK
QUERY_PATH_INFORMATION "\clients\client1\d\z.dat" 1004 NT_STATUS_OBJECT_PATH_NOT_FOUND
Mkdir "\clients\client1\d" NT_STATUS_OK
NTCreateX "\clients\client1\d\z.dat" 0x0 0x5 1 NT_STATUS_OK
Close 1 NT_STATUS_OK
EOT
fresh
kload --run-once --json "$WORK/own.json" -c "$WORK/own.txt" -D "$D" 2
expect_status "the loadfile's own renames and removals: exit 0" 0
expect_true "no op ended otherwise than its line says" [ "$(jget "$WORK/own.json" "d['results']['errors']")" = 0 ]
expect_empty_dir "own changes: cleaned up" "$D"

# 2. one system call per call on a name: the directories of a path are
#    opened once a pass, not once an op (strace counts the calls)
if command -v strace >/dev/null 2>&1 && strace -qq -o /dev/null true 2>/dev/null; then
    {
        printf '%s\n' 'Mkdir "\clients\client1\a" NT_STATUS_OK'
        printf '%s\n' 'Mkdir "\clients\client1\a\b" NT_STATUS_OK'
        printf '%s\n' 'NTCreateX "\clients\client1\a\b\f.dat" 0x0 0x5 1 NT_STATUS_OK'
        printf '%s\n' 'Close 1 NT_STATUS_OK'
        i=0
        while [ $i -lt 100 ]; do
            printf '%s\n' 'QUERY_PATH_INFORMATION "\clients\client1\a\b\f.dat" 1004 NT_STATUS_OK'
            printf '%s\n' 'FIND_FIRST "\clients\client1\a\b\*.dat" 260 1366 0 NT_STATUS_OK'
            printf '%s\n' 'Rename "\clients\client1\a\b\f.dat" "\clients\client1\a\b\g.dat" NT_STATUS_OK'
            printf '%s\n' 'Rename "\clients\client1\a\b\g.dat" "\clients\client1\a\b\f.dat" NT_STATUS_OK'
            i=$((i + 1))
        done
    } >"$WORK/names.txt"
    fresh
    ASAN_OPTIONS=$ASAN_NOLEAK strace -f -qq -o "$WORK/trace" -e trace=openat2,statx,renameat,getdents64 \
        "$KBENCH" load -q --run-once -c "$WORK/names.txt" -D "$D" 1 >"$WORK/out" 2>"$WORK/err"
    RC=$?
    expect_status "under strace: exit 0" 0
    # the client's calls only (the parent's cleanup walks the tree too)
    cpid=$(sed -n 's/^\([0-9]*\) *openat2([0-9]*, "a\/b".*/\1/p' "$WORK/trace" | head -n 1)
    grep "^${cpid:-none} " "$WORK/trace" >"$WORK/ctrace"
    expect_eq "the directory a/b is opened once" "$(grep -c 'openat2([0-9]*, "a/b"' "$WORK/ctrace")" 1 \
        "$(grep openat2 "$WORK/ctrace" | head -n 20)"
    expect_eq "and a, the parent of Mkdir a/b, once" "$(grep -c 'openat2([0-9]*, "a"' "$WORK/ctrace")" 1
    expect_eq "one statx per QUERY_PATH_INFORMATION" \
        "$(grep -c 'statx([0-9]*, "f.dat"' "$WORK/ctrace")" 100
    # a directory read to its end in one call where the filesystem fills
    # the buffer up to the end, else two (the second returns 0)
    case $(stat -f -c %T "$D") in
    tmpfs|ext2/ext3|xfs|btrfs) per=1 ;;
    *) per=2 ;;
    esac
    expect_eq "getdents64 calls per FIND_FIRST: $per" "$(grep -c 'getdents64(' "$WORK/ctrace")" $((100 * per))
    expect_eq "one renameat per Rename, in the kept directory" \
        "$(grep -Ec 'renameat\([0-9]+, "[fg].dat", [0-9]+, "[fg].dat"' "$WORK/ctrace")" 200
else
    skip "system calls per op (no working strace)"
fi

# The hostile cases: the client keeps fds on a and a/b, sleeps while the
# test changes a/b behind its back, then works on a/b's paths again.
cat >"$WORK/mid.txt" <<'EOT'
Mkdir "\clients\client1\a" NT_STATUS_OK
Mkdir "\clients\client1\a\b" NT_STATUS_OK
NTCreateX "\clients\client1\a\b\f1.dat" 0x0 0x5 1 NT_STATUS_OK
Close 1 NT_STATUS_OK
QUERY_PATH_INFORMATION "\clients\client1\a\b\f1.dat" 1004 NT_STATUS_OK
FIND_FIRST "\clients\client1\a\b\*" 260 1366 0 NT_STATUS_OK
NTCreateX "\clients\client1\ready" 0x0 0x5 2 NT_STATUS_OK
Close 2 NT_STATUS_OK
Sleep 3000000
Unlink "\clients\client1\ready" 0x6 *
NTCreateX "\clients\client1\a\b\f2.dat" 0x0 0x5 3 *
WriteX 3 0 100 100 *
Close 3 *
Unlink "\clients\client1\a\b\keep" 0x6 *
Rename "\clients\client1\a\b\keep" "\clients\client1\stolen" *
Mkdir "\clients\client1\a\b\newdir" *
QUERY_PATH_INFORMATION "\clients\client1\a\b\keep" 1004 *
FIND_FIRST "\clients\client1\a\b\*" 260 1366 0 *
Unlink "\clients\client1\a\b\f1.dat" 0x6 *
EOT
T="$D/clients/client0"
# mid NAME CMD...: run mid.txt, and once the client sleeps run CMD; $LATE
# is 1 when the client had woken up before CMD was done (a machine too busy
# for the test), else 0
mid() {
    mname=$1
    shift
    "$KBENCH" load -q --run-once --skip-cleanup -c "$WORK/mid.txt" -D "$D" 1 >"$WORK/out" 2>"$WORK/err" &
    BG=$!
    LATE=1
    if wait_until 120 test -f "$T/ready"; then
        "$@"
        [ -f "$T/ready" ] && LATE=0
    fi
    wait "$BG"
    RC=$?
    if [ "$LATE" = 1 ]; then
        skip "$mname (the client woke before the change was made)"
    fi
}

# 3. a symbolic link swapped in for a/b: never followed; the ops stay in the
#    directory the client opened, now a/b.old
swap_link() {
    mv "$T/a/b" "$T/a/b.old" && ln -s "$O" "$T/a/b"
}
fresh
mid "link swapped in" swap_link
if [ "$LATE" = 0 ]; then
    outside_intact "link swapped in for a kept directory: nothing done through it"
    expect_true "link: the link is left as it was" [ -L "$T/a/b" ]
    expect_true "link: the ops went on in the directory the client opened" \
        [ -f "$T/a/b.old/f2.dat" -a ! -e "$T/a/b.old/f1.dat" -a -d "$T/a/b.old/newdir" ]
fi

# 4. a/b renamed out of DIR by another process: the fd follows it (the
#    promise), and nothing else outside DIR is touched
move_out() {
    mv "$T/a/b" "$WORK/elsewhere/b"
}
fresh
mid "moved out of DIR" move_out
if [ "$LATE" = 0 ]; then
    outside_intact "moved out: nothing else outside DIR touched"
    expect_eq "moved out: the directory's new parent holds only it" "$(ls -A "$WORK/elsewhere")" b
    expect_true "moved out: the ops went on in the directory the client opened" \
        [ -f "$WORK/elsewhere/b/f2.dat" -a ! -e "$WORK/elsewhere/b/f1.dat" ]
    expect_true "moved out: nothing made under its old name" [ ! -e "$T/a/b" ]
fi

# 5. a/b removed (and made again) by another process: the ops on the
#    removed directory fail, and none reaches the new one
remove_dir() {
    rm -rf "$T/a/b" && mkdir "$T/a/b" && ln -s "$O" "$T/a/b/keep"
}
fresh
mid "removed" remove_dir
if [ "$LATE" = 0 ]; then
    expect_status "removed: the run ends normally" 0
    outside_intact "removed: nothing done outside DIR"
    expect_eq "removed: nothing made in the new directory" "$(ls -A "$T/a/b")" keep
    expect_true "removed: its link is not followed or moved" [ -L "$T/a/b/keep" -a ! -e "$T/stolen" ]
fi

# 6. a bind mount put on a/b, and on a: no op enters the mount; the ops go
#    on in the directory underneath, which the client opened
if [ "$(id -u)" -eq 0 ] && mkdir -p "$WORK/probe/x" "$WORK/probe/y" &&
   mount --bind "$WORK/probe/x" "$WORK/probe/y" 2>/dev/null; then
    umount "$WORK/probe/y"
    for where in a/b a; do
        mount_on() {
            mount --bind "$O" "$T/$where" && MOUNTS="$T/$where $MOUNTS"
        }
        fresh
        mid "mount on $where" mount_on
        if [ "$LATE" = 0 ]; then
            outside_intact "mount on $where: nothing made, moved or removed in it"
            cleanup_mounts
            expect_true "mount on $where: the ops went on underneath" \
                [ -f "$T/a/b/f2.dat" -a ! -e "$T/a/b/f1.dat" -a -d "$T/a/b/newdir" ]
        fi
    done
else
    skip "mounts on kept directories (needs root and mount)"
fi

finish
