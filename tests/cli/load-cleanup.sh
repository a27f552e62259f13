#!/bin/sh
# kbench - command-line tests: kbench load's cleanup removes only what the
# run could have made (the client trees and the paths its loadfile's
# shared operations create), never what was there before, what another
# process makes in DIR meanwhile, or what a mount hid when the run began
# SPDX-License-Identifier: GPL-3.0-or-later
. "$(dirname "$0")/lib.sh"

D="$WORK/dir"
O="$WORK/outside"
L="$WORK/one.txt"
cat >"$L" <<'EOT'
NTCreateX "\clients\client1\f" 0x0 0x5 1 NT_STATUS_OK
WriteX 1 0 4096 4096 NT_STATUS_OK
Close 1 NT_STATUS_OK
EOT

# wait (at most ~30 s) until the first client's tree is there
wait_tree() {
    i=0
    while [ $i -lt 300 ] && [ ! -d "$D/clients/client0" ]; do sleep 0.1; i=$((i + 1)); done
    [ -d "$D/clients/client0" ]
}

# files another process makes in DIR while the run goes are not the run's
rm -rf "$D"; mkdir -p "$D"
cat >"$WORK/shared.txt" <<'EOT'
Mkdir "\nbsimuld" NT_STATUS_OK
NTCreateX "\nbsimuld\made" 0x0 0x5 1 NT_STATUS_OK
Close 1 NT_STATUS_OK
EOT
"$KBENCH" load -q -t 3 --warmup 0 -c "$WORK/shared.txt" -D "$D" 1 >"$WORK/out" 2>"$WORK/err" &
BG=$!
if wait_tree; then
    echo x >"$D/user.log"
    mkdir -p "$D/clients/other" && echo y >"$D/clients/other/y"
    wait "$BG"
    RC=$?
    expect_true "a concurrent writer's files: the run exits 0" [ "$RC" -eq 0 ]
    left=$(cd "$D" && find . | sort | tr '\n' ' ')
    expect_true "they stay, the run's own go (left: $left)" \
        [ "$left" = ". ./clients ./clients/other ./clients/other/y ./user.log " ]
else
    kill "$BG"; wait "$BG"
    fail "a concurrent writer's files" "the client tree never appeared"
fi

# one run a directory: a second kbench load in the same DIR is refused
rm -rf "$D"; mkdir -p "$D"
"$KBENCH" load -q -t 3 --warmup 0 -c "$L" -D "$D" 1 >"$WORK/out" 2>"$WORK/err" &
BG=$!
if wait_tree; then
    kload -q -t 1 --warmup 0 -c "$L" -D "$D" 1
    expect_true "a second run in the same DIR: exit 2" [ "$RC" -eq 2 ]
    expect_err_grep "it names the reason" 'in use by another kbench load'
    wait "$BG"
    RC=$?
    expect_true "the first run is not disturbed: exit 0" [ "$RC" -eq 0 ]
    expect_empty_dir "and cleans up" "$D"
else
    kill "$BG"; wait "$BG"
    fail "a second run in the same DIR" "the client tree never appeared"
fi

# a reader that goes away (kbench load | head) does not stop the cleanup
rm -rf "$D"; mkdir -p "$D"
("$KBENCH" load -t 3 --warmup 0 -c "$L" -D "$D" 1 2>"$WORK/err"; echo $? >"$WORK/rc") | head -c 1 >/dev/null
expect_true "a closed pipe: the run says it could not write (exit $(cat "$WORK/rc"))" [ "$(cat "$WORK/rc")" -eq 1 ]
expect_err_grep "the lost report is said" 'cannot write the report'
expect_empty_dir "a closed pipe: cleaned up" "$D"

# names that only look like client trees are not the run's trees
rm -rf "$D"; mkdir -p "$D/clients"
cat >"$WORK/like.txt" <<'EOT'
Mkdir "\clients\client00" NT_STATUS_OK
Mkdir "\clients\client+0" NT_STATUS_OK
Mkdir "\clients\client 0" NT_STATUS_OK
Mkdir "\clients\client1x" NT_STATUS_OK
EOT
kload -q --run-once -c "$WORK/like.txt" -D "$D" 1
left=$(cd "$D" && find . | sort | tr '\n' ' ')
expect_true "client00, client+0, 'client 0', client1x are removed like any made path (left: $left)" \
    [ "$RC" -eq 0 -a "$left" = ". ./clients " ]

# a tree too large to note in full: nothing that was there is removed
rm -rf "$D"; mkdir -p "$D/clients/keep"
(cd "$D/clients/keep" && seq -f 'f%06g' 0 200099 | xargs touch)
kload -q --run-once -c "$L" -D "$D" 1
n=$(ls "$D/clients/keep" | wc -l)
expect_true "200,100 files noted in part: exit 0" [ "$RC" -eq 0 ]
expect_true "all 200,100 stay (found $n)" [ "$n" -eq 200100 ]
expect_err_grep "the partial note is said" 'holds too much to note in full'
rm -rf "$D"

