#!/bin/sh
# kbench - command-line tests: kbench import, every form it reads, from
# made-up inputs (tests/data/import) and from the four seed reports
# SPDX-License-Identifier: GPL-3.0-or-later
#
# The seed reports are not part of kbench: they are read from
# ../shared/data/seeds beside the source tree, or from KBENCH_SEEDS.
# Without them those checks say they skipped.
. "$(dirname "$0")/lib.sh"

IN="$DATA/import"
SEEDS=${KBENCH_SEEDS:-$KBENCH_TOP_SRCDIR/../shared/data/seeds}
cd "$WORK" || exit 1

# ---- dbench and tbench ----
expect_rc "dbench output" 0 "$KBENCH" import --kernel 6.1.0 -o dbench.json "$IN/dbench.txt"
expect_eq "dbench 4's line" "$(jget dbench.json '[(t["name"], [r["value"] for r in t["runs"]], t["unit"], t["params"]["tool"]) for t in d["tests"] if t["name"] == "dbench 10"]')" \
    "[('dbench 10', [590.123], 'MB/s', 'dbench 4.00')]"
expect_eq "dbench 1's lines: three runs of dbench 5 (the last without 'procs' is of the './dbench 5' above), with their lines" \
    "$(jget dbench.json '[([r["value"] for r in t["runs"]], [r["source"]["line"] for r in t["runs"]]) for t in d["tests"] if t["name"] == "dbench 5"]')" \
    "[([7.97753, 8.13792, 8.1], [10, 11, 12])]"
expect_eq "--kernel names the kernel" "$(jget dbench.json 'd["system"]["kernel"]')" "6.1.0"
expect_rc "tbench output" 0 "$KBENCH" import -o tbench.json "$IN/tbench.txt"
expect_eq "tbench's runs are tbench's test" "$(jget tbench.json '[(t["name"], len(t["runs"])) for t in d["tests"]]')" "[('tbench 3', 2)]"
expect_rc "a Throughput line no command names: nothing read" 1 "$KBENCH" import -o x.json "$IN/nameless.txt"
expect_err_grep "the line is named, and why" "nameless.txt:2: skipped: no line above names dbench or tbench"
expect_true "nothing written" test ! -e x.json

# ---- kernels and headings: never one pooled system ----
expect_rc "dbench 1.x runs under two kernel lines" 0 "$KBENCH" import -o 'dk-%k.json' "$IN/dbench1-kernels.txt"
expect_eq "each kernel its own file; the count from 'dbench 16' and '16 clients started'" \
    "$(jget dk-2.4.7-ac3.json '[(t["name"], [r["value"] for r in t["runs"]]) for t in d["tests"]]') $(jget dk-2.4.7-ac9.json '[(t["name"], [r["value"] for r in t["runs"]]) for t in d["tests"]]')" \
    "[('dbench 16', [37.7379])] [('dbench 16', [30.0396]), ('hdparm -t /dev/hda1', [30.48]), ('hdparm -t /dev/hda3', [25.6])]"
expect_rc "one kernel, runs under 'before' and 'after' headings" 0 "$KBENCH" import -o 'ba-%k.json' "$IN/dbench-before-after.txt"
expect_eq "two systems, never one pooled sample" \
    "$(for f in ba-*.json; do jget "$f" '(d["system"]["description"], [r["value"] for r in d["tests"][0]["runs"]])'; done | sort | tr '\n' ' ')" \
    "('after', [151.5, 152.5, 150.5]) ('before the patch set', [101.5, 102.5, 100.5]) "

# ---- hdparm ----
expect_rc "hdparm output" 0 "$KBENCH" import -o hdparm.json "$IN/hdparm.txt"
expect_eq "-T in both wordings, in MiB/s, each device its own test" "$(jget hdparm.json '[(t["name"], [r["value"] for r in t["runs"]], t["unit"]) for t in d["tests"] if t["name"].startswith("hdparm -T")]')" \
    "[('hdparm -T /dev/sda', [9485.66], 'MiB/s'), ('hdparm -T /dev/hda3', [37.43], 'MiB/s')]"
