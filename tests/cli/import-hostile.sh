#!/bin/sh
# kbench - command-line tests: kbench import given hostile input and
# hostile -o names: where it writes, bytes no tool prints, rows too long
# for a line buffer, figures no measurement gives, text that would act on
# a terminal, and a large file read in linear time
# SPDX-License-Identifier: GPL-3.0-or-later
. "$(dirname "$0")/lib.sh"

cd "$WORK" || exit 1
names() { jget "$1" '[t["name"] for t in d["tests"]]'; }
runs() { jget "$1" "[[r['value'] for r in t['runs']] for t in d['tests'] if t['name'] == '$2']"; }

printf 'dbench version 4.00\nThroughput 590.5 MB/sec  10 clients  10 procs  max_latency=12.3 ms\n' >d.txt
printf 'dbench version 4.00\nThroughput 7 MB/sec 6 procs\n' >figs0.txt

# ---- where it writes ----
mkfifo fifo
expect_rc "-o a FIFO is refused" 2 "$KBENCH" import -o fifo d.txt
expect_err_grep "and said so" "-o fifo: not a regular file"
expect_true "the FIFO is still one" test -p fifo
cp d.txt r.txt
expect_rc "-o the report itself is refused" 2 "$KBENCH" import -o r.txt r.txt
expect_err_grep "naming it" "-o r.txt: that is r.txt"
expect_eq "the report is untouched" "$(cmp d.txt r.txt && echo same)" "same"
ln -s elsewhere.json link.json
expect_rc "-o a symbolic link is refused" 2 "$KBENCH" import -o link.json d.txt
expect_true "its target is not made" test ! -e elsewhere.json
if [ -c /dev/full ]; then
    expect_rc "-o a character device is refused" 2 "$KBENCH" import -o /dev/full d.txt
    expect_err_grep "and said so" "-o /dev/full: not a regular file"
fi
echo "my notes" >notes.txt
expect_bad "-o an ordinary text file is refused" '^kbench import: -o notes\.txt: a file that is no kbench results file; kbench import replaces only those$' \
    "$KBENCH" import -o notes.txt d.txt
expect_eq "its text is kept" "$(cat notes.txt)" "my notes"
printf '{"a": 1}\n' >other.json
expect_bad "-o another program's JSON is refused" '^kbench import: -o other\.json: a file that is no kbench results file' \
    "$KBENCH" import -o other.json d.txt
expect_rc "-o a results file import wrote" 0 "$KBENCH" import -o mine.json d.txt
expect_rc "is replaced by the next import" 0 "$KBENCH" import -o mine.json figs0.txt
expect_eq "with the new figures" "$(names mine.json)" "['dbench 6']"
: >empty.json
expect_rc "-o an empty file (mktemp's) is written" 0 "$KBENCH" import -o empty.json d.txt
expect_eq "with the figures" "$(names empty.json)" "['dbench 10']"
mkdir -p dest/sub
expect_rc "--kernel .. with %k in a directory part" 2 "$KBENCH" import --kernel .. -o 'dest/sub/%k/r.json' d.txt
expect_true "nothing written one floor up" test ! -e dest/r.json
expect_rc "--kernel .. with %k as the file name" 0 "$KBENCH" import --kernel .. -o 'dest/%k.json' d.txt
expect_true "a name of its own, not a hidden file" test -f dest/_...json
printf '==========\n133 MHz Pentium, 32M\n1.0_x-3:\nhdparm -T 1\n1.0_x:\nhdparm -T 2\n1.0 x:\nhdparm -T 3\n' >k.txt
mkdir k
expect_rc "three kernels whose names make the same file name" 0 "$KBENCH" import -o 'k/c-%k.json' k.txt
expect_eq "are three files, each its own figure" \
    "$(for f in k/*.json; do jget "$f" '(d["system"]["kernel"], d["tests"][0]["runs"][0]["value"])'; done | sort | tr '\n' ' ')" \
    "('1.0 x', 3.0) ('1.0_x', 2.0) ('1.0_x-3', 1.0) "
expect_rc "-o -: the JSON alone on stdout" 0 "$KBENCH" import -o - d.txt
expect_eq "stdout parses" "$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["tests"][0]["name"])' "$WORK/out")" "dbench 10"
expect_err_grep "the summary goes to stderr" "^-: 1 tests, 1 figures"

