#!/bin/sh
# kbench - command-line tests: kbench as hdparm on a loop device (root
# only), run as the Phoronix Test Suite's pts/hdparm-read runs hdparm and
# parsed as it parses it, beside Debian's hdparm: the same lines, field
# for field; hdparm DEV's settings block, its words and status, as
# hdparm's; failures print no figure
# SPDX-License-Identifier: GPL-3.0-or-later
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/compat-lib.sh"

LOOPS=
cleanup() {
    for l in $LOOPS; do losetup -d "$l" 2>/dev/null; done
    rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

if [ "$(id -u)" -ne 0 ] || ! command -v losetup >/dev/null 2>&1; then
    skip "loop devices need root and losetup"
    finish
fi
IMG=$WORK/img
dd if=/dev/urandom of="$IMG" bs=1M count=32 status=none
if ! L=$(losetup --find --show --direct-io=on "$IMG" 2>"$WORK/losetup.err"); then
    skip "losetup failed: $(cat "$WORK/losetup.err")"
    finish
fi
LOOPS=$L
HAVE_DEB=
if command -v hdparm >/dev/null 2>&1; then HAVE_DEB=1; fi
DEB=$(command -v hdparm 2>/dev/null)

# form FILE: the lines with every number a type and blanks squeezed: what
# a parser that splits on blanks sees
form() {
    sed -E 's/[0-9]+\.[0-9]+/FLOAT/g; s/[0-9]+/INT/g; s/ +/ /g' "$1" |
        sed -E 's#/dev/loopINT#/dev/loopN#'
}

# ---- the Phoronix Test Suite: hdparm -t DEV, "Timing buffered disk reads: ... = #_RESULT_# MB/sec" ----
expect_rc "PTS: hdparm -t: status 0" 0 "$B/hdparm" -t "$L"
cp "$WORK/out" "$WORK/t.k"
expect_eq "PTS: one result, a number" "$(pts_hdparm "$WORK/t.k" | shape)" "float"
expect_eq "hdparm's lines: a blank line, DEV:, the Timing line" "$(form "$WORK/t.k")" \
    "$(printf '\n/dev/loopN:\n Timing buffered disk reads: INT MB in FLOAT seconds = FLOAT MB/sec')"
for args in "-t" "-T" "-tT" "-t --direct" "-T --direct" "-t --offset 0"; do
    # shellcheck disable=SC2086
    expect_rc "hdparm $args: status 0" 0 "$B/hdparm" $args "$L"
    cp "$WORK/out" "$WORK/k.out"
    if [ -n "$HAVE_DEB" ]; then
        # shellcheck disable=SC2086
        expect_rc "Debian's hdparm $args: status 0" 0 "$DEB" $args "$L"
        expect_eq "hdparm $args: Debian's lines, field for field" "$(form "$WORK/k.out")" \
            "$(form "$WORK/out")"
    fi
done
if [ -z "$HAVE_DEB" ]; then skip "Debian's hdparm is not installed: no side-by-side run"; fi

# ---- --json: kbench disk's document beside hdparm's lines ----
expect_rc "hdparm -t --json: status 0" 0 "$B/hdparm" -t --json "$WORK/h.json" "$L"
expect_eq "hdparm -t --json: the device's size in the document" \
    "$(jget "$WORK/h.json" 'd["results"][0]["size_bytes"]')" $((32 * 1048576))
expect_eq "hdparm -t --json: the figure printed is the document's" "$(pts_hdparm "$WORK/out")" \
    "$(jget "$WORK/h.json" '"%.2f" % d["results"][0]["buffered"]["runs"][0]["MB_per_s"]')"

# ---- hdparm DEV: the settings block, as hdparm prints it ----
run "$B/hdparm" "$L"
K_RC=$RC
cp "$WORK/out" "$WORK/s.k"
cp "$WORK/err" "$WORK/s.kerr"
expect_file_grep "settings: readonly" "$WORK/s.k" '^ readonly      =  0 \(off\)$'
expect_file_grep "settings: readahead, from the device" "$WORK/s.k" \
    "^ readahead     = +$(blockdev --getra "$L") \\(on\\)\$"
if [ -n "$HAVE_DEB" ]; then
    run "$DEB" "$L"
    expect_same_file "settings: Debian's hdparm's lines, value for value" "$WORK/s.k" "$WORK/out"
    expect_same_file "settings: Debian's hdparm's words where the device cannot tell" \
        "$WORK/s.kerr" "$WORK/err"
    expect_eq "settings: Debian's hdparm's status" "$K_RC" "$RC"
    run "$B/hdparm" "$IMG"
    cp "$WORK/out" "$WORK/f.k"
    cp "$WORK/err" "$WORK/f.kerr"
    K_RC=$RC
    run "$DEB" "$IMG"
    expect_eq "settings of a file: Debian's hdparm's lines, words and status" \
        "$(cat "$WORK/f.k" "$WORK/f.kerr"; echo "$K_RC")" "$(cat "$WORK/out" "$WORK/err"; echo "$RC")"
fi

# ---- failures print no figure ----
run "$B/hdparm" -t "$WORK/nothere"
expect_status "no such device: hdparm's status, the errno" 2
expect_eq "no such device: nothing for PTS's parser" "$(pts_hdparm "$WORK/out")" ""
expect_err_grep "no such device: hdparm's words" "^$WORK/nothere: No such file or directory\$"
# the devices are taken in order: the first that fails ends the command
run "$B/hdparm" -t "$L" "$WORK/nothere"
expect_status "DEV then a missing one: status 2" 2
expect_eq "DEV then a missing one: DEV is timed" "$(pts_hdparm "$WORK/out" | shape)" "float"
run "$B/hdparm" -t "$WORK/nothere" "$L"
expect_status "a missing one then DEV: status 2" 2
expect_eq "a missing one then DEV: nothing timed" "$(cat "$WORK/out")" ""
# -t on a regular file: hdparm's reads of it hit its end: status 5, no figure
for f in "$IMG" "$DATA/small.txt"; do
    run "$B/hdparm" -t -- "$f"
    cp "$WORK/out" "$WORK/rf.k"
    cp "$WORK/err" "$WORK/rf.kerr"
    expect_status "-t -- a regular file: hdparm's status 5" 5
    expect_eq "-t a regular file: nothing for PTS's parser" "$(pts_hdparm "$WORK/rf.k")" ""
    if [ -n "$HAVE_DEB" ]; then
        run "$DEB" -t "$f"
        expect_status "-t a regular file: Debian's hdparm's status" 5
        expect_same_file "-t a regular file: Debian's hdparm's lines" "$WORK/rf.k" "$WORK/out"
        expect_eq "-t a regular file: Debian's hdparm's words" "$(head -n 1 "$WORK/rf.kerr")" \
            "$(grep -v BLKFLSBUF "$WORK/err")"
    fi
done

# ---- -I and -i: a loop device answers neither; hdparm's lines, words, status ----
for flag in -I -i; do
    for dev in "$L" "$IMG"; do
        run "$B/hdparm" "$flag" "$dev"
        got="$(cat "$WORK/out" "$WORK/err"; echo "$RC")"
        case "$flag/$dev" in
            -I/*) want=0 ;;
            -i/"$L") want=22 ;;
            *) want=25 ;;
        esac
        expect_status "hdparm $flag ${dev##*/}: hdparm's status" "$want"
        expect_eq "hdparm $flag ${dev##*/}: the device's heading" "$(cat "$WORK/out")" "$(printf '\n%s:' "$dev")"
        if [ -n "$HAVE_DEB" ]; then
            run "$DEB" "$flag" "$dev"
            expect_eq "hdparm $flag ${dev##*/}: Debian's hdparm's lines, words and status" "$got" \
                "$(cat "$WORK/out" "$WORK/err"; echo "$RC")"
        fi
    done