expect_eq "-t, kB/sec as MiB/s" "$(jget hdparm.json '[[r["value"] for r in t["runs"]] for t in d["tests"] if t["name"] == "hdparm -t /dev/hda3"]')" \
    "[[6.08, 0.5]]"
expect_eq "O_DIRECT is its own test" "$(jget hdparm.json '[t["name"] for t in d["tests"]]')" \
    "['hdparm -T /dev/sda', 'hdparm -t /dev/sda', 'hdparm -T /dev/hda3', 'hdparm -t /dev/hda3', 'hdparm --direct -t /dev/hda3']"
expect_err_grep "a Timing line without a figure is skipped" "hdparm.txt:10: skipped: hdparm -t: not '= X MB/sec'"

printf '/dev/hda:\n Timing buffer-cache reads:   128 MB in  0.69 seconds =185.51 \nMB/sec\n Timing buffered disk reads:  64 MB in 12.01 seconds =  5.33 \nMB/sec\n' >wrapped.txt
expect_rc "hdparm lines whose unit the mailer wrapped to the next line" 0 "$KBENCH" import -o wrapped.json wrapped.txt
expect_eq "are read" "$(jget wrapped.json '[(t["name"], t["runs"][0]["value"]) for t in d["tests"]]')" \
    "[('hdparm -T /dev/hda', 185.51), ('hdparm -t /dev/hda', 5.33)]"

# ---- BYTE, messy ----
expect_rc "a BYTE report with a broken and a wrapped line" 0 "$KBENCH" import -v -o byte.json "$IN/byte-messy.txt"
expect_err_grep "a result without its figure is skipped" "byte-messy.txt:5: skipped: no number before the unit lps"
expect_err_grep "--verbose names the wrapped rest" "byte-messy.txt:7: not read"
expect_err_grep "an index of a test with no result is skipped" "byte-messy.txt:15: skipped: index of Process Creation"
expect_err_grep "--verbose: the printed score differs from the figures'" "FINAL SCORE printed 74.5, worked out 73.6 from 3 indexes"
expect_eq "the tests read, BYTE's names after byte:" "$(jget byte.json '[t["name"] for t in d["tests"]]')" \
    "['byte: Dhrystone 2 using register variables', 'byte: Execl Throughput', 'byte: Shell Scripts (8 concurrent)', 'byte: FINAL SCORE']"
expect_eq "the system from uname -a" "$(jget byte.json '(d["system"]["hostname"], d["system"]["kernel"], d["system"]["kernel_version"], d["system"]["machine"])')" \
    "('box', '2.2.18', '#1 SMP Tue Jan 2 10:00:00 CET 2001', 'i686')"
expect_eq "each run says its file, line and tool" "$(jget byte.json '[(r["source"]["line"], r["tool"], r["run_date"]) for r in d["tests"][1]["runs"]]')" \
    "[(6, 'BYTE UNIX Benchmarks 4.1.0', 'Tue Jan 2 11:00:00 CET 2001')]"

# ---- BYTE: the printed score is the score ----
expect_eq "byte-messy: the printed FINAL SCORE is kept, not the 73.6 worked out" \
    "$(jget byte.json '[([r["value"] for r in t["runs"]], [c["key"] for r in t["runs"] for c in r.get("document", {}).get("caveats", [])]) for t in d["tests"] if t["name"] == "byte: FINAL SCORE"]')" \
    "[([74.5], ['printed_differs'])]"
expect_eq "the caveat carries both figures" \
    "$(jget byte.json '[(e["printed"], round(e["worked_out"], 1)) for t in d["tests"] if t["name"] == "byte: FINAL SCORE" for r in t["runs"] for e in [r["document"]["caveats"][0]["evidence"]]]')" \
    "[(74.5, 73.6)]"
