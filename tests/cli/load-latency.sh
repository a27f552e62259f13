#!/bin/sh
# kbench - command-line tests: the latency record of a load document (the
# histograms, each client's figures, the per-second series) and open loop
# SPDX-License-Identifier: GPL-3.0-or-later
. "$(dirname "$0")/lib.sh"

D="$WORK/dir"
mkdir -p "$D"

# check.py DOC TEXT: what every load document must hold, against the run's
# printed table (TEXT); prints what is wrong and exits 1
cat >"$WORK/check.py" <<'EOF2'
import json, sys
d = json.load(open(sys.argv[1]))
r = d["results"]
bad = []
def buckets(s):
    out = {}
    for pair in s.split():
        lo, c = pair.split(":")
        out[int(lo)] = out.get(int(lo), 0) + int(c)
    return out
def hi_of(lo):
    if lo < 128:
        return lo
    return lo + (1 << (lo.bit_length() - 1 - 6)) - 1
def pct(b, p, lo_ns, hi_ns):
    n = sum(b.values())
    rank = -(-p * n // 100) if isinstance(p, int) else None
    seen = 0
    for lo in sorted(b):
        seen += b[lo]
        if seen >= rank:
            v = lo + (hi_of(lo) - lo) // 2
            return min(max(v, lo_ns), hi_ns)
sch = r["histogram_scheme"]
if (sch["exact_below_ns"], sch["buckets_per_power_of_two"], sch["relative_error"]) != (128, 64, 1 / 128):
    bad.append("scheme %r" % sch)
# the merged histogram of the clients is the sum of the per-client ones
ops_sum, cl_sum = {}, {}
for name, h in r["histograms"].items():
    for lo, c in buckets(h["buckets"]).items():
        ops_sum[lo] = ops_sum.get(lo, 0) + c
for c in r["clients"]:
    for lo, n in buckets(c["hist"]).items():
        cl_sum[lo] = cl_sum.get(lo, 0) + n
if ops_sum != cl_sum or not ops_sum:
    bad.append("clients' histograms do not add up to the ops' (%d vs %d buckets)" % (len(cl_sum), len(ops_sum)))
# each op's p99 from its stored histogram is the printed one, and the JSON's
table = {}
for line in open(sys.argv[2]):
    f = line.split()
    if len(f) == 6 and f[0] in r["histograms"]:
        table[f[0]] = f
for o in r["ops"]:
    h = r["histograms"][o["name"]]
    b = buckets(h["buckets"])
    if sum(b.values()) != o["count"] or h["count"] != o["count"]:
        bad.append("%s: %d counts in the histogram, %d ops" % (o["name"], sum(b.values()), o["count"]))
    if not o["count"]:
        continue
    p99 = pct(b, 99, round(h["min_ms"] * 1e6), round(o["max_ms"] * 1e6)) / 1e6
    if "%.3f" % p99 != table[o["name"]][4] or abs(p99 - o["p99_ms"]) > 1e-6:
        bad.append("%s: p99 from the histogram %.6f, printed %s, JSON %s" % (o["name"], p99, table[o["name"]][4], o["p99_ms"]))
    p50 = pct(b, 50, round(h["min_ms"] * 1e6), round(o["max_ms"] * 1e6)) / 1e6
    if abs(p50 - o["p50_ms"]) > 1e-6:
        bad.append("%s: p50 from the histogram %.6f, JSON %s" % (o["name"], p50, o["p50_ms"]))
# each client's figures add up to the run's, and their spread
cl = r["clients"]
if len(cl) != d["params"]["clients"]:
    bad.append("%d clients listed" % len(cl))
for k in ("ops", "bytes", "errors"):
    want = r["ops_total" if k == "ops" else k]
    if sum(c[k] for c in cl) != want:
        bad.append("clients' %s add to %d, not %d" % (k, sum(c[k] for c in cl), want))
mb = [c["bytes"] / 1e6 / r["measured_s"] for c in cl]
for c, m in zip(cl, mb):
    if abs(c["MBps"] - m) > 1e-6 * m + 1e-9:
        bad.append("client %d: MBps %s, not %s" % (c["client"], c["MBps"], m))
s = r["clients_summary"]
srt = sorted(mb)
med = srt[len(srt) // 2] if len(srt) % 2 else (srt[len(srt) // 2 - 1] + srt[len(srt) // 2]) / 2
jain = sum(mb) ** 2 / (len(mb) * sum(x * x for x in mb))
for k, v in (("MBps_min", srt[0]), ("MBps_median", med), ("MBps_max", srt[-1]), ("jain_index", jain)):
    if abs(s[k] - v) > 1e-6 * v + 1e-9:
        bad.append("clients_summary %s %s, not %s" % (k, s[k], v))
# the series: exactly its shape, a point a second from 1
ser = r["series"]
if set(ser) != {"interval_s", "points"} or ser["interval_s"] != 1:
    bad.append("series keys %r" % sorted(ser))
for i, p in enumerate(ser["points"]):
    if set(p) != {"t", "warmup", "bytes", "ops", "lat_max_ms", "lat_p99_ms"} or p["t"] != i + 1:
        bad.append("point %d: %r" % (i, p))
        break
    if p["ops"] and not (0 < p["lat_p99_ms"] <= p["lat_max_ms"]):
        bad.append("point %d: p99 %s, max %s" % (i, p["lat_p99_ms"], p["lat_max_ms"]))
if bad:
    print("\n".join(bad[:20]))
    sys.exit(1)
EOF2

# --- one pass of 3 clients: everything is measured, so the series adds
# up to the totals exactly --------------------------------------------------
kload --run-once -D "$D" --json "$WORK/once.json" 3
expect_status "one pass of 3 clients exits 0" 0
expect_py "document: histograms, clients, series" "$WORK/check.py" "$WORK/once.json" "$WORK/out"
expect_eq "series: every op and byte of the pass, none in a warm-up" \
    "$(jget "$WORK/once.json" '(lambda r, p: (sum(x["ops"] for x in p) == r["ops_total"], sum(x["bytes"] for x in p) == r["bytes"], any(x["warmup"] for x in p), len(p) >= 1))(d["results"], d["results"]["series"]["points"])')" \
    "(True, True, False, True)"
expect_eq "closed loop is the default and said" "$(jget "$WORK/once.json" 'd["params"]["latency_from"]')" start

# --- a timed run with a warm-up: the warm-up's seconds are marked, the
# measured ones hold the window's ops (and at most one straddling op a
# client more) -------------------------------------------------------------
kload -t 2 --warmup 1 -D "$D" --json "$WORK/t.json" 2
expect_status "a 3-second run exits 0" 0
expect_py "document of a timed run" "$WORK/check.py" "$WORK/t.json" "$WORK/out"
expect_eq "series: 3 points, the first the warm-up's; measured ops within 2 of the total" \
    "$(jget "$WORK/t.json" '(lambda r, p: ([x["warmup"] for x in p], 0 <= sum(x["ops"] for x in p if not x["warmup"]) - r["ops_total"] <= 2))(d["results"], d["results"]["series"]["points"])')" \
    "([True, False, False], True)"
# the progress line reads a second as it ends, the series a second later:
# an op noted in between (a client preempted) may differ, by its bytes
grep -E ' sec  latency' "$WORK/out" | awk '{print $3}' >"$WORK/printed"
expect_py "series: the printed seconds' bytes" "$WORK/t.json" "$WORK/printed" <<'EOF2'
import json, sys
pts = json.load(open(sys.argv[1]))["results"]["series"]["points"]
printed = [float(x) for x in open(sys.argv[2]).read().split()]
if len(printed) < 2 or any(abs(p["bytes"] / 1e6 - x) > 0.01 + 2 * 65536 / 1e6 for p, x in zip(pts, printed)):
    print(printed, [p["bytes"] / 1e6 for p in pts])
    sys.exit(1)
EOF2

# --- open loop: a Sleep of 1 s holds the client; the Qfsinfo ops behind it
# were due when it began (-R: no bytes moved, so the rate holds nothing
# back; with timestamps: the Sleep's time and theirs are 0.001) -----------------------------
{ echo 'Sleep 1000000 NT_STATUS_OK'
  i=0; while [ $i -lt 30 ]; do echo 'QUERY_FS_INFORMATION 1007 NT_STATUS_OK'; i=$((i + 1)); done
} >"$WORK/stall.txt"
sed 's/^/0.001 /' "$WORK/stall.txt" >"$WORK/stall-timed.txt"
qfs='(lambda h: (h["count"], h["min_ms"] >= 1000, h["p99_ms"] >= 1000))(d["results"]["histograms"]["Qfsinfo"])'
kload --run-once -R 100 --latency-from due -c "$WORK/stall.txt" -D "$D" --json "$WORK/open.json" 1
expect_status "-R, open loop: exits 0" 0
expect_eq "-R, open loop: every Qfsinfo carries the 1 s stall" "$(jget "$WORK/open.json" "$qfs")" "(30, True, True)"
expect_eq "-R, open loop: said in the document" "$(jget "$WORK/open.json" 'd["params"]["latency_from"]')" due
expect_out_grep "-R: a schedule line with the lag, 1 s or more" \
    '^schedule \(-R 100 MB/sec a client\): 30 ops started late, by [0-9.]+ ms on average, [0-9.]+ ms at most; p99 lag per client: min 1[0-9]{3}\.[0-9]{3}  median 1[0-9]{3}\.[0-9]{3}  max 1[0-9]{3}\.[0-9]{3} ms$'
expect_eq "-R: the lag in the document" \
    "$(jget "$WORK/open.json" '(lambda s, c: (s["late_ops"], s["lag_p99_ms"]["max"] >= 1000, c[0]["lag_p99_ms"] >= 1000))(d["results"]["schedule"], d["results"]["clients"])')" \
    "(30, True, True)"
kload --run-once -R 100 -c "$WORK/stall.txt" -D "$D" --json "$WORK/closed.json" 1
expect_eq "-R, closed loop: no Qfsinfo near the stall" \
    "$(jget "$WORK/closed.json" "$qfs")" "(30, False, False)"
expect_eq "-R, closed loop: said in the document" "$(jget "$WORK/closed.json" 'd["params"]["latency_from"]')" start
kload --run-once --latency-from due -c "$WORK/stall-timed.txt" -D "$D" --json "$WORK/topen.json" 1
expect_eq "timestamps, open loop: every Qfsinfo carries the stall" "$(jget "$WORK/topen.json" "$qfs")" "(30, True, True)"
expect_out_grep "timestamps: the schedule line counts them late (and the Sleep, by its wake-up)" '^schedule: 31 timed ops started late, .*; p99 lag per client: min 1[0-9]{3}\.'
kload --run-once -c "$WORK/stall-timed.txt" -D "$D" --json "$WORK/tclosed.json" 1
expect_eq "timestamps, closed loop: no Qfsinfo near the stall" "$(jget "$WORK/tclosed.json" "$qfs")" "(30, False, False)"

# --- bad input --------------------------------------------------------------
expect_bad "--latency-from due without a schedule" "^kbench load: --latency-from due needs a schedule: -R or a loadfile with timestamps \($WORK/stall.txt has none\)" \
    "$KBENCH" load --run-once --latency-from due -c "$WORK/stall.txt" -D "$D" 1
expect_bad "--latency-from with another word" "^kbench load: --latency-from must be start or due, not 'end'" \
    "$KBENCH" load --run-once --latency-from end -c "$WORK/stall.txt" -D "$D" 1
expect_bad "suite: --latency-from with another word" "^kbench suite: --latency-from must be start or due, not 'end'" \
    "$KBENCH" suite --latency-from end -D "$D" -o "$WORK/s.json"

finish
