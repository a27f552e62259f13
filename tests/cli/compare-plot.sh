#!/bin/sh
# kbench - command-line tests: compare --plot with many tests: a label a
# test, grouped by family, right meaning better, one colour a file in every
# chart, disk tests in MiB/s, the picture growing with the count
# SPDX-License-Identifier: GPL-3.0-or-later
. "$(dirname "$0")/lib.sh"
cd "$WORK" || exit 1

if ! command -v gnuplot >/dev/null 2>&1; then
    skip "--plot: no gnuplot"
    finish
fi

# mk.py OUT LABEL FACTOR NMICRO: a results file of NMICRO/2 BYTE tests
# (higher is better), NMICRO/2 lmbench latencies (lower is better), two
# disk tests and two load tests, three runs each; FACTOR scales every
# figure (a latency too: 1.2 is 20% faster throughput and 20% slower
# latency)
cat >mk.py <<'EOF2'
import json, sys
out, label, factor, nmicro = sys.argv[1], sys.argv[2], float(sys.argv[3]), int(sys.argv[4])
def runs(v):
    return [{"value": v * factor * s} for s in (0.99, 1.0, 1.01)]
tests = []
for i in range(nmicro // 2):
    tests.append({"name": "byte_t%02d" % i, "params": {"command": "micro", "family": "byte"},
                  "unit": "lps", "higher_is_better": True, "runs": runs(1000 + i)})
for i in range(nmicro // 2):
    tests.append({"name": "lat_t%02d" % i, "params": {"command": "micro", "family": "lmbench"},
                  "unit": "us", "higher_is_better": False, "runs": runs(5 + i)})
for t, v in (("-T", 9000.0), ("-t", 400.0)):
    tests.append({"name": "disk " + t, "params": {"command": "disk", "test": t},
                  "unit": "MiB/s", "higher_is_better": True, "runs": runs(v)})
for n in (1, 4):
    tests.append({"name": "load %d" % n, "params": {"command": "load", "clients": n},
                  "unit": "MB/s", "higher_is_better": True, "runs": runs(100 * n)})
json.dump({"kbench_version": "0.1.0", "kind": "suite", "schema": 1, "label": label,
           "tests": tests}, open(out, "w"))
EOF2
python3 mk.py a.json base 1 80
python3 mk.py b.json two 1.2 80
python3 mk.py c.json three 0.9 80
python3 mk.py a4.json base 1 4
python3 mk.py b4.json two 1.2 4

expect_rc "--plot of 80 tests, three files" 0 "$KBENCH" compare --plot p.svg a.json b.json c.json
expect_eq "every page written named on stderr" "$(grep '^kbench compare: wrote ' "$WORK/err" | tr '\n' ' ')" \
    "kbench compare: wrote p.svg kbench compare: wrote p-2.svg kbench compare: wrote p-3.svg "
expect_py "the pages after the first share their rows: no page of a few rows" p-2.svg p-3.svg <<'EOF2'
import re, sys
n = []
for f in sys.argv[1:]:
    lo, hi = map(int, re.search(r"rows (\d+) to (\d+) of \d+", open(f).read()).groups())
    n.append(hi - lo + 1)
sys.exit(0 if min(n) * 2 >= max(n) else "rows a page %s" % n)
EOF2
expect_rc "--plot of 4 tests" 0 "$KBENCH" compare --plot small.svg a4.json b4.json
expect_py "a label a test over the pages, families as headings, disk in its own chart too" p.svg p-2.svg p-3.svg <<'EOF2'
import re, sys, xml.dom.minidom
svg = "".join(open(f).read() for f in sys.argv[1:])
for f in sys.argv[1:]:
    xml.dom.minidom.parseString(open(f).read())
texts = [re.sub(r"<[^>]+>", "", t) for t in re.findall(r"<text\b.*?</text>", svg, re.S)]
bad = []
for i in range(40):
    for name, tail in (("byte_t%02d" % i, " (lps)"), ("lat_t%02d" % i, " (us, lower is better)")):
        if texts.count(name + tail) != 1:
            bad.append((name, [t for t in texts if t.startswith(name)]))
for d in ("disk -T", "disk -t"):
    if texts.count(d + " (MiB/s)") != 2:       # the change chart and the disk chart
        bad.append((d, texts.count(d + " (MiB/s)")))
heads = [t for t in texts if re.fullmatch(r"\[\w+\]", t)]
if heads != ["[disk]", "[byte]", "[lmbench]"] and sorted(heads) != ["[byte]", "[disk]", "[lmbench]"]:
    bad.append(("headings", heads))
if bad:
    print(bad[:5])
    sys.exit(1)
EOF2
expect_py "one colour a file, the same in each of the three charts" p.svg <<'EOF2'
import re, sys
svg = open(sys.argv[1]).read()
colors = {"A": "rgb(  0, 114, 178)", "B": "rgb(213,  94,   0)", "C": "rgb(  0, 158, 115)"}
seen = {}
# a plot's group: from its <g id="gnuplot_plot_..."> to the next one
for part in svg.split('<g id="gnuplot_plot_')[1:]:
    m = re.match(r"\w+\"\s*>\s*<title>([A-C]): [^<]*</title>", part)
    if not m:
        continue
    used = set(re.findall(r"rgb\(\s*\d+,\s*\d+,\s*\d+\)", part))
    seen.setdefault(m.group(1), []).append(colors[m.group(1)] in used)
if sorted(seen) != ["A", "B", "C"] or any(len(v) != 3 or not all(v) for v in seen.values()):
    print(seen)
    sys.exit(1)
EOF2
expect_py "disk tests in MiB/s: each file's median, as a label" p.svg <<'EOF2'
import re, sys
svg = open(sys.argv[1]).read()
texts = [re.sub(r"<[^>]+>", "", t) for t in re.findall(r"<text\b.*?</text>", svg, re.S)]
want = ["9000.00", "10800.00", "8100.00", "400.00", "480.00", "360.00"]
missing = [w for w in want if w not in texts]
if missing or "kbench disk: each file's median in the test's unit, right is better" not in svg:
    print(missing)
    sys.exit(1)
EOF2
expect_py "the picture grows with the count of tests, a page at most 2000 pixels tall" p.svg p-2.svg p-3.svg small.svg <<'EOF2'
import re, sys
h = [float(re.search(r"<svg[^>]*\bviewBox=\"0 0 \d+ (\d+)\"", open(f).read()).group(1)) for f in sys.argv[1:]]
sys.exit(0 if max(h) <= 2000 and sum(h[:3]) > 3 * h[3] and h[1] > 1000 else "heights %s" % h)
EOF2
expect_true "three pages, no fourth" test -s p-3.svg -a ! -e p-4.svg
expect_true "a later page says which rows it holds" grep -Eq 'rows [0-9]+ to [0-9]+ of [0-9]+' p-2.svg
# what stands out is what was proven: a proven change a filled bar, a row
# without one a thin grey line (no bar), in the change chart's groups
python3 mk.py a6.json base 1 8
python3 mk.py b6.json two 1.2 8
python3 - a6.json b6.json <<'EOF2'
import json, sys
for f in sys.argv[1:]:
    d = json.load(open(f))
    for i, t in enumerate(d["tests"]):
        v = t["runs"][1]["value"]
        # six runs; the first three tests of each family unchanged in B
        t["runs"] = [{"value": v * s} for s in (0.99, 0.995, 1.0, 1.002, 1.005, 1.01)]
    if "b6" in f:
        for t in d["tests"]:
            if t["name"] in ("byte_t00", "byte_t01", "lat_t00", "lat_t01"):
                t["runs"] = [{"value": r["value"] / 1.2} for r in t["runs"]]
    json.dump(d, open(f, "w"))
EOF2
run "$KBENCH" compare --json a6.json b6.json
proven=$(jget "$WORK/out" 'sum(r["files"][1]["verdict"] in ("better", "worse") for r in d["rows"] if not r["test"].startswith("load"))')
unproven=$(jget "$WORK/out" 'sum(r["files"][1]["verdict"] not in ("better", "worse") for r in d["rows"] if not r["test"].startswith("load"))')
expect_true "the study has proven and unproven rows ($proven, $unproven)" [ "$proven" -ge 2 ] && [ "$unproven" -ge 2 ]
expect_rc "--plot: proven and unproven rows" 0 "$KBENCH" compare --plot pv.svg a6.json b6.json
expect_py "a filled bar a proven change, a grey line and no bar each other row" pv.svg "$proven" "$unproven" <<'EOF2'
import re, sys
svg, proven, unproven = open(sys.argv[1]).read(), int(sys.argv[2]), int(sys.argv[3])
groups = []
for p in svg.split('<g id="gnuplot_plot_')[1:]:
    m = re.match(r'\w+"\s*>\s*<title>([^<]*)</title>', p)
    groups.append((m.group(1) if m else None, p))
# the change chart is the last: from its baseline's runs on
start = max(i for i, (t, _) in enumerate(groups) if t and t.endswith("(the baseline): its runs"))
bars = [p for t, p in groups[start:] if t and t.startswith("B: ")][0]
grey = groups[start + 2][1]       # the group after B's bars: the grey lines
nbars = bars.count("<polygon") - 1              # less the key's sample
nlines = grey.count("M") // 3 if "154, 154, 154" in grey else 0   # a line and two ticks each
sys.exit(0 if (nbars, nlines) == (proven, unproven) else "bars %d lines %d" % (nbars, nlines))
EOF2
expect_file_grep "the key says what a grey line is" pv.svg 'grey line: no proven change \(within the noise, or too few runs\)'
expect_no_grep "no outline bars any more" pv.svg 'outline: within the noise'

# compare --by mem: the key names the label and the limit, not the path
python3 - a.json m.json <<'EOF2'
import json, sys
d = json.load(open(sys.argv[1]))
d["tests"] = [dict(t, name=t["name"] + " mem=" + m) for t in d["tests"] if t["name"].startswith("load")
              for m in ("none", "32M")]
json.dump(d, open(sys.argv[2], "w"))
EOF2
expect_rc "--by mem --plot" 0 "$KBENCH" compare --by mem --plot m.svg m.json
expect_file_grep "--by mem: the key names the label and the limit" m.svg '<title>B: base mem=32M</title>'
expect_no_grep "--by mem: not the file's path" m.svg '<title>[AB]: m\.json'

# a comparison with no test in two files draws nothing: said, exit 1
python3 - a4.json imp.json <<'EOF2'
import json, sys
d = json.load(open(sys.argv[1]))
for t in d["tests"]:
    t["name"] = "old: " + t["name"]
    t["params"] = {"command": "import", "tool": "an old tool"}
json.dump(d, open(sys.argv[2], "w"))
EOF2
expect_rc "--plot with nothing in common: exit 1" 1 "$KBENCH" compare --plot none.svg imp.json b4.json
expect_true "--plot with nothing in common: no file" test ! -e none.svg

expect_rc "--plot PNG" 0 "$KBENCH" compare --plot p.png a.json b.json c.json
expect_eq "--plot PNG: a PNG" "$(head -c 4 p.png | od -An -c | tr -d ' ')" '211PNG'
expect_py "--plot PNG: every page at most 2000 pixels tall, 1200 wide" p.png p-2.png p-3.png <<'EOF2'
import struct, sys
for f in sys.argv[1:]:
    w, h = struct.unpack(">II", open(f, "rb").read(24)[16:24])
    assert w == 1200 and 0 < h <= 2000, (f, w, h)
EOF2

finish