expect_rc "a BYTE 4 report with a typo'd index name and a glued unit" 0 "$KBENCH" import -v -o bm.json "$IN/byte-mangled.txt"
expect_eq "the glued figure is read, the typo'd index line gives its baseline" \
    "$(jget bm.json '[(t["name"], t["runs"][0]["value"], t["params"].get("baseline")) for t in d["tests"]]')" \
    "[('byte: Dhrystone 2 using register variables', 1167000.0, 116700.0), ('byte: Execl Throughput', 430.0, 43.0), ('byte: Pipe Throughput', 1234567.8, 12440.0), ('byte: FINAL SCORE', 214.9, None)]"
expect_err_grep "-v says which result the typo'd line was read as" "byte-mangled.txt:12: index of 'Execl Throughut' read as Execl Throughput's"
expect_eq "score and working agree: no caveat" "$(jget bm.json '[r.get("document") for t in d["tests"] for r in t["runs"]]')" "[None, None, None, None]"
expect_rc "a BYTE 3 report" 0 "$KBENCH" import -v -o b3.json "$IN/byte3.txt"
expect_eq "its AVERAGE is its score, as printed, with the caveat its indexes give" \
    "$(jget b3.json '[(t["runs"][0]["value"], round(t["runs"][0]["document"]["caveats"][0]["evidence"]["worked_out"], 1)) for t in d["tests"] if t["name"] == "byte: AVERAGE"]')" \
    "[(60.0, 57.3)]"
expect_no_grep "BYTE 3's index is result / baseline: no line says otherwise" "$WORK/err" "printed index"
expect_eq "its date, from an indented line" "$(jget b3.json 'd["system"]["run_date"]')" "Mon Dec  9 05:45:47 CET 2002"
cp b3.json b3-copy.json
expect_rc "compare of the BYTE 3 files" 0 "$KBENCH" compare b3.json b3-copy.json
expect_out_grep "shows the caveat on the score's row" "^byte: AVERAGE .*\[caveats: printed_differs\]"

# two reports of one release under headings set between rules; the
# first's FINAL SCORE wrapped onto the next line by the mailer
expect_rc "two headed BYTE reports" 0 "$KBENCH" import -o 'bh-%k.json' "$IN/byte-headed.txt"
expect_eq "each heading is its system's description" \
    "$(for f in bh-*.json; do jget "$f" '(d["system"]["kernel"], d["system"]["description"])'; done | LC_ALL=C sort | tr '\n' ' ')" \
    "('2.5.51', 'kernel 2.5.51 with mm2 patch') ('2.5.51', 'kernel 2.5.51') "
expect_eq "an index line wrapped before its INDEX still gives the baseline" \
    "$(jget bh-kernel_2.5.51-2.5.51-3.json '[t["params"].get("baseline") for t in d["tests"] if t["name"] == "byte: Execl Throughput"]')" "[43.0]"
expect_eq "the wrapped FINAL SCORE is read, the other as before" \
    "$(for f in bh-*.json; do jget "$f" '[r["value"] for t in d["tests"] if t["name"] == "byte: FINAL SCORE" for r in t["runs"]]'; done | LC_ALL=C sort | tr '\n' ' ')" \
    "[116.3] [120.9] "

# a script's trace under a result names its kernel ("+ uname -r", then
# the release); one a blank line away does not
expect_rc "a dbench result with uname -r traced below" 0 "$KBENCH" import -o du.json "$IN/dbench-uname-below.txt"
expect_eq "the traced release is its kernel" "$(jget du.json '(d["system"]["kernel"], [r["value"] for t in d["tests"] for r in t["runs"]])')" \
    "('5.10.12-4.el7.x86_64', [210.5])"
expect_rc "a dbench result with uname -r a blank line below" 0 "$KBENCH" import -o da.json "$IN/dbench-uname-apart.txt"
expect_eq "a release past a blank line is not its kernel" "$(jget da.json '(d["system"].get("kernel", ""), [r["value"] for t in d["tests"] for r in t["runs"]])')" \
    "('', [199.25])"

