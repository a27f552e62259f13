#!/bin/sh
# kbench - command-line tests: compare's forms as a tester posts a study:
# two builds of one kernel told apart by their labels in every form, a
# caveated figure marked in --style runs, no figure in exponent form,
# lmbench's Mhz from the runs' documents, an imported report's date
# SPDX-License-Identifier: GPL-3.0-or-later
. "$(dirname "$0")/lib.sh"
cd "$WORK" || exit 1

# two builds of one kernel on one machine, told apart only by --label;
# A's second disk -T run read a sparse file
python3 - <<'PY'
import json
def doc(path, label, lat, caveat_run=None):
    def run(v, d):
        return {"value": v, "started": "2026-01-01T00:00:00Z", "seconds": 1.0, "document": d}
    lruns = [run(v, {"kind": "micro", "system": {"mhz": 2445}}) for v in lat]
    druns = [run(v, {"kind": "disk", "caveats": [{"key": "sparse_file", "text": "the file is sparse",
                                                   "evidence": {}}]} if i == caveat_run else {})
             for i, v in enumerate([14000.5, 14010.25, 13990, 14002])]
    truns = [run(34226000.0 + i, {}) for i in range(4)]
    tests = [{"name": "lat_syscall_null", "unit": "us", "higher_is_better": False, "runs": lruns,
              "params": {"command": "micro", "family": "lmbench", "title": "null call"}},
             {"name": "disk -T", "unit": "MiB/s", "higher_is_better": True, "runs": druns,
              "params": {"command": "disk"}},
             {"name": "byte_dhry2", "unit": "lps", "higher_is_better": True, "runs": truns,
              "params": {"command": "micro", "family": "byte", "title": "Dhrystone"}}]
    json.dump({"kbench_version": "0.1.0", "kind": "suite", "schema": 1, "label": label,
               "time": "2026-01-01T00:00:00Z", "params": {},
               "system": {"kernel": "6.18.44-fc-v1272", "hostname": "vm", "machine": "x86_64",
                          "kernel_version": "#1 SMP PREEMPT_DYNAMIC"},
               "started": "2026-01-01T00:00:00Z", "finished": True, "tests": tests},
              open(path, "w"))
doc("a.json", "buildA", [0.38, 0.39, 0.40, 0.41], caveat_run=1)
doc("b.json", "buildB", [0.48, 0.49, 0.50, 0.51])
PY

# ---- the labels where the seeds put the kernel's name ----
expect_rc "lkml of two builds (A's -T not comparable)" 3 "$KBENCH" compare --style lkml a.json b.json
expect_out_grep "From: names A's build" '^From: buildA$'
expect_out_grep "To: names B's build" '^To: buildB$'
expect_out_grep "a caveated figure marked in the lkml line" '^disk -T \(MiB/s\) \|\| 14001\.2 -> 14001\.2 \+0\.00% not-comparable  \[caveats A: sparse_file\*\]$'
expect_out_grep "the mark's key line" '^\(\[caveats A: KEY\]: '
expect_out_grep "the uname line stays under it" '^\* Linux vm 6\.18\.44-fc-v1272 #1 SMP PREEMPT_DYNAMIC x86_64$'
expect_rc "runs of two builds" 0 "$KBENCH" compare --style runs a.json b.json
expect_out_grep "the runs' block of A headed by its label" '^buildA \(kernel 6\.18\.44-fc-v1272\):$'
expect_out_grep "the runs' block of B headed by its label" '^buildB \(kernel 6\.18\.44-fc-v1272\):$'
expect_rc "the table of two builds (A's -T not comparable)" 3 "$KBENCH" compare a.json b.json
expect_out_grep "lmbench's OS column: A's label and run" '^vm +Linux buildA A1 +2445 +0\.38$'
expect_out_grep "lmbench's OS column: B's label and run" '^vm +Linux buildB B4 +2445 +0\.51$'
expect_out_grep "lmbench's Mhz from the runs' documents" '^vm +Linux buildA A2 +x86_64-linux-gnu +2445$'

