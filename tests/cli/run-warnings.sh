#!/bin/sh
# kbench - the warnings kbench load and kbench micro print are their
# document's caveats: the same keys and texts in the text ("warning: KEY:
# TEXT" lines) and in the JSON "caveats" list, from real runs that
# trigger them (operations that do not end as the loadfile expects, a
# micro test that fails) and from clean ones
# SPDX-License-Identifier: GPL-3.0-or-later
. "$(dirname "$0")/lib.sh"
cd "$WORK" || exit 1
mkdir d

# same_caveats NAME TEXT JSON [KEY]: every "warning: KEY: TEXT" line of
# the file TEXT is one entry of the JSON document's caveats, in order, and
# nothing else is; KEY (if given) is among them
same_caveats() {
    expect_py "$1: text and JSON list the same caveats" "$2" "$3" "${4:-}" <<'PY'
import json, re, sys
text, doc, want = sys.argv[1], sys.argv[2], sys.argv[3]
lines = [l.rstrip("\n") for l in open(text) if l.startswith("warning: ")]
got = []
for l in lines:
    m = re.match(r"warning: ([a-z_]+): (.*)$", l)
    if not m:
        sys.exit("not a caveat line: %r" % l)
    got.append([m.group(1), m.group(2)])
cav = [[c["key"], c["text"]] for c in json.load(open(doc))["caveats"]]
if got != cav:
    sys.exit("text %r\njson %r" % (got, cav))
if want and want not in [k for k, _ in got]:
    sys.exit("no %s caveat in %r" % (want, got))
PY
}

# ---- load: lines 4 and 5 of wrong-expect.txt never end as it says ----
kload -q -t 1 --warmup 0 -D d -c "$DATA/wrong-expect.txt" --json w.json 2
expect_status "load errors: exit 1" 1
cp "$WORK/out" w.out
same_caveats "load errors" w.out w.json errors
expect_lines "load errors: one errors line" -eq 1 w.out '^warning: errors: [0-9]+ operations did not end as the loadfile expects$'
expect_eq "load errors: the count is the document's" \
    "$(sed -n 's/^warning: errors: \([0-9]*\) .*/\1/p' w.out)" "$(jget w.json 'd["results"]["errors"]')"
# a failed run: no Throughput line; the line saying so keeps its form, and stays last
expect_true "load errors: the Failed line last, its form kept" \
    grep -Eq '^Failed after [0-9.]+ s measured: [0-9.e+-]+ MB/sec \(not a result: [0-9]+ operations did not end as the loadfile expects\)  2 clients  2 procs  max_latency=[0-9.]+ ms$' w.out
expect_eq "load errors: nothing after it" "$(tail -n 1 w.out | cut -c1-13)" "Failed after "

# a clean run: whatever it carries (none, or steal, unsteady), the same
# in both; no old "steal:" line beside the list
kload -q -t 1 --warmup 0 -D d -c "$DATA/small.txt" --json c.json 1
expect_status "load clean: exit 0" 0
cp "$WORK/out" c.out
same_caveats "load clean" c.out c.json
expect_no_grep "load clean: no steal line of its own" c.out '^steal: '
expect_eq "load clean: Throughput last" "$(tail -n 1 c.out | cut -c1-10)" "Throughput"
# --json -: the text on standard error, the same list
kload -q -t 1 --warmup 0 -D d -c "$DATA/wrong-expect.txt" --json - 2
cp "$WORK/out" s.json
cp "$WORK/err" s.err
same_caveats "load --json -" s.err s.json errors

# ---- micro: bw_file_rd cannot write its 2 MiB file under ulimit -f 1 MiB
# (SIGXFSZ ignored, so the write fails with EFBIG) ----
( trap '' XFSZ; ulimit -f 1024; exec "$KBENCH" micro --quick --json m.json bw_file_rd lat_syscall_null ) \
    >m.out 2>m.err
RC=$?
expect_status "micro failed test: exit 1" 1
same_caveats "micro failed test" m.out m.json errors
expect_file_grep "micro failed test: the test named" m.out '^warning: errors: bw_file_rd: cannot write a 2097152-byte file .*File too large$'
run "$KBENCH" micro --quick --json mc.json lat_syscall_null
expect_status "micro clean: exit 0" 0
cp "$WORK/out" mc.out
same_caveats "micro clean" mc.out mc.json
expect_no_grep "micro clean: no steal line of its own" mc.out '^steal: '

finish