# a dbench 1 line wrapped before its last word: "procs" alone below
expect_rc "dbench 1 lines with procs wrapped" 0 "$KBENCH" import -o dw.json "$IN/dbench1-procs-wrapped.txt"
expect_eq "each wrapped line's count is the number it ends in" \
    "$(jget dw.json '[(t["name"], [r["value"] for r in t["runs"]]) for t in d["tests"]]')" \
    "[('dbench 8', [213.397]), ('dbench 16', [210.989]), ('dbench 32', [138.713])]"

# one kernel with and without a patch, each heading underlined
expect_rc "dbench under underlined kernel headings" 0 "$KBENCH" import -o 'dk-%k.json' "$IN/dbench1-underlined-kernels.txt"
expect_eq "two systems of one kernel, each heading its description, never pooled" \
    "$(for f in dk-*.json; do jget "$f" '(d["system"]["kernel"], d["system"]["description"], [r["value"] for t in d["tests"] for r in t["runs"]])'; done | LC_ALL=C sort | tr '\n' ' ')" \
    "('2.4.18-pre6', '2.4.18-pre6 (no lowlat)', [108.359, 107.866]) ('2.4.18-pre6', '2.4.18-pre6 + lowlat', [106.33, 108.236]) "

# "dbench 16: Throughput ...": the label names the tool and its count
expect_rc "dbench runs labelled with the tool and count" 0 "$KBENCH" import -o 'dl-%k.json' "$IN/dbench1-labelled-count.txt"
expect_eq "each run read, in its kernel's system" \
    "$(for f in dl-*.json; do jget "$f" '(d["system"]["kernel"], [(t["name"], [r["value"] for r in t["runs"]]) for t in d["tests"]])'; done | LC_ALL=C sort | tr '\n' ' ')" \
    "('2.4.10-pre12', [('dbench 16', [67.8566])]) ('2.4.10-pre12aa1', [('dbench 16', [141.659])]) "

# a dbench 1 line without its count, the shell's time line under it
# giving it; a quoted count above is another run's
expect_rc "dbench 1 with its count on the time line below" 0 "$KBENCH" import -o tb.json "$IN/dbench1-time-below.txt"
expect_eq "the count is the time line's, not the quoted line's above" \
    "$(jget tb.json '[(t["name"], [r["value"] for r in t["runs"]]) for t in d["tests"]]')" "[('dbench 32', [135.02])]"

# ---- LMbench 3 ----
expect_rc "an LMbench 3 summary" 0 "$KBENCH" import -o lm3.json "$IN/lmbench3.txt"
expect_eq "two rows: two runs of each column" "$(jget lm3.json '[(t["name"], [r["value"] for r in t["runs"]]) for t in d["tests"] if t["name"] in ("lmbench: intgr div", "lmbench: Rand mem")]')" \
    "[('lmbench: intgr div', [9.8, 9.81]), ('lmbench: Rand mem', [90.2, 90.9])]"
# a row with blank cells: where the spacing is kept each figure stands
# under its column's dash group; where it is lost the row is skipped
expect_rc "an LMbench 3 summary with blank cells" 0 "$KBENCH" import -o lm3b.json "$IN/lmbench3-blanks.txt"
expect_eq "the blank cells' columns have no figure of that row, the others theirs" \
    "$(jget lm3b.json '[(t["name"], [r["value"] for r in t["runs"]]) for t in d["tests"] if t["name"] in ("lmbench: 2p/16K ctxsw", "lmbench: 8p/16K ctxsw", "lmbench: 8p/64K ctxsw", "lmbench: 16p/16K ctxsw", "lmbench: TCP", "lmbench: TCP conn", "lmbench: UDP")]')" \
    "[('lmbench: 2p/16K ctxsw', [2.04, 0.88]), ('lmbench: 8p/16K ctxsw', [3.19]), ('lmbench: 8p/64K ctxsw', [24.4, 14.7]), ('lmbench: 16p/16K ctxsw', [6.05, 0.1]), ('lmbench: TCP', [20.7]), ('lmbench: TCP conn', [60.0])]"