# ---- a caveated figure marked in --style runs, its key line under it ----
"$KBENCH" compare --style runs a.json b.json >runs.txt 2>&1
expect_file_grep "A's second -T run marked unsound" runs.txt '^hdparm -T 14000\.50 14010\.25\* 13990\.00 14002\.00$'
expect_file_grep "B's runs unmarked" runs.txt '^hdparm -T 14000\.50 14010\.25 13990\.00 14002\.00$'
expect_file_grep "the key line names the build, test, caveat and run" runs.txt '^  buildA hdparm -T: sparse_file\* \(run 2\)$'
expect_file_grep "the caveat's meaning" runs.txt '^  sparse_file: .*sparse'

# ---- no figure in exponent form, in any form ----
expect_file_grep "runs: BYTE's lps whole, the test with BYTE's title and its unit" runs.txt '^byte_dhry2: Dhrystone 2 using register variables \(lps\) 34226000 34226001 34226002 34226003$'
expect_rc "the table of two builds" 3 "$KBENCH" compare a.json b.json
expect_out_grep "the table: a BYTE test with BYTE's title" '^byte_dhry2: Dhrystone 2 using register variables +lps +A +4 +34226001\.5 '
for style in table lkml runs; do
    "$KBENCH" compare --style $style a.json b.json >form.txt 2>&1
    expect_no_grep "--style $style: no figure in exponent form" form.txt '[0-9]e[-+]?[0-9]'
done

# ---- one label is not shown when the kernel names the file ----
mk_results k1.json 6.1.0 "load 5=7.5,8.25,8"
mk_results k2.json 6.2.0 "load 5=9,9.5"
expect_rc "lkml of two kernels" 0 "$KBENCH" compare --style lkml k1.json k2.json
expect_out_grep "From: alone when the label is the kernel" '^From:$'
expect_rc "runs of two kernels" 0 "$KBENCH" compare --style runs k1.json k2.json
expect_out_grep "the kernel heads its block" '^6\.1\.0:$'

# ---- one line for the rows with too few runs alike ----
mk_results few-a.json a "load 1=5" "load 2=6" "load 3=7" "load 4=8" "load 5=9"
mk_results few-b.json b "load 1=5" "load 2=6" "load 3=7" "load 4=8" "load 5=9"
expect_rc "five rows of one run a side" 0 "$KBENCH" compare few-a.json few-b.json
expect_out_grep "too few runs: one line for the five" '^runs: 5 tests B: too few runs: the U test needs 4 runs a side at 95% \(A has 1, B 1, each\): load 1, load 2, load 3 and 2 more$'
expect_lines "no line a row" -eq 1 "$WORK/out" '^runs: '

# ---- the charts: one scale per test kind, proof drawn apart from noise ----
if command -v gnuplot >/dev/null 2>&1; then
    python3 - <<'PY'
import json
def doc(path, label, t_speed, pipe, sparse):
    def run(v, i, name):
        d = {"caveats": [{"key": "sparse_file", "text": "sparse", "evidence": {}}]} \
            if sparse and name == "disk -t" and i == 1 else {}
        return {"value": v, "started": "2026-01-01T00:00:00Z", "seconds": 1.0, "document": d}
    rows = (("disk -T", "MiB/s", True, "disk", [14000, 14100, 13900, 14050, 13950]),
            ("disk -t", "MiB/s", True, "disk", [t_speed + d for d in (0, 2, -2, 1, -1)]),
            ("lat_pipe_1cpu", "us", False, "micro", [pipe + d for d in (0, .1, -.1, .05, -.05)]),
            ("lat_syscall_null", "us", False, "micro", [.38, .39, .40, .41, .42]))
    tests = [{"name": n, "unit": u, "higher_is_better": h, "params": {"command": c, "family": "lmbench"},
              "runs": [run(v, i, n) for i, v in enumerate(vals)]} for n, u, h, c, vals in rows]
    json.dump({"kbench_version": "0.1.0", "kind": "suite", "schema": 1, "label": label, "params": {},
               "system": {"kernel": "6.18.44", "hostname": "vm", "machine": "x86_64"},
               "finished": True, "tests": tests}, open(path, "w"))
