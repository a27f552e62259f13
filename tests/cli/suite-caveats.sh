#!/bin/sh
# kbench - command-line tests: kbench suite's disk runs on a loop device
# made from a file, without a memory limit and under a low one: a sparse
# file's runs carry sparse_file and compare gives them no verdict; a
# written file's runs read the device (its backing file's pages dropped
# before each -t run) and carry none; root, losetup, a memory controller
# SPDX-License-Identifier: GPL-3.0-or-later
. "$(dirname "$0")/lib.sh"

LOOPS=
cleanup() {
    for l in $LOOPS; do losetup -d "$l" 2>/dev/null; done
    rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
cd "$WORK" || exit 1

if [ "$(id -u)" -ne 0 ] || ! command -v losetup >/dev/null 2>&1; then
    skip "loop devices need root and losetup"
    finish
fi
truncate -s 64M sparse.img
dd if=/dev/urandom of=data.img bs=1M count=64 status=none
if ! SP=$(losetup --find --show sparse.img 2>losetup.err); then
    skip "losetup failed: $(cat losetup.err)"
    finish
fi
LOOPS=$SP
if ! DT=$(losetup --find --show data.img 2>losetup.err); then
    skip "losetup failed: $(cat losetup.err)"
    finish
fi
LOOPS="$LOOPS $DT"
if ! "$KBENCH" suite --clients none --disk "$SP" --runs 1 --pause 0 --mem-limit 48M -o probe.json >/dev/null 2>&1; then
    skip "no memory controller for --mem-limit"
    finish
fi

# ---- the sparse file: every -t run carries sparse_file, compare refuses ----
expect_rc "sparse: the series" 0 "$KBENCH" suite --clients none --disk "$SP" --runs 4 --pause 0 --mem-limit none,48M -o sp.json
expect_lines "sparse: each -t run's line names the caveat" -eq 8 "$WORK/err" '^kbench suite: \[[0-9]+/16\] disk -t mem=(none|48M), run [1-4] of 4: [0-9.]+ MiB/s \(MiB = 2\^20 bytes\) \[caveats: sparse_file(, busy)?\]; '
# (busy aside: the machine may be running other work beside any run)
expect_py "sparse: -T runs carry none (they time the cache on purpose)" "$WORK/err" 'disk -T' <<'EOF'
import re, sys
keys = [k for l in open(sys.argv[1]) if sys.argv[2] in l
        for m in re.findall(r"\[caveats: ([^]]*)\]", l) for k in m.split(", ")]
assert not [k for k in keys if k != "busy"], keys
EOF
# (a row may carry other caveats beside it: a sparse file read at memory
# speed one run and not the next can make its runs bimodal)
expect_out_grep "sparse: under the table, the rows" '^  disk -t mem=none: ([a-z_]+.*, )?sparse_file\* \(runs 1, 2, 3, 4\)(, [a-z_]+.*)?$'
expect_out_grep "sparse: and the other" '^  disk -t mem=48M: ([a-z_]+.*, )?sparse_file\* \(runs 1, 2, 3, 4\)(, [a-z_]+.*)?$'
expect_true "sparse: each -t document records the hole at byte 0" test "$(jget sp.json '[r["document"]["caveats"][0]["evidence"]["first_hole_byte"] for t in d["tests"] if "-t" in t["name"] for r in t["runs"]]')" = "[0, 0, 0, 0, 0, 0, 0, 0]"
expect_rc "sparse: compare --by mem says not comparable (exit 3)" 3 "$KBENCH" compare --by mem sp.json
# (beside it, the row may carry bimodal: see the note above)
expect_out_grep "sparse: disk -t not comparable, sparse_file named" '^ +B +4 .*  not comparable: sparse_file \(A.s runs 1, 2, 3, 4\)  \[caveats: ([a-z_]+\*?[^],]*, )*sparse_file\*(, [a-z_]+\*?[^],]*)*\]$'
expect_no_grep "sparse: no better or worse for disk -t" "$WORK/out" '^ +B .*(better|worse).*sparse_file'
expect_rc "sparse: --json" 3 "$KBENCH" compare --by mem --json sp.json
expect_true "sparse: --json verdict and reason" test "$(jget "$WORK/out" '[(r["files"][1]["verdict"], r["files"][1].get("not_comparable")) for r in d["rows"] if r["test"] == "disk -t"]')" = "[('not_comparable', {'caveat': 'sparse_file', 'in': 'A'})]"

# ---- a written file: the device's figures, no caveat ----
expect_rc "data: the series" 0 "$KBENCH" suite --clients none --disk "$DT" --runs 3 --pause 0 --mem-limit none,48M -o dt.json
expect_py "data: no caveat on any run's line (busy aside)" "$WORK/err" 'disk -' <<'EOF'
import re, sys
keys = [k for l in open(sys.argv[1]) if sys.argv[2] in l
        for m in re.findall(r"\[caveats: ([^]]*)\]", l) for k in m.split(", ")]
assert not [k for k in keys if k != "busy"], keys
EOF
expect_lines "data: disk's setup note passed on, once for the series" -eq 1 "$WORK/err" "^kbench disk: $DT: warning: loop device in buffered mode; "
expect_py "data: every -t run flushed, its backing file's pages gone, no hole, no caveat" dt.json <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
n = 0
for t in d["tests"]:
    for r in t["runs"]:
        doc = r["document"]
        assert [c for c in doc["caveats"] if c["key"] != "busy"] == [], doc["caveats"]
        b = doc["results"][0].get("buffered")
        if b:
            for x in b["runs"]:
                assert x["cache_flushed"] is True, x
                assert x["cached_pct_after_flush"] < 1 and x["backing_cached_pct_after_flush"] < 1, x
                assert x["first_hole_byte"] is None, x
                n += 1
assert n == 6, n
EOF
expect_rc "data: compare --by mem (no caveat: exit 0)" 0 "$KBENCH" compare --by mem dt.json
expect_no_grep "data: nothing refused" "$WORK/out" 'not comparable'

finish
