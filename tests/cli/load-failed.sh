#!/bin/sh
# kbench - a load run with errors is a failed run in every output form:
# no line starting "Throughput" (nor dbench-machine's ";" record), a line
# saying what failed, exit status 1, and the figures kept in the JSON
# document with results.failure saying why; a clean run keeps its line
# SPDX-License-Identifier: GPL-3.0-or-later
. "$(dirname "$0")/lib.sh"
cd "$WORK" || exit 1
trap 'umount "$WORK/small" 2>/dev/null; rm -rf "$WORK"' EXIT
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

finish
