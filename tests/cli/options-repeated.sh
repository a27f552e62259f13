#!/bin/sh
# kbench - command-line tests: a string option given twice counts with its
# last value in every command, and the first value is freed (under the
# sanitizer build, a leaked copy makes LeakSanitizer end kbench with
# another status than the one asserted here)
# SPDX-License-Identifier: GPL-3.0-or-later
. "$(dirname "$0")/lib.sh"

L="$DATA/small.txt"
cd "$WORK" || exit 1

# load: every string option twice; the last --format (auto) reads the
# file, the first (dbench1) would not
expect_rc "load: every string option twice, --check" 0 "$KBENCH" load \
    -c x -c "$L" -D a -D b -t 1 -t 2 --warmup 0 --warmup 1 --json x --json y \
    --mem-limit 1M --mem-limit 2M --format dbench1 --format auto --check "$L"
expect_out_grep "load: the last --format counts" ': dbench4 format, valid$'
expect_rc "load: --format dbench1 alone refuses the file" 2 "$KBENCH" load --format dbench1 --check "$L"
expect_rc "load: repeated options, then bad input" 2 "$KBENCH" load \
    -t 1 -t 2 -D a -D b --warmup 1 --warmup 0 -c "$L" -c "$L" 0
expect_err_grep "load: the bad input is named" 'NCLIENTS must be a whole number of at least 1'

# disk: the last --offset counts (the first is not a size)
expect_rc "disk: repeated options, no device" 2 "$KBENCH" disk \
    --runs 0 --runs 1 --offset x --offset 0 --json a --json b
expect_err_grep "disk: the last values count" 'missing DEVICE or FILE to time'

# micro: the last --family counts
expect_rc "micro: repeated options, --list" 0 "$KBENCH" micro \
    --family byte --family lmbench --enough 1ms --enough 2ms --duration 1 --duration 2 \
    --copies 1 --copies 2 --baseline byte4 --baseline unixbench5 --json a --json b --list
expect_no_grep "micro: the last --family counts: no byte test" "$WORK/out" '^byte_'
expect_out_grep "micro: the last --family counts: the lmbench tests" '^lat_syscall_null '

# suite: repeated options, then an unexpected argument; --resume twice
expect_rc "suite: repeated options, then bad input" 2 "$KBENCH" suite \
    -D a -D b -c a -c b --clients 1 --clients 2 --runs 1 --runs 2 -t 1 -t 2 \
    --warmup 1 --warmup 2 --disk a --disk b --micro=a --micro=b --pause 0 --pause 1 \
    --mem-limit 1M --mem-limit 2M --label a --label b -o a -o b \
    --format text --format text extra
expect_err_grep "suite: the bad input is named" "unexpected argument 'extra'"
expect_rc "suite: --resume twice" 2 "$KBENCH" suite --resume first.json --resume second.json
expect_err_grep "suite: the last --resume counts" '^kbench suite: second.json: '

# compare: the last --plot counts (the first has no .svg or .png)
expect_rc "compare: repeated options, one file short" 2 "$KBENCH" compare \
    --confidence 90 --confidence 95 --sort name --sort change --style table --style lkml \
    --plot a --plot b.svg
expect_err_grep "compare: the last values count" 'give at least two results files'

# server: the last --port counts (the first is no port)
expect_rc "server: repeated options, a bad last value" 2 "$KBENCH" server \
    --address a --address b -T BOGUS -T TCP_NODELAY --port x --port 70000
expect_err_grep "server: the last --port counts" "kbench server: --port '70000'"
expect_rc "server: repeated limits, a bad last value" 2 "$KBENCH" server --port 0 \
    --idle-timeout x --idle-timeout 1 --max-connections x --max-connections 0
expect_err_grep "server: the last --max-connections counts" "kbench server: --max-connections '0'"

# load -B sockio: the last --server counts
expect_rc "load -B sockio: repeated target options, then bad input" 2 "$KBENCH" load \
    -B fileio -B sockio --server a --server 127.0.0.1:x -T BOGUS -T TCP_NODELAY -c "$L" 1
expect_err_grep "load -B sockio: the last --server counts" "bad port 'x'"

finish