done

# stopped before the buffered reads end (hdparm's real pauses: 1 s
# before -T, 2 s of reads, 3 s before -t; the signal comes at the heading)
KBENCH_TEST_PAUSE_SCALE=1 "$B/hdparm" -tT "$L" >"$WORK/out" 2>"$WORK/err" &
P=$!
wait_until 120 grep -q "^$L:" "$WORK/out"
kill -TERM "$P"
wait "$P"
RC=$?
expect_status "SIGTERM: status 143" 143
expect_eq "SIGTERM: nothing for PTS's parser" "$(pts_hdparm "$WORK/out")" ""

# ---- bad input: one line, status 2, nothing set ----
SUM=$(cksum <"$IMG")
expect_bad "-W1 (a setting)" '^hdparm: -W1: kbench.s hdparm times reads' "$B/hdparm" -W1 "$L"
expect_bad "--yes-i-know-what-i-am-doing" '^hdparm: --yes' "$B/hdparm" --yes-i-know-what-i-am-doing "$L"
# no device, "-": hdparm's usage and status 22 (EINVAL)
for args in "-t" "-" ""; do
    # shellcheck disable=SC2086
    expect_rc "hdparm $args without a device: hdparm's status 22" 22 "$B/hdparm" $args
    expect_err_grep "hdparm $args without a device: hdparm's usage" '^Usage:  hdparm  \[options\] \[device \.\.\.\]$'
    if [ -n "$HAVE_DEB" ]; then
        # shellcheck disable=SC2086
        expect_rc "Debian's hdparm $args: 22 too" 22 "$DEB" $args
    fi
done
expect_bad "--offset not whole GiB" '^hdparm: --offset needs a whole number' "$B/hdparm" -t --offset 1.5 "$L"
expect_eq "the device is unchanged" "$(cksum <"$IMG")" "$SUM"
finish
