#!/bin/sh
# kbench - command-line tests: compare's charts rendered to PNG: each
# picture's size, and no label of one over another label, a run's mark or
# the picture's edge, where the layout knows the boxes (gpboxes.py: a
# stand-in gnuplot that draws the picture with the real one and prints,
# from gnuplot itself, where each label and mark fell)
# SPDX-License-Identifier: GPL-3.0-or-later
. "$(dirname "$0")/lib.sh"
cd "$WORK" || exit 1

if ! KB_GP_REAL=$(command -v gnuplot); then
    skip "rendering: no gnuplot"
    finish
fi
export KB_GP_REAL
mkdir bin boxes
KB_GP_DIR=$WORK/boxes
export KB_GP_DIR
cat >bin/gnuplot <<EOF2
#!/bin/sh
exec python3 "$KBENCH_TOP_SRCDIR/tests/cli/gpboxes.py" wrap "\$@"
EOF2
chmod +x bin/gnuplot
PATH="$WORK/bin:$PATH"

# boxes_check NAME COND [ARG...]: gpboxes.py check of $KB_GP_DIR (with
# the ARGs) finds no label over another, a mark or the edge, and COND, a
# Python expression over the counts it prints, holds: it saw what is there
boxes_check() {
    bcname=$1 bcond=$2
    shift 2
    expect_py "$bcname" "$KBENCH_TOP_SRCDIR/tests/cli/gpboxes.py" "$KB_GP_DIR" "$bcond" "$@" <<'EOF2'
import json, subprocess, sys
r = subprocess.run([sys.executable, sys.argv[1], "check", sys.argv[2]] + sys.argv[4:],
                   capture_output=True, text=True)
print(r.stdout, r.stderr)
counts = json.loads(r.stdout.split("\n")[0])
assert eval(sys.argv[3]), counts
sys.exit(r.returncode)
EOF2
}

# mk.py OUT LABEL FACTOR [SPREAD]: a results file of 40 BYTE tests, 40
# lmbench latencies, hdparm's -T and -t and two load tests, six runs
# each, the last two runs of each disk test marked busy; FACTOR scales
# every figure; lat_t00 of a file with FACTOR above 1 has three runs five
# to seven times A's (off the change chart's scale)
cat >mk.py <<'EOF2'
import json, sys
out, label, factor = sys.argv[1], sys.argv[2], float(sys.argv[3])
busy = [{"key": "busy", "text": "the machine was busy", "evidence": {}}]
def runs(v, cav=False, wild=False):
    s = (0.99, 1.0, 1.01, 0.995, 1.005, 1.0)
    r = [{"value": v * factor * x} for x in s]
    if wild:
        for j, m in ((3, 5.0), (4, 6.0), (5, 7.0)):
            r[j]["value"] = v * m
    if cav:
        for j in (4, 5):
            r[j]["document"] = {"caveats": busy}
    return r
tests = []
for i in range(40):
    tests.append({"name": "byte_t%02d" % i, "params": {"command": "micro", "family": "byte"},
                  "unit": "lps", "higher_is_better": True, "runs": runs(1000 + i)})
for i in range(40):
    tests.append({"name": "lat_t%02d" % i, "params": {"command": "micro", "family": "lmbench"},
                  "unit": "us", "higher_is_better": False,
                  "runs": runs(5 + i, wild=(i == 0 and factor > 1))})
for t, v in (("-T", 9000.0), ("-t", 400.0)):
    tests.append({"name": "disk " + t, "params": {"command": "disk", "test": t},
                  "unit": "MiB/s", "higher_is_better": True, "runs": runs(v, cav=True)})
for n in (1, 4):
    tests.append({"name": "load %d" % n, "params": {"command": "load", "clients": n},
                  "unit": "MB/s", "higher_is_better": True, "runs": runs(100 * n)})
json.dump({"kbench_version": "0.1.0", "kind": "suite", "schema": 1, "label": label,
           "tests": tests}, open(out, "w"))
EOF2

