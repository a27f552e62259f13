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
sys.exit(0 if max(h) <= 2000 and sum(h[:3]) > 3 * h[3] and h[1] > 1500 else "heights %s" % h)
EOF2
expect_true "three pages, no fourth" test -s p-3.svg -a ! -e p-4.svg
expect_true "a later page says which rows it holds" grep -q 'rows 31 to ' p-2.svg
expect_rc "--plot PNG" 0 "$KBENCH" compare --plot p.png a.json b.json c.json
expect_eq "--plot PNG: a PNG" "$(head -c 4 p.png | od -An -c | tr -d ' ')" '211PNG'
expect_py "--plot PNG: every page at most 2000 pixels tall, 1200 wide" p.png p-2.png p-3.png <<'EOF2'
import struct, sys
for f in sys.argv[1:]:
    w, h = struct.unpack(">II", open(f, "rb").read(24)[16:24])
    assert w == 1200 and 0 < h <= 2000, (f, w, h)
EOF2

finish
