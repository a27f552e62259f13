#!/bin/sh
# kbench - command-line tests: compare --latency, the latency rows of load
# runs from their documents' histograms, on real runs and a doctored copy
# SPDX-License-Identifier: GPL-3.0-or-later
. "$(dirname "$0")/lib.sh"
cd "$WORK" || exit 1
D="$WORK/dir"
mkdir -p "$D"

# a real run of one client
kload -q -t 2 --warmup 1 -D "$D" --json "$WORK/run.json" 1
expect_status "the run exits 0" 0

# mk.py OUT LABEL FACTOR...: a kbench suite results file with a run of
# test "load 1" for each FACTOR: run.json with every latency times it (each
# bucket's midpoint times FACTOR, in the bucket that holds it; min and max
# times FACTOR).  A's five runs are 1.00 to 1.08 times the real one, so
# that they differ as runs do; B's are those tripled.
cat >"$WORK/mk.py" <<'EOF2'
import json, sys
out, label = sys.argv[1], sys.argv[2]
def lower(v):
    if v < 128:
        return v
    shift = v.bit_length() - 1 - 6
    return (v >> shift) << shift
def hi_of(lo):
    return lo if lo < 128 else lo + (1 << (lo.bit_length() - 1 - 6)) - 1
runs = []
for factor in map(float, sys.argv[3:]):
    d = json.load(open("run.json"))
    for h in d["results"]["histograms"].values():
        b = {}
        for pair in h["buckets"].split():
            lo, c = map(int, pair.split(":"))
            mid = lo + (hi_of(lo) - lo) // 2
            n = lower(round(mid * factor))
            b[n] = b.get(n, 0) + c
        h["buckets"] = " ".join("%d:%d" % (k, b[k]) for k in sorted(b))
        h["min_ms"] *= factor
        h["max_ms"] *= factor
    runs.append({"value": d["results"]["throughput_MBps"], "started": "2026-01-01T00:00:00Z",
                 "seconds": 1.0, "document": d})
doc = {"kbench_version": "0.1.0", "kind": "suite", "time": "2026-01-01T00:00:00Z",
       "schema": 1, "label": label, "command": ["kbench", "suite"], "cwd": "/",
       "params": {"timelimit_s": 1.0}, "system": {"kernel": label, "hostname": "h",
       "machine": "x86_64", "cpu_model": "cpu"},
       "started": "2026-01-01T00:00:00Z", "finished": True, "done": {}, "failures": [],
       "tests": [{"name": "load 1", "params": {"command": "load", "clients": 1},
                  "unit": "MB/s", "higher_is_better": True, "runs": runs}]}
json.dump(doc, open(out, "w"))
EOF2
python3 "$WORK/mk.py" a.json base 1 1.02 1.04 1.06 1.08
python3 "$WORK/mk.py" b.json slow 3 3.06 3.12 3.18 3.24
cp a.json a2.json

expect_rc "compare without --latency" 0 "$KBENCH" compare a.json b.json
expect_no_grep "the default table has no latency rows" "$WORK/out" 'latency \(ms\)|p99\.9'
cp "$WORK/out" "$WORK/plain"

expect_rc "compare --latency" 0 "$KBENCH" compare --latency a.json b.json
expect_out_grep "the heading names the test" '^latency \(ms\): each file.s runs merged; the change against A; verdict: U test on the runs. p99s \(lower is better\), 95% confidence$'
expect_out_grep "a block per op" '^load 1, ReadX +p50 +p90 +p99 +p99\.9 +max +runs$'
expect_eq "the table above the rows is the default one" \
    "$(head -n "$(wc -l <"$WORK/plain")" "$WORK/out" | cmp - "$WORK/plain" >/dev/null && echo same)" same
# every op: each percentile +200% (within the buckets' 0.8% either way) and worse,
# p = 2/C(10,5): every run of B above every run of A
expect_py "every op: tripled is +200% at each percentile, and worse" "$WORK/out" "$WORK/a.json" <<'EOF2'
import json, re, sys
text = open(sys.argv[1]).read().splitlines()
ops = [n for n, h in json.load(open(sys.argv[2]))["tests"][0]["runs"][0]["document"]["results"]["histograms"].items() if h["count"]]
bad, seen = [], 0
for i, line in enumerate(text):
    m = re.match(r"^load 1, (\S+) ", line)
    if not m or m.group(1) not in ops:
        continue
    seen += 1
    ch = text[i + 3]
    cells = re.findall(r"([+-][0-9.]+)%", ch)
    if len(cells) != 5 or any(abs(float(c) - 200) > 4.8 for c in cells) or abs(float(cells[4]) - 200) > 0.1 \
       or not re.search(r"worse \(p=0\.00794, adjusted 0\.00794\)$", ch):
        bad.append("%s: %s" % (m.group(1), ch))
if seen != len(ops) or bad:
    print("ops %d of %d" % (seen, len(ops)), bad)
    sys.exit(1)
EOF2
expect_rc "the same runs against themselves" 0 "$KBENCH" compare --latency a.json a2.json
expect_out_grep "no change is not proven" '^ +\+0\.0% +\+0\.0% +\+0\.0% +\+0\.0% +\+0\.0% +not proven \(p=1, adjusted 1\)$'

