#!/bin/sh
# kbench - command-line tests: a load run and a kbench disk -T run beside
# a CPU hog this test starts record the CPU time other processes took
# (the load's results.other_cpu_pct, each disk run's other_cpu_pct, from
# /proc/stat less the run's own) and carry the busy caveat, which compare
# shows beside the row's verdict; without the hog every disk run (-T, -t,
# each of --runs) still records the share
# SPDX-License-Identifier: GPL-3.0-or-later
. "$(dirname "$0")/lib.sh"

D="$WORK/dir"
mkdir -p "$D"
F="$WORK/f8"
dd if=/dev/urandom of="$F" bs=1M count=8 status=none

# the hog: a shell that never sleeps; the runs start once it has been
# given CPU time (its utime in /proc/PID/stat has grown), so it is surely
# running beside their whole measured windows
sh -c 'while :; do :; done' &
HOG=$!
trap 'kill "$HOG" 2>/dev/null; rm -rf "$WORK"' EXIT
i=0
while [ "$(awk '{ sub(/.*\) /, ""); print $12 }' "/proc/$HOG/stat" 2>/dev/null || echo 0)" -lt 2 ]; do
    i=$((i + 1))
    if [ $i -gt 500 ]; then break; fi
    sleep 0.02
done
kload -t 2 --warmup 0.5 -D "$D" --json "$WORK/hog.json" 1
RC_LOAD=$RC
cp "$WORK/out" "$WORK/load.out"
# kbench disk -T on a regular file beside the same hog: 2 s of cached reads
run "$KBENCH" disk -T "$F" --json "$WORK/disk-hog.json"
RC_DISK=$RC
cp "$WORK/err" "$WORK/disk-hog.err"
kill "$HOG"
wait "$HOG" 2>/dev/null
RC=$RC_LOAD
cp "$WORK/load.out" "$WORK/out"
expect_status "beside a hog: the run exits 0" 0
expect_py "beside a hog: other processes took at least a quarter of a CPU, recorded" "$WORK/hog.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
r = d["results"]
assert isinstance(r["other_cpu_pct"], float) and r["other_cpu_pct"] >= 25, r["other_cpu_pct"]
busy = [c for c in d["caveats"] if c["key"] == "busy"]
assert len(busy) == 1, d["caveats"]
assert busy[0]["evidence"]["other_cpu_pct"] == r["other_cpu_pct"], busy
assert busy[0]["evidence"]["seconds"] == r["measured_s"], busy
EOF
expect_out_grep "beside a hog: the warning line" \
    '^warning: busy: other processes took [0-9]+% of a CPU.s time over 2\.0 s \(/proc/stat less the run.s own\)$'

# compare: a row whose runs were beside a hog carries busy beside its verdict
python3 - "$WORK/hog.json" "$WORK/a.json" "$WORK/b.json" <<'EOF'
import json, sys
doc = json.load(open(sys.argv[1]))
quiet = dict(doc, caveats=[], results=dict(doc["results"], other_cpu_pct=0.0))
for path, d, vals in ((sys.argv[2], quiet, [100, 101, 102, 103, 104]),
                      (sys.argv[3], doc, [50, 51, 52, 53, 54])):
    json.dump({"kbench_version": "0.1.0", "kind": "suite", "time": "2026-01-01T00:00:00Z",
               "schema": 1, "label": "x", "command": ["kbench", "suite"], "cwd": "/",
               "params": {}, "system": {"kernel": "k", "hostname": "h"},
               "started": "2026-01-01T00:00:00Z", "finished": True, "done": {},
               "failures": [], "tests": [{"name": "load 1", "params": {"command": "load",
               "clients": 1}, "unit": "MB/s", "higher_is_better": True,
               "runs": [{"value": v, "started": "2026-01-01T00:00:00Z", "seconds": 2.0,
                         "document": d} for v in vals]}]}, open(path, "w"))
EOF
expect_rc "compare: a busy B" 0 "$KBENCH" compare "$WORK/a.json" "$WORK/b.json"
expect_out_grep "compare: busy beside B's verdict, none beside A" \
    '^ +B +5 +52\.00 .*  worse \(p=0\.008\)  \[caveats: ([a-z_]+[^],]*, )*busy(, [a-z_]+[^],]*)*\]$'
expect_no_grep "compare: A's runs were quiet" "$WORK/out" '^load 1 .*busy'

# ---- disk -T beside the hog ----
RC=$RC_DISK
cp "$WORK/disk-hog.err" "$WORK/err"
expect_status "disk -T beside a hog: the run exits 0" 0
expect_py "disk -T beside a hog: other processes took at least a quarter of a CPU, recorded" \
    "$WORK/disk-hog.json" "$F" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
r = d["results"][0]["cached"]["runs"][0]
assert isinstance(r["other_cpu_pct"], float) and r["other_cpu_pct"] >= 25, r
# the window holds the read loop of 2 s or more and the overhead loop after it
assert r["window_s"] >= r["loop_seconds"] + r["overhead_seconds"] and r["loop_seconds"] >= 2.0, r
busy = [c for c in d["caveats"] if c["key"] == "busy"]
assert len(busy) == 1, d["caveats"]
assert busy[0]["evidence"] == {"other_cpu_pct": r["other_cpu_pct"], "seconds": r["window_s"],
                               "device": sys.argv[2], "test": "cached", "run": 1}, busy
EOF
expect_err_grep "disk -T beside a hog: the warning line, on standard error" \
    "^warning: busy: $F: -T run 1: other processes took [0-9]+% of a CPU.s time over [0-9]+\\.[0-9] s \\(/proc/stat less the run.s own\\)\$"
expect_py "disk -T beside a hog: the text's warnings are the document's caveats" \
    "$WORK/disk-hog.json" "$WORK/err" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
w = [l[len("warning: "):].rstrip("\n") for l in open(sys.argv[2]) if l.startswith("warning: ")]
assert w and w == ["%s: %s" % (c["key"], c["text"]) for c in d["caveats"]], (w, d["caveats"])
EOF

# ---- no hog: every disk run records the share (the machine may be busy
# all the same: the caveat may or may not be there) ----
expect_rc "disk -T -t --runs 2, no hog: exit 0" 0 "$KBENCH" disk -T -t --runs 2 "$F" \
    --json "$WORK/disk.json"
expect_py "disk, no hog: each run of each test has other_cpu_pct, a number, and its window" \
    "$WORK/disk.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
n = 0
for key in ("cached", "buffered"):
    for r in d["results"][0][key]["runs"]:
        p = r["other_cpu_pct"]
        assert isinstance(p, float) and p >= 0, r
        assert isinstance(r["window_s"], float) and r["window_s"] >= r["seconds"] > 0, r
        n += 1
assert n == 4, n
EOF

finish
