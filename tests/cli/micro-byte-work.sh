#!/bin/sh
# kbench - command-line tests: BYTE's work in kbench micro's BYTE tests,
# counted, never timed: the execl helper's chain of images and its count,
# the shell jobs' input (its size, one per job) and their number
# SPDX-License-Identifier: GPL-3.0-or-later
. "$(dirname "$0")/lib.sh"

HELPER="$(dirname "$KBENCH")/kbench-execl"
mkdir -p "$WORK/tmp"

# ---- kbench-execl: count, look at the stop pipe, exec again ----
expect_true "the helper is built beside kbench" test -x "$HELPER"
# fd 3 at end of file (/dev/null, readable at once): the first image stops and reports itself
run sh -c '"$1" 0 3</dev/null 4>&1' sh "$HELPER"
expect_status "helper, stop at once: exit 0" 0
expect_eq "helper, stop at once: one image ran" "$(cat "$WORK/out")" "1"
# the counter is passed on: COUNT 41 given, the 42nd image stops
run sh -c '"$1" 41 3</dev/null 4>&1' sh "$HELPER"
expect_eq "helper: the count goes on from COUNT" "$(cat "$WORK/out")" "42"
# the stop pipe held open a while: the images chain (each an exec of the
# helper itself) until it closes
run sh -c 'sleep 1 | "$1" 0 3<&0 4>&1' sh "$HELPER"
expect_status "helper, a chain: exit 0" 0
expect_true "helper, a chain: more than one image ($(cat "$WORK/out"))" [ "$(cat "$WORK/out")" -gt 1 ]
expect_bad "helper without its descriptors" "kbench-execl: run by kbench micro's byte_execl only" \
    sh -c 'exec 3>&- 4>&-; exec "$1" 0' sh "$HELPER"
expect_bad "helper, a bad COUNT" "kbench-execl: COUNT must be a whole number, not 'x'" \
    sh -c '"$1" x 3</dev/null 4>/dev/null' sh "$HELPER"

# ---- byte_execl through kbench micro: a figure, the difference named ----
TMPDIR="$WORK/tmp" run "$KBENCH" micro --quick --json "$WORK/e.json" byte_execl
expect_status "byte_execl: exit 0" 0
expect_eq "byte_execl: a positive figure" \
    "$(jget "$WORK/e.json" 'd["results"]["tests"][0]["value"] > 0')" "True"
expect_out_grep "byte_execl: what still differs, in the report" \
    "^\\(against UnixBench 5\\.1\\.3, Execl Throughput: its image, kbench-execl, lacks "
# a binary that is not in a build tree and no installed helper: skipped,
# the helper named
mkdir -p "$WORK/bin"
cp "$KBENCH" "$WORK/bin/kbench"
TMPDIR="$WORK/tmp" run "$WORK/bin/kbench" micro --quick --json "$WORK/n.json" byte_execl
if [ -e /usr/local/libexec/kbench/kbench-execl ]; then
    skip "no helper: an installed one is there"
else
    expect_eq "no helper: the test skipped with its reason" \
        "$(jget "$WORK/n.json" '"kbench-execl" in d["results"]["tests"][0].get("skipped", "")')" "True"
fi

# ---- byte_shell8: each job sorts the 8546-byte input once ----
# a sort first in PATH notes the size of what it sorts from its standard
# input (the job's first sort) and then sorts it
mkdir -p "$WORK/path" "$WORK/sorts"
REAL_SORT=$(command -v sort)
cat >"$WORK/path/sort" <<EOS
#!/bin/sh
if [ \$# -eq 0 ]; then
    f=\$(mktemp "$WORK/sorts/in.XXXXXX") || exit 1
    cat >"\$f" && exec "$REAL_SORT" "\$f"
fi
exec "$REAL_SORT" "\$@"
EOS
chmod +x "$WORK/path/sort"
TMPDIR="$WORK/tmp" run env PATH="$WORK/path:$PATH" "$KBENCH" micro --quick byte_shell8
expect_status "byte_shell8: exit 0" 0
n=$(find "$WORK/sorts" -type f | wc -l | tr -d ' ')
sizes=$(find "$WORK/sorts" -type f -exec wc -c {} + | awk '$2 != "total" { print $1 }' | sort -u | tr '\n' ' ')
expect_true "byte_shell8: jobs ran ($n sorts of the input)" [ "$n" -ge 8 ]
expect_eq "byte_shell8: 8 jobs a loop (sorts of the input a multiple of 8: $n)" "$((n % 8))" "0"
expect_eq "byte_shell8: every job's input is 8546 bytes, as BYTE's sort.src" "$sizes" "8546 "
expect_out_grep "byte_shell8: what still differs, in the report" \
    "^\\(against UnixBench 5\\.1\\.3, Shell Scripts: the input is kbench's own text of 8546 bytes"
expect_empty_dir "nothing left in the temporary directory" "$WORK/tmp"
finish