expect_err_grep "a row whose spacing is lost is skipped, named" "lmbench3-blanks.txt:10: skipped: 5 figures for the 7 columns of 'Context switching'"
expect_eq "Mhz is the machine's, not a test" "$(jget lm3.json '(d["system"]["mhz"], [t for t in d["tests"] if "Mhz" in t["name"]])')" "('2400', [])"

# ---- comparisons without From:/To: ----
expect_rc "a comparison line nobody is named for" 1 "$KBENCH" import -o x.json "$IN/cmp-noheader.txt"
expect_err_grep "skipped: whose figures are unknown" "cmp-noheader.txt:1: skipped: no From: and To: block"

# ---- bad input ----
expect_bad "-o missing" "^kbench import: -o RESULTS.json is missing" "$KBENCH" import "$IN/tbench.txt"
expect_bad "no input" "^kbench import: give the report files to read" "$KBENCH" import -o x.json
expect_bad "a directory as input" "^kbench import: $WORK: Is a directory$" "$KBENCH" import -o x.json "$WORK"
expect_bad "a FIFO as input" "^kbench import: $WORK/fifo: not a regular file$" sh -c 'mkfifo "$0/fifo" && exec "$1" import -o x.json "$0/fifo" </dev/null' "$WORK" "$KBENCH"
expect_bad "an input that is not there" "^kbench import: $WORK/nothere: No such file" "$KBENCH" import -o x.json "$WORK/nothere"

# ---- the seeds ----
if [ ! -d "$SEEDS" ]; then
    skip "the seed reports: none at $SEEDS (set KBENCH_SEEDS)"
    finish
fi
S000=$(ls "$SEEDS"/000_*.txt) S001=$(ls "$SEEDS"/001_*.txt)
S002=$(ls "$SEEDS"/002_*.txt) S003=$(ls "$SEEDS"/003_*.txt)

expect_rc "000: three systems need %k" 2 "$KBENCH" import -o b.json "$S000"
expect_err_grep "000: the refusal names them" "^kbench import: -o b.json: the inputs hold 3 systems \(2.4.0-test6-30, 2.4.0-test6-31, 2.4.0-test6-32\); give a name holding %k"
expect_true "000: nothing written" test ! -e b.json
expect_rc "000 imported" 0 "$KBENCH" import -o 'b-%k.json' "$S000"
expect_lines "000: the three Dc lines say why they are skipped" -eq 3 "$WORK/err" "skipped: Dc: sqrt\(2\) to 99 decimal places: the report has no figure"
expect_eq "000: the FINAL SCOREs worked out from the index lines" \
    "$(for b in 30 31 32; do jget "b-2.4.0-test6-$b.json" '"%.1f" % [t for t in d["tests"] if t["name"] == "byte: FINAL SCORE"][0]["runs"][0]["value"]'; done | tr '\n' ' ')" \
    "136.5 135.7 129.6 "
expect_eq "000: the baselines of the eleven indexed tests" \
    "$(jget b-2.4.0-test6-30.json 'len([t for t in d["tests"] if "baseline" in t["params"]])')" "11"

expect_rc "001 imported" 0 "$KBENCH" import -v -o 'c-%k.json' "$S001"
expect_no_grep "001: every percentage agrees with its figures" "$WORK/err" "printed .*, worked out"
expect_eq "001: the To run, shown three times, is one run" \
    "$(jget c-1.3.12-23.json '[len(t["runs"]) for t in d["tests"]] == [1] * 27')" "True"
# each line's percentage again from the two figures imported
expect_py "001: every percentage from the imported A and B" "$S001" "$WORK" <<'PY'
import json, re, sys
seed, work = sys.argv[1], sys.argv[2]
def fig(path, title):
    d = json.load(open(path))
    return [t["runs"][0]["value"] for t in d["tests"] if t["params"]["title"] == title][0]
