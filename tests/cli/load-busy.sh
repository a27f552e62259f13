#!/bin/sh
# kbench - command-line tests: a load run beside a CPU hog this test
# starts records the CPU time other processes took (results.other_cpu_pct,
# from /proc/stat less the run's own) and carries the busy caveat, which
# compare shows beside the row's verdict
# SPDX-License-Identifier: GPL-3.0-or-later
. "$(dirname "$0")/lib.sh"

D="$WORK/dir"
mkdir -p "$D"

# the hog: a shell that never sleeps; the run starts once it has been
# given CPU time (its utime in /proc/PID/stat has grown), so it is surely
# running beside the whole measured window
sh -c 'while :; do :; done' &
HOG=$!
i=0
while [ "$(awk '{ sub(/.*\) /, ""); print $12 }' "/proc/$HOG/stat" 2>/dev/null || echo 0)" -lt 2 ]; do
    i=$((i + 1))
    if [ $i -gt 500 ]; then break; fi
    sleep 0.02
done
kload -t 2 --warmup 0.5 -D "$D" --json "$WORK/hog.json" 1
RC_LOAD=$RC
kill "$HOG"
wait "$HOG" 2>/dev/null
RC=$RC_LOAD
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

finish
