#!/bin/sh
# kbench - command-line tests: the 2001 two-kernel study at small scale on
# a loop device: hdparm's -T and -t and dbench 1 and 5, without a memory
# limit and under a low one, as two series and as one, compared both ways
# (two files, and one file --by mem); root, losetup, mkfs.ext4 and a
# memory controller
# SPDX-License-Identifier: GPL-3.0-or-later
. "$(dirname "$0")/lib.sh"

LOOP=
MNT=$WORK/mnt
cleanup() {
    umount "$MNT" 2>/dev/null
    [ -n "$LOOP" ] && losetup -d "$LOOP" 2>/dev/null
    rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
cd "$WORK" || exit 1

LF="$KBENCH_TOP_SRCDIR/loadfiles/smallfiles.txt"
if [ "$(id -u)" -ne 0 ] || ! command -v losetup >/dev/null 2>&1 || ! command -v mkfs.ext4 >/dev/null 2>&1; then
    skip "the study needs root, losetup and mkfs.ext4"
    finish
fi
# written whole: a sparse image would be read from no disk (sparse_file)
dd if=/dev/zero of="$WORK/img" bs=1M count=64 status=none
if ! LOOP=$(losetup --find --show "$WORK/img" 2>"$WORK/losetup.err"); then
    LOOP=
    skip "losetup failed: $(cat "$WORK/losetup.err")"
    finish
fi
mkdir "$MNT"
# no lazy initialisation: its background writes would run through the series
if ! mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$LOOP" >/dev/null 2>&1 || ! mount "$LOOP" "$MNT"; then
    skip "cannot make or mount ext4 on $LOOP"
    finish
fi
# low enough to be a limit (the loads' page cache alone outgrows it), with
# room for 5 clients under a sanitizer build, whose processes are larger
LOW=128M
if ! "$KBENCH" load -D "$MNT" -c "$LF" --run-once -q --mem-limit "$LOW" 1 >/dev/null 2>&1; then
    skip "no memory controller for --mem-limit"
    finish
fi
# the loads last 0.3 s: the study's shape, not its figures, is checked
SERIES="-D $MNT --disk $LOOP -c $LF --clients 1,5 --runs 3 -t 0.3 --warmup 0 --pause 0"

# ---- the two series of the study, then both in one file ----
# shellcheck disable=SC2086
expect_rc "series without a limit" 0 "$KBENCH" suite $SERIES --label nolimit -o nolimit.json
# shellcheck disable=SC2086
expect_rc "series under $LOW" 0 "$KBENCH" suite $SERIES --mem-limit "$LOW" --label low -o low.json
# shellcheck disable=SC2086
expect_rc "both in one series" 0 "$KBENCH" suite $SERIES --mem-limit "none,$LOW" --label both -o both.json
expect_true "the series without a limit: its tests" test "$(jget nolimit.json '[(t["name"], len(t["runs"])) for t in d["tests"]]')" = "[('disk -T', 3), ('disk -t', 3), ('load 1', 3), ('load 5', 3)]"
expect_true "the one under $LOW: every job under it" test "$(jget low.json '[t["name"] for t in d["tests"]]')" = "['disk -T mem=$LOW', 'disk -t mem=$LOW', 'load 1 mem=$LOW', 'load 5 mem=$LOW']"
expect_true "the limited disk runs were in their cgroup" test "$(jget low.json 'all(0 < r["mem_peak_bytes"] <= 128 << 20 for t in d["tests"][:2] for r in t["runs"])')" = True
expect_true "the limited loads ran under it" test "$(jget low.json 'all(r["document"]["params"]["mem_limit_bytes"] == 128 << 20 for t in d["tests"][2:] for r in t["runs"])')" = True
expect_true "the disk's settings recorded" test "$(jget nolimit.json 'd["tests"][0]["params"]["device_info"]["name"]')" = "${LOOP#/dev/}"
expect_true "both: eight tests, none before the other's limit" test "$(jget both.json '[t["name"] for t in d["tests"]]')" = "['disk -T mem=none', 'disk -t mem=none', 'load 1 mem=none', 'load 5 mem=none', 'disk -T mem=$LOW', 'disk -t mem=$LOW', 'load 1 mem=$LOW', 'load 5 mem=$LOW']"
expect_py "no failure anywhere" nolimit.json low.json both.json <<'EOF'
import json, sys
fails = [(p, f) for p in sys.argv[1:] for f in json.load(open(p))["failures"]]
assert not fails, fails
EOF

# ext4 zeroes ranges through the loop device (its inode tables, the
# journal), which punches holes in the image: a -t run that reads one
# carries sparse_file; and the mounted file system holds pages of the
# device that no flush drops: cache_timed.  compare gives such a row no
# verdict (exit 3)
# cmp_status FILE...: compare's exit status for these files: 3 when a -t run
# of one of them carries sparse_file or cache_timed, else 0
cmp_status() {
    python3 -c 'import json, sys
print(3 if any(c["key"] in ("sparse_file", "cache_timed") for p in sys.argv[1:] for t in json.load(open(p))["tests"]
               for r in t["runs"] for c in r["document"]["caveats"]) else 0)' "$@"
}
ST=$(cmp_status nolimit.json low.json)
ST_BOTH=$(cmp_status nolimit.json both.json)
ST_BY=$(cmp_status both.json)
expect_py "a -t run carries sparse_file only if its data has a hole; only -t runs carry cache caveats" nolimit.json low.json both.json <<'EOF'
import json, sys
for p in sys.argv[1:]:
    for t in json.load(open(p))["tests"]:
        for r in t["runs"]:
            doc = r["document"]
            keys = [c["key"] for c in doc["caveats"]]
            runs = doc["results"][0]["buffered"]["runs"] if " -t" in t["name"] else []
            hole = any(x["first_hole_byte"] is not None for x in runs)
            assert ("sparse_file" in keys) == hole, (p, t["name"], keys)
            assert not [k for k in keys if k not in ("sparse_file", "cache_timed", "steal", "busy",
                                                      "stuck_clients")], keys
            assert " -t" in t["name"] or not [k for k in keys if k in ("sparse_file", "cache_timed")]
EOF

# ---- compared as two files ----
expect_rc "nolimit against low" $ST "$KBENCH" compare nolimit.json low.json
expect_lines "every test compared across the limit" -eq 4 "$WORK/out" "^note: .* of A compared with .* mem=$LOW of B \\(memory limits differ\\)\$"
expect_no_grep "nothing left out" "$WORK/out" 'not compared'
expect_lines "three runs a side: the U test says it cannot reach 95% (or a caveat)" -eq 4 "$WORK/out" '(too few runs for the U test at 95% \(3 and 3: p >= 0\.1\)(  \[caveats: [^]]*\])?|not comparable: (sparse_file|cache_timed) .*)$'
expect_rc "--test welch" $ST "$KBENCH" compare --test welch nolimit.json low.json
expect_lines "Welch gives each a verdict (or a caveat refuses it)" -eq 4 "$WORK/out" '((same \+-[0-9]+%|not proven) \(p=|better: |worse: |not comparable: (sparse_file|cache_timed))'
run "$KBENCH" compare --json nolimit.json low.json
expect_py "only disk -t is refused, for sparse_file or cache_timed" "$WORK/out" "$ST" <<'EOF'
import json, sys
d, st = json.load(open(sys.argv[1])), sys.argv[2]
refused = [(r["test"], r["files"][1]["not_comparable"]["caveat"]) for r in d["rows"]
           if r["files"][1]["verdict"] == "not_comparable"]
assert [t for t, k in refused] == (["disk -t"] if st == "3" else []), refused
assert all(k in ("sparse_file", "cache_timed") for t, k in refused), refused
EOF
expect_rc "nolimit against both" $ST_BOTH "$KBENCH" compare --json nolimit.json both.json
expect_py "load 5 pairs with load 5 mem=none; the limited ones are only in B" "$WORK/out" "$LOW" <<'EOF'
import json, sys
d, low = json.load(open(sys.argv[1])), sys.argv[2]
assert [(r["test"], r["files"][1]["test"]) for r in d["rows"]] == [
    ("disk -T", "disk -T mem=none"), ("disk -t", "disk -t mem=none"),
    ("load 1", "load 1 mem=none"), ("load 5", "load 5 mem=none")], d["rows"]
assert sorted(e["test"] for e in d["not_compared"]) == [
    "disk -T mem=" + low, "disk -t mem=" + low, "load 1 mem=" + low, "load 5 mem=" + low]
assert all(e["only_in_this_file"] for e in d["not_compared"])
EOF

# ---- compared within one file ----
expect_rc "--by mem" $ST_BY "$KBENCH" compare --by mem --test welch both.json
expect_out_grep "A is no limit" '^A  both\.json mem=none: label both'
expect_out_grep "B is $LOW" "^B  both\\.json mem=$LOW: label both"
expect_lines "four tests, each under both" -eq 4 "$WORK/out" '^(disk -[Tt]|load [15]) +Mi?B/s +A +3 '
expect_rc "--by mem --json" $ST_BY "$KBENCH" compare --by mem --json both.json
expect_py "--by: the figures are the file's" "$WORK/out" both.json "$LOW" <<'EOF'
import json, sys
d, f, low = json.load(open(sys.argv[1])), json.load(open(sys.argv[2])), sys.argv[3]
runs = {t["name"]: [r["value"] for r in t["runs"]] for t in f["tests"]}
for r in d["rows"]:
    a, b = r["files"]
    assert a["runs"] == runs[r["test"] + " mem=none"], r["test"]
    assert b["runs"] == runs[r["test"] + " mem=" + low], r["test"]
EOF
if command -v gnuplot >/dev/null 2>&1; then
    expect_rc "--by mem --plot" $ST_BY "$KBENCH" compare --by mem --plot study.svg both.json
    expect_true "the chart is written" grep -q '<svg' study.svg
fi
finish