doc("pa.json", "buildA", 200, 5.0, True)
doc("pb.json", "buildB", 260, 3.0, False)
PY
    expect_rc "a chart of two builds (A's -t not comparable)" 3 "$KBENCH" compare --plot pc.svg pa.json pb.json
    expect_file_grep "disk: a log axis when -T and -t differ tenfold" pc.svg 'MiB/s \(log scale\)'
    expect_file_grep "a change beyond the noise drawn filled, said in the key" pc.svg 'filled: a change beyond the noise'
    expect_file_grep "within the noise drawn as a grey line" pc.svg 'grey line: no proven change \(within the noise, or too few runs\)'
    expect_file_grep "not comparable drawn as such, named beside the test" pc.svg 'disk -t \(MiB/s; B: not comparable\)'
    expect_file_grep "...and in the key" pc.svg 'grey, hatched: not comparable \(a caveat\)'
    expect_file_grep "a run with a caveat marked in the chart" pc.svg 'diamond ring: a run with a caveat'
    mk_results la.json buildA "load 10=900,910,905,915" "load 1=300,301,302,303"
    mk_results lb.json buildB "load 10=990,991,992,993" "load 1=330,331,332,333"
    python3 -c 'import json
d = json.load(open("la.json"))
d["tests"][0]["runs"][2]["document"] = {"caveats": [{"key": "unsteady", "text": "a trend", "evidence": {}}]}
json.dump(d, open("la.json", "w"))'
    expect_rc "a load chart, A's third run of load 10 with a caveat" 0 "$KBENCH" compare --plot lc.svg la.json lb.json
    expect_file_grep "the load chart marks a run with a caveat" lc.svg 'a run with a caveat'
    expect_rc "a chart of two builds, PNG" 3 "$KBENCH" compare --plot pc.png pa.json pb.json
    expect_py "the PNG at most 2000 pixels tall" pc.png <<'PY'
import struct, sys
b = open(sys.argv[1], "rb").read(24)
w, h = struct.unpack(">II", b[16:24])
assert b[:8] == b"\x89PNG\r\n\x1a\n" and w == 1200 and 0 < h <= 2000, (w, h)
PY
else
    skip "the charts: no gnuplot"
fi

# ---- an imported report's date ----
cat >byte.txt <<'B'
BYTE UNIX Benchmarks (Version 4.1.0)
System -- Linux saturn 2.4.0-test6 #30 SMP Wed Aug 2 21:42:25 BST 2000 i686 unknown
Start Benchmark Run: Thu Aug 3 11:46:17 BST 2000
Dhrystone 2 using register variables 1170683.8 lps (10.0 secs, 10 samples)
B
"$KBENCH" import -o old.json byte.txt >/dev/null 2>&1
cp old.json old2.json
expect_rc "an imported report against a copy" 0 "$KBENCH" compare old.json old2.json
expect_out_grep "the report's own date, not ?" '^A  old\.json: .*, run Thu Aug 3 11:46:17 BST 2000$'

# ---- old against new: an imported BYTE report beside kbench's BYTE tests ----
cat >byte2.txt <<'B'
BYTE UNIX Benchmarks (Version 4.1.0)
System -- Linux saturn 2.4.0-test6 #30 SMP Wed Aug 2 21:42:25 BST 2000 i686 unknown
Start Benchmark Run: Thu Aug 3 11:46:17 BST 2000
Dhrystone 2 using register variables 1170683.8 lps (10.0 secs, 10 samples)
Double-Precision Whetstone 264.7 MWIPS (9.7 secs, 10 samples)

INDEX VALUES
TEST BASELINE RESULT INDEX

Dhrystone 2 using register variables 116700.0 1170683.8 100.3
Double-Precision Whetstone 55.0 264.7 48.1
=========
FINAL SCORE 69.5
B
"$KBENCH" import -o byte-old.json byte2.txt >/dev/null 2>&1
python3 - <<'PY'
import json
tests = [{"name": n, "params": {"command": "micro", "family": "byte", "title": n}, "unit": u,
          "higher_is_better": True,
          "runs": [{"value": v, "started": None, "seconds": 1.0} for v in vals]}
         for n, u, vals in (("byte_dhry2", "lps", [46680000, 46670000, 46690000]),
                            ("byte_whet", "MWIPS", [5500, 5500, 5500]))]