# ---- bytes and lengths ----
printf '/dev/sda:\n Timing buffered disk reads: 64 MB in 1.0 seconds = 37\00010 MB/sec\n' >nul.txt
expect_rc "a line holding a NUL byte: nothing read" 1 "$KBENCH" import -o nul.json nul.txt
expect_err_grep "it is named" "nul.txt:2: skipped: the line holds a NUL byte"
printf '{"x":0,"dbench.throughput_MB/s": 1\0000}\n' >nul-lkp.json
expect_rc "a NUL byte in LKP JSON is bad input" 2 "$KBENCH" import --clients 4 -o x.json nul-lkp.json
expect_err_grep "named" "nul-lkp.json:1: a NUL byte inside the JSON"
row=$(python3 -c 'print(" ".join(["9876543210"] + [str(i) for i in range(2, 201)]))')
printf '==========\n133 MHz Pentium, DMA, 32M\n2.2.16:\ndbench 5 %s\n' "$row" >long.txt
expect_rc "a 200-figure row" 0 "$KBENCH" import -o long.json long.txt
expect_eq "every figure kept, the first whole" \
    "$(jget long.json '(len(d["tests"][0]["runs"]), d["tests"][0]["runs"][0]["value"], d["tests"][0]["runs"][199]["value"])')" \
    "(200, 9876543210.0, 200.0)"

# ---- figures and words ----
printf 'dbench version 4.00\nThroughput 0x10 MB/sec 2 procs\nThroughput -5 MB/sec 3 procs\nThroughput -0 MB/sec 4 procs\nThroughput 1e308 MB/sec 5 procs\nThroughput 7 MB/sec 6 procs\n' >figs.txt
expect_rc "hex, negative and huge figures" 0 "$KBENCH" import -o figs.json figs.txt
expect_eq "only the real figure kept" "$(names figs.json)" "['dbench 6']"
expect_err_grep "hex is not a figure" "figs.txt:2: skipped: a Throughput line without 'N MB/sec'"
expect_err_grep "a negative one is named" "figs.txt:3: skipped: dbench 3: -5 MB/s is a figure no measurement gives \\(negative\\)"
expect_err_grep "so is -0" "figs.txt:4: skipped: dbench 4: -0 MB/s is a figure no measurement gives"
expect_err_grep "and one too large" "figs.txt:5: skipped: dbench 5: 1e\\+308 MB/s is a figure no measurement gives \\(too large"
printf '$ ./dbench 8\nThroughput 5 MB/sec 0 procs\nThroughput 6 MB/sec -3 procs\nThroughput 7 MB/sec 1.5 procs\nThroughput 8 MB/sec 12345678901234567890 procs\nThroughput 9 MB/sec 8 procs\nThroughput 10 MB/sec  0 clients  8 procs\nThroughput 11 MB/sec  MBit/sec)  0\nprocs\n' >counts.txt
expect_rc "counts that are no counts under dbench 8" 0 "$KBENCH" import -o counts.json counts.txt
expect_eq "only the run with a count is kept" "$(jget counts.json '[(t["name"], [r["value"] for r in t["runs"]]) for t in d["tests"]]')" "[('dbench 8', [9.0])]"
expect_err_grep "0 procs: named" "^kbench import: counts\.txt:2: skipped: '0 procs' is no count of clients \(a whole number from 1 to 1000000\)$"
expect_err_grep "-3 procs: named" "^kbench import: counts\.txt:3: skipped: '-3 procs' is no count"
expect_err_grep "1.5 procs: named" "^kbench import: counts\.txt:4: skipped: '1\.5 procs' is no count"
expect_err_grep "20 digits: named" "^kbench import: counts\.txt:5: skipped: '12345678901234567890 procs' is no count"
expect_err_grep "0 clients: named" "^kbench import: counts\.txt:7: skipped: '0 clients' is no count"
expect_err_grep "0 with procs wrapped to the next line: named" "^kbench import: counts\.txt:8: skipped: '0 procs' is no count"
printf '$ ./dbench 8\nThroughput 5 MB/sec 0x10 procs\nThroughput 6 MB/sec -- procs\n' >hexcount.txt
expect_rc "a hex count" 0 "$KBENCH" import -o hexcount.json hexcount.txt
expect_err_grep "is no count: named" "^kbench import: hexcount\.txt:2: skipped: '0x10 procs' is no count"
expect_eq "and not taken for dbench 8; a dash is no number" "$(jget hexcount.json '[(t["name"], [r["value"] for r in t["runs"]]) for t in d["tests"]]')" "[('dbench 8', [6.0])]"
cp figs.json figs2.json
expect_rc "compare reads what import wrote" 0 "$KBENCH" compare figs.json figs2.json
printf '==========\nDual Athlon MP, 512\n2.4.18:\nhdparm -t 30.1 30.2\n' >mem.txt
expect_rc "a machine line ending in a bare number" 0 "$KBENCH" import -o mem.json mem.txt
expect_eq "is no memory size" "$(jget mem.json '(d["tests"][0]["name"], d["system"]["description"])')" \
    "('hdparm -t', 'Dual Athlon MP, 512')"
