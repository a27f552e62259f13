#!/bin/sh
# kbench - command-line tests: kbench import's readings of trailing labels,
# supercite quotes, numbered headings over hdparm's one-line form, tables
# of Averages, LMbench's cut OS column, --rows, runs no kernel line heads
# (never pooled) and the closest form named, on small made-up inputs
# (tests/data/import) and on report 022 of tests/data/archives
# SPDX-License-Identifier: GPL-3.0-or-later
. "$(dirname "$0")/lib.sh"

IN="$DATA/import"
ARCH="$DATA/archives"
cd "$WORK" || exit 1
# each results file in the current directory: "kernel|description|test=runs ..."
systems() {
    for f in *.json; do
        jget "$f" '"%s|%s|%s" % (d["system"].get("kernel", ""), d["system"].get("description", ""), " ".join("%s=%s" % (t["name"], ",".join("%g" % r["value"] for r in t["runs"])) for t in d["tests"]))'
    done | sort
}

# ---- a label after "N procs" names the line's system ----
mkdir labels && cd labels
expect_rc "dbench lines with trailing labels" 0 "$KBENCH" import -o '%k.json' "$IN/dbench-labels.txt"
expect_eq "a kernel label is the kernel, other words the heading; two lines of one label one system; a figure is no label" \
    "$(systems | tr '\n' ' ')" \
    "2.4.10-ac12||dbench 16=40.1 2.4.13||dbench 16=38.2 |with patch|dbench 8=21.5 |without patch|dbench 8=20.1,19.9 ||dbench 8=20.3 "
