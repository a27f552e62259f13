#!/bin/sh
# kbench - command-line tests: kbench load's throughput counts only the
# bytes of operations that ended as their loadfile line expects; a ReadX
# or WriteX that moves another size than the line's ret_size is a failed
# operation, counted against its line (as dbench's fileio does)
# SPDX-License-Identifier: GPL-3.0-or-later
. "$(dirname "$0")/lib.sh"

D="$WORK/dir"
mkdir -p "$D"

# bytes of every ReadX and WriteX that ended as expected, from the JSON
counted() {
    jget "$WORK/r.json" "d['results']['bytes']"
}

# a read past the end of what was written returns fewer bytes than the
# line expects: a failure, and its bytes are not throughput
cat >"$WORK/short.txt" <<'EOT'
NTCreateX "\clients\client1\f.dat" 0x0 0x5 1 NT_STATUS_OK
WriteX 1 0 1000 1000 NT_STATUS_OK
ReadX 1 0 1000 1000 NT_STATUS_OK
ReadX 1 500 1000 1000 NT_STATUS_OK
ReadX 1 500 1000 500 NT_STATUS_OK
ReadX 1 4000 1000 1000 NT_STATUS_OK
ReadX 1 4000 1000 0 NT_STATUS_OK
Close 1 NT_STATUS_OK
EOT
kload -q --run-once --json "$WORK/r.json" -c "$WORK/short.txt" -D "$D" 1
expect_status "short reads: exit 1" 1
expect_out_grep "a short read is counted against its line" \
    "short.txt:4: ReadX expected success, failed: moved another size than the line's ret_size \\(1 times\\)"
expect_out_grep "a read past the end is counted against its line" \
    "short.txt:6: ReadX expected success, failed: moved another size than the line's ret_size \\(1 times\\)"
expect_no_grep "reads of the expected size are not errors" "$WORK/out" 'short.txt:(2|3|5|7):'
expect_eq "two errors in all" "$(jget "$WORK/r.json" "d['results']['errors']")" 2
# counted: the WriteX (1000) and what the reads of lines 3, 5 and 7 read
# (1000, 500 and 0: their ret_size)
expect_eq "only the ops that ended as expected are counted (2500 bytes)" "$(counted)" 2500
expect_empty_dir "short reads: cleaned up" "$D"

# a read whose line expects fewer bytes than it asks for counts what it
# read (its ret_size), not the size asked for: 64 MiB asked of an empty
# file, 0 expected and 0 read, is no data moved
cat >"$WORK/asked.txt" <<'EOT'
NTCreateX "\clients\client1\empty" 0x0 0x5 1 NT_STATUS_OK
ReadX 1 0 67108864 0 NT_STATUS_OK
ReadX 1 0 67108864 0 NT_STATUS_OK
Close 1 NT_STATUS_OK
EOT
kload -q --run-once --json "$WORK/r.json" -c "$WORK/asked.txt" -D "$D" 1
got=$(counted)
expect_true "reads that expect nothing: exit 0" [ "$RC" -eq 0 ]
expect_true "and count nothing (0 bytes, got $got)" [ "$got" = 0 ]

# a WriteX whose line expects another size than it asks for
cat >"$WORK/wsize.txt" <<'EOT'
NTCreateX "\clients\client1\f.dat" 0x0 0x5 1 NT_STATUS_OK
WriteX 1 0 1000 999 NT_STATUS_OK
WriteX 1 0 1000 1000 NT_STATUS_OK
Close 1 NT_STATUS_OK
EOT
kload -q --run-once --json "$WORK/r.json" -c "$WORK/wsize.txt" -D "$D" 1
expect_out_grep "a WriteX of another size than expected is counted" \
    "wsize.txt:2: WriteX expected success, failed: moved another size than the line's ret_size"
expect_eq "its bytes are not counted (1000 bytes)" "$(counted)" 1000

# an op that succeeds where its line expects a failure moves no counted bytes
cat >"$WORK/unexpected.txt" <<'EOT'
NTCreateX "\clients\client1\f.dat" 0x0 0x5 1 NT_STATUS_OK
WriteX 1 0 3000 3000 NT_STATUS_DISK_FULL
Close 1 NT_STATUS_OK
EOT
kload -q --run-once --json "$WORK/r.json" -c "$WORK/unexpected.txt" -D "$D" 1
expect_out_grep "a success where a failure was expected is counted" \
    'unexpected.txt:2: WriteX expected failure, succeeded'
expect_eq "and its bytes are not throughput (0 bytes)" "$(counted)" 0

# dbench 1: an open gives the file the size its reply reports (written, as
# dbench 1 did), and a read counts what it read: 4096, then the 2000 bytes
# left before the end
cat >"$WORK/d1.txt" <<'EOT'
SMBopenX REQUEST Size 0 Path \CLIENTS\CLIENT1\F.DAT
SMBopenX REPLY Handle 5 Size 10000
SMBread REQUEST Handle 5 Offset 0 Size 4096
SMBread REPLY Count 4096
SMBreadbraw REQUEST Handle 5 Offset 8000 MaxCount 4096
SMBclose REQUEST Handle 5
SMBclose REPLY
EOT
kload -q --run-once --json "$WORK/r.json" -c "$WORK/d1.txt" -D "$D" 1
expect_status "dbench 1 reads: exit 0" 0
expect_eq "dbench 1 reads count what they read (6096 bytes)" "$(counted)" 6096

# a full file system: every WriteX fails, the reads of the empty file
# return nothing; no throughput may come of that
if [ "$(id -u)" -eq 0 ] && mkdir -p "$WORK/small" &&
   mount -t tmpfs -o size=64k kbench-test "$WORK/small" 2>/dev/null; then
    cat >"$WORK/full.txt" <<'EOT'
NTCreateX "\clients\client1\big" 0x0 0x5 1 NT_STATUS_OK
WriteX 1 0 1048576 1048576 NT_STATUS_OK
ReadX 1 0 1048576 1048576 NT_STATUS_OK
ReadX 1 0 1048576 1048576 NT_STATUS_OK
Close 1 NT_STATUS_OK
Unlink "\clients\client1\big" 0x6 NT_STATUS_OK
EOT
    kload -q -t 2 --warmup 0 --json "$WORK/r.json" -c "$WORK/full.txt" -D "$WORK/small" 1
    umount "$WORK/small"
    expect_status "full disk: exit 1" 1
    expect_out_grep "full disk: the reads are failures" \
        "full.txt:3: ReadX expected success, failed: moved another size than the line's ret_size"
    expect_eq "full disk: no bytes counted" "$(counted)" 0
    expect_out_grep "full disk: a failed 0, not thousands of MB/sec" \
        '^Failed after [0-9.]+ s measured: 0(\.0+)? MB/sec \(not a result: '
    expect_lines "full disk: no Throughput line" -eq 0 "$WORK/out" '^Throughput'
else
    skip "full disk (needs root to mount a small tmpfs)"
fi

finish