# pages.py PNG...: each a PNG of 600 to 2400 pixels by 300 to 2000, not blank
cat >pages.py <<'EOF2'
import struct, sys, zlib
for f in sys.argv[1:]:
    d = open(f, "rb").read()
    assert d[:8] == b"\x89PNG\r\n\x1a\n", f
    w, h = struct.unpack(">II", d[16:24])
    assert 600 <= w <= 2400 and 300 <= h <= 2000, (f, w, h)
    assert len(zlib.compress(d)) > 5000, (f, "nearly blank")
EOF2

python3 mk.py a.json base 1
python3 mk.py b.json two 1.2
python3 mk.py c.json three 0.9
expect_rc "three files of 84 tests drawn" 0 "$KBENCH" compare --plot p.png a.json b.json c.json
expect_eq "the pages it wrote" "$(sed -n 's/^kbench compare: wrote //p' "$WORK/err" | tr '\n' ' ')" \
    "p.png p-2.png p-3.png "
expect_py "each page a PNG of a sane size, not blank" p.png p-2.png p-3.png <pages.py
# the checks saw what is there: 5 charts (the first page holds the
# load, disk and change charts); labels of the runs off the scale and of
# the disk figures, the disk and change charts' rings, a row's name
boxes_check "no label over another, over a mark or off the picture" \
    'counts["pages"] == 5 and counts["labels"] >= 6 and counts["marks"] > 100 and counts["tics"] >= 84'

# eight files of the two disk tests: eight figures a test, one under the
# other, each beside its runs and their rings
rm -f "$KB_GP_DIR/boxes.txt"
set --
for k in 1 2 3 4 5 6 7 8; do
    python3 - d$k.json "$k" <<'EOF2'
import json, sys
k = int(sys.argv[2])
busy = [{"key": "busy", "text": "busy", "evidence": {}}]
tests = [{"name": "disk " + t, "params": {"command": "disk", "test": t}, "unit": "MiB/s",
          "higher_is_better": True,
          "runs": [{"value": v * (1 + 0.01 * k) * s,
                    **({"document": {"caveats": busy}} if j == 3 else {})}
                   for j, s in enumerate((0.98, 1.0, 1.02, 1.04))]}
         for t, v in (("-T", 9000.0), ("-t", 400.0))]
json.dump({"kbench_version": "0.1.0", "kind": "suite", "schema": 1, "label": "k%d" % k,
           "tests": tests}, open(sys.argv[1], "w"))
EOF2
    set -- "$@" d$k.json
done
expect_rc "eight files of the disk tests drawn" 0 "$KBENCH" compare --plot d.png "$@"
expect_eq "eight files: one page" "$(sed -n 's/^kbench compare: wrote //p' "$WORK/err")" d.png
expect_py "eight files: a PNG" d.png <pages.py
# 8 figures of 2 tests; 64 runs a chart, 16 of them ringed in each
boxes_check "eight files: no label over another or over a ring" \
    'counts["labels"] >= 16 and counts["marks"] >= 2 * 64 + 2 * 16'

# a series of 16 kernels with two steps side by side: their labels one
# above the other
rm -f "$KB_GP_DIR/boxes.txt"
set --
for k in 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15; do
    python3 - s$k.json "$k" <<'EOF2'
import json, sys
k = int(sys.argv[2])
level = 100 if k < 8 else 130 if k == 8 else 170
tests = [{"name": "load 4", "params": {"command": "load", "clients": 4}, "unit": "MB/s",
          "higher_is_better": True,
          "runs": [{"value": level * (1 + 0.002 * j)} for j in range(6)]}]
json.dump({"kbench_version": "0.1.0", "kind": "suite", "schema": 1, "label": "2.5.%d" % (40 + k),
           "tests": tests}, open(sys.argv[1], "w"))
EOF2
    set -- "$@" s$k.json
done
expect_rc "a series of 16 kernels drawn" 0 "$KBENCH" compare --series --plot s.png "$@"
expect_eq "the series: two steps found" "$(grep -c 'bisect:' "$WORK/out")" 2
expect_py "the series: a PNG" s.png <pages.py
boxes_check "the series: the steps' labels apart" 'counts["labels"] == 2'