rm -f ./*.json
expect_rc "the same lines and one ending in a figure" 0 "$KBENCH" import -o '%k.json' "$IN/dbench-labels.txt" "$IN/dbench.txt"
expect_eq "a figure after 'N procs' and dbench 4's max_latency= name no system: those runs are the kernel-less system's" \
    "$(jget unknown.json '[(t["name"], [r["value"] for r in t["runs"]]) for t in d["tests"]]')" \
    "[('dbench 8', [20.3]), ('dbench 10', [590.123]), ('dbench 5', [7.97753, 8.13792, 8.1])]"
cd ..

# ---- supercite: " AE> " is a quote mark ----
mkdir sc && cd sc
expect_rc "a reply quoting supercite-style" 0 "$KBENCH" import -o '%k.json' "$IN/supercite.txt"
expect_eq "the quoted runs apart from the replier's, both of the kernel each side names" \
    "$(systems | tr '\n' ' ')" \
    "2.6.0-test4|quoted|dbench 4=221.8,220.1 2.6.0-test4||dbench 4=116.4 "
cd ..

# ---- numbered headings over "/dev/X: Timing ..." ----
mkdir hd && cd hd
expect_rc "hdparm's one-line form under numbered headings" 0 "$KBENCH" import -o '%k.json' "$IN/hdparm-numbered.txt"
expect_eq "each device its own test, each heading its own system ('3)' names no kernel: none carried down)" \
    "$(systems | tr '\n' ' ')" \
    "2.4.10-pre4||hdparm -t /dev/hda1=12.8 hdparm -t /dev/hdc1=20.65 2.4.9||hdparm -t /dev/hda1=13.45 hdparm -t /dev/hdc1=20 |same, readahead 64|hdparm -t /dev/hda1=16 "
cd ..

# ---- a table of Averages ----
mkdir avg && cd avg
expect_rc "Kernel N Average Baseline Ratio" 0 "$KBENCH" import -o '%k.json' "$ARCH/041-dbench-average-baseline-ratio.txt"
expect_eq "one figure a kernel and count, the Average; Baseline and Ratio not runs" \
    "$(systems | head -2 | tr '\n' ' ')" \
    "2.4.19||dbench 2=46.6689 dbench 8=25.5343 dbench 16=20.7133 dbench 24=16.2473 dbench 32=14.2351 2.5.34||dbench 2=28.675 dbench 8=26.7106 dbench 16=21.0888 dbench 24=13.9644 dbench 32=12.6921 "
expect_rc "the same table, no line naming the tool" 1 "$KBENCH" import -o '%k.json' "$IN/avg-nameless.txt"
expect_err_grep "the table is named, never guessed dbench" "avg-nameless.txt:2: skipped: a table of Averages, and no line above names dbench or tbench"
cd ..

# ---- LMbench's OS column cut: rows apart, or grouped by --rows ----
mkdir lm && cd lm
expect_rc "four rows of one cut OS name" 0 "$KBENCH" import -o '%k.json' "$IN/lmbench-cut.txt"
expect_eq "each row its own system, in report order, none pooled" \
    "$(systems | cut -d'|' -f1-2 | tr '\n' ' ')" \
    "|row 1, OS 'Linux 2.4.0-t' cut (split not proven) |row 2, OS 'Linux 2.4.0-t' cut (split not proven) |row 3, OS 'Linux 2.4.0-t' cut (split not proven) |row 4, OS 'Linux 2.4.0-t' cut (split not proven) "
expect_err_grep "said on one line" "lmbench-cut.txt:9: OS column cut at 13 characters .'Linux 2.4.0-t'.: which kernel each row is, is not printed; each row kept apart"
expect_eq "said once" "$(grep -c 'OS column cut' "$WORK/err")" "1"
rm -f ./*.json
expect_rc "--rows 2,2" 0 "$KBENCH" import --rows 2,2 -o '%k.json' "$IN/lmbench-cut.txt"
expect_eq "rows 1-2 one system, rows 3-4 the other, each row a run" \
    "$(for f in *.json; do jget "$f" '(d["system"]["description"], [r["value"] for t in d["tests"] if t["name"] == "lmbench: 16p/16K ctxsw" for r in t["runs"]])'; done | sort | tr '\n' ' ')" \
    "(\"rows 1-2, OS 'Linux 2.4.0-t' cut\", [439.0, 440.0]) (\"rows 3-4, OS 'Linux 2.4.0-t' cut\", [416.0, 418.0]) "
rm -f ./*.json
expect_rc "--rows 2,1: fewer rows than the table's" 2 "$KBENCH" import --rows 2,1 -o '%k.json' "$IN/lmbench-cut.txt"
expect_err_grep "the row named" "lmbench-cut.txt:12: skipped: --rows places fewer rows than this table's 4"
expect_eq "nothing written" "$(ls | grep -c json)" "0"
cd ..

# ---- --rows splits 022's interleaved runs ----
mkdir r22 && cd r22
expect_rc "022 alone: one system, the split not proven" 0 "$KBENCH" import -o '%k.json' "$ARCH/022-dbench1-interleaved-kernels.txt"
expect_err_grep "said on stderr" "022-dbench1-interleaved-kernels.txt:22: names several kernels: the runs below are kept together"
rm -f ./*.json
expect_rc "022 with --rows 1,1" 0 "$KBENCH" import --rows 1,1 -o '%k.json' "$ARCH/022-dbench1-interleaved-kernels.txt"
expect_eq "each count's first run 2.4.7-ac3's, its second 2.4.7-ac9's: the .expect's figures" \
    "$(systems | tr '\n' ' ')" \
    "$(python3 -c 'import sys
out = {}
for l in open(sys.argv[1]):
    if l.startswith("#"): continue
    k, h, t, v = [x.strip() for x in l.split("|")]
    out.setdefault(k, []).append("%s=%g" % (t, float(v)))
print(" ".join("%s||%s" % (k, " ".join(v)) for k, v in sorted(out.items())), end=" ")' "$ARCH/022-dbench1-interleaved-kernels.expect")"
rm -f ./*.json
expect_rc "--rows 1: fewer runs than a count has" 2 "$KBENCH" import --rows 1 -o '%k.json' "$ARCH/022-dbench1-interleaved-kernels.txt"
expect_err_grep "the run named" "skipped: dbench 48's run 2: --rows places fewer runs of each test"
rm -f ./*.json
expect_rc "--rows over a report with no unproven split" 0 "$KBENCH" import --rows 1,1 -o '%k.json' "$IN/dbench-labels.txt"
expect_err_grep "said, not silently passed over" "--rows 1,1: no runs in the inputs whose split is unproven: not used"
expect_rc "--rows 0" 2 "$KBENCH" import --rows 0 -o x.json "$ARCH/022-dbench1-interleaved-kernels.txt"
expect_rc "--rows 1,x" 2 "$KBENCH" import --rows 1,x -o x.json "$ARCH/022-dbench1-interleaved-kernels.txt"
expect_err_grep "the option named" "--rows 1,x: give counts of 1 or more"
cd ..
# ---- never pooled: what no kernel line heads (made-up reports of the forms) ----
mkdir np && cd np
expect_rc "'NAME: average X MB/sec' over each kernel's runs, a filesystem's version in prose" 0 \
    "$KBENCH" import -o '%k.json' "$IN/dbench-average-headings.txt"
expect_eq "three systems of four runs, each its heading's; 'reiserfs 3.6.25' is no kernel; rmap13c's kernel not proven" \
    "$(systems | tr '\n' ' ')" \
    "2.4.19-pre8-aa2||dbench 16=12.1,11.9,12.2,11.8 2.4.19-pre8||dbench 16=9.1,8.9,9.2,8.8 |rmap13c (kernel not proven)|dbench 16=10.5,10.7,10.6,10.64 "
expect_eq "the summary line says which kernel is not proven" \
    "$(grep -c '(kernel unknown, rmap13c (kernel not proven))' "$WORK/out")" "1"
rm -f ./*.json
expect_rc "a reply quoting runs behind '~ ', '~ > ' and ': ', three kernels named in prose" 0 \
    "$KBENCH" import -o '%k.json' "$IN/dbench-tilde-quoted-kernels.txt"
expect_eq "each paragraph and quote level its own system, named by its words, none pooled" \
    "$(systems | tr '\n' ' ')" \
    "|quoted, ./dbench 16 on the plain tree gave me these, all on one box (kernel not proven)|dbench 16=9.1,8.9 |quoted, The tree with everything merged, for comparison, goes further still (kernel not proven)|dbench 16=12.3,12.1 |quoted, and an older mail of mine had, on one more box (kernel not proven)|dbench 16=7.7 |quoted, and this is the same box once the whole patch set went in (kernel not proven)|dbench 16=11.2,11.4 |quoted, the reply's own box, quoted back by a later reply (kernel not proven)|dbench 16=8.1 "
expect_err_grep "a paragraph after prose, said" "dbench-tilde-quoted-kernels.txt:9: no kernel line heads the runs from here .prose since the runs above.: kept apart as 'and this is the same box once the whole patch set went in', kernel not proven"
expect_err_grep "another quote level, said" "dbench-tilde-quoted-kernels.txt:19: no kernel line heads the runs from here .another quote level than the runs above."
rm -f ./*.json
expect_rc "046: hdparm set off by '| ', one kernel four ways" 0 "$KBENCH" import -o '%k.json' "$ARCH/046-hdparm-bar-quoted-one-kernel-four-ways.txt"
expect_eq "four systems of three runs: the kernel lines' words, and the block under prose its own" \
    "$(systems | tr '\n' ' ')" \
    "6.6.47|quoted, modified 6.6.47 kernel|hdparm -t=126.3,124.61,126.62 6.6.47|quoted, now no WARNINGS are triggered and hdparm -t /dev/sda produces|hdparm -t=73.32,72.28,74.02 6.6.47|quoted, the unmodified 6.6.47 kernel scored|hdparm -t=72.93,73.5,71.94 6.6.47|quoted, unmodified 6.6.47 kernel|hdparm -t=118.61,119.12,119.03 "
rm -f ./*.json
expect_rc "an LMbench table whose rule a mailer dropped" 1 "$KBENCH" import -o '%k.json' "$IN/lmbench-no-rule.txt"
expect_err_grep "the closest form named, and what differed" "lmbench-no-rule.txt: no figure found in any form kbench import reads; the closest, line 8: an LMbench table heading without the column rule LMbench 2.0 prints"
sed '/L M B E N C H/d' "$ARCH/044-lmbench10-two-kernels-and-sunos.txt" > nobanner.txt
expect_rc "LMbench 1.0's tables without their banner" 1 "$KBENCH" import -o '%k.json' nobanner.txt
expect_err_grep "no banner, named" "nobanner.txt: no figure found in any form kbench import reads; the closest, line 10: an LMbench table title with no 'L M B E N C H ... S U M M A R Y' banner above it"
printf 'a smiley line\n:-) Throughput 9.1 MB/sec 16 procs\n' > smiley.txt
expect_rc "':-)' is no quote mark" 1 "$KBENCH" import -o '%k.json' smiley.txt
expect_err_grep "nothing read from it" "smiley.txt: no figure found"
cd ..
finish