# --- --latency --json: the same rows in the document ------------------------
expect_rc "compare --latency --json" 0 "$KBENCH" compare --latency --json a.json b.json
expect_py "JSON: every op tripled is +200% at each percentile, worse, by the U test" "$WORK/out" "$WORK/a.json" <<'EOF2'
import json, sys
d = json.load(open(sys.argv[1]))
ops = sorted(n for n, h in json.load(open(sys.argv[2]))["tests"][0]["runs"][0]["document"]["results"]["histograms"].items() if h["count"])
lat = d["latency"]
rows = [r for r in lat["rows"] if r["files"][0]["runs"]]
bad = []
for r in rows:
    a, b = r["files"]
    ch = b["change_pct"]
    if r["test"] != "load 1" or a["runs"] != 5 or b["runs"] != 5 \
       or any(abs(ch[q] - 200) > 4.8 for q in ("p50", "p90", "p99", "p99.9")) \
       or abs(ch["max"] - 200) > 0.1 \
       or b["verdict"] != "worse" or abs(b["p"] - 0.00794) > 1e-5 or not (a["p99"] > 0):
        bad.append(r)
if (lat["verdict_test"], lat["verdict_on"], lat["unit"], lat["higher_is_better"]) != \
   ("utest", "p99_of_each_run", "ms", False) or sorted(r["op"] for r in rows) != ops or bad:
    print(lat["verdict_test"], sorted(r["op"] for r in rows), ops, bad[:2])
    sys.exit(1)
EOF2
expect_rc "compare --latency --json, the same runs against themselves" 0 "$KBENCH" compare --latency --json a.json a2.json
expect_py "JSON: no change is same" "$WORK/out" <<'EOF2'
import json, sys
rows = [r for r in json.load(open(sys.argv[1]))["latency"]["rows"] if r["files"][0]["runs"]]
bad = [r for r in rows if r["files"][1]["verdict"] != "same" or r["files"][1]["p"] != 1
       or any(v != 0 for v in r["files"][1]["change_pct"].values())]
if not rows or bad:
    print(len(rows), bad[:2])
    sys.exit(1)
EOF2
expect_rc "compare --json without --latency" 0 "$KBENCH" compare --json a.json b.json
expect_py "the default JSON has no latency rows" "$WORK/out" <<'EOF2'
import json, sys
sys.exit("latency" in json.load(open(sys.argv[1])))
EOF2

# --- --plot: the second picture, FILE-latency.svg -------------------------
if command -v gnuplot >/dev/null 2>&1; then
    expect_rc "--plot with load runs" 0 "$KBENCH" compare --plot p.svg a.json b.json
    expect_true "--plot: the usual picture" test -s p.svg
    expect_py "--plot: p-latency.svg, a chart per op that ran and one of the seconds" p-latency.svg a.json <<'EOF2'
import json, sys, xml.dom.minidom
svg = open(sys.argv[1]).read()
xml.dom.minidom.parseString(svg)
ops = [n for n, h in json.load(open(sys.argv[2]))["tests"][0]["runs"][0]["document"]["results"]["histograms"].items() if h["count"]]
missing = [o for o in ops if "load 1: %s<" % o not in svg]
# the key: each file once, for the page; the warm-up (1 s) shaded grey
keys = svg.count("<title>A: base</title>"), svg.count("<title>B: slow</title>")
if missing or "load 1: MB/sec each second<" not in svg or keys != (1, 1) \
   or "seconds from the start (warm-up shaded)" not in svg \
   or "rgb(216, 216, 216)" not in svg:
    print("missing", missing, "keys", keys, len(ops))
    sys.exit(1)
EOF2
    expect_rc "--plot PNG" 0 "$KBENCH" compare --plot p.png a.json b.json
    expect_eq "--plot PNG: p-latency.png is a PNG" "$(head -c 4 p-latency.png | od -An -c | tr -d ' ')" '211PNG'
    # three load tests: more charts than one page of at most 2000 pixels holds
    for f in a b; do
        python3 -c 'import copy, json, sys
d = json.load(open(sys.argv[1]))
t = d["tests"][0]
for n in (2, 3):
    u = copy.deepcopy(t); u["name"] = "load %d" % n; u["params"]["clients"] = n
    d["tests"].append(u)
json.dump(d, open(sys.argv[2], "w"))' $f.json m$f.json
    done
    expect_rc "--plot PNG of three load tests" 0 "$KBENCH" compare --plot m.png ma.json mb.json
    expect_py "the latency charts on pages of at most 2000 pixels, 24 charts a page" a.json <<'EOF2'
import json, os, struct, sys
charts = 3 * (1 + sum(1 for h in json.load(open(sys.argv[1]))["tests"][0]["runs"][0]["document"]["results"]["histograms"].values() if h["count"]))
npages = (charts + 23) // 24
assert npages >= 2, charts
names = ["m-latency.png"] + ["m-latency-%d.png" % p for p in range(2, npages + 1)]
for f in names:
    w, h = struct.unpack(">II", open(f, "rb").read(24)[16:24])
    assert w == 1400 and 0 < h <= 2000, (f, w, h)
assert not os.path.exists("m-latency-%d.png" % (npages + 1)), "a page too many"
EOF2
else
    skip "--plot: no gnuplot"
fi

# --- bad input ---------------------------------------------------------------
python3 - <<'EOF2'
import json
d = json.load(open("b.json"))
d["tests"][0]["runs"][1]["document"]["results"]["histograms"]["ReadX"]["buckets"] = "100:1 7:2"
json.dump(d, open("bad.json", "w"))
EOF2
expect_bad "a histogram out of order" '^kbench compare: bad\.json: test load 1, run 2: results\.histograms\.ReadX is not a histogram' \
    "$KBENCH" compare --latency a.json bad.json
expect_bad "--latency with --export" '^kbench compare: --latency adds rows to the table, the lkml lines or the JSON: leave out --export' \
    "$KBENCH" compare --latency --export a.json

finish