# what a mount hid when the run began stays, also when it is unmounted
# during the run
if [ "$(id -u)" -eq 0 ] && mkdir -p "$D/clients/foo" "$O" &&
   echo hidden >"$D/clients/foo/hidden" && mount --bind "$O" "$D/clients/foo" 2>/dev/null; then
    "$KBENCH" load -q -t 3 --warmup 0 -c "$L" -D "$D" 1 >"$WORK/out" 2>"$WORK/err" &
    BG=$!
    wait_tree
    umount "$D/clients/foo"
    wait "$BG"
    if [ -f "$D/clients/foo/hidden" ]; then pass "a mount gone during the run: what it hid stays"; else
        fail "a mount gone during the run: what it hid stays" "$(ls -lAR "$D" | head -20)"; fi
    expect_err_grep "and it is named" "$D/clients/foo is a mount point"
    # a mount that appears on DIR/clients is named once
    rm -rf "$D"; mkdir -p "$D"
    "$KBENCH" load -q -t 3 --warmup 0 -c "$L" -D "$D" 1 >"$WORK/out" 2>"$WORK/err" &
    BG=$!
    wait_tree
    mount --bind "$O" "$D/clients"
    wait "$BG"
    RC=$?
    umount "$D/clients"
    n=$(grep -c "is a mount point" "$WORK/err")
    expect_true "a mount on DIR/clients: exit 1, named once (named $n times)" [ "$RC" -eq 1 -a "$n" -eq 1 ]
else
    skip "mounts during the run (needs root and mount)"
fi

# the run removes only what it made: a client tree that was there and
# holds anything is refused before any client starts (the file a user
# left in it stays), and the trees the run made up to then go again
rm -rf "$D"; mkdir -p "$D/clients/client1"
echo keep >"$D/clients/client1/precious"
kload -q --run-once -c "$L" -D "$D" 3
expect_status "a client tree that was there, not empty: exit 2" 2
expect_err_grep "... one line naming it and what to do" \
    "^kbench load: $D/clients/client1 was there before the run and is not empty; .*\\(empty or remove it yourself, or use another -D\\)$"
expect_eq "... it is left whole, and nothing else is made" \
    "$(cd "$D" && find . | sort | tr '\n' ' ')/$(cat "$D/clients/client1/precious")" \
    ". ./clients ./clients/client1 ./clients/client1/precious /keep"
# --reuse-trees (dbench's way, and mmtests' warm-up then timed run on one
# -D): a tree a --skip-cleanup run left is used; what is in it goes after
# the run, the directory stays; a link at a tree is refused still
rm -rf "$D"; mkdir -p "$D"
kload -q --run-once --skip-cleanup -c "$L" -D "$D" 1
expect_status "--skip-cleanup leaves a tree: exit 0" 0
expect_true "... and it holds the run's files" test -n "$(ls -A "$D/clients/client0")"
kload -q --run-once --reuse-trees -c "$L" -D "$D" 1
expect_status "--reuse-trees on it: exit 0" 0
expect_eq "... the tree stays, emptied" "$(cd "$D" && find . | sort | tr '\n' ' ')" ". ./clients ./clients/client0 "
rm -rf "$D" "$O"; mkdir -p "$D/clients" "$O/client0"; echo keep >"$O/client0/precious"
ln -s "$O/client0" "$D/clients/client0"
kload -q --run-once --reuse-trees -c "$L" -D "$D" 1
expect_status "--reuse-trees: a link at the tree is refused still: exit 2" 2
expect_eq "... its target is whole" "$(cat "$O/client0/precious")" keep
# a hard link to a file outside, in a tree that was there: refused the same
rm -rf "$D" "$O"; mkdir -p "$D/clients/client0" "$O"
echo keep >"$O/precious"
ln "$O/precious" "$D/clients/client0/hard"
kload -q --run-once -c "$L" -D "$D" 1
expect_status "a hard link in a tree that was there: exit 2" 2
expect_eq "... the file it links to is whole" "$(cat "$O/precious")" keep
# an empty tree that was there (as dbench leaves them) is used: what the
# run put in it goes, the directory stays; the one the run made goes
rm -rf "$D"; mkdir -p "$D/clients/client0"
kload -q --run-once -c "$L" -D "$D" 2
expect_status "an empty client tree that was there: exit 0" 0
expect_eq "... it stays, empty; the run's own tree is gone" \
    "$(cd "$D" && find . | sort | tr '\n' ' ')" ". ./clients ./clients/client0 "
# DIR/clients as a link to a directory holding a client0 (dangling, a loop):
# refused, one line
for target in "$O" nowhere clients; do
    rm -rf "$D"; mkdir -p "$D" "$O/client0"
    echo keep >"$O/client0/precious"
    ln -s "$target" "$D/clients"
    kload -q --run-once -c "$L" -D "$D" 1
    expect_status "DIR/clients a link to $target: exit 2" 2
    expect_err_grep "... named" "^kbench load: $D/clients is a symbolic link, which kbench does not follow"
    expect_eq "... what it points to is whole" "$(cat "$O/client0/precious")" keep
done
rm -rf "$D" "$O"

finish
