#!/bin/sh
# kbench - command-line tests: kbench disk on loop block devices (root only)
# SPDX-License-Identifier: GPL-3.0-or-later
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/disk-lib.sh"

LOOPS=
cleanup() {
    resize_stop
    for l in $LOOPS; do losetup -d "$l" 2>/dev/null; done
    rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# attach FILE [OPTIONS...]: a new loop device for FILE, named in $DEV.
attach() {
    f=$1
    shift
    DEV=$(losetup --find --show "$@" "$f" 2>"$WORK/losetup.err") || return 1
    LOOPS="$LOOPS $DEV"
}

if [ "$(id -u)" -ne 0 ] || ! command -v losetup >/dev/null 2>&1; then
    skip "loop devices need root and losetup"
    finish
fi
IMG=$WORK/img64
dd if=/dev/urandom of="$IMG" bs=1M count=64 status=none
if ! attach "$IMG" --direct-io=on; then
    skip "losetup failed: $(cat "$WORK/losetup.err")"
    finish
fi
L=$DEV
SUM_BEFORE=$(cksum <"$IMG")

# ---- both tests on a block device ----
expect_rc "$L: -T -t" 0 "$KBENCH" disk "$L" --json "$WORK/both.json"
expect_out_grep "$L: header" "^$L:\$"
expect_out_grep "$L: cached line" '^ Timing cached reads:   +[0-9]+ MB in +[0-9.]+ seconds = +[0-9.]+ MB/sec$'
expect_out_grep "$L: buffered line, cache flushed (no note)" \
    '^ Timing buffered disk reads: +[0-9]+ MB in +[0-9.]+ seconds = +[0-9.]+ MB/sec$'
expect_arith "$L: arithmetic" "$WORK/out" 2
mb=$(line_field 2 1)
s=$(line_field 2 2)
expect_true "$L: -t to the end (64 MB) or 3 s ($mb MB in $s s)" \
    awk -v mb="$mb" -v s="$s" 'BEGIN { exit !(mb == 64 || (mb < 64 && s >= 3.0)) }'
expect_json "$L: JSON" "$WORK/both.json" "$WORK/out" '
r = d["results"][0]
assert r["type"] == "block device" and r["size_bytes"] == 64 * 1048576, r
b = r["buffered"]["runs"][0]
assert b["cache_flushed"] is True, b
assert b["bytes"] == 64 * 1048576 or b["seconds"] >= 3.0, b
c = r["cached"]["runs"][0]
assert c["bytes"] == c["reads"] * 2097152 and c["overhead_seconds"] > 0, c
assert abs(c["seconds"] - (c["loop_seconds"] - c["overhead_seconds"])) < 1e-9, c'

# ---- O_DIRECT ----
expect_rc "$L: --direct" 0 "$KBENCH" disk --direct "$L"
expect_out_grep "$L: O_DIRECT cached reads" '^ Timing O_DIRECT cached reads:   +[0-9]+ MB in '
expect_out_grep "$L: O_DIRECT disk reads" '^ Timing O_DIRECT disk reads: +[0-9]+ MB in '
expect_arith "$L: --direct arithmetic" "$WORK/out" 2

# ---- --offset: stops at the end of the device ----
expect_rc "$L: --offset 62M" 0 "$KBENCH" disk -t --offset 62M "$L"
expect_out_grep "$L: --offset 62M reads the last 2 MB" '^ Timing buffered disk reads: +2 MB in '
expect_rc "$L: --direct --offset 61.5M" 0 "$KBENCH" disk -t --direct --offset $((61 * MIB + MIB / 2))B "$L"
expect_out_grep "$L: --direct --offset 61.5M reads 2.50 MB" '^ Timing O_DIRECT disk reads: 2\.50 MB in '
expect_bad "$L: --offset 63M: less than one whole read left" \
    "^kbench disk: $L: -t needs 2097152 bytes \\(one whole 2 MiB read\\) from the offset to the end; --offset 63M leaves 1048576; give an offset at most $((62 * MIB)) bytes\$" \
    "$KBENCH" disk -t --offset 63M "$L"
expect_rc "$L: --direct --offset not sector-aligned" 2 "$KBENCH" disk -t --direct --offset 1000B "$L"
expect_err_grep "$L: alignment named" "$L: --offset 1000B is not a multiple of [0-9]+ bytes"
expect_rc "$L: --offset at the end" 2 "$KBENCH" disk -t --offset 64M "$L"
expect_err_grep "$L: --offset past the end named" "$L: --offset 64M is at or past the end \\(67108864 bytes\\)"

# ---- --runs ----
expect_rc "$L: --runs 2 -t" 0 "$KBENCH" disk -t --runs 2 "$L"
expect_arith "$L: --runs 2 lines" "$WORK/out" 2
expect_out_grep "$L: --runs 2 summary" '^ Summary buffered disk reads \(2 runs\): min [0-9.]+ / median [0-9.]+ / max [0-9.]+ MB/sec, CoV [0-9.]+%$'

# ---- a device smaller than one 2 MiB read ----
head -c $((MIB / 2)) /dev/urandom >"$WORK/img512k"
if attach "$WORK/img512k" --direct-io=on; then
    expect_bad "$DEV (512 KiB): -t refused, less than one whole read" \
        "^kbench disk: $DEV: -t needs 2097152 bytes \\(one whole 2 MiB read\\); it has 524288 " \
        "$KBENCH" disk "$DEV"
    expect_rc "$DEV (512 KiB): -T" 0 "$KBENCH" disk -T "$DEV" --json "$WORK/small.json"
    expect_arith "512 KiB device: arithmetic" "$WORK/out" 1
    expect_json "512 KiB device: JSON" "$WORK/small.json" "$WORK/out" '
r = d["results"][0]
assert r["size_bytes"] == 524288
c = r["cached"]["runs"][0]
assert c["bytes"] == c["reads"] * 524288, c'
else
    skip "512 KiB loop device: $(cat "$WORK/losetup.err")"
fi

# ---- without CAP_SYS_ADMIN the cache cannot be flushed: said on the line ----
if command -v capsh >/dev/null 2>&1 && capsh --drop=cap_sys_admin -- -c true 2>/dev/null; then
    expect_rc "$L: -t without CAP_SYS_ADMIN" 0 capsh --drop=cap_sys_admin -- -c \
        '"$0" disk -t "$1" --json "$2"' "$KBENCH" "$L" "$WORK/nocap.json"
    expect_out_grep "no CAP_SYS_ADMIN: '(cache not flushed)' on the line" \
        '^ Timing buffered disk reads: +[0-9]+ MB in .* MB/sec \(cache not flushed\)$'
    expect_err_grep "no CAP_SYS_ADMIN: stderr says why" "^warning: flush_failed: $L: buffer cache not flushed before -t run 1: BLKFLSBUF: .*CAP_SYS_ADMIN"
    expect_json "no CAP_SYS_ADMIN: JSON" "$WORK/nocap.json" "$WORK/out" '
assert d["results"][0]["buffered"]["runs"][0]["cache_flushed"] is False'
    expect_rc "$L: --runs 2 without CAP_SYS_ADMIN" 0 capsh --drop=cap_sys_admin -- -c \
        '"$0" disk -t --runs 2 "$1"' "$KBENCH" "$L"
    expect_out_grep "no CAP_SYS_ADMIN: summary flagged too" '^ Summary .*\(cache not flushed\)$'
    expect_true "no CAP_SYS_ADMIN: the warning once per device" [ "$(grep -c 'not flushed' "$WORK/err")" -eq 1 ]
    expect_rc "$L: --direct without CAP_SYS_ADMIN: O_DIRECT needs no flush" 0 capsh \
        --drop=cap_sys_admin -- -c '"$0" disk -t --direct "$1"' "$KBENCH" "$L"
    expect_no_grep "--direct: no '(cache not flushed)' note" "$WORK/out" 'not flushed'
else
    skip "dropping CAP_SYS_ADMIN (no capsh)"
fi

# ---- not root: the device cannot be opened ----
if command -v setpriv >/dev/null 2>&1; then
    expect_rc "$L as nobody" 2 setpriv --reuid=65534 --regid=65534 --clear-groups "$KBENCH" disk "$L"
    expect_err_grep "as nobody: permission denied, what to do" "^kbench disk: $L: permission denied; run as root"
    expect_true "as nobody: one line" [ "$(wc -l <"$WORK/err")" -eq 1 ]
else
    skip "non-root open (no setpriv)"
fi

# ---- a loop device in buffered mode: warned ----
if attach "$IMG"; then
    if [ "$(cat "/sys/block/${DEV#/dev/}/loop/dio" 2>/dev/null)" = 0 ]; then
        expect_rc "$DEV buffered loop -t" 0 "$KBENCH" disk -t "$DEV"
        expect_err_grep "buffered loop: warned" "$DEV: warning: loop device in buffered mode"
        # the backing file read whole into the page cache: BLKFLSBUF leaves
        # it there, so -t would time it; kbench drops it and says so
        cat "$DEV" >/dev/null
        expect_rc "$DEV buffered loop -t after a full read" 0 "$KBENCH" disk -t "$DEV" --json "$WORK/bl.json"
        expect_json "buffered loop: the backing file's pages dropped before -t" "$WORK/bl.json" "$WORK/out" '
b = d["results"][0]["buffered"]["runs"][0]
assert b["cache_flushed"] is True, b
assert b["backing_cached_pct_after_flush"] < 1.0, b
assert b["first_hole_byte"] is None, b
assert [c for c in d["caveats"] if c["key"] != "busy"] == [], d["caveats"]'
        # a sparse backing file: its holes are read from no disk
        truncate -s 16M "$WORK/sparse"
        if attach "$WORK/sparse"; then
            expect_rc "$DEV sparse backing file -t" 0 "$KBENCH" disk -t "$DEV" --json "$WORK/sp.json"
            expect_err_grep "sparse backing file: warned" "^warning: sparse_file: $DEV: the data -t reads has a hole at byte 0 \\(read as zeros from no disk"
            expect_py "sparse backing file: the text's warnings are the JSON's caveats" "$WORK/sp.json" "$WORK/err" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
w = [l[len("warning: "):].rstrip("\n") for l in open(sys.argv[2]) if l.startswith("warning: ")]
assert w and w == ["%s: %s" % (c["key"], c["text"]) for c in d["caveats"]], (w, d["caveats"])
PY
            expect_json "sparse backing file: the caveat" "$WORK/sp.json" "$WORK/out" '
c = d["caveats"]
assert [x["key"] for x in c if x["key"] != "busy"] == ["sparse_file"], c
assert c[0]["evidence"]["first_hole_byte"] == 0, c
assert d["results"][0]["buffered"]["runs"][0]["first_hole_byte"] == 0'
        else
            skip "sparse backing file: $(cat "$WORK/losetup.err")"
        fi
    else
        skip "buffered loop device (it came up in direct-I/O mode)"
    fi
else
    skip "buffered loop device: $(cat "$WORK/losetup.err")"
fi

# ---- an I/O error on the device mid-read ----
if have_strace; then
    expect_rc "$L: EIO on the fifth read" 1 inject_eio "$L" 5 "$KBENCH" disk -t "$L"
    expect_err_grep "$L: EIO: how far" "$L: buffered disk reads: read error at byte 8388608 after 8\\.00 MB"
else
    skip "I/O error injection (no working strace)"
fi

# ---- the device changes size during the run (its backing file resized and
# the loop device told, while kbench is stopped after its first timed
# read): said, no figure, exit 1 ----
if have_strace && losetup --help 2>&1 | grep -q -- '--set-capacity'; then
    dd if=/dev/urandom of="$WORK/img8" bs=1M count=8 status=none
    if attach "$WORK/img8" --direct-io=on; then
        R=$DEV
        for c in "4M 4194304 , the data ended at byte 4194304" "16M 16777216 "; do
            set -- $c
            size=$1 bytes=$2
            shift 2
            ended="$*"
            # written whole again: data, not a hole where the cut was
            dd if=/dev/urandom of="$WORK/img8" bs=1M count=8 status=none && losetup -c "$R"
            resize_during "$R" "truncate -s $size \"\$WORK/img8\" && losetup -c \"\$R\"" \
                "$KBENCH" disk -t "$R"
            expect_resized "$R resized to $size during -t" "$R" "buffered disk reads" "$bytes" "$ended"
        done
    else
        skip "a resized loop device: $(cat "$WORK/losetup.err")"
    fi
else
    skip "a resized loop device (no working strace or no losetup --set-capacity)"
fi

# ---- the sequence of a run: flush, idle pause, then the timed reads ----
if have_strace; then
    # the real pause once for each test (disk-file.sh has -t's 3 s on a file)
    expect_eq "$L: -T: flush, 1 s pause, reads of 2 MiB" "$(run_sequence --real-pause -T "$L")" \
        "flush pause1 lseek read2097152"
    expect_eq "$L: -t: flush, the pause, reads of 2 MiB" "$(run_sequence -t "$L")" \
        "flush pause0 lseek read2097152"
    expect_eq "$L: --direct -t: flush, the pause, reads of 2 MiB" "$(run_sequence -t --direct "$L")" \
        "flush pause0 lseek read2097152"
else
    skip "the sequence of a run (no working strace)"
fi

# ---- the device's settings (hdparm DEV): sysfs, read here independently ----
N=${L#/dev/}
expect_rc "$L: --info" 0 "$KBENCH" disk --info "$L"
expect_out_grep "--info: header" "^$L:\$"
expect_out_grep "--info: the sysfs name" "^ device        = $N\$"
expect_out_grep "--info: size in bytes" "^ size          = $(( $(cat /sys/block/$N/size) * 512 )) bytes \\(64\\.0 MiB, MiB = 2\\^20 bytes\\)\$"
expect_out_grep "--info: read-ahead as blockdev --getra counts it" "^ readahead     = $(cat /sys/block/$N/queue/read_ahead_kb) KiB \\($(blockdev --getra "$L") sectors of 512 bytes, hdparm -a\\)\$"
expect_out_grep "--info: the scheduler in use" "^ scheduler     = $(sed -E 's/.*\[([^]]*)\].*/\1/' /sys/block/$N/queue/scheduler)\$"
expect_out_grep "--info: rotational" "^ rotational    = $(cat /sys/block/$N/queue/rotational) "
expect_out_grep "--info: nr_requests" "^ nr_requests   = $(cat /sys/block/$N/queue/nr_requests) "
expect_out_grep "--info: write cache" "^ write cache   = $(cat /sys/block/$N/queue/write_cache)\$"
expect_out_grep "--info: the loop's backing file" "^ backing file  = $IMG\$"
expect_true "the results JSON holds the settings" test "$(jget "$WORK/both.json" '(lambda i: (i["name"], i["size_bytes"], i["read_ahead_sectors"], i["backing_file"]))(d["results"][0]["device_info"])')" = "('$N', $(( $(cat /sys/block/$N/size) * 512 )), $(blockdev --getra "$L"), '$IMG')"
blockdev --setra 512 "$L"
expect_rc "$L: --info after blockdev --setra 512" 0 "$KBENCH" disk --info "$L"
expect_out_grep "--info: the new read-ahead" '^ readahead     = 256 KiB \(512 sectors of 512 bytes, hdparm -a\)$'

# ---- read-only: the backing file is untouched ----
expect_true "backing file unchanged" [ "$(cksum <"$IMG")" = "$SUM_BEFORE" ]

finish