json.dump({"kbench_version": "0.1.0", "kind": "suite", "schema": 1, "label": "6.18.44",
           "system": {"kernel": "6.18.44", "hostname": "vm", "machine": "x86_64"},
           "params": {"micro_quick": True}, "finished": True, "tests": tests},
          open("byte-new.json", "w"))
PY
expect_rc "an imported BYTE report against kbench's BYTE tests" 0 "$KBENCH" compare byte-old.json byte-new.json
expect_out_grep "marked as from different tools" '^\(from different tools: '
expect_out_grep "A's tool named" '^  A: BYTE UNIX Benchmarks 4\.1\.0$'
expect_out_grep "B's tool named" '^  B: kbench micro \(BYTE.s tests\)$'
expect_out_grep "one row: the report's result and index beside kbench's" '^Dhrystone 2 using register variables +116700\.0 +1170683\.8 +100\.3 +46680000\.0 +4000\.0$'
expect_out_grep "the FINAL SCOREs side by side" '^FINAL SCORE +69\.5 +2000\.0$'
expect_out_grep "the change between tools, no verdict" '^  B against A: \+2778\.39%  different tools: no verdict$'
expect_no_grep "no row sets kbench's figure against BYTE's" "$WORK/out" '^byte: .*MWIPS +A'
expect_out_grep "up front: each file's tool, and what a verdict sets against what" \
    '^tools: A BYTE UNIX Benchmarks 4\.1\.0, B kbench: a verdict sets figures of one tool only'
expect_lines "the report's tests not compared: one line, not one a test" -eq 1 "$WORK/out" \
    '^  A  [0-9]+ tests? of BYTE UNIX Benchmarks 4\.1\.0: no other file holds this tool.s figures$'
expect_no_grep "no 'only in A' line a test" "$WORK/out" 'only in A$'

# no BYTE test on one side: the reason, not just "nothing to compare"
expect_rc "an imported BYTE report against a load" 1 "$KBENCH" compare byte-old.json k1.json
expect_err_grep "the reason: the files come from different tools" "nothing to compare: A holds BYTE UNIX Benchmarks 4\.1\.0's figures, B kbench's; a tool's tests keep its names"

# ---- no two tools' figures under one row name in --style runs ----
printf 'dbench version 4.00\nThroughput 45.89 MB/sec  1 clients  1 procs  max_latency=24.879 ms\n' >db.txt
"$KBENCH" import --kernel 2.4.0 -o db-old.json db.txt >/dev/null 2>&1
mk_results db-new.json 6.18 "load 1=341"
expect_rc "real dbench's runs beside kbench's load" 0 "$KBENCH" compare --style runs db-old.json db-new.json
expect_out_grep "dbench's own figure under dbench's name" '^dbench 1 45\.89$'
expect_out_grep "kbench's load under kbench's name" '^kbench load 1 341$'
expect_no_grep "kbench's figure never under dbench's name" "$WORK/out" '^dbench 1 341'

# ---- notes: different machines, --micro-quick against a full run ----
python3 - <<'PY'
import json
for path, desc, mhz, quick in (("m1.json", "133 MHz Pentium", 133, False), ("m2.json", "400 MHz Pentium II", 400, True)):
    d = json.load(open("byte-new.json"))
    d["system"]["description"], d["system"]["mhz"], d["params"]["micro_quick"] = desc, mhz, quick
    json.dump(d, open(path, "w"))
PY
expect_rc "two machines compared" 0 "$KBENCH" compare m1.json m2.json
expect_out_grep "the machines differ" '^note: the machine differs: A 133 MHz Pentium, B 400 MHz Pentium II$'
expect_out_grep "the clock rates differ" '^note: the clock rate \(MHz\) differs: A 133, B 400$'
expect_out_grep "--micro-quick against a full run" "^note: B's micro tests ran with --micro-quick .*, A's in full"

finish