files = {"1.3.11": "c-1.3.11-22", "1.3.10": "c-1.3.10-20", "1.2.10": "c-1.2.10-59"}
n = 0
frm = None
for line in open(seed):
    m = re.match(r"\* Linux \S+ (\S+) #", line)
    if m and m.group(1) in files:
        frm = files[m.group(1)]
    m = re.match(r"(.*) \|\| (\S+) -> (\S+) (\S+)%$", line.strip())
    if not m:
        continue
    a, b = fig(f"{work}/{frm}.json", m.group(1)), fig(f"{work}/c-1.3.12-23.json", m.group(1))
    got = "%+.2f" % (100 * (b - a) / a)
    assert got == m.group(4), (line, got)
    n += 1
assert n == 75, n
PY

expect_rc "002 imported" 0 "$KBENCH" import -o 't-%k.json' "$S002"
expect_eq "002: a file per machine and kernel" "$(ls t-*.json | wc -l)" "8"
expect_eq "002: dbench 5 at 32M of 2.2.16-22, its five runs" \
    "$(jget t-133_MHz_Pentium_DMA-2.2.16-22.json '[[r["value"] for r in t["runs"]] for t in d["tests"] if t["name"] == "dbench 5 mem=32M"]')" \
    "[[3.99638, 4.59673, 4.08813, 3.90389, 4.30821]]"
expect_eq "002: hdparm -T at mem=128M in MiB/s" \
    "$(jget t-400_MHz_Mobile_Pentium_II_UDMA_33-2.2.18.json '[([r["value"] for r in t["runs"]], t["unit"]) for t in d["tests"] if t["name"] == "hdparm -T mem=128M"]')" \
    "[([82.05, 82.05, 82.05, 82.05, 82.05], 'MiB/s')]"
expect_eq "002: the memory sizes" "$(jget t-133_MHz_Pentium_DMA-2.2.18.json 'd["params"]["mem_limits"]')" "['80M', '32M']"

expect_rc "003 imported" 0 "$KBENCH" import -o 'l-%k.json' "$S003"
expect_lines "003: the rows with a blank cell are skipped, each named" -eq 2 "$WORK/err" "skipped: [0-9]+ figures for the [0-9]+ columns"
expect_err_grep "003: 2.5.49's first row lacks a cell" "003_[0-9a-f]*.txt:32: skipped: 10 figures for the 11 columns of 'Processor, Processes'"
expect_err_grep "003: a cell that is no plain figure is skipped alone" "003_[0-9a-f]*.txt:55: skipped: not a plain figure: TCP conn '35M'"
expect_eq "003: 2.5.50's five runs of fork proc" \
    "$(jget l-2.5.50.json '[[r["value"] for r in t["runs"]] for t in d["tests"] if t["name"] == "lmbench: fork proc"]')" \
    "[[435.0, 354.0, 447.0, 404.0, 458.0]]"
expect_eq "003: 2.5.49's null call, three rows read (one skipped)" \
    "$(jget l-2.5.49.json '[[r["value"] for r in t["runs"]] for t in d["tests"] if t["name"] == "lmbench: null call"]')" \
    "[[0.4, 0.38, 0.38]]"
expect_eq "003: RPC/UDP is kbench's lat_rpc_udp" \
    "$(jget l-2.5.50.json '[t["params"].get("lm_name") for t in d["tests"] if t["name"] == "lmbench: RPC/UDP"]')" \
    "['lat_rpc_udp']"
# compare prints the local communication table back with every column,
# RPC/UDP after UDP and RPC/TCP after TCP as lmbench 2.0 has them
expect_rc "003 compared" 0 "$KBENCH" compare l-2.5.49.json l-2.5.50.json
expect_out_grep "003: the RPC columns in lmbench's places" \
    "^Host +OS +2p/0K +Pipe +AF +UDP +RPC/ +TCP +RPC/ +TCP\$"
expect_out_grep "003: 2.5.50's first row, every column" \
    "^benchtest +Linux 2\.5\.50 B1 +1\.20 +8\.45 +20\.0 +34\.0 +59\.0 +123 +154 +159\$"
finish