printf '/dev/sda:\n Timing buffered disk reads: 1000 MB in 2.00 seconds = 500.00 MB/sec\n/dev/sdb:\n Timing buffered disk reads: 200 MB in 2.00 seconds = 100.00 MB/sec\n' >two.txt
expect_rc "two devices" 0 "$KBENCH" import -o two.json two.txt
expect_eq "are two tests, never one pooled" "$(jget two.json '[(t["name"], [r["value"] for r in t["runs"]]) for t in d["tests"]]')" \
    "[('hdparm -t /dev/sda', [500.0]), ('hdparm -t /dev/sdb', [100.0])]"
printf '> dbench version 4.00\n> Throughput 33.5 MB/sec  4 clients  4 procs  max_latency=1 ms\n' >quoted.txt
expect_rc "a quoted report" 0 "$KBENCH" import -o quoted.json quoted.txt
expect_eq "is read without its quote marks" "$(runs quoted.json 'dbench 4')" "[[33.5]]"
printf 'dbench version 4.00\nThroughput 8 MB/sec 2 procs\nmax_latency: 12 ms on the new kernel\n' >prose.txt
expect_rc "a prose max_latency line does not stop the import" 0 "$KBENCH" import -o prose.json prose.txt
expect_eq "the figure is read" "$(runs prose.json 'dbench 2')" "[[8.0]]"
printf '{"dbench.throughput_MB/s": 300.5, "dbench.clients": 128}\n' >lkp-new.json
expect_rc "LKP's key of today, with its client count" 0 "$KBENCH" import -o lkp-new.out lkp-new.json
expect_eq "is dbench 128" "$(runs lkp-new.out 'dbench 128')" "[[300.5]]"
printf '{"dbench.throughput-MB/sec": [200.5, 201.5]}\n' >lkp-old.json
expect_rc "LKP's older key" 0 "$KBENCH" import --clients 8 -o lkp-old.out lkp-old.json
expect_eq "is read, two runs" "$(runs lkp-old.out 'dbench 8')" "[[200.5, 201.5]]"
expect_rc "--clients that the file's count contradicts" 1 "$KBENCH" import --clients 4 -o x.json lkp-new.json
expect_err_grep "is named, never written as dbench 4" "dbench.clients is not a client count, or not the one --clients gives"
printf '{"dbench.throughput_MB/s": 1, "dbench.throughput_MB/s": 2}\n' >dup.json
expect_rc "a key given twice is bad input" 2 "$KBENCH" import --clients 1 -o x.json dup.json
expect_err_grep "said on one line" "dup.json:1: .*duplicate"

# ---- the terminal ----
printf 'dbench version 4.00\nThroughput 1 MB/sec 1 procs\n' >esc.txt
expect_rc "a kernel name with an escape sequence" 0 "$KBENCH" import --kernel "$(printf 'x\033[2J')" -o esc.json esc.txt
expect_out_grep "reaches the terminal escaped" '\\x1b\[2J'
expect_eq "no raw ESC byte printed" "$(tr -dc '\033' <"$WORK/out" | wc -c)" "0"

# ---- time linear in the input ----
python3 -c '
import sys
with open("big.txt", "w") as f:
    f.write("dbench version 4.00\n")
    for i in range(40000):
        f.write("Throughput %d.5 MB/sec  %d procs\n" % (i % 1000 + 1, i % 7 + 1))
'
t0=$(date +%s)
expect_rc "40,000 Throughput lines under one banner" 0 "$KBENCH" import -o big.json big.txt
t1=$(date +%s)
expect_true "read in a few seconds, not minutes ($((t1 - t0)) s)" test $((t1 - t0)) -le 10
expect_eq "every line a run" "$(jget big.json 'sum(len(t["runs"]) for t in d["tests"])')" "40000"
# each skipped line's message in one write, not a write a byte
if command -v strace >/dev/null 2>&1; then
    python3 -c '
print("dbench version 4.00")
for i in range(2000): print("Throughput x MB/sec 2 procs")
print("Throughput 5 MB/sec 2 procs")' >skips.txt
    expect_rc "2,000 skipped lines under strace" 0 env ASAN_OPTIONS="$ASAN_NOLEAK" \
        strace -f -o skips.st -e trace=write "$KBENCH" import -o skips.json skips.txt
    expect_lines "every one named" -eq 2000 "$WORK/err" "^kbench import: skips\.txt:[0-9]+: skipped: "
    expect_true "in at most a write a line ($(grep -c 'write(2,' skips.st) writes)" test "$(grep -c 'write(2,' skips.st)" -le 2010
else
    skip "the writes of skipped lines (strace not installed)"
fi
finish
