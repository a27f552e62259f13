#!/bin/sh
# kbench - command-line tests: kbench disk refuses bad input (exit 2, one line)
# SPDX-License-Identifier: GPL-3.0-or-later
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/disk-lib.sh"

GOOD=$WORK/good
dd if=/dev/urandom of="$GOOD" bs=1M count=4 status=none

# ---- the command line ----
expect_bad "no device" "missing DEVICE or FILE" "$KBENCH" disk
expect_bad "unknown option" "--frob: unknown option" "$KBENCH" disk --frob "$GOOD"
expect_bad "--info without a device" "--info: give the DEVICE or FILE" "$KBENCH" disk --info
expect_bad "--info with -t" "--info prints the settings and times nothing" "$KBENCH" disk --info -t "$GOOD"
expect_bad "--info with --json" "--info prints the settings and times nothing" "$KBENCH" disk --info --json x.json "$GOOD"
expect_bad "--info of a directory" "^kbench disk: /: neither a block device nor a regular file\$" "$KBENCH" disk --info /
expect_bad "--info of a missing file" "^kbench disk: /nonexistent: No such file or directory\$" "$KBENCH" disk --info /nonexistent
expect_bad "--runs 0" "--runs must be a whole number from 1 to 1000, not '0'" "$KBENCH" disk --runs 0 "$GOOD"
expect_bad "--runs 1001" "not '1001'" "$KBENCH" disk --runs 1001 "$GOOD"
expect_bad "--runs abc" "not 'abc'" "$KBENCH" disk --runs abc "$GOOD"
expect_bad "--offset 12X" "bad --offset '12X'" "$KBENCH" disk -t --offset 12X "$GOOD"
expect_bad "--offset -1" "bad --offset '-1'" "$KBENCH" disk -t --offset -1 "$GOOD"
# hdparm's --offset counts GiB: a bare number is refused, with the translation
for n in 1 0 4096; do
    expect_bad "--offset $n (no unit)" \
        "^kbench disk: --offset $n has no unit; hdparm's --offset counts GiB, so give one: --offset ${n}G is hdparm's --offset $n \\(B for bytes, k, M, G, T\\)" \
        "$KBENCH" disk -t --offset "$n" "$GOOD"
done
expect_rc "--offset 4096B: bytes with their unit" 0 "$KBENCH" disk -t --offset 4096B "$GOOD" --json "$WORK/off.json"
expect_true "--offset 4096B: 4096 bytes in" [ "$(jget "$WORK/off.json" 'd["params"]["offset_bytes"]')" = 4096 ]

# ---- the path ----
expect_bad "missing path" "^kbench disk: $WORK/nope: no such file or device; check the path" \
    "$KBENCH" disk "$WORK/nope"
expect_bad "a directory" "^kbench disk: $WORK: is a directory; give a block device .* or a regular file\$" \
    "$KBENCH" disk "$WORK"
expect_bad "a character device" "^kbench disk: /dev/null: is a character device; give a block device" \
    "$KBENCH" disk /dev/null
mkfifo "$WORK/fifo"
if command -v timeout >/dev/null 2>&1; then TO="timeout 20"; else TO=; fi
expect_bad "a FIFO (and no hang)" "^kbench disk: $WORK/fifo: is a FIFO" $TO "$KBENCH" disk "$WORK/fifo"
: >"$WORK/empty"
expect_bad "an empty file" "^kbench disk: $WORK/empty: is empty \\(0 bytes\\): nothing to read" \
    "$KBENCH" disk "$WORK/empty"
expect_bad "--offset at the end of the file" \
    "^kbench disk: $GOOD: --offset 4M is at or past the end \\(4194304 bytes\\); give a smaller offset\$" \
    "$KBENCH" disk -t --offset 4M "$GOOD"
expect_bad "--offset past the end" "$GOOD: --offset 1G is at or past the end" \
    "$KBENCH" disk -t --offset 1G "$GOOD"
expect_bad "--direct --offset unaligned" "$GOOD: --offset 1000B is not a multiple of 4096 bytes" \
    "$KBENCH" disk -t --direct --offset 1000B "$GOOD"

# one bad path among good ones: nothing is timed at all
expect_rc "good and bad paths: exit 2" 2 "$KBENCH" disk -t "$GOOD" "$WORK/nope"
expect_no_grep "good and bad paths: nothing timed" "$WORK/out" '^ Timing'
expect_err_grep "good and bad paths: the bad one named" "$WORK/nope: no such file"

# ---- not readable: as an unprivileged user ----
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null 2>&1; then
    AS_USER="setpriv --reuid=65534 --regid=65534 --clear-groups"
else
    AS_USER=
fi
chmod 755 "$WORK"
cp "$GOOD" "$WORK/secret"
chmod 600 "$WORK/secret"
if [ -n "$AS_USER" ] || [ "$(id -u)" -ne 0 ]; then
    expect_bad "unreadable file" "^kbench disk: $WORK/secret: permission denied; run as root or get read access to it\$" \
        $AS_USER "$KBENCH" disk "$WORK/secret"
else
    skip "unreadable file (root without setpriv reads everything)"
fi

# ---- --offset with -T only is ignored, with a warning ----
expect_rc "--offset with -T only" 0 "$KBENCH" disk -T --offset 1M "$GOOD"
expect_err_grep "--offset with -T only: warned" "--offset applies to -t only; ignored"

# ---- --json is checked before anything is timed: exit 2, nothing measured ----
expect_rc "--json in a missing directory" 2 "$KBENCH" disk -t "$GOOD" --json "$WORK/no/dir/r.json"
expect_err_grep "--json failure named" "--json $WORK/no/dir/r.json: cannot write in $WORK/no/dir"
expect_no_grep "--json failure: nothing timed" "$WORK/out" 'Timing'
cp "$GOOD" "$WORK/measured.bin"
expect_rc "--json onto the measured file" 2 "$KBENCH" disk -T "$WORK/measured.bin" --json "$WORK/measured.bin"
expect_err_grep "measured file refused" "that is $WORK/measured.bin"
expect_same_file "the measured file is unchanged" "$WORK/measured.bin" "$GOOD"
if [ "$(id -u)" -eq 0 ] && mknod "$WORK/nodev" c 1 3 2>/dev/null; then
    expect_rc "--json onto a device node" 2 "$KBENCH" disk -T "$GOOD" --json "$WORK/nodev"
    expect_true "the device node is still a device" [ -c "$WORK/nodev" ]
fi

finish