# a load study with the runs' documents: 17 ops and the seconds of three
# load tests (54 panels, 14 rows), one of them with a name too long for a
# title's line: its latency pictures
rm -f "$KB_GP_DIR/boxes.txt"
cat >mkl.py <<'EOF2'
import json, sys
out, label, factor = sys.argv[1], sys.argv[2], float(sys.argv[3])
ops = ["NTCreateX", "Close", "Rename", "Unlink", "Deltree", "Mkdir", "Qpathinfo",
       "Qfileinfo", "Qfsinfo", "Sfileinfo", "Find", "WriteX", "ReadX", "LockX", "UnlockX",
       "Flush", "Qdiskinfo"]
def lower(v):
    if v < 128:
        return v
    shift = v.bit_length() - 1 - 6
    return (v >> shift) << shift
def doc(n, j):
    hs = {}
    for o, op in enumerate(ops):
        b = {}
        for q in range(200):
            v = lower(int(2000 * (1 + o) * factor * (1.03 ** q) * (1 + 0.01 * j)))
            b[v] = b.get(v, 0) + 1 + (q * 7 + o) % 13
        hs[op] = {"count": sum(b.values()),
                  "buckets": " ".join("%d:%d" % (k, b[k]) for k in sorted(b))}
    pts = [{"t": t, "warmup": t == 1, "bytes": int(1e8 * n * factor * (1 + 0.03 * ((t + j) % 4))),
            "ops": 1000} for t in range(1, 7)]
    return {"kbench_version": "0.1.0", "kind": "load",
            "results": {"throughput_MBps": 100.0 * n * factor, "histograms": hs,
                        "series": {"interval_s": 1, "points": pts}}}
names = [(1, "load 1 mem=none"), (5, "load 5 mem=none"),
         (10, "load 10 mem=32M with a name far too long for one line of a title")]
tests = [{"name": name, "params": {"command": "load", "clients": n}, "unit": "MB/s",
          "higher_is_better": True,
          "runs": [{"value": 100.0 * n * factor, "document": doc(n, j)} for j in range(3)]}
         for n, name in names]
json.dump({"kbench_version": "0.1.0", "kind": "suite", "schema": 1, "label": label,
           "tests": tests}, open(out, "w"))
EOF2
python3 mkl.py la.json 2.2.18 1
python3 mkl.py lb.json 2.4.0 1.3
expect_rc "a load study drawn" 0 "$KBENCH" compare --plot l.png la.json lb.json
expect_eq "the load study: the chart and three latency pages" \
    "$(sed -n 's/^kbench compare: wrote //p' "$WORK/err" | tr '\n' ' ')" \
    "l.png l-latency.png l-latency-2.png l-latency-3.png "
expect_py "the latency pages: each a PNG of a sane size, not blank" \
    l-latency.png l-latency-2.png l-latency-3.png <pages.py
expect_py "the latency pages share the 14 rows evenly (4, 5, 5)" \
    l-latency.png l-latency-2.png l-latency-3.png <<'EOF2'
import struct, sys
hs = [struct.unpack(">II", open(f, "rb").read()[16:24])[1] for f in sys.argv[1:]]
assert hs[1] == hs[2] and hs[1] - hs[0] == 310, hs
EOF2
expect_py "the latency pages: no title off the picture or over another title or a plot" \
    "$KBENCH_TOP_SRCDIR/tests/cli/gpboxes.py" "$KB_GP_DIR" <<'EOF2'
import json, subprocess, sys
r = subprocess.run([sys.executable, sys.argv[1], "check", sys.argv[2], "--titles", "-latency"],
                   capture_output=True, text=True)
print(r.stdout, r.stderr)
counts = json.loads(r.stdout.split("\n")[0])
# 54 panels' titles, a page title on each of the four pictures
assert counts["titles"] >= 54 + 3, counts
boxes = open(sys.argv[2] + "/boxes.txt").read()
# the long name's titles: two lines, the name cut to fit
assert boxes.count('"title": ["load 10 mem=32M with a name far to...", "Flush"]') == 1, boxes[:300]
sys.exit(r.returncode)
EOF2

finish
