#!/bin/sh
# kbench - a load run with errors is a failed run in every output form:
# no line starting "Throughput" (nor dbench-machine's ";" record), a line
# saying what failed, exit status 1, and the figures kept in the JSON
# document with results.failure saying why; a clean run keeps its line
# SPDX-License-Identifier: GPL-3.0-or-later
. "$(dirname "$0")/lib.sh"
cd "$WORK" || exit 1
trap 'umount "$WORK/small" "$WORK/tiny" 2>/dev/null; rm -rf "$WORK"' EXIT
mkdir d

# no_figure NAME: the last run printed no line a harness takes for a figure
no_figure() {
    expect_lines "$1: no Throughput line" -eq 0 "$WORK/out" '^Throughput'
    expect_lines "$1: no dbench-machine record" -eq 0 "$WORK/out" '^;'
    expect_empty_dir "$1: DIR cleaned" d
}

# ---- lines 4 and 5 of wrong-expect.txt never end as the loadfile says ----
kload -q --run-once --warmup 0 -D d -c "$DATA/wrong-expect.txt" --json w.json 1
expect_status "errors: exit 1" 1
no_figure "errors"
expect_out_grep "errors: the last line says what failed" \
    '^Failed after [0-9.]+ s measured: [0-9.e+-]+ MB/sec \(not a result: 2 operations did not end as the loadfile expects\)  1 clients  1 procs'
expect_eq "errors: the JSON says why" "2 operations did not end as the loadfile expects" \
    "$(jget w.json 'd["results"]["failure"]')"
expect_eq "errors: the JSON keeps the figure" "True" \
    "$(jget w.json 'isinstance(d["results"]["throughput_MBps"], float)')"

for form in dbench dbench-machine; do
    kload -q --run-once --warmup 0 -D d -c "$DATA/wrong-expect.txt" --output-form $form 1
    expect_status "$form: exit 1" 1
    no_figure "$form"
    expect_out_grep "$form: says what failed" \
        '^kbench: no throughput figure: 2 operations did not end as the loadfile expects$'
done

# ---- a clean run: the Throughput line, failure null ----
kload -q --run-once --warmup 0 -D d -c "$DATA/small.txt" --json c.json 1
expect_status "clean: exit 0" 0
expect_lines "clean: one Throughput line" -eq 1 "$WORK/out" '^Throughput [0-9.e+-]+ MB/sec  1 clients  1 procs'
expect_eq "clean: failure is null" "None" "$(jget c.json 'd["results"]["failure"]')"

# ---- a filesystem that fills (root only: a 4 MiB tmpfs) ----
mkdir small
if mount -t tmpfs -o size=4m tmpfs small 2>/dev/null; then
    kload -q -t 1 --warmup 0 -D small --json f.json 2
    expect_status "full: exit 1" 1
    expect_lines "full: no Throughput line" -eq 0 "$WORK/out" '^Throughput'
    expect_out_grep "full: the last line says what failed" \
        '^Failed after [0-9.]+ s measured: .*\(not a result: [0-9]+ operations did not end as the loadfile expects\)'
    expect_out_grep "full: the errors are listed" 'WriteX expected success, failed: No space left on device'
    expect_true "full: the JSON's failure names the errors" \
        grep -q '"failure": "[0-9]* operations did not end' f.json
    expect_empty_dir "full: DIR cleaned" small
    umount small
else
    skip "full: cannot mount a tmpfs (not root)"
fi

# ---- a clean run whose --json cannot be written (a full tmpfs) ----
mkdir tiny
if mount -t tmpfs -o size=8k tmpfs tiny 2>/dev/null; then
    dd if=/dev/zero of=tiny/fill bs=4k count=2 2>/dev/null
    for form in kbench dbench dbench-machine; do
        kload -q --run-once --warmup 0 -D d -c "$DATA/small.txt" --json tiny/r.json --output-form $form 1
        expect_status "--json lost, $form: exit 1" 1
        no_figure "--json lost, $form"
        expect_err_grep "--json lost, $form: said" '^kbench load: tiny/r\.json: cannot write: No space left on device$'
    done
    expect_out_grep "--json lost: the last line says why" \
        '^kbench: no throughput figure: the JSON document could not be written$'
    kload -q --run-once --warmup 0 -D d -c "$DATA/small.txt" --json tiny/r.json 1
    expect_out_grep "--json lost, text: the figure is no result" \
        '^Failed after [0-9.]+ s measured: .*\(not a result: the JSON document could not be written\)'
    expect_true "--json lost: no file left behind" test ! -e tiny/r.json
    umount tiny
else
    skip "--json lost: cannot mount a tmpfs (not root)"
fi

# ---- the report lost to a full standard output: said once ----
if [ -c /dev/full ]; then
    "$KBENCH" load -q --run-once --warmup 0 -D d -c "$DATA/small.txt" 1 >/dev/full 2>"$WORK/err"
    RC=$?
    expect_eq "stdout full: exit 1" "$RC" 1
    expect_lines "stdout full: 'cannot write the report' said once" -eq 1 "$WORK/err" \
        '^kbench load: cannot write the report: No space left on device$'
    "$KBENCH" load --run-once --warmup 0 -D d -c "$DATA/small.txt" 1 >/dev/full 2>"$WORK/err"
    expect_lines "stdout full, banner and progress too: said once" -eq 1 "$WORK/err" \
        'cannot write the report'
    expect_empty_dir "stdout full: DIR cleaned" d
fi

finish
