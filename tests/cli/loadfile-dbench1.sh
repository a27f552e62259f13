#!/bin/sh
# kbench - command-line tests: the client.txt dbench 1 shipped (1999), as
# it is (gzip) and unpacked: --check agrees with an awk count made from the
# format's rules, and two clients replay it as dbench 1 did: a result, with
# only the mismatches the trace itself cannot explain named
# SPDX-License-Identifier: GPL-3.0-or-later
#
# The trace is not part of kbench: it is read from ../shared/data/ beside
# the source tree, or from KBENCH_DBENCH1_TRACE.  Without it the test says
# it skipped.
. "$(dirname "$0")/lib.sh"

TRACE=${KBENCH_DBENCH1_TRACE:-$KBENCH_TOP_SRCDIR/../shared/data/dbench1-client.txt.gz}
if [ ! -r "$TRACE" ]; then
    skip "skipped: no dbench 1 client.txt at $TRACE"
    finish
fi
AWK_COUNT="$KBENCH_TOP_SRCDIR/tests/cli/smbtrace.awk"
D="$WORK/dir"
mkdir -p "$D"
gzip -dc "$TRACE" >"$WORK/client.txt"
PLAIN="$WORK/client.txt"

# the operation rows of --check, as "op NAME COUNT" sorted, then the bytes
# (MB, from its two lines) and the ignored lines
check_figures() {
    sed -n 's/^ \([A-Za-z_]*\) *\([0-9][0-9]*\) *[0-9.]*%$/op \1 \2/p' "$WORK/out" | sort
    r=$(sed -n 's/^bytes read: *\([0-9.]*\) MB.*/\1/p' "$WORK/out")
    w=$(sed -n 's/^bytes written: *\([0-9.]*\) MB.*/\1/p' "$WORK/out")
    echo "bytes $r $w"
    sed -n 's/^lines: .* \([0-9][0-9]*\) ignored.*/ignored \1/p' "$WORK/out"
}
awk -f "$AWK_COUNT" "$PLAIN" >"$WORK/awk.all"
grep '^op ' "$WORK/awk.all" | sort >"$WORK/theirs"
grep -E '^(bytes|ignored) ' "$WORK/awk.all" >>"$WORK/theirs"
total=$(sed -n 's/^bytes_total //p' "$WORK/awk.all")
written=$(sed -n 's/^bytes_written //p' "$WORK/awk.all")
nops=$(awk '/^op / { s += $3 } END { print s }' "$WORK/awk.all")

# the awk count itself: what dbench 1's Throughput line assumed (132 MB
# moved per client), and every kind of line the trace has
expect_eq "awk: 132 MB read and written per client, as dbench 1 assumed ($total bytes)" $((total / 1000000)) 132
expect_true "awk: $nops operations per pass" [ "$nops" -gt 40000 ]

for f in "$TRACE" "$PLAIN"; do
    case $f in *.gz) k=gzip ;; *) k=plain ;; esac
    run "$KBENCH" load --check "$f"
    expect_status "$k: --check exits 0" 0
    expect_empty_file "$k: --check: no message" "$WORK/err"
    expect_out_grep "$k: read as dbench 1" 'dbench1 format, valid'
    check_figures >"$WORK/mine"
    expect_same_file "$k: --check counts, bytes, ignored lines = awk" "$WORK/mine" "$WORK/theirs"
done
run "$KBENCH" load --check "$PLAIN"
expect_out_grep "locks with no range listed" '^  SMBlockingX \(no range\) +381 '
expect_out_grep "QFILEINFO without a handle listed" '^  SMBtrans2 QFILEINFO \(no Handle\) +523 '
expect_out_grep "replies whose request is missing listed" '^  SMBgetatr REPLY without REQUEST +2 +\(first at line 208\)$'

# The mismatches left are in the trace: lines 49 and 70 are ERRbadfile
# replies for \NBSIMULD\READMIX.SEM (removed by something outside this
# client's trace) and \CLIENTS\CLIENT1\~DMTMP (made by the SMBmkdir lines
# added at the top of the file, before the traced client made it); line
# 18550 is an ERRbadfile open of LWPSAV0.TMP, which the trace created and
# never removed (the capture lost the requests that did).  dbench 1 acted
# on no ERR reply, so it never saw them.  Each happens once per pass.
# kbench replays the trace as dbench 1 did: they are mismatches, named in
# the report and the JSON and a caveat of the run, and the run is a result
# (a dbench 4 loadfile keeps its rule: load-failed.sh).
expected_lines="[(49, 'QUERY_PATH_INFORMATION', 'failure', 'success'), (70, 'QUERY_PATH_INFORMATION', 'failure', 'success'), (18550, 'NTCreateX', 'failure', 'success')]"
lines_of() {  # the error lines of a JSON document, without their counts
    jget "$1" 'sorted((e["line"], e["op"], e["expected"], e["got"]) for e in d["results"]["error_lines"])'
}

kload -q --run-once -c "$PLAIN" -D "$D" --json "$WORK/r.json" 2
expect_status "run-once: exits 0 (dbench 1 never checked a reply)" 0
expect_out_grep "run-once: says how many, as the trace's" \
    '^6 operations did not end as the trace recorded \(its tool never checked a reply'
expect_out_grep "run-once: a Throughput line" '^Throughput [0-9.]+ MB/sec  2 clients  2 procs'
expect_out_grep "run-once: the mismatches a warning" '^warning: mismatches: 6 operations'
expect_eq "run-once: only lines 49, 70, 18550 differ" "$(lines_of "$WORK/r.json")" "$expected_lines"
expect_eq "run-once: 0 errors, 6 mismatches, unchecked, no failure; 2 passes, 2 x the awk operations" \
    "$(jget "$WORK/r.json" 'tuple(d["results"][k] for k in ("errors", "mismatches", "statuses_checked", "failure", "passes", "ops_total"))')" \
    "(0, 6, False, None, 2, $((2 * nops)))"
expect_eq "run-once: the caveat in the document" \
    "$(jget "$WORK/r.json" '[c["evidence"]["mismatches"] for c in d["caveats"] if c["key"] == "mismatches"]')" "[6]"
# every write moves its size; a read counts what it read, which is its
# size but at the end of a file (dbench 1 did not check reads)
b=$(jget "$WORK/r.json" 'd["results"]["bytes"]')
if [ "$b" -ge $((2 * written)) ] && [ "$b" -le $((2 * total)) ] &&
   [ "$b" -ge $((2 * total * 99 / 100)) ]; then
    pass "run-once: bytes between the writes' and the awk total, within 1% of it ($b of $((2 * total)))"
else
    fail "run-once: bytes" "$b, expected in [$((2 * written)), $((2 * total))] and within 1% of the top"
fi
expect_empty_dir "run-once: directory left empty" "$D"

kload -q -t 3 --warmup 1 -c "$TRACE" -D "$D" --json "$WORK/t.json" 2
expect_status "timed: exits 0" 0
# the run may stop anywhere in a pass: the lines that failed are some of
# the three, the first two among them (reached in the first second)
e=$(jget "$WORK/t.json" 'str(sorted(set(e["line"] for e in d["results"]["error_lines"]) - {49, 70, 18550})) + " " + str({49, 70} <= set(e["line"] for e in d["results"]["error_lines"]))')
expect_eq "timed: only lines 49, 70 (and 18550) differ" "$e" "[] True" "$(jget "$WORK/t.json" 'd["results"]["error_lines"]')"
expect_empty_dir "timed: directory left empty" "$D"

finish
