#!/bin/sh
# kbench - command-line tests: the machine's settings recorded with every
# run, changed on this machine between two short series (transparent huge
# pages, swappiness, a loop device's scheduler and read-ahead) and named by
# compare: each difference named, the rows it can move caveated, no other;
# root and losetup, and KBENCH_TEST_HOST_SETTINGS=1 (run it alone: the
# settings are the whole machine's); every setting changed is put back on
# the way out
# SPDX-License-Identifier: GPL-3.0-or-later
. "$(dirname "$0")/lib.sh"

THP=/sys/kernel/mm/transparent_hugepage/enabled
SWAP=/proc/sys/vm/swappiness
LOOP= THP_WAS= SWAP_WAS= HOG=
restore() {
    [ -n "$HOG" ] && kill "$HOG" 2>/dev/null
    [ -n "$THP_WAS" ] && echo "$THP_WAS" >"$THP"
    [ -n "$SWAP_WAS" ] && echo "$SWAP_WAS" >"$SWAP"
    [ -n "$LOOP" ] && losetup -d "$LOOP" 2>/dev/null
    rm -rf "$WORK"
}
trap restore EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
cd "$WORK" || exit 1

# ---- a busy machine: said once, before the first run (no root needed) ----
sh -c 'while :; do :; done' &
HOG=$!
expect_rc "a series beside a process spinning" 0 env KBENCH_TEST_PAUSE_SCALE=1 "$KBENCH" suite \
    --clients none --micro=lat_syscall_null --micro-quick --runs 2 --pause 0 -o busy.json
kill "$HOG"
HOG=
expect_lines "busy: one warning" -eq 1 "$WORK/err" '^kbench suite: warning: the machine is busy: other processes took [0-9]+% of a CPU over 0\.[0-9] s before the first run; .*stop them'
expect_eq "busy: before the first run's line" "$(grep -n . "$WORK/err" | grep -m1 -E 'busy|\[1/' | cut -d: -f2-3)" \
    "kbench suite: warning"

# THP and swappiness are the whole machine's: changed while other tests
# run (make -j check), they would move those tests' figures and pages
if [ -z "${KBENCH_TEST_HOST_SETTINGS:-}" ]; then
    skip "changing the machine's THP and swappiness: run this test alone with KBENCH_TEST_HOST_SETTINGS=1"
    finish
fi
if [ "$(id -u)" -ne 0 ] || ! command -v losetup >/dev/null 2>&1 || [ ! -w "$THP" ] || [ ! -w "$SWAP" ]; then
    skip "changing the machine's settings needs root, losetup, $THP and $SWAP"
    finish
fi
dd if=/dev/zero of="$WORK/img" bs=1M count=32 status=none
if ! LOOP=$(losetup --find --show --direct-io=on "$WORK/img" 2>"$WORK/losetup.err"); then
    LOOP=
    skip "losetup failed: $(cat "$WORK/losetup.err")"
    finish
fi
Q=/sys/block/${LOOP#/dev/}/queue
if ! grep -q mq-deadline "$Q/scheduler"; then
    skip "$LOOP offers no mq-deadline scheduler"
    finish
fi
# the words in brackets: the one in use
THP_WAS=$(sed 's/.*\[\(.*\)\].*/\1/' "$THP")
SWAP_WAS=$(cat "$SWAP")
THP_B=always
[ "$THP_WAS" = always ] && THP_B=never
SWAP_B=$((SWAP_WAS == 10 ? 20 : 10))
mkdir d
LF="$KBENCH_TOP_SRCDIR/loadfiles/smallfiles.txt"
SERIES="-D $WORK/d -c $LF --clients 1 -t 0.3 --warmup 0 --disk $LOOP --micro=lat_syscall_null,lat_mem_l1 --micro-quick --runs 1 --pause 0"

echo none >"$Q/scheduler"
echo 128 >"$Q/read_ahead_kb"
# shellcheck disable=SC2086
expect_rc "series A" 0 "$KBENCH" suite $SERIES --label a -o a.json
expect_py "A records the settings as the machine shows them" a.json "$THP_WAS" "$SWAP_WAS" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
s = d["system"]["settings"]
assert s["thp_enabled"] == sys.argv[2], s["thp_enabled"]
assert s["swappiness"] == int(sys.argv[3]), s["swappiness"]
assert s["cmdline"] == open("/proc/cmdline").read().strip(), s["cmdline"]
assert s["loadfile_digest"].startswith("fnv1a64:"), s
assert d["system"]["disk"]["settings"]["scheduler"] == "none"
assert d["system"]["disk"]["settings"]["read_ahead_kb"] == 128
assert d["system"]["disk"]["settings"]["dma"] == "unknown"   # a loop device: no DMA shown
# every run's own document records them too
for t in d["tests"]:
    for r in t["runs"]:
        assert r["document"]["system"]["settings"]["thp_enabled"] == sys.argv[2], t["name"]
EOF

echo "$THP_B" >"$THP"
echo "$SWAP_B" >"$SWAP"
echo mq-deadline >"$Q/scheduler"
echo 1024 >"$Q/read_ahead_kb"
# shellcheck disable=SC2086
expect_rc "series B, four settings changed" 0 "$KBENCH" suite $SERIES --label b -o b.json
expect_rc "compare --json" 0 "$KBENCH" compare --json a.json b.json
expect_py "each difference named, the right rows caveated, nothing else" "$WORK/out" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
named = sorted(x["setting"] for x in d["settings_differ"])
# the kernel sizes the queue to the scheduler: nr_requests may follow it
nr = [x for x in d["settings_differ"] if x["setting"] == "disk nr_requests"]
assert named == sorted(["disk read_ahead_kb", "disk scheduler", "swappiness", "thp_enabled"] +
                       ["disk nr_requests"] * len(nr)), named
disk = {"disk.scheduler=mq-deadline", "disk.read_ahead_kb=1024"} | {x["brief"] for x in nr}
want = {"disk -T": disk, "disk -t": disk,
        "load 1": {"swappiness=%s" % [x for x in d["settings_differ"] if x["setting"] == "swappiness"][0]["value"]},
        "lat_mem_l1": {"thp_enabled=" + [x for x in d["settings_differ"] if x["setting"] == "thp_enabled"][0]["value"]},
        "lat_syscall_null": set()}
for r in d["rows"]:
    cav = [c for c in r["files"][1]["caveats"] if c["key"] == "settings_differ"]
    got = set(cav[0]["evidence"]["brief"]) if cav else set()
    assert got == want[r["test"]], (r["test"], got)
    assert r["files"][1]["kernel_alone"] == (not got), r["test"]
assert sorted(r["test"] for r in d["rows"]) == sorted(want), [r["test"] for r in d["rows"]]
EOF
expect_rc "compare, the table" 0 "$KBENCH" compare a.json b.json
expect_out_grep "the table names the THP setting" "^  B: thp_enabled: A $THP_WAS, B $THP_B \\(moves memory latencies"
expect_out_grep "and the scheduler" '^  B: disk scheduler: A none, B mq-deadline \(moves disk tests\)$'
expect_rc "compare --style runs" 0 "$KBENCH" compare --style runs a.json b.json
expect_out_grep "runs: the machine line: clock, CPU, the disk's setting, memory" '^[^ ]+: ([0-9]+ MHz )?.*, scheduler none, read-ahead 128 KiB, [0-9]+M$'
finish
