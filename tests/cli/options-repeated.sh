#!/bin/sh
# kbench - command-line tests: an option that takes one value, given twice,
# is refused with one line naming it in every command (never the last value
# kept without a word), before anything runs; the personalities keep the
# last, as the tools they stand in for (popt's way) do.  Under the
# sanitizer build a leaked first copy makes LeakSanitizer end kbench with
# another status than the one asserted here.
# SPDX-License-Identifier: GPL-3.0-or-later
. "$(dirname "$0")/lib.sh"

L="$DATA/small.txt"
cd "$WORK" || exit 1

# twice NAME OPTION-WORDS CMD...: the command refuses OPTION given twice
twice() {
    tname=$1 topt=$2
    shift 2
    expect_bad "$tname" "^kbench [a-z]+: $topt given twice: it takes one value; give it once" "$@"
}

# load: each kind of string option; the run never starts
twice "load: -D" "-D/--directory" "$KBENCH" load -D a -D b -t 1 "$L" 1
expect_true "load: no directory made" test ! -e a -a ! -e b
twice "load: -t" "-t/--timelimit" "$KBENCH" load -t 1 -t 2 --check "$L"
twice "load: --json, = and a blank" "--json" "$KBENCH" load --json=x --json y --check "$L"
expect_true "load: no JSON written" test ! -e x -a ! -e y
twice "load: --format" "--format" "$KBENCH" load --format dbench1 --format auto --check "$L"
twice "load: --mem-limit" "--mem-limit" "$KBENCH" load --mem-limit 1M --mem-limit 2M --check "$L"
twice "load: a backend's option" "--server" "$KBENCH" load -B sockio --server a --server b -c "$L" 1
expect_rc "load: each once, --check" 0 "$KBENCH" load -D a -t 1 --warmup 0 --format auto --check "$L"
expect_out_grep "load: each once reads the file" ': dbench4 format, valid$'

# disk, micro, server
twice "disk: --offset" "--offset" "$KBENCH" disk --offset 1M --offset 0 /dev/null
twice "micro: --family" "--family" "$KBENCH" micro --family byte --family lmbench --list
twice "server: --port" "-p/--port" "$KBENCH" server --port 0 --port 1
twice "server: -T" "-T/--tcp-options" "$KBENCH" server -T TCP_NODELAY -T TCP_NODELAY --port 0

# suite: its own options, load's passed through, --micro (a list), --resume
twice "suite: -D" "-D/--directory" "$KBENCH" suite -D a -D b --runs 1
twice "suite: -o" "-o/--output" "$KBENCH" suite -o a.json -o b.json --runs 1
expect_true "suite: no results file made" test ! -e a.json -a ! -e b.json
twice "suite: --format" "--format" "$KBENCH" suite --format text --format text
twice "suite: load's -R passed through" "-R/--target-rate" "$KBENCH" suite -R 1 -R 2 --runs 1
twice "suite: --resume" "--resume" "$KBENCH" suite --resume first.json --resume second.json
expect_bad "suite: --micro twice" '^kbench suite: --micro given twice: it takes one list; give it once' \
    "$KBENCH" suite --micro=lat_syscall_null --micro=lat_pipe --runs 1

# compare, import
twice "compare: --control" "--control" "$KBENCH" compare --control x --control y a b
twice "compare: --plot" "--plot" "$KBENCH" compare --plot a.svg --plot b.svg a b
twice "import: -o" "-o/--output" "$KBENCH" import -o a.json -o b.json x
twice "import: --clients" "--clients" "$KBENCH" import --clients 1 --clients 2 -o a.json x
expect_bad "import: --clients 0, as -1" '^kbench import: --clients 0: give a count of 1 or more' \
    "$KBENCH" import --clients 0 -o a.json x
expect_bad "import: --clients 1.5" '^kbench import: --clients 1\.5: give a count of 1 or more' \
    "$KBENCH" import --clients 1.5 -o a.json x

# the dbench personality: dbench's own parse keeps the last -t (the
# first is no time: refused, it would end the run before it starts)
mkdir pers
ln -s "$KBENCH" pers/dbench
expect_rc "dbench: -t twice, the last counts" 0 pers/dbench -c "$L" -t x -t 1 -D pers 1
expect_out_grep "dbench: a run of the last -t, its Throughput line" '^Throughput [0-9.]+ MB/sec'

finish
